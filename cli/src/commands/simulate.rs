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
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<ScoreSummary>,
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

/// The flags of `grimoire simulate`.
pub struct SimArgs<'a> {
    /// Rulebook and modules.
    pub files: &'a [PathBuf],
    /// Player count.
    pub players: u8,
    /// Games.
    pub games: u32,
    /// First seed.
    pub seed: u64,
    /// Options on.
    pub options: &'a [String],
    /// Decision bound.
    pub max_decisions: u32,
    /// Per-player counter to report.
    pub score: Option<&'a str>,
    /// JSON output.
    pub json: bool,
}

/// Final values of a per-player counter, by seat.
#[derive(Serialize)]
struct ScoreSummary {
    counter: String,
    by_seat: Vec<Spread>,
    winners: Spread,
}

#[derive(Serialize)]
struct Spread {
    min: i64,
    p10: i64,
    median: i64,
    p90: i64,
    max: i64,
    mean: f64,
}

fn spread(mut v: Vec<i64>) -> Spread {
    v.sort_unstable();
    let at = |q: f64| v.get(((v.len() as f64 - 1.0) * q).round().max(0.0) as usize).copied().unwrap_or(0);
    let mean = if v.is_empty() { 0.0 } else { v.iter().sum::<i64>() as f64 / v.len() as f64 };
    Spread { min: at(0.0), p10: at(0.1), median: at(0.5), p90: at(0.9), max: at(1.0), mean }
}

/// Run `games` random playouts.
#[allow(clippy::indexing_slicing, reason = "the counters are sized from the model and the player count they are indexed by")]
pub fn simulate(a: SimArgs) -> Result<ExitCode, String> {
    let SimArgs { files, players, games, seed, options, max_decisions, score, json } = a;
    let Some((game, sources)) = game_for(files, players, options)? else { return Ok(ExitCode::from(INVALID)) };
    let score_slot = match score {
        Some(name) => match game.model.counters.iter().position(|c| c.name == name && c.per_player) {
            Some(c) => Some((name.to_string(), game.counter_base[c] as usize)),
            None => return Err(format!("the rulebook has no per-player counter `{name}`")),
        },
        None => None,
    };
    let mut scores: Vec<Vec<i64>> = vec![Vec::new(); players as usize];
    let mut winner_scores: Vec<i64> = Vec::new();
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
        if let Some((_, base)) = &score_slot {
            for (seat, v) in scores.iter_mut().enumerate() {
                v.push(p.state.counters[base + seat]);
            }
            if let Some(o) = p.state.outcome {
                winner_scores.extend(o.winners().map(|w| p.state.counters[base + w as usize]));
            }
        }
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
        score: score_slot.map(|(counter, _)| ScoreSummary { counter, by_seat: scores.into_iter().map(spread).collect(), winners: spread(winner_scores) }),
    };
    if json {
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
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
    grimoire_cli::say!("{} games of `{}` at {} players in {:.2} s: {:.0} games/s", r.games, r.rulebook.first().map(String::as_str).unwrap_or(""), r.players, r.seconds, r.games_per_second);
    grimoire_cli::say!("decisions per game: min {}, median {}, max {}; median rounds {}", r.decisions_min, r.decisions_median, r.decisions_max, r.rounds_median);
    let seats: Vec<String> = r.wins_by_seat.iter().enumerate().map(|(i, w)| format!("{}: {w}", i + 1)).collect();
    grimoire_cli::say!("wins by seat: {}", seats.join(", "));
    if r.draws > 0 {
        grimoire_cli::say!("draws: {}", r.draws);
    }
    grimoire_cli::say!("unfinished within the bound: {}; failures: {}", r.unfinished, r.failures.len());
    if let Some(s) = &r.score {
        grimoire_cli::say!("final `{}` (min / p10 / median / p90 / max, mean):", s.counter);
        let line = |x: &Spread| format!("{} / {} / {} / {} / {}, {:.1}", x.min, x.p10, x.median, x.p90, x.max, x.mean);
        for (i, x) in s.by_seat.iter().enumerate() {
            grimoire_cli::say!("  seat {}: {}", i + 1, line(x));
        }
        grimoire_cli::say!("  winners: {}", line(&s.winners));
    }
    for f in r.failures.iter().take(5) {
        grimoire_cli::say!("  seed {}: {}", f.seed, f.message);
    }
    grimoire_cli::say!("rules fired (total, in how many games):");
    for rule in &r.rules {
        grimoire_cli::say!("  {:<28} {:>9} {:>7}", rule.rule, rule.fired, rule.games);
    }
    if !r.never_fired.is_empty() {
        grimoire_cli::say!("never fired: {}", r.never_fired.join(", "));
    }
}
