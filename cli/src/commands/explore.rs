//! `grimoire explore`: every reachable state of a configuration, breadth first.

use super::{game_for, names, INVALID};
use grimoire_cli::render::{finding, ErrorFormat};
use grimoire_interpreter::validate::explore::{explore as run_explore, Budget};
use std::path::PathBuf;
use std::process::ExitCode;

/// Explore a rulebook at a player count, or count its move sequences.
pub fn explore(files: &[PathBuf], players: u8, options: &[String], budget: Budget, perft: Option<u32>, json: bool) -> Result<ExitCode, String> {
    let Some((game, sources)) = game_for(files, players, options)? else { return Ok(ExitCode::from(INVALID)) };
    if let Some(depth) = perft {
        return move_paths(&game, depth, json);
    }
    let report = run_explore(&game, &names(&sources), budget);
    if json {
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        for f in &report.findings {
            eprint!("{}", finding(f, &sources, ErrorFormat::Human));
        }
        grimoire_cli::say!(
            "explored {} distinct states ({} expanded, {} finished games) to depth {} in {:.2} s on {} thread(s): {:.0} states/s, {:.0} bytes per state",
            report.distinct,
            report.expanded,
            report.terminal,
            report.depth,
            report.seconds,
            report.jobs,
            report.states_per_second,
            report.bytes_per_state
        );
        grimoire_cli::say!("fingerprint collision probability ≤ {:.1e} (64-bit fingerprints)", report.collision_bound);
        grimoire_cli::say!("{}", report.verdict());
    }
    Ok(if report.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(INVALID) })
}

/// `--perft N`: the move sequences of 1 to N plies, as chess programmers
/// count them to check a move generator.
fn move_paths(game: &grimoire_interpreter::engine::Game, depth: u32, json: bool) -> Result<ExitCode, String> {
    let mut counts = Vec::new();
    for d in 1..=depth {
        match grimoire_interpreter::validate::perft::perft(game, d) {
            Ok(n) => counts.push(n),
            Err(e) => return Err(format!("the rules failed while counting {d} plies: {}", e.message)),
        }
        if !json {
            grimoire_cli::say!("perft({d}) = {}", counts.last().copied().unwrap_or(0));
        }
    }
    if json {
        let out = serde_json::json!({ "schema_version": 1, "players": game.players, "perft": counts });
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    }
    Ok(ExitCode::SUCCESS)
}
