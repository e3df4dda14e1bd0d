//! `grimoire validate`: every static check, the simulation checks at every
//! player count and option, and source traceability; a report for people or
//! JSON (schema in docs/validate.md). Exit 0 only when nothing is found.

use super::{compile_files, names, INVALID};
use grimoire_cli::render::{finding, ErrorFormat};
use grimoire_cli::sources::find_sources;
use grimoire_interpreter::validate::{validate as run_validate, Config, Report, Severity};
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
    /// JSON output.
    pub json: bool,
    /// Where to write counterexample logs.
    pub save: &'a Path,
    /// Renderer.
    pub format: ErrorFormat,
    /// Also write the side-by-side page here.
    pub html: Option<&'a Path>,
    /// Threads to play the games on.
    pub jobs: usize,
    /// Only this set of options (`--option`, repeated); every set when empty.
    pub options: &'a [String],
    /// States the systematic search explores per configuration.
    pub explore_states: usize,
    /// Coverage-guided games per configuration.
    pub guided_games: u32,
}

/// Validate a rulebook.
pub fn validate(a: Args) -> Result<ExitCode, String> {
    let format = if a.json { ErrorFormat::Json } else { a.format };
    let Some((model, sources)) = compile_files(a.files, format)? else { return Ok(ExitCode::from(INVALID)) };
    let main = a.files.first().cloned().unwrap_or_default();
    let texts = find_sources(&model, &main, a.sources);
    if let Some(o) = a.options.iter().find(|o| !model.options.contains(o)) {
        return Err(format!("the rulebook has no option `{o}`; its options are: {}", if model.options.is_empty() { "none".to_string() } else { model.options.join(", ") }));
    }
    let options = (!a.options.is_empty()).then(|| a.options.to_vec());
    let cfg = Config { games: a.games, max_decisions: a.max_decisions, rulebook: names(&sources), jobs: a.jobs, options, explore_states: a.explore_states, guided_games: a.guided_games, ..Config::default() };
    let report = run_validate(model.clone(), &texts, &cfg);
    if let Some(path) = a.html {
        let page = grimoire_cli::html::side_by_side(&report, &model, &sources);
        std::fs::write(path, page).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        eprintln!("side-by-side page written to {}", path.display());
    }
    let saved = save_counterexamples(&report, a.save)?;
    if a.json {
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print_human(&report, &sources, a.format, &saved);
    }
    Ok(if report.errors() == 0 { ExitCode::SUCCESS } else { ExitCode::from(INVALID) })
}

fn save_counterexamples(report: &Report, dir: &Path) -> Result<Vec<(usize, PathBuf)>, String> {
    let mut saved = Vec::new();
    for (i, f) in report.findings.iter().enumerate() {
        let Some(log) = &f.counterexample else { continue };
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        let path = dir.join(format!("{}-{}-{}p-seed{}.json", report.rulebook, f.code, f.players.unwrap_or(0), f.seed.unwrap_or(0)));
        let text = serde_json::to_string_pretty(log).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
        saved.push((i, path));
    }
    Ok(saved)
}

fn print_human(r: &Report, sources: &[grimoire_interpreter::Source], format: ErrorFormat, saved: &[(usize, PathBuf)]) {
    for (i, f) in r.findings.iter().enumerate() {
        eprint!("{}", finding(f, sources, format));
        if let Some((_, p)) = saved.iter().find(|(j, _)| *j == i) {
            eprintln!("  counterexample: grimoire replay {}\n", p.display());
        }
    }
    grimoire_cli::say!("validation of `{}`", r.rulebook);
    grimoire_cli::say!("\n  players  options              games  failed  median  longest  seconds");
    for run in &r.runs {
        let opts = if run.options.is_empty() { "-".to_string() } else { run.options.join(",") };
        grimoire_cli::say!("  {:>7}  {:<20} {:>6}  {:>6}  {:>6}  {:>7}  {:>7.2}", run.players, opts, run.games, run.failed, run.median_decisions, run.max_decisions, run.seconds);
    }
    let never: Vec<&str> = r.coverage.iter().filter(|c| c.fired == 0).map(|c| c.rule.as_str()).collect();
    grimoire_cli::say!("\n  rule coverage: {} of {} procedures and end conditions fired{}", r.coverage.len() - never.len(), r.coverage.len(), if never.is_empty() { String::new() } else { format!("; never: {}", never.join(", ")) });
    let ran = r.branches.iter().filter(|b| b.runs > 0 || b.explored).count();
    grimoire_cli::say!("  branch coverage: {ran} of {} branches ran in the random games or the search", r.branches.len());
    if !r.searched.is_empty() {
        let exhausted = r.searched.iter().filter(|s| s.exhausted).count();
        let states: usize = r.searched.iter().map(|s| s.states).sum();
        grimoire_cli::say!("  exhaustive search: {states} states in {} configuration(s), {exhausted} of them exhausted (every choice and chance outcome)", r.searched.len());
    }
    grimoire_cli::say!("\n  source coverage ({} citations, {} not found):", r.trace.citations, r.trace.not_found);
    for s in &r.trace.sources {
        grimoire_cli::say!("    {}: {} of {} paragraphs cited ({:.1} %)", s.source, s.covered, s.paragraphs, s.percent);
        for u in s.uncited.iter().take(20) {
            grimoire_cli::say!("      uncited, line {}: {}", u.line, u.text);
        }
        if s.uncited.len() > 20 {
            grimoire_cli::say!("      ... and {} more (see --json)", s.uncited.len() - 20);
        }
    }
    grimoire_cli::say!("\n  assumptions ({}):", r.assumptions.len());
    for a in &r.assumptions {
        grimoire_cli::say!("    - {}: {}", a.name, a.text);
    }
    grimoire_cli::say!("\n  discrepancies ({}):", r.discrepancies.len());
    for d in &r.discrepancies {
        grimoire_cli::say!("    - {}: {}", d.name, d.text);
    }
    let errors = r.errors();
    let warnings = r.findings.iter().filter(|f| f.severity == Severity::Warning).count();
    grimoire_cli::say!("\n{errors} error(s), {warnings} warning(s)");
}
