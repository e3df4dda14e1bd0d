//! The engine's shortcuts give what the general code gives: an attribute
//! read of a local piece, of a variant and of another expression (and the
//! error when there is none), and `where true` conditions, which test
//! nothing.

use grimoire_interpreter::engine::{ExecError, Game, State};
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn run(text: &str) -> (Game, Result<State, ExecError>) {
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:#?}"));
    let game = Game::new(Arc::new(model), 2, &[]).expect("valid player count");
    let st = game.start(1);
    (game, st)
}

/// A rulebook of a test laid out for two players (it must compile).
pub(crate) fn two_players(text: String) -> Game {
    Game::new(Arc::new(compile(&[Source { name: "t.rules".into(), text }]).unwrap_or_else(|d| panic!("{d:?}"))), 2, &[]).expect("two players")
}

/// The least `step_fuel` from 1,000 to 1,000,000 with which `passes`, to
/// the step (`what` is what it runs, for the message when it needs more or
/// less than that).
pub(crate) fn least_step_fuel(what: &str, passes: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (1_000, 1_000_000);
    assert!(!passes(lo) && passes(hi), "{what} need between {lo} and {hi} steps");
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if passes(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// A game that must start: its state at the first decision.
fn started(text: &str) -> (Game, State) {
    let (g, st) = run(text);
    let st = st.unwrap_or_else(|e| panic!("{}: {}", e.kind.code(), e.message));
    (g, st)
}

/// `CARDS` and `decls`, a setup that runs `body`, and a round that ends the
/// game at once.
fn in_setup(decls: &str, body: &str) -> String {
    format!("{CARDS}{decls}\nsetup {{\n  {body}\n}}\nround turn {{ draw }}")
}

/// The error a rulebook that must fail stops with.
fn failure(text: &str) -> ExecError {
    match run(text).1 {
        Ok(_) => panic!("this rulebook should fail:\n{text}"),
        Err(e) => e,
    }
}

fn value(game: &Game, st: &State, name: &str) -> String {
    let prefix = format!("{name} = ");
    game.observe(st, 0).values.iter().find_map(|v| v.strip_prefix(prefix.as_str()).map(str::to_owned)).unwrap_or_else(|| panic!("no value {name}"))
}

const CARDS: &str = r#"rulebook a { players 2..2 }
card c 3 {
  one "one" v=1 w=10
  two "two" v=2 w=20
  three "three" v=3
}
zone deck of c
zone hand of c
counter a 0..1000 = 0
counter b 0..1000 = 0
counter k 0..1000 = 0
counter n 0..1000 = 0
fn value_of(x: c) = x.v
"#;

#[test]
fn attributes_of_locals_variants_and_expressions() {
    let text = format!(
        "{CARDS}setup {{
  move all of box to deck
  for x in pieces(c) {{ a += x.v  b += value_of(x) }}
  k = (first x in deck where x.v == 2).w + two.v
  n = count x in deck where true
  n += count x in deck where true and x.v > 1
  n += count x in deck where x.v > 1 and true
}}
round turn {{ draw }}"
    );
    let (g, st) = started(&text);
    assert_eq!(value(&g, &st, "a"), "6");
    assert_eq!(value(&g, &st, "b"), "6");
    assert_eq!(value(&g, &st, "k"), "22");
    assert_eq!(value(&g, &st, "n"), "7");
}

/// A table cell written as a number is read as it is; one worked out
/// (`player_count * 10`, a variant, an arithmetic error) runs as before:
/// the same values, and the error where the cell is read.
#[test]
fn table_cells_written_out_or_worked_out() {
    let table = "table t(i) -> (x, y, z) {\n  1 => (7, player_count * 10, -3)\n  2..3 => (2 * 3, 9223372036854775807 + 1, 0)\n}\n";
    let (g, st) = started(&in_setup(table, "a = t(1).x + t(1).y\n  b = t(3).x - t(1).z\n  k = t(2).z"));
    assert_eq!(value(&g, &st, "a"), "27");
    assert_eq!(value(&g, &st, "b"), "9");
    assert_eq!(value(&g, &st, "k"), "0");
    let e = failure(&in_setup(table, "a = t(2).y"));
    assert_eq!(e.kind.code(), "R0012", "{}", e.message);
}

#[test]
fn a_missing_attribute_is_an_error_on_every_path() {
    for read in ["for x in pieces(c) { a += x.w }", "a = (first x in deck where x.v == 3).w", "a = three.w"] {
        let e = failure(&in_setup("", &format!("move all of box to deck\n  {read}")));
        assert_eq!(e.kind.code(), "R0008", "{read}: {}", e.message);
        assert!(e.message.contains("has no attribute `w`"), "{read}: {}", e.message);
    }
}

/// Values given to `let`, assignments, a rule's arguments and the items of
/// a list are read in place or through their typed code: `none` stays
/// `none` in every form.
#[test]
fn values_of_every_form_in_lets_arguments_and_lists() {
    let text = r#"rulebook a { players 2..2 }
piece p 2
zone a of p
zone b of p
counter n 0..100000 = 0
var v : piece
rule tally(x: piece, k: int, z: zone, q: player, t: bool) {
  if x == none { n += 1 }
  if k == 2 { n += 10 }
  if z == a { n += 100 }
  if q == none { n += 1000 }
  if t { n += 10000 }
}
setup {
  move all of box to a
  let x = top(b)
  let k = count(a)
  let z = zone_of(top(a))
  let q = owner(top(a))
  let t = count(a) > 1
  do tally(x, k, z, q, t)
  do tally(top(b), count(a), zone_of(top(a)), owner(top(a)), count(a) > 1)
  v = top(b)
  if v == none { n += 20000 }
  v = top(a)
  for y in [top(b), top(a), none] { if y == none { n += 3 } }
}
round turn { draw }"#;
    let (g, st) = started(text);
    assert_eq!(value(&g, &st, "n"), "42228");
}

