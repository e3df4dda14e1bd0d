//! What docs/language.md promises, one small rulebook per promise: the order
//! triggers and exceptions run in, decks, the front of a space, `actor`,
//! arithmetic, and the run-time errors the engine must report instead of
//! going on (or panicking).
//!
//! The last section holds the cases where the engine or the grammar
//! disagreed with the documentation or panicked when this suite was written
//! (fixed since): each says what the fix must keep true.

use grimoire_interpreter::engine::{ExecError, Game, Outcome, State};
use grimoire_interpreter::{compile, Diagnostic, Model, Source};
use std::sync::Arc;

fn compiled(text: &str) -> Result<Model, Vec<Diagnostic>> {
    compile(&[Source { name: "t.rules".into(), text: text.into() }])
}

/// Compile and run a rulebook whose setup and rounds need no decision.
fn run(text: &str, players: u8) -> (Game, Result<State, ExecError>) {
    let model = compiled(text).unwrap_or_else(|d| panic!("{d:#?}"));
    let game = Game::new(Arc::new(model), players, &[]).expect("valid player count");
    let st = game.start(1);
    (game, st)
}

/// The value of a public counter or var, as `observe` shows it.
fn value(game: &Game, st: &State, name: &str) -> String {
    let prefix = format!("{name} = ");
    game.observe(st, 0).values.iter().find_map(|v| v.strip_prefix(prefix.as_str()).map(str::to_owned)).unwrap_or_else(|| panic!("no value {name}"))
}

fn finished(text: &str, players: u8) -> (Game, State) {
    let (game, st) = run(text, players);
    let st = st.unwrap_or_else(|e| panic!("{}: {}", e.kind.code(), e.message));
    assert!(st.is_over());
    (game, st)
}

fn error_code(text: &str, players: u8) -> &'static str {
    match run(text, players).1 {
        Ok(st) => panic!("expected a rule error, the game ended with {:?}", st.outcome),
        Err(e) => e.kind.code(),
    }
}

#[test]
fn triggers_on_one_arrival_run_in_declaration_order() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
piece p 1 assume "x"
counter x 0..100 = 0
zone a of p
zone b of p
setup { move p to a  move p to b }
trigger t1 on arrive(k: p, s) when s == b { x = x * 10 + 1 }
trigger t2 on arrive(k: p, s) when s == b { x = x * 10 + 2 }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "x"), "12");
}

#[test]
fn moving_a_piece_to_its_own_zone_fires_the_triggers_again() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
piece p 1 assume "x"
counter x 0..100 = 0
zone a of p
setup { move p to a  move p to a }
trigger t on arrive(k: p, s) when s == a { x += 1 }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "x"), "2");
}

#[test]
fn the_top_of_a_deck_is_the_last_piece_put_in_and_bottom_goes_under() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
token c 3 assume "x" { c1 c2 c3 }
zone deck of c ordered
zone out of c
var t : piece
var u : piece
setup {
  move first x in pieces(c) where is(x, c1) to deck
  move first x in pieces(c) where is(x, c2) to deck
  move first x in pieces(c) where is(x, c3) to deck bottom
  t = top(deck)
  move top of deck to out
  u = top(deck)
}
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "t"), "c2");
    assert_eq!(value(&g, &st, "u"), "c1");
}

#[test]
fn the_first_piece_to_arrive_on_a_space_is_in_front() {
    let (g, st) = finished(
        r#"rulebook a { players 3..3 }
piece k per_player 1 assume "x"
spacetype s
track t { 1..5: s }
var l : piece
var r : piece
setup {
  move k[player(1)] to space(t, 2)
  move k[player(3)] to space(t, 4)
  move k[player(2)] to space(t, 4)
  l = leader(t, k)
  r = rearmost(t, k)
}
round turn { draw }"#,
        3,
    );
    assert_eq!(value(&g, &st, "l"), "k of player 3");
    assert_eq!(value(&g, &st, "r"), "k of player 1");
}

/// `leader` and `rearmost` are found the same way whether the track has
/// more spaces than the kind has pieces (the pieces are looked at) or not
/// (the spaces are walked): the furthest space and its earliest arrival,
/// the nearest and its latest; pieces off the track do not count.
#[test]
fn leader_and_rearmost_on_long_and_short_tracks() {
    for (spaces, moves, leader, rearmost) in [
        (5, "move k[player(1)] to space(t, 2)  move k[player(2)] to space(t, 2)  move k[player(3)] to space(t, 4)", 3, 2),
        (2, "move k[player(1)] to space(t, 1)  move k[player(2)] to space(t, 1)  move k[player(3)] to space(t, 2)", 3, 2),
        (5, "move k[player(1)] to space(t, 3)  move k[player(2)] to space(t, 3)", 1, 2),
        (2, "move k[player(2)] to space(t, 2)  move k[player(1)] to space(t, 2)", 2, 1),
    ] {
        let text = format!(
            "rulebook a {{ players 3..3 }}\npiece k per_player 1\nspacetype s\ntrack t {{ 1..{spaces}: s }}\nvar l : piece\nvar r : piece
setup {{
  {moves}
  l = leader(t, k)
  r = rearmost(t, k)
}}
round turn {{ draw }}"
        );
        let (g, st) = finished(&text, 3);
        assert_eq!(value(&g, &st, "l"), format!("k of player {leader}"), "{spaces} spaces: {moves}");
        assert_eq!(value(&g, &st, "r"), format!("k of player {rearmost}"), "{spaces} spaces: {moves}");
    }
}

