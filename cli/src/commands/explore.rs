//! `grimoire explore`: every reachable state of a configuration, breadth first.

use super::{game_for, names, INVALID};
use grimoire_cli::render::{finding, ErrorFormat};
use grimoire_interpreter::validate::explore::{explore as run_explore, Budget};
use std::path::PathBuf;
use std::process::ExitCode;

/// Explore a rulebook at a player count.
pub fn explore(files: &[PathBuf], players: u8, options: &[String], budget: Budget, json: bool) -> Result<ExitCode, String> {
    let Some((game, sources)) = game_for(files, players, options)? else { return Ok(ExitCode::from(INVALID)) };
    let report = run_explore(&game, &names(&sources), budget);
    if json {
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        for f in &report.findings {
            eprint!("{}", finding(f, &sources, ErrorFormat::Human));
        }
        grimoire_cli::say!("explored {} distinct states ({} expanded, {} finished games) to depth {} in {:.2} s: {:.0} states/s", report.distinct, report.expanded, report.terminal, report.depth, report.seconds, report.states_per_second);
        grimoire_cli::say!("fingerprint collision probability ≤ {:.1e} (64-bit fingerprints)", report.collision_bound);
        grimoire_cli::say!("{}", report.verdict());
    }
    Ok(if report.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(INVALID) })
}
