//! `simultaneous p in PLAYERS { ... }` (docs/language.md, "Simultaneous
//! decisions"): each player decides on the state from before the block,
//! sees nothing of the earlier turns, and everything shows at the end.

use grimoire_interpreter::engine::{Game, State};
use grimoire_interpreter::{compile, Diagnostic, Source};
use std::sync::Arc;

fn compiled(text: &str) -> Result<grimoire_interpreter::model::Model, Vec<Diagnostic>> {
    compile(&[Source { name: "t.rules".into(), text: text.into() }])
}

fn game(text: &str, players: u8) -> Game {
    let model = compiled(text).unwrap_or_else(|d| panic!("{d:#?}"));
    Game::new(Arc::new(model), players, &[]).expect("player count")
}

/// Two or three players bid a public amount each round; the options of a
/// bid read the bids already made, which the block must hide.
const BIDS: &str = r#"rulebook bids { players 2..3 }
var bid per_player : int public assume "x"
counter rounds 0..100 = 0 assume "x"
round turn assume "x" {
  simultaneous p in players {
    let highest = max q in [x in players where bid[x] != none] of bid[q]
    choose b from [x in [1, 2, 3] where highest == none or x >= highest] by p prompt "Your bid?"
    bid[p] = b
  }
  rounds += 1
  if rounds == 2 { end }
}
"#;

fn labels(g: &Game, st: &State) -> (u8, Vec<String>) {
    let (p, options) = g.choices(st).expect("a decision");
    (p, options.iter().map(|o| g.option_label(o)).collect())
}

#[test]
fn a_later_player_decides_on_the_state_from_before_the_block() {
    let g = game(BIDS, 2);
    for first_bid in 0..3 {
        let (mut st, started) = g.begin(0);
        started.expect("setup");
        assert_eq!(labels(&g, &st), (0, vec!["1".into(), "2".into(), "3".into()]));
        g.apply(&mut st, first_bid).expect("player 1 bids");
        // Player 1's bid does not narrow player 2's options, and shows to
        // nobody, although `bid` is public.
        assert_eq!(labels(&g, &st), (1, vec!["1".into(), "2".into(), "3".into()]), "after a first bid of {}", first_bid + 1);
        for viewer in 0..2 {
            assert!(g.observe(&st, viewer).values.iter().all(|v| !v.contains(&format!("= {}", first_bid + 1)) || v.contains("rounds")), "{:?}", g.observe(&st, viewer).values);
        }
        g.apply(&mut st, 0).expect("player 2 bids");
        // Revealed: the next round's options see both bids (the highest is
        // player 1's). A single option is taken without asking: a first bid
        // of 3 leaves both players one option, and the game ends.
        let left = 3 - first_bid;
        match g.choices(&st) {
            Some((p, options)) => {
                assert_eq!((p, options.len()), (0, left), "after bids {} and 1", first_bid + 1);
            }
            None => assert!(left == 1 && st.is_over(), "after bids {} and 1", first_bid + 1),
        }
    }
}

#[test]
fn a_game_stopped_inside_a_block_packs_and_unpacks_to_the_same_state() {
    let g = game(BIDS, 3);
    let (mut st, _) = g.begin(0);
    g.apply(&mut st, 2).expect("player 1");
    g.apply(&mut st, 1).expect("player 2");
    let mut bytes = Vec::new();
    st.pack(&mut bytes);
    let (mut back, _) = g.begin(0);
    back.unpack(&bytes).expect("a state of this game");
    assert_eq!(back.fingerprint(), st.fingerprint());
    assert_eq!(g.canonical_fingerprint(&back), g.canonical_fingerprint(&st));
    // The two ways on give the same game.
    g.apply(&mut st, 0).expect("player 3");
    g.apply(&mut back, 0).expect("player 3");
    assert_eq!(back.fingerprint(), st.fingerprint());
    // And a state in the block is not the state before it with another turn.
    let (mut other, _) = g.begin(0);
    g.apply(&mut other, 1).expect("player 1 bids otherwise");
    g.apply(&mut other, 1).expect("player 2");
    assert_ne!(g.canonical_fingerprint(&other), g.canonical_fingerprint(&back));
}

#[test]
fn two_players_setting_one_shared_value_differently_is_r0014() {
    let text = r#"rulebook clash { players 2..2 }
var pick : int assume "x"
round turn assume "x" {
  simultaneous p in players { choose b from [1, 2] by p  pick = b }
  end
}
"#;
    let g = game(text, 2);
    let (mut st, _) = g.begin(0);
    g.apply(&mut st, 0).expect("player 1 picks 1");
    // The same value: no clash, whoever went first.
    let mut same = st.clone();
    g.apply(&mut same, 0).expect("player 2 picks 1 too");
    assert!(same.is_over());
    let e = g.apply(&mut st, 1).expect_err("player 2 picks 2");
    assert_eq!(e.kind.code(), "R0014");
    assert!(e.message.contains("players 1 and 2 both set `pick`"), "{}", e.message);
}