#[test]
fn before_and_after_exceptions_compose_in_declaration_order() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
counter x 0..99999 = 0
rule r() { x = x * 10 + 1 }
exception b to r when true before { x = x * 10 + 2 }
exception c to r when true after { x = x * 10 + 3 }
exception d to r when true before { x = x * 10 + 4 }
exception e to r when false before { x = x * 10 + 5 }
setup { do r() }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "x"), "2413");
}

#[test]
fn proceed_runs_the_rule_as_written_with_the_same_arguments() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
counter x 0..100 = 0
rule r(n: int) { x += n }
exception e to r when n < 5 { x += 10  proceed }
setup { do r(1)  do r(7) }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "x"), (10 + 1 + 7).to_string());
}

#[test]
fn two_replacing_exceptions_that_both_hold_are_a_conflict() {
    let conflict = r#"rulebook a { players 2..2 }
counter x 0..9 = 0
rule r() { x = 1 }
exception b to r when true { x = 2 }
exception c to r when true { x = 3 }
setup { do r() }
round turn { draw }"#;
    assert_eq!(error_code(conflict, 2), "R0009");
    // `over` settles it.
    let settled = conflict.replace("exception c to r when true", "exception c to r when true over b");
    let (g, st) = finished(&settled, 2);
    assert_eq!(value(&g, &st, "x"), "3");
}

#[test]
fn as_sets_the_actor_only_inside_its_block() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
piece p per_player 1 assume "x"
zone z of p
zone y of p
var inside : player
var outside : player
setup { as player(2) { move p[player(1)] to z }  move p[player(2)] to y }
trigger t on arrive(k: p, s) when s == z { inside = actor }
trigger u on arrive(k: p, s) when s == y { outside = actor }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "inside"), "player 2");
    assert_eq!(value(&g, &st, "outside"), "none");
}

#[test]
fn an_end_condition_is_checked_as_soon_as_it_holds() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
counter x 0..100 = 0
setup { pass }
round turn { x += 1 }
end enough when x >= 4 { win player(2) }"#,
        2,
    );
    assert_eq!(value(&g, &st, "x"), "4");
    assert_eq!(st.outcome, Some(Outcome::Winner(1)));
}

