//! What the end conditions read, worked out once per game, so that a change
//! none of them can see does not make the engine test them again.
//!
//! The engine remembers that it tested every end condition and none held
//! (`State::ends_checked_for`); the next test can only repeat that answer
//! until something a condition reads changes. Every write to the state
//! forgets the answer (so do a scenario's `set` and `place`, and any tool's);
//! the engine's own moves, shuffles and assignments keep it back when this
//! map says no condition reads what they changed. Without it a game whose
//! end condition reads one score tested it again after each of its
//! hundreds of moves.
//!
//! The map is conservative: a zone whose contents a condition may read
//! through something other than the zone's own name (`count(z)` of a local
//! `z`, `pos(p)`, `zone_of(p)`, `top(...)` of a computed zone, `leader`) makes
//! every zone watched; a counter or var is watched as a whole declaration,
//! whatever slot the condition indexes. The round number, the actor and the
//! end of a `simultaneous` block forget the answer on their own (calls.rs,
//! simultaneous.rs).

use super::layout::{Game, ZoneInfo};
use super::state::State;
use crate::model::{Builtin, Expr, ExprId, Model};

impl Game {
    /// Make `write` to the state, which forgets that no end condition held,
    /// and keep that answer back when `seen` says no condition reads what
    /// it changed: every move, shuffle and assignment of the engine goes
    /// through here.
    #[inline]
    pub(super) fn write_unseen_by_ends<T>(&self, st: &mut State, seen: impl FnOnce(&EndWatch) -> bool, write: impl FnOnce(&mut State) -> T) -> T {
        let checked = st.ends_checked_for;
        let out = write(st);
        if checked.is_some() && !seen(&self.end_watch) {
            st.ends_checked_for = checked;
        }
        out
    }
}

/// Per zone number and per counter and var slot: whether a change there can
/// change what an end condition finds.
#[derive(Debug, Clone, Default)]
pub(crate) struct EndWatch {
    zones: Vec<bool>,
    counter_slots: Vec<bool>,
    var_slots: Vec<bool>,
}

/// What the end conditions read, by declaration.
struct Reads {
    every_zone: bool,
    zone_defs: Vec<bool>,
    the_box: bool,
    counters: Vec<bool>,
    vars: Vec<bool>,
    fns_seen: Vec<bool>,
}

impl EndWatch {
    /// The map for a game laid out with these zones and slot bases
    /// (`counter_base[c]` is the first slot of counter declaration `c`).
    pub(crate) fn new(m: &Model, zones: &[ZoneInfo], box_zone: u16, counter_base: &[u32], counter_slots: u32, var_base: &[u32], var_slots: u32) -> EndWatch {
        let mut reads = Reads {
            every_zone: false,
            zone_defs: vec![false; m.zones.len()],
            the_box: false,
            counters: vec![false; m.counters.len()],
            vars: vec![false; m.vars.len()],
            fns_seen: vec![false; m.fns.len()],
        };
        for end in &m.ends {
            reads.expr(m, end.when);
        }
        let zones = zones
            .iter()
            .enumerate()
            .map(|(z, info)| reads.every_zone || info.def.is_some_and(|d| reads.zone_defs[d.idx()]) || (reads.the_box && z == usize::from(box_zone)))
            .collect();
        let by_slot = |read: &[bool], base: &[u32], total: u32| {
            let mut slots = vec![false; total as usize];
            for (d, &yes) in read.iter().enumerate() {
                let end = base.get(d + 1).copied().unwrap_or(total);
                if yes {
                    slots[base[d] as usize..end as usize].fill(true);
                }
            }
            slots
        };
        EndWatch { zones, counter_slots: by_slot(&reads.counters, counter_base, counter_slots), var_slots: by_slot(&reads.vars, var_base, var_slots) }
    }

    /// A piece entered or left zone `z`.
    #[inline]
    pub(crate) fn zone(&self, z: u16) -> bool {
        self.zones.get(usize::from(z)).copied().unwrap_or(true)
    }

    /// Counter slot `s` was set.
    #[inline]
    pub(crate) fn counter(&self, s: usize) -> bool {
        self.counter_slots.get(s).copied().unwrap_or(true)
    }

    /// Var slot `s` was set.
    #[inline]
    pub(crate) fn var(&self, s: usize) -> bool {
        self.var_slots.get(s).copied().unwrap_or(true)
    }
}

impl Reads {
    fn expr(&mut self, m: &Model, e: ExprId) {
        m.walk_expr(e, &mut |x| self.node(m, x));
    }

    /// One node of a condition (`walk_expr` visits its parts).
    fn node(&mut self, m: &Model, x: ExprId) {
        match m.expr(x) {
            Expr::Zone(d, _) => self.zone_defs[d.idx()] = true,
            Expr::Box => self.the_box = true,
            Expr::Counter(c, _) => self.counters[c.idx()] = true,
            Expr::Var(v, _) => self.vars[v.idx()] = true,
            // A zone's contents read through its name are covered by the
            // `Zone` node; through anything else, any zone may be read.
            Expr::Call(Builtin::Count | Builtin::Top, args) if !args.iter().all(|a| is_named_zone(m, *a)) => self.every_zone = true,
            Expr::Contents(z) if !is_named_zone(m, *z) => self.every_zone = true,
            Expr::Call(Builtin::Pos | Builtin::Index | Builtin::ZoneOf | Builtin::Holder, _) | Expr::Leader(..) | Expr::Rearmost(..) | Expr::Sees(..) | Expr::Won(..) => self.every_zone = true,
            // A function's body once: what it reads does not depend on
            // its arguments, which `walk_expr` visits at the call.
            Expr::CallFn(f, _) if !self.fns_seen[f.idx()] => {
                self.fns_seen[f.idx()] = true;
                self.expr(m, m.fns[f.idx()].body);
            }
            _ => {}
        }
    }
}

/// `e` names a zone by its declaration (`hand[p]`, `deck`, `box`).
fn is_named_zone(m: &Model, e: ExprId) -> bool {
    matches!(m.expr(e), Expr::Zone(..) | Expr::Box)
}
