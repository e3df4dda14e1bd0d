//! The speed table of the README, measured in one run so that the ratios
//! compare like with like on a shared, noisy machine:
//!
//! - random playouts per second of each rulebook, with the engine and with
//!   the previous (tree-walking) engine, and their ratio;
//! - the same playouts on one thread and on two;
//! - Grail Cup's playouts with every invariant checked after every step (as
//!   `validate` plays them), against plain ones;
//! - exploration: distinct states per second on one thread, and the memory
//!   per state.
//!
//! Each figure is the best of several alternating rounds (the machine's
//! noise only ever slows a round down). Run with `cargo bench -p
//! grimoire-bench`; `GRIMOIRE_BENCH_SECONDS` sets the time per round
//! (default 0.5).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, missing_docs, reason = "a benchmark stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::legacy::Game as LegacyGame;
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::parallel::in_chunks;
use grimoire_interpreter::validate::explore::{explore, Budget};
use grimoire_interpreter::validate::simulate::play_checked_in;
use grimoire_interpreter::{compile, Model, Source};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn model(files: &[&str]) -> Arc<Model> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let sources: Vec<Source> = files.iter().map(|f| Source { name: (*f).into(), text: std::fs::read_to_string(root.join(f)).expect("readable") }).collect();
    Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{files:?}: {d:?}")))
}

/// One random game with the engine, from `seed`; returns its plies.
fn play(g: &Game, st: &mut grimoire_interpreter::engine::State, seed: u64) -> u32 {
    g.restart(st, seed).expect("starts");
    let mut agent = RandomAgent::new(seed);
    while let Some((_, options)) = g.choices(st) {
        let i = agent.pick(options.len());
        g.apply(st, i).expect("plays");
    }
    st.plies
}

fn play_legacy(g: &LegacyGame, seed: u64) -> u32 {
    let mut st = g.start(seed).expect("starts");
    let mut agent = RandomAgent::new(seed);
    while let Some((_, options)) = g.choices(&st) {
        let i = agent.pick(options.len());
        g.apply(&mut st, i).expect("plays");
    }
    st.plies
}