/// `a != b` is `not (a == b)` in every form the comparison is compiled to:
/// against `none`, against a local, between numbers, zones, pieces,
/// players, truth values, and between general values.
#[test]
fn not_equal_is_the_negation_of_equal_in_every_form() {
    let text = r#"rulebook a { players 2..2 }
piece p 2
zone a of p
zone b of p
counter n 0..1000000 = 0
var v : piece
var w : piece
setup {
  move all of box to a
  v = top(a)
  w = top(b)
  let x = top(a)
  let k = 2
  if top(b) != none { n += 1 }
  if top(a) != none { n += 2 }
  if count(a) != k { n += 4 }
  if count(b) != k { n += 8 }
  if zone_of(top(a)) != a { n += 16 }
  if zone_of(top(a)) != b { n += 32 }
  if top(a) != x { n += 64 }
  if top(b) != x { n += 128 }
  if v != w { n += 256 }
  if v != x { n += 512 }
  if (count(a) > 1) != (count(b) > 1) { n += 1024 }
  if owner(top(a)) != player(1) { n += 2048 }
  if count(a) != 3 { n += 4096 }
  if top(a) != top(a) { n += 8192 }
}
round turn { draw }"#;
    let (g, st) = started(text);
    assert_eq!(value(&g, &st, "n"), (2 + 8 + 32 + 128 + 256 + 1024 + 2048 + 4096).to_string());
}

/// A chain of three or more `and` (or `or`) is evaluated in order and stops
/// at the first part that decides it: the parts after it, which would fail
/// here (`zone_of(none)`), are not evaluated.
#[test]
fn chains_of_and_and_or_stop_at_the_first_part_that_decides() {
    let text = r#"rulebook a { players 2..2 }
piece p 2
zone a of p
zone b of p
counter n 0..1000 = 0
setup {
  move all of box to a
  if count(a) == 2 and top(b) != none and zone_of(top(b)) == a { n += 1 }
  if count(b) == 0 or top(a) == none or zone_of(top(b)) == a { n += 2 }
  if count(a) == 2 and top(a) != none and zone_of(top(a)) == a and count(b) == 0 { n += 4 }
  if count(a) == 0 or top(b) != none or zone_of(top(a)) == b or count(b) == 0 { n += 8 }
}
round turn { draw }"#;
    let (g, st) = started(text);
    assert_eq!(value(&g, &st, "n"), "14");
}

/// A game starts from the state every game reaches before setup's first
/// shuffle, with the fuel left there: the fuel of the whole run to the
/// first decision is the same as when setup ran from its start, and a
/// restarted game is the game `start` gives for the same seed.
#[test]
fn games_start_from_the_state_before_the_first_shuffle_with_its_fuel() {
    let text = |fuel: &str| {
        format!(
            r#"rulebook a {{ players 2..2 {fuel} }}
piece p 6
zone a of p
zone b of p
counter n 0..1000000000 = 0
setup {{
  while n < 200000 {{ n += 1 }}
  move all of box to a
  shuffle a
  while n < 400000 {{ n += 1 }}
}}
round turn {{ for q in players {{ choose x from [y in a where true] by q  move x to b }} }}"#
        )
    };
    let game = |fuel: &str| {
        let model = compile(&[Source { name: "t.rules".into(), text: text(fuel) }]).unwrap_or_else(|d| panic!("{d:#?}"));
        Game::new(Arc::new(model), 2, &[]).expect("valid player count")
    };
    // Each half of setup fits in a million steps, both do not.
    let g = game("step_fuel 1000000");
    let e = g.start(3).expect_err("setup takes more than a million steps in all");
    assert_eq!(e.kind.code(), "R0002", "{}", e.message);
    let mut st = game("").start(0).expect("starts");
    assert_eq!(g.restart(&mut st, 3).expect_err("the same fuel on a restart").kind.code(), "R0002");
    let g = game("step_fuel 5000000");
    let mut st = g.start(0).expect("starts");
    for seed in 0..8 {
        let fresh = g.start(seed).expect("starts");
        g.restart(&mut st, seed).expect("starts");
        assert_eq!(st.fingerprint(), fresh.fingerprint(), "seed {seed}");
        assert_eq!(g.choices(&st).map(|(p, o)| (p, o.iter().map(<[_]>::to_vec).collect::<Vec<_>>())), g.choices(&fresh).map(|(p, o)| (p, o.iter().map(<[_]>::to_vec).collect::<Vec<_>>())));
    }
    let orders: std::collections::HashSet<u64> = (0..8).map(|s| g.start(s).expect("starts").fingerprint()).collect();
    assert!(orders.len() > 1, "the shuffle depends on the seed");
}

/// Numbers made of literals are worked out once when the rulebook is
/// compiled: they must give what the same arithmetic gives at run time
/// (floor division, the remainder's sign, a parameter standing for a
/// literal), and arithmetic that fails is still reported when it runs.
#[test]
fn folded_constants_give_the_run_time_arithmetic() {
    let half = "fn half(v: int) = v / 2";
    let text = in_setup(
        half,
        "let x = -7
  let y = -3
  a = 500 + (-7 / 2) - (x / 2)
  b = 500 + (7 % -3) - (7 % y)
  k = half(-7) + 500 - half(x) + player_count * 10
  n = 500 + -(-(3)) * (2 - 5)",
    );
    let (g, st) = started(&text);
    assert_eq!(value(&g, &st, "a"), "500");
    assert_eq!(value(&g, &st, "b"), "500");
    assert_eq!(value(&g, &st, "k"), "520");
    assert_eq!(value(&g, &st, "n"), "491");
    for (read, code) in [("a = 1 / (2 - 2)", "R0012"), ("a = 9223372036854775807 + 1", "R0012"), ("a = half(1 % 0)", "R0012")] {
        let e = failure(&in_setup(half, read));
        assert_eq!(e.kind.code(), code, "{read}: {}", e.message);
    }
}

