//! What operations do to the zones and to chance: moving pieces (with the
//! zones' kinds and capacities checked, and the triggers an arrival fires),
//! revealing them, shuffles and dice (drawn from the state's generator, or
//! laid out as chance options when exploring).

use super::compile::{Audience, RevealOp};
use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::run::Run;
use super::recorded::{Revealed, Rolled};
use super::state::{Frame, Pending, Stage, State, CHANCE, NIL, SHUFFLE_SAMPLES};
use super::value::Value;
use crate::model::*;

impl Game {
    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    pub(super) fn move_piece(&self, r: &mut Run, frame: Frame, p: u16, to: u16, bottom: bool, at: &Loc) {
        let (Some(info), Some(kind)) = (self.zones.get(to as usize), self.inst_kind.get(p as usize).copied()) else { return };
        if !info.kinds.is_empty() && !info.kinds.contains(&kind) {
            r.fail(ExecErrorKind::ZoneKind, format!("`{}` does not hold `{}`", info.name, self.model.kinds[kind.idx()].name), *at);
            return;
        }
        let from = r.st.loc[p as usize];
        if from != to {
            if let Some(cap) = info.capacity {
                if r.st.zone_len(to) >= cap as usize {
                    r.fail(ExecErrorKind::Capacity, format!("`{}` is full ({cap})", info.name), *at);
                    return;
                }
            }
        }
        if (to == self.box_zone || from == self.box_zone) && from != to && r.st.stage == Stage::Rounds {
            r.st.box_moved_at = Some(*at);
        }
        if self.program.reveals && from != to {
            self.blur_alike(r.st, p, from);
        }
        self.write_unseen_by_ends(
            r.st,
            |ends| ends.zone(from) || ends.zone(to),
            |st| self.relocate(st, p, to, bottom),
        );
        self.fire_triggers(r, frame, p, to);
        if r.err.is_none() && !self.model.ends.is_empty() {
            self.check_ends(r, frame.actor);
        }
    }

    /// Piece `p` leaves zone `from`: a player who cannot see inside `from`
    /// and does not know `p`, but knows a piece of `from` alike to it (the
    /// same kind, variant, owner and per-piece values), cannot tell which of
    /// the two left, so he no longer knows the one that stays. (He knew "a
    /// guard is in that hand"; a guard was played from it: the one he knew,
    /// or the one just drawn.) Nor, by the same token, the one that left,
    /// when he did not know the other: the guard played may be the one he
    /// never saw.
    fn blur_alike(&self, st: &mut State, p: u16, from: u16) {
        // The players who cannot see inside `from` and do not know `p`, and
        // those who do (masks: this runs at every move of a rulebook that
        // reveals).
        let blind = self.blind_to(from);
        let known_p = st.known.get(p as usize).copied().unwrap_or(0);
        let (unsure, knowing) = (blind & !known_p, blind & known_p);
        if blind == 0 {
            return;
        }
        // Only pieces of p's kind, variant and owner can be alike, and they
        // are numbered in one run: most runs are one piece (a card of its
        // own) or fewer than the pieces of `from` (a deck), which walking
        // the zone cost Grail Cup 10 % of its time.
        let (first, n) = self.alike_run.get(p as usize).copied().unwrap_or((p, 1));
        if n <= 1 {
            return;
        }
        // Forget `q` for the unsure players if it is alike to `p`; and
        // note the players who know `p` but not `q`, alike to it, which may
        // as well be the one that left: they forget `p` too (the walks
        // below change only what players know, never where pieces are).
        let mut lost_p = 0;
        let mut blur = |st: &mut State, q: u16| {
            let known = st.known.get(q as usize).copied().unwrap_or(0);
            // Who forgets `p` already does: only the others need a look at
            // whether `q` is alike (the look is the costly part: a deck of
            // 800 alike cards, peeked at before each draw, looked at them
            // all at every draw, an outside tester's).
            let (forget_q, forget_p) = (known & unsure, knowing & !known & !lost_p);
            if q != p && (forget_q | forget_p) != 0 && self.interchangeable(st, &[Value::piece(p)], &[Value::piece(q)]) {
                if let Some(k) = st.known.get_mut(q as usize) {
                    *k &= !forget_q;
                }
                lost_p |= forget_p;
            }
        };
        if usize::from(n) <= st.zone_len(from) {
            for q in first..first.saturating_add(n) {
                if st.loc.get(q as usize) == Some(&from) {
                    blur(st, q);
                }
            }
        } else {
            let mut q = st.head.get(from as usize).copied().unwrap_or(NIL);
            while q != NIL {
                let next = st.next.get(q as usize).copied().unwrap_or(NIL);
                blur(st, q);
                q = next;
            }
        }
        if let Some(k) = st.known.get_mut(p as usize) {
            *k &= !lost_p;
        }
    }

