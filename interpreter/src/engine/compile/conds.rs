//! The condition of a comprehension or a `choose` over the spaces of a
//! board, over pieces, or over a range of numbers. Most such conditions
//! start with tests of the item itself — is the space empty
//! (`count(z) == 0`), in this column (`col(z) == column`), of this type
//! (`tagged(z, village)`), is the piece this player's (`owner(d) == p`),
//! is it in this zone (`zone_of(d) != captured`), does its attribute match
//! (`d.item == c.item`), is the cell at this row
//! and column empty (`count(cell(frame, 6, column)) == 0`), or `not` one of
//! these — and those are read here in place, in the loop over the items,
//! instead of through one to four closures (each an indirect call) per
//! item; what follows them (if anything) keeps its closure.
//!
//! Only a prefix of an `and` chain is read in place, so every part is still
//! evaluated in the order written. Most tests cannot fail: the item is a
//! space, whose count, row, column and tags always exist, or a piece, whose
//! owner, kind and variant do, or a number of a range whose every cell the
//! test names is on its grid. An attribute can be missing: the test then
//! records the error its closure would, where the closure would. Each test
//! gives what the closure it replaces gave.
//!
//! Each walk is compiled once per kind of condition ([`with_cond!`]): with
//! one code for both, the walks without tests (most of those of Merlin and
//! Grail Cup) paid a few instructions per item for the tests they do not
//! have, which measured 4–7 % slower on those rulebooks.
//!
//! The tests and how they run are here; which parts of a condition are
//! tests is decided in `cond_tests.rs`.

use super::operands::{AttrRead, AttrTable};
use super::{BoolF, NONE_INT};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::value::Value;
use crate::model::*;
use crate::engine::state::NIL;
use grimoire_grammar::ast::BinOp;

/// How a number is compared with a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// [`Cmp::band`]: the numbers a comparison with a constant holds for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Band {
    low: i64,
    width: u64,
    outside: bool,
}

impl Band {
    #[inline(always)]
    pub(crate) fn holds(self, x: i64) -> bool {
        (x.wrapping_sub(self.low) as u64 <= self.width) != self.outside
    }
}

impl Cmp {
    /// The comparison a binary operator makes, if it is one.
    pub(super) fn of(op: &BinOp) -> Option<Cmp> {
        Some(match op {
            BinOp::Eq => Cmp::Eq,
            BinOp::Ne => Cmp::Ne,
            BinOp::Lt => Cmp::Lt,
            BinOp::Le => Cmp::Le,
            BinOp::Gt => Cmp::Gt,
            BinOp::Ge => Cmp::Ge,
            _ => return None,
        })
    }

    /// The comparison that holds where this one does not.
    fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }

    /// The same comparison with its sides swapped.
    pub(super) fn flipped(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            same => same,
        }
    }

    /// The numbers `x` for which `x <cmp> k` holds, as a band: they are
    /// those with `x - low` (wrapping) at most `width`, or (`outside`)
    /// all the others. One subtraction and one compare, with no branch on
    /// the comparison: what a walk tests at every space of a board.
    pub(crate) fn band(self, k: i64) -> Band {
        // No number is below the least one or above the greatest: then
        // the band is the whole line, and the numbers are outside it.
        const NOTHING: Band = Band { low: 0, width: u64::MAX, outside: true };
        let (low, high, outside) = match self {
            Cmp::Eq => (k, k, false),
            Cmp::Ne => (k, k, true),
            Cmp::Lt => match k.checked_sub(1) {
                Some(high) => (i64::MIN, high, false),
                None => return NOTHING,
            },
            Cmp::Le => (i64::MIN, k, false),
            Cmp::Gt => match k.checked_add(1) {
                Some(low) => (low, i64::MAX, false),
                None => return NOTHING,
            },
            Cmp::Ge => (k, i64::MAX, false),
        };
        Band { low, width: high.wrapping_sub(low) as u64, outside }
    }

    #[inline(always)]
    pub(crate) fn holds(self, x: i64, k: i64) -> bool {
        match self {
            Cmp::Eq => x == k,
            Cmp::Ne => x != k,
            Cmp::Lt => x < k,
            Cmp::Le => x <= k,
            Cmp::Gt => x > k,
            Cmp::Ge => x >= k,
        }
    }
}