/// A per-player counter read with a local player (`score[p]`) is read in
/// place: it gives what the general read gives, and `none` for the player
/// is the same error on both paths.
#[test]
fn a_counter_of_a_local_player_reads_as_the_general_form() {
    let score = "counter score per_player 0..100 = 0";
    let text = in_setup(
        score,
        "score[player(1)] = 7
  score[player(2)] = 11
  for p in players {
    a += score[p] * 10
    b += score[next_player(p, clockwise)]
  }",
    );
    let (g, st) = started(&text);
    assert_eq!(value(&g, &st, "a"), "180");
    assert_eq!(value(&g, &st, "b"), "18");
    for read in ["let q = first x in players where false\n  a = score[q]", "a = score[first x in players where false]"] {
        let e = failure(&in_setup(score, read));
        assert!(e.message.contains("a player was needed"), "{read}: {} {}", e.kind.code(), e.message);
    }
}

/// Attributes of locals (a piece or a variant), counters, `row` and `col`
/// are read in place where they are the operands of a comparison or of
/// arithmetic: they give what their general code gives, and the same
/// errors (an attribute a piece lacks, `row` of a zone off the grids where
/// a number is needed).
#[test]
fn reads_in_place_as_operands_give_the_general_values() {
    let board = "grid board 3 x 3";
    let text = in_setup(
        board,
        "move all of box to deck
  let t = two
  for x in pieces(c) {
    if x.v > 1 { a += 1 }
    if x.v * 10 == x.v + 9 * x.v and 2 <= x.v { a += 10 }
  }
  b = t.v + t.w + k
  k = 4
  let z = cell(board, 2, 3)
  if row(z) * 10 + col(z) == 23 { n += 1 }
  if row(deck) == none and col(deck) == none { n += 10 }
  if k > a - 19 and b - k == 18 { n += 100 }",
    );
    let (g, st) = started(&text);
    assert_eq!(value(&g, &st, "a"), "22");
    assert_eq!(value(&g, &st, "b"), "22");
    assert_eq!(value(&g, &st, "n"), "111");
    for (read, wanted) in [
        ("move all of box to deck\n  for x in pieces(c) { if x.w > 0 { a += 1 } }", "has no attribute `w`"),
        ("let t = three\n  a = 1 + t.w", "has no attribute `w`"),
        ("if row(deck) > 1 { a = 1 }", "a number was needed"),
        ("a = col(deck) + 1", "a number was needed"),
    ] {
        let e = failure(&in_setup(board, read));
        assert!(e.message.contains(wanted), "{read}: {} {}", e.kind.code(), e.message);
    }
}

/// The tests of a walk's condition read in place (conds.rs) give what
/// their closures give: `tagged` of a space, `not`, and a piece's
/// attribute compared with a constant (either side), a local or another
/// local's attribute; a piece without the attribute is the same error.
#[test]
fn tests_read_in_place_give_what_their_closures_give() {
    let decls = "spacetype start\nspacetype finish\nspacetype trail\ntrack path linear { 1: start 2..4: trail 5: finish }\nfn first_at(k: int) = first x in deck where x.v == k";
    let text = in_setup(
        decls,
        "move all of box to deck
  let two_card = first_at(2)
  let want = 2
  a = count z in spaces(path) where not tagged(z, finish)
  a += 10 * count z in spaces(path) where tagged(z, start) or tagged(z, finish)
  b = count x in deck where x.v >= 2 and 3 > x.v
  b += 10 * count x in deck where x.v == want
  b += 100 * count x in deck where x.v != two_card.v
  n = count x in deck where not (x.v < 2)",
    );
    let (g, st) = match run(&text) {
        (g, Ok(st)) => (g, st),
        (_, Err(e)) => panic!("{}: {}\n{text}", e.kind.code(), e.message),
    };
    assert_eq!(value(&g, &st, "a"), "24");
    assert_eq!(value(&g, &st, "b"), "211");
    assert_eq!(value(&g, &st, "n"), "2");
    let e = failure(&in_setup("", "move all of box to deck\n  a = count x in deck where x.w > 1"));
    assert!(e.message.contains("has no attribute `w`"), "{} {}", e.kind.code(), e.message);
}

/// Filtered collections and written-out lists give their items in order:
/// `where` keeps every item that holds, `while` the leading ones, a filter
/// of a filter and a list of expressions give theirs in order, and a
/// `choose` over a filter and a list offers their tuples in order.
#[test]
fn filters_and_lists_give_their_items_in_order() {
    let text = format!(
        "{CARDS}setup {{
  move all of box to deck
  for x in [y in deck where y.v >= 2] {{ a += x.v }}
  for x in [y in deck while y.v < 2] {{ a += 100 * x.v }}
  for x in [y in [z in deck where z.v > 1] where y.v < 3] {{ b += x.v }}
  b += count x in [y in deck while y.v < 3] where true
  for x in [1, count(deck), 3 * 4] {{ k += x }}
  n = sum x in [y in pieces(c) where y.v != 2] of x.v
}}
round turn {{
  for p in players {{
    choose x from [y in deck where y.v >= 2], m from [1, 10] by p
    k += x.v * m
    move x to hand
  }}
  draw
}}"
    );
    let (g, st) = started(&text);
    assert_eq!(value(&g, &st, "a"), "105");
    assert_eq!(value(&g, &st, "b"), "4");
    assert_eq!(value(&g, &st, "k"), "16");
    assert_eq!(value(&g, &st, "n"), "4");
    let (_, options) = g.choices(&st).expect("the first player chooses");
    let offered: Vec<Vec<String>> = options.iter().map(|o| o.iter().map(|v| g.label(*v)).collect()).collect();
    assert_eq!(offered, [["two (two)", "1"], ["two (two)", "10"], ["three (three)", "1"], ["three (three)", "10"]].map(|o| o.map(String::from).to_vec()));
}

