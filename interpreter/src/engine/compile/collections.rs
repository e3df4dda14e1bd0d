//! Collections: each walks its items in place and calls a visitor, which
//! can stop the walk (`any`, `first`, `count ... while`); filters and
//! regions are walks over walks.

use super::compiler::Compiler;
use super::{BoolF, CollF, ValF, Visit, NO_PLAYER};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::Quantifier;

impl Compiler<'_> {
    pub(crate) fn coll_native(&mut self, e: ExprId) -> CollF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::Players => {
                let n = g.players;
                Box::new(move |r, visit| (0..n).all(|p| r.going() && visit(r, Value::Player(p))))
            }
            Expr::Range(a, b) => {
                let (a, b) = (self.int_req(a), self.int_req(b));
                Box::new(move |r, visit| {
                    let (x, y) = (a.get(r), b.get(r));
                    if y.saturating_sub(x) > MAX_RANGE {
                        r.fail(ExecErrorKind::OutOfRange, format!("the range {x}..{y} is too long to walk (at most {MAX_RANGE} items)"), at);
                        return false;
                    }
                    (x..=y).all(|i| r.going() && visit(r, Value::Int(i)))
                })
            }
            Expr::List(items) => {
                let items: Vec<ValF> = items.iter().map(|i| self.val(*i)).collect();
                Box::new(move |r, visit| {
                    items.iter().all(|f| {
                        let v = f(r);
                        r.going() && visit(r, v)
                    })
                })
            }
            Expr::Spaces(t) => {
                let (base, len) = (g.track_base[t.idx()], self.m.tracks[t.idx()].spaces.len() as u16);
                Box::new(move |r, visit| (base..base + len).all(|z| r.going() && visit(r, Value::Zone(z))))
            }
            Expr::Pieces(k) => {
                let (first, n) = g.kind_range[k.idx()];
                Box::new(move |r, visit| (first..first + n).all(|p| r.going() && visit(r, Value::Piece(p))))
            }
            Expr::PiecesOf(k, p) => {
                let (first, n) = g.kind_range[k.idx()];
                let each = self.m.kinds[k.idx()].count;
                let p = self.player_req(p);
                Box::new(move |r, visit| {
                    let p = p.get(r);
                    if p == u16::from(NO_PLAYER) {
                        return true;
                    }
                    let from = first + p * each;
                    (from..(from + each).min(first + n)).all(|x| r.going() && visit(r, Value::Piece(x)))
                })
            }
            Expr::Contents(z) => {
                let z = self.zone_req(z);
                Box::new(move |r, visit| {
                    let z = z.get(r);
                    let mut p = r.st.head.get(z as usize).copied().unwrap_or(NIL);
                    while p != NIL {
                        let next = r.st.next.get(p as usize).copied().unwrap_or(NIL);
                        if !(r.going() && visit(r, Value::Piece(p))) {
                            return false;
                        }
                        p = next;
                    }
                    true
                })
            }
            Expr::Neighbors(z) => {
                let z = self.zone_req(z);
                Box::new(move |r, visit| {
                    let z = z.get(r);
                    let g = r.g;
                    match g.geometry.adjacent.get(z as usize) {
                        Some(list) => list.iter().all(|(x, _)| r.going() && visit(r, Value::Zone(*x))),
                        None => true,
                    }
                })
            }
            Expr::Line(z, dr, dc) => {
                let (z, dr, dc) = (self.zone_req(z), self.int_req(dr), self.int_req(dc));
                Box::new(move |r, visit| {
                    let mut at = z.get(r);
                    let (a, b) = (dr.get(r), dc.get(r));
                    if (a, b) == (0, 0) || at == NIL {
                        return true;
                    }
                    while let Some(x) = r.g.geometry.step(at, a, b) {
                        if !(r.going() && visit(r, Value::Zone(x))) {
                            return false;
                        }
                        at = x;
                    }
                    true
                })
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
                let items = self.coll(coll);
                let cond = body.map(|b| self.bool(b));
                let slot = self.slot(slot);
                let prefix = q == Quantifier::FilterWhile;
                Box::new(move |r, visit: Visit| {
                    let mut going = true;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        if cond.as_ref().is_none_or(|c| c(r)) {
                            going = visit(r, item);
                            going
                        } else {
                            !prefix
                        }
                    });
                    going
                })
            }
            _ => {
                Box::new(move |r, _| {
                    r.fail(ExecErrorKind::Type, "a collection was needed here".into(), at);
                    false
                })
            }
        }
    }
}

/// Longest range a collection may walk.
pub(crate) const MAX_RANGE: i64 = 100_000;

/// Flood fill from `start` through neighbours where `cond` holds, appended
/// to the scratch buffer.
fn region(r: &mut Run, slot: u16, start: u16, cond: &BoolF) {
    let holds = |r: &mut Run, z: u16| {
        r.set_local(slot, Value::Zone(z));
        cond(r)
    };
    let first = r.st.scratch.len();
    if !holds(r, start) {
        return;
    }
    r.st.scratch.push(Value::Zone(start));
    let mut next = first;
    while let Some(Value::Zone(z)) = r.st.scratch.get(next).copied() {
        next += 1;
        let g = r.g;
        let Some(around) = g.geometry.adjacent.get(z as usize) else { continue };
        for (n, _) in around {
            let v = Value::Zone(*n);
            if r.st.scratch.get(first..).is_some_and(|seen| seen.contains(&v)) {
                continue;
            }
            if !r.going() {
                return;
            }
            if holds(r, *n) {
                r.st.scratch.push(v);
            }
        }
    }
}