/// What a walk gives, when its tests may be read in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walked {
    /// Spaces (zones of boards).
    Spaces,
    /// Pieces.
    Pieces,
    /// The numbers `lo..=hi` (a range of constants).
    Numbers { lo: i64, hi: i64 },
}

/// A row or column of a cell named by a test: the item, a constant, or an
/// earlier binding of the `choose` that walks numbers within the grid
/// (`Compiler::walked_numbers`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Coord {
    Item,
    Const(i64),
    Bound(u16),
}

impl Coord {
    /// A coordinate that is not the item: its number.
    #[inline(always)]
    pub(crate) fn fixed(self, r: &Run) -> i64 {
        match self {
            Coord::Const(v) => v,
            // Always a number of the grid (the walk of a range within it
            // set it); anything else would name no cell (far enough off
            // not to overflow where the cell is worked out).
            Coord::Bound(slot) => match r.local(slot) {
                Value::Int(v) => v,
                _ => -(1 << 40),
            },
            Coord::Item => -(1 << 40),
        }
    }
}

/// A test of the item being tried (a space or a piece, by its index), read
/// in place.
#[derive(Debug)]
pub(crate) enum Test {
    /// `count(z) <cmp> k`.
    Count(Cmp, i64),
    /// `row(z) == k`, `col(z) != k` and the like (`NONE_INT` off a grid).
    Line { column: bool, cmp: Cmp, k: i64 },
    /// `row(z) == x` or `col(z) == x` for a local `x` (another one): false
    /// when `x` is not a number, as for any value compared with a local.
    LineIsLocal { column: bool, slot: u16 },
    /// `owner(d) == x` (or `!=` when `negate`) for a local `x`: false when
    /// `x` is not a player, and a piece of nobody equals only `none`.
    OwnerIsLocal { slot: u16, negate: bool },
    /// `d is variant`.
    Variant(VariantId),
    /// `d is kind`.
    Kind(KindId),
    /// `zone_of(d) == z` (or `!=` when `negate`) for a zone `z` known when
    /// the rules are compiled (`box`, a zone declared once, a space).
    InZone { zone: u16, negate: bool },
    /// `count(cell(grid, row, col)) <cmp> k`, where the row and the column
    /// are the item or constants, and always name a cell of the grid (its
    /// first zone `base`, `cols` columns).
    CellCount { base: u16, cols: i64, row: Coord, col: Coord, cmp: Cmp, k: i64 },
    /// `count(zone[z]) <cmp> k` for a zone declared `per_space` of a board,
    /// indexed by the space being tried: the zone of the space's place on
    /// that board. A space of another board is the error the general
    /// expression gives.
    PerSpaceCount(Box<PerSpaceCount>),
    /// `tagged(z, t)`: the tag's bit.
    Tagged(u64),
    /// `not <test>`.
    Not(Box<Test>),
    /// `d.attr <cmp> x` for the piece `d` being tried.
    Attr { table: Box<AttrTable>, cmp: Cmp, rhs: AttrRhs },
    /// `any d in z where <tests of d>` for the space `z` being tried, as
    /// the body of a function called with simple arguments (tic-tac-toe's
    /// `marked_by(z, p) = any m in z where owner(m) == p`): the pieces of
    /// the space are walked here, each bound to `slot` and costing a step,
    /// as the `any` would.
    AnyPiece { slot: u16, tests: Box<[Test]> },
}

/// [`Test::PerSpaceCount`]: the board, the first of its zones, the
/// comparison, and what the error names.
#[derive(Debug)]
pub(crate) struct PerSpaceCount {
    pub(super) track: crate::model::TrackId,
    pub(super) base: u16,
    pub(super) cmp: Cmp,
    pub(super) k: i64,
    pub(super) board: String,
    pub(super) at: Loc,
}

/// What an attribute of the item is compared with.
#[derive(Debug)]
pub(crate) enum AttrRhs {
    /// A constant (any comparison).
    Const(i64),
    /// A local (`==` and `!=` only): a value that is not a number is
    /// different (an attribute is never `none`).
    Local(u16),
    /// An attribute of another local (`==` and `!=` only), read after the
    /// item's.
    Attr(Box<AttrRead>),
}