/// A piece's zone compared with a zone known when the rules are compiled
/// (`box`, a zone declared once, a space), and a function of the piece
/// whose whole body is such a test or an owner test, read in place: `==`,
/// `!=` and `not` give what the general comparison gives, and a zone known
/// only at run time (per player) still compares.
#[test]
fn zone_tests_of_pieces_give_the_general_answers() {
    let text = r#"rulebook a { players 2..2 }
spacetype plain
track path linear { 1..3: plain }
piece pawn per_player 3
zone pool of pawn
zone home per_player of pawn
counter a 0..1000 = 0
counter b 0..1000 = 0
counter n 0..1000 = 0
fn in_pool(d: pawn) = zone_of(d) == pool
fn off_board(d: pawn) = zone_of(d) != space(path, 2)
fn mine(d: pawn, q: player) = owner(d) == q
setup {
  move first d in pieces(pawn) where zone_of(d) == box to pool
  move first d in pieces(pawn) where zone_of(d) == box to pool
  move first d in pieces(pawn) where zone_of(d) == box to space(path, 2)
  move first d in pieces(pawn, player(2)) where zone_of(d) == box to home[player(2)]
  let q = player(1)
  a = count d in pieces(pawn) where zone_of(d) == box
  a += 10 * count d in pieces(pawn) where zone_of(d) != pool
  a += 100 * count d in pieces(pawn) where in_pool(d)
  b = count d in pieces(pawn) where not off_board(d)
  b += 10 * count d in pieces(pawn) where zone_of(d) == home[player(2)]
  b += 100 * count d in pieces(pawn) where mine(d, q) and not in_pool(d)
  n = count d in [e in pieces(pawn) where off_board(e)] where zone_of(d) != box
}
round turn { draw }"#;
    let (g, st) = started(text);
    assert_eq!(value(&g, &st, "a"), "242");
    assert_eq!(value(&g, &st, "b"), "111");
    assert_eq!(value(&g, &st, "n"), "3");
}

/// `region` gives each connected space once, whether the board's zones
/// fit the bitset kept on the stack (a 5 x 5 grid) or not (40 x 40): a
/// corner line of stones and the cell they surround are one region, a
/// stone apart is not in it, and a start that fails the condition gives
/// none.
#[test]
fn regions_hold_each_connected_space_once_on_small_and_large_boards() {
    for (size, long) in [(5, 4), (40, 30)] {
        let text = format!(
            r#"rulebook a {{ players 2..2 }}
grid board {size} x {size}
piece stone 80
counter a 0..10000 = 0
counter b 0..10000 = 0
counter n 0..10000 = 0
setup {{
  for z in spaces(board) {{
    if (row(z) == 1 and col(z) <= {long}) or (col(z) == 1 and row(z) <= {long}) or (row(z) == 2 and col(z) == 2) or (row(z) == {size} and col(z) == {size}) {{
      move first s in pieces(stone) where zone_of(s) == box to z
    }}
  }}
  a = count x in (region y from cell(board, 1, 1) where count(y) > 0) where true
  b = count x in (region y from cell(board, {size}, {size}) where count(y) > 0) where true
  n = count x in (region y from cell(board, 3, 3) where count(y) > 0) where true
}}
round turn {{ draw }}"#
        );
        let (g, st) = started(&text);
        assert_eq!(value(&g, &st, "a"), (2 * long).to_string(), "{size} x {size}");
        assert_eq!(value(&g, &st, "b"), "1", "{size} x {size}");
        assert_eq!(value(&g, &st, "n"), "0", "{size} x {size}");
    }
}

/// A walk over the spaces of a board (all of them, one row or column, a
/// line through a cell for `in_a_row`, a run of cells holding a player's
/// pieces), over pieces or over numbers between constants, whose condition
/// is only tests read in place (some inside functions, `top(z) == none`
/// read as `count(z) == 0`), binds its name only where something can read
/// it, for `all` as for the others; the game must be the general walk's,
/// state for state (the fingerprint includes every local): the same
/// rulebook with `and k >= 0` added to each condition (a part that is not
/// a test, so that the general walk runs) plays the same games with the
/// same fingerprints at every decision.
#[test]
fn walks_of_tests_only_leave_the_state_of_the_general_walk() {
    // `lead`: a part that is not a test first, for the tests that must be
    // compared with the closures they replace.
    let rules = |extra: &str, lead: &str| {
        format!(
            "rulebook a {{ players 2..2 }}
grid board 3 x 4
piece mark per_player 6
zone pencil per_player of mark
token dot 4
zone shadow per_space board of dot
counter seen 0..100 = 0
fn has(z: space, q: player) = any d in z where owner(d) == q
fn has_other(z: space, q: player) = any d in z where owner(d) != q
fn has_none(z: space) = any d in z where owner(d) == none
fn empty(z: space) = count(z) == 0
fn not_empty(z: space) = not empty(z)
setup {{
  for p in players {{ move 6 of mark from box to pencil[p] }}
  move 2 of dot from box to shadow[cell(board, 2, 2)]
  move 2 of dot from box to shadow[cell(board, 1, 3)]
}}
round turn {{
  for p in players {{
    let k = 0
    choose c from spaces(board) where count(c) == 0{extra} by p
    move top(pencil[p]) to c
    seen = count z in spaces(board) where count(z) > 0 and row(z) != 2{extra}
    seen += count m in pieces(mark, p) where zone_of(m) != box and owner(m) == p{extra}
    let last = first z in spaces(board) where count(z) == 0{extra}
    let free_in_column = first z in spaces(board) where col(z) == 2 and count(z) == 0{extra}
    let on_row = any z in spaces(board) where row(z) == 3 and count(z) > 0{extra}
    seen += in_a_row z through c where count(z) > 0{extra}
    seen += in_a_row z through c where has(z, p){extra}
    seen += in_a_row z through c where has_other(z, next_player(p, clockwise)){extra}
    seen += in_a_row z through c where not has_none(z){extra}
    seen += count z in spaces(board) where empty(z){extra}
    seen += count z in spaces(board) where top(z) == none and not_empty(z){extra}
    seen += count z in spaces(board) where none != top(z){extra}
    let free = first z in spaces(board) where col(z) == 3 and empty(z){extra}
    seen += count i in 1..4 where count(cell(board, 1, i)) == 0{extra}
    let open_column = first i in 2..4 where count(cell(board, 3, i)) == 0{extra}
    let top_row_full = all i in 1..4 where count(cell(board, 1, i)) > 0{extra}
    let all_placed = all m in pieces(mark, p) where zone_of(m) != box{extra}
    let none_left = all m in pieces(mark) where zone_of(m) == box{extra}
    seen += count z in spaces(board) where {lead}any d in z where owner(d) == p{extra}
    seen += count z in spaces(board) where {lead}not (any d in z where true){extra}
    seen += count z in spaces(board) where {lead}not (count(z) > 0){extra}
    seen += count z in spaces(board) where {lead}not (not (count(z) >= 1)) and not (count(z) != 1){extra}
    seen += count i in 1..4 where {lead}not (count(cell(board, 2, i)) < 1){extra}
    let unshaded = count z in spaces(board) where {lead}count(shadow[z]) == 0{extra}
    let shaded_free = first z in spaces(board) where {lead}count(shadow[z]) > 0 and count(z) == 0{extra}
    seen += count z in neighbors(c) where count(z) > 0{extra}
    let free_next = first z in neighbors(c) where count(z) == 0{extra}
    let boxed_in = all z in neighbors(c) where count(z) > 0{extra}
    let next_to_mine = any z in neighbors(c) where has(z, p){extra}
    if all z in spaces(board) where count(z) > 0{extra} {{ draw }}
  }}
}}"
        )
    };
    let (bare, general) = (two_players(rules("", "")), two_players(rules(" and k >= 0", "k >= 0 and ")));
    the_same_games(&bare, &general, |_| {});
}

