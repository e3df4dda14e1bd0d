//! Random playouts of a rulebook as fast as the engine goes, for profiling:
//! `cargo run --release -p grimoire-interpreter --example playouts -- FILE PLAYERS GAMES`.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a profiling tool stops on bad input")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let files: Vec<&String> = args.iter().skip(1).filter(|a| a.ends_with(".rules")).collect();
    let nums: Vec<u64> = args.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (players, games) = (nums.first().copied().unwrap_or(2) as u8, nums.get(1).copied().unwrap_or(10_000));
    let sources: Vec<Source> = files.iter().map(|f| Source { name: f.to_string(), text: std::fs::read_to_string(f).expect("readable") }).collect();
    let model = Arc::new(compile(&sources).expect("compiles"));
    let game = Game::new(model, players, &[]).expect("valid");
    let t = Instant::now();
    let mut st = game.start(0).expect("starts");
    let (mut plies, mut decisions) = (0u64, 0u64);
    for seed in 0..games {
        game.restart(&mut st, seed).expect("starts");
        let mut agent = RandomAgent::new(seed);
        while let Some((_, options)) = game.choices(&st) {
            let i = agent.pick(options.len());
            game.apply(&mut st, i).expect("plays");
        }
        plies += u64::from(st.plies);
        decisions += u64::from(st.decisions);
    }
    let s = t.elapsed().as_secs_f64();
    println!("{games} games in {s:.3} s: {:.0} games/s, {:.4} plies and {:.2} decisions per game", games as f64 / s, plies as f64 / games as f64, decisions as f64 / games as f64);
}
