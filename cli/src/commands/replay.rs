//! `grimoire replay`: re-run a log and check it gives the same game.

use super::{game_for, reject, style, Ui, INVALID};
use grimoire_cli::render::{exec_error, exec_error_json};
use grimoire_interpreter::log::{outcome_text, replay as replay_log, GameLog, ReplayError};
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Replay a log file. A log that cannot be read or is not a log is a tool
/// failure (2); a game that stops or differs from its log, or a lasso, is
/// a failed check (1).
pub fn replay(path: &Path, ui: &Ui) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let log: GameLog = serde_json::from_str(&text).map_err(|e| format!("`{}` is not a game log: {e}", path.display()))?;
    let files: Vec<PathBuf> = log.rulebook.iter().map(PathBuf::from).collect();
    let (game, sources) = match game_for(&files, log.players, &log.options)? {
        Ok(g) => g,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    // The JSON report: what was replayed, and where and why it stopped.
    let mut report = json!({
        "log": path.display().to_string(), "steps": log.steps.len(), "matches": false,
        "outcome": Json::Null, "final_fingerprint": Json::Null, "loop_from": log.loop_from,
        "stopped": Json::Null, "mismatch": Json::Null,
    });
    let code = match replay_log(&game, &log) {
        Ok(st) => {
            let outcome = outcome_text(st.outcome);
            set(&mut report, "matches", json!(true));
            set(&mut report, "outcome", json!(outcome));
            set(&mut report, "final_fingerprint", json!(format!("{:016x}", st.fingerprint())));
            if !ui.json {
                let outcome = outcome.unwrap_or_else(|| "not finished".into());
                grimoire_cli::say!("replayed {} decisions: {outcome}; final state {:016x} matches the log", log.steps.len(), st.fingerprint());
            }
            if let Some(from) = log.loop_from {
                // A lasso: the loop is the fault the log shows.
                if !ui.json {
                    grimoire_cli::say!("the steps from {} on come back to the state they started from: the game can go on forever", from + 1);
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
            if !ui.json {
                grimoire_cli::esay!("the game stops at step {step}:");
                grimoire_cli::eput!("{}", exec_error(&error, &sources, style(ui)));
            }
            INVALID
        }
        Err(ReplayError::Invariant { step, code, message }) => {
            set(&mut report, "stopped", json!({ "step": step, "kind": "invariant", "code": code, "message": message, "rule": Json::Null, "file": Json::Null, "line": Json::Null, "column": Json::Null, "start": Json::Null, "end": Json::Null }));
            if !ui.json {
                grimoire_cli::esay!("the game breaks an invariant after step {step}: {code}: {message}");
            }
            INVALID
        }
        Err(e @ ReplayError::Mismatch { .. }) => {
            if let ReplayError::Mismatch { step, message } = &e {
                set(&mut report, "mismatch", json!({ "step": step, "message": message }));
            }
            if !ui.json {
                grimoire_cli::esay!("the replay differs from the log: {e}");
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