/// Twenty random games of `bare` and `general` with the same choices: the
/// same state at every decision, and the same ending; `each` sees every
/// state of `bare`'s games.
fn the_same_games(bare: &Game, general: &Game, mut each: impl FnMut(&State)) {
    for seed in 0..20u64 {
        let (mut a, mut b) = (bare.start(seed).expect("starts"), general.start(seed).expect("starts"));
        let mut picks = grimoire_interpreter::log::RandomAgent::new(seed);
        loop {
            assert_eq!(a.fingerprint(), b.fingerprint(), "seed {seed}, after {} decisions", a.decisions);
            each(&a);
            let Some((_, options)) = bare.choices(&a) else { break };
            let i = picks.pick(options.len());
            bare.apply(&mut a, i).expect("plays");
            general.apply(&mut b, i).expect("plays");
        }
        assert!(a.outcome.is_some() && a.outcome == b.outcome, "seed {seed}");
    }
}

/// `count(zone[z])` of a zone declared `per_space` of a board, read in
/// place over the spaces of another board, fails as the general expression
/// does: the same error, at the same place.
#[test]
fn a_per_space_zone_of_another_board_is_the_general_error() {
    let text = |extra: &str| {
        format!(
            "rulebook a {{ players 2..2 }}
grid board 2 x 2
grid other 2 x 2
token dot 1
zone shadow per_space board of dot
counter n 0..100 = 0
setup {{
  let k = 0
  n = count z in spaces(other) where {extra}count(shadow[z]) == 0
}}
round turn {{ draw }}"
        )
    };
    let (fast, general) = (failure(&text("")), failure(&text("k >= 0 and ")));
    assert_eq!(fast.kind.code(), general.kind.code());
    assert_eq!(fast.message, general.message);
    assert!(fast.message.contains("a space of `board` was needed"), "{}", fast.message);
    assert_eq!(fast.at.map(|l| l.span), general.at.map(|l| l.span));
}

/// A function whose body is a test of the space (`empty(z) = count(z) ==
/// 0`), its `not`, and `top(z) == none` (read as `count(z) == 0`) give,
/// read in place, what the general condition gives: the same counts with
/// `k >= 0` first (a part that is not a test, so nothing is read in place),
/// on a board half filled.
#[test]
fn tests_inside_functions_and_top_against_none_give_the_general_answers() {
    let text = r#"rulebook a { players 2..2 }
grid board 3 x 4
token t 5
counter fast 0..100000 = 0
counter slow 0..100000 = 0
fn empty(z: space) = count(z) == 0
fn full(z: space) = not empty(z)
fn in_column(z: space, c: int) = col(z) == c
setup {
  move 5 of t from box to cell(board, 1, 1)
  let k = 0
  for c in [cell(board, 2, 3), cell(board, 3, 3), cell(board, 1, 4)] { move top(cell(board, 1, 1)) to c }
  fast = count z in spaces(board) where empty(z)
  slow = count z in spaces(board) where k >= 0 and empty(z)
  fast = fast * 10 + count z in spaces(board) where full(z)
  slow = slow * 10 + count z in spaces(board) where k >= 0 and full(z)
  fast = fast * 10 + count z in spaces(board) where top(z) == none
  slow = slow * 10 + count z in spaces(board) where k >= 0 and top(z) == none
  fast = fast * 10 + count z in spaces(board) where top(z) != none and in_column(z, 3)
  slow = slow * 10 + count z in spaces(board) where k >= 0 and top(z) != none and in_column(z, 3)
}
round turn { draw }"#;
    let (g, st) = started(text);
    // 12 cells, 4 of them filled, 2 of those in column 3.
    assert_eq!(value(&g, &st, "fast"), "8482");
    assert_eq!(value(&g, &st, "slow"), "8482");
}

/// `any d in z where owner(d) == x` inside a function over the spaces of a
/// board (read in place, the owner `x` read once): `==` and `!=`, with a
/// player and with `none` (a piece of nobody), give what the general
/// comprehension gives.
#[test]
fn owner_tests_of_the_pieces_in_a_space_give_the_general_answers() {
    let text = r#"rulebook a { players 2..2 }
grid board 1 x 4
piece pawn per_player 2
piece stone 1
counter a 0..1000 = 0
counter b 0..1000 = 0
counter n 0..1000 = 0
fn has(z: space, q: player) = any d in z where owner(d) == q
fn has_other(z: space, q: player) = any d in z where owner(d) != q
fn has_none(z: space) = any d in z where owner(d) == none
setup {
  move first m in pieces(pawn, player(1)) where zone_of(m) == box to cell(board, 1, 1)
  move first m in pieces(pawn, player(2)) where zone_of(m) == box to cell(board, 1, 2)
  move first m in pieces(pawn, player(2)) where zone_of(m) == box to cell(board, 1, 2)
  move first m in pieces(stone) where zone_of(m) == box to cell(board, 1, 3)
  let p = player(1)
  let q = player(2)
  a = count z in spaces(board) where has(z, p)
  a += 10 * count z in spaces(board) where has(z, q)
  a += 100 * count z in spaces(board) where has_other(z, q)
  b = count z in spaces(board) where has_none(z)
  n = count z in spaces(board) where not has(z, p) and not has(z, q)
}
round turn { draw }"#;
    let (g, st) = started(text);
    assert_eq!(value(&g, &st, "a"), "211");
    assert_eq!(value(&g, &st, "b"), "1");
    assert_eq!(value(&g, &st, "n"), "2");
}

