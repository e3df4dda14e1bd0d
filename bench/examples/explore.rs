//! One rulebook explored again and again, one thread: what to run under a
//! profiler (`perf record`) when the speed table says exploration is slow.
//!
//! `cargo run --release -p grimoire-bench --example explore -- PLAYERS ROUNDS MAX_STATES FILE...`
//!
//! Prints the best round's states per second, and the distinct states and
//! expanded states of the last round (which a change of the explorer must
//! not move).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used, missing_docs, reason = "a profiling tool stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::validate::explore::{explore, Budget};
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [players, rounds, max, files @ ..] = args.as_slice() else {
        panic!("usage: explore PLAYERS ROUNDS MAX_STATES FILE...");
    };
    let (players, rounds, max): (u8, u32, usize) = (players.parse().expect("a player count"), rounds.parse().expect("a round count"), max.parse().expect("a state count"));
    let sources: Vec<Source> = files.iter().map(|f| Source { name: f.clone(), text: std::fs::read_to_string(f).expect("readable") }).collect();
    let model = Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{d:?}")));
    let g = Game::new(model, players, &[]).expect("valid");
    let mut best = 0f64;
    let mut last = None;
    for _ in 0..rounds {
        let r = explore(&g, &[], Budget { max_states: max, jobs: 1, ..Budget::default() });
        best = best.max(r.states_per_second);
        last = Some(r);
    }
    let r = last.expect("one round at least");
    println!("{} distinct, {} expanded, {} finished; best round {best:.0} states/s, {:.0} bytes per state", r.distinct, r.expanded, r.terminal, r.bytes_per_state);
}