impl Test {
    /// `not <this test>`: a count compared the other way (a count is always
    /// a number, so `not (count(z) > 0)` is `count(z) <= 0` exactly, and
    /// takes the walks made for counts: 1.4 times faster on a board of 49
    /// cells, an outside tester's), else the test under `not`.
    pub(super) fn negated(self) -> Test {
        match self {
            Test::Count(cmp, k) => Test::Count(cmp.negated(), k),
            Test::CellCount { base, cols, row, col, cmp, k } => Test::CellCount { base, cols, row, col, cmp: cmp.negated(), k },
            Test::Not(t) => *t,
            other => Test::Not(Box::new(other)),
        }
    }

    /// Whether it holds for the item whose index (a space, a piece) or
    /// value (a number) is `x`.
    #[inline(always)]
    pub(crate) fn holds(&self, r: &mut Run, x: i64) -> bool {
        let z = x as u16;
        let line = |column: bool| {
            let table = if column { &r.g.geometry.cols } else { &r.g.geometry.rows };
            table.get(z as usize).copied().unwrap_or(NONE_INT)
        };
        match *self {
            Test::Count(cmp, k) => cmp.holds(r.st.len.get(z as usize).map(|n| i64::from(*n)).unwrap_or(0), k),
            Test::Line { column, cmp, k } => cmp.holds(line(column), k),
            Test::LineIsLocal { column, slot } => {
                let i = line(column);
                match r.local(slot) {
                    Value::Int(j) => i == j,
                    Value::None => i == NONE_INT,
                    _ => false,
                }
            }
            Test::OwnerIsLocal { slot, negate } => {
                let owner = r.g.inst_owner.get(z as usize).copied().flatten();
                let same = match r.local(slot) {
                    Value::Player(q) => owner == Some(q as u8),
                    Value::None => owner.is_none(),
                    _ => false,
                };
                same != negate
            }
            Test::Variant(v) => r.g.inst_variant.get(z as usize).copied().flatten() == Some(v),
            Test::Kind(k) => r.g.inst_kind.get(z as usize) == Some(&k),
            Test::InZone { zone, negate } => (r.st.loc.get(z as usize) == Some(&zone)) != negate,
            Test::CellCount { base, cols, row, col, cmp, k } => {
                let at = |c: Coord| match c {
                    Coord::Item => x,
                    other => other.fixed(r),
                };
                let cell = i64::from(base) + (at(row) - 1) * cols + (at(col) - 1);
                cmp.holds(r.st.len.get(cell as usize).map(|n| i64::from(*n)).unwrap_or(0), k)
            }
            Test::AnyPiece { slot, ref tests } => any_piece(r, z, slot, tests),
            Test::Tagged(_) | Test::Not(_) | Test::Attr { .. } | Test::PerSpaceCount(_) => self.holds_out_of_line(r, x),
        }
    }

    /// The tests that read a table or another test, out of line: inlined
    /// into every walk, they made the walks of the other tests longer.
    #[inline(never)]
    fn holds_out_of_line(&self, r: &mut Run, x: i64) -> bool {
        let z = x as u16;
        match *self {
            Test::Tagged(bit) => r.g.zone_tags.get(z as usize).is_some_and(|tags| tags & bit != 0),
            Test::Not(ref t) => !t.holds(r, x),
            Test::PerSpaceCount(ref t) => match r.g.geometry.place.get(z as usize).copied().flatten() {
                Some(place) if place.track == t.track => t.cmp.holds(r.st.len.get(usize::from(t.base + place.index)).map_or(0, |n| i64::from(*n)), t.k),
                _ => {
                    let msg = format!("a space of `{}` was needed, found {}", t.board, r.g.label(Value::zone(z)));
                    r.fail(ExecErrorKind::Type, msg, t.at);
                    false
                }
            },
            Test::Attr { ref table, cmp, ref rhs } => {
                let a = match table.by_piece.get(z as usize) {
                    Some(Some(a)) => *a,
                    _ => table.of(r, Value::piece(z)),
                };
                match rhs {
                    AttrRhs::Const(k) => cmp.holds(a, *k),
                    AttrRhs::Local(slot) => {
                        let same = match r.local(*slot) {
                            Value::Int(j) => a == j,
                            _ => false,
                        };
                        same == (cmp == Cmp::Eq)
                    }
                    AttrRhs::Attr(b) => cmp.holds(a, b.get(r)),
                }
            }
            _ => self.holds(r, x),
        }
    }
}