/// A player given two turns in one block is R0014 whether or not his
/// turns set anything (a turn that only decided left nothing to compare,
/// and went unreported: an outside tester's finding).
#[test]
fn a_player_given_two_turns_is_r0014_even_when_his_turns_set_nothing() {
    for body in ["choose b from [1, 2] by p", "choose b from [1, 2] by p  score[p] = b"] {
        let text = format!("rulebook twice {{ players 2..2 }}\nvar score per_player : int assume \"x\"\nround turn assume \"x\" {{\n  simultaneous p in [player(1), player(1)] {{ {body} }}\n  end\n}}\n");
        let g = game(&text, 2);
        let (mut st, _) = g.begin(0);
        let e = g.apply(&mut st, 0).expect_err("player 1's second turn");
        assert_eq!(e.kind.code(), "R0014", "{body}");
        assert!(e.message.contains("player 1 has two turns"), "{body}: {}", e.message);
    }
}

#[test]
fn only_the_player_whose_turn_it_is_decides_inside_the_block() {
    let text = r#"rulebook wrong { players 2..2 }
var pick per_player : int assume "x"
round turn assume "x" {
  simultaneous p in players { choose b from [1, 2] by player(1)  pick[p] = b }
  end
}
"#;
    let g = game(text, 2);
    let (mut st, _) = g.begin(0);
    assert_eq!(g.choices(&st).map(|(p, _)| p), Some(0), "player 1 decides in his own turn");
    // The rules run on to player 2's turn, where player 1 is asked again.
    let e = g.apply(&mut st, 0).expect_err("player 1 again, in player 2's turn");
    assert_eq!(e.kind.code(), "R0014");
    assert!(e.message.contains("player 1 decides during player 2's turn"), "{}", e.message);
}

#[test]
fn a_block_that_acts_is_refused_with_e0305_at_the_statement() {
    let cases = [
        ("move pieces", "move top of deck to pile"),
        ("roll a die", "roll r = d6"),
        ("pick at random", "choose x from [1, 2] at random"),
        ("end the game", "win p"),
        ("hold another `simultaneous` block", "simultaneous q in players { pass }"),
        ("run `deal`, which may move pieces", "do deal"),
        ("run `outer`, which may move pieces (through `deal`)", "do outer"),
    ];
    for (what, stmt) in cases {
        let text = format!(
            r#"rulebook acts {{ players 2..2 }}
token chip 4 assume "x"
zone deck of chip assume "x"
zone pile of chip assume "x"
die d6 6 assume "x"
rule deal assume "x" {{ move top of deck to pile }}
rule outer assume "x" {{ do deal }}
setup assume "x" {{ move 4 of chip from box to deck }}
round turn assume "x" {{
  simultaneous p in players {{ {stmt} }}
  end
}}
"#
        );
        let errs = compiled(&text).expect_err(stmt);
        assert_eq!(errs.len(), 1, "{stmt}: {errs:#?}");
        assert_eq!(errs[0].code, "E0305", "{stmt}");
        assert!(errs[0].message.contains(&format!("cannot {what}:")), "{stmt}: {}", errs[0].message);
    }
}

#[test]
fn an_exception_a_module_adds_counts_for_the_rules_a_block_runs() {
    let base = r#"rulebook base { players 2..2 }
token chip 4 assume "x"
zone deck of chip assume "x"
var pick per_player : int assume "x"
rule note(p: player) assume "x" { pick[p] = 1 }
setup assume "x" { move 4 of chip from box to deck }
round turn assume "x" {
  simultaneous p in players { do note(p) }
  end
}
"#;
    assert!(compiled(base).is_ok(), "setting a var in a called rule is allowed");
    let module = r#"module burn extends "base.rules" { }
zone burnt of chip assume "x"
exception burn_one to note when true after assume "x" { move top of deck to burnt }
"#;
    let errs = compile(&[Source { name: "base.rules".into(), text: base.into() }, Source { name: "burn.rules".into(), text: module.into() }]).expect_err("the exception moves");
    assert_eq!(errs[0].code, "E0305");
    assert!(errs[0].message.contains("run `note`"), "{}", errs[0].message);
}

#[test]
fn a_var_named_simultaneous_keeps_working() {
    let text = r#"rulebook names { players 2..2 }
var simultaneous : int assume "x"
round turn assume "x" { simultaneous = 3  if simultaneous == 3 { end } }
"#;
    let g = game(text, 2);
    let (st, started) = g.begin(0);
    started.expect("runs");
    assert!(st.is_over());
}

/// One sealed round: each of two players picks 1, 2 or 3, then the game ends.
const ONE_ROUND: &str = r#"rulebook one_round { players 2..2 }
var bid per_player : int public assume "x"
round turn assume "x" {
  simultaneous p in players {
    choose b from [1, 2, 3] by p
    bid[p] = b
  }
  end
}
"#;

