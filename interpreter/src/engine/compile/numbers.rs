//! Numbers: literals, counters, attributes, arithmetic, `count`, `sum`,
//! `max`, `min`, positions on boards and `in_a_row`.

use super::conds::{with_cond, ItemTest, Walked};
use super::compiler::Compiler;
use super::operands::{arith, slot_of, AttrRead, AttrTable, IdOp, IntOp};
use super::{Index, IntF, NONE_INT};
use crate::engine::error::ExecErrorKind;
use crate::engine::geometry::LINES;
use crate::engine::layout::Game;
use crate::engine::run::Run;
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

impl Compiler<'_> {
    pub(crate) fn int_native(&mut self, e: ExprId) -> IntF {
        let at = self.at(e);
        if let Some(k) = self.const_int(e) {
            return Box::new(move |_| k);
        }
        if let Expr::If(c, a, b) = *self.m.expr(e) {
            return self.conditional(c, a, b, Self::int);
        }
        // A counter, `row`, `col` or an attribute of a local: its operand,
        // or the closure that operand holds.
        if let Some(op) = self.int_leaf(e, false) {
            return match op {
                IntOp::Dyn(f) => f,
                op => Box::new(move |r| op.get(r)),
            };
        }
        match self.m.expr(e).clone() {
            Expr::Int(i) => Box::new(move |_| i),
            Expr::RoundNumber => Box::new(|r| i64::from(r.st.round)),
            // Of another expression than a local (those are `int_leaf`'s).
            Expr::Attr(x, a) => {
                let table = self.attr_table(a, at);
                let v = self.val_op(x);
                Box::new(move |r| {
                    let val = v.get(r);
                    table.of(r, val)
                })
            }
            Expr::Bin(op, a, b) => {
                let (fa, fb) = (self.int_req(a), self.int_req(b));
                if let Some(k) = self.const_int(b) {
                    if op == BinOp::Add {
                        return Box::new(move |r| {
                            let x = fa.get(r);
                            arith(r, BinOp::Add, x, k, at)
                        });
                    }
                }
                Box::new(move |r| {
                    let x = fa.get(r);
                    let y = fb.get(r);
                    arith(r, op, x, y, at)
                })
            }
            Expr::Neg(a) => {
                let f = self.int_req(a);
                Box::new(move |r| {
                    let x = f.get(r);
                    arith(r, BinOp::Sub, 0, x, at)
                })
            }
            Expr::Comp(q, slot, coll, body) => {
                self.once_per_walk(e, |c| c.counting(q, slot, coll, body, at))
            }
            Expr::Call(b, args) => {
                let arg = |i: usize| args.get(i).copied().unwrap_or(e);
                match b {
                    Builtin::Count => {
                        let z = self.zone_req(arg(0));
                        Box::new(move |r| {
                            let z = z.get(r);
                            r.st.len.get(z as usize).map(|n| i64::from(*n)).unwrap_or(0)
                        })
                    }
                    Builtin::Pos => {
                        let p = self.piece_req(arg(0));
                        Box::new(move |r| {
                            let p = p.get(r);
                            let z = r.st.loc.get(p as usize).copied().unwrap_or(NIL);
                            place_index(r.g, z)
                        })
                    }
                    Builtin::Index => {
                        let z = self.zone_req(arg(0));
                        Box::new(move |r| {
                            let z = z.get(r);
                            place_index(r.g, z)
                        })
                    }
                    Builtin::Seat => {
                        // A player is numbered from 0 inside, from 1 in the rules.
                        let p = self.player_req(arg(0));
                        Box::new(move |r| i64::from(p.get(r)) + 1)
                    }
                    Builtin::Abs => {
                        let x = self.int_req(arg(0));
                        Box::new(move |r| {
                            let v = x.get(r);
                            arith(r, BinOp::Sub, 0, v.min(0), at).max(v)
                        })
                    }
                    Builtin::Min | Builtin::Max => {
                        let (x, y) = (self.int_req(arg(0)), self.int_req(arg(1)));
                        let max = b == Builtin::Max;
                        Box::new(move |r| {
                            let (a, b) = (x.get(r), y.get(r));
                            if max {
                                a.max(b)
                            } else {
                                a.min(b)
                            }
                        })
                    }
                    _ => self.mismatch(e),
                }
            }
            Expr::InARow(slot, cell, cond) => {
                let (cell, slot) = (self.zone_req(cell), self.slot(slot));
                with_cond!(self.cond(slot, Some(cond), Some(Walked::Spaces)), cond => Box::new(move |r| {
                    let z = cell.get(r);
                    if z == NIL {
                        return 0;
                    }
                    if r.g.geometry.grid_pos(z).is_none() {
                        let found = Value::zone(z);
                        r.fail(ExecErrorKind::Type, format!("`in_a_row` needs a cell of a grid, found {}", r.g.label(found)), at);
                        return 0;
                    }
                    in_a_row(r, z, &cond)
                }))
            }
            _ => self.mismatch(e),
        }
    }

    /// `count`, `sum`, `max`, `min` over a collection.
    pub(crate) fn counting(&mut self, q: Quantifier, slot: u16, coll: ExprId, body: Option<ExprId>, at: Loc) -> IntF {
        let items = self.items(coll);
        let slot = self.slot(slot);
        match q {
            Quantifier::Count | Quantifier::CountWhile => {
                let prefix = q == Quantifier::CountWhile;
                with_cond!(self.cond(slot, body, items.gives()), cond => Box::new(move |r| {
                    let mut n = 0i64;
                    if prefix {
                        items.walk(r, |r, item| {
                            let keep = cond.holds(r, item);
                            n += i64::from(keep);
                            keep
                        });
                    } else {
                        items.walk_kept(r, &cond, |_, _| {
                            n += 1;
                            true
                        });
                    }
                    n
                }))
            }
            _ => {
                let value = match body {
                    Some(b) => self.int_req(b),
                    None => IntOp::Const(0),
                };
                Box::new(move |r| {
                    let mut acc: Option<i64> = None;
                    items.walk(r, |r, item| {
                        r.set_local(slot, item);
                        let v = value.get(r);
                        acc = Some(match (q, acc) {
                            (_, None) => v,
                            (Quantifier::Sum, Some(a)) => arith(r, BinOp::Add, a, v, at),
                            (Quantifier::Max, Some(a)) => a.max(v),
                            (_, Some(a)) => a.min(v),
                        });
                        true
                    });
                    match (q, acc) {
                        (Quantifier::Sum, None) => 0,
                        (_, None) => NONE_INT,
                        (_, Some(a)) => a,
                    }
                })
            }
        }
    }

    /// A counter, `row` or `col` as an operand read in place, when it is
    /// one of those and its index or zone is.
    pub(crate) fn int_leaf(&mut self, e: ExprId, req: bool) -> Option<IntOp> {
        let at = self.at(e);
        match self.m.expr(e).clone() {
            Expr::Counter(c, idx) => match self.counter_read(c, idx) {
                Ok(op) => Some(op),
                // Its index compiled, kept in a closure.
                Err((base, index)) => Some(IntOp::Dyn(Box::new(move |r| match slot_of(r, base, &index, at) {
                    Some(s) => r.st.counters.get(s).copied().unwrap_or(0),
                    None => 0,
                }))),
            },
            Expr::CellRow(z) | Expr::CellCol(z) => {
                let column = matches!(self.m.expr(e), Expr::CellCol(_));
                Some(IntOp::Line { column, z: self.zone_req(z), req, at })
            }
            Expr::Attr(x, a) => {
                let slot = self.local_slot(x)?;
                Some(IntOp::Attr(Box::new(AttrRead { slot, table: self.attr_table(a, at) })))
            }
            _ => None,
        }
    }

    /// Counter `c` (at `idx`) read in place, when it has one slot or is
    /// indexed by a local player (`score[p]`, the usual form); else its
    /// first slot and compiled index.
    fn counter_read(&mut self, c: CounterId, idx: Option<ExprId>) -> Result<IntOp, (u32, Index)> {
        let base = self.g.counter_base[c.idx()];
        match self.index(idx, self.m.counters[c.idx()].per_piece) {
            Index::None => Ok(IntOp::Counter(base)),
            Index::Player(IdOp::Player(who, at)) => Ok(IntOp::PlayerCounter { base, who, at }),
            index => Err((base, index)),
        }
    }

    /// The values of attribute `a`, read at `at`.
    pub(crate) fn attr_table(&self, a: u16, at: Loc) -> AttrTable {
        let by_variant: Box<[Option<i64>]> = self.m.variants.iter().map(|var| var.attrs.iter().find(|(n, _)| *n == a).map(|(_, x)| *x)).collect();
        // The attribute of each piece, through its variant: one lookup
        // instead of two.
        let by_piece = self.g.inst_variant.iter().map(|v| v.and_then(|v| by_variant.get(v.idx()).copied().flatten())).collect();
        let name = self.m.attrs.get(a as usize).cloned().unwrap_or_default().into();
        AttrTable { by_piece, by_variant, name, at }
    }

    // ------------------------------------------------------------ truth values
}

