//! The validator's speed: checked playouts of Grail Cup (invariants after
//! every step) and exhaustive exploration of a small game, in states per
//! second. Run with `cargo bench -p grimoire-interpreter --bench validator`.

#![allow(clippy::panic, reason = "a benchmark stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::validate::explore::{explore, Budget};
use grimoire_interpreter::validate::simulate::play_checked;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn main() {
    divan::main();
}

fn game(rel: &str, players: u8) -> Game {
    let path = format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let model = compile(&[Source { name: path.clone(), text }]).unwrap_or_else(|d| panic!("{path} does not compile: {d:?}"));
    Game::new(Arc::new(model), players, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// One Grail Cup game with every invariant checked after every step.
#[divan::bench(args = [3, 5, 8], sample_count = 20, sample_size = 20)]
fn checked_playout(bencher: divan::Bencher, players: u8) {
    let g = game("rulebooks/grail-cup/grail-cup.rules", players);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        divan::black_box(play_checked(&g, &[], seed, 5000).problem.is_none())
    });
}

/// Grail Cup at 3 players explored breadth first up to 20,000 states.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn explore_grail_cup_20k_states(bencher: divan::Bencher) {
    let g = game("rulebooks/grail-cup/grail-cup.rules", 3);
    bencher.counter(divan::counter::ItemsCount::new(20_000usize)).bench_local(|| divan::black_box(explore(&g, &[], Budget { max_states: 20_000, ..Budget::default() }).distinct));
}

/// The small sound fixture explored to exhaustion at 3 players.
#[divan::bench(sample_count = 10, sample_size = 5)]
fn explore_small_game_exhaustively(bencher: divan::Bencher) {
    let g = game("tests/fixtures/validate/sound.rules", 3);
    let states = explore(&g, &[], Budget::default()).distinct;
    bencher.counter(divan::counter::ItemsCount::new(states)).bench_local(|| divan::black_box(explore(&g, &[], Budget::default()).distinct));
}
