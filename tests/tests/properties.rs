//! Properties, checked on random inputs with proptest.
//!
//! Grail Cup under random play, for every player count 3..=8 (one test per
//! count, so that each count gets its cases): at every step no panic and no
//! rule error, a game that is not over offers at least one choice and a game
//! that is over offers none, every component kind keeps its count (and the
//! validator's invariants hold), and the game ends within `MAX_DECISIONS`;
//! the same seed gives the same log, and replaying the log reaches the same
//! final state.
//!
//! The front end on arbitrary text: random strings, rulebook-shaped noise and
//! the Grail Cup text with a slice deleted, duplicated, moved or replaced by
//! noise never panic the parser, the resolver or the renderer of diagnostics;
//! parse and compile agree on syntax errors; every diagnostic points inside
//! the text; a mutant that still compiles can be played a few steps.

use grimoire_cli::render::{human, ErrorFormat};
use grimoire_interpreter::diagnostic::codes;
use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{random_playout, replay, RandomAgent};
use grimoire_interpreter::validate::invariants::{self, Baseline};
use grimoire_interpreter::{compile, Model, Source};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::sync::{Arc, OnceLock};

/// Decisions after which a Grail Cup game counts as not ending.
///
/// `grimoire simulate -g 10000` (seeds 0..10000, release build) gives the
/// longest game as 118 decisions at 3 players, 150 at 4, 165 at 5, 178 at 6,
/// 183 at 7 and 191 at 8 (always under 250). That follows from the rules:
/// each turn every player picks one ally (two at 3 players) plus a few
/// effect choices, and a knight crosses the 40-space track in a handful of
/// turns. A bound four times the longest game ever seen leaves room for
/// unlucky seeds while still catching a game that loops.
const MAX_DECISIONS: u32 = 1000;

/// Random games per player count and property. A debug build plays about
/// 200 Grail Cup games a second (8 players, one core); 64 cases x 6 counts x
/// (1 + 3 games) is about 1,500 games, a few seconds on two cores.
const CASES_PER_PLAYER_COUNT: u32 = 64;

const GRAIL_CUP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules");

fn grail_cup_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| std::fs::read_to_string(GRAIL_CUP).expect("the rulebook is in the repository"))
}

fn grail_cup() -> &'static Arc<Model> {
    static MODEL: OnceLock<Arc<Model>> = OnceLock::new();
    MODEL.get_or_init(|| Arc::new(compile(&[Source { name: GRAIL_CUP.into(), text: grail_cup_text().into() }]).expect("grail cup compiles")))
}

fn game(players: u8) -> Game {
    Game::new(grail_cup().clone(), players, &[]).expect("3..=8 players are allowed")
}

fn fail(msg: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(msg.to_string())
}

/// One random game, choices made by a seeded random player, every property
/// checked before every decision and at the end.
fn play_checking_every_step(players: u8, seed: u64, agent_seed: u64) -> Result<(), TestCaseError> {
    let g = game(players);
    let mut st = g.start(seed).map_err(|e| fail(format!("setup: {e}")))?;
    let base = Baseline::of(&g, &st);
    let start_counts = st.kind_counts(&g);
    prop_assert_eq!(start_counts.iter().map(|&c| c as usize).sum::<usize>(), g.instance_count(), "every instance is in exactly one zone");
    let mut agent = RandomAgent::new(agent_seed);
    loop {
        prop_assert_eq!(&st.kind_counts(&g), &start_counts, "a component appeared or vanished after {} decisions", st.decisions);
        prop_assert_eq!(invariants::check(&g, &mut st, &base).map(|v| format!("{}: {}", v.code, v.message)), None);
        let choices = g.choices(&st);
        prop_assert_eq!(choices.is_some(), st.outcome.is_none(), "choices are offered exactly while the game is not over");
        let Some((who, options)) = choices else { break };
        prop_assert!(who < players, "player {} decides in a {}-player game", who, players);
        prop_assert!(!options.is_empty(), "a game that is not over must offer a choice");
        prop_assert!(st.decisions < MAX_DECISIONS, "the game did not end within {} decisions", MAX_DECISIONS);
        let (before, pick) = (st.decisions, agent.pick(options.len()));
        g.apply(&mut st, pick).map_err(|e| fail(format!("rule error after {before} decisions: {e}")))?;
        prop_assert_eq!(st.decisions, before + 1);
    }
    prop_assert_eq!(st.outcome.map(|o| o.winners().count()), Some(1), "the first knight to reach the Grail wins alone");
    Ok(())
}

