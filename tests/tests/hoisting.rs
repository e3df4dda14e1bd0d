//! What a walk computes once (hoist.rs) gives the game where it is computed
//! for every item: each rulebook below is played side by side with its
//! twin, written so that the computation reads the walk's name without using
//! it (an extra parameter), which keeps it from being computed once.

use super::fast_paths::{least_step_fuel, side_by_side, two_players};

/// A `choose` whose condition calls a function, or walks a collection, that
/// reads none of the names the walk binds computes it once per decision
/// (hoist.rs); the game must be the one where it is computed for every
/// tuple, written so that it reads a binding it does not use: the same
/// options in the same order, the same outcomes, the same least fuel (each
/// reading is charged the computation's steps), and the same error where
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
    assert_eq!(least_fuel(hoisting, true, 3), least_fuel(hoisting, false, 3));
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
    assert_eq!(least_fuel(walks, true, 5), least_fuel(walks, false, 5));
}

/// The least fuel, to the step, with which the first six decisions of the
/// game from `seed` run (the first option each time), in the form `once`
/// or its twin of the rulebook `text(fuel, once)`.
fn least_fuel(text: fn(u64, bool) -> String, once: bool, seed: u64) -> u64 {
    least_step_fuel("six decisions", |fuel| {
        let g = two_players(text(fuel, once));
        let Ok(mut st) = g.start(seed) else { return false };
        (0..6).all(|_| g.choices(&st).is_none() || g.apply(&mut st, 0).is_ok())
    })
}
