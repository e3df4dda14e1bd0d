//! `grimoire replay`: re-run a log and check it gives the same game.

use super::{game_for, INVALID};
use grimoire_cli::render::{exec_error, ErrorFormat};
use grimoire_interpreter::log::{outcome_text, replay as replay_log, GameLog, ReplayError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Replay a log file.
pub fn replay(path: &Path) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    let log: GameLog = serde_json::from_str(&text).map_err(|e| format!("`{}` is not a game log: {e}", path.display()))?;
    let files: Vec<PathBuf> = log.rulebook.iter().map(PathBuf::from).collect();
    let Some((game, sources)) = game_for(&files, log.players, &log.options)? else { return Ok(ExitCode::from(INVALID)) };
    match replay_log(&game, &log) {
        Ok(st) => {
            let outcome = outcome_text(st.outcome).unwrap_or_else(|| "not finished".into());
            grimoire_cli::say!("replayed {} decisions: {outcome}; final state {:016x} matches the log", log.steps.len(), st.fingerprint());
            if let Some(from) = log.loop_from {
                // A lasso: the loop is the fault the log shows.
                grimoire_cli::say!("the steps from {} on come back to the state they started from: the game can go on forever", from + 1);
                return Ok(ExitCode::from(INVALID));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(ReplayError::Exec { step, error }) => {
            eprintln!("the game stops at step {step}:");
            eprint!("{}", exec_error(&error, &sources, ErrorFormat::Human));
            Ok(ExitCode::from(INVALID))
        }
        Err(ReplayError::Invariant { step, code, message }) => {
            eprintln!("the game breaks an invariant after step {step}: {code}: {message}");
            Ok(ExitCode::from(INVALID))
        }
        Err(e @ ReplayError::Mismatch { .. }) => {
            eprintln!("the replay differs from the log: {e}");
            Ok(ExitCode::from(INVALID))
        }
    }
}
