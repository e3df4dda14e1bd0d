//! What a walk computes once (hoist.rs) gives the game where it is computed
//! for every item: each rulebook below is played side by side with its
//! twin, written so that the computation reads the walk's name without using
//! it (an extra parameter), which keeps it from being computed once.

use super::fast_paths::{side_by_side, two_players};

/// A `choose` whose condition calls a function, or walks a collection, that
/// reads none of the names the walk binds computes it once per decision
/// (hoist.rs); the game must be the one where it is computed for every
/// tuple, written so that it reads a binding it does not use: the same
/// options in the same order, the same outcomes, and the same error where
/// the computation fails (a `none` read as a number in `late`, only once the
/// board fills up). Single and several bindings, the part alone and inside
/// an `or`, a count and a truth value, each `choose` run again and again in
/// one frame (its cache emptied each time).
fn hoisting(fuel: u64, hoisted: bool) -> String {
    let (b, z) = if hoisted { ("", "") } else { (", z: space", ", z") };
    let (b2, z2) = if hoisted { ("", "") } else { (", z: space", ", a") };
    format!(
        "rulebook a {{ players 2..2 step_fuel {fuel} }}
grid board 8 x 8
piece stone per_player 32
var nobody : player
counter moves 0..100 = 0
fn blocked(p: player{b}) = (count x in spaces(board) where count(x) > 0 and owner(top(x)) != p) >= 3
fn crowded(p: player{b2}) = count x in spaces(board) where count(x) > 0
fn late(p: player{b}) = moves > 9 and seat(nobody) > 0
round turn {{
  repeat 20 {{
    for p in players {{
      choose z from spaces(board) where count(z) == 0 and (not blocked(p{z}) or row(z) <= 2) and not late(p{z}) by p else {{ draw }}
      move first s in pieces(stone, p) where zone_of(s) == box to z
      choose a from spaces(board), c from [1, 2] where crowded(p{z2}) + c > 2 and count(a) == 0 by p else {{ moves += 1 }}
      moves += 1
      if moves > 14 {{ win p }}
    }}
  }}
}}"
    )
}

#[test]
fn what_a_choose_computes_once_is_what_it_computes_for_every_tuple() {
    let (once, every) = (two_players(hoisting(10_000_000, true)), two_players(hoisting(10_000_000, false)));
    // The raw fingerprints differ by the arguments the second form stores.
    let errors = (0..20u64).filter(|seed| side_by_side(&once, &every, *seed, false)).count();
    assert!(errors > 0, "some games reach the failing computation");
}

/// Comprehensions whose condition or value calls a function, or walks a
/// collection, that reads none of their names: `count`, `any`, `all`,
/// `first` and a filter walked by `for`, the computation alone and inside
/// `and`/`or`, a comprehension inside another's condition, a truth value
/// and a number, and a computation that fails (a `none` read as a number in
/// `late`, once the board fills up and a player has 20 points). The scores
/// change between walks, so a cache kept from one walk to the next gives
/// other leaders, and another game.
fn walks(fuel: u64, once: bool) -> String {
    let (bq, aq) = if once { ("", "") } else { (", x: player", ", q") };
    let (bs, as_) = if once { ("", "") } else { (", x: space", ", y") };
    format!(
        "rulebook a {{ players 2..2 step_fuel {fuel} }}
grid board 8 x 8
piece stone per_player 32
counter points per_player 0..1000 = 0
var nobody : player
fn best(p: player{bq}) = max r in players of points[r]
fn filled(p: player{bs}) = count x in spaces(board) where count(x) > 0
fn late(p: player{bq}) = (count x in spaces(board) where count(x) > 0) > 5 and seat(nobody) > 0
round turn {{
  for p in players {{
    choose z from spaces(board) where count(z) == 0 by p else {{ draw }}
    move first s in pieces(stone, p) where zone_of(s) == box to z
    points[p] += count y in spaces(board) where count(y) > 0 and row(y) == row(z)
    let leaders = count q in players where points[q] == best(p{aq})
    let crowd = count y in spaces(board) where filled(p{as_}) > 3 and count(y) > 0
    if crowd > 13 {{ points[p] += 1 }}
    if any y in spaces(board) where count(y) == 0 and filled(p{as_}) > 14 {{ win p }}
    if all q in players where points[q] < 20 or not late(p{aq}) {{ pass }}
    let w = first q in players where points[q] == best(p{aq}) and (any y in spaces(board) where count(y) > 0 and filled(p{as_}) > 9)
    if w != none and leaders == 1 {{ win w }}
    for q in [q in players where points[q] == best(p{aq})] {{ points[q] += 1 }}
  }}
}}"
    )
}

#[test]
fn what_a_comprehension_computes_once_is_what_it_computes_for_every_item() {
    let (once, every) = (two_players(walks(10_000_000, true)), two_players(walks(10_000_000, false)));
    let errors = (0..40u64).filter(|seed| side_by_side(&once, &every, *seed, false)).count();
    assert!(errors > 0 && errors < 40, "some games reach the failing computation, not all: {errors} of 40");
}

/// What is computed once is charged once: a `choose` over 900 pairs whose
/// condition counts 400 numbers that read none of its names takes about
/// 1,700 steps, where counting them for every pair would take 360,000 (an
/// outside tester's 10x10 draughts, its compulsory capture in the
/// condition, ran out of fuel as a rule that seems to loop).
#[test]
fn what_is_computed_once_is_charged_once() {
    let text = "rulebook a { players 2..2 step_fuel 5000 }
counter k 0..1000 = 0
fn many() = count i in 1..400 where i > k
round turn {
  choose a from 1..30, b from 1..30 where many() > 0 and a + b > 58 by player(1)
  win player(1)
}";
    let g = two_players(text.to_string());
    let mut st = g.start(1).unwrap_or_else(|e| panic!("{}: {}", e.kind.code(), e.message));
    let (_, options) = g.choices(&st).expect("a decision");
    assert_eq!(options.len(), 3, "(29, 30), (30, 29) and (30, 30): {options:?}");
    g.apply(&mut st, 0).expect("plays");
}