/// Of two end conditions that hold at one check, the first declared runs;
/// a module's come after its base's; and
/// the game ends at the move that makes one hold, before the `if` after
/// that move (docs/language.md, "Flow").
#[test]
fn the_first_declared_end_condition_that_holds_runs_at_the_move() {
    let base = r#"rulebook b { players 2..2 }
piece s 3
zone pile of s
counter later 0..9 = 0
setup { pass }
round turn {
  move 1 of s from box to pile
  later = 1
  if count(pile) >= 1 { win player(2) }
}
end won when count(pile) >= 1 { win player(1) }
"#;
    let module = "module m extends \"b.rules\" { }\nend second when count(pile) >= 1 { draw }\n";
    let sources = [Source { name: "b.rules".into(), text: base.into() }, Source { name: "m.rules".into(), text: module.into() }];
    let game = Game::new(Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{d:#?}"))), 2, &[]).expect("two players");
    let st = game.start(1).expect("plays to the end");
    assert_eq!(st.outcome, Some(Outcome::Winner(0)));
    assert_eq!(value(&game, &st, "later"), "0");
    // Declared the other way round, the other one runs.
    let swapped = base.replace("end won when count(pile) >= 1 { win player(1) }", "end drawn when count(pile) >= 1 { draw }\nend won when count(pile) >= 1 { win player(1) }");
    assert_eq!(finished(&swapped, 2).1.outcome, Some(Outcome::Draw));
}

/// An end condition found not to hold after a move is not checked again
/// at the end of the round when nothing it reads has changed since; so
/// every change must count: a counter or var set after the move (by the
/// round, or by a trigger of the move, which runs after the check), or
/// another actor (the end of the round acts for nobody). Each rulebook
/// here ends at the end of its first round, one piece moved; were the
/// change missed, the game would go on to a second round and move.
#[test]
fn an_end_condition_is_checked_again_after_anything_it_reads_changes() {
    let (plain, as_first) = ("move 1 of s from box to pile", "as player(1) { move 1 of s from box to pile }");
    for (trigger, mover, after_move, when) in [
        ("", plain, "x += 1", "x >= 1"),
        ("", plain, "v = 1", "v == 1"),
        ("", as_first, "pass", "actor == none and count(pile) >= 1"),
        ("trigger bump on arrive(k: s, z) { x += 1 }", plain, "pass", "x >= 1"),
    ] {
        let text = format!(
            "rulebook a {{ players 2..2 }}\npiece s 9\nzone pile of s\ncounter x 0..100 = 0\nvar v : int = 0\n{trigger}
setup {{ pass }}
round turn {{
  {mover}
  {after_move}
}}
end e when {when} {{ win player(2) }}"
        );
        let (_, st) = finished(&text, 2);
        assert_eq!((st.outcome, st.round), (Some(Outcome::Winner(1)), 1), "{trigger} {after_move} / {when}");
    }
}

/// A move into a zone that no end condition reads does not make them be
/// checked again (so a condition is not re-tested after every move of a
/// long turn), but a move into one they read does, however the condition
/// names the zone: by name, through a local, a function's parameter,
/// `zone_of`, `pos` or `top`. Each game moves a piece to `other` (checked,
/// nothing holds), then one to `pile`: the game must end at that move,
/// before `later` is set.
#[test]
fn an_end_condition_sees_a_move_into_a_zone_it_reads_however_it_names_it() {
    let (pile, square) = ("pile", "space(t, 2)");
    for (target, when) in [
        (pile, "count(pile) >= 1"),
        (pile, "any z in [pile, pile] where count(z) >= 1"),
        (pile, "full(pile)"),
        (pile, "any k in pieces(s) where zone_of(k) == pile"),
        (pile, "top(pile) != none"),
        (pile, "any k in pile where true"),
        (square, "count(space(t, 2)) >= 1"),
        (pile, "any k in pieces(s) where zone_of(k) == goal"),
        (square, "any k in pieces(s) where pos(k) == 2"),
    ] {
        let text = format!(
            "rulebook a {{ players 2..2 }}\npiece s 9\nzone pile of s\nzone other of s\ncounter later 0..9 = 0\nvar goal : zone = pile
spacetype plain
track t linear {{ 1..3: plain }}
fn full(z: zone) = count(z) >= 1
setup {{ pass }}
round turn {{
  move 1 of s from box to other
  move 1 of s from box to {target}
  later = 1
}}
end e when {when} {{ win player(2) }}"
        );
        let (g, st) = finished(&text, 2);
        assert_eq!((st.outcome, value(&g, &st, "later").as_str()), (Some(Outcome::Winner(1)), "0"), "{when}");
    }
}

/// The same check repeated after moves that cannot change its answer costs
/// no steps: an end condition that walks 500 numbers, tested after each of
/// 100 moves between zones it does not read, would take 50,000 steps, far
/// over this rulebook's 5,000.
#[test]
fn an_end_condition_is_not_tested_again_after_moves_it_cannot_see() {
    let text = "rulebook a { players 2..2 step_fuel 5000 }
piece s 2
zone here of s
zone there of s
counter x 0..100 = 0
setup { move all of box to here }
round turn {
  for i in 1..50 {
    move all of here to there
    move all of there to here
  }
  x += 1
}
end e when any i in 1..500 where x == i + 1 { win player(1) }";
    let (_, st) = finished(text, 2);
    assert_eq!(st.outcome, Some(Outcome::Winner(0)));
}

/// `move N of KIND from Z` looks through each piece of `Z` once: player
/// 1's 600 stones lie under player 2's in the box, and each of player 1's
/// was looked for from the top, past player 2's 600 (360,000 steps, and a
/// setup of 3,500 stones each ran out of the default fuel: an outside
/// tester's). Looked through once, the setup fits in 5,000 steps. (Which
/// pieces are taken, the top-most of the kind each time, is checked
/// against the previous engine by `engine_equivalence.rs`.)
#[test]
fn move_n_of_a_kind_looks_through_each_piece_once() {
    let text = "rulebook a { players 2..2 step_fuel 5000 }
piece stone per_player 600
zone bowl per_player of stone
setup { for p in players { move 600 of stone from box to bowl[p] } }
round turn { draw }";
    let (_, st) = finished(text, 2);
    assert_eq!(st.outcome, Some(Outcome::Draw));
}

#[test]
fn no_end_condition_is_checked_before_setup_is_done() {
    // Kalah's "the game ends when a side is empty" holds while setup fills
    // the pits one side after the other: the game must start all the same
    // (it failed with R0013), and end when the condition holds in play.
    let text = r#"rulebook a { players 2..2 }
token seed 4 assume "x"
zone side per_player of seed
zone store of seed
counter checks 0..100 = 0
setup { move 2 of seed from box to side[player(1)]  move 2 of seed from box to side[player(2)] }
round turn { for p in players { move top of side[p] to store } }
end empty_side when count(side[player(1)]) == 0 or count(side[player(2)]) == 0 { win player(1) }"#;
    let (_, st) = finished(text, 2);
    assert_eq!(st.outcome, Some(Outcome::Winner(0)));
    assert_eq!(st.round, 2, "the side of player 1 is empty after the second round's first move");
    // A condition that still holds when setup is done is the error.
    assert_eq!(error_code(&text.replace("move 2 of seed from box to side[player(2)]", "pass"), 2), "R0013");
}

#[test]
fn players_directions_and_shared_victory() {
    let (g, st) = finished(
        r#"rulebook a { players 3..3 }
var a : player
var b : player
setup { a = next_player(player(1), clockwise)  b = next_player(player(1), counterclockwise) }
round turn { win [p in players where p != player(2)] }"#,
        3,
    );
    assert_eq!(value(&g, &st, "a"), "player 2");
    assert_eq!(value(&g, &st, "b"), "player 3");
    assert_eq!(st.outcome.map(|o| o.winners().collect::<Vec<_>>()), Some(vec![0, 2]));
}

#[test]
fn floor_division_and_remainder_by_a_positive_number() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
counter q -10..10 = 0
counter r -10..10 = 0
counter s -10..10 = 0
setup { q = (0 - 7) / 2  r = (0 - 7) % 2  s = 7 / 2 }
round turn { draw }"#,
        2,
    );
    assert_eq!((value(&g, &st, "q"), value(&g, &st, "r"), value(&g, &st, "s")), ("-4".into(), "1".into(), "3".into()));
}

#[test]
fn run_time_errors_are_reported_not_ignored() {
    let game = |setup: &str| format!("rulebook a {{ players 2..2 }}\ntoken c 3 assume \"x\"\nzone z of c capacity 2\ncounter x 0..3 = 0\nsetup {{ {setup} }}\nround turn {{ draw }}");
    assert_eq!(error_code(&game("x += 5"), 2), "R0004", "leaving a counter's bounds");
    assert_eq!(error_code(&game("x = 1 / (x - x)"), 2), "R0012", "division by zero");
    assert_eq!(error_code(&game("move 3 of c from box to z"), 2), "R0006", "a zone over its capacity");
    assert_eq!(error_code(&game("move top of z to box"), 2), "R0005", "taking from an empty zone");
    assert_eq!(error_code(&game("choose q from [p in players where false] by player(1)"), 2), "R0001", "a choice with no option");
    // The counter and capacity checks are not always on: within the bounds, nothing fails.
    let (_, ok) = run(&game("x += 3  move 2 of c from box to z"), 2);
    assert!(ok.is_ok());
}