/// A rulebook whose first round walks the cells of a 6 x 5 grid many times
/// with conditions that keep one row or column (`first`, `count`, `any`, a
/// filter walked by `for`), with that test first (`line_first`: only the
/// line's cells are tried) or second (every cell is tried), then waits for
/// a decision, its locals still on the stack.
fn line_walks(fuel: u64, line_first: bool) -> String {
    let keep = |line: &str, rest: &str| if line_first { format!("{line} and {rest}") } else { format!("{rest} and {line}") };
    format!(
        "rulebook a {{ players 2..2 step_fuel {fuel} }}
grid g 6 x 5
piece m 4
counter found 0..100000 = 0
counter counted 0..100000 = 0
counter hits 0..100000 = 0
counter kept 0..100000 = 0
setup {{
  move first x in pieces(m) where zone_of(x) == box to cell(g, 1, 3)
  move first x in pieces(m) where zone_of(x) == box to cell(g, 2, 3)
  move first x in pieces(m) where zone_of(x) == box to cell(g, 4, 2)
}}
round turn {{
  repeat 12 {{
    let r = 4
    let z = first c in spaces(g) where {first}
    if z != none {{ found += row(z) }}
    counted += count c in spaces(g) where {count}
    if any c in spaces(g) where {any} {{ hits += 1 }}
    for c in [c in spaces(g) where {filter}] {{ kept += 1 }}
  }}
  choose c from spaces(g) where count(c) == 0 by player(1)
  draw
}}",
        first = keep("col(c) == 3", "count(c) == 0"),
        count = keep("row(c) == r", "count(c) == 0"),
        any = keep("col(c) == 7", "count(c) >= 0"),
        filter = keep("row(c) == 2", "count(c) > 0"),
    )
}

/// The least `step_fuel` with which `line_walks` reaches its decision.
fn least_fuel(line_first: bool) -> u64 {
    least_step_fuel("the walks", |fuel| run(&line_walks(fuel, line_first)).1.is_ok())
}

#[test]
fn walks_over_one_line_of_a_grid_cost_bind_and_find_what_the_whole_walk_does() {
    // The same fuel, to the step: each cell passed over is charged.
    assert_eq!(least_fuel(true), least_fuel(false));
    // The same values found, and the same state, the walks' names
    // included (the raw fingerprint hashes every local).
    let (g1, line) = started(&line_walks(1_000_000, true));
    let (g2, whole) = started(&line_walks(1_000_000, false));
    for (name, expected) in [("found", "36"), ("counted", "48"), ("hits", "0"), ("kept", "12")] {
        assert_eq!(value(&g1, &line, name), expected, "{name}, line first");
        assert_eq!(value(&g2, &whole, name), expected, "{name}, line second");
    }
    assert_eq!(line.fingerprint(), whole.fingerprint());
}

/// A `choose` over two collections of a grid's cells whose first part
/// reading the second keeps one row or column walks only that line
/// (tuples.rs); the game must be the general walk's, state for state (the
/// fingerprint includes every local, the bindings left by the walk too),
/// with the same options in the same order: rows and columns, the line's
/// number either side of `==`, off the grid (no cell), parts of the first
/// binding that fail first, a decision with no option (its `else`), and
/// the line's part after parts that only test the cell (`count(b) == 0`),
/// with a number that cannot be read (`none` arithmetic) where those parts
/// turn every cell down first. The general walk is forced by a part that
/// reads the second binding first and is not such a test (`b != none`).
/// The number may be a name alone: bound by the first collection (one of
/// whose values is off the grid), or a local holding `none` every other
/// time (no cell is on its line).
#[test]
fn a_pair_of_cells_kept_to_one_line_is_the_general_walk() {
    // 0: the line's part first; 1: after tests of the cell; 2: general.
    let rules = |mode: u8| {
        let (d, b) = match mode {
            0 => ("", ""),
            1 => ("count(dest) < 9 and not tagged(dest, rim) and ", "count(b) <= 1 and "),
            _ => ("dest != none and ", "b != none and "),
        };
        let g = if mode == 2 { "b != none and " } else { "" };
        format!(
            "rulebook a {{ players 2..2 }}
spacetype rim
grid board 5 x 4
piece pawn per_player 4
zone taken per_player of pawn
counter forward per_player -1..1 = 0
counter moves 0..1000 = 0
setup {{
  forward[player(1)] = 1
  forward[player(2)] = -1
  for c in 1..4 {{
    move first m in pieces(pawn, player(1)) where zone_of(m) == box to cell(board, 1, c)
    move first m in pieces(pawn, player(2)) where zone_of(m) == box to cell(board, 5, c)
  }}
}}
round turn {{
  for p in players {{
    let f = forward[p]
    choose src from spaces(board), dest from spaces(board)
        where count(src) > 0 and owner(top(src)) == p and {d}row(dest) == row(src) + f and (count(dest) == 0 or owner(top(dest)) != p)
        by p else {{ win next_player(p, clockwise) }}
    if count(dest) > 0 {{ move top(dest) to taken[owner(top(dest))] }}
    move top(src) to dest
    choose a from spaces(board), b from spaces(board) where {b}col(src) + 1 == col(b) and count(a) == 0 and count(b) == 0 by p
    choose a from spaces(board), b from spaces(board) where count(a) == 0 and {b}row(b) == 9 by p else {{ moves += 1 }}
    let t = taken[p]
    choose a from spaces(board), b from spaces(board) where {g}count(b) == 99 and row(b) == row(a) + col(t) by p else {{ moves += 1 }}
    choose k from 1..6, b from spaces(board) where {b}col(b) == k and count(b) == 0 by p else {{ moves += 1 }}
    let r = if moves % 2 == 0 {{ row(src) }} else {{ none }}
    choose a from spaces(board), b from spaces(board) where count(a) == 0 and {b}row(b) == r by p else {{ moves += 1 }}
    if row(dest) == 5 or row(dest) == 1 or moves > 30 {{ win p }}
  }}
}}"
        )
    };
    let general = two_players(rules(2));
    for line in [two_players(rules(0)), two_players(rules(1))] {
        for seed in 0..30u64 {
            // A deadlock (the second `choose`, from the last column, has
            // no `else`) is the same error, at the same step.
            side_by_side(&line, &general, seed, true);
        }
    }
}