#[test]
fn explore_takes_a_block_as_one_step_and_keeps_no_state_inside_it() {
    use grimoire_interpreter::validate::explore::{explore, Budget};
    let r = explore(&game(ONE_ROUND, 2), &[], Budget::default());
    assert!(r.exhausted && r.findings.is_empty(), "{:?}", r.findings);
    // The start, then the nine pairs of bids: not the three states where
    // only the first player has bid.
    assert_eq!((r.distinct, r.terminal), (10, 9));
    assert_eq!((r.depth, r.longest), (1, Some(1)));
}

#[test]
fn a_loop_through_blocks_is_a_lasso_that_replays() {
    use grimoire_interpreter::log::replay;
    use grimoire_interpreter::validate::explore::{explore, Budget};
    // Ties score nothing and the bids are forgotten: two players who always
    // tie play forever. The lasso goes through both decisions of a block.
    const TIES: &str = r#"rulebook ties { players 2..2 }
counter points per_player 0..2 = 0 assume "x"
var bid per_player : int owner assume "x"
round turn assume "x" {
  simultaneous p in players {
    choose b from [1, 2] by p
    bid[p] = b
  }
  if bid[player(1)] != bid[player(2)] {
    let w = first q in players where bid[q] == 2
    points[w] += 1
    if points[w] == 2 { win w }
  }
  bid[player(1)] = none
  bid[player(2)] = none
}
"#;
    let g = game(TIES, 2);
    let r = explore(&g, &[], Budget::default());
    let lasso = r.findings.iter().find(|f| f.code == "V505").unwrap_or_else(|| panic!("{:?}", r.findings));
    let log = lasso.counterexample.as_ref().expect("a lasso");
    let from = log.loop_from.expect("where the loop starts");
    // The loop is one round: both players' decisions.
    assert_eq!(log.steps.len() - from, 2, "{log:?}");
    assert!(replay(&g, log).is_ok(), "the lasso replays and comes back to where it started");
}

#[test]
fn a_block_with_more_combinations_than_the_budget_stops_at_the_budget() {
    use grimoire_interpreter::validate::explore::{explore, Budget};
    // Eight players with a thousand options each, and the same state
    // whatever they choose: 10^24 combinations, all leading to one state
    // the explorer knows after the first round.
    const HUGE: &str = r#"rulebook huge { players 8..8 }
var bid per_player : int owner assume "x"
round turn assume "x" {
  simultaneous p in players {
    choose b from 1..1000 by p
  }
}
"#;
    let r = explore(&game(HUGE, 8), &[], Budget { max_states: 2_000, ..Budget::default() });
    assert_eq!(r.stopped_by.as_deref(), Some("a `simultaneous` step with more than 2,000 combinations of decisions from one state"));
    assert!(!r.exhausted);
}

#[test]
fn a_scenario_between_two_decisions_of_a_block_sees_the_state_from_before_it() {
    // After the reveal, the second round sees a highest bid of 3: both
    // players have that one option left, taken without asking, and the
    // game ends after it.
    use grimoire_interpreter::scenario::{run_all, Verdict};
    let text = format!(
        "{BIDS}{}",
        r#"scenario sealed players 2 seed 0 assume "x" {
  choose "3"
  expect bid[player(1)] == none
  expect decider == player(2)
  expect options == ["1", "2", "3"]
  choose "1"
  expect rounds == 2
  expect bid[player(1)] == 3 and bid[player(2)] == 3
}
"#
    );
    let sources = vec![Source { name: "t.rules".into(), text }];
    let model = compile(&sources).unwrap_or_else(|d| panic!("{d:#?}"));
    let results = run_all(&model, &sources, |_| true);
    assert_eq!(results.len(), 1);
    assert!(matches!(results[0].verdict, Verdict::Passed { .. }), "{:?}", results[0].verdict);
}

/// An end condition that reads the bids is not checked inside the block
/// (at the end of a phase its body runs), where it would see one player's
/// sealed bid and end the game before the others bid; it is checked after
/// the block, on every bid.
#[test]
fn no_end_condition_is_checked_inside_a_block() {
    let g = game(
        r#"rulebook sealed { players 2..2 }
var bid per_player : int = 0
phase record { pass }
round turn {
  simultaneous p in players {
    choose b from [1, 2, 3] by p
    bid[p] = b
    phase record
  }
}
end big when any q in players where bid[q] == 3 { win [q in players where bid[q] == 3] }
"#,
        2,
    );
    let (mut st, started) = g.begin(0);
    started.expect("setup");
    g.apply(&mut st, 2).expect("player 1 bids 3");
    assert!(!st.is_over(), "the game ended on player 1's sealed bid");
    assert_eq!(labels(&g, &st).0, 1, "player 2 bids next");
    g.apply(&mut st, 2).expect("player 2 bids 3 too");
    assert_eq!(st.outcome, Some(grimoire_interpreter::engine::Outcome::Shared(0b11)), "both bid 3");
}
