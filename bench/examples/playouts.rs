//! Random playouts of one rulebook for a fixed time, one thread: what to run
//! under a profiler (`perf record`) when the speed table says a game is slow.
//!
//! `cargo run --release -p grimoire-bench --example playouts -- PLAYERS SECONDS FILE...`

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used, missing_docs, reason = "a profiling tool stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (players, secs, files) = match args.as_slice() {
        [p, s, files @ ..] if !files.is_empty() => (p.parse::<u8>().expect("a player count"), s.parse::<f64>().expect("seconds"), files),
        _ => panic!("usage: playouts PLAYERS SECONDS FILE..."),
    };
    let sources: Vec<Source> = files.iter().map(|f| Source { name: f.clone(), text: std::fs::read_to_string(f).expect("readable") }).collect();
    let model = Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{d:?}")));
    let g = Game::new(model, players, &[]).expect("valid");
    let mut st = g.start(0).expect("starts");
    let (t, mut games, mut plies) = (Instant::now(), 0u64, 0u64);
    while t.elapsed() < Duration::from_secs_f64(secs) {
        for _ in 0..16 {
            g.restart(&mut st, games).expect("starts");
            let mut agent = RandomAgent::new(games);
            while let Some((_, options)) = g.choices(&st) {
                let i = agent.pick(options.len());
                g.apply(&mut st, i).expect("plays");
            }
            plies += u64::from(st.plies);
            games += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{games} games in {s:.2} s: {:.0} games/s, {:.1} plies per game", games as f64 / s, plies as f64 / games as f64);
}