    /// Push the triggers listening to this arrival whose condition holds now;
    /// they run in declaration order before the next operation.
    pub(super) fn fire_triggers(&self, r: &mut Run, frame: Frame, p: u16, zone: u16) {
        let kind = self.inst_kind[p as usize];
        for t in self.triggers_by_kind[kind.idx()].iter().rev() {
            let proc = self.model.proc(*t);
            let base = self.push_proc(r.st, *t, &[Value::piece(p), Value::zone(zone)], frame.actor, frame.depth.saturating_add(1), false, false);
            let holds = match &self.program.trigger_when[t.idx()] {
                Some(w) => {
                    let (saved_base, saved_actor) = (r.base, r.actor);
                    r.base = base as usize;
                    r.actor = frame.actor;
                    let h = w(r);
                    r.base = saved_base;
                    r.actor = saved_actor;
                    h
                }
                None => true,
            };
            if r.err.is_some() {
                if let Some(when) = proc.when {
                    self.place_condition_error(r, when, &proc.name);
                }
                return;
            }
            if !holds {
                r.st.frames.pop();
                r.st.stack.truncate(base as usize);
                continue;
            }
            if frame.depth >= self.trigger_depth {
                let limit = self.trigger_depth;
                let raise = if limit == crate::resolve::MAX_TRIGGER_DEPTH {
                    "`trigger_depth` is at its highest already, so the triggers must chain less deep"
                } else {
                    "if the game really chains more, raise `trigger_depth` in the rulebook's header"
                };
                let mut e = ExecError::new(
                    ExecErrorKind::TriggerChain,
                    format!("triggers fired each other more than {limit} deep (the limit `trigger_depth`): `{}` seems to loop; {raise}", proc.name),
                    Some(proc.at),
                );
                e.rule = Some(proc.name.clone());
                r.err = Some(Box::new(e));
                return;
            }
            r.st.fired[t.idx()] += 1;
        }
    }

    /// Whether the pieces a `move N of KIND from F to Z` takes are all in
    /// `F` (else the error, said here): they move one per step afterwards
    /// (`Op::MoveCountNext`), but the rule takes N or fails at once.
    #[allow(clippy::too_many_arguments, reason = "the operation's operands")]
    pub(super) fn count_available(&self, r: &mut Run, count: i64, kind: KindId, f: u16, z: u16, at: Loc) -> bool {
        if count < 0 {
            r.fail(ExecErrorKind::OutOfRange, format!("the rule takes {count} `{}`: a number of pieces is 0 or more", self.model.kinds[kind.idx()].name), at);
            return false;
        }
        // Each piece looked at costs a step, as a walk's item does.
        let (mut have, mut looked) = (0i64, 0u64);
        for p in r.st.zone_pieces(f) {
            if have >= count {
                break;
            }
            looked += 1;
            have += i64::from(self.takes(p, kind, f, z));
        }
        if !r.spend(looked) {
            return false;
        }
        if have < count {
            let msg = format!("the rule takes {count} `{}` from `{}`, which holds {have}: the text does not say what happens then", self.model.kinds[kind.idx()].name, self.zones[f as usize].name);
            r.fail(ExecErrorKind::Underflow, msg, at);
            return false;
        }
        true
    }

    /// The top-most piece of `F`, from piece `start` down (`None`: from the
    /// top; `Some(NIL)`: below the bottom, so none), that a `move N of KIND
    /// from F to Z` takes; each piece looked at costs a step (`None` also
    /// when the fuel is gone).
    pub(super) fn top_of_kind(&self, r: &mut Run, kind: KindId, f: u16, z: u16, start: Option<u16>) -> Option<u16> {
        let mut p = start.unwrap_or_else(|| r.st.zone_top(f).unwrap_or(NIL));
        let mut looked = 1;
        while p != NIL && !self.takes(p, kind, f, z) {
            p = r.st.prev[p as usize];
            looked += 1;
        }
        (r.spend(looked) && p != NIL).then_some(p)
    }