/// A `choose` over tuples whose whole condition is tests of the last
/// binding's item (`count(dest) == 0`, `zone_of(d) != box`, a cell of the
/// grid by a number) keeps the last binding's items in place, as a
/// `choose` of one binding does: the same options in the same order, the
/// same locals at every decision (the last binding left on the last item
/// tried) and the same errors as the general walk, which a first part
/// that is no such test (`dest != none`) forces. Over neighbours, cells,
/// pieces and numbers between constants, a cell named by the number
/// walked and by an earlier binding's (`count(cell(board, r, k)) == 0`).
#[test]
fn a_last_binding_of_tests_only_is_the_general_walk() {
    let rules = |general: bool| {
        let g = |name: &str| if general { format!("{name} != none and ") } else { String::new() };
        format!(
            "rulebook a {{ players 2..2 }}
spacetype rim
grid board 5 x 5
piece pawn per_player 6
counter moves 0..1000 = 0
setup {{
  for p in players {{
    for c in 1..5 {{
      move first x in pieces(pawn, p) where zone_of(x) == box to cell(board, if p == player(1) {{ 1 }} else {{ 5 }}, c)
    }}
  }}
}}
round turn {{
  for p in players {{
    choose m from pieces(pawn, p), dest from neighbors(zone_of(m)) where {n}count(dest) == 0 by p else {{ draw }}
    move m to dest
    choose k from 1..2, c from spaces(board) where {c}count(c) > 0 and not tagged(c, rim) and col(c) != 3 by p
    choose c from spaces(board), d from pieces(pawn, p) where {d}zone_of(d) != box by p
    choose a from [1, 2], col from 1..5 where {col}count(cell(board, 3, col)) == 0 by p else {{ moves += 1 }}
    choose r from 2..4, k from 1..5 where {k}count(cell(board, r, k)) == 0 by p else {{ moves += 1 }}
    choose k from 1..5, r from 1..5 where {k}count(cell(board, r, k)) > 0 and count(cell(board, r, 3)) < 2 by p
    moves += 1
    if moves >= 40 {{ draw }}
  }}
}}",
            n = g("dest"),
            c = g("c"),
            d = g("d"),
            col = if general { "col != 0 and ".to_string() } else { String::new() },
            k = if general { "k != 0 and ".to_string() } else { String::new() },
        )
    };
    let (fast, general) = (two_players(rules(false)), two_players(rules(true)));
    for seed in 0..40u64 {
        side_by_side(&fast, &general, seed, true);
    }
}

/// Games `a` and `b` played side by side from `seed` with the same random
/// picks: at each decision the same options in the same order (and, with
/// `same_states`, the same raw fingerprint, every local included), the
/// same error at the same step, the same outcome, decisions and counters.
/// Whether they stopped at an error.
pub(crate) fn side_by_side(a: &Game, b: &Game, seed: u64, same_states: bool) -> bool {
    let (mut x, mut y) = (a.start(seed).expect("starts"), b.start(seed).expect("starts"));
    let mut picks = grimoire_interpreter::log::RandomAgent::new(seed);
    let mut failed = false;
    loop {
        if same_states {
            assert_eq!(x.fingerprint(), y.fingerprint(), "seed {seed}, after {} decisions", x.decisions);
        }
        assert_eq!(a.option_labels(&x), b.option_labels(&y), "seed {seed}: the same options in the same order");
        let Some((_, options)) = a.choices(&x) else { break };
        let i = picks.pick(options.len());
        let (p, q) = (a.apply(&mut x, i), b.apply(&mut y, i));
        assert_eq!(p.as_ref().err().map(|e| (e.kind.code(), e.message.clone())), q.as_ref().err().map(|e| (e.kind.code(), e.message.clone())), "seed {seed}");
        if p.is_err() {
            failed = true;
            break;
        }
    }
    assert!(x.outcome == y.outcome && x.decisions == y.decisions && x.counters == y.counters, "seed {seed}");
    failed
}

/// `in_a_row` through a cell of a run of cells holding a player's pieces,
/// many times on a crowded grid (`has`, a test read in place) or with a
/// part that forces the general walk (`and k >= 0`); then a decision.
fn runs_in_a_row(fuel: u64, extra: &str) -> String {
    format!(
        "rulebook a {{ players 2..2 step_fuel {fuel} }}
grid g 5 x 5
piece m per_player 20
counter total 0..100000 = 0
fn has(z: space, q: player) = any d in z where owner(d) == q
setup {{
  for c in spaces(g) {{
    let p = if (row(c) + col(c)) % 3 == 0 {{ player(2) }} else {{ player(1) }}
    move first x in pieces(m, p) where zone_of(x) == box to c
  }}
}}
round turn {{
  let k = 0
  repeat 3 {{ for c in spaces(g) {{
    for p in players {{ total += in_a_row z through c where has(z, p){extra} }}
  }} }}
  choose c from spaces(g) where count(c) > 0 by player(1)
  draw
}}"
    )
}

/// The run read from the board's tables (numbers.rs) costs the steps the
/// general walk costs, stops where it stops when the fuel runs out, and
/// leaves the same values and state (the raw fingerprint hashes every
/// local, the walk's names included).
#[test]
fn runs_of_a_players_cells_cost_and_leave_what_the_general_walk_does() {
    let least = |extra: &'static str| least_step_fuel("the runs", move |fuel| run(&runs_in_a_row(fuel, extra)).1.is_ok());
    assert_eq!(least(""), least(" and k >= 0"));
    let (g1, tables) = started(&runs_in_a_row(1_000_000, ""));
    let (_, general) = started(&runs_in_a_row(1_000_000, " and k >= 0"));
    assert_eq!(value(&g1, &tables, "total"), value(&g1, &general, "total"));
    assert_eq!(tables.fingerprint(), general.fingerprint());
}

