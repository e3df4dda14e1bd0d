//! `grimoire validate`: every static check, the simulation checks at every
//! player count and option, and source traceability; a report for people or
//! JSON (schema in docs/validate.md). Exit 0 only when nothing is found.

use super::{compile_files, names, reject, Ui, INVALID};
use grimoire_cli::render::more;
use grimoire_cli::sources::lookup;
use grimoire_cli::ui::{colors, count, plural, MAX_SHOWN};
use grimoire_interpreter::validate::{configurations, validate as run_validate, Config, OnProgress, Phase, Progress, Report, Severity};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `grimoire validate`.
pub struct Args<'a> {
    /// Rulebook and modules.
    pub files: &'a [PathBuf],
    /// Games per configuration.
    pub games: u32,
    /// Decision bound.
    pub max_decisions: u32,
    /// Extra folders holding source texts.
    pub sources: &'a [PathBuf],
    /// Where to write counterexample logs.
    pub save: &'a Path,
    /// Also write the side-by-side page here.
    pub html: Option<&'a Path>,
    /// Threads to play the games on.
    pub jobs: usize,
    /// Only this set of options (`--option`, repeated); every set when empty.
    pub options: &'a [String],
    /// Only this player count (`--players`); every count when `None`.
    pub players: Option<u8>,
    /// States the systematic search explores per configuration.
    pub explore_states: usize,
    /// Coverage-guided games per configuration.
    pub guided_games: u32,
}