    /// The next pieces of a `move N of KIND` (`Op::MoveCountNext`), kept out
    /// of the step machine's loop: it runs in setups, rarely in play, and
    /// its code inlined there made the loop slower for every operation.
    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    #[inline(never)]
    pub(super) fn move_count_next(&self, r: &mut Run, frame: Frame, index: usize, pc: u32, kind: KindId, state: u16, bottom: bool, exit: u32, at: &Loc) {
        let (Value::Zone(f), Value::Zone(z), Value::Int(mut left)) = (r.local(state), r.local(state + 1), r.local(state + 2)) else { return };
        let (f, z) = (f as u16, z as u16);
        // Where the next piece is looked for: from the top when the
        // operation starts or comes back after triggers ran (they may
        // have changed `F`); else from under the piece just taken,
        // since the pieces above it were looked at and are not of the
        // kind (a setup's `move 500 of stone from box` looked through
        // the other player's 500 stones for each of its own). Not when
        // the pieces go back into `F`: the one taken is on top again.
        let mut below = None;
        loop {
            // A trigger may have taken the rest away meanwhile.
            let Some(p) = self.top_of_kind(r, kind, f, z, below) else {
                if r.err.is_none() {
                    Self::jump(r, index, exit);
                }
                return;
            };
            if f != z {
                below = Some(r.st.prev.get(p as usize).copied().unwrap_or(NIL));
            }
            self.move_piece(r, frame, p, z, bottom, at);
            left -= 1;
            if r.err.is_some() {
                return;
            }
            if left <= 0 {
                Self::jump(r, index, exit);
                return;
            }
            if Self::arrival_fired(r, index) {
                r.set_local(state + 2, Value::Int(left));
                Self::jump(r, index, pc);
                return;
            }
        }
    }

    /// Whether `move N of KIND from F to Z` may take piece `p`: one of the
    /// kind and, out of the box into a player's zone, of a per-player kind,
    /// that player's own (never another player's).
    fn takes(&self, p: u16, kind: KindId, f: u16, z: u16) -> bool {
        let owner = if f == self.box_zone && self.model.kinds[kind.idx()].per_player { self.zones[z as usize].owner } else { None };
        self.inst_kind[p as usize] == kind && (owner.is_none() || self.inst_owner[p as usize] == owner)
    }

    /// The players of a `reveal` or a `roll ... to`, one bit each.
    fn audience_mask(&self, r: &mut Run, to: &Audience, at: Loc) -> u16 {
        match to {
            Audience::One(p) => {
                let p = p.get(r);
                if p < 16 {
                    1u16 << p
                } else {
                    0
                }
            }
            Audience::Many(c) => r.players_mask(c, at),
        }
    }

    /// `roll ... to PLAYERS`: the roll just kept for the screens (when they
    /// are kept) is shown to those players only.
    pub(super) fn roll_seen_by(&self, r: &mut Run, to: &Audience, at: Loc) {
        let mask = self.audience_mask(r, to, at);
        if r.err.is_none() {
            if let Some(last) = r.st.rolled.as_mut().and_then(|kept| kept.last_mut()) {
                last.seen_by = Some(mask);
            }
        }
    }

    /// `reveal`: the players of the audience now know which pieces these are.
    pub(super) fn reveal(&self, r: &mut Run, what: &RevealOp, to: &Audience, rule: ProcId, at: Loc) {
        let mask = self.audience_mask(r, to, at);
        if r.err.is_some() {
            return;
        }
        match what {
            RevealOp::Piece(p) => {
                let p = p.get(r);
                if r.err.is_none() {
                    self.show(r.st, p, mask, rule);
                }
            }
            RevealOp::Top(z) => {
                let z = z.get(r);
                // The top of an empty zone shows nothing.
                if r.err.is_none() {
                    if let Some(p) = r.st.zone_top(z) {
                        self.show(r.st, p, mask, rule);
                    }
                }
            }
            RevealOp::All(z) => {
                let z = z.get(r);
                if r.err.is_none() && r.spend(r.st.zone_len(z) as u64) {
                    let mut p = r.st.head[z as usize];
                    while p != NIL {
                        self.show(r.st, p, mask, rule);
                        p = r.st.next[p as usize];
                    }
                }
            }
        }
    }

