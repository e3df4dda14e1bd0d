//! What a walk computes once: a function call or a comprehension in a
//! `choose`'s condition, or in a comprehension's condition or value, that
//! reads none of the names the walk binds (`not must_capture(p)` in `where
//! can_jump(m, d) or (not must_capture(p) and can_step(m, d))`, the `min`
//! in `[q in players where points(q) == (min r in players of points(r))]`)
//! gives the same value for every item tried, so it is computed where the
//! walk first needs it and read back after that.
//!
//! Nothing a game can see changes: the value is the one each computation
//! would give (a condition changes nothing, and what it reads is not
//! written during the walk: a comprehension is walked whole inside one
//! operation, and a `for` walks the items its collection had when it
//! began), and a computation that fails is not kept. Only the fuel differs:
//! the steps are those the computation took, once; charging them again at
//! every reading (as the walk written out would take them) made an outside
//! tester's 10x10 draughts, choosing over pairs of squares with its
//! compulsory capture in the condition, run out of fuel in 9 games of 200,
//! reported as a rule that seems to loop, for work never done.
//!
//! The caches are not part of the state: each walk pushes its own, empty,
//! on the state's scratch buffer (which regions use in the same last-in,
//! first-out way, and which is empty between two runs) and drops them when
//! it is done, so a state's fingerprint, its canonical form and its locals
//! are those of the rules as written. A walk inside another one's
//! condition keeps the outer walk's caches: what reads neither walk's names
//! is then computed once for the outer walk.

use super::compiler::{Compiler, F};
use super::{BoolF, IntF, ValF};
use crate::engine::compile::operands::int_value;
use crate::engine::run::Run;
use crate::engine::value::Value;
use crate::model::{Expr, ExprId};

/// The walk whose condition is being compiled.
pub(crate) struct Hoist {
    /// Slots its evaluation writes: the bindings, and the names its own
    /// comprehensions, regions and lines bind.
    varying: Vec<u16>,
    /// Slots from here up are written by its evaluation too (the stored
    /// arguments of the functions it inlines).
    watermark: u16,
    /// How many caches it has (each one value).
    caches: u16,
}

impl Compiler<'_> {
    /// Start compiling the condition `cond` of a `choose` binding `slots`.
    pub(crate) fn hoist_in(&mut self, slots: &[u16], cond: ExprId) {
        let mut varying = slots.to_vec();
        varying.extend(self.bound_in(cond));
        self.hoist = Some(Hoist { varying, watermark: self.frame, caches: 0 });
    }

    /// Done: how many caches the walk must hold ([`with_caches`]).
    pub(crate) fn hoisted(&mut self) -> u16 {
        self.hoist.take().map_or(0, |h| h.caches)
    }

    /// The comprehension `e` compiled by `compile`, and how many caches its
    /// walk holds ([`with_caches`]); none when it is compiled inside another
    /// walk's condition, whose caches serve it.
    pub(crate) fn walk_once<T>(&mut self, e: ExprId, compile: impl FnOnce(&mut Self) -> T) -> (T, u16) {
        if self.hoist.is_some() {
            return (compile(self), 0);
        }
        self.hoist = Some(Hoist { varying: self.bound_in(e), watermark: self.frame, caches: 0 });
        let compiled = compile(self);
        (compiled, self.hoisted())
    }

    /// [`Compiler::walk_once`] of a comprehension that gives one value
    /// (`count`, `any`, `first`...): the walk, run with its caches when it
    /// has some.
    pub(crate) fn once_per_walk<T: 'static>(&mut self, e: ExprId, compile: impl FnOnce(&mut Self) -> F<T>) -> F<T> {
        let (f, caches) = self.walk_once(e, compile);
        if caches == 0 {
            return f;
        }
        Box::new(move |r| with_caches(r, caches, |r| f(r)))
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
        let (f, cache) = self.compiled_once(e, |c, e| c.bool(e))?;
        Some(Box::new(move |r| cached(r, cache, |r| Value::bool(f(r))) == Value::True))
    }

    /// [`Compiler::hoisted_bool`] for a number.
    pub(crate) fn hoisted_int(&mut self, e: ExprId) -> Option<IntF> {
        let (f, cache) = self.compiled_once(e, |c, e| c.int(e))?;
        Some(Box::new(move |r| match cached(r, cache, |r| int_value(f(r))) {
            Value::Int(i) => i,
            _ => super::NONE_INT,
        }))
    }

    /// [`Compiler::hoisted_bool`] for a value of any type.
    pub(crate) fn hoisted_val(&mut self, e: ExprId) -> Option<ValF> {
        let (f, cache) = self.compiled_once(e, |c, e| c.val(e))?;
        Some(Box::new(move |r| cached(r, cache, |r| f(r))))
    }

    /// `e` compiled whole (nothing inside it is cached in this walk's
    /// caches: a comprehension inside it has its own), with the number of
    /// its cache, when it can be computed once.
    fn compiled_once<T>(&mut self, e: ExprId, compile: impl FnOnce(&mut Self, ExprId) -> T) -> Option<(T, u16)> {
        if !self.hoistable(e) {
            return None;
        }
        let outer = self.hoist.take();
        let f = compile(self, e);
        self.hoist = outer;
        let h = self.hoist.as_mut()?;
        h.caches += 1;
        Some((f, h.caches - 1))
    }
}

/// Run `walk` with `caches` empty caches of its own on the scratch buffer,
/// dropped when it is done (the enclosing walk's, if any, are found again).
#[inline]
pub(crate) fn with_caches<T>(r: &mut Run, caches: u16, walk: impl FnOnce(&mut Run) -> T) -> T {
    let outer = r.caches;
    r.caches = r.st.scratch.len();
    r.st.scratch.resize(r.caches + usize::from(caches), Value::None);
    let result = walk(r);
    r.st.scratch.truncate(r.caches);
    r.caches = outer;
    result
}

/// The value kept in cache `cache` of the running walk, or computed and
/// kept there when it is empty. `none` is never kept: a computation that
/// gives it runs again at the next reading.
#[inline]
fn cached(r: &mut Run, cache: u16, compute: impl FnOnce(&mut Run) -> Value) -> Value {
    let at = r.caches + usize::from(cache);
    match r.st.scratch.get(at).copied().unwrap_or(Value::None) {
        Value::None => {
            let v = compute(r);
            if r.err.is_none() {
                if let Some(kept) = r.st.scratch.get_mut(at) {
                    *kept = v;
                }
            }
            v
        }
        v => v,
    }
}