/// How often each named procedure fired in a finished game.
fn fired(game: &Game, st: &State, names: &[&str]) -> Vec<u32> {
    names.iter().map(|n| game.model.proc_named(n).map_or(u32::MAX, |p| st.fired[p.idx()])).collect()
}

/// A rule that ends the game ends it: what was to run after it (an `after`
/// exception) or instead of what a `before` exception came first to (the
/// rule's own body) never runs, and is not counted as fired, so that
/// `simulate` and `validate` (V203) say so. They had been counted when
/// pushed, and an `after` that never ran read as fired in every game.
#[test]
fn rules_the_end_of_the_game_cut_off_are_not_counted_as_fired() {
    let (g, st) = finished("rulebook t { players 2..2 }\ncounter applause 0..9 = 0\nrule declare(p: player) { win p }\nexception cheer to declare when true after { applause += 1 }\nround turn { do declare(player(1)) }\n", 2);
    assert_eq!(value(&g, &st, "applause"), "0");
    assert_eq!(fired(&g, &st, &["declare", "cheer"]), [1, 0]);
    let (g, st) = finished("rulebook t { players 2..2 }\nrule kickoff(p: player) { draw }\nexception early to kickoff when true before { win p }\nround turn { do kickoff(player(2)) }\n", 2);
    assert_eq!(st.outcome, Some(Outcome::Winner(1)));
    assert_eq!(fired(&g, &st, &["kickoff", "early"]), [0, 1]);
}

// ---------------------------------------------------------------------------
// Former disagreements with the documentation, and panics (see the module
// comment): an error or the documented value, never a panic or a silent
// change of what the rulebook says.

#[test]
fn floor_division_by_a_negative_number() {
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
counter q -10..10 = 0
setup { q = 7 / (0 - 2) }
round turn { draw }"#,
        2,
    );
    assert_eq!(value(&g, &st, "q"), "-4");
}

#[test]
fn dividing_the_smallest_int_by_minus_one_does_not_panic() {
    for op in ["/", "%"] {
        let text = format!("rulebook a {{ players 2..2 }}\nsetup {{ let y = 0 - 9223372036854775807 - 1  let z = y {op} (0 - 1) }}\nround turn {{ draw }}");
        let _ = run(&text, 2); // an error or a saturated value, not a panic
    }
}

#[test]
fn extreme_ints_in_board_functions_do_not_panic() {
    let _ = run("rulebook a { players 2..2 }\nspacetype s\ntrack t circular { 1..4: s }\nvar z : space\nsetup { z = space(t, 0 - 9223372036854775807 - 1) }\nround turn { draw }", 2);
    let _ = run("rulebook a { players 2..2 }\ngrid g 3 x 3\ncounter n 0..100 = 0\nsetup { n = count x in line(cell(g, 1, 1), 9223372036854775807, 9223372036854775807) where true }\nround turn { draw }", 2);
}

#[test]
fn a_counter_cannot_start_outside_its_bounds() {
    let text = "rulebook a { players 2..2 }\ncounter x 0..10 = 50\nsetup { pass }\nround turn { draw }";
    if let Ok(model) = compiled(text) {
        let game = Game::new(Arc::new(model), 2, &[]).expect("valid");
        let st = game.start(0);
        assert!(st.as_ref().is_err_and(|e| e.kind.code() == "R0004"), "x starts at {:?}", st.map(|s| value(&game, &s, "x")));
    }
}

#[test]
fn a_die_needs_at_least_one_side() {
    let diags = compiled("rulebook a { players 2..2 }\ndie d 0\nsetup { roll r = d }\nround turn { draw }").expect_err("a die of 0 sides");
    assert!(diags.iter().any(|d| d.message.contains("`d`")), "{diags:#?}");
}

#[test]
fn a_module_removes_a_trigger_as_documented() {
    let base = r#"rulebook a { players 2..2 }
piece p 1 assume "x"
zone z of p
counter n 0..9 = 0
setup { move p to z }
trigger t on arrive(k: p, s) { n += 1 }
round turn { if n == 1 { win player(1) } else { win player(2) } }"#;
    let module = "module m extends \"a.rules\" { title \"no trigger\" }\nremove trigger t";
    let sources = [Source { name: "a.rules".into(), text: base.into() }, Source { name: "m.rules".into(), text: module.into() }];
    let model = compile(&sources).unwrap_or_else(|d| panic!("{d:#?}"));
    let st = Game::new(Arc::new(model), 2, &[]).expect("valid").start(0).expect("runs");
    assert_eq!(st.outcome, Some(Outcome::Winner(1)), "without the trigger n stays 0");
}

#[test]
fn remove_checks_what_it_removes() {
    let base = "rulebook a { players 2..2 }\npiece p 1 assume \"x\"\nzone z of p\nsetup { move p to z }\ntrigger t on arrive(k: p, s) { pass }\nround turn { draw }";
    let module = "module m extends \"a.rules\" { title \"x\" }\nremove banana t";
    let sources = [Source { name: "a.rules".into(), text: base.into() }, Source { name: "m.rules".into(), text: module.into() }];
    assert!(compile(&sources).is_err(), "`banana` is not a sort of declaration");
}