    /// The players of `mask` know piece `p` from now on; in a recorded game,
    /// those who neither knew it nor see its zone are noted as shown it.
    fn show(&self, st: &mut State, p: u16, mask: u16, rule: ProcId) {
        let Some(known) = st.known.get_mut(p as usize) else { return };
        let new = mask & !*known;
        *known |= mask;
        if let Some(kept) = st.revealed.as_mut() {
            let zone = st.loc.get(p as usize).copied().unwrap_or(self.box_zone);
            let to = new & self.blind_to(zone);
            if to != 0 {
                kept.push(Revealed { piece: p, zone, rule: Some(rule), after_decisions: st.decisions, to });
            }
        }
    }

    pub(super) fn shuffle(&self, r: &mut Run, z: u16, pc: u32) {
        let n = r.st.zone_len(z);
        // Each piece shuffled costs a step: a loop of shuffles of a large
        // zone runs out of fuel as soon as a loop of small steps does.
        if !r.spend(n as u64) {
            return;
        }
        // Once shuffled, nobody can tell which piece of the zone is which.
        r.st.forget_zone(z);
        if r.st.exploring {
            // The orders the canonical form tells apart (alike pieces in
            // any order are one position), enumerated when few enough.
            let orders = super::shuffle_orders::distinct_orders(&self.piece_codes(r.st, z), SHUFFLE_SAMPLES);
            let options = match orders {
                Some(p) => p,
                None => {
                    r.st.sampled_shuffle = true;
                    SHUFFLE_SAMPLES
                }
            };
            if options > 1 {
                let base = r.st.frames.last().map(|f| f.base).unwrap_or(0);
                r.st.options.clear();
                r.st.options.extend((0..options as i64).map(Value::Int));
                r.st.arity = 1;
                r.st.pending = Some(Pending { player: CHANCE, base, pc, shuffle: Some(z) });
            }
            return;
        }
        // Fisher-Yates from the back, on the pieces front first: the same
        // draws give the same order whatever the zone's storage.
        let mut order = std::mem::take(&mut r.st.scratch);
        let start = order.len();
        order.extend(r.st.zone_pieces(z).map(Value::piece));
        for i in (1..n).rev() {
            let j = r.st.random_below(i as u64 + 1) as usize;
            order.swap(start + i, start + j);
        }
        self.write_unseen_by_ends(r.st, |ends| ends.zone(z), |st| self.relink(st, z, &order[start..]));
        order.truncate(start);
        r.st.scratch = order;
    }

    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    pub(super) fn roll(&self, r: &mut Run, slot: u16, die: DieId, pc: u32, rule: ProcId, at: Loc) {
        let d = &self.model.dice[die.idx()];
        if r.st.exploring {
            r.st.options.clear();
            if d.sides.is_empty() {
                r.st.options.extend((1..=i64::from(d.size)).map(Value::Int));
            } else {
                r.st.options.extend(d.sides.iter().map(|f| Value::face(f.0)));
            }
            r.st.arity = 1;
            let base = r.base as u32;
            r.st.pending = Some(Pending { player: CHANCE, base, pc, shuffle: None });
            return;
        }
        let side = r.st.random_below(u64::from(d.size)) as usize;
        let v = match d.sides.get(side) {
            Some(f) => Value::face(f.0),
            None => Value::Int(side as i64 + 1),
        };
        r.set_local(slot, v);
        let after_decisions = r.st.decisions;
        if let Some(kept) = r.st.rolled.as_mut() {
            kept.push(Rolled { die, value: v, rule, at, after_decisions, seen_by: None });
        }
    }

    /// Apply chance option `k` of a shuffle: the k-th of its distinct orders
    /// when all are enumerated, else the k-th of the distinct orders drawn
    /// at random (shuffle_orders.rs).
    pub(super) fn shuffle_as_chance(&self, st: &mut State, z: u16, k: Value) {
        let Value::Int(k) = k else { return };
        let pool: Vec<Value> = st.zone_pieces(z).map(Value::piece).collect();
        let codes = self.piece_codes(st, z);
        let positions = if super::shuffle_orders::distinct_orders(&codes, SHUFFLE_SAMPLES).is_some() {
            super::shuffle_orders::nth_order(&codes, k as u64)
        } else {
            super::shuffle_orders::nth_sampled_order(&codes, k as u64, SHUFFLE_SAMPLES)
        };
        let order: Vec<Value> = positions.into_iter().filter_map(|i| pool.get(i).copied()).collect();
        self.write_unseen_by_ends(st, |ends| ends.zone(z), |st| self.relink(st, z, &order));
    }
}