/// Whether every test holds for the item `x` (a space's or a piece's
/// index, or a number), in order, stopping at the first that fails.
#[inline(always)]
pub(crate) fn all_hold(tests: &[Test], r: &mut Run, x: i64) -> bool {
    // One test (the usual case) read without the slice's loop, which the
    // compiler keeps out of line.
    if let [only] = tests {
        return only.holds(r, x);
    }
    tests.iter().all(|t| t.holds(r, x))
}

/// `any d in z where <tests>`: the walk of `Items::Contents` and the
/// `any` of `logic.rs`, with the tests read in place.
#[inline(never)]
fn any_piece(r: &mut Run, z: u16, slot: u16, tests: &[Test]) -> bool {
    if let [Test::OwnerIsLocal { slot: who, negate }] = *tests {
        // The usual "a piece of this player is here": the local `who` (not
        // the piece's slot) read once, not once per piece.
        let want = OwnerWanted::read(r, who, negate);
        return any_owned_piece(r, z, slot, want);
    }
    any_in_zone(r, z, slot, |r, p| all_hold(tests, r, i64::from(p)))
}

/// The owner a piece must have (or not have) for `owner(d) == who` (or
/// `!=`), `who` read once before a walk.
#[derive(Clone, Copy)]
pub(crate) struct OwnerWanted {
    /// `Some(owner)`: the owner to match (`None` for `who` being `none`);
    /// `None`: `who` is not a player, and equals no owner.
    owner: Option<Option<u8>>,
    negate: bool,
}

impl OwnerWanted {
    #[inline(always)]
    pub(crate) fn read(r: &Run, who: u16, negate: bool) -> OwnerWanted {
        let owner = match r.local(who) {
            Value::Player(q) => Some(Some(q as u8)),
            Value::None => Some(None),
            _ => None,
        };
        OwnerWanted { owner, negate }
    }

    /// Whether a piece of this owner (`None`: of nobody) is wanted.
    #[inline(always)]
    pub(crate) fn wants(self, owner: Option<u8>) -> bool {
        (self.owner == Some(owner)) != self.negate
    }
}

/// `any d in z where owner(d) == who`, with `who` read beforehand.
#[inline(always)]
pub(crate) fn any_owned_piece(r: &mut Run, z: u16, slot: u16, want: OwnerWanted) -> bool {
    any_in_zone(r, z, slot, |r, p| want.wants(r.g.inst_owner.get(p as usize).copied().flatten()))
}

/// When the tests of a space are only `any d in z where owner(d) == who`
/// (a cell holding a piece of a player), with `who` a local that the walk
/// bound to `walk` does not change: the slot of `d`, `who` and whether the
/// comparison is `!=`.
pub(crate) fn owned_space_test(tests: &[Test], walk: u16) -> Option<(u16, u16, bool)> {
    let [Test::AnyPiece { slot: d, ref tests }] = *tests else { return None };
    let [Test::OwnerIsLocal { slot: who, negate }] = **tests else { return None };
    (who != walk && who != d).then_some((d, who, negate))
}

/// Whether a piece of zone `z`, each bound to `slot` in turn and costing a
/// step, is one for which `holds`: the walk stops at the first.
#[inline(always)]
fn any_in_zone(r: &mut Run, z: u16, slot: u16, mut holds: impl FnMut(&mut Run, u16) -> bool) -> bool {
    let mut p = r.st.head.get(z as usize).copied().unwrap_or(NIL);
    while p != NIL {
        let next = r.st.next.get(p as usize).copied().unwrap_or(NIL);
        if !r.going() {
            return false;
        }
        r.set_local(slot, Value::piece(p));
        if holds(r, p) {
            return true;
        }
        p = next;
    }
    false
}

/// What a walk asks of each item: bind it, then tell whether it is kept.
pub(crate) trait ItemTest: Send + Sync + 'static {
    /// Bind `item` to the walk's name and test it.
    fn holds(&self, r: &mut Run, item: Value) -> bool;

    /// The one row or column of a grid whose cells may hold, when the
    /// condition starts with `row(z) == k` or `col(z) == x` (no other cell
    /// of a grid can): the walk's name, whether it is a column, and its
    /// number (`None`: no cell holds, the local `x` not being a number).
    fn line(&self, _r: &Run) -> Option<OneLine> {
        None
    }

    /// [`holds`](ItemTest::holds) for a cell of the line [`line`] gave: the
    /// test that keeps the line is not tested again.
    ///
    /// [`line`]: ItemTest::line
    fn holds_on_line(&self, r: &mut Run, item: Value) -> bool {
        self.holds(r, item)
    }

    /// The walk's name and its tests, when the condition is nothing but
    /// tests read in place: the walk then binds the name only to the items
    /// that hold (before what is done with them) and, at the end, to the
    /// last item tried, where the general walk binds every item in turn
    /// (no test reads the walk's own name, so nothing tells them apart).
    fn bare(&self) -> Option<(u16, &[Test])> {
        None
    }
}