#[test]
fn a_count_beyond_the_limit_is_reported() {
    let text = "rulebook a { players 2..2 }\ntoken c 5000 assume \"x\"\nsetup { pass }\nround turn { draw }";
    match compiled(text) {
        Err(diags) => assert!(diags.iter().any(|d| d.message.contains("5000")), "{diags:#?}"),
        Ok(model) => assert_eq!(Game::new(Arc::new(model), 2, &[]).expect("valid").instance_count(), 5000, "5000 tokens are declared"),
    }
}

#[test]
fn too_many_instances_are_reported_not_a_panic() {
    let kinds: String = (0..17).map(|i| format!("token c{i} 4000 assume \"x\"\n")).collect();
    let text = format!("rulebook a {{ players 2..2 }}\n{kinds}setup {{ pass }}\nround turn {{ draw }}");
    // A diagnostic, a setup error, or every instance: not a panic, not fewer.
    if let Ok(model) = compiled(&text) {
        if let Ok(game) = Game::new(Arc::new(model), 2, &[]) {
            assert_eq!(game.instance_count(), 17 * 4000);
            let st = game.start(0).expect("nothing to run");
            assert_eq!(st.kind_counts(&game), vec![4000; 17]);
        }
    }
}

#[test]
fn a_byte_order_mark_at_the_start_is_whitespace() {
    // Some Windows editors start UTF-8 files with U+FEFF.
    let text = "\u{feff}rulebook bom { players 2..2 }\nsetup { win player(1) }";
    assert!(compile(&[Source { name: "bom.rules".into(), text: text.into() }]).is_ok());
}

#[test]
fn an_end_conditions_body_runs_once_though_it_moves_pieces() {
    // The body turns the swords over one by one; each move would check the
    // end conditions again, and the condition still holds: the body must
    // not start over in the middle of itself (it did, before).
    let (g, st) = finished(
        r#"rulebook a { players 2..2 }
token sword 3 assume "x"
zone laid of sword
zone turned of sword
counter runs 0..10 = 0
counter rounds_played 0..10 = 0
setup { move 3 of sword from box to laid }
round turn { rounds_played += 1 }
end swords when rounds_played == 2 {
  runs += 1
  move all of laid to turned
  draw
}"#,
        2,
    );
    assert_eq!(value(&g, &st, "runs"), "1");
    assert_eq!(st.outcome, Some(Outcome::Draw));
}

/// `move all of` and `move N of` move each piece "as a `move` does": the
/// triggers of one arrival, and an end condition it makes hold, run before
/// the next piece moves, as in a `for` loop of `move`s (they ran once every
/// piece had moved).
#[test]
fn move_all_and_move_n_of_run_each_arrivals_triggers_before_the_next_piece() {
    let game = |moves: &str| {
        format!(
            "rulebook m {{ players 1..1 }}\npiece stone 3\nzone pool of stone\nzone target of stone\ncounter seen 0..999 = 0\n\
             setup {{ move 3 of stone from box to pool }}\n\
             trigger t on arrive(s: stone, z) when z == target {{ seen = seen * 10 + count(target) }}\n\
             round turn {{ {moves}\n win player(1) }}"
        )
    };
    for moves in ["move all of pool to target", "move 3 of stone from pool to target", "for s in pool { move s to target }"] {
        let (g, st) = finished(&game(moves), 1);
        assert_eq!(value(&g, &st, "seen"), "123", "{moves}: each trigger sees the pieces moved so far");
    }
    // An end condition that one arrival makes hold ends the game there.
    let ends = |moves: &str| {
        format!(
            "rulebook m {{ players 1..1 }}\npiece stone 3\nzone pool of stone\nzone target of stone\ncounter at_end 0..9 = 0\n\
             setup {{ move 3 of stone from box to pool }}\n\
             end two when count(target) == 2 {{ at_end = count(target)\n win player(1) }}\n\
             round turn {{ {moves}\n draw }}"
        )
    };
    for moves in ["move all of pool to target", "move 3 of stone from pool to target"] {
        let (g, st) = finished(&ends(moves), 1);
        assert_eq!((value(&g, &st, "at_end"), st.outcome), ("2".to_string(), Some(Outcome::Winner(0))), "{moves}");
    }
}

/// `move N of` takes a number of pieces: a negative one is an error
/// (R0012), not a move of nothing.
#[test]
fn move_a_negative_number_of_pieces_is_an_error() {
    let text = "rulebook n { players 1..1 }\npiece gem 3\nzone src of gem\nzone dst of gem\ncounter k 0..9 = 1\nsetup { move 3 of gem from box to src\n move k - 3 of gem from src to dst }\nround turn { win player(1) }\n";
    assert_eq!(error_code(text, 1), "R0012");
    assert!(run(&text.replace("k - 3", "k - 1"), 1).1.is_ok(), "0 pieces is no error");
}

/// `line` from `none` is empty, as docs/language.md says, and `step` from
/// `none` leads nowhere (`none`), as a step off the grid chained with
/// another does: both were a rule error (R0008) when the cell was a local
/// holding `none`. `in_a_row` through `none` stays an error: there is no
/// cell to count from.
#[test]
fn line_and_step_from_none_lead_nowhere() {
    let text = "rulebook l { players 1..1 }\ngrid g 3 x 3\nvar sp : space\ncounter n 0..9 = 5\ncounter off 0..1 = 0\n\
                setup { n = count x in line(sp, 1, 1) where true\n if step(sp, 1, 0) == none { off = 1 } }\nround turn { win player(1) }\n";
    let (g, st) = finished(text, 1);
    assert_eq!((value(&g, &st, "n"), value(&g, &st, "off")), ("0".to_string(), "1".to_string()));
    let chained = text.replace("step(sp, 1, 0)", "step(step(cell(g, 3, 3), 1, 0), 1, 0)");
    let (g, st) = finished(&chained, 1);
    assert_eq!(value(&g, &st, "off"), "1");
    let row = text.replace("if step(sp, 1, 0) == none { off = 1 }", "n = in_a_row x through sp where count(x) == 0");
    assert_eq!(error_code(&row, 1), "R0008");
}

