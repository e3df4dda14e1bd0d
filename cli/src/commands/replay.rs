//! `grimoire replay`: re-run a log and check it gives the same game.

use grimoire_cli::render::printable_words;
use super::{reject, style, Ui, INVALID};
use grimoire_cli::files::Root;
use grimoire_cli::logfile::{self, OpenError};
use grimoire_interpreter::engine::Game;
use grimoire_cli::render::{exec_error, exec_error_json};
use grimoire_interpreter::log::{outcome_text, replay as replay_log, ReplayError};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::process::ExitCode;

/// Replay a log file. A log that cannot be read or is not a log is a tool
/// failure (2); a game that stops or differs from its log, or a lasso, is
/// a failed check (1).
pub fn replay(path: &Path, ui: &Ui) -> Result<ExitCode, String> {
    // The log and its rulebook files: under the root, each with the SHA-256
    // the log records, checked before anything of it is parsed or shown.
    let root = Root::of_log(path)?;
    let (log, sources) = match logfile::open(path, &root) {
        Ok(o) => (o.log, o.sources),
        Err(OpenError::Unusable(message)) => return Err(message),
        Err(OpenError::Changed(message)) => {
            let report = json!({
                "log": path.display().to_string(), "steps": Json::Null, "matches": false,
                "outcome": Json::Null, "final_fingerprint": Json::Null, "loop_from": Json::Null,
                "stopped": Json::Null, "mismatch": { "step": 0, "message": message },
            });
            if ui.json {
                return Ok(ui.emit_report(INVALID, report));
            }
            grimoire_cli::esay!("the replay differs from the log: {}", printable_words(&message));
            return Ok(ExitCode::from(INVALID));
        }
    };
    let model = match grimoire_interpreter::compile(&sources) {
        Ok(m) => std::sync::Arc::new(m),
        Err(diags) => return Ok(reject(ui, &super::Invalid { diags, sources })),
    };
    let game = Game::new(model, log.players, &log.options).map_err(|e| format!("the log cannot be replayed: {e}"))?;
    // The JSON report: what was replayed, and where and why it stopped.
    let mut report = json!({
        "log": path.display().to_string(), "steps": log.steps.len(), "matches": false,
        "outcome": Json::Null, "final_fingerprint": Json::Null, "loop_from": log.loop_from,
        "stopped": Json::Null, "mismatch": Json::Null,
    });
    // A stop (a rule error, a broken invariant) is returned only once the
    // replay has checked it is the one the log records, with its outcome
    // and final state: the replay matches the log.
    let matched_stop = |report: &mut Json| {
        set(report, "matches", json!(true));
        set(report, "outcome", json!(log.outcome));
        set(report, "final_fingerprint", if log.final_fingerprint.is_empty() { Json::Null } else { json!(log.final_fingerprint) });
    };
    let code = match replay_log(&game, &log) {
        Ok(st) => {
            let outcome = outcome_text(st.outcome);
            set(&mut report, "matches", json!(true));
            set(&mut report, "outcome", json!(outcome));
            set(&mut report, "final_fingerprint", json!(format!("{:016x}", st.fingerprint())));
            if !ui.json {
                let outcome = outcome.unwrap_or_else(|| "not finished".into());
                // An explorer's log counts chance outcomes among its steps.
                let what = if log.exploring { "step" } else { "decision" };
                grimoire_cli::say!("replayed {}: {outcome}; final state {:016x} matches the log", grimoire_cli::ui::plural(log.steps.len() as u64, what), st.fingerprint());
                say_steps(&log, ui);
            }
            if let Some(error) = &log.error {
                // A game that did not end within its decisions, as the log records.
                if !ui.json {
                    grimoire_cli::say!("{error}, as the log records");
                }
                INVALID
            } else if let Some(from) = log.loop_from {
                // A lasso: the loop is the fault the log shows.
                if !ui.json {
                    grimoire_cli::say!("{}", lasso_text(&log, from));
                }
                INVALID
            } else {
                0
            }
        }
        Err(ReplayError::Exec { step, error }) => {
            let mut stopped = exec_error_json(&error, &sources);
            if let Some(o) = stopped.as_object_mut() {
                o.insert("step".into(), json!(step));
                o.insert("kind".into(), json!("rule"));
            }
            set(&mut report, "stopped", stopped);
            matched_stop(&mut report);
            if !ui.json {
                say_steps(&log, ui);
                grimoire_cli::esay!("the game stops {}, as the log records:", if step == 0 { "before its first decision".to_string() } else { format!("at step {step}") });
                grimoire_cli::eput!("{}", exec_error(&error, &sources, style(ui)));
            }
            INVALID
        }
        Err(ReplayError::Invariant { step, code, message, at }) => {
            // Where the rulebook says what broke, as the validator's finding points.
            let mut stopped = grimoire_cli::render::stop_json(code, &message, None, at, &sources);
            if let Some(o) = stopped.as_object_mut() {
                o.insert("step".into(), json!(step));
                o.insert("kind".into(), json!("invariant"));
            }
            set(&mut report, "stopped", stopped);
            let shown_place = at.map(|at| format!(" ({})", grimoire_cli::render::place_in(&sources, at))).unwrap_or_default();
            matched_stop(&mut report);
            if !ui.json {
                say_steps(&log, ui);
                grimoire_cli::esay!("the game breaks an invariant after step {step}, as the log records: {code}: {message}{shown_place}");
            }
            INVALID
        }
        Err(e @ ReplayError::Mismatch { .. }) => {
            if let ReplayError::Mismatch { step, message } = &e {
                set(&mut report, "mismatch", json!({ "step": step, "message": message }));
            }
            if !ui.json {
                grimoire_cli::esay!("the replay differs from the log: {}", printable_words(&e.to_string()));
            }
            INVALID
        }
    };
    if ui.json {
        return Ok(ui.emit_report(code, report));
    }
    Ok(ExitCode::from(code))
}

