//! `replay`: any bytes, read as a game log (the JSON `grimoire play --log`
//! writes and `grimoire replay` reads), replayed against a small fixed
//! rulebook: a log that is not JSON, names a player count or an option the
//! rulebook does not have, or asks for choices the game does not offer, is
//! refused or replayed to a mismatch, never a panic. The log's first
//! rulebook name picks the rulebook: tic-tac-toe (a board, no chance) when
//! it ends with `tic-tac-toe.rules`, else the validator's sound race (dice,
//! three player counts, declared invariants).
#![no_main]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{replay, GameLog};
use grimoire_interpreter::{compile, Model, Source};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

const TIC_TAC_TOE: &str = include_str!("../../rulebooks/classic/tic-tac-toe.rules");
const SOUND: &str = include_str!("../../tests/fixtures/validate/sound.rules");

fn model(text: &str, cell: &'static OnceLock<Arc<Model>>) -> Arc<Model> {
    cell.get_or_init(|| {
        let sources = [Source { name: "fixed.rules".into(), text: text.into() }];
        match compile(&sources) {
            Ok(m) => Arc::new(m),
            Err(d) => panic!("the fixed rulebook does not compile: {d:?}"),
        }
    })
    .clone()
}

fuzz_target!(|data: &[u8]| {
    static TTT: OnceLock<Arc<Model>> = OnceLock::new();
    static RACE: OnceLock<Arc<Model>> = OnceLock::new();
    // `grimoire replay` refuses a file that is not a log before anything runs.
    let Ok(log) = serde_json::from_slice::<GameLog>(data) else { return };
    let model = match log.rulebook.first() {
        Some(name) if name.ends_with("tic-tac-toe.rules") => model(TIC_TAC_TOE, &TTT),
        _ => model(SOUND, &RACE),
    };
    // A player count or an option the rulebook does not have: refused.
    let Ok(game) = Game::new(model, log.players, &log.options) else { return };
    let _ = replay(&game, &log);
});
