//! Engine limits a rulebook may raise in its header (`trigger_depth`,
//! `step_fuel`), and the findings that name the limit they hit.

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

/// A ladder of `rungs` spaces: arriving on a space moves the pawn to the
/// next one, so one move fires `rungs - 1` triggers, each from the last.
fn ladder(header: &str, rungs: u32) -> String {
    format!(
        r#"rulebook ladder {{ players 1..1 {header} }}
piece pawn 1 assume "x"
spacetype step assume "x"
track rungs linear assume "x" {{ 1..{rungs}: step }}
setup assume "x" {{ move pawn to space(rungs, 1) }}
trigger climb on arrive(k: pawn, s) when index(s) < {rungs} assume "x" {{ move k to space(rungs, index(s) + 1) }}
round turn assume "x" {{ win player(1) }}"#
    )
}

fn start(text: &str) -> Result<grimoire_interpreter::engine::State, grimoire_interpreter::engine::ExecError> {
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:#?}"));
    Game::new(Arc::new(model), 1, &[]).expect("one player").start(0)
}

#[test]
fn a_chain_of_70_triggers_needs_trigger_depth_and_the_finding_names_it() {
    let e = start(&ladder("", 72)).expect_err("70 nested triggers pass the default 64");
    assert_eq!(e.kind.code(), "R0003");
    assert!(e.message.contains("`trigger_depth`"), "{}", e.message);
    assert!(e.message.contains("raise `trigger_depth`"), "{}", e.message);
    let st = start(&ladder("trigger_depth 100", 72)).expect("a chain of 70 ends within 100");
    assert!(st.is_over());
    // At its highest the limit cannot be raised, and the finding says so.
    let e = start(&ladder("trigger_depth 255", 300)).expect_err("a chain of 298 passes 255");
    assert!(e.message.contains("at its highest") && !e.message.contains("raise `trigger_depth`"), "{}", e.message);
}

#[test]
fn step_fuel_bounds_a_loop_and_can_be_raised() {
    let text = |header: &str| {
        format!(
            r#"rulebook spin {{ players 1..1 {header} }}
counter n 0..1000000000 = 0
setup assume "x" {{ while n < 3000000 {{ n += 1 }} }}
round turn assume "x" {{ win player(1) }}"#
        )
    };
    let e = start(&text("step_fuel 1000000")).expect_err("3 million rounds of a loop pass a fuel of one million");
    assert_eq!(e.kind.code(), "R0002");
    assert!(e.message.contains("`step_fuel`"), "{}", e.message);
    assert!(start(&text("step_fuel 50000000")).is_ok_and(|st| st.is_over()));
}

#[test]
fn limits_out_of_range_are_header_errors() {
    for header in ["trigger_depth 0", "trigger_depth 300", "step_fuel 10", "step_fuel 99999999999"] {
        let errs = compile(&[Source { name: "t.rules".into(), text: ladder(header, 3) }]).expect_err(header);
        assert!(errs.iter().any(|d| d.code == "E0303"), "{header}: {errs:#?}");
    }
}

#[test]
fn a_round_that_does_nothing_runs_out_of_fuel_instead_of_spinning() {
    let text = |round: &str| format!("rulebook idle {{ players 1..1 step_fuel 5000 }}\nround turn assume \"x\" {round}\n");
    for round in ["{ }", "{ if false { end } }"] {
        let e = start(&text(round)).expect_err("a round that never decides nor ends");
        assert_eq!(e.kind.code(), "R0002", "{round}: {}", e.message);
        assert_eq!(e.rule.as_deref(), Some("turn"), "{round}");
    }
}

/// A game that goes round after round with no decision runs out of fuel
/// in whatever rule happens to be running: the finding says that the
/// rounds go on, and points at the round, not at that rule (an outside
/// tester's War without a cap was blamed on a different rule in each
/// game). A rule that loops inside one round is still that rule.
#[test]
fn rounds_without_a_decision_are_blamed_on_the_round() {
    let text = |round: &str| format!("rulebook idle {{ players 1..1 step_fuel 5000 }}\ncounter n 0..1000000 = 0\nrule work assume \"x\" {{ n += 1 }}\nround turn assume \"x\" {round}\n");
    let e = start(&text("{ do work\n do work }")).expect_err("rounds that never decide nor end");
    assert_eq!((e.kind.code(), e.rule.as_deref()), ("R0002", Some("turn")), "{}", e.message);
    assert!(e.message.contains("going from the setup to round") && e.message.contains("the rounds seem to go on without end"), "{}", e.message);
    let looping = text("{ do spin }").replace("round turn", "rule spin assume \"x\" { while true { n += 1 } }\nround turn");
    let inside = start(&looping).expect_err("a loop inside the first round");
    assert_eq!((inside.kind.code(), inside.rule.as_deref()), ("R0002", Some("spin")), "{}", inside.message);
    assert!(inside.message.contains("this rule seems to loop"), "{}", inside.message);
}

