//! Properties of Grail Cup under random play, for every player count 3..=8:
//! no panic and no rule error, a game that is not over always offers a
//! choice, every component is conserved after every step, the game ends
//! within a stated bound, the same seed gives the same log, and replaying the
//! log gives the same final state.

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{random_playout, replay, RandomAgent};
use grimoire_interpreter::validate::invariants::{self, Baseline};
use grimoire_interpreter::{compile, Source};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

/// Decisions after which a game counts as not ending. Over 10,000 random
/// games per player count (`grimoire simulate`), the longest game took 118
/// decisions at 3 players and 191 at 8: each turn every player drafts one
/// ally (two at 3 players) and the race is 40 spaces long, so a game that
/// needs five times the longest ever seen does not end.
const MAX_DECISIONS: u32 = 1000;

fn rulebook() -> &'static Arc<grimoire_interpreter::Model> {
    static MODEL: OnceLock<Arc<grimoire_interpreter::Model>> = OnceLock::new();
    MODEL.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules");
        let text = std::fs::read_to_string(path).expect("the rulebook is in the repository");
        Arc::new(compile(&[Source { name: path.into(), text }]).expect("grail cup compiles"))
    })
}

fn game(players: u8) -> Game {
    Game::new(rulebook().clone(), players, &[]).expect("3..=8 players are allowed")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(players in 3u8..=8, seed in any::<u64>(), agent_seed in any::<u64>()) {
        let g = game(players);
        let mut st = g.start(seed).expect("setup succeeds");
        let base = Baseline::of(&g, &st);
        let start_counts = st.kind_counts(&g);
        let mut agent = RandomAgent::new(agent_seed);
        loop {
            prop_assert_eq!(invariants::check(&g, &st, &base), None);
            prop_assert_eq!(&st.kind_counts(&g), &start_counts, "a component appeared or vanished");
            let Some((_, options)) = g.choices(&st) else { break };
            prop_assert!(!options.is_empty(), "a game that is not over must offer a choice");
            prop_assert!(st.decisions < MAX_DECISIONS, "the game did not end within {} decisions", MAX_DECISIONS);
            let i = agent.pick(options.len());
            g.apply(&mut st, i).map_err(|e| TestCaseError::fail(format!("rule error: {e}")))?;
        }
        prop_assert!(st.is_over());
        prop_assert!(st.outcome.map(|o| o.winners().count()) == Some(1), "Grail Cup has exactly one winner");
    }

    #[test]
    fn same_seed_same_game_and_replay_reaches_the_same_state(players in 3u8..=8, seed in any::<u64>()) {
        let g = game(players);
        let first = random_playout(&g, &[], seed, MAX_DECISIONS).expect("starts");
        let second = random_playout(&g, &[], seed, MAX_DECISIONS).expect("starts");
        prop_assert_eq!(&first.log, &second.log);
        let replayed = replay(&g, &first.log).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed.fingerprint(), first.state.fingerprint());
        prop_assert_eq!(replayed.outcome, first.state.outcome);
    }
}

#[test]
fn a_replay_with_a_changed_choice_is_caught() {
    let g = game(4);
    let p = random_playout(&g, &[], 11, MAX_DECISIONS).expect("starts");
    let mut log = p.log.clone();
    let step = log.steps.iter().position(|s| s.choice > 0).expect("some decision took a later option");
    log.steps[step].choice = 0;
    assert!(replay(&g, &log).is_err(), "a log that does not match the game must not replay");
}
