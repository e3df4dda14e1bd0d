//! The decisions and board built-ins of docs/language.md ("Decisions",
//! "Expressions"), one small rulebook per promise: options over tuples and
//! their order, `else` when there is no option, forced plies, `count ...
//! while`, `[x in C while P]`, `step`, `in_a_row`, hexagonal grids, `pieces(kind, player)`,
//! and `move N of KIND` out of the box into a player's zone.

use grimoire_interpreter::engine::{Game, State};
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn game(text: &str, players: u8) -> Game {
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:#?}"));
    Game::new(Arc::new(model), players, &[]).expect("valid player count")
}

/// The value of a public counter or var, as `observe` shows it.
fn value(game: &Game, st: &State, name: &str) -> String {
    let prefix = format!("{name} = ");
    game.observe(st, 0).values.iter().find_map(|v| v.strip_prefix(prefix.as_str()).map(str::to_owned)).unwrap_or_else(|| panic!("no value {name}"))
}

fn labels(game: &Game, st: &State) -> Vec<String> {
    let (_, options) = game.choices(st).expect("a decision is pending");
    options.iter().map(|o| game.option_label(o)).collect()
}

const BOARD: &str = r#"rulebook b { players 2..2 }
piece pawn per_player 2 assume "x"
grid board 3 x 3 assume "x"
zone reserve per_player of pawn
counter n 0..1000 = 0
"#;

/// `BOARD` with each player's pawns in their reserve, and `body` as the
/// round.
fn in_turn(body: &str) -> String {
    format!("{BOARD}\nsetup {{ for p in players {{ move 2 of pawn from box to reserve[p] }} }}\nround turn {{\n  {body}\n}}")
}

#[test]
fn a_decision_over_tuples_lists_them_in_binding_order_and_sets_each_name() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{ for p in players {{ move 2 of pawn from box to reserve[p] }} }}
round turn {{
  choose a from [1, 2], b from [10, 20, 30] where b != 20 by player(1)
  n = a * 100 + b
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("starts");
    assert_eq!(labels(&g, &st), ["1, 10", "1, 30", "2, 10", "2, 30"]);
    let mut after = st.clone();
    g.apply(&mut after, 3).expect("a legal option");
    assert_eq!(value(&g, &after, "n"), "230");
}

#[test]
fn a_later_binding_ranges_over_what_the_earlier_one_chose() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{ for p in players {{ move 2 of pawn from box to reserve[p] }} }}
round turn {{
  choose r from 1..2, c from r..3 by player(1)
  n = r * 10 + c
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("starts");
    assert_eq!(labels(&g, &st), ["1, 1", "1, 2", "1, 3", "2, 2", "2, 3"]);
}

#[test]
fn no_option_runs_else_with_the_names_at_none_and_without_else_is_a_deadlock() {
    let text = |with_else: &str| in_turn(&format!("choose x from [1, 2, 3] where x > 5 by player(1) {with_else}\n  if x == none {{ n += 7 }}\n  draw"));
    let g = game(&text("else { n += 1 }"), 2);
    let st = g.start(0).expect("the else block runs instead of a deadlock");
    assert!(st.is_over());
    assert_eq!(value(&g, &st, "n"), "8");
    let g = game(&text(""), 2);
    assert_eq!(g.start(0).err().map(|e| e.kind.code()), Some("R0001"));
}

/// The names a `choose` binds can be read in its `else` block, where they
/// hold `none` (docs/language.md, "Decisions"), even when the same
/// statement gave them a value before: here a first pass takes 3, and the
/// second, left with no option, runs `else`. So with several bindings,
/// with `at random`, and with a walk whose condition is tests read in
/// place (which binds its name only to the items that hold).
#[test]
fn the_names_of_a_choose_hold_none_inside_its_else() {
    let looped = |choose: &str| in_turn(&format!("while n < 100 {{
  {choose} else {{ if x == none {{ n += 100 }} else {{ n += 1000 }} }}
  if x != none {{ n = x }}
  }}
  draw"));
    let g = game(&looped("choose x from 1..3 where x > n by player(1)"), 2);
    let mut st = g.start(0).expect("starts");
    assert_eq!(labels(&g, &st), ["1", "2", "3"]);
    g.apply(&mut st, 2).expect("a legal option");
    assert!(st.is_over());
    assert_eq!(value(&g, &st, "n"), "103", "x held `none` in `else`, not the 3 taken before");
    let g = game(&looped("choose x from 3..3 where x > n at random"), 2);
    assert_eq!(value(&g, &g.start(0).expect("plays"), "n"), "103");
    let once = |choose: &str, test: &str| in_turn(&format!("{choose} else {{ if {test} {{ n += 1 }} else {{ n += 10 }} }}
  draw"));
    let g = game(&once("choose a from 1..3, b from [4, 5] where a + b > 9 by player(1)", "a == none and b == none"), 2);
    assert_eq!(value(&g, &g.start(0).expect("plays"), "n"), "1");
    let g = game(&once("choose a from 1..3, b from [4, 5] where a + b > 9 at random", "a == none and b == none"), 2);
    assert_eq!(value(&g, &g.start(0).expect("plays"), "n"), "1");
    let g = game(&once("choose z from spaces(board) where count(z) > 0 by player(1)", "z == none"), 2);
    assert_eq!(value(&g, &g.start(0).expect("plays"), "n"), "1");
}

#[test]
fn a_forced_choice_is_a_ply_but_not_a_decision_except_when_exploring() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{ for p in players {{ move 2 of pawn from box to reserve[p] }} }}
round turn {{
  choose x from [4] by player(1)
  choose y from [5, 6] by player(2)
  n = x + y
  draw
}}"#
        ),
        2,
    );
    let mut st = g.start(0).expect("starts");
    assert_eq!((st.plies, st.decisions), (1, 0), "the forced choice was taken");
    g.apply(&mut st, 1).expect("legal");
    assert_eq!((st.plies, st.decisions), (2, 1));
    assert_eq!(value(&g, &st, "n"), "10");
    let explored = g.start_exploring().expect("starts");
    assert_eq!(labels(&g, &explored), ["4"], "exploration stops at the forced ply");
}

