//! `grimoire explore`: every reachable state of a configuration, breadth first.

use super::{game_for, names, reject, style, Ui, INVALID};
use grimoire_cli::render::{exec_error, exec_error_json, more};
use grimoire_cli::ui::{count, MAX_SHOWN};
use grimoire_interpreter::validate::explore::{explore_until, Budget};
use grimoire_interpreter::validate::Severity;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Explore a rulebook at a player count, or count its move sequences; the
/// counterexample of each finding is written in `save`.
pub fn explore(files: &[PathBuf], players: u8, options: &[String], budget: Budget, perft: Option<u32>, save: &Path, ui: &Ui) -> Result<ExitCode, String> {
    let (game, sources) = match game_for(files, players, options)? {
        Ok(g) => g,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    if let Some(depth) = perft {
        // A count that deep may never end (a game that can loop): the
        // depth budget bounds it too.
        if depth > budget.max_depth {
            return Err(format!("`--perft {depth}` counts deeper than `--max-depth {}`: raise `--max-depth` to count that deep", budget.max_depth));
        }
        return move_paths(&game, &sources, depth, ui);
    }
    grimoire_cli::output::check_folder(save)?;
    let meter = ui.meter(None, "states");
    meter.bar().set_message("exploring");
    let bar = meter.bar().clone();
    let stop = grimoire_cli::interrupt::catch("finishing the slice of states under way, then showing what was done");
    let mut report = explore_until(&game, &names(&sources), budget, &|states| bar.set_position(states as u64), &stop);
    let rulebook = game.model.name.clone();
    let inputs: Vec<std::path::PathBuf> = sources.iter().map(|s| std::path::PathBuf::from(&s.name)).collect();
    let stem = super::counterexamples::stem_of(&rulebook, &game.model.modules);
    let saved = super::counterexamples::save(&report.findings, &stem, &sources, &inputs, save, |_| "explore".to_string())?;
    // Its lassos and counterexamples name their files from the working directory, with their hashes.
    grimoire_cli::logfile::stamp_in_place(report.findings.iter_mut().filter_map(|f| f.counterexample.as_mut()), &sources);
    let verb = if report.interrupted { "interrupted: explored" } else { "explored" };
    meter.finish(|s| format!("{verb} {} states to depth {} in {s:.2} s", count(report.distinct as u64), report.depth));
    // Warnings (V506: the game ends with probability 1) do not fail.
    let code = match (report.interrupted, report.findings.iter().any(|f| f.severity == Severity::Error)) {
        (true, _) => grimoire_cli::interrupt::INTERRUPTED,
        (false, true) => INVALID,
        (false, false) => 0,
    };
    if ui.json {
        let value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
        return Ok(ui.emit_report(code, value));
    }
    let shown: Vec<_> = report.findings.iter().enumerate().filter(|(_, f)| !ui.quiet || f.severity == Severity::Error).collect();
    for (i, f) in shown.iter().take(MAX_SHOWN) {
        let saved = saved.iter().find(|(j, _)| j == i).map(|(_, p)| p.as_path());
        super::counterexamples::print(f, saved, &sources, ui);
    }
    grimoire_cli::eput!("{}", more(shown.len()));
    if !ui.quiet {
        grimoire_cli::say!(
            "explored {} distinct states ({} expanded, {} finished games) to depth {} in {:.2} s on {} thread(s): {} states/s, {:.0} bytes per state",
            count(report.distinct as u64),
            count(report.expanded as u64),
            count(report.terminal as u64),
            report.depth,
            report.seconds,
            report.jobs,
            count(report.states_per_second as u64),
            report.bytes_per_state
        );
        // A budget of states or bytes, or Ctrl-C, stops in the middle of a
        // level; the depth budget after a whole one.
        let partial = report.stopped_by.as_deref().is_some_and(|s| !s.starts_with("the depth budget"));
        let last_partial = if partial { " (the last in part: the exploration stopped in that depth)" } else { "" };
        grimoire_cli::say!("states first reached at each depth: {}{last_partial}", by_depth(&report.by_depth));
        grimoire_cli::say!("fingerprint collision probability ≤ {:.1e} (64-bit fingerprints)", report.collision_bound);
        if !report.told_apart.is_empty() {
            let kinds: Vec<String> = report.told_apart.iter().map(|k| format!("`{k}`")).collect();
            grimoire_cli::say!(
                "pieces told apart: {} (the rules list them with `pieces`): positions that differ only in which of them is where count as different states (docs/validate.md, \"What a state is\")",
                kinds.join(", ")
            );
        }
    }
    if report.interrupted {
        grimoire_cli::say!("interrupted (Ctrl-C): the states above were visited before the stop; whether every game ends (the cycle search) was not checked");
    }
    grimoire_cli::say!("{}", report.verdict());
    Ok(ExitCode::from(code))
}

/// The counts of states by depth, from depth 0: all of them up to 30
/// depths, else the first 20, "…" and the last 5 (`--json` has them all).
fn by_depth(counts: &[usize]) -> String {
    let shown = |c: &[usize]| c.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ");
    match counts.len() {
        n if n <= 30 => shown(counts),
        n => format!("{}, …, {}", shown(counts.get(..20).unwrap_or_default()), shown(counts.get(n - 5..).unwrap_or_default())),
    }
}

/// `--perft N`: the move sequences of 1 to N plies, as chess programmers
/// count them to check a move generator. A rule that fails on the way is a
/// fault of the rulebook (exit 1).
fn move_paths(game: &grimoire_interpreter::engine::Game, sources: &[grimoire_interpreter::Source], depth: u32, ui: &Ui) -> Result<ExitCode, String> {
    use grimoire_interpreter::validate::perft::{perft_until, PerftError};
    let mut counts = Vec::new();
    let mut failure = None;
    let mut sampled = false;
    let mut interrupted = false;
    let stop = grimoire_cli::interrupt::catch("stopping the count under way, then showing the counts done");
    for d in 1..=depth {
        match perft_until(game, d, &stop) {
            Ok(n) => {
                counts.push(n.paths);
                sampled |= n.sampled_shuffle;
            }
            Err(PerftError::Interrupted) => {
                interrupted = true;
                break;
            }
            Err(e) => {
                failure = Some((d, e));
                break;
            }
        }
        if !ui.json {
            grimoire_cli::say!("perft({d}) = {}", counts.last().copied().unwrap_or(0));
        }
        if counts.last() == Some(&0) && d < depth {
            // No game has a d-th ply to play, so none has a deeper one:
            // the rest are 0 without counting them again, depth by depth.
            counts.resize(depth as usize, 0);
            if !ui.json {
                let rest = if d + 1 == depth { format!("perft({depth})") } else { format!("perft({}) to perft({depth})", d + 1) };
                grimoire_cli::say!("{rest} = 0 (no game lasts {})", plies(d));
            }
            break;
        }
    }
    let sampled_note = "shuffles of more orders than the explorer enumerates were sampled: these counts are for the sampled orders only";
    if sampled && !ui.json && !ui.quiet {
        grimoire_cli::say!("({sampled_note})");
    }
    let code = match (interrupted, failure.is_some()) {
        (true, _) => grimoire_cli::interrupt::INTERRUPTED,
        (false, true) => INVALID,
        (false, false) => 0,
    };
    // Endless paths: chance can loop with no ply in between.
    let endless = |d: u32, chance_steps: usize, n_plies: u32| {
        let taken = match n_plies {
            0 => "from the start".to_string(),
            n => format!("after {}", plies(n)),
        };
        format!("perft({d}) has no count: {taken}, chance can come back to the state it was in with no ply in between (a loop of {}), so there are endlessly many sequences", grimoire_cli::ui::plural(chance_steps as u64, "chance outcome"))
    };
    if ui.json {
        let (rule_error, endless) = match &failure {
            Some((d, PerftError::Rule(e))) => {
                let mut v = exec_error_json(e, sources);
                if let Some(o) = v.as_object_mut() {
                    o.insert("plies".into(), json!(d));
                }
                (Some(v), None)
            }
            Some((d, PerftError::Endless { chance_steps, plies })) => (None, Some(endless(*d, *chance_steps, *plies))),
            Some((_, PerftError::Interrupted)) | None => (None, None),
        };
        return Ok(ui.emit_report(code, json!({ "players": game.players, "perft": counts, "rule_error": rule_error, "endless": endless, "sampled_shuffle": sampled, "interrupted": interrupted })));
    }
    match failure {
        Some((d, PerftError::Rule(e))) => {
            grimoire_cli::esay!("the rules failed while counting {}:", plies(d));
            grimoire_cli::eput!("{}", exec_error(&e, sources, style(ui)));
        }
        Some((d, PerftError::Endless { chance_steps, plies })) => grimoire_cli::esay!("{}", endless(d, chance_steps, plies)),
        // Only perft_until's own stop gives it, and that stop ends the loop above.
        Some((_, PerftError::Interrupted)) | None => {}
    }
    if interrupted {
        grimoire_cli::say!("interrupted (Ctrl-C): perft({}) was not finished; the counts above are complete", counts.len() + 1);
    }
    Ok(ExitCode::from(code))
}

/// "1 ply", "2 plies".
fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}
