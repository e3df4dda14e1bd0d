//! Random playouts of one rulebook for a fixed time, one thread: what to run
//! under a profiler (`perf record`) when the speed table says a game is slow.
//!
//! `cargo run --release -p grimoire-bench --example playouts -- PLAYERS SECONDS FILE...`
//!
//! `PLAYERS -N FILE...` plays exactly N games (seeds 0..N) instead, so that
//! instruction counts (callgrind) compare per game; `PLAYERS =N FILE...`
//! plays the same N games and prints a checksum of their plies, outcomes and
//! final states' fingerprints, which a change of the engine must not move.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used, missing_docs, reason = "a profiling tool stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

enum Mode {
    Seconds(f64),
    Games(u64),
    Checksum(u64),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (players, mode, files) = match args.as_slice() {
        [p, s, files @ ..] if !files.is_empty() => {
            let mode = if let Some(n) = s.strip_prefix('-') {
                Mode::Games(n.parse().expect("a game count"))
            } else if let Some(n) = s.strip_prefix('=') {
                Mode::Checksum(n.parse().expect("a game count"))
            } else {
                Mode::Seconds(s.parse::<f64>().expect("seconds"))
            };
            (p.parse::<u8>().expect("a player count"), mode, files)
        }
        _ => panic!("usage: playouts PLAYERS SECONDS|-GAMES|=GAMES FILE..."),
    };
    let sources: Vec<Source> = files.iter().map(|f| Source { name: f.clone(), text: std::fs::read_to_string(f).expect("readable") }).collect();
    let model = Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{d:?}")));
    let g = Game::new(model, players, &[]).expect("valid");
    let mut st = g.start(0).expect("starts");
    let (t, mut games, mut plies) = (Instant::now(), 0u64, 0u64);
    let mut sum = std::hash::DefaultHasher::new();
    let checksum = matches!(mode, Mode::Checksum(_));
    loop {
        match mode {
            Mode::Seconds(secs) if t.elapsed() >= Duration::from_secs_f64(secs) => break,
            Mode::Games(n) | Mode::Checksum(n) if games >= n => break,
            _ => {}
        }
        g.restart(&mut st, games).expect("starts");
        let mut agent = RandomAgent::new(games);
        while let Some((_, options)) = g.choices(&st) {
            let i = agent.pick(options.len());
            g.apply(&mut st, i).expect("plays");
        }
        if checksum {
            (st.plies, st.decisions, st.outcome, st.fingerprint(), g.canonical_fingerprint(&st), &st.branches, &st.fired).hash(&mut sum);
        }
        plies += u64::from(st.plies);
        games += 1;
    }
    let s = t.elapsed().as_secs_f64();
    if checksum {
        println!("{games} games, {plies} plies, checksum {:016x}", sum.finish());
    } else {
        println!("{games} games in {s:.2} s: {:.0} games/s, {:.1} plies per game", games as f64 / s, plies as f64 / games as f64);
    }
}
