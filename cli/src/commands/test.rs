//! `grimoire test`: runs the scenarios of a rulebook and its modules and
//! prints one line per scenario, cargo-test style, then the failures with
//! the step, what it expected, what it found and where the game stood.
//!
//! A scenario runs on the files it belongs to, whatever else is given: one
//! declared in the base rulebook on the base alone, one declared in a
//! module on the base and that module, plus the modules its `with` clause
//! names (skipped when one of them is not given). Exit 0 when no scenario
//! fails, 1 when one fails (or the rulebook is invalid), 2 when the tool
//! fails.

use super::{load_files, reject, Invalid, Ui, INVALID};
use grimoire_cli::render::ErrorFormat;
use grimoire_cli::sources::find_scenario_sources;
use grimoire_interpreter::model::Citation;
use grimoire_interpreter::validate::trace::quote_in;
use grimoire_interpreter::engine::Observation;
use grimoire_interpreter::model::{Loc, Model};
use grimoire_interpreter::scenario::{run_all, Failure, ScenarioResult, Verdict};
use grimoire_interpreter::{compile, Source};
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `grimoire test`.
pub struct Args<'a> {
    /// Rulebook and modules.
    pub files: &'a [PathBuf],
    /// Only the scenarios whose name contains this.
    pub filter: Option<&'a str>,
    /// More folders of source texts, for the scenarios' quotes.
    pub sources: &'a [PathBuf],
}

/// One scenario's result and the files it ran on.
struct Ran {
    result: ScenarioResult,
    sources: Vec<Source>,
}

