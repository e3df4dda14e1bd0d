//! Collections: each walks its items in place and calls a visitor, which
//! can stop the walk (`any`, `first`, `count ... while`); filters and
//! regions are walks over walks.

use super::conds::{with_cond, ItemTest};
use super::compiler::{Compiler, Native};
use super::hoist::with_caches;
use super::items::Items;
use super::{BoolF, CollF, Visit};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::Quantifier;

impl Compiler<'_> {
    /// A collection by shape: the common ones are walked in place by the
    /// code that uses them, the others through a closure.
    pub(crate) fn items(&mut self, e: ExprId) -> Items {
        if self.native(e) != Native::Coll {
            return Items::Dyn(self.coll(e));
        }
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::Players => Items::Players(g.players),
            Expr::Range(a, b) => Items::Range(self.int_req(a), self.int_req(b), self.at(e)),
            Expr::Spaces(t) => Items::Spaces { base: g.track_base[t.idx()], len: self.m.tracks[t.idx()].spaces.len() as u16 },
            Expr::Pieces(k) => {
                let (first, n) = g.kind_range[k.idx()];
                Items::Pieces { first, n }
            }
            Expr::PiecesOf(k, p) => {
                let (first, n) = g.kind_range[k.idx()];
                Items::PiecesOf { first, n, each: self.m.kinds[k.idx()].count, player: self.player_req(p) }
            }
            Expr::Contents(z) => Items::Contents(self.zone_req(z)),
            Expr::Neighbors(z) => Items::Neighbors(self.zone_req(z)),
            Expr::List(items) => Items::List(items.iter().map(|i| self.val_op(*i)).collect()),
            Expr::Line(z, dr, dc) => Items::Line(Box::new((self.zone_or_none(z), self.int_req(dr), self.int_req(dc)))),
            _ => Items::Dyn(self.coll_native(e)),
        }
    }

    /// A collection as a closure that calls a visitor on each item.
    pub(crate) fn coll_native(&mut self, e: ExprId) -> CollF {
        let at = self.at(e);
        match self.m.expr(e).clone() {
            Expr::Players
            | Expr::Range(..)
            | Expr::Spaces(_)
            | Expr::Pieces(_)
            | Expr::PiecesOf(..)
            | Expr::Contents(_)
            | Expr::Neighbors(_)
            | Expr::List(_)
            | Expr::Line(..) => {
                let items = self.items(e);
                Box::new(move |r, visit| items.walk_dyn(r, visit))
            }
            Expr::Region(slot, start, cond) => {
                let (start, cond, slot) = (self.zone_req(start), self.bool(cond), self.slot(slot));
                Box::new(move |r, visit| {
                    let s = start.get(r);
                    if s == NIL {
                        return true;
                    }
                    let first = r.st.scratch.len();
                    region(r, slot, s, &cond);
                    let mut i = first;
                    let mut going = true;
                    while let Some(v) = r.st.scratch.get(i).copied() {
                        if !(r.going() && visit(r, v)) {
                            going = false;
                            break;
                        }
                        i += 1;
                    }
                    r.st.scratch.truncate(first);
                    going
                })
            }
            Expr::Comp(q @ (Quantifier::Filter | Quantifier::FilterWhile), slot, coll, body) => {
                let (f, caches) = self.walk_once(e, |c| c.filter(q == Quantifier::FilterWhile, slot, coll, body));
                if caches == 0 {
                    return f;
                }
                Box::new(move |r, visit| with_caches(r, caches, |r| f(r, visit)))
            }
            _ => {
                Box::new(move |r, _| {
                    r.fail(ExecErrorKind::Type, "a collection was needed here".into(), at);
                    false
                })
            }
        }
    }

    /// `[slot in coll where body]` (`while` when `prefix`).
    fn filter(&mut self, prefix: bool, slot: u16, coll: ExprId, body: Option<ExprId>) -> CollF {
        let items = self.items(coll);
        let slot = self.slot(slot);
        with_cond!(self.cond(slot, body, items.gives()), cond => Box::new(move |r, visit: Visit| {
            let mut going = true;
            if prefix {
                // `while`: the first item that fails ends the filter.
                items.walk(r, |r, item| {
                    if cond.holds(r, item) {
                        going = visit(r, item);
                        going
                    } else {
                        false
                    }
                });
            } else {
                items.walk_kept(r, &cond, |r, item| {
                    going = visit(r, item);
                    going
                });
            }
            going
        }))
    }
}

/// Longest range a collection may walk.
pub(crate) const MAX_RANGE: i64 = 100_000;

/// Flood fill from `start` through neighbours where `cond` holds, appended
/// to the scratch buffer. A bitset (on the stack for boards of up to 1,024
/// zones) says which spaces are in the region: looking each one up in the
/// region found so far made a region of n spaces cost n² (an 11x11 hex
/// board spent half its playouts there). A space that failed is tested
/// again each time it is met, as it always was: the condition binds the
/// locals of its own walks, which are part of the state a log records.
fn region(r: &mut Run, slot: u16, start: u16, cond: &BoolF) {
    const ON_STACK: usize = 16;
    let words = r.g.zones.len().div_ceil(64);
    if words <= ON_STACK {
        region_marking(r, slot, start, cond, &mut [0u64; ON_STACK]);
    } else {
        region_marking(r, slot, start, cond, &mut vec![0u64; words]);
    }
}

/// Set bit `z` of a bitset.
fn mark(bits: &mut [u64], z: u16) {
    if let Some(w) = bits.get_mut(usize::from(z) / 64) {
        *w |= 1u64 << (z % 64);
    }
}

fn is_marked(bits: &[u64], z: u16) -> bool {
    bits.get(usize::from(z) / 64).is_some_and(|w| w & (1u64 << (z % 64)) != 0)
}

fn region_marking(r: &mut Run, slot: u16, start: u16, cond: &BoolF, inside: &mut [u64]) {
    let holds = |r: &mut Run, z: u16| {
        r.set_local(slot, Value::zone(z));
        cond(r)
    };
    let first = r.st.scratch.len();
    if !holds(r, start) {
        return;
    }
    mark(inside, start);
    r.st.scratch.push(Value::zone(start));
    let mut next = first;
    while let Some(Value::Zone(z)) = r.st.scratch.get(next).copied() {
        next += 1;
        let g = r.g;
        let Some(around) = g.geometry.adjacent.get(z as usize) else { continue };
        for (n, _) in around {
            if is_marked(inside, *n) {
                continue;
            }
            if !r.going() {
                return;
            }
            if holds(r, *n) {
                mark(inside, *n);
                r.st.scratch.push(Value::zone(*n));
            }
        }
    }
}