/// Validate a rulebook.
pub fn validate(a: Args, ui: &Ui) -> Result<ExitCode, String> {
    grimoire_cli::sources::check_folders(a.sources)?;
    let (model, sources) = match compile_files(a.files)? {
        Ok(c) => c,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    let main = a.files.first().cloned().unwrap_or_default();
    let found = lookup(&model, &sources, &main, a.sources);
    if !found.refused.is_empty() {
        // A source text that may not be read is a fault of the rulebook (or of its folders): nothing of it is shown.
        return Ok(reject(ui, &super::Invalid { diags: found.refused, sources }));
    }
    let texts = found.texts;
    // The files this run reads, which no output may replace.
    let inputs: Vec<PathBuf> = sources.iter().map(|s| PathBuf::from(&s.name)).chain(found.read_from).collect();
    if let Some(o) = a.options.iter().find(|o| !model.options.contains(o)) {
        return Err(grimoire_interpreter::engine::SetupError::unknown_option(&model, o).to_string());
    }
    let options = (!a.options.is_empty()).then(|| a.options.to_vec());
    if let Some(asked) = a.players.filter(|p| !(model.min_players..=model.max_players).contains(p)) {
        return Err(grimoire_interpreter::engine::SetupError::Players { min: model.min_players, max: model.max_players, asked }.to_string());
    }
    // Where the results go, before the run that makes them.
    grimoire_cli::output::check_folder(a.save)?;
    if let Some(path) = a.html {
        grimoire_cli::output::check_file(path, &inputs)?;
    }
    let meter = ui.meter(Some(0), "");
    let bar = meter.bar().clone();
    let progress = OnProgress::new(move |p| match p {
        Progress::Phase { phase, total } => {
            bar.set_length(total);
            bar.set_position(0);
            bar.set_message(match phase {
                Phase::Games => "random games",
                Phase::Search => "states searched",
                Phase::Guided => "guided games",
            });
        }
        Progress::Done(n) => bar.inc(n),
    });
    let mut cfg = Config { games: a.games, max_decisions: a.max_decisions, rulebook: names(&sources), jobs: a.jobs, options, players: a.players, explore_states: a.explore_states, guided_games: a.guided_games, ..Config::default() };
    let configs = configurations(&model, &cfg);
    cfg.progress = progress;
    cfg.stop = grimoire_cli::interrupt::catch("finishing the games and the search under way, then showing what was done");
    let report = run_validate(model.clone(), &texts, &cfg);
    meter.finish(|s| {
        let games: u64 = report.runs.iter().map(|r| u64::from(r.games)).sum();
        let states: u64 = report.searched.iter().map(|r| r.states as u64).sum();
        let mut done = vec![plural(games, "random game")];
        if !report.searched.is_empty() {
            done.push(format!("{} searched", plural(states, "state")));
        }
        let guided: u64 = match report.interrupted {
            // Only the total of the guided games is known before they run.
            true => 0,
            false => configs * u64::from(a.guided_games),
        };
        if guided > 0 {
            done.push(plural(guided, "guided game"));
        }
        if report.interrupted {
            // Only the configurations that began count.
            let began = report.runs.len() as u64;
            return format!("interrupted: validated {} of {configs}: {} in {s:.1} s", plural(began, "configuration"), done.join(", "));
        }
        format!("validated {}: {} in {s:.1} s", plural(configs, "configuration"), done.join(", "))
    });
    if let Some(path) = a.html {
        let page = grimoire_cli::html::side_by_side(&report, &model, &sources);
        std::fs::write(path, page).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        if !ui.quiet && !ui.json {
            grimoire_cli::esay!("side-by-side page written to {}", path.display());
        }
    }
    let stem = super::counterexamples::stem_of(&report.rulebook, &model.modules);
    // `inputs` holds the source texts read too (a hostile tester's rulebook
    // cited a text named like a counterexample, which `--save .` wrote over).
    let saved = super::counterexamples::save(&report.findings, &stem, &sources, &inputs, a.save, |f| f.seed.map_or_else(|| "explore".to_string(), |s| format!("seed{s}")))?;
    // The logs inside the JSON report name their files from the working directory, with their hashes.
    let mut report = report;
    grimoire_cli::logfile::stamp_in_place(report.findings.iter_mut().filter_map(|f| f.counterexample.as_mut()), &sources);
    let code = match (report.interrupted, report.errors()) {
        (true, _) => grimoire_cli::interrupt::INTERRUPTED,
        (false, 0) => 0,
        (false, _) => INVALID,
    };
    if ui.json {
        return Ok(ui.emit_report(code, serde_json::to_value(&report).map_err(|e| e.to_string())?));
    }
    print_human(&report, &super::with_modules(&model.modules), &sources, ui, &saved);
    Ok(ExitCode::from(code))
}

/// The findings on stderr (with `--quiet`, the errors only; at most
/// [`MAX_SHOWN`]), the report on stdout (with `--quiet`, its last line only).
fn print_human(r: &Report, with_modules: &str, sources: &[grimoire_interpreter::Source], ui: &Ui, saved: &[(usize, PathBuf)]) {
    let shown: Vec<(usize, &grimoire_interpreter::validate::Finding)> = r.findings.iter().enumerate().filter(|(_, f)| !ui.quiet || f.severity == Severity::Error).collect();
    for (i, f) in shown.iter().take(MAX_SHOWN) {
        let saved = saved.iter().find(|(j, _)| j == i).map(|(_, p)| p.as_path());
        super::counterexamples::print(f, saved, sources, ui);
    }
    grimoire_cli::eput!("{}", more(shown.len()));
    let errors = r.errors();
    let warnings = r.findings.iter().filter(|f| f.severity == Severity::Warning).count();
    let last = format!("{} error(s), {} warning(s)", count(errors as u64), count(warnings as u64));
    let last = ui.paint_out(&last, if errors > 0 { colors::RED } else if warnings > 0 { colors::YELLOW } else { colors::GREEN });
    let last = match interrupted_note(r) {
        Some(note) => format!("{note}\n{last}"),
        None => last,
    };
    if ui.quiet {
        grimoire_cli::say!("{last}");
        return;
    }
    grimoire_cli::say!("{}", ui.paint_out(&format!("validation of `{}`{with_modules}", r.rulebook), colors::CYAN));
    // The median and longest game count decisions (forced moves and chance
    // are not decisions): said above them, the rows keep their widths.
    grimoire_cli::say!("\n{:47}decisions", "");
    grimoire_cli::say!("  players  options              games  failed  median  longest  seconds");
    for run in &r.runs {
        let opts = if run.options.is_empty() { "-".to_string() } else { run.options.join(",") };
        grimoire_cli::say!("  {:>7}  {:<20} {:>6}  {:>6}  {:>6}  {:>7}  {:>7.2}", run.players, opts, run.games, run.failed, run.median_decisions, run.max_decisions, run.seconds);
    }
    let ran = |c: &&grimoire_interpreter::validate::simulate::RuleCoverage| c.fired > 0 || c.explored;
    let never: Vec<&str> = r.coverage.iter().filter(|c| !ran(c) && c.replaced_by.is_none()).map(|c| c.rule.as_str()).collect();
    let replaced: Vec<String> = r.coverage.iter().filter_map(|c| Some(format!("{} (`{}`)", c.rule, c.replaced_by.as_ref()?))).collect();
    let fired = r.coverage.iter().filter(ran).count();
    let mut coverage = format!("\n  rule coverage: {fired} of {} procedures and end conditions fired in the random games or the search", r.coverage.len());
    if !replaced.is_empty() {
        coverage.push_str(&format!("; replaced by a module's exception that always holds: {}", replaced.join(", ")));
    }
    if !never.is_empty() {
        coverage.push_str(&format!("; never: {}", never.join(", ")));
    }
    grimoire_cli::say!("{coverage}");
    let ran = r.branches.iter().filter(|b| b.runs > 0 || b.explored).count();
    grimoire_cli::say!("  branch coverage: {ran} of {} branches ran in the random games or the search", r.branches.len());
    if !r.searched.is_empty() {
        let exhausted = r.searched.iter().filter(|s| s.exhausted).count();
        let states: usize = r.searched.iter().map(|s| s.states).sum();
        let n = r.searched.len();
        // Counted per configuration, not per state: said so, since "0 of
        // them" after a number of states read as states.
        let unit = if states == 1 { "state" } else { "states" };
        let mut line = format!("  exhaustive search: {} {unit} in {n} configuration(s); exhausted (every choice and chance outcome visited) in {exhausted} of the {n}", count(states as u64));
        let sampled = r.searched.iter().filter(|s| s.sampled_shuffles).count();
        if sampled > 0 {
            let exhausted_sampled = r.searched.iter().filter(|s| s.exhausted && s.sampled_shuffles).count();
            line.push_str(&format!("; a shuffle too large to enumerate was searched through sampled orders, not every order, in {sampled} of the {n}"));
            if exhausted_sampled > 0 {
                line.push_str(&format!(" ({exhausted_sampled} of them exhausted through those orders only)"));
            }
        }
        grimoire_cli::say!("{line}");
    }
    grimoire_cli::say!("  {}", termination_line(r));
    // Citations of a text that could not be read are not "found" either:
    // "0 not found" alone read as if every quote had been checked.
    let unread = match r.trace.unread {
        0 => String::new(),
        n => format!("; {n} not checked: their source text could not be read (T002)"),
    };
    grimoire_cli::say!("\n  source coverage ({} citations, {} not found{unread}):", r.trace.citations, r.trace.not_found);
    for s in &r.trace.sources {
        grimoire_cli::say!("    {}: {} of {} paragraphs covered ({:.1} %)", s.source, s.covered, s.paragraphs, s.percent);
        // The paragraphs not covered: those nothing cites, then those only
        // short quotes reach.
        let not_covered: Vec<(&str, &grimoire_interpreter::validate::trace::Uncited)> = s.uncited.iter().map(|u| ("uncited", u)).chain(s.short_only.iter().map(|u| ("only short quotes", u))).collect();
        for (why, u) in not_covered.iter().take(20) {
            grimoire_cli::say!("      {why}, line {}: {}", u.line, grimoire_cli::render::printable_words(&u.text));
        }
        if not_covered.len() > 20 {
            grimoire_cli::say!("      ... and {} more (see --json)", not_covered.len() - 20);
        }
    }
    // Each with where it is written, for a reviewer to go and read it.
    for (title, notes) in [("assumptions", &r.assumptions), ("discrepancies", &r.discrepancies), ("narrative rules", &r.narratives)] {
        grimoire_cli::say!("\n  {title} ({}):", notes.len());
        for n in notes {
            grimoire_cli::say!("    - {} ({}): {}", n.name, grimoire_cli::render::place_in(sources, n.at), n.text);
        }
    }
    grimoire_cli::say!("\n{last}");
}

/// What an interrupted run did not do, said before its last line.
fn interrupted_note(r: &Report) -> Option<String> {
    r.interrupted.then(|| {
        let games: u64 = r.runs.iter().map(|run| u64::from(run.games)).sum();
        format!("interrupted (Ctrl-C): the report holds what was done ({} in {} configuration(s), the search of {}); the rest was not run", plural(games, "random game"), r.runs.len(), plural(r.searched.len() as u64, "configuration"))
    })
}

/// What the report shows of termination: proven by an exhausted search,
/// refuted by a lasso, or only tested by the random games (an outside
/// tester's draughts without a draw rule passed with no word that nothing
/// had proven its games end).
fn termination_line(r: &grimoire_interpreter::validate::Report) -> String {
    if r.findings.iter().any(|f| f.code == grimoire_interpreter::validate::cycles::ENDLESS) {
        return "termination: refuted: a game can go on forever (V505 above)".to_string();
    }
    // A rule that loops without a decision never ends either, whatever
    // the search proved of the states between decisions.
    if r.findings.iter().any(|f| f.code == grimoire_interpreter::engine::ExecErrorKind::Fuel.code()) {
        return "termination: refuted: the rules loop without a decision (R0002 above)".to_string();
    }
    let n = r.searched.len();
    let exhausted = r.searched.iter().filter(|s| s.exhausted).count();
    match (n, exhausted) {
        (0, _) => "termination: not searched (`--explore-states 0`): only the random games ended".to_string(),
        (n, e) if e == n => {
            let sampled = r.searched.iter().filter(|s| s.sampled_shuffles).count();
            let through = if sampled > 0 { format!(" (in {sampled}, through the sampled orders of a shuffle only)") } else { String::new() };
            format!("termination: proven in every configuration searched ({n}): no loop among every state reachable{through}")
        }
        (n, e) => {
            // What stopped each search, counted: the state budget (which a
            // larger `--explore-states` moves), or another limit (a
            // `simultaneous` step with too many combinations had read as
            // the budget, an outside tester's).
            let mut stops: Vec<(&str, usize)> = Vec::new();
            for why in r.searched.iter().filter(|s| !s.exhausted).map(|s| s.stopped_by.as_deref().unwrap_or("a limit")) {
                match stops.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, count)) => *count += 1,
                    None => stops.push((why, 1)),
                }
            }
            let by: Vec<String> = stops.iter().map(|(why, count)| if stops.len() == 1 { format!("by {why}") } else { format!("by {why} in {count}") }).collect();
            let larger = if stops.iter().any(|(why, _)| why.starts_with("the state budget")) { "; a larger `--explore-states` may prove it" } else { "" };
            format!(
                "termination: not proven in {} of the {n} configuration(s): their search was stopped {} before every state was visited, and a loop of moves may lie beyond it (the random games only show that they ended{larger})",
                n - e,
                by.join(", ")
            )
        }
    }
}
