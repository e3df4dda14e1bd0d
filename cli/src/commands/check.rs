//! `grimoire check`: parse, resolve and check.

use super::{compile_files, INVALID};
use grimoire_cli::render::ErrorFormat;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check the files; exit 0 when valid, 1 when not.
pub fn check(files: &[PathBuf], format: ErrorFormat) -> Result<ExitCode, String> {
    match compile_files(files, format)? {
        Some((model, _)) => {
            if format == ErrorFormat::Json {
                grimoire_cli::say!("[]");
            } else {
                let rules = model.procs.len();
                let cites: usize = model.records.iter().map(|r| r.cites.len()).sum();
                eprintln!(
                    "`{}` is valid: {} component kinds, {} zones, {} procedures, {} citations, for {}..{} players",
                    model.name,
                    model.kinds.len(),
                    model.zones.len(),
                    rules,
                    cites,
                    model.min_players,
                    model.max_players
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        None => Ok(ExitCode::from(INVALID)),
    }
}