/// A rulebook whose round evaluates `expr` once, then ends the game.
fn evaluating(expr: &str) -> String {
    format!(
        r#"rulebook walk {{ players 1..1 }}
counter n 0..1000000000 = 0
round turn assume "x" {{
  n = {expr}
  win player(1)
}}"#
    )
}

#[test]
fn a_range_walks_at_most_100_000_items() {
    let st = start(&evaluating("count a in 1..100000 where a > 0")).expect("exactly 100,000 items is within the limit");
    assert!(st.is_over());
    let e = start(&evaluating("count a in 1..100001 where a > 0")).expect_err("100,001 items passes the limit");
    assert_eq!(e.kind.code(), "R0012");
    assert!(e.message.contains("1..100001"), "{}", e.message);
}

/// `x in a..b` tests the bounds and walks nothing: no limit on the range,
/// and the answers of a walk (an outside tester's `x in 1..100001` failed
/// as a range too long to walk).
#[test]
fn membership_in_a_range_walks_nothing() {
    for (expr, n) in [
        ("count x in [0, 1, 2, 3, 100001, 100002] where x in 1..100001", 4),
        ("count x in [5, 1, 0] where x in 5..1", 0),
        ("count x in [-3, 0, 3] where x in -3..-1", 1),
        ("count x in [1, 2] where x in 2..2", 1),
        ("count x in [1, 2] where x in 1..1000000000000", 2),
    ] {
        // The game is won when the count is the expected one, else drawn.
        let text = evaluating(expr).replace("  win player(1)", &format!("  if n == {n} {{ win player(1) }} else {{ draw }}"));
        let st = start(&text).unwrap_or_else(|e| panic!("{expr}: {}", e.message));
        assert_eq!(st.outcome, Some(grimoire_interpreter::engine::Outcome::Winner(0)), "{expr}");
    }
}

#[test]
fn fuel_that_runs_out_inside_a_walk_points_at_the_statement() {
    let text = evaluating("sum a in 1..100000 of sum b in 1..100000 of a % 2");
    let e = start(&text).expect_err("ten billion items pass the default fuel");
    assert_eq!(e.kind.code(), "R0002");
    let at = e.at.expect("the statement that ran out of fuel");
    let line = text[..at.span.start].lines().count();
    assert_eq!(line, 4, "the error should point at `n = sum ...` (line 4), not at {at:?}");
}

/// A rulebook whose setup does not end the game and that has no `round`
/// stops with R0010 at the setup that ran out (it had no place).
#[test]
fn no_round_after_a_setup_that_does_not_end_points_at_the_setup() {
    let text = "rulebook x { players 1..1 }\nsetup assume \"x\" { pass }\n";
    let e = start(text).expect_err("nothing ends the game");
    assert_eq!(e.kind.code(), "R0010");
    let at = e.at.expect("the setup");
    assert_eq!(&text[at.span.start..at.span.start + 5], "setup");
}

/// A game for one player, at a fuel of 1,000 steps: `decls`, then the
/// setup and the round's bodies.
fn one_player_with_fuel_1000(decls: &str, setup: &str, round: &str) -> Game {
    let text = format!("rulebook s {{ players 1..1 step_fuel 1000 }}\n{decls}\nsetup assume \"x\" {{ {setup} }}\nround turn assume \"x\" {{ {round} }}");
    let model = compile(&[Source { name: "t.rules".into(), text }]).unwrap_or_else(|d| panic!("{d:#?}"));
    Game::new(Arc::new(model), 1, &[]).expect("one player")
}

