//! `grimoire simulate`: random playouts and what they tell about a rulebook.

use super::{game_for, names, INVALID};
use grimoire_cli::render::{exec_error, ErrorFormat};
use grimoire_interpreter::engine::Outcome;
use grimoire_interpreter::log::random_playout;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Serialize)]
struct Report {
    rulebook: Vec<String>,
    players: u8,
    games: u32,
    first_seed: u64,
    seconds: f64,
    games_per_second: f64,
    decisions_min: u32,
    decisions_median: u32,
    decisions_max: u32,
    rounds_median: u32,
    wins_by_seat: Vec<u32>,
    draws: u32,
    unfinished: u32,
    failures: Vec<Failure>,
    rules: Vec<RuleCount>,
    never_fired: Vec<String>,
}

#[derive(Serialize)]
struct Failure {
    seed: u64,
    message: String,
}

#[derive(Serialize)]
struct RuleCount {
    rule: String,
    fired: u64,
    games: u32,
}

/// Run `games` random playouts.
#[allow(clippy::too_many_arguments, reason = "one argument per command-line flag")]
#[allow(clippy::indexing_slicing, reason = "the counters are sized from the model and the player count they are indexed by")]
pub fn simulate(files: &[PathBuf], players: u8, games: u32, seed: u64, options: &[String], max_decisions: u32, json: bool) -> Result<ExitCode, String> {
    let Some((game, sources)) = game_for(files, players, options)? else { return Ok(ExitCode::from(INVALID)) };
    let rulebook = names(&sources);
    let bar = if json || games < 200 { ProgressBar::hidden() } else { ProgressBar::new(u64::from(games)) };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}").unwrap_or_else(|_| ProgressStyle::default_bar()));
    let procs = game.model.procs.len();
    let mut fired = vec![0u64; procs];
    let mut fired_games = vec![0u32; procs];
    let mut lengths = Vec::with_capacity(games as usize);
    let mut rounds = Vec::with_capacity(games as usize);
    let mut wins = vec![0u32; players as usize];
    let (mut draws, mut unfinished) = (0u32, 0u32);
    let mut failures = Vec::new();
    let mut first_error = None;
    let start = Instant::now();
    for i in 0..games {
        let s = seed.wrapping_add(u64::from(i));
        let p = match random_playout(&game, &rulebook, s, max_decisions) {
            Ok(p) => p,
            Err(e) => {
                failures.push(Failure { seed: s, message: e.message.clone() });
                first_error.get_or_insert(e);
                bar.inc(1);
                continue;
            }
        };
        for (j, n) in p.state.fired.iter().enumerate() {
            fired[j] += u64::from(*n);
            fired_games[j] += u32::from(*n > 0);
        }
        lengths.push(p.state.decisions);
        rounds.push(p.state.round);
        match (p.state.outcome, p.error) {
            (_, Some(e)) => {
                failures.push(Failure { seed: s, message: e.message.clone() });
                first_error.get_or_insert(e);
            }
            (Some(o @ (Outcome::Winner(_) | Outcome::Shared(_))), None) => o.winners().for_each(|w| wins[w as usize] += 1),
            (Some(_), None) => draws += 1,
            (None, None) => unfinished += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    lengths.sort_unstable();
    rounds.sort_unstable();
    let median = |v: &[u32]| v.get(v.len() / 2).copied().unwrap_or(0);
    let rules: Vec<RuleCount> = game.model.procs.iter().enumerate().map(|(j, p)| RuleCount { rule: p.name.clone(), fired: fired[j], games: fired_games[j] }).collect();
    let never_fired = rules.iter().filter(|r| r.fired == 0).map(|r| r.rule.clone()).collect();
    let report = Report {
        rulebook,
        players,
        games,
        first_seed: seed,
        seconds,
        games_per_second: f64::from(games) / seconds.max(1e-9),
        decisions_min: lengths.first().copied().unwrap_or(0),
        decisions_median: median(&lengths),
        decisions_max: lengths.last().copied().unwrap_or(0),
        rounds_median: median(&rounds),
        wins_by_seat: wins,
        draws,
        unfinished,
        failures,
        rules,
        never_fired,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print_human(&report);
        if let Some(e) = &first_error {
            eprint!("{}", exec_error(e, &sources, ErrorFormat::Human));
        }
    }
    let clean = report.failures.is_empty() && report.unfinished == 0;
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::from(INVALID) })
}

fn print_human(r: &Report) {
    println!("{} games of `{}` at {} players in {:.2} s: {:.0} games/s", r.games, r.rulebook.first().map(String::as_str).unwrap_or(""), r.players, r.seconds, r.games_per_second);
    println!("decisions per game: min {}, median {}, max {}; median rounds {}", r.decisions_min, r.decisions_median, r.decisions_max, r.rounds_median);
    let seats: Vec<String> = r.wins_by_seat.iter().enumerate().map(|(i, w)| format!("{}: {w}", i + 1)).collect();
    println!("wins by seat: {}", seats.join(", "));
    if r.draws > 0 {
        println!("draws: {}", r.draws);
    }
    println!("unfinished within the bound: {}; failures: {}", r.unfinished, r.failures.len());
    for f in r.failures.iter().take(5) {
        println!("  seed {}: {}", f.seed, f.message);
    }
    println!("rules fired (total, in how many games):");
    for rule in &r.rules {
        println!("  {:<28} {:>9} {:>7}", rule.rule, rule.fired, rule.games);
    }
    if !r.never_fired.is_empty() {
        println!("never fired: {}", r.never_fired.join(", "));
    }
}
