//! Random playouts of Grail Cup per second, single thread, at 3, 5 and 8
//! players. Run with `cargo bench -p grimoire-interpreter`.

#![allow(clippy::panic, reason = "a benchmark stops on a broken rulebook")]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn main() {
    divan::main();
}

fn grail_cup(players: u8) -> Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let model = compile(&[Source { name: path.into(), text }]).unwrap_or_else(|d| panic!("grail cup does not compile: {d:?}"));
    Game::new(Arc::new(model), players, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// One whole game per iteration; the seed changes every iteration.
#[divan::bench(args = [3, 5, 8], sample_count = 30, sample_size = 20)]
fn grail_cup_playout(bencher: divan::Bencher, players: u8) {
    let game = grail_cup(players);
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut st = game.start(seed).unwrap_or_else(|e| panic!("{e}"));
        let mut agent = RandomAgent::new(seed);
        while let Some((_, options)) = game.choices(&st) {
            let i = agent.pick(options.len());
            game.apply(&mut st, i).unwrap_or_else(|e| panic!("{e}"));
        }
        divan::black_box(st.decisions)
    });
}