/// Diagnostics come in the order of the text, whichever pass found them:
/// the duplicate (found while declaring) after the unknown name above it
/// (found while defining). They came pass by pass.
#[test]
fn diagnostics_are_reported_in_the_order_of_the_text() {
    let text = "rulebook o { players 2..2 }\ncounter a 0..9 = 0\nround turn { b += 1\n win player(1) }\ncounter a 0..9 = 0\n";
    let diags = compiled(text).expect_err("two errors");
    let found: Vec<(&str, usize)> = diags.iter().map(|d| (d.code, d.at.span.start)).collect();
    assert_eq!(found.iter().map(|(c, _)| *c).collect::<Vec<_>>(), ["E0101", "E0102"], "{diags:#?}");
    assert!(found.windows(2).all(|w| w[0].1 <= w[1].1), "{found:?}");
}

/// `owner(top(z))` compared with a local, and `z == none`, read in place
/// (engine/compile): the same answers and errors as the closures they
/// replace. An empty zone has no top piece to ask the owner of (R0008); a
/// piece of nobody has the owner `none`.
#[test]
fn the_owner_of_the_top_piece_and_a_local_compared_with_none() {
    let game = |setup: &str| {
        format!(
            "rulebook o {{ players 2..2 }}\npiece pawn per_player 1\ntoken stone 1\nzone a of pawn, stone\ncounter seen 0..9 = 0\n\
             setup {{ {setup} }}\nround turn {{ let z = a\n let q = player(2)\n let nobody = owner(stone)\n\
             if z == none {{ seen = 9 }}\n if owner(top(z)) == q {{ seen += 1 }}\n if owner(top(z)) == nobody {{ seen += 2 }}\n draw }}"
        )
    };
    let (g, st) = finished(&game("move pawn[player(2)] to a"), 2);
    assert_eq!(value(&g, &st, "seen"), "1");
    let (g, st) = finished(&game("move stone to a"), 2);
    assert_eq!(value(&g, &st, "seen"), "2", "a stone is nobody's");
    assert_eq!(error_code(&game("pass"), 2), "R0008", "an empty zone has no top piece");
}

/// `for x in C where P` walks the items of `C` for which `P` held when the
/// loop began, as `for x in [x in C where P]` does: what the body changes
/// (here the counter `P` reads) does not stop the walk.
#[test]
fn a_for_with_where_walks_the_items_filtered_when_it_began() {
    let text = |head: &str| {
        format!(
            r#"rulebook a {{ players 2..2 }}
piece stone 6 assume "x"
zone pile of stone
zone other of stone
counter moved 0..10 = 0
setup {{
  move 6 of stone from box to pile
  move top of pile to other
  {head} {{ move s to other  moved += 1 }}
}}
round turn {{ draw }}"#
        )
    };
    for head in ["for s in pieces(stone) where zone_of(s) == pile and moved < 3", "for s in [s in pieces(stone) where zone_of(s) == pile and moved < 3]"] {
        let (g, st) = finished(&text(head), 2);
        assert_eq!(value(&g, &st, "moved"), "5", "{head}");
    }
}

#[test]
fn a_ply_is_a_choose_by_a_player_with_an_option_forced_or_not() {
    // Each round: player 1 takes the only option (a forced ply, no
    // decision), player 2 has none and runs the `else` (no ply at all).
    // Three rounds, then the game ends: 3 plies, 0 decisions.
    let text = r#"rulebook a { players 2..2 }
counter n 0..10 = 0
round turn {
  choose x from [1] by player(1)
  choose y from [1, 2] where y > 5 by player(2) else { n += 1 }
  if n == 3 { draw }
}"#;
    let (game, st) = finished(text, 2);
    assert_eq!(value(&game, &st, "n"), "3");
    assert_eq!((st.plies, st.decisions), (3, 0));
}

#[test]
fn a_string_reads_its_escapes_as_the_reference_says() {
    // `\"` a quote, `\\` a backslash, `\n` a line end, `\b` (any other) `b`.
    let model = compiled("rulebook a { title \"say \\\"hi\\\" \\\\ x\\ny\\b\" players 2..2 }\nround turn { draw }").unwrap_or_else(|d| panic!("{d:#?}"));
    assert_eq!(model.title.as_deref(), Some("say \"hi\" \\ x\nyb"));
}