#[test]
fn while_keeps_the_leading_items_only() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{
  n = (count x in [1, 2, 5, 1] while x < 3) * 100 + (count x in [1, 2, 5, 1] where x < 3) * 10
  n += sum x in [x in [3, 4, 1, 9] while x > 2] of 1
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "232");
}

#[test]
fn step_gives_the_cell_that_far_away_and_none_off_the_grid_or_the_board() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{
  for p in players {{ move 2 of pawn from box to reserve[p] }}
  if step(cell(board, 2, 2), -1, 1) == cell(board, 1, 3) {{ n += 1 }}
  if step(cell(board, 1, 1), 2, 2) == cell(board, 3, 3) {{ n += 10 }}
  if step(cell(board, 1, 1), -1, 0) == none {{ n += 100 }}
  if step(reserve[player(1)], 1, 0) == none {{ n += 200 }}
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "311");
}

#[test]
fn in_a_row_measures_the_longest_straight_run_through_a_cell() {
    // Player 1's pawns on the anti-diagonal (1,3) (2,2) and player 2's on (2,1):
    // through (2,2) the diagonal run is 2, the row run of any pawn is 2.
    let g = game(
        &format!(
            r#"{BOARD}
fn mine(z: space, p: player) = any m in z where owner(m) == p
setup {{
  for p in players {{ move 2 of pawn from box to reserve[p] }}
  move top(reserve[player(1)]) to cell(board, 1, 3)
  move top(reserve[player(1)]) to cell(board, 2, 2)
  move top(reserve[player(2)]) to cell(board, 2, 1)
  n = (in_a_row z through cell(board, 2, 2) where mine(z, player(1))) * 100
  n += (in_a_row z through cell(board, 2, 2) where count(z) > 0) * 10
  n += in_a_row z through cell(board, 3, 3) where count(z) > 0
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "220");
}

/// A hexagonal grid: six neighbours in reading order (the two cells above,
/// the two beside, the two below), two or three at a corner, and three
/// lines for `in_a_row`: the diagonal up and to the left of a square grid
/// does not touch.
#[test]
fn a_hexagonal_grid_gives_six_neighbours_and_three_lines() {
    let text = r#"rulebook b { players 2..2 }
piece stone 3 assume "x"
grid board 3 x 3 hex assume "x"
counter n 0..100000 = 0
setup {
  move 3 of stone from box to cell(board, 1, 3)
  move top(cell(board, 1, 3)) to cell(board, 3, 1)
  move top(cell(board, 1, 3)) to cell(board, 2, 2)
  n = in_a_row z through cell(board, 2, 2) where count(z) > 0
  n += (count x in neighbors(cell(board, 1, 1)) where true) * 10
  n += (count x in neighbors(cell(board, 1, 3)) where true) * 100
  n += (in_a_row z through cell(board, 2, 2) where z == cell(board, 1, 1) or z == cell(board, 2, 2) or z == cell(board, 3, 3)) * 1000
  n += (count x in (region z from cell(board, 1, 3) where count(z) > 0) where true) * 10000
}
round turn { choose x from neighbors(cell(board, 2, 2)) by player(1) }
"#;
    let g = game(text, 2);
    let st = g.start(0).expect("runs");
    // The anti-diagonal (1,3) (2,2) (3,1) is a line of three; (1,1) has two
    // neighbours, (1,3) three; (1,1) (2,2) (3,3) is no line (1, where a
    // square grid gives 3); the three stones touch in a chain (a square
    // grid's region would be the one cell).
    assert_eq!(value(&g, &st, "n"), "31323");
    assert_eq!(labels(&g, &st), ["board 1,2", "board 1,3", "board 2,1", "board 2,3", "board 3,1", "board 3,2"]);
}

#[test]
fn pieces_of_a_player_and_moves_out_of_the_box_give_each_player_their_own() {
    let g = game(
        &format!(
            r#"{BOARD}
setup {{
  for p in players {{ move 2 of pawn from box to reserve[p] }}
  n = count m in pieces(pawn, player(2)) where holder(m) == player(2)
  n += 10 * (count m in pieces(pawn) where owner(m) == holder(m))
  draw
}}"#
        ),
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "42");
}

#[test]
fn a_rulebook_that_named_something_step_before_the_built_in_keeps_its_meaning() {
    // `step` became a built-in after rulebooks could use the name.
    let g = game(
        r#"rulebook old { players 2..2 }
counter n 0..100 = 0
fn step(x: int) = x * 10
setup assume "x" { n = step(4) }
round turn assume "x" { draw }"#,
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "40", "the rulebook's own `step` is called");
    let g = game(
        r#"rulebook old { players 2..2 }
spacetype step assume "x"
track lane linear assume "x" { 1..3: step }
counter n 0..100 = 0
setup assume "x" { n = count z in spaces(lane) where tagged(z, step) }
round turn assume "x" { draw }"#,
        2,
    );
    let st = g.start(0).expect("runs");
    assert_eq!(value(&g, &st, "n"), "3", "a space type may still be called `step`");
}

/// A board game written square to square: a rulebook where the condition's
/// first parts read only the square moved from.
fn squares(cond: &str) -> String {
    format!(
        r#"rulebook b {{ players 2..2 }}
piece pawn per_player 3 assume "x"
grid board 3 x 3 assume "x"
setup {{
  for c in 1..3 {{ move first m in pieces(pawn, player(1)) where zone_of(m) == box to cell(board, 1, c) }}
  for c in 1..3 {{ move first m in pieces(pawn, player(2)) where zone_of(m) == box to cell(board, 3, c) }}
}}
fn mine(z: space, p: player) = count(z) > 0 and owner(top(z)) == p
round turn {{
  for p in players {{
    choose src from spaces(board), dst from spaces(board) where {cond} by p else {{ win next_player(p, clockwise) }}
    move top(src) to dst
  }}
}}"#
    )
}

/// With several bindings, the parts of `where` that read only the first
/// ones are tested once for those values and cut the walk short: the
/// options, their order and the games are those of the condition tested
/// whole for each tuple (here, the same parts with the one reading `dst`
/// written first, which nothing can test early).
#[test]
fn parts_of_a_condition_tested_early_give_the_options_of_the_whole_condition() {
    let early = game(&squares("mine(src, p) and count(dst) == 0 and row(dst) != row(src)"), 2);
    let whole = game(&squares("count(dst) == 0 and mine(src, p) and row(dst) != row(src)"), 2);
    for seed in 0..20 {
        let (mut a, mut b) = (early.start(seed).expect("starts"), whole.start(seed).expect("starts"));
        let mut plies = 0;
        while !a.is_over() && plies < 40 {
            let (la, lb) = (labels(&early, &a), labels(&whole, &b));
            assert_eq!(la, lb, "seed {seed}, ply {plies}");
            assert!(!la.is_empty());
            let pick = (seed as usize + plies) % la.len();
            early.apply(&mut a, pick).expect("plays");
            whole.apply(&mut b, pick).expect("plays");
            plies += 1;
        }
        assert_eq!(a.is_over(), b.is_over());
    }
}

/// A rulebook whose round asks, a dozen times, which piece of player 1
/// steps where, over a 5 x 5 board's cells and two lists of directions:
/// the first list written as constants (`first_dr` = "-1"), which lets the
/// part about the cell alone (`mine(z)`) be tested as soon as the cell is
/// bound, or starting with a local holding the same number, which makes
/// the walk go down to its first tuple before testing it.
fn steps(fuel: u64, first_dr: &str) -> String {
    format!(
        r#"rulebook s {{ players 2..2 step_fuel {fuel} }}
piece pawn per_player 3 assume "x"
grid board 5 x 5 assume "x"
counter n 0..1000 = 0
setup {{
  for c in 1..3 {{ move first m in pieces(pawn, player(1)) where zone_of(m) == box to cell(board, 2, c + 1) }}
  for c in 1..3 {{ move first m in pieces(pawn, player(2)) where zone_of(m) == box to cell(board, 4, c) }}
}}
fn mine(z: space) = count(z) > 0 and owner(top(z)) == player(1)
fn free(z: space) = z != none and count(z) == 0
round turn {{
  let minus = -1
  repeat 12 {{
    choose z from spaces(board), dr from [{first_dr}, 1], dc from [-1, 0, 1] where mine(z) and free(step(z, dr, dc)) at random
    move top(z) to step(z, dr, dc)
    n += 1
  }}
  choose z from spaces(board), dr from [{first_dr}, 1], dc from [-1, 0, 1] where mine(z) and free(step(z, dr, dc)) by player(1)
  draw
}}"#
    )
}

/// An early part whose later collections are constants, never empty, is
/// tested as soon as its binding is (the walk below is sure to reach a
/// tuple): the same options in the same order, the same game, the same
/// fuel to the step, and the same state, the names the walk leaves bound
/// included (the raw fingerprint hashes every local), as the walk that
/// goes down to its first tuple to test it.
#[test]
fn an_early_part_before_constant_collections_is_tested_at_once_as_at_the_first_tuple() {
    // A part that fails with an error fails as at the first tuple.
    for first_b in ["1", "one"] {
        let g = game(&in_turn(&format!("let one = 1\n  choose a from 1..3, b from [{first_b}, 2] where 10 / (a - a) > 0 by player(1)\n  draw")), 2);
        assert_eq!(g.start(0).err().map(|e| e.kind.code()), Some("R0012"), "b from [{first_b}, 2]");
    }
    let least = |first_dr: &str| crate::fast_paths::least_step_fuel("the steps", |fuel| game(&steps(fuel, first_dr), 2).start(3).is_ok());
    assert_eq!(least("-1"), least("minus"));
    let (at_once, down) = (game(&steps(1_000_000, "-1"), 2), game(&steps(1_000_000, "minus"), 2));
    for seed in 0..10 {
        let (a, b) = (at_once.start(seed).expect("starts"), down.start(seed).expect("starts"));
        assert_eq!(labels(&at_once, &a), labels(&down, &b), "seed {seed}");
        assert!(!labels(&at_once, &a).is_empty());
        assert_eq!(a.fingerprint(), b.fingerprint(), "seed {seed}");
    }
}

/// An early part is tested where the plain nested loops would first have
/// tested it: never for a value with no tuple at all (no new error), and
/// once it failed, the later collection is not walked further for that
/// value (the division by zero after it is not reached).
#[test]
fn an_early_part_is_tested_at_the_first_tuple_and_cuts_the_rest() {
    let text = |choose: &str| in_turn(&format!("{choose} by player(1) else {{ n += 1 }}\n  draw"));
    let g = game(&text("choose a from 1..3, b from [x in 1..3 where x > 5] where 10 / (a - a) > 0"), 2);
    let st = g.start(0).expect("no tuple, so the part is never tested");
    assert_eq!(value(&g, &st, "n"), "1");
    let g = game(&text("choose a from 1..3, b from [0, 10 / (a - 1)] where a == 2"), 2);
    let st = g.start(0).expect("a = 1 fails before its second `b` is worked out");
    assert_eq!(labels(&g, &st), ["2, 0", "2, 10"]);
    let g = game(&text("choose a from 1..3, b from [0, 10 / (a - 1)] where b >= 0 and a == 2"), 2);
    assert_eq!(g.start(0).err().map(|e| e.kind.code()), Some("R0012"), "tested whole, every `b` of a = 1 is worked out");
}

/// A function called with names or constants is opened: the parts of its
/// body are parts of the condition, tested early as if written in place
/// (the division by zero of a = 1 is not reached, as in the test above);
/// the options are those of the condition tested whole. A call with
/// another argument is one part, tested for each tuple.
#[test]
fn the_parts_of_a_function_called_in_a_condition_are_tested_early() {
    let text = |choose: &str| in_turn(&format!("{choose} by player(1) else {{ n += 1 }}\n  draw")).replace("round turn", "fn ok(a: int, b: int) = a == 2 and b >= 0\nround turn");
    let g = game(&text("choose a from 1..3, b from [0, 10 / (a - 1)] where ok(a, b)"), 2);
    let st = g.start(0).expect("a = 1 fails before its second `b` is worked out");
    assert_eq!(labels(&g, &st), ["2, 0", "2, 10"]);
    let g = game(&text("choose a from 1..3, b from [0, 10 / (a - 1)] where ok(a + 0, b)"), 2);
    assert_eq!(g.start(0).err().map(|e| e.kind.code()), Some("R0012"), "not opened: tested whole");
    let nested = game(&squares("legal(src, dst, p)").replace("round turn", "fn legal(s: space, d: space, p: player) = mine(s, p) and count(d) == 0 and row(d) != row(s)\nround turn"), 2);
    let whole = game(&squares("count(dst) == 0 and mine(src, p) and row(dst) != row(src)"), 2);
    for seed in 0..10 {
        let (mut a, mut b) = (nested.start(seed).expect("starts"), whole.start(seed).expect("starts"));
        let mut plies = 0;
        while !a.is_over() && plies < 40 {
            let (la, lb) = (labels(&nested, &a), labels(&whole, &b));
            assert_eq!(la, lb, "seed {seed}, ply {plies}");
            let pick = (seed as usize + plies) % la.len().max(1);
            nested.apply(&mut a, pick).expect("plays");
            whole.apply(&mut b, pick).expect("plays");
            plies += 1;
        }
    }
}

/// Two options that would read alike ("pawn of player 1, 1") show each
/// piece with its zone, as `play`, logs and scenarios see them; options
/// told apart by their values keep their plain labels.
/// Two pawns of player 1 on the board, and a choice of one of them and of
/// a number.
fn two_pawns_on_the_board(scenarios: &str) -> String {
    format!(
        r#"{BOARD}
setup {{
  for p in players {{ move 2 of pawn from box to reserve[p] }}
  move top(reserve[player(1)]) to cell(board, 1, 1)
  move top(reserve[player(1)]) to cell(board, 2, 3)
}}
round turn {{
  choose m from pieces(pawn, player(1)), d from [1, 2] by player(1)
  choose k from [1, 2] by player(1)
  draw
}}
{scenarios}"#
    )
}

/// A scenario names such an option by the label `play` shows; the plain
/// label, which several options share, fails and says so.
#[test]
fn a_scenario_tells_options_that_read_alike_apart_by_their_zones() {
    use grimoire_interpreter::scenario::{run_all, Verdict};
    let text = two_pawns_on_the_board(
        r#"scenario by_zone players 2 { choose "pawn of player 1 (board 1,1), 2" choose "1" expect decider == none }
scenario plain players 2 { choose "pawn of player 1, 2" }"#,
    );
    let sources = [Source { name: "t.rules".into(), text }];
    let model = compile(&sources).unwrap_or_else(|d| panic!("{d:#?}"));
    let results = run_all(&model, &sources, |_| true);
    let verdict = |name: &str| &results.iter().find(|r| r.name == name).expect("ran").verdict;
    assert!(verdict("by_zone").passed(), "{:#?}", verdict("by_zone"));
    match verdict("plain") {
        Verdict::Failed(f) => assert!(f.found.starts_with("2 options read \"pawn of player 1, 2\", told apart by where their pieces are"), "{}", f.found),
        other => panic!("the plain label is ambiguous: {other:?}"),
    }
}

#[test]
fn options_that_read_alike_show_where_their_pieces_are() {
    let g = game(&two_pawns_on_the_board(""), 2);
    let st = g.start(0).expect("starts");
    let shown = g.option_labels(&st);
    assert_eq!(labels(&g, &st)[0], "pawn of player 1, 1", "the plain label reads alike");
    let mut expected: Vec<String> = Vec::new();
    for cell in ["board 2,3", "board 1,1"] {
        for d in [1, 2] {
            expected.push(format!("pawn of player 1 ({cell}), {d}"));
        }
    }
    // Which pawn comes first depends on the order of `pieces`, not checked here.
    let mut sorted_shown = shown.clone();
    sorted_shown.sort();
    expected.sort();
    assert_eq!(sorted_shown, expected);
    assert_eq!(g.observe(&st, 0).options.as_deref(), Some(&shown[..]));
    let mut next = st.clone();
    g.apply(&mut next, 0).expect("a legal option");
    assert_eq!(g.option_labels(&next), ["1", "2"]);
}

/// A log records the labels `play` shows; a log written before options that
/// read alike were told apart (with the plain label) still replays.
#[test]
fn logs_record_the_zones_and_older_logs_with_plain_labels_replay() {
    use grimoire_interpreter::log::{random_playout, replay};
    let g = game(&two_pawns_on_the_board(""), 2);
    let played = random_playout(&g, &["t.rules".to_string()], 3, 100).expect("plays");
    let first = &played.log.steps[0].label;
    assert!(first.contains("(board "), "{first}");
    assert!(replay(&g, &played.log).is_ok());
    let mut older = played.log.clone();
    let st = g.start(3).expect("starts");
    let (_, options) = g.choices(&st).expect("a decision");
    older.steps[0].label = g.option_label(options.get(older.steps[0].choice as usize).expect("the option taken"));
    assert!(!older.steps[0].label.contains("(board "));
    assert!(replay(&g, &older).is_ok(), "{:?}", replay(&g, &older).err());
    older.steps[0].label = "pawn of player 2, 1".into();
    assert!(replay(&g, &older).is_err(), "a label of no option is still a mismatch");
}

/// Compile `text` and run its scenarios: each must pass.
pub(crate) fn every_scenario_passes(text: &str) {
    let sources = [Source { name: "t.rules".into(), text: text.into() }];
    let model = compile(&sources).unwrap_or_else(|d| panic!("{d:#?}"));
    for r in grimoire_interpreter::scenario::run_all(&model, &sources, |_| true) {
        assert!(r.verdict.passed(), "{}: {:#?}", r.name, r.verdict);
    }
}

/// Two edges between the same nodes (a road and a river) make one
/// neighbour with both tags; a ring of two spaces has one neighbour, not
/// the same one met both ways round.
#[test]
fn parallel_edges_and_a_ring_of_two_give_each_neighbour_once() {
    let text = r#"rulebook roads { players 2..2 }
spacetype road
spacetype river
spacetype plain
graph land {
  node a
  node b
  node c
  edge a - b road
  edge a - b river
  edge a - c road
}
track loop2 circular { 1..2: plain }
round turn { choose x from neighbors(a) by player(1) }
scenario tags { expect linked(a, b, road) and linked(b, a, river) and not linked(a, c, river) }
scenario each_once { expect options == ["b", "c"] }
scenario ring_of_two { expect (count s in neighbors(space(loop2, 1)) where true) == 1 }
"#;
    every_scenario_passes(text);
}

/// Negative numbers are ints too: as a variant's attribute and as a table
/// key (both were a syntax error).
#[test]
fn attributes_and_table_keys_may_be_negative() {
    let text = r#"rulebook signs { players 2..2 }
card c 2 { curse x1 points=-2 blessing x1 points=3 }
table shift(n) -> (v) { -2..-1 => (10) 0 => (20) 1..3 => (30) }
zone deck of c
setup { move 2 of c from box to deck }
round turn { choose k from [1, 2] by player(1) }
scenario read { expect (sum x in deck of x.points) == 1 and shift(-1).v == 10 and shift(-2).v == 10 and shift(0).v == 20 }
"#;
    every_scenario_passes(text);
}

/// Alike pieces in one zone keep their plain label: the zone would tell
/// them apart no better.
#[test]
fn alike_pieces_in_one_zone_keep_their_plain_label() {
    let g = game(&in_turn("choose m from pieces(pawn, player(1)) by player(1)\n  draw"), 2);
    let st = g.start(0).expect("starts");
    assert_eq!(g.option_labels(&st), ["pawn of player 1", "pawn of player 1"]);
}