/// `index(space)` / `pos(piece)`: the space's number on its board, from 1.
fn place_index(g: &Game, z: u16) -> i64 {
    match g.geometry.place.get(z as usize).copied().flatten() {
        Some(p) => i64::from(p.index) + 1,
        None => NONE_INT,
    }
}

/// The longest straight run through cell `z` of cells where `cond` holds.
/// A condition of tests only ([`ItemTest::bare`]) is tested without
/// binding the name to each cell: the name is bound once, to the last cell
/// tried, which is all that can read it.
fn in_a_row(r: &mut Run, z: u16, cond: &impl ItemTest) -> i64 {
    match cond.bare() {
        Some((slot, tests)) => match super::conds::owned_space_test(tests, slot) {
            // A run of cells holding a piece of one player, the player
            // read once rather than at every cell.
            Some((d, who, negate)) => {
                let want = super::conds::OwnerWanted::read(r, who, negate);
                match owned_run_in_place(r, z, slot, d, want) {
                    Some(run) => run,
                    None => run_binding_last(r, z, slot, |r, x| super::conds::any_owned_piece(r, x, d, want)),
                }
            }
            None => run_binding_last(r, z, slot, |r, x| super::conds::all_hold(tests, r, i64::from(x))),
        },
        None => longest_run(r, z, |r, x| cond.holds(r, Value::zone(x))),
    }
}