/// `cell(grid, row, col)` where a zone is needed (operands.rs: the cell
/// itself for constants, else read in place) gives what the general
/// expression gives (a `let`, then the local): the same cells for
/// constants, locals, arithmetic and a function's parameters, `none`
/// where `none` is allowed (the start of a `step`), and off the grid, or
/// with a row that is `none`, the same error.
#[test]
fn cells_named_in_place_are_the_cells_the_general_expression_names() {
    let decls = "grid g 3 x 4\nfn filled(r: int, k: int) = count(cell(g, r, k)) > 0";
    let body = |form: &str| {
        let (count_of, filled) = match form {
            "in place" => ("count(cell(g, r, k))", "filled(r, k)"),
            _ => ("count(z)", "count(z) > 0"),
        };
        format!(
            "move all of box to deck
  move top(deck) to cell(g, 2, 3)
  move top(deck) to cell(g, 1, 4)
  for r in 1..3 {{ for k in 1..4 {{
    let z = cell(g, r, k)
    a += (r * 10 + k) * {count_of}
    if {filled} {{ b += r * 10 + k }}
  }} }}
  let two = 2
  let z = cell(g, two + 1 - 1, 6 / 2)
  if count(cell(g, 2, 3)) == 1 and count(cell(g, two, two + 1)) == 1 and {count_z} {{ n += 1 }}
  if step(cell(g, 0, 1), 1, 0) == none and step(cell(g, 3, 4), 1, 0) == none {{ n += 10 }}",
            count_z = if form == "in place" { "count(cell(g, two + 1 - 1, 6 / 2)) == 1" } else { "count(z) == 1" },
        )
    };
    let mut seen = Vec::new();
    for form in ["in place", "general"] {
        let (g, st) = started(&in_setup(decls, &body(form)));
        seen.push(["a", "b", "n"].map(|name| value(&g, &st, name)));
    }
    assert_eq!(seen[0], ["37", "37", "11"].map(String::from));
    assert_eq!(seen[0], seen[1]);
    for (in_place, general) in [
        ("a = count(cell(g, 4, 1))", "let z = cell(g, 4, 1)\n  a = count(z)"),
        ("let r = 2\n  a = count(cell(g, r, 0))", "let r = 2\n  let z = cell(g, r, 0)\n  a = count(z)"),
        ("let r = none\n  a = count(cell(g, r, 1))", "let r = none\n  let z = cell(g, r, 1)\n  a = count(z)"),
    ] {
        let (x, y) = (failure(&in_setup(decls, in_place)), failure(&in_setup(decls, general)));
        assert_eq!((x.kind.code(), &x.message), (y.kind.code(), &y.message), "{in_place}");
    }
}

/// "Is the piece in front in this space `p`'s?" asked with its guard
/// (`count(s) > 0 and owner(top(s)) == p`, read in one closure) gives what
/// the general `and` gives: in a function and not, under `not` (of the
/// test, of a call whose arguments are locals or not), with `!=`, either
/// side first, a `>= 1` or `!= 0` guard, a player that is `none` (a local
/// or written), and neutral tokens whose owner is nobody. The general form
/// has a part that is not a test first (`k >= 0 and`), so it is not read
/// as one closure.
#[test]
fn the_owner_of_the_front_piece_with_its_guard_gives_the_general_answers() {
    let rules = |lead: &str| {
        format!(
            "rulebook a {{ players 2..2 }}
grid board 3 x 4
piece mark per_player 6
zone pencil per_player of mark
token dot 3
counter seen 0..1000000000 = 0
fn mine(s: space, q: player, k: int) = {lead}count(s) > 0 and owner(top(s)) == q
setup {{
  for p in players {{ move 6 of mark from box to pencil[p] }}
  move top(box) to cell(board, 2, 2)
  move top(box) to cell(board, 1, 4)
}}
round turn {{
  for p in players {{
    let k = 0
    let nobody = none
    choose c from spaces(board) where count(c) == 0 by p
    move top(pencil[p]) to c
    seen = count z in spaces(board) where mine(z, p, k)
    seen += 100 * count z in spaces(board) where not mine(z, p, k)
    seen += 1000 * count z in spaces(board) where not mine(z, p, k) and not mine(z, next_player(p, clockwise), k)
    seen += 10000 * count z in spaces(board) where not ({lead}count(z) >= 1 and p != owner(top(z)))
    seen += 100000 * count z in spaces(board) where not ({lead}count(z) != 0 and owner(top(z)) == none)
    seen += 3 * count z in spaces(board) where mine(z, nobody, k)
    seen += 7 * count z in spaces(board) where not ({lead}count(z) > 0 and nobody == owner(top(z)))
    if all z in spaces(board) where count(z) > 0 {{ draw }}
  }}
}}"
        )
    };
    let (bare, general) = (two_players(rules("")), two_players(rules("k >= 0 and ")));
    let mut counts = std::collections::HashSet::new();
    the_same_games(&bare, &general, |st| {
        counts.insert(st.counters[0]);
    });
    assert!(counts.len() > 5, "the counts hardly changed: the test compared little ({counts:?})");
    // A zone that is `none`: the same error at the same place.
    let broken = |lead: &str| format!("rulebook a {{ players 2..2 }}\ncounter n 0..9 = 0\nsetup {{\n  let k = 0\n  let z = none\n  if {lead}count(z) > 0 and owner(top(z)) == player(1) {{ n = 1 }}\n}}\nround turn {{ draw }}");
    let (fast, general) = (failure(&broken("")), failure(&broken("k >= 0 and ")));
    assert_eq!((fast.kind.code(), &fast.message, fast.at.map(|l| l.span)), (general.kind.code(), &general.message, general.at.map(|l| l.span)));
}
