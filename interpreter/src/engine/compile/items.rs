//! The collections a comprehension, a `choose` or a `for` walks most often
//! (`players`, a range, the spaces of a board, the pieces of a kind, the
//! contents of a zone, the neighbours of a space, a list `[a, b, c]`, the
//! cells of `line(cell, drow, dcol)`), walked in place by the
//! code that uses them: the walk is generic over what is done with each
//! item, so the compiler inlines it into the loop instead of calling a
//! visitor closure per item. Any other collection keeps its closure
//! ([`Items::Dyn`]).
//!
//! Measured on connect four and tic-tac-toe, where a comprehension over the
//! spaces of the board runs several times per ply, the visitor call per item
//! was the largest single cost of a random game.

use super::conds::{all_hold, Coord, ItemTest, OneLine, Test};
use super::operands::{IdOp, IntOp, ValOp};
use super::{CollF, Visit, NO_PLAYER};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::Loc;

/// A collection, by shape.
pub(crate) enum Items {
    /// Every player, in order.
    Players(u8),
    /// `a..b`, both ends included.
    Range(IntOp, IntOp, Loc),
    /// The spaces of a board: zones `base..base + len`.
    Spaces { base: u16, len: u16 },
    /// The pieces of a kind: instances `first..first + n`.
    Pieces { first: u16, n: u16 },
    /// The pieces of one player of a kind of `each` per player.
    PiecesOf { first: u16, n: u16, each: u16, player: IdOp },
    /// The pieces in a zone, front to back.
    Contents(IdOp),
    /// The neighbours of a space.
    Neighbors(IdOp),
    /// `[a, b, c]`: each item evaluated as the walk reaches it.
    List(Box<[ValOp]>),
    /// `line(cell, drow, dcol)`: the cells met going straight to the edge.
    Line(Box<(IdOp, IntOp, IntOp)>),
    /// Any other collection.
    Dyn(CollF),
}

impl Items {
    /// Walk the items in order, calling `visit` on each; `false` from it
    /// stops the walk, and the walk then returns `false`. Each item costs a
    /// step of fuel, as every collection's does.
    #[inline(always)]
    pub(crate) fn walk(&self, r: &mut Run, mut visit: impl FnMut(&mut Run, Value) -> bool) -> bool {
        match self {
            Items::Players(n) => (0..*n).all(|p| r.going() && visit(r, Value::player(p))),
            Items::Range(a, b, at) => {
                let (x, y) = (a.get(r), b.get(r));
                // `x..y` holds `y - x + 1` items.
                if y.saturating_sub(x) >= super::collections::MAX_RANGE {
                    too_long(r, x, y, *at);
                    return false;
                }
                (x..=y).all(|i| r.going() && visit(r, Value::Int(i)))
            }
            Items::Spaces { base, len } => (*base..base + len).all(|z| r.going() && visit(r, Value::zone(z))),
            Items::Pieces { first, n } => (*first..first + n).all(|p| r.going() && visit(r, Value::piece(p))),
            Items::PiecesOf { first, n, each, player } => pieces_of(r, *first, *n, *each, player).all(|x| r.going() && visit(r, Value::piece(x))),
            Items::Contents(z) => {
                let z = z.get(r);
                let mut p = r.st.head.get(z as usize).copied().unwrap_or(NIL);
                while p != NIL {
                    let next = r.st.next.get(p as usize).copied().unwrap_or(NIL);
                    if !(r.going() && visit(r, Value::piece(p))) {
                        return false;
                    }
                    p = next;
                }
                true
            }
            Items::Neighbors(z) => {
                let z = z.get(r);
                let g = r.g;
                match g.geometry.adjacent.get(z as usize) {
                    Some(list) => list.iter().all(|(x, _)| r.going() && visit(r, Value::zone(*x))),
                    None => true,
                }
            }
            Items::List(items) => items.iter().all(|item| {
                let v = item.get(r);
                r.going() && visit(r, v)
            }),
            Items::Line(line) => {
                let (z, dr, dc) = &**line;
                let mut at = z.get(r);
                let (a, b) = (dr.get(r), dc.get(r));
                if (a, b) == (0, 0) || at == NIL {
                    return true;
                }
                while let Some(x) = r.g.geometry.step(at, a, b) {
                    if !(r.going() && visit(r, Value::zone(x))) {
                        return false;
                    }
                    at = x;
                }
                true
            }
            Items::Dyn(f) => f(r, &mut visit),
        }
    }