/// Two playouts from one seed give one log; replaying it reaches the same state.
fn same_seed_same_log_and_replay(players: u8, seed: u64) -> Result<(), TestCaseError> {
    let g = game(players);
    let first = random_playout(&g, &[], seed, MAX_DECISIONS).map_err(fail)?;
    let second = random_playout(&g, &[], seed, MAX_DECISIONS).map_err(fail)?;
    prop_assert!(first.error.is_none(), "rule error: {:?}", first.error);
    prop_assert!(first.state.is_over(), "the game did not end within {} decisions", MAX_DECISIONS);
    prop_assert_eq!(&first.log, &second.log);
    prop_assert_eq!(first.state.fingerprint(), second.state.fingerprint());
    prop_assert_eq!(first.log.steps.len(), first.state.decisions as usize);
    let replayed = replay(&g, &first.log).map_err(fail)?;
    prop_assert_eq!(replayed.fingerprint(), first.state.fingerprint());
    prop_assert_eq!(replayed.outcome, first.state.outcome);
    prop_assert_eq!(replayed.decisions, first.state.decisions);
    Ok(())
}

macro_rules! grail_cup_properties {
    ($($players:literal => $invariants:ident, $replay:ident;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(CASES_PER_PLAYER_COUNT))]
            $(
                #[test]
                fn $invariants(seed in any::<u64>(), agent_seed in any::<u64>()) {
                    play_checking_every_step($players, seed, agent_seed)?;
                }

                #[test]
                fn $replay(seed in any::<u64>()) {
                    same_seed_same_log_and_replay($players, seed)?;
                }
            )*
        }
    };
}

grail_cup_properties! {
    3 => invariants_hold_at_3_players, same_seed_same_log_at_3_players;
    4 => invariants_hold_at_4_players, same_seed_same_log_at_4_players;
    5 => invariants_hold_at_5_players, same_seed_same_log_at_5_players;
    6 => invariants_hold_at_6_players, same_seed_same_log_at_6_players;
    7 => invariants_hold_at_7_players, same_seed_same_log_at_7_players;
    8 => invariants_hold_at_8_players, same_seed_same_log_at_8_players;
}

#[test]
fn seed_zero_at_every_player_count() {
    // Once a failing case (3 players, seed 0, agent seed 0); kept as a fixed
    // case at every count, next to the random ones.
    for players in 3..=8 {
        play_checking_every_step(players, 0, 0).unwrap_or_else(|e| panic!("{players} players: {e}"));
        same_seed_same_log_and_replay(players, 0).unwrap_or_else(|e| panic!("{players} players: {e}"));
    }
}

#[test]
fn a_replay_with_a_changed_choice_or_state_is_caught() {
    let g = game(4);
    let p = random_playout(&g, &[], 11, MAX_DECISIONS).expect("starts");
    assert!(replay(&g, &p.log).is_ok());
    let mut changed = p.log.clone();
    let step = changed.steps.iter().position(|s| s.choice > 0).expect("some decision took a later option");
    changed.steps[step].choice = 0;
    assert!(replay(&g, &changed).is_err(), "a log whose choice differs must not replay");
    let mut other_end = p.log.clone();
    other_end.final_fingerprint = format!("{:016x}", p.state.fingerprint() ^ 1);
    assert!(replay(&g, &other_end).is_err(), "a log whose final state differs must not replay");
    let mut other_seed = p.log.clone();
    other_seed.seed += 1;
    assert!(replay(&g, &other_seed).is_err(), "the same choices from another seed give another game");
}