/// Run the scenarios.
pub fn test(a: Args, ui: &Ui) -> Result<ExitCode, String> {
    grimoire_cli::sources::check_folders(a.sources)?;
    let sources = match load_files(a.files)? {
        Ok(s) => s,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    let model = match compile(&sources) {
        Ok(m) => m,
        Err(diags) => return Ok(reject(ui, &Invalid { diags, sources })),
    };
    let wanted = |name: &str| a.filter.is_none_or(|f| name.contains(f));
    // Group the scenarios by the files they run on, in declaration order.
    let mut groups: Vec<(Vec<usize>, Vec<String>)> = Vec::new();
    let mut order: Vec<(String, usize)> = Vec::new();
    for def in model.scenarios.iter().filter(|d| wanted(&d.name)) {
        // A scenario that needs a module not given is skipped, not run: it
        // is reported from all the files, which can tell a typo in `with`.
        let files = if def.missing.is_empty() { def.runs_on() } else { (0..sources.len()).collect() };
        let g = match groups.iter().position(|(f, _)| *f == files) {
            Some(g) => g,
            None => {
                groups.push((files, Vec::new()));
                groups.len() - 1
            }
        };
        if let Some((_, names)) = groups.get_mut(g) {
            names.push(def.name.clone());
        }
        order.push((def.name.clone(), g));
    }
    let mut ran: Vec<Ran> = Vec::new();
    let main = a.files.first().cloned().unwrap_or_default();
    let (mut unfound, mut unchecked): (Vec<Unfound>, Vec<Unchecked>) = (Vec::new(), Vec::new());
    for (files, names) in &groups {
        let subset: Vec<Source> = files.iter().filter_map(|i| sources.get(*i).cloned()).collect();
        let sub_model = if subset.len() == sources.len() {
            model.clone()
        } else {
            match compile(&subset) {
                Ok(m) => m,
                Err(diags) => {
                    let code = reject(ui, &Invalid { diags, sources: subset.clone() });
                    if !ui.json {
                        let files: Vec<&str> = subset.iter().map(|s| s.name.as_str()).collect();
                        grimoire_cli::esay!("(found in the files the scenarios {} run on: {}; a scenario that needs another module says so with `with MODULE`)", names.join(", "), files.join(" + "));
                    }
                    return Ok(code);
                }
            }
        };
        for result in run_all(&sub_model, &subset, |d| names.contains(&d.name)) {
            ran.push(Ran { result, sources: subset.clone() });
        }
        // Their quotes, in the model they run on: only there are a
        // scenario's steps resolved (checked in the model of every file
        // given, a base's scenarios lost their steps' quotes once a module
        // was given). Places are put back among every file given.
        let (found_wrong, not_checked) = unfound_quotes(&sub_model, &main, a.sources, &|name| names.iter().any(|n| n == name));
        let global = |at: Loc| Loc { file: files.get(at.file.idx()).map_or(at.file, |i| grimoire_interpreter::model::FileId(*i as u16)), ..at };
        unfound.extend(found_wrong.into_iter().map(|u| Unfound { at: global(u.at), ..u }));
        for u in not_checked {
            match unchecked.iter_mut().find(|c| c.source == u.source) {
                Some(c) => c.quotes += u.quotes,
                None => unchecked.push(Unchecked { at: global(u.at), ..u }),
            }
        }
    }
    // In declaration order, as the scenarios are listed.
    unfound.sort_by_key(|u| order.iter().position(|(n, _)| *n == u.scenario).unwrap_or(usize::MAX));
    // Back to declaration order.
    ran.sort_by_key(|r| order.iter().position(|(n, _)| *n == r.result.name).unwrap_or(usize::MAX));
    let failed = ran.iter().filter(|r| r.result.verdict.failed()).count();
    let code = if failed == 0 { 0 } else { INVALID };
    if ui.json {
        let mut report = report_json(&model, &sources, &ran);
        if let Some(o) = report.as_object_mut() {
            let list: Vec<Json> = unfound.iter().map(|u| json!({ "scenario": u.scenario, "quote": u.quote, "source": u.source })).collect();
            o.insert("unfound_cites".into(), json!(list));
            o.insert("unchecked_sources".into(), json!(unchecked.iter().map(|u| u.source.as_str()).collect::<Vec<_>>()));
        }
        return Ok(ui.emit_report(code, report));
    }
    print_human(&model, &sources, &ran, ui);
    if let (Some(f), true, false) = (a.filter, ran.is_empty(), ui.quiet) {
        // A filter with a typo in it must not pass for a rulebook whose scenarios all pass.
        let names: Vec<&str> = model.scenarios.iter().map(|d| d.name.as_str()).collect();
        let known = if names.is_empty() { "it has none".to_string() } else { format!("its scenarios are {}", names.join(", ")) };
        grimoire_cli::esay!("note: no scenario's name contains `{f}`: {known}");
    }
    if !ui.quiet {
        let unfound = unfound.iter().map(|u| (format!("the scenario `{}` cites « {} », which is not in `{}`", u.scenario, u.quote, u.source), u.at));
        let unchecked = unchecked.iter().map(|u| {
            let n = grimoire_cli::ui::plural(u.quotes as u64, "quote");
            (format!("the source text `{}` cannot be found or may not be read, so the scenarios' {n} from it {} not checked: give its folder with `--sources DIR`", u.source, if u.quotes == 1 { "is" } else { "are" }), u.at)
        });
        for (warning, at) in unfound.chain(unchecked) {
            if ui.format == ErrorFormat::Short {
                grimoire_cli::esay!("{}: {UNFOUND_QUOTE} {warning}", grimoire_cli::render::place_in(&sources, at));
            } else {
                grimoire_cli::esay!("{}: {}: {UNFOUND_QUOTE} {warning}", grimoire_cli::render::place_in(&sources, at), ui.paint_err("warning", grimoire_cli::ui::colors::YELLOW));
            }
        }
    }
    Ok(ExitCode::from(code))
}

/// Code of a failed scenario in `--error-format short`.
pub const FAILED: &str = "S001";
/// Code of a scenario's quote its source does not hold (a warning).
pub const UNFOUND_QUOTE: &str = "S002";


/// A scenario's quote that its source text does not hold.
struct Unfound {
    scenario: String,
    quote: String,
    source: String,
    at: Loc,
}

/// A source text the scenarios quote that cannot be found (or may not be
/// read): their quotes from it go unchecked, which is said.
struct Unchecked {
    source: String,
    /// How many of the scenarios' quotes name it.
    quotes: usize,
    /// The first of them.
    at: Loc,
}

/// The quotes of the scenarios (and of their steps) that their source text,
/// when it can be found, does not hold; and the
/// sources that cannot be found. Scenarios do not count for the validator's
/// traceability, so their quotes are checked here; a wrong quote is a
/// warning, the scenario still runs.
fn unfound_quotes(model: &Model, main: &std::path::Path, extra: &[PathBuf], wanted: &dyn Fn(&str) -> bool) -> (Vec<Unfound>, Vec<Unchecked>) {
    let texts = find_scenario_sources(model, main, extra);
    let mut out = Vec::new();
    let mut unchecked: Vec<Unchecked> = Vec::new();
    for def in model.scenarios.iter().filter(|d| wanted(&d.name)) {
        let cites = def.cites.iter().chain(def.steps.iter().flat_map(|s| s.cites.iter()));
        for c in cites {
            let Citation::Quote { source, quote, at } = c else { continue };
            let text = texts.iter().find(|t| t.name == *source).and_then(|t| t.text.as_deref());
            match text {
                Some(text) if !quote_in(text, quote) => out.push(Unfound { scenario: def.name.clone(), quote: quote.clone(), source: source.clone(), at: *at }),
                Some(_) => {}
                None => match unchecked.iter_mut().find(|u| u.source == *source) {
                    Some(u) => u.quotes += 1,
                    None => unchecked.push(Unchecked { source: source.clone(), quotes: 1, at: *at }),
                },
            }
        }
    }
    (out, unchecked)
}

/// `file:line` of a place in one of `sources`.
fn place(sources: &[Source], at: Loc) -> (String, usize) {
    let src = sources.get(at.file.idx());
    let line = src.map(|s| grimoire_cli::ui::line_col(&s.text, at.span.start).0).unwrap_or(0);
    (src.map(|s| s.name.clone()).unwrap_or_default(), line)
}

fn where_(sources: &[Source], at: Loc) -> String {
    let (file, line) = place(sources, at);
    format!("{file}:{line}")
}

/// One line per scenario, then the failures (one line each with
/// `--error-format short`), then the result line; with `--quiet`, the
/// failures and the result line only.
fn print_human(model: &Model, sources: &[Source], ran: &[Ran], ui: &Ui) {
    use grimoire_cli::ui::colors::{GREEN, RED, YELLOW};
    let files: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    if !ui.quiet {
        grimoire_cli::say!("\nrunning {} scenario(s) of `{}` ({})", ran.len(), model.name, files.join(", "));
        for r in ran {
            let status = match &r.result.verdict {
                Verdict::Passed { .. } => ui.paint_out("ok", GREEN),
                Verdict::Failed(_) => ui.paint_out("FAILED", RED),
                Verdict::Skipped { reason } => ui.paint_out(&format!("skipped ({reason})"), YELLOW),
            };
            grimoire_cli::say!("test {} ... {status}", r.result.name);
        }
    }
    let failures: Vec<(&Ran, &Failure)> = ran
        .iter()
        .filter_map(|r| match &r.result.verdict {
            Verdict::Failed(f) => Some((r, &**f)),
            _ => None,
        })
        .collect();
    if !failures.is_empty() && ui.format == ErrorFormat::Short {
        grimoire_cli::say!();
        for (r, f) in &failures {
            let step = if f.step == 0 { "at the start".to_string() } else { format!("at step {}", f.step) };
            let line = format!("scenario `{}` failed {step}: expected {}; found {}", r.result.name, f.expected, f.found);
            grimoire_cli::say!("{}: {FAILED} {}", grimoire_cli::render::place_in(&r.sources, f.at), one_line(&line));
        }
    } else if !failures.is_empty() {
        grimoire_cli::say!("\nfailures:");
        for (r, f) in &failures {
            print_failure(r, f);
        }
        grimoire_cli::say!("\nfailures:");
        for (r, _) in &failures {
            grimoire_cli::say!("    {}", r.result.name);
        }
    }
    let passed = ran.iter().filter(|r| r.result.verdict.passed()).count();
    let skipped = ran.len() - passed - failures.len();
    let verdict = if failures.is_empty() { ui.paint_out("ok", GREEN) } else { ui.paint_out("FAILED", RED) };
    grimoire_cli::say!("\ntest result: {verdict}. {passed} passed; {} failed; {skipped} skipped\n", failures.len());
}

fn print_failure(r: &Ran, f: &Failure) {
    let res = &r.result;
    let src = &r.sources;
    let mut setting = format!("{}, seed {}", grimoire_cli::ui::plural(u64::from(res.players), "player"), res.seed);
    if !res.options.is_empty() {
        setting.push_str(&format!(", options {}", res.options.join(", ")));
    }
    let files: Vec<&str> = src.iter().map(|s| s.name.as_str()).collect();
    grimoire_cli::say!("\n---- {} ({}; {setting}; on {}) ----", res.name, where_(src, res.at), files.join(" + "));
    for q in &res.cites {
        grimoire_cli::say!("  the scenario checks: « {q} »");
    }
    let step = if f.step == 0 { "start".to_string() } else { format!("step {}", f.step) };
    grimoire_cli::say!("  {step}, {}: {}", where_(src, f.at), one_line(&f.text));
    for q in &f.cites {
        grimoire_cli::say!("  the step checks: « {q} »");
    }
    grimoire_cli::say!("  expected: {}", f.expected);
    grimoire_cli::say!("  found:    {}", f.found);
    match (&f.outcome, f.decider) {
        (Some(o), _) => grimoire_cli::say!("  the game is over: {o} (after {} decision(s))", f.decisions),
        (None, Some(p)) => {
            let asked = f.prompt.as_ref().map(|q| format!(" {q:?}")).unwrap_or_default();
            let at = f.pending_at.map(|at| format!(" at {}", where_(src, at))).unwrap_or_default();
            grimoire_cli::say!("  pending: player {p} must decide{at}{asked} (after {} decision(s))", f.decisions);
            let opts: Vec<String> = f.options.iter().map(|o| format!("{o:?}")).collect();
            grimoire_cli::say!("  options: {}", opts.join(", "));
        }
        (None, None) => {}
    }
    if let Some(q) = &f.pending_cites {
        grimoire_cli::say!("  that rule encodes: « {q} »");
    }
    if let Some(obs) = &f.position {
        print_position(obs);
    }
}

/// A step on one line (steps may be written over several).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The position, one zone a line, identical pieces counted once.
fn print_position(obs: &Observation) {
    grimoire_cli::say!("  position, as player {} sees it (round {}):", u16::from(obs.player) + 1, obs.round);
    for z in &obs.zones {
        let shown = match &z.pieces {
            Some(pieces) => {
                let mut groups: Vec<(&str, usize)> = Vec::new();
                for p in pieces {
                    match groups.last_mut() {
                        Some((last, n)) if *last == p.as_str() => *n += 1,
                        _ => groups.push((p.as_str(), 1)),
                    }
                }
                groups.iter().map(|(p, n)| if *n > 1 { format!("{p} ×{n}") } else { (*p).to_string() }).collect::<Vec<_>>().join(", ")
            }
            None => format!("{} hidden", z.count),
        };
        grimoire_cli::say!("    {}: {shown}", z.zone);
    }
    for chunk in obs.values.chunks(6) {
        grimoire_cli::say!("    {}", chunk.join("; "));
    }
}

fn loc_json(sources: &[Source], at: Loc) -> Json {
    let (file, line) = place(sources, at);
    json!({ "file": file, "line": line, "start": at.span.start, "end": at.span.end })
}

fn report_json(model: &Model, sources: &[Source], ran: &[Ran]) -> Json {
    let results: Vec<Json> = ran
        .iter()
        .map(|r| {
            let res = &r.result;
            let mut out = json!({
                "name": res.name,
                "at": loc_json(&r.sources, res.at),
                "files": r.sources.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
                "players": res.players,
                "seed": res.seed,
                "options": res.options,
                "cites": res.cites,
            });
            let (status, extra) = match &res.verdict {
                Verdict::Passed { steps } => ("passed", json!({ "steps": steps, "reason": null, "failure": null })),
                Verdict::Skipped { reason } => ("skipped", json!({ "steps": null, "reason": reason, "failure": null })),
                Verdict::Failed(f) => (
                    "failed",
                    json!({ "steps": null, "reason": null, "failure": {
                        "step": f.step,
                        "text": one_line(&f.text),
                        "at": loc_json(&r.sources, f.at),
                        "expected": f.expected,
                        "found": f.found,
                        "cites": f.cites,
                        "decider": f.decider,
                        "prompt": f.prompt,
                        "options": f.options,
                        "pending_at": f.pending_at.map(|at| loc_json(&r.sources, at)),
                        "pending_cites": f.pending_cites,
                        "outcome": f.outcome,
                        "decisions": f.decisions,
                        "position": f.position,
                    } }),
                ),
            };
            if let (Some(o), Json::Object(e)) = (out.as_object_mut(), extra) {
                o.insert("status".into(), json!(status));
                o.extend(e);
            }
            out
        })
        .collect();
    let count = |s: &str| ran.iter().filter(|r| matches!((&r.result.verdict, s), (Verdict::Passed { .. }, "p") | (Verdict::Failed(_), "f") | (Verdict::Skipped { .. }, "s"))).count();
    json!({
        "rulebook": model.name,
        "files": sources.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
        "scenarios": results,
        "passed": count("p"),
        "failed": count("f"),
        "skipped": count("s"),
    })
}