    /// Walk the items for which `cond` holds, calling `visit` on each
    /// (`false` from it stops the walk, which then returns `false`); the
    /// others cost their step and bind the walk's name, as in [`walk`].
    ///
    /// Over the cells of a grid, with a condition that starts by keeping
    /// one row or column (`col(z) == column`, `row(z) == 3`), only that
    /// line's cells are tried: the cells between them cannot hold, so they
    /// are charged their steps in one go, and the name is left bound to the
    /// last cell, as the whole walk leaves it. The fuel, the bindings and
    /// what is visited are those of the whole walk; with less fuel left
    /// than the grid has cells, the whole walk runs, so that it stops where
    /// it always did. Connect four's "the lowest empty cell of this
    /// column" tries 6 cells instead of up to 42.
    ///
    /// [`walk`]: Items::walk
    #[inline(always)]
    pub(crate) fn walk_kept<C: ItemTest>(&self, r: &mut Run, cond: &C, mut visit: impl FnMut(&mut Run, Value) -> bool) -> bool {
        if let Items::Spaces { base, len } = *self {
            if let Some(line) = cond.line(r) {
                if let Some(done) = walk_line(r, base, len, line, cond, &mut visit) {
                    return done;
                }
            }
        }
        if let Some((slot, tests)) = cond.bare() {
            if let Some(done) = self.walk_tested::<true>(r, slot, tests, &mut visit) {
                return done;
            }
        }
        self.walk(r, |r, item| if cond.holds(r, item) { visit(r, item) } else { true })
    }

    /// `all`: whether the condition holds for every item, walking them in
    /// order up to the first that fails, each costing its step and binding
    /// the walk's name, as in [`walk`]; with a condition of tests only, the
    /// name is bound only where it can be read, as in [`walk_kept`].
    ///
    /// [`walk`]: Items::walk
    /// [`walk_kept`]: Items::walk_kept
    #[inline(always)]
    pub(crate) fn every<C: ItemTest>(&self, r: &mut Run, cond: &C) -> bool {
        let mut failed = false;
        if let Some((slot, tests)) = cond.bare() {
            let mut stop = |_: &mut Run, _: Value| {
                failed = true;
                false
            };
            if self.walk_tested::<false>(r, slot, tests, &mut stop).is_some() {
                return !failed;
            }
        }
        self.walk(r, |r, item| {
            failed = !cond.holds(r, item);
            !failed
        });
        !failed
    }

    /// The walk of a condition of tests only (`tests`, the name bound to
    /// `slot`) over spaces, neighbours, pieces or numbers between constants, visiting
    /// the items for which the tests give `HOLDING` (`false`: those that
    /// fail, for `all`); `None` for the other collections.
    #[inline(always)]
    fn walk_tested<const HOLDING: bool>(&self, r: &mut Run, slot: u16, tests: &[Test], visit: &mut impl FnMut(&mut Run, Value) -> bool) -> Option<bool> {
        let all = |r: &mut Run, x: u16| all_hold(tests, r, i64::from(x)) == HOLDING;
        Some(match *self {
            Items::Spaces { base, len } => match *tests {
                // The usual "an empty space": one load and a compare per
                // space, the comparison worked out before the walk (a
                // branch on it at each space was a quarter of a 15 × 15
                // board's walk).
                [Test::Count(cmp, k)] => {
                    let band = cmp.band(k);
                    walk_bare(r, base..base + len, Value::zone, slot, |r, z| band.holds(r.st.len.get(usize::from(z)).map_or(0, |n| i64::from(*n))) == HOLDING, visit)
                }
                _ => walk_bare(r, base..base + len, Value::zone, slot, all, visit),
            },
            // A space's neighbours (`to from neighbors(zone_of(m)) where
            // count(to) == 0`), in the order of its adjacency list.
            Items::Neighbors(ref z) => {
                let z = z.get(r);
                let g = r.g;
                match g.geometry.adjacent.get(z as usize) {
                    Some(list) => walk_bare(r, list.iter().map(|(x, _)| *x), Value::zone, slot, all, visit),
                    None => true,
                }
            }
            Items::Pieces { first, n } => walk_bare(r, first..first + n, Value::piece, slot, all, visit),
            Items::PiecesOf { first, n, each, ref player } => {
                let ids = pieces_of(r, first, n, each, player);
                walk_bare(r, ids, Value::piece, slot, all, visit)
            }
            // Numbers between constants (`choose column from 1..7 where
            // count(cell(frame, 6, column)) == 0`); a range too long to
            // walk is left to the general walk, which says so.
            Items::Range(IntOp::Const(lo), IntOp::Const(hi), _) if hi.saturating_sub(lo) < super::collections::MAX_RANGE => match *tests {
                // The cells of one row by their column (connect four's
                // "a column that is not full", or the row an earlier
                // binding walks): the row's first cell worked out once,
                // then one load and a compare a number. The compiler made
                // sure every number names a cell.
                [Test::CellCount { base, cols, row: row @ (Coord::Const(_) | Coord::Bound(_)), col: Coord::Item, cmp, k }] => {
                    let (band, before) = (cmp.band(k), i64::from(base) + (row.fixed(r) - 1) * cols - 1);
                    walk_bare(r, lo..=hi, Value::Int, slot, |r, i| band.holds(r.st.len.get((before + i) as usize).map_or(0, |n| i64::from(*n))) == HOLDING, visit)
                }
                _ => walk_bare(r, lo..=hi, Value::Int, slot, |r, i| all_hold(tests, r, i) == HOLDING, visit),
            },
            _ => return None,
        })
    }

