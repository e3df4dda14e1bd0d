//! What a `choose`'s condition computes once per decision: a function call
//! or a comprehension in it that reads none of the names the walk binds
//! (`not must_capture(p)` in `where can_jump(m, d) or (not must_capture(p)
//! and can_step(m, d))`) gives the same value for every tuple tried, so it
//! is computed where the walk first needs it and read back after that.
//!
//! Nothing a game can see changes: the value is the one each computation
//! would give (a condition changes nothing, and what it reads is not
//! written during the walk), every reading is charged the steps the
//! computation took (fuel runs out where it would have), and a computation
//! that fails is not kept. The cache lives in two hidden slots of the
//! frame, emptied by the `choose` before each walk; no operation reads them
//! afterwards, so they are never part of a state's canonical form.

use super::compiler::Compiler;
use super::{BoolF, IntF};
use crate::engine::compile::operands::int_value;
use crate::engine::run::Run;
use crate::engine::value::Value;
use crate::model::{Expr, ExprId};

/// The `choose` whose condition is being compiled.
pub(crate) struct Hoist {
    /// Slots its evaluation writes: the bindings, and the names its own
    /// comprehensions, regions and lines bind.
    varying: Vec<u16>,
    /// Slots from here up are written by its evaluation too (the stored
    /// arguments of the functions it inlines).
    watermark: u16,
    /// The first slot of each cache (the value, then the steps it took).
    pub(crate) caches: Vec<u16>,
}

impl Compiler<'_> {
    /// Start compiling the condition `cond` of a `choose` binding `slots`.
    pub(crate) fn hoist_in(&mut self, slots: &[u16], cond: ExprId) {
        let mut varying = slots.to_vec();
        varying.extend(self.bound_in(cond));
        self.hoist = Some(Hoist { varying, watermark: self.frame, caches: Vec::new() });
    }

    /// Done: the cache slots the `choose` empties before each walk.
    pub(crate) fn hoisted(&mut self) -> Vec<u16> {
        self.hoist.take().map(|h| h.caches).unwrap_or_default()
    }

    /// The slots the comprehensions, regions and lines of `e` bind.
    fn bound_in(&self, e: ExprId) -> Vec<u16> {
        let mut bound = Vec::new();
        self.m.walk_expr(e, &mut |x| {
            if let Expr::Comp(_, s, ..) | Expr::Region(s, ..) | Expr::InARow(s, ..) = self.m.expr(x) {
                bound.push(self.slot(*s));
            }
        });
        bound
    }

    /// Whether `e`, in the condition being compiled, is worth computing
    /// once (a call or a comprehension) and gives one value for the whole
    /// walk: everything it reads but what it binds itself is set before
    /// the walk starts.
    fn hoistable(&self, e: ExprId) -> bool {
        let Some(h) = &self.hoist else { return false };
        if !matches!(self.m.expr(e), Expr::CallFn(..) | Expr::Comp(..)) || self.argument(e).is_some() {
            return false;
        }
        let own = self.bound_in(e);
        self.frame_reads(e).iter().all(|s| own.contains(s) || (*s < h.watermark && !h.varying.contains(s)))
    }

    /// `e` computed once per walk, if it can be (see [`Compiler::hoistable`]).
    pub(crate) fn hoisted_bool(&mut self, e: ExprId) -> Option<BoolF> {
        let (f, slot) = self.compiled_once(e, |c, e| c.bool(e))?;
        Some(Box::new(move |r| cached(r, slot, |r| Value::bool(f(r))) == Value::True))
    }

    /// [`Compiler::hoisted_bool`] for a number.
    pub(crate) fn hoisted_int(&mut self, e: ExprId) -> Option<IntF> {
        let (f, slot) = self.compiled_once(e, |c, e| c.int(e))?;
        Some(Box::new(move |r| match cached(r, slot, |r| int_value(f(r))) {
            Value::Int(i) => i,
            _ => super::NONE_INT,
        }))
    }

    /// `e` compiled whole (nothing inside it is cached again), with the
    /// first of its two cache slots, when it can be computed once.
    fn compiled_once<T>(&mut self, e: ExprId, compile: impl FnOnce(&mut Self, ExprId) -> T) -> Option<(T, u16)> {
        if !self.hoistable(e) {
            return None;
        }
        let outer = self.hoist.take();
        let f = compile(self, e);
        self.hoist = outer;
        Some((f, self.cache_slots()))
    }

    fn cache_slots(&mut self) -> u16 {
        let slot = self.alloc(2);
        if let Some(h) = &mut self.hoist {
            h.caches.push(slot);
        }
        slot
    }
}

/// The value kept in `slot` (and the steps it took in the next one), or
/// computed and kept there when the slot is empty. `none` is never kept:
/// a computation that gives it runs again at the next reading.
#[inline]
fn cached(r: &mut Run, slot: u16, compute: impl FnOnce(&mut Run) -> Value) -> Value {
    match r.local(slot) {
        Value::None => {
            let before = r.fuel;
            let v = compute(r);
            if r.err.is_none() {
                r.set_local(slot, v);
                r.set_local(slot + 1, Value::Int(i64::try_from(before.saturating_sub(r.fuel)).unwrap_or(i64::MAX)));
            }
            v
        }
        v => {
            let steps = match r.local(slot + 1) {
                Value::Int(n) => u64::try_from(n).unwrap_or(0),
                _ => 0,
            };
            // Out of fuel where the computation would have run out: the
            // error is set, and the operation stops.
            r.spend(steps);
            v
        }
    }
}

/// Empty the caches before a walk.
pub(crate) fn empty(r: &mut Run, caches: &[u16]) {
    for s in caches {
        r.set_local(*s, Value::None);
    }
}