/// A setup that fails before any draw from the random generator fails the
/// same way whatever the seed (the game keeps that failure instead of
/// running out of fuel again for each game); one that fails after a roll
/// fails only for the seeds that roll that way.
#[test]
fn a_setup_fails_for_every_seed_only_when_no_chance_came_before() {
    let game = |setup: &str| one_player_with_fuel_1000("die d6 6 assume \"x\"", setup, "win player(1)");
    let always = game("while true { pass }");
    let (first, result) = always.begin(0);
    assert_eq!(result.map_err(|e| e.kind.code()), Err("R0002"));
    for seed in 1..20 {
        let (state, result) = always.begin(seed);
        assert_eq!(result.map_err(|e| e.kind.code()), Err("R0002"), "loops for every seed");
        assert_eq!((state.round, &state.fired, &state.counters), (first.round, &first.fired, &first.counters), "stopped where the first game stopped");
        let mut reused = first.clone();
        assert_eq!(always.restart(&mut reused, seed).map_err(|e| e.kind.code()), Err("R0002"));
    }
    let on_six = game("roll r = d6\n if r == 6 { while true { pass } }");
    let failed: Vec<u64> = (0..60).filter(|s| on_six.start(*s).is_err()).collect();
    assert!(!failed.is_empty() && failed.len() < 30, "about one seed in six fails: {failed:?}");
    for s in 0..60u64 {
        let mut st = on_six.begin(0).0;
        assert_eq!(on_six.restart(&mut st, s).is_err(), failed.contains(&s), "restart agrees with start (seed {s})");
    }
}

/// `simulate` counts every game that started: one whose rules fail after
/// its setup, even before its first decision, is played up to its failure
/// (it counts in the statistics); one that fails in its setup never
/// started.
#[test]
fn a_game_that_fails_before_its_first_decision_but_after_setup_was_played() {
    use grimoire_interpreter::log::quick_playout;
    let round = "roll r = coin\n if r == 2 and round_number == 2 { while true { pass } }\n if round_number == 3 { win player(1) }";
    let game = |setup: &str| one_player_with_fuel_1000("die coin 2 assume \"x\"", setup, round);
    let g = game("pass");
    let (mut failed, mut won) = (0, 0);
    for seed in 0..100 {
        let (st, error) = quick_playout(&g, seed, 100, true).expect("every game starts");
        match error {
            Some(e) => {
                assert_eq!((e.kind.code(), st.round), ("R0002", 2), "failed in round 2 (seed {seed})");
                failed += 1;
            }
            None => {
                assert!(st.is_over());
                won += 1;
            }
        }
    }
    assert!(failed > 20 && won > 20, "a coin decides: {failed} failed, {won} won");
    let in_setup = game("while true { pass }");
    let failed = quick_playout(&in_setup, 0, 100, true).expect_err("a setup that fails is no game");
    let (st, e) = *failed;
    assert_eq!((e.kind.code(), st.round), ("R0002", 0));
    // The setup ran, and failed: `simulate` counts it as fired, not as "never fired".
    let setup = in_setup.model.procs.iter().position(|p| p.name == "setup").expect("a setup");
    assert_eq!(st.fired[setup], 1);
}

/// `simulate` plays the games of a chunk in one state, reused: each game
/// gives what a fresh state gives (the same failure, round, outcome,
/// decisions, rules fired and position), whatever the game before it left
/// there, including a setup that failed (only its own rules count).
#[test]
fn a_reused_state_plays_what_a_fresh_one_plays() {
    use grimoire_interpreter::log::{quick_playout, quick_playout_in};
    let round = "roll r = coin\n if r == 2 and round_number == 2 { while true { pass } }\n if round_number == 3 { win player(1) }";
    // A setup that fails for about half the seeds (the coin, then a loop).
    let setup = "roll s = coin\n if s == 2 { while true { pass } }";
    let g = one_player_with_fuel_1000("die coin 2 assume \"x\"", setup, round);
    let mut reused = g.begin(1000).0;
    let (mut setup_failed, mut played) = (0, 0);
    for seed in 0..200 {
        let fresh = quick_playout(&g, seed, 100, true);
        let again = quick_playout_in(&g, &mut reused, seed, 100, true);
        match (fresh, again) {
            (Ok((st, error)), Ok(e2)) => {
                assert_eq!(error.map(|e| e.kind.code()), e2.map(|e| e.kind.code()), "seed {seed}");
                assert_eq!((st.round, st.outcome, st.decisions, &st.fired, st.fingerprint()), (reused.round, reused.outcome, reused.decisions, &reused.fired, reused.fingerprint()), "seed {seed}");
                played += 1;
            }
            (Err(failed), Err(e2)) => {
                let (st, e) = *failed;
                assert_eq!((e.kind.code(), st.round, &st.fired), (e2.kind.code(), reused.round, &reused.fired), "seed {seed}");
                setup_failed += 1;
            }
            (a, b) => panic!("seed {seed}: a fresh state {} and a reused one {}", if a.is_ok() { "started" } else { "failed in setup" }, if b.is_ok() { "started" } else { "failed in setup" }),
        }
    }
    assert!(setup_failed > 40 && played > 40, "the coin decides: {setup_failed} setups failed, {played} games played");
}