/// docs/language.md, "Simultaneous decisions": a local declared inside the
/// block may be set, each turn declaring its own (player 2 is offered every
/// bid whatever player 1 set his `best` to), and a local from before the
/// block is read as it was; assigning one from before the block is E0305,
/// whose help names what to use instead, as is one of the rule's parameters.
#[test]
fn a_simultaneous_block_sets_its_own_locals_but_not_those_from_before_it() {
    let text = |extra: &str| {
        format!(
            r#"rulebook a {{ players 2..2 }}
var bid per_player : int owner assume "x"
rule bids(n: int) assume "x" {{
  let floor = 1
  simultaneous p in players {{
    let best = floor
    choose b from [1, 2, 3] where b >= best by p
    best = b
    best += 10
    {extra}
    bid[p] = best
  }}
  if bid[player(1)] == 13 and bid[player(2)] == 11 {{ win player(1) }} else {{ win player(2) }}
}}
round turn assume "x" {{ do bids(0) }}"#
        )
    };
    let model = compiled(&text("")).unwrap_or_else(|d| panic!("{d:#?}"));
    let game = Game::new(Arc::new(model), 2, &[]).expect("valid player count");
    let mut st = game.start(0).expect("starts");
    let offered = |st: &State| game.choices(st).map(|(p, o)| (p, o.iter().map(|x| game.option_label(x)).collect::<Vec<_>>()));
    assert_eq!(offered(&st), Some((0, vec!["1".to_string(), "2".into(), "3".into()])));
    game.apply(&mut st, 2).expect("player 1 bids 3");
    assert_eq!(offered(&st), Some((1, vec!["1".to_string(), "2".into(), "3".into()])), "player 1's `best` does not reach player 2");
    game.apply(&mut st, 0).expect("player 2 bids 1");
    assert_eq!(st.outcome, Some(Outcome::Winner(0)));
    for (extra, name) in [("floor = best", "floor"), ("floor += 1", "floor"), ("if best > 11 { floor -= 1 }", "floor"), ("n = b", "n")] {
        let errs = compiled(&text(extra)).expect_err(extra);
        assert_eq!(errs.len(), 1, "{extra}: {errs:#?}");
        assert_eq!(errs[0].code, "E0305", "{extra}");
        assert!(errs[0].message.contains(&format!("cannot change `{name}`, a local declared before it")), "{extra}: {}", errs[0].message);
        assert!(errs[0].help.as_deref().is_some_and(|h| h.contains("var") && h.contains("a local declared inside the block")), "{extra}: {:?}", errs[0].help);
    }
}

/// `seat(p)` is a player's number, from 1, what `player(n)` takes (an
/// outside game author had to keep seat numbers in a per-player var); a
/// rulebook's own `fn seat` is still its own; `seat(none)` is R0008.
#[test]
fn seat_is_the_number_player_takes() {
    let (g, st) = finished(
        "rulebook a { players 3..3 }\ncounter total 0..1000 = 0\ncounter back 0..100 = 0\n\
         setup { for p in players { total = total * 10 + seat(p) }\n back = seat(player(3)) * 10 + seat(next_player(player(3), clockwise)) }\nround turn { draw }",
        3,
    );
    assert_eq!((value(&g, &st, "total"), value(&g, &st, "back")), ("123".to_string(), "31".to_string()));
    let (g, st) = finished("rulebook a { players 2..2 }\nfn seat(p: player) = 7\ncounter x 0..9 = 0\nsetup { x = seat(player(1)) }\nround turn { draw }", 2);
    assert_eq!(value(&g, &st, "x"), "7", "the rulebook's own function");
    assert_eq!(error_code("rulebook a { players 2..2 }\nvar nobody : player\ncounter x 0..9 = 0\nsetup { x = seat(nobody) }\nround turn { draw }", 2), "R0008");
}

/// `if C { A } else { B }` gives `A` when `C` holds, else `B`, in every
/// type (a number, a player, a zone, a piece, a truth value, `none` in one
/// branch), through `else if` chains, and runs only the branch it picks:
/// the other may fail (`10 / n` with `n` 0) without stopping the game.
#[test]
fn a_conditional_value_is_its_branch_and_runs_only_that_branch() {
    let text = "rulebook t { players 2..2 }
grid board 2 x 2
piece stone per_player 1
zone pool per_player of stone
counter n 0..9 = 0
counter small 0..9 = 0
counter big 0..9 = 0
counter third 0..9 = 0
counter split 0..99 = 0
counter truth 0..1 = 0
counter nothing 0..1 = 0
var who : player
var where_to : zone
var which : piece
fn size(x: int) = if x < 3 { 1 } else if x < 6 { 2 } else { 3 }
setup {
  move 1 of stone from box to pool[player(1)]
  move 1 of stone from box to pool[player(2)]
}
round turn {
  small = size(2)
  big = size(7)
  third = size(4)
  split = if n == 0 { 99 } else { 10 / n }
  who = if big > small { player(2) } else { player(1) }
  where_to = if n > 0 { pool[player(1)] } else { cell(board, 2, 1) }
  which = if who == player(2) { top(pool[player(2)]) } else { none }
  truth = if (if small == 1 { true } else { false }) { 1 } else { 0 }
  let maybe = if small > 1 { 5 } else { none }
  if maybe == none { nothing = 1 }
  move which to where_to
  win who
}";
    let (game, st) = finished(text, 2);
    let got: Vec<String> = ["small", "big", "third", "split", "truth", "nothing", "who", "where_to"].iter().map(|n| value(&game, &st, n)).collect();
    assert_eq!(got, ["1", "3", "2", "99", "1", "1", "player 2", "board 2,1"]);
    assert_eq!(st.outcome, Some(grimoire_interpreter::engine::Outcome::Winner(1)));
    // The piece of the `if` moved to the zone of the `else`.
    let stone = game.observe(&st, 0).zones.iter().find(|z| z.zone == "board 2,1").map(|z| z.count);
    assert_eq!(stone, Some(1));
}

/// At the start of a statement `if` is the statement, whose block holds
/// statements: a value there is an error inside the block, not a
/// conditional value missing its `else` reported at the next statement
/// (an outside tester's finding), nor an assignment to a conditional value.
#[test]
fn an_if_at_the_start_of_a_statement_is_the_statement() {
    for (body, inside) in [("if n > 3 { n + 1 }", "n + 1"), ("if n > 3 { 1 } else { 2 }", "1 }"), ("if true { 1 } else { 2 } = 3", "1 }")] {
        let text = format!("rulebook t {{ players 2..2 }}\ncounter n 0..9 = 0\nround turn {{\n  {body}\n  end\n}}\n");
        let errs = compiled(&text).expect_err("a value is not a statement");
        let block = text.find(inside).expect("the block");
        assert_eq!(errs[0].code, "E0001", "{body}: {errs:#?}");
        assert!((block..block + inside.len()).contains(&errs[0].at.span.start), "{body}: at {} , the block at {block}: {}", errs[0].at.span.start, errs[0].message);
    }
}