/// Set a field of the JSON report.
fn set(report: &mut Json, field: &str, value: Json) {
    if let Some(o) = report.as_object_mut() {
        o.insert(field.to_string(), value);
    }
}

/// The most steps of a log listed: the last ones (a loop is at the end).
const STEPS_SHOWN: usize = 40;

/// The log's steps, unless `--quiet` or there are none.
fn say_steps(log: &grimoire_interpreter::log::GameLog, ui: &Ui) {
    if !ui.quiet && !log.steps.is_empty() {
        grimoire_cli::say!("{}", steps_text(log));
    }
}

/// The steps of a log, one a line: who took it and what (a die's face, a
/// move), the last `STEPS_SHOWN` of them, the loop of a lasso marked where
/// it starts. A counterexample of an endless game was only counted before
/// ("replayed 3 steps"), and the dice that make the loop went unseen.
fn steps_text(log: &grimoire_interpreter::log::GameLog) -> String {
    let skipped = log.steps.len().saturating_sub(STEPS_SHOWN);
    let mut lines = Vec::new();
    if skipped > 0 {
        lines.push(format!("  ({skipped} earlier step(s) not shown: the log has them all)"));
    }
    for (i, s) in log.steps.iter().enumerate().skip(skipped) {
        let mark = if log.loop_from == Some(i) { "   <- the loop starts here" } else { "" };
        lines.push(format!("  {:>4}. {}: {}{mark}", i + 1, grimoire_interpreter::log::decider(s.player), s.label));
    }
    lines.join("\n")
}

/// What a lasso's replay showed: the loop's steps after the `from` that
/// reach it, and what makes it repeat (the log does not say whether the
/// players could force a loop through chance: V505 or V506).
fn lasso_text(log: &grimoire_interpreter::log::GameLog, from: usize) -> String {
    let steps = log.steps.get(from..).unwrap_or_default();
    let chance = log.exploring && steps.iter().any(|s| s.player == 0);
    let head = format!("after {from} step(s), the {} step(s) that follow come back to the state they started from", steps.len());
    if chance {
        // The same log shows a V506 loop and one of V505's that the players
        // can keep going whatever chance gives: the finding says which.
        format!("{head}, through chance outcomes: it comes round again each time chance gives them again (the finding says whether the players can keep the game going whatever chance gives)")
    } else {
        format!("{head}, by the players' decisions alone: the game can go on forever")
    }
}
