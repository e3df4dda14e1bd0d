//! `play`: a text that compiles is laid out for each of its first player
//! counts, without options and with all of them, and played by random agents
//! from two seeds and once with chance as a decision (as the explorer plays):
//! nothing panics. A rule that fails (an `ExecError`) or a player count the
//! engine cannot lay out is a finding for the rulebook's author, not a
//! crash. Every game's log must replay to the same game: the same seed and
//! the same choices give the same state, and where play stopped (a rule
//! error, a broken invariant) the replay stops too, as the log records.
#![no_main]

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{random_playout, replay, GameLog, RandomAgent, ReplayError};
use grimoire_interpreter::validate::invariants::{self, Baseline};
use grimoire_interpreter::validate::simulate::play_checked;
use grimoire_interpreter::{compile, Source};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// Player counts tried: the first ones the rulebook allows.
const MAX_COUNTS: usize = 4;
/// Decisions per game: enough to reach the end of the small games the
/// fuzzer writes and the middle of the real ones.
const MAX_DECISIONS: u32 = 200;
/// Steps of a game played with chance as a decision: its decisions and
/// chance's outcomes together.
const MAX_STEPS: u32 = 4 * MAX_DECISIONS;
/// Steps one decision may take. The rulebook's own `step_fuel` (default
/// 10,000,000) is kept when it is lower; above this, a rulebook whose every
/// decision loops until the fuel runs out would take minutes per input, and
/// libFuzzer would report a timeout where the engine does what it promises.
const MAX_FUEL: u64 = 100_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut model) = compile(&[Source { name: "fuzz.rules".into(), text: text.into() }]) else { return };
    model.step_fuel = model.step_fuel.min(MAX_FUEL);
    let model = Arc::new(model);
    let mut option_sets = vec![Vec::new()];
    if !model.options.is_empty() {
        option_sets.push(model.options.clone());
    }
    for players in (model.min_players..=model.max_players).take(MAX_COUNTS) {
        for options in &option_sets {
            // Too many pieces at this count, say: the CLI reports it.
            let Ok(game) = Game::new(model.clone(), players, options) else { continue };
            for seed in 0..2 {
                play_seeded(&game, seed);
            }
            play_exploring(&game);
        }
    }
});

/// A random game drawing dice and shuffles from `seed`, checked as
/// `validate` checks it (a rule error or a broken invariant, built-in or
/// declared, stops it and is recorded in its log), then its replay.
fn play_seeded(game: &Game, seed: u64) {
    let checked = play_checked(game, &[], seed, MAX_DECISIONS);
    if let Some(st) = &checked.state {
        for p in 0..game.players {
            let _ = game.observe(st, p);
        }
        let _ = game.canonical_fingerprint(st);
    }
    if checked.problem.is_some() {
        // Its log is labelled up to the fault it records.
        check_replays(game, &checked.log);
        return;
    }
    // A game that went right keeps only its choices: played again from the
    // same seed with its full log, it is the same game, and replays.
    if let Ok(playout) = random_playout(game, &[], seed, MAX_DECISIONS) {
        assert_eq!(checked.state.as_ref().map(|s| s.fingerprint()), Some(playout.state.fingerprint()), "two random games from seed {seed} differ");
        if playout.error.is_none() {
            check_replays(game, &playout.log);
        }
    }
}

/// A random game where dice and shuffles are decisions of chance, as the
/// explorer walks them, then its replay.
fn play_exploring(game: &Game) {
    let Ok(mut st) = game.start_exploring() else { return };
    let base = Baseline::of(game, &st);
    let mut agent = RandomAgent::new(7);
    let mut log = GameLog::begin(game, &[], 0);
    log.exploring = true;
    // Steps, not decisions: chance's steps count no decision, and a game of
    // dice alone (roll after roll, nobody deciding) would never stop.
    let mut steps = 0u32;
    while let Some((_, options)) = game.choices(&st) {
        if steps >= MAX_STEPS || options.is_empty() {
            break;
        }
        steps += 1;
        let i = agent.pick(options.len());
        log.record(game, &st, i);
        if game.apply(&mut st, i).is_err() {
            return;
        }
        // A broken invariant (built-in or declared) is the rulebook's
        // fault: replay would stop there, where this log goes on.
        if invariants::check(game, &mut st, &base).is_some() {
            return;
        }
    }
    let _ = game.canonical_fingerprint(&st);
    log.finish(&st, None);
    check_replays(game, &log);
}

/// A log of a game that ended without a rule failing replays to its state.
/// Replay also checks the invariants the games above do not (components
/// that vanish, a game stuck without a choice): breaking one is the
/// rulebook's fault, reported to its author.
fn check_replays(game: &Game, log: &GameLog) {
    match replay(game, log) {
        Ok(_) | Err(ReplayError::Invariant { .. } | ReplayError::Exec { .. }) => {}
        Err(e) => panic!("a game played from seed {} does not replay from its log: {e}", log.seed),
    }
}