// ---------------------------------------------------------------------------
// The front end on arbitrary text.

/// The nearest char boundary at or below `i`.
fn floor(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn front_end(text: &str) -> Result<(), TestCaseError> {
    let parsed = grimoire_grammar::parse(text);
    let sources = [Source { name: "fuzz.rules".into(), text: text.to_string() }];
    match compile(&sources) {
        Err(diags) => {
            prop_assert!(!diags.is_empty(), "a failed compile must say why");
            let syntax = diags.iter().any(|d| d.code == codes::SYNTAX);
            prop_assert_eq!(syntax, parsed.is_err(), "compile reports a syntax error exactly when parse fails");
            for d in &diags {
                let (a, b) = (d.at.span.start, d.at.span.end);
                prop_assert_eq!(d.at.file.idx(), 0);
                prop_assert!(a <= b && b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b), "{} has span {}..{} in a text of {} bytes", d.code, a, b, text.len());
            }
            let shown = human(&diags, &sources, ErrorFormat::Plain);
            prop_assert!(!shown.contains("could not be rendered"), "{}", shown);
        }
        Ok(model) => {
            prop_assert!(parsed.is_ok(), "compile accepted text that parse rejects");
            // A mutant that still compiles may have broken rules (an error
            // is fine) but must not panic the engine.
            let players = model.min_players;
            if let Ok(g) = Game::new(Arc::new(model), players, &[]) {
                let _ = random_playout(&g, &[], 1, 30);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        front_end(&text)?;
    }

    #[test]
    fn rulebook_shaped_text_never_panics(text in "(rulebook x \\{ players 2..3 \\}|setup|round|rule|zone|token|\\{|\\}|\\(|\\)|\\[|\\]|[a-z_]{1,6}|[0-9]{1,3}|\"[a-z ]{0,5}\"|==|\\+|=|,|\\.|:| |\n){0,60}") {
        front_end(&text)?;
    }

    #[test]
    fn mutated_grail_cup_never_panics(start in any::<usize>(), len in 0usize..400, to in any::<usize>(), kind in 0u8..4, noise in "\\PC{0,20}") {
        let src = grail_cup_text();
        let a = floor(src, start % src.len());
        let b = floor(src, a + len);
        let c = floor(src, to % src.len());
        let mutated = match kind {
            0 => format!("{}{}", &src[..a], &src[b..]),
            1 => format!("{}{}{}", &src[..b], &src[a..b], &src[b..]),
            2 => {
                // Insert a copy of the slice somewhere else.
                format!("{}{}{}", &src[..c], &src[a..b], &src[c..])
            }
            _ => format!("{}{}{}", &src[..a], noise, &src[b..]),
        };
        front_end(&mutated)?;
    }
}

#[test]
fn the_unmutated_rulebook_passes_the_same_checks() {
    // The mutation property starts from a text that compiles and plays.
    front_end(grail_cup_text()).expect("the real rulebook");
    assert!(grimoire_grammar::parse(grail_cup_text()).is_ok());
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    let deep = format!("rulebook x {{ players 2..2 }}\nsetup {{ let a = {}1{} }}", "(".repeat(100_000), ")".repeat(100_000));
    let err = grimoire_grammar::parse(&deep).expect_err("too deep");
    assert!(err.expected.contains("nested"), "{}", err.expected);
    let long = format!("rulebook x {{ players 2..2 }}\nsetup {{ let a = 1{} }}", " + 1".repeat(100_000));
    let err = grimoire_grammar::parse(&long).expect_err("too long");
    assert!(err.expected.contains("operators"), "{}", err.expected);
}