/// The fuel that runs out in an end's or a trigger's `when` is reported at
/// that condition, in that end or trigger: it had no place at all (an
/// end), or the setup's `move` that fired the trigger (an outside tester's
/// findings).
#[test]
fn fuel_that_runs_out_in_a_condition_of_its_own_is_placed_there() {
    let looping = "(count x in 1..1000 where (count y in 1..1000 where y == x) > 0) < 0";
    let end = format!("rulebook t {{ players 2..2 step_fuel 1000 }}\nend e when {looping} {{ draw }}\nround turn {{ for p in players {{ win p }} }}\n");
    let trigger = format!(
        "rulebook t {{ players 2..2 step_fuel 1000 }}\npiece pawn per_player 3\nzone pool per_player of pawn\nsetup {{ for p in players {{ move 3 of pawn from box to pool[p] }} }}\ntrigger tr on arrive(k: pawn, s) when {looping} {{ pass }}\nround turn {{ for p in players {{ win p }} }}\n"
    );
    for (text, rule) in [(end, "e"), (trigger, "tr")] {
        let e = run(&text, 2).1.expect_err("out of fuel");
        assert_eq!((e.kind.code(), e.rule.as_deref()), ("R0002", Some(rule)), "{}", e.message);
        let at = e.at.expect("a place").span.start;
        let when = text.find(looping).expect("the condition");
        assert!((when..when + looping.len()).contains(&at), "at the condition: {at}, which is at {when}");
    }
}

/// A table's rows may be written in any order of keys: each key finds the
/// row whose range holds it (looked up by binary search over the ranges),
/// a key in no range is R0012, and two ranges that overlap are E0304
/// whatever their order. A table holds at most 65,535 rows (the engine
/// numbers a row in 16 bits): one more is E0304 at that row.
#[test]
fn table_rows_in_any_order_and_at_most_65535_of_them() {
    let text = |rows: &str, key: i64| format!("rulebook a {{ players 2..2 }}\ntable t(n) -> (v) {{\n{rows}\n}}\ncounter x -1..100 = 0\nsetup {{ x = t({key}).v }}\nround turn {{ draw }}");
    let rows = "  12 => (5)\n  5..9 => (2)\n  1..4 => (1)\n  10 => (3)";
    for (key, v) in [(1, "1"), (4, "1"), (5, "2"), (9, "2"), (10, "3"), (12, "5")] {
        let (g, st) = finished(&text(rows, key), 2);
        assert_eq!(value(&g, &st, "x"), v, "key {key}");
    }
    for key in [0, 11, 13] {
        assert_eq!(error_code(&text(rows, key), 2), "R0012", "key {key}");
    }
    let overlap = |rows: &str| compiled(&text(rows, 1)).err().unwrap_or_default().iter().filter(|d| d.code == "E0304").count();
    assert_eq!(overlap("  8..9 => (1)\n  1..4 => (2)\n  3..5 => (3)"), 1);
    assert_eq!(overlap("  8..9 => (1)\n  1..4 => (2)\n  5..8 => (3)"), 1);
    assert_eq!(overlap("  8..9 => (1)\n  1..4 => (2)\n  5..7 => (3)"), 0);
    let many: String = (1..=65_536).map(|k| format!("  {k} => ({})\n", k % 7)).collect();
    let errors = compiled(&text(&many, 1)).err().unwrap_or_default();
    assert!(errors.len() == 1 && errors[0].code == "E0304" && errors[0].message.contains("more than 65535 rows"), "{errors:?}");
    let fewer: String = (1..=65_535).map(|k| format!("  {k} => ({})\n", k % 7)).collect();
    let (g, st) = finished(&text(&fewer, 65_535), 2);
    assert_eq!(value(&g, &st, "x"), (65_535 % 7).to_string(), "the last row is read");
}

/// A variant counted once names its piece where a piece is expected (a
/// move, a piece var, a scenario's `place`, `zone_of`), as a kind of one
/// piece does, and stays the variant elsewhere (`is`, `==` with a piece).
/// A variant counted twice is still refused as a piece (E0201).
#[test]
fn a_variant_counted_once_names_its_piece_where_a_piece_is_expected() {
    let text = r#"rulebook one { players 2..2 }
card c 3 assume "x" { ace x1 assume "x" two x2 assume "x" }
zone deck of c
zone lair of c
var best : piece = none assume "x"
setup {
  move 3 of c from box to deck
  move ace to lair
  best = ace
}
round r {
  choose k from deck by player(1)
  if is(k, two) and best == ace and zone_of(ace) == lair { win player(1) } else { win player(2) }
}
scenario the_ace players 2 {
  expect zone_of(ace) == lair and count(lair) == 1 and is(top(lair), ace)
  expect best == top(lair)
  expect ace in lair and top(lair) in [ace, two] and two in deck and not (two in lair)
  place ace at deck
  expect count(deck) == 3 and count(lair) == 0
}
"#;
    crate::decisions::every_scenario_passes(text);
    let twice = compiled(&text.replace("move ace to lair", "move two to lair")).expect_err("two copies");
    assert_eq!(twice.iter().map(|d| d.code).collect::<Vec<_>>(), ["E0201"], "{twice:#?}");
    assert!(twice[0].help.as_deref().is_some_and(|h| h.contains("counted once")), "{twice:#?}");
}