/// [`in_a_row`] of "a cell holding a piece of this player" (tic-tac-toe's
/// and connect four's lines), read from the board's tables and the state's
/// piece lists without going through `Run` at each cell: the fuel is
/// counted in a local and the two names (`walk`, the cell; `d`, the piece)
/// are bound once at the end to what the general walk leaves in them, the
/// last cell and the last piece tried. Measured on tic-tac-toe, the general
/// walk spent about 500 instructions a ply here, most of them reloading
/// and bounds-checking the same tables at every cell.
///
/// `None` when the fuel would run out (or the two names share a slot):
/// nothing has been changed then, and the general walk runs instead, so
/// that it stops, and reports, where it always did.
fn owned_run_in_place(r: &mut Run, z: u16, walk: u16, d: u16, want: super::conds::OwnerWanted) -> Option<i64> {
    if walk == d {
        return None;
    }
    let (touching, owners) = (&r.g.geometry.touching, &r.g.inst_owner);
    let (head, next) = (&r.st.head, &r.st.next);
    let mut fuel = r.fuel;
    let mut last_piece = None;
    // Whether cell `x` holds a piece the test wants; `None`: out of fuel.
    let mut holds = |x: u16, fuel: &mut u64| -> Option<bool> {
        let mut p = head.get(usize::from(x)).copied().unwrap_or(NIL);
        while p != NIL {
            *fuel = fuel.checked_sub(1)?;
            last_piece = Some(p);
            if want.wants(owners.get(usize::from(p)).copied().flatten()) {
                return Some(true);
            }
            p = next.get(usize::from(p)).copied().unwrap_or(NIL);
        }
        Some(false)
    };
    let mut tried = z;
    let mut best = 0;
    if holds(z, &mut fuel)? {
        best = 1;
        for (forward, back) in LINES {
            let mut run = 1;
            for dir in [forward, back] {
                let mut at = z;
                loop {
                    let next_cell = touching.get(usize::from(at)).map_or(NIL, |a| a[dir]);
                    if next_cell == NIL {
                        break;
                    }
                    fuel = fuel.checked_sub(1)?;
                    tried = next_cell;
                    if !holds(next_cell, &mut fuel)? {
                        break;
                    }
                    run += 1;
                    at = next_cell;
                }
            }
            best = best.max(run);
        }
    }
    r.fuel = fuel;
    if let Some(p) = last_piece {
        r.set_local(d, Value::piece(p));
    }
    r.set_local(walk, Value::zone(tried));
    Some(best)
}

/// [`longest_run`] of a condition of tests only: the walk's name (`slot`)
/// is bound once, at the end, to the last cell tried.
#[inline(always)]
fn run_binding_last(r: &mut Run, z: u16, slot: u16, mut holds: impl FnMut(&mut Run, u16) -> bool) -> i64 {
    let mut tried = z;
    let run = longest_run(r, z, |r, x| {
        tried = x;
        holds(r, x)
    });
    r.set_local(slot, Value::zone(tried));
    run
}

/// [`in_a_row`] with the test of a cell `holds`.
#[inline(always)]
fn longest_run(r: &mut Run, z: u16, mut holds: impl FnMut(&mut Run, u16) -> bool) -> i64 {
    if !holds(r, z) {
        return 0;
    }
    let mut best = 1;
    for (forward, back) in LINES {
        let mut run = 1;
        for d in [forward, back] {
            let mut at = z;
            loop {
                let next = r.g.geometry.touching.get(at as usize).and_then(|a| a.get(d)).copied().unwrap_or(NIL);
                if next == NIL || !r.tick() || !holds(r, next) {
                    break;
                }
                run += 1;
                at = next;
            }
        }
        best = best.max(run);
    }
    best
}