/// A decision with more options than the limit is an error at its
/// `choose`, not memory without end; one at the limit is offered whole.
#[test]
fn a_decision_has_at_most_a_million_options() {
    let text = |n: u32| format!("rulebook wide {{ players 1..1 }}\nround turn assume \"x\" {{\n  choose a from 1..{n}, b from 1..1000 by player(1)\n  win player(1)\n}}\n");
    let e = start(&text(1001)).expect_err("1,001,000 options");
    assert_eq!(e.kind.code(), "R0012");
    assert!(e.message.contains("more than 1000000 options"), "{}", e.message);
    assert_eq!(e.at.map(|l| l.span.start), text(1001).find("choose"), "at the choose");
    let st = start(&text(1000)).expect("1,000,000 options fit");
    let model = compile(&[Source { name: "t.rules".into(), text: text(1000) }]).expect("compiles");
    let g = Game::new(Arc::new(model), 1, &[]).expect("one player");
    assert_eq!(g.choices(&st).map(|(_, o)| o.len()), Some(1_000_000));
}

/// Moving, shuffling or revealing many pieces costs a step per piece: a
/// loop of them runs out of fuel after as many pieces as a loop of single
/// steps would take, not after millions of them.
#[test]
fn each_piece_moved_or_shuffled_costs_a_step() {
    let text = |body: &str| format!("rulebook bulk {{ players 1..1 step_fuel 100000 }}\npiece k 1000 assume \"x\"\nzone a of k assume \"x\"\nzone b of k assume \"x\"\nsetup assume \"x\" {{ move all of box to a }}\nround turn assume \"x\" {{\n  {body}\n  win player(1)\n}}\n");
    for body in ["repeat 200 { move all of a to b\n move all of b to a }", "repeat 200 { shuffle a }", "repeat 200 { move 1000 of k from a to b\n move all of b to a }"] {
        let e = start(&text(body)).expect_err("200 x 1,000 pieces pass 100,000 steps");
        assert_eq!(e.kind.code(), "R0002", "{body}: {}", e.message);
        let few = body.replace("200", "20");
        assert!(start(&text(&few)).is_ok_and(|st| st.is_over()), "{few}: 20 x 1,000 pieces fit");
    }
}

/// A rule may have 128 exceptions; the 129th is refused when the rulebook
/// is checked (E0306, at that exception), not in every game that calls the
/// rule, which all failed while `check` said the rulebook was valid.
#[test]
fn a_rule_with_more_than_128_exceptions_is_refused_at_the_129th() {
    let text = |n: usize| {
        let exceptions: String = (1..=n).map(|i| format!("exception e{i} to turn when true after assume \"x\" {{ pass }}\n")).collect();
        format!("rulebook many {{ players 1..1 }}\n{exceptions}round turn assume \"x\" {{ win player(1) }}\n")
    };
    let source = |n: usize| vec![Source { name: "t.rules".into(), text: text(n) }];
    assert!(compile(&source(128)).is_ok());
    let diags = compile(&source(129)).expect_err("129 exceptions");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code, "E0306");
    assert!(diags[0].message.contains("`turn` has 129 exceptions; a rule may have at most 128"), "{}", diags[0].message);
    let line = text(129).lines().position(|l| l.starts_with("exception e129 ")).expect("the 129th");
    let start = text(129).lines().take(line).map(|l| l.len() + 1).sum::<usize>();
    assert!(diags[0].at.span.start > start && diags[0].at.span.start < start + 20, "{:?}", diags[0].at);
}