/// Games per second of `f` over about `secs` seconds.
fn rate(secs: f64, mut f: impl FnMut(u64)) -> f64 {
    let t = Instant::now();
    let mut n = 0u64;
    while t.elapsed() < Duration::from_secs_f64(secs) {
        for _ in 0..16 {
            f(n);
            n += 1;
        }
    }
    n as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test` builds benches too and
    // passes nothing: then only check that everything runs.
    let benching = std::env::args().any(|a| a == "--bench");
    let secs: f64 = std::env::var("GRIMOIRE_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(if benching { 0.5 } else { 0.01 });
    let rounds = if benching { 3 } else { 1 };
    println!("## Random playouts, one thread (best of {rounds} rounds of {secs} s)\n");
    println!("| rulebook | players | plies per game | games/s | previous engine | ratio | target |");
    println!("|---|---|---|---|---|---|---|");
    let cases: &[(&str, &[&str], u8, &str)] = &[
        ("tic-tac-toe", &["rulebooks/classic/tic-tac-toe.rules"], 2, "600,000"),
        ("connect four", &["rulebooks/classic/connect-four.rules"], 2, "200,000"),
        ("breakthrough 8×8", &["rulebooks/classic/breakthrough.rules"], 2, "10,000"),
        ("reversi", &["rulebooks/classic/reversi.rules"], 2, "–"),
        ("Grail Cup", &["rulebooks/grail-cup/grail-cup.rules"], 3, "50,000"),
        ("Merlin", &["rulebooks/merlin/merlin.rules"], 4, "5,000"),
    ];
    for (name, files, players, target) in cases {
        let m = model(files);
        let g = Game::new(m.clone(), *players, &[]).expect("valid");
        let old = LegacyGame::new(m, *players, &[]).expect("valid");
        let mut st = g.start(0).expect("starts");
        let (mut new_best, mut old_best, mut plies, mut games) = (0f64, 0f64, 0u64, 0u64);
        for _ in 0..rounds {
            new_best = new_best.max(rate(secs, |s| {
                plies += u64::from(play(&g, &mut st, s));
                games += 1;
            }));
            old_best = old_best.max(rate(secs, |s| {
                play_legacy(&old, s);
            }));
        }
        println!("| {name} | {players} | {:.1} | {:.0} | {:.0} | {:.1}× | ≥ {target} |", plies as f64 / games.max(1) as f64, new_best, old_best, new_best / old_best.max(1e-9));
    }

    println!("\n## Random playouts on one thread and on two (best of {rounds})\n");
    println!("| rulebook | 1 thread, games/s | 2 threads, games/s | ratio | target |");
    println!("|---|---|---|---|---|");
    for (name, files, players) in [("Grail Cup", &["rulebooks/grail-cup/grail-cup.rules"][..], 3u8), ("connect four", &["rulebooks/classic/connect-four.rules"][..], 2)] {
        let g = Game::new(model(files), players, &[]).expect("valid");
        let batch = if benching { 4000u32 } else { 40 };
        let run = |jobs: usize| {
            let t = Instant::now();
            in_chunks(batch, jobs, || g.start(0).expect("starts"), |st, i| {
                play(&g, st, u64::from(i));
            });
            f64::from(batch) / t.elapsed().as_secs_f64()
        };
        let (mut one, mut two) = (0f64, 0f64);
        for _ in 0..rounds {
            one = one.max(run(1));
            two = two.max(run(2));
        }
        println!("| {name} | {one:.0} | {two:.0} | {:.2}× | ≥ 1.8× |", two / one.max(1e-9));
    }

    println!("\n## Grail Cup with every invariant checked after every step (validate's games), one thread\n");
    println!("| players | games/s, unchecked | games/s, checked | ratio |");
    println!("|---|---|---|---|");
    for players in [3u8, 5, 8] {
        let g = Game::new(model(&["rulebooks/grail-cup/grail-cup.rules"]), players, &[]).expect("valid");
        let mut st = g.start(0).expect("starts");
        let (mut plain, mut checked) = (0f64, 0f64);
        for _ in 0..rounds {
            plain = plain.max(rate(secs, |s| {
                play(&g, &mut st, s);
            }));
            checked = checked.max(rate(secs, |s| {
                assert!(play_checked_in(&g, &[], &mut st, s, 5000).is_none());
            }));
        }
        println!("| {players} | {plain:.0} | {checked:.0} | {:.2} |", plain / checked.max(1e-9));
    }

    println!("\n## Exploration, one thread\n");
    println!("| rulebook | states | exhausted | states/s | bytes per state | target |");
    println!("|---|---|---|---|---|---|");
    for (name, files, max) in [("tic-tac-toe", &["rulebooks/classic/tic-tac-toe.rules"][..], 10_000_000usize), ("connect four (first 1,000,000 states)", &["rulebooks/classic/connect-four.rules"][..], 1_000_000)] {
        let g = Game::new(model(files), 2, &[]).expect("valid");
        let max = if benching { max } else { 2_000 };
        let mut best: Option<grimoire_interpreter::validate::explore::ExploreReport> = None;
        for _ in 0..rounds {
            let r = explore(&g, &[], Budget { max_states: max, jobs: 1, ..Budget::default() });
            if best.as_ref().is_none_or(|b| r.states_per_second > b.states_per_second) {
                best = Some(r);
            }
        }
        let r = best.expect("one round at least");
        println!("| {name} | {} | {} | {:.0} | {:.0} | ≥ 1,000,000 states/s, ≤ 100 bytes |", r.distinct, if r.exhausted { "yes" } else { "no" }, r.states_per_second, r.bytes_per_state);
    }
}