/// The row or column a condition keeps ([`ItemTest::line`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OneLine {
    /// The walk's name.
    pub(crate) slot: u16,
    pub(crate) column: bool,
    pub(crate) number: Option<i64>,
}

/// A condition without tests read in place: its closure, or none at all
/// (every item holds). The walks are compiled for each kind of condition,
/// so that these, most of those of the larger rulebooks, cost per item
/// exactly what they did before there were tests.
pub(crate) struct Plain {
    pub(super) slot: u16,
    pub(super) cond: Option<BoolF>,
}

impl ItemTest for Plain {
    #[inline(always)]
    fn holds(&self, r: &mut Run, item: Value) -> bool {
        r.set_local(self.slot, item);
        self.cond.as_ref().is_none_or(|c| c(r))
    }
}

/// A condition over spaces or pieces that starts with tests read in
/// place, then the rest of it, if any.
pub(crate) struct Tested {
    pub(super) slot: u16,
    pub(super) tests: Box<[Test]>,
    pub(super) rest: Option<BoolF>,
}

impl ItemTest for Tested {
    #[inline(always)]
    fn holds(&self, r: &mut Run, item: Value) -> bool {
        r.set_local(self.slot, item);
        // The walks that have tests only give spaces, only pieces, or only
        // numbers.
        let x = match item {
            Value::Zone(x) | Value::Piece(x) => x as i64,
            Value::Int(i) => i,
            _ => return self.rest_holds(r),
        };
        if !all_hold(&self.tests, r, x) {
            return false;
        }
        self.rest_holds(r)
    }

    #[inline(always)]
    fn holds_on_line(&self, r: &mut Run, item: Value) -> bool {
        r.set_local(self.slot, item);
        let Value::Zone(x) = item else { return self.holds(r, item) };
        // The first test keeps the line, and holds on its cells.
        all_hold(self.tests.get(1..).unwrap_or_default(), r, x as i64) && self.rest_holds(r)
    }

    #[inline(always)]
    fn line(&self, r: &Run) -> Option<OneLine> {
        let (column, number) = match *self.tests.first()? {
            Test::Line { column, cmp: Cmp::Eq, k } => (column, Some(k)),
            // A local that is not a number equals no row or column.
            Test::LineIsLocal { column, slot } => (column, if let Value::Int(j) = r.local(slot) { Some(j) } else { None }),
            _ => return None,
        };
        Some(OneLine { slot: self.slot, column, number })
    }

    #[inline(always)]
    fn bare(&self) -> Option<(u16, &[Test])> {
        self.rest.is_none().then_some((self.slot, &self.tests[..]))
    }
}

impl Tested {
    #[inline(always)]
    fn rest_holds(&self, r: &mut Run) -> bool {
        match &self.rest {
            Some(f) => f(r),
            None => true,
        }
    }
}

/// The condition of a walk, by kind.
pub(crate) enum Cond {
    Plain(Plain),
    Tested(Tested),
}

/// `with_cond!(cond, c => code)`: the code compiled once for each kind of
/// condition, with `c` the condition (an [`ItemTest`]).
macro_rules! with_cond {
    ($cond:expr, $c:ident => $code:expr) => {
        match $cond {
            $crate::engine::compile::conds::Cond::Plain($c) => $code,
            $crate::engine::compile::conds::Cond::Tested($c) => $code,
        }
    };
}
pub(crate) use with_cond;

#[cfg(test)]
mod tests {
    use super::Cmp;

    /// A band holds for exactly the numbers its comparison holds for,
    /// at the ends of the line too.
    #[test]
    fn a_band_is_its_comparison() {
        let edges = [i64::MIN, i64::MIN + 1, -2, -1, 0, 1, 2, 3, 65_535, i64::MAX - 1, i64::MAX];
        for cmp in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
            for k in edges {
                let band = cmp.band(k);
                for x in edges {
                    assert_eq!(band.holds(x), cmp.holds(x, k), "{x} {cmp:?} {k}");
                }
            }
        }
    }
}
