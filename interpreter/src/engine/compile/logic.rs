//! Truth values: comparisons, `and`, `or`, `not`, `any`, `all`, `in`,
//! `tagged`, `is`, `linked`, and equality on unboxed values.

use super::conds::with_cond;
use super::compiler::{Compiler, Native};
use super::operands::IntOp;
use super::{BoolF, NONE_INT, NO_PLAYER};
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

impl Compiler<'_> {
    pub(crate) fn bool_native(&mut self, e: ExprId) -> BoolF {
        let at = self.at(e);
        match self.m.expr(e).clone() {
            Expr::If(c, a, b) => self.conditional(c, a, b, Self::bool),
            Expr::Bool(b) => Box::new(move |_| b),
            Expr::Enabled(o) => {
                let on = self.g.options.get(o.idx()).copied().unwrap_or(false);
                Box::new(move |_| on)
            }
            Expr::Not(a) => {
                if let Some(f) = self.not_top_owned(a) {
                    return f;
                }
                let f = self.bool(a);
                Box::new(move |r| !f(r))
            }
            Expr::Bin(op, a, b) => match op {
                BinOp::And | BinOp::Or => {
                    if op == BinOp::And {
                        if let Some(f) = self.top_owned(a, b, false, false) {
                            return f;
                        }
                    }
                    // A chain of three or more (`a and b and c`): one closure
                    // over the parts, in order, instead of one per operator.
                    let mut parts = Vec::new();
                    self.chain(op, e, &mut parts);
                    if parts.len() > 2 {
                        if op == BinOp::And {
                            return self.all_of(&parts).unwrap_or_else(|| Box::new(|_| true));
                        }
                        let fs: Box<[BoolF]> = parts.iter().map(|x| self.bool(*x)).collect();
                        return Box::new(move |r| fs.iter().any(|f| f(r)));
                    }
                    // Short-circuit, so that `x != none and pos(x) > 3` is safe.
                    let (fa, fb) = (self.bool(a), self.bool(b));
                    if op == BinOp::And {
                        Box::new(move |r| fa(r) && fb(r))
                    } else {
                        Box::new(move |r| fa(r) || fb(r))
                    }
                }
                BinOp::Eq => self.equal(a, b, false),
                // The comparison negated in its own closure: no closure around it.
                BinOp::Ne => self.equal(a, b, true),
                BinOp::In => {
                    // In a range: a test of its bounds, nothing walked (so no
                    // step per number, and no limit on the range's length).
                    if let Expr::Range(lo, hi) = *self.m.expr(b) {
                        let (x, lo, hi) = (self.val_op(a), self.int_req(lo), self.int_req(hi));
                        return Box::new(move |r| {
                            let v = x.get(r);
                            let (lo, hi) = (lo.get(r), hi.get(r));
                            matches!(v, Value::Int(i) if lo <= i && i <= hi)
                        });
                    }
                    let (x, items) = (self.val_op(a), self.items(b));
                    Box::new(move |r| {
                        let v = x.get(r);
                        let mut found = false;
                        items.walk(r, |r, y| {
                            found = r.g.same(v, y);
                            !found
                        });
                        found
                    })
                }
                _ => {
                    let (fa, fb) = (self.int_req(a), self.int_req(b));
                    if let Some(k) = self.const_int(b) {
                        return match op {
                            BinOp::Lt => Box::new(move |r| fa.get(r) < k),
                            BinOp::Le => Box::new(move |r| fa.get(r) <= k),
                            BinOp::Gt => Box::new(move |r| fa.get(r) > k),
                            _ => Box::new(move |r| fa.get(r) >= k),
                        };
                    }
                    match op {
                        BinOp::Lt => Box::new(move |r| fa.get(r) < fb.get(r)),
                        BinOp::Le => Box::new(move |r| fa.get(r) <= fb.get(r)),
                        BinOp::Gt => Box::new(move |r| fa.get(r) > fb.get(r)),
                        _ => Box::new(move |r| fa.get(r) >= fb.get(r)),
                    }
                }
            },
            Expr::Comp(q, slot, coll, body) => {
                self.once_per_walk(e, |c| c.any_or_all(q == Quantifier::Any, slot, coll, body))
            }
            Expr::Tagged(s, t) => {
                let z = self.zone_req(s);
                let bit = 1u64 << (t.0 % 64);
                Box::new(move |r| {
                    let z = z.get(r);
                    r.g.zone_tags.get(z as usize).is_some_and(|tags| tags & bit != 0)
                })
            }
            Expr::Is(p, v) => {
                let p = self.piece_req(p);
                Box::new(move |r| {
                    let p = p.get(r);
                    r.g.inst_variant.get(p as usize).copied().flatten() == Some(v)
                })
            }
            Expr::IsKind(p, k) => {
                let p = self.piece_req(p);
                Box::new(move |r| {
                    let p = p.get(r);
                    r.g.inst_kind.get(p as usize) == Some(&k)
                })
            }
            Expr::Linked(a, b, tag) => {
                let (a, b) = (self.zone_req(a), self.zone_req(b));
                Box::new(move |r| {
                    let (za, zb) = (a.get(r), b.get(r));
                    r.g.geometry.edge(za, zb).is_some_and(|mask| tag.is_none_or(|t| mask & (1u64 << (t.0 % 64)) != 0))
                })
            }
            Expr::Sees(who, p) => {
                let (who, p) = (self.player_req(who), self.piece_req(p));
                Box::new(move |r| {
                    let (who, p) = (who.get(r), p.get(r));
                    r.err.is_none() && r.g.sees_piece(r.st, who as u8, p)
                })
            }
            Expr::Won(who) => {
                let who = self.player_req(who);
                Box::new(move |r| {
                    let who = who.get(r);
                    r.st.outcome.is_some_and(|o| o.winners().any(|w| u16::from(w) == who))
                })
            }
            _ => {
                let _ = at;
                self.mismatch(e)
            }
        }
    }

    /// `any` (else `all`) `slot in coll where body`.
    fn any_or_all(&mut self, any: bool, slot: u16, coll: ExprId, body: Option<ExprId>) -> BoolF {
        let items = self.items(coll);
        let slot = self.slot(slot);
        with_cond!(self.cond(slot, body, items.gives()), cond => Box::new(move |r| {
            let mut hit = false;
            if any {
                // `any` stops at the first that holds, and passes
                // over the others.
                items.walk_kept(r, &cond, |_, _| {
                    hit = true;
                    false
                });
                return hit;
            }
            // `all` stops at the first that fails.
            items.every(r, &cond)
        }))
    }

    /// The conjunction of `parts`, in order (`None` for no part).
    pub(crate) fn all_of(&mut self, parts: &[ExprId]) -> Option<BoolF> {
        all_tests(parts.iter().map(|x| self.bool(*x)).collect())
    }

    /// The parts of a chain of `and` (or of `or`), in the order they are
    /// evaluated (a parameter of an inlined function is one part).
    pub(crate) fn chain(&self, op: BinOp, e: ExprId, out: &mut Vec<ExprId>) {
        match self.m.expr(e) {
            Expr::Bin(o, a, b) if *o == op && self.argument(e).is_none() => {
                let (a, b) = (*a, *b);
                self.chain(op, a, out);
                self.chain(op, b, out);
            }
            _ => out.push(e),
        }
    }

    /// Each part of a chain of `and`, in order, given to `each` in the scope
    /// it is written in: a call of a function whose arguments are all
    /// simple is opened, its body's parts being parts of the chain.
    pub(crate) fn and_parts(&mut self, e: ExprId, each: &mut dyn FnMut(&mut Self, ExprId)) {
        match self.m.expr(e) {
            Expr::Bin(BinOp::And, a, b) => {
                let (a, b) = (*a, *b);
                self.and_parts(a, each);
                self.and_parts(b, each);
            }
            Expr::CallFn(f, args) => {
                let (f, args) = (*f, args.clone());
                if self.within_call(f, &args, |c, body| c.and_parts(body, each)).is_none() {
                    each(self, e);
                }
            }
            _ => each(self, e),
        }
    }

    /// A local of the frame that is not an inlined function's parameter
    /// standing for the caller's argument.
    pub(crate) fn plain_local(&self, e: ExprId) -> Option<u16> {
        match self.m.expr(e) {
            Expr::Local(s) if self.argument(e).is_none() => Some(self.slot(*s)),
            _ => None,
        }
    }

    /// `a == b`, on unboxed values when both sides have the same native
    /// form, or when one side is `none` or a local. Every shortcut gives what
    /// comparing the two values would: a piece equals its variant, and
    /// values of different types are different.
    pub(crate) fn equal(&mut self, a: ExprId, b: ExprId, negate: bool) -> BoolF {
        // `x == none`
        for (x, y) in [(a, b), (b, a)] {
            if matches!(self.m.expr(y), Expr::None) {
                let native = self.native(x);
                // A local zone, piece or player (or a function's parameter
                // standing for one): its value is `none` or an id, read in
                // place rather than through the closure that reads it.
                if let (Some(slot), Native::Zone | Native::Piece | Native::Player) = (self.local_slot(x), native) {
                    return Box::new(move |r| (r.local(slot) == Value::None) != negate);
                }
                return match native {
                    Native::Int => {
                        let f = self.int(x);
                        Box::new(move |r| (f(r) == NONE_INT) != negate)
                    }
                    Native::Zone | Native::Piece => {
                        let f = if native == Native::Zone { self.zone(x) } else { self.piece(x) };
                        Box::new(move |r| (f(r) == NIL) != negate)
                    }
                    Native::Player => {
                        let f = self.player(x);
                        Box::new(move |r| (f(r) == u16::from(NO_PLAYER)) != negate)
                    }
                    _ => {
                        let f = self.val_op(x);
                        Box::new(move |r| (f.get(r) == Value::None) != negate)
                    }
                };
            }
        }
        // A value compared with a local (or with a function's parameter
        // standing for the caller's local): read the local and match it.
        // Reading a local cannot fail, so the order of the two sides does
        // not matter, and the match gives what comparing the values would.
        for (x, y) in [(a, b), (b, a)] {
            let Some(slot) = self.local_slot(y) else { continue };
            match self.native(x) {
                Native::Int => {
                    let f = self.int(x);
                    return Box::new(move |r| {
                        let i = f(r);
                        let same = match r.local(slot) {
                            Value::Int(j) => i == j,
                            Value::None => i == NONE_INT,
                            _ => false,
                        };
                        same != negate
                    });
                }
                Native::Zone => {
                    let f = self.zone(x);
                    return Box::new(move |r| {
                        let z = f(r);
                        let same = match r.local(slot) {
                            Value::Zone(w) => u64::from(z) == w,
                            Value::None => z == NIL,
                            _ => false,
                        };
                        same != negate
                    });
                }
                Native::Player => {
                    let f = self.player_op(x);
                    return Box::new(move |r| {
                        let p = f.get(r);
                        let same = match r.local(slot) {
                            Value::Player(q) => u64::from(p) == q,
                            Value::None => p == u16::from(NO_PLAYER),
                            _ => false,
                        };
                        same != negate
                    });
                }
                Native::Piece => {
                    let f = self.piece(x);
                    return Box::new(move |r| {
                        let p = f(r);
                        let same = match r.local(slot) {
                            Value::Piece(q) => u64::from(p) == q,
                            Value::None => p == NIL,
                            Value::Variant(v) => r.g.inst_variant.get(p as usize).copied().flatten() == Some(VariantId(v as u16)),
                            _ => false,
                        };
                        same != negate
                    });
                }
                _ => {}
            }
        }
        match (self.native(a), self.native(b)) {
            (Native::Int, Native::Int) => {
                let (fa, fb) = (self.int_op(a, false), self.int_op(b, false));
                match fb {
                    IntOp::Const(k) => Box::new(move |r| (fa.get(r) == k) != negate),
                    fb => Box::new(move |r| (fa.get(r) == fb.get(r)) != negate),
                }
            }
            (Native::Bool, Native::Bool) => {
                let (fa, fb) = (self.bool(a), self.bool(b));
                Box::new(move |r| (fa(r) == fb(r)) != negate)
            }
            (Native::Zone, Native::Zone) => {
                let (fa, fb) = (self.zone(a), self.zone(b));
                Box::new(move |r| (fa(r) == fb(r)) != negate)
            }
            (Native::Piece, Native::Piece) => {
                let (fa, fb) = (self.piece(a), self.piece(b));
                Box::new(move |r| (fa(r) == fb(r)) != negate)
            }
            (Native::Player, Native::Player) => {
                let (fa, fb) = (self.player(a), self.player(b));
                Box::new(move |r| (fa(r) == fb(r)) != negate)
            }
            _ => {
                let (fa, fb) = (self.val_op(a), self.val_op(b));
                Box::new(move |r| {
                    let x = fa.get(r);
                    let y = fb.get(r);
                    r.g.same(x, y) != negate
                })
            }
        }
    }

    // ------------------------------------------------------------ zones, pieces, players
}

/// The conjunction of tests already compiled, in order: one test as it
/// is, `None` for none.
pub(crate) fn all_tests(mut tests: Vec<BoolF>) -> Option<BoolF> {
    match tests.len() {
        0 => None,
        1 => tests.pop(),
        _ => {
            let tests = tests.into_boxed_slice();
            Some(Box::new(move |r| tests.iter().all(|t| t(r))))
        }
    }
}