    /// What every item is, when the tests of `conds.rs` apply to it.
    pub(crate) fn gives(&self) -> Option<super::conds::Walked> {
        use super::conds::Walked;
        match self {
            Items::Spaces { .. } | Items::Neighbors(_) | Items::Line(_) => Some(Walked::Spaces),
            Items::Pieces { .. } | Items::PiecesOf { .. } | Items::Contents(_) => Some(Walked::Pieces),
            Items::Range(IntOp::Const(lo), IntOp::Const(hi), _) => Some(Walked::Numbers { lo: *lo, hi: *hi }),
            Items::Players(_) | Items::Range(..) | Items::List(_) | Items::Dyn(_) => None,
        }
    }

    /// The same walk with a visitor that is not known here (a filter over
    /// these items, which is itself a collection).
    pub(crate) fn walk_dyn(&self, r: &mut Run, visit: Visit) -> bool {
        match self {
            Items::Dyn(f) => f(r, visit),
            other => other.walk(r, visit),
        }
    }
}

/// The pieces of one player (`player`) of a kind of `each` per player whose
/// `n` pieces start at `first`: none for `none`.
#[inline(always)]
fn pieces_of(r: &mut Run, first: u16, n: u16, each: u16, player: &IdOp) -> std::ops::Range<u16> {
    let p = player.get(r);
    if p == u16::from(NO_PLAYER) {
        return 0..0;
    }
    let from = first + p * each;
    from..(from + each).min(first + n)
}

/// [`Items::walk_kept`] over the spaces, pieces or numbers `ids` (each the value
/// `item` makes of it) with a condition of tests only
/// ([`ItemTest::bare`]): the fuel and what is visited are the general
/// walk's, and so is the name's value whenever anything can read it: while
/// an item is visited, and after the walk (the last item tried).
#[inline(always)]
fn walk_bare<X: Copy>(r: &mut Run, ids: impl Iterator<Item = X>, item: fn(X) -> Value, slot: u16, holds: impl Fn(&mut Run, X) -> bool, visit: &mut impl FnMut(&mut Run, Value) -> bool) -> bool {
    let mut tried = None;
    let mut done = true;
    for x in ids {
        if !r.going() {
            done = false;
            break;
        }
        tried = Some(x);
        if holds(r, x) {
            r.set_local(slot, item(x));
            if !visit(r, item(x)) {
                return false;
            }
        }
    }
    if let Some(x) = tried {
        r.set_local(slot, item(x));
    }
    done
}

/// [`Items::walk_kept`] over the cells `base..base + len` when they are a
/// grid's and the fuel left covers them all; `None` otherwise.
#[inline(always)]
fn walk_line<C: ItemTest>(r: &mut Run, base: u16, len: u16, line: OneLine, cond: &C, visit: &mut impl FnMut(&mut Run, Value) -> bool) -> Option<bool> {
    let (rows, cols) = r.g.geometry.grid_of(base, len)?;
    if r.fuel < u64::from(len) {
        return None;
    }
    let (rows, cols) = (u64::from(rows), u64::from(cols));
    // The line's cells, as places in the walk (row by row, from 0).
    let (first, stride, count) = match line.number {
        Some(c) if line.column && (1..=cols as i64).contains(&c) => (c as u64 - 1, cols, rows),
        Some(row) if !line.column && (1..=rows as i64).contains(&row) => ((row as u64 - 1) * cols, 1, cols),
        _ => (0, 1, 0),
    };
    // Steps charged so far: every cell before the next one tried.
    let mut walked = 0u64;
    for k in 0..count {
        let place = first + k * stride;
        // `spend`, not a subtraction: the rest of the condition may have
        // spent fuel since the walk checked it had enough for every cell.
        if !r.spend(place - walked) || !r.going() {
            return Some(false);
        }
        walked = place + 1;
        let item = Value::zone(base + place as u16);
        if cond.holds_on_line(r, item) && !visit(r, item) {
            return Some(false);
        }
    }
    let len = u64::from(len);
    if walked < len {
        if !r.spend(len - walked) {
            return Some(false);
        }
        r.set_local(line.slot, Value::zone(base + (len - 1) as u16));
    }
    Some(true)
}

#[cold]
#[inline(never)]
fn too_long(r: &mut Run, x: i64, y: i64, at: Loc) {
    let max = super::collections::MAX_RANGE;
    r.fail(ExecErrorKind::OutOfRange, format!("the range {x}..{y} is too long to walk (at most {max} items)"), at);
}
