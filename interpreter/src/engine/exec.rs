//! The step machine: runs the compiled operations of the top frame until a
//! decision is needed or the game ends. Nothing of the game lives on the Rust
//! stack between two calls, so a state can be cloned or saved at any
//! decision.

use super::tuples::{collect_tuples, take_option};
use super::compile::{arith, resolve_slot, Audience, Op, RevealOp, Target, NONE_INT, NO_SITE};
use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::run::Run;
use super::simultaneous::SimSlot;
use super::state::{Frame, Outcome, Pending, Stage, State, CHANCE, NIL, SHUFFLE_SAMPLES};
use super::value::Value;
use super::Options;
use crate::model::*;
use grimoire_grammar::ast::{AssignOp, ExceptionMode};

/// Most exceptions one rule may have (they are tracked as bits).
pub const MAX_EXCEPTIONS_PER_RULE: usize = 128;

impl Game {
    /// The player who must decide now and the legal options, or `None` when
    /// the game is over.
    pub fn choices<'s>(&self, st: &'s State) -> Option<(u8, Options<'s>)> {
        if st.outcome.is_some() {
            return None;
        }
        st.pending.map(|p| (p.player, Options::new(st.arity as usize, &st.options)))
    }

    /// The operation that asks the pending decision.
    fn pending_op(&self, st: &State) -> Option<(&Op, Loc)> {
        let p = st.pending?;
        let frame = st.frames.last()?;
        let code = self.program.procs.get(frame.proc.idx())?;
        Some((code.ops.get(p.pc as usize)?, *code.at.get(p.pc as usize)?))
    }

    /// The question being asked, if the rulebook gave one.
    pub fn prompt(&self, st: &State) -> Option<&str> {
        match self.pending_op(st)? {
            (Op::Choose { stmt, .. }, _) => match &self.model.stmt(*stmt).stmt {
                Stmt::Choose { prompt, .. } => prompt.as_deref(),
                _ => None,
            },
            _ => None,
        }
    }

    /// Where in the rulebook the pending decision is asked.
    pub fn pending_at(&self, st: &State) -> Option<Loc> {
        self.pending_op(st).map(|(_, at)| at)
    }

    /// Take option `index` of the pending decision and run to the next one.
    pub fn apply(&self, st: &mut State, index: usize) -> Result<(), ExecError> {
        let Some(p) = st.pending else {
            return Err(ExecError::new(ExecErrorKind::BadChoice, "no decision is pending: the game is over", None));
        };
        let arity = st.arity.max(1) as usize;
        let n = st.options.len() / arity;
        if index >= n {
            return Err(ExecError::new(ExecErrorKind::BadChoice, format!("option {index} does not exist; there are {n}"), None));
        }
        let first = index * arity;
        match (p.shuffle, self.pending_op(st).map(|(op, _)| op)) {
            (Some(z), _) => {
                let k = st.options.get(first).copied().unwrap_or_default();
                self.shuffle_as_chance(st, z, k);
            }
            (None, Some(Op::Choose { binds, .. })) => {
                for (k, (slot, _)) in binds.iter().enumerate() {
                    let v = st.options.get(first + k).copied().unwrap_or_default();
                    if let Some(x) = st.stack.get_mut(p.base as usize + *slot as usize) {
                        *x = v;
                    }
                }
            }
            (None, Some(Op::Roll(slot, _))) => {
                let v = st.options.get(first).copied().unwrap_or_default();
                if let Some(x) = st.stack.get_mut(p.base as usize + *slot as usize) {
                    *x = v;
                }
            }
            _ => return Err(ExecError::new(ExecErrorKind::BadChoice, "the pending decision is not at a `choose`, `roll` or `shuffle`", None)),
        }
        st.pending = None;
        st.options.clear();
        st.arity = 1;
        if p.player != CHANCE {
            st.decisions += 1;
            st.plies += 1;
            if let Some(sim) = st.sim.as_mut() {
                sim.decisions = sim.decisions.saturating_add(1);
            }
        }
        self.run(st)
    }

    /// Run until a decision or the end.
    pub(crate) fn run(&self, st: &mut State) -> Result<(), ExecError> {
        self.run_with_fuel(st, self.step_fuel)
    }

    /// Run until a decision or the end with `fuel` steps left (a game
    /// started from a state stopped in the middle of a run).
    pub(crate) fn run_with_fuel(&self, st: &mut State, fuel: u64) -> Result<(), ExecError> {
        let mut r = Run::new(self, st, fuel);
        let result = self.run_loop::<false>(&mut r);
        r.st.scratch.clear();
        result
    }

    /// Run from a fresh state up to the first operation that may draw from
    /// the RNG (a shuffle, a roll, a `choose`), and stop before it: the
    /// fuel left when it stopped, or `None` if the run ended, waited for a
    /// decision or failed before. Every game, whatever its seed, goes
    /// through that state with that fuel.
    pub(crate) fn run_to_chance(&self, st: &mut State) -> Option<u64> {
        let mut r = Run::new(self, st, self.step_fuel);
        let result = self.run_loop::<true>(&mut r);
        r.st.scratch.clear();
        let stopped = r.stopped && result.is_ok() && r.err.is_none();
        stopped.then_some(r.fuel)
    }

    fn run_loop<const TO_CHANCE: bool>(&self, r: &mut Run) -> Result<(), ExecError> {
        loop {
            if r.st.outcome.is_some() || r.st.pending.is_some() {
                return Ok(());
            }
            let Some(&frame) = r.st.frames.last() else {
                // Starting a round costs a step: a round that does nothing
                // (`round turn { }`) must run out of fuel, not spin forever.
                if !r.tick() {
                    r.err = None;
                    let round = self.model.round.map(|(p, _)| p);
                    let mut e = ExecError::new(ExecErrorKind::Fuel, fuel_message(self.step_fuel), round.map(|p| self.model.proc(p).at));
                    e.rule = round.map(|p| self.model.proc(p).name.clone());
                    return Err(e);
                }
                self.next_stage(r);
                self.stop_on_error(r, None)?;
                continue;
            };
            let top = r.st.frames.len() - 1;
            let code = &self.program.procs[frame.proc.idx()];
            r.base = frame.base as usize;
            let mut pc = frame.pc as usize;
            // Run this frame's operations while it stays on top and nothing
            // waits: the frame and its code are looked up once.
            loop {
                let Some(op) = code.ops.get(pc) else {
                    self.leave(r, frame);
                    self.stop_on_error(r, Some(frame.proc))?;
                    break;
                };
                if TO_CHANCE && matches!(op, Op::Shuffle(_) | Op::Roll(..) | Op::Choose { .. }) {
                    // The frame's next operation is this one: a later run
                    // starts with it.
                    r.stopped = true;
                    return Ok(());
                }
                if !r.tick() {
                    r.err = None;
                    let mut e = ExecError::new(ExecErrorKind::Fuel, fuel_message(self.step_fuel), code.at.get(pc).copied());
                    e.rule = Some(self.model.proc(frame.proc).name.clone());
                    return Err(e);
                }
                let f = &mut r.st.frames[top];
                f.pc = pc as u32 + 1;
                // `as` changes the frame's actor between operations.
                let now = *f;
                r.actor = now.actor;
                self.exec(r, now, top, pc as u32, op, code.at[pc]);
                if r.err.is_some() {
                    return self.stop_on_error(r, Some(frame.proc));
                }
                if r.st.frames.len() != top + 1 || r.st.pending.is_some() || r.st.outcome.is_some() {
                    break;
                }
                pc = r.st.frames[top].pc as usize;
            }
        }
    }

    /// The error recorded by the last operation, with the rule it ran in.
    fn stop_on_error(&self, r: &mut Run, proc: Option<ProcId>) -> Result<(), ExecError> {
        match r.err.take() {
            None => Ok(()),
            Some(e) => {
                let mut e = *e;
                if e.rule.is_none() {
                    e.rule = proc.map(|p| self.model.proc(p).name.clone());
                }
                Err(e)
            }
        }
    }

    /// A procedure's code is done: leave its frame.
    fn leave(&self, r: &mut Run, frame: Frame) {
        r.st.frames.pop();
        r.st.stack.truncate(frame.base as usize);
        if frame.end && r.st.outcome.is_none() {
            let p = self.model.proc(frame.proc);
            r.fail(ExecErrorKind::NoOutcome, format!("the end condition `{}` held but its body did not end the game", p.name), p.at);
            return;
        }
        if frame.phase {
            self.check_ends(r, frame.actor);
        }
    }

    /// Set the next operation of the frame at `index` of the stack.
    fn jump(r: &mut Run, index: usize, target: u32) {
        if let Some(f) = r.st.frames.get_mut(index) {
            f.pc = target;
        }
    }

    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    #[inline(always)]
    fn exec(&self, r: &mut Run, frame: Frame, index: usize, pc: u32, op: &Op, at: Loc) {
        match op {
            Op::Let(slot, v) => {
                let x = v.get(r);
                r.set_local(*slot, x);
            }
            Op::Assign(target, op, v) => self.assign(r, target, *op, v, at),
            Op::MovePiece { piece, to, bottom } => {
                let (p, z) = (piece.get(r), to.get(r));
                if r.err.is_none() {
                    self.move_piece(r, frame, p, z, *bottom, at);
                }
            }
            Op::MoveTop { from, to, bottom } => {
                let (f, z) = (from.get(r), to.get(r));
                if r.err.is_some() {
                    return;
                }
                match r.st.zone_top(f) {
                    Some(p) => self.move_piece(r, frame, p, z, *bottom, at),
                    None => {
                        let msg = format!("`move top of` found `{}` empty", self.zones[f as usize].name);
                        r.fail(ExecErrorKind::Underflow, msg, at);
                    }
                }
            }
            Op::MoveAll { from, to, bottom } => {
                let (f, z) = (from.get(r), to.get(r));
                if r.err.is_some() || f == z {
                    return;
                }
                while let Some(p) = r.st.zone_pieces(f).next() {
                    self.move_piece(r, frame, p, z, *bottom, at);
                    if r.err.is_some() {
                        return;
                    }
                }
            }
            Op::MoveCount { n, kind, from, to, bottom } => {
                let (n, f, z) = (n.get(r), from.get(r), to.get(r));
                self.move_count(r, frame, n, *kind, f, z, *bottom, at);
            }
            Op::Shuffle(z) => {
                let z = z.get(r);
                if r.err.is_none() {
                    self.shuffle(r, z, pc);
                }
            }
            Op::Reveal { what, to } => self.reveal(r, what, to, at),
            Op::Roll(slot, die) => self.roll(r, *slot, *die, pc),
            Op::Choose { binds, cond, tested, by, otherwise, sites, .. } => {
                let who = by.as_ref().map(|f| f.get(r));
                r.st.options.clear();
                if r.err.is_none() {
                    collect_tuples(r, binds, cond, tested.as_ref());
                }
                if r.err.is_some() {
                    r.st.options.clear();
                    return;
                }
                let arity = binds.len().max(1);
                let n = r.st.options.len() / arity;
                count(r, sites[usize::from(n == 0)]);
                if n == 0 {
                    match (otherwise, who) {
                        (Some(target), _) => {
                            // Nothing was chosen: the names hold `none` in `else` and after.
                            for (slot, _) in binds {
                                r.set_local(*slot, Value::None);
                            }
                            Self::jump(r, index, *target);
                        }
                        (None, Some(who)) => r.fail(ExecErrorKind::Deadlock, format!("player {} must choose but has no legal option", who + 1), at),
                        (None, None) => r.fail(ExecErrorKind::Deadlock, "`choose ... at random` has nothing to choose from".into(), at),
                    }
                    return;
                }
                if let (Some(who), Some(sim)) = (who, r.st.sim.as_deref()) {
                    if sim.player != Some(who as u8) {
                        let turn = sim.player.map_or("nobody's".to_string(), |p| format!("player {}'s", p + 1));
                        r.fail(ExecErrorKind::Simultaneous, format!("player {} decides during {turn} turn of a `simultaneous` block: only the player whose turn it is may decide there", who + 1), at);
                        return;
                    }
                }
                let decide = match who {
                    Some(who) if n > 1 || r.st.forced_decisions => Some(who as u8),
                    Some(_) => {
                        // A forced choice is no decision: take it and go on.
                        take_option(r, binds, 0);
                        r.st.plies += 1;
                        None
                    }
                    None if r.st.exploring && n > 1 => Some(CHANCE),
                    None => {
                        let i = r.st.random_below(n as u64) as usize;
                        take_option(r, binds, i * arity);
                        None
                    }
                };
                match decide {
                    Some(player) => {
                        r.st.arity = arity as u8;
                        r.st.pending = Some(Pending { player, base: frame.base, pc, shuffle: None });
                    }
                    None => r.st.options.clear(),
                }
            }
            Op::Jump(target) => Self::jump(r, index, *target),
            Op::JumpUnless(cond, target, sites) => {
                let held = cond(r);
                if r.err.is_none() {
                    count(r, sites[usize::from(!held)]);
                    if !held {
                        Self::jump(r, index, *target);
                    }
                }
            }
            Op::ForStart { slot, items, state, exit } => {
                let start = r.st.stack.len();
                items.walk(r, |r, v| {
                    r.st.stack.push(v);
                    true
                });
                let len = r.st.stack.len() - start;
                if r.err.is_some() || len == 0 {
                    r.st.stack.truncate(start);
                    Self::jump(r, index, *exit);
                    return;
                }
                let first = r.st.stack[start];
                r.set_local(*slot, first);
                r.set_local(*state, Value::Int(start as i64));
                r.set_local(state + 1, Value::Int(len as i64));
                r.set_local(state + 2, Value::Int(1));
            }
            Op::ForNext { slot, state, body } => {
                let (Value::Int(start), Value::Int(len), Value::Int(next)) = (r.local(*state), r.local(state + 1), r.local(state + 2)) else { return };
                if next < len {
                    let item = r.st.stack.get((start + next) as usize).copied().unwrap_or_default();
                    r.set_local(*slot, item);
                    r.set_local(state + 2, Value::Int(next + 1));
                    Self::jump(r, index, *body);
                } else {
                    r.st.stack.truncate(start as usize);
                }
            }
            Op::SimBegin => r.sim_begin(at),
            Op::SimTurn(slot) => {
                let p = r.local(*slot);
                r.sim_turn(p, at);
            }
            Op::SimSeal => r.sim_seal(),
            Op::SimReveal => r.sim_reveal(at, |slot| self.slot_name(slot)),
            Op::RepeatStart { n, left, exit } => {
                let n = n.get(r);
                if n <= 0 {
                    Self::jump(r, index, *exit);
                } else {
                    r.set_local(*left, Value::Int(n));
                }
            }
            Op::RepeatNext { left, body } => {
                if let Value::Int(l) = r.local(*left) {
                    if l > 1 {
                        r.set_local(*left, Value::Int(l - 1));
                        Self::jump(r, index, *body);
                    }
                }
            }
            Op::Match { value, arms, default, sites } => {
                let v = value.get(r);
                let arm = arms.iter().position(|(keys, _)| {
                    keys.iter().any(|k| match (k, v) {
                        (MatchKey::Face(f), Value::Face(x)) => f.0 == x,
                        (MatchKey::Variant(vr), Value::Variant(x)) => vr.0 == x,
                        (MatchKey::Variant(vr), Value::Piece(p)) => self.inst_variant.get(p as usize).copied().flatten() == Some(*vr),
                        _ => false,
                    })
                });
                count(r, sites.get(arm.unwrap_or(arms.len())).copied().unwrap_or(NO_SITE));
                Self::jump(r, index, arm.and_then(|a| arms.get(a)).map(|(_, t)| *t).unwrap_or(*default));
            }
            Op::Call(p, args) => {
                let mut vals = [Value::None; 8];
                let n = args.len().min(8);
                for (i, a) in args.iter().take(8).enumerate() {
                    vals[i] = a.get(r);
                }
                if r.err.is_none() {
                    self.call(r, *p, &vals[..n], frame.actor, frame.depth);
                }
            }
            Op::Proceed(target) => {
                // The rule an exception changes, run as written, with the
                // exception's own arguments (its first locals).
                let n = (self.model.proc(*target).params as usize).min(8);
                let mut vals = [Value::None; 8];
                for (i, v) in vals.iter_mut().enumerate().take(n) {
                    *v = r.local(i as u16);
                }
                r.st.fired[target.idx()] += 1;
                let phase = self.model.proc(*target).kind == ProcKind::Phase;
                self.push_proc(r.st, *target, &vals[..n], frame.actor, frame.depth, phase, false);
            }
            Op::SetActor { player, save } => {
                let p = player.get(r);
                if r.err.is_none() {
                    r.set_local(*save, Value::Int(i64::from(frame.actor)));
                    if let Some(f) = r.st.frames.get_mut(index) {
                        f.actor = p as u8;
                    }
                }
            }
            Op::RestoreActor(save) => {
                if let Value::Int(a) = r.local(*save) {
                    if let Some(f) = r.st.frames.get_mut(index) {
                        f.actor = a as u8;
                    }
                }
            }
            Op::Win(p) => {
                let p = p.get(r);
                if r.err.is_none() {
                    r.st.outcome = Some(Outcome::Winner(p as u8));
                }
            }
            Op::WinAll(c) => {
                let mut mask = 0u16;
                c(r, &mut |r, v| {
                    match v {
                        Value::Player(p) if p < r.g.players => mask |= 1 << p,
                        other => r.wrong("a player", other, at),
                    }
                    r.err.is_none()
                });
                if r.err.is_none() {
                    r.st.outcome = Some(match mask.count_ones() {
                        0 => Outcome::Ended,
                        1 => Outcome::Winner(mask.trailing_zeros() as u8),
                        _ => Outcome::Shared(mask),
                    });
                }
            }
            Op::Draw => r.st.outcome = Some(Outcome::Draw),
            Op::End => r.st.outcome = Some(Outcome::Ended),
            Op::Pass => {}
        }
    }

    fn assign(&self, r: &mut Run, target: &Target, op: AssignOp, v: &super::compile::ValOp, at: Loc) {
        let value = v.get(r);
        if r.err.is_some() {
            return;
        }
        let combine = |r: &mut Run, old: Value| -> Value {
            if op == AssignOp::Set {
                return value;
            }
            let (a, b) = (r.as_int(old, at), r.as_int(value, at));
            let (a, b) = (r.need_int(a, at), r.need_int(b, at));
            Value::Int(arith(r, if op == AssignOp::Add { grimoire_grammar::ast::BinOp::Add } else { grimoire_grammar::ast::BinOp::Sub }, a, b, at))
        };
        match target {
            Target::Local(s) => {
                let new = combine(r, r.local(*s));
                if r.err.is_none() {
                    r.set_local(*s, new);
                }
            }
            Target::Var(base, index) => {
                let Some(slot) = resolve_slot(r, *base, index, at) else { return };
                r.sim_record(SimSlot::Var(slot as u32));
                let old = r.st.vars.get(slot).copied().unwrap_or_default();
                let new = combine(r, old);
                if r.err.is_none() {
                    if let Some(x) = r.st.vars.get_mut(slot) {
                        *x = new;
                    }
                }
            }
            Target::Counter(base, index, lo, hi, c) => {
                let Some(slot) = resolve_slot(r, *base, index, at) else { return };
                r.sim_record(SimSlot::Counter(slot as u32));
                let old = Value::Int(r.st.counters.get(slot).copied().unwrap_or(0));
                let new = combine(r, old);
                let new = r.as_int(new, at);
                let new = r.need_int(new, at);
                if r.err.is_some() {
                    return;
                }
                if new < *lo || new > *hi || new == NONE_INT {
                    let name = &self.model.counters[c.idx()].name;
                    r.fail(ExecErrorKind::CounterBounds, format!("the counter `{name}` would become {new}, outside {lo}..{hi}"), at);
                    return;
                }
                if let Some(x) = r.st.counters.get_mut(slot) {
                    *x = new;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    fn move_count(&self, r: &mut Run, frame: Frame, count: i64, kind: KindId, f: u16, z: u16, bottom: bool, at: Loc) {
        if r.err.is_some() {
            return;
        }
        // Out of the box, a player's zone receives that player's own pieces
        // of a per-player kind, never another player's.
        let owner = if f == self.box_zone && self.model.kinds[kind.idx()].per_player { self.zones[z as usize].owner } else { None };
        let takes = |p: &u16| self.inst_kind[*p as usize] == kind && (owner.is_none() || self.inst_owner[*p as usize] == owner);
        let have = r.st.zone_pieces(f).filter(takes).count() as i64;
        if have < count {
            let msg = format!("the rule takes {count} `{}` from `{}`, which holds {have}: the text does not say what happens then", self.model.kinds[kind.idx()].name, self.zones[f as usize].name);
            r.fail(ExecErrorKind::Underflow, msg, at);
            return;
        }
        for _ in 0..count.max(0) {
            // The top-most piece of the kind: walk from the back.
            let mut p = r.st.zone_top(f).unwrap_or(NIL);
            while p != NIL && !takes(&p) {
                p = r.st.prev[p as usize];
            }
            if p == NIL {
                return;
            }
            self.move_piece(r, frame, p, z, bottom, at);
            if r.err.is_some() {
                return;
            }
        }
    }

    /// `reveal`: the players of the audience now know which pieces these are.
    fn reveal(&self, r: &mut Run, what: &RevealOp, to: &Audience, at: Loc) {
        let mask = match to {
            Audience::One(p) => {
                let p = p.get(r);
                if p < 16 {
                    1u16 << p
                } else {
                    0
                }
            }
            Audience::Many(c) => {
                let mut mask = 0u16;
                c(r, &mut |r, v| {
                    match v {
                        Value::Player(p) if p < r.g.players => mask |= 1 << p,
                        other => r.wrong("a player", other, at),
                    }
                    r.err.is_none()
                });
                mask
            }
        };
        if r.err.is_some() {
            return;
        }
        match what {
            RevealOp::Piece(p) => {
                let p = p.get(r);
                if r.err.is_none() {
                    r.st.known[p as usize] |= mask;
                }
            }
            RevealOp::Top(z) => {
                let z = z.get(r);
                // The top of an empty zone shows nothing.
                if r.err.is_none() {
                    if let Some(p) = r.st.zone_top(z) {
                        r.st.known[p as usize] |= mask;
                    }
                }
            }
            RevealOp::All(z) => {
                let z = z.get(r);
                if r.err.is_none() {
                    let mut p = r.st.head[z as usize];
                    while p != NIL {
                        r.st.known[p as usize] |= mask;
                        p = r.st.next[p as usize];
                    }
                }
            }
        }
    }

    fn shuffle(&self, r: &mut Run, z: u16, pc: u32) {
        // Once shuffled, nobody can tell which piece of the zone is which.
        r.st.forget_zone(z);
        let n = r.st.zone_len(z);
        if r.st.exploring {
            let perms = (1..=n as u64).try_fold(1u64, |acc, k| acc.checked_mul(k).filter(|x| *x <= SHUFFLE_SAMPLES));
            let options = match perms {
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
        order.extend(r.st.zone_pieces(z).map(Value::Piece));
        for i in (1..n).rev() {
            let j = r.st.random_below(i as u64 + 1) as usize;
            order.swap(start + i, start + j);
        }
        r.st.relink(z, &order[start..]);
        order.truncate(start);
        r.st.scratch = order;
    }

    fn roll(&self, r: &mut Run, slot: u16, die: DieId, pc: u32) {
        let d = &self.model.dice[die.idx()];
        if r.st.exploring {
            r.st.options.clear();
            if d.sides.is_empty() {
                r.st.options.extend((1..=i64::from(d.size)).map(Value::Int));
            } else {
                r.st.options.extend(d.sides.iter().map(|f| Value::Face(f.0)));
            }
            r.st.arity = 1;
            let base = r.base as u32;
            r.st.pending = Some(Pending { player: CHANCE, base, pc, shuffle: None });
            return;
        }
        let side = r.st.random_below(u64::from(d.size)) as usize;
        let v = match d.sides.get(side) {
            Some(f) => Value::Face(f.0),
            None => Value::Int(side as i64 + 1),
        };
        r.set_local(slot, v);
    }

    /// Apply chance option `k` of a shuffle: the k-th permutation when all are
    /// enumerated, else an order drawn from a generator seeded with `k`.
    fn shuffle_as_chance(&self, st: &mut State, z: u16, k: Value) {
        let Value::Int(k) = k else { return };
        let mut order: Vec<Value> = st.zone_pieces(z).map(Value::Piece).collect();
        let n = order.len();
        let all: Option<u64> = (1..=n as u64).try_fold(1u64, |acc, i| acc.checked_mul(i).filter(|x| *x <= SHUFFLE_SAMPLES));
        if all.is_some() {
            // Unrank k in the factorial number system.
            let mut pool = std::mem::take(&mut order);
            let mut k = k as u64;
            for i in (1..=n).rev() {
                let f: u64 = (1..i as u64).product();
                let j = (k / f.max(1)) as usize;
                k %= f.max(1);
                order.push(pool.remove(j.min(pool.len() - 1)));
            }
        } else {
            use rand_chacha::rand_core::{RngCore, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(k as u64);
            for i in (1..n).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
        }
        st.relink(z, &order);
    }

    /// Setup, then rounds, each called like any rule so that modules'
    /// exceptions to `setup` and to the round apply.
    fn next_stage(&self, r: &mut Run) {
        let m = &*self.model;
        if r.st.stage == Stage::Start {
            r.st.stage = Stage::Setup;
            if let Some(setup) = m.setup {
                self.call(r, setup, &[], super::state::NO_ACTOR, 0);
                return;
            }
        }
        if r.st.stage == Stage::Setup {
            r.st.box_after_setup = Some(r.st.zone_len(self.box_zone) as u32);
        }
        r.st.stage = Stage::Rounds;
        let Some((round, _)) = m.round else {
            if r.err.is_none() {
                r.err = Some(Box::new(ExecError::new(ExecErrorKind::NoOutcome, "the rulebook has no `round`, and setup did not end the game", None)));
            }
            return;
        };
        if let Some(times) = &self.program.round_times {
            let n = self.in_window(r, self.program.init_locals, super::state::NO_ACTOR, |r| times.get(r));
            if r.err.is_some() {
                return;
            }
            if i64::from(r.st.round) >= n {
                r.fail(ExecErrorKind::NoOutcome, format!("all {n} rounds were played and no rule decided the outcome"), m.proc(round).at);
                return;
            }
        }
        r.st.round += 1;
        self.call(r, round, &[], super::state::NO_ACTOR, 0);
    }

    /// Evaluate `f` in a window of `locals` fresh slots on top of the stack.
    pub(crate) fn in_window<T>(&self, r: &mut Run, locals: u16, actor: u8, f: impl FnOnce(&mut Run) -> T) -> T {
        let base = r.st.stack.len();
        r.st.stack.resize(base + locals as usize, Value::None);
        let (saved_base, saved_actor) = (r.base, r.actor);
        r.base = base;
        r.actor = actor;
        let v = f(r);
        r.base = saved_base;
        r.actor = saved_actor;
        r.st.stack.truncate(base);
        v
    }

    /// A cell of a table, evaluated in a fresh window.
    pub(crate) fn table_cell(&self, r: &mut Run, table: u16, row: u16, col: u16) -> Value {
        let cell = self.program.table_cells.get(table as usize).and_then(|rows| rows.get(row as usize)).and_then(|cells| cells.get(col as usize));
        match cell {
            Some(f) => {
                let actor = r.actor;
                self.in_window(r, self.program.table_locals, actor, |r| f(r))
            }
            None => Value::None,
        }
    }

    #[allow(clippy::too_many_arguments, reason = "a frame has this many parts")]
    fn push_proc(&self, st: &mut State, proc: ProcId, args: &[Value], actor: u8, depth: u8, phase: bool, end: bool) -> u32 {
        let locals = self.program.procs[proc.idx()].locals as usize;
        let base = st.stack.len();
        // The arguments, then `none` in the other locals: written one by
        // one (a call has a few), without a `memcpy` call.
        st.stack.resize(base + locals.max(args.len()), Value::None);
        if let Some(window) = st.stack.get_mut(base..base + args.len()) {
            for (x, a) in window.iter_mut().zip(args) {
                *x = *a;
            }
        }
        st.frames.push(Frame { proc, pc: 0, base: base as u32, actor, depth, phase, end });
        base as u32
    }

    /// Call a procedure, applying the exceptions that hold: those another
    /// holding exception is `over` are dropped; of the rest, at most one may
    /// replace the body (`instead`: two are a conflict), while `before` and
    /// `after` exceptions add to it, in declaration order.
    fn call(&self, r: &mut Run, proc: ProcId, args: &[Value], actor: u8, depth: u8) {
        let p = self.model.proc(proc);
        let phase = p.kind == ProcKind::Phase;
        if p.exceptions.is_empty() {
            r.st.fired[proc.idx()] += 1;
            self.push_proc(r.st, proc, args, actor, depth, phase, false);
            return;
        }
        if p.exceptions.len() > MAX_EXCEPTIONS_PER_RULE {
            r.fail(ExecErrorKind::OutOfRange, format!("`{}` has {} exceptions; a rule may have at most {MAX_EXCEPTIONS_PER_RULE}", p.name, p.exceptions.len()), p.at);
            return;
        }
        let mut holding = 0u128;
        for (i, x) in p.exceptions.iter().enumerate() {
            let def = &self.model.exceptions[x.idx()];
            let locals = self.program.procs[def.body.idx()].locals.max(args.len() as u16);
            let when = &self.program.exception_when[x.idx()];
            let holds = self.in_window(r, locals, actor, |r| {
                for (k, a) in args.iter().enumerate() {
                    r.set_local(k as u16, *a);
                }
                when(r)
            });
            if r.err.is_some() {
                return;
            }
            if holds {
                holding |= 1 << i;
            }
        }
        let bits = |mask: u128| (0..p.exceptions.len()).filter(move |i| mask & (1 << i) != 0);
        let def = |i: usize| &self.model.exceptions[p.exceptions[i].idx()];
        let mut kept = holding;
        for i in bits(holding) {
            if bits(holding).any(|j| def(j).over.contains(&p.exceptions[i])) {
                kept &= !(1 << i);
            }
        }
        let of_mode = |mode: ExceptionMode| bits(kept).filter(move |i| def(*i).mode == mode);
        let mut insteads = of_mode(ExceptionMode::Instead);
        let first = insteads.next();
        if let (Some(a), Some(b)) = (first, insteads.next()) {
            let (da, db) = (def(a), def(b));
            let mut e = ExecError::new(
                ExecErrorKind::Conflict,
                format!("the exceptions `{}` and `{}` to `{}` both apply, both replace it, and neither is `over` the other", da.name, db.name, p.name),
                Some(da.at),
            );
            e.rule = Some(p.name.clone());
            r.err = Some(Box::new(e));
            return;
        }
        // Frames run last-pushed first: push the afters in reverse, then the
        // body (or its replacement), then the befores in reverse.
        let body = first.map(|i| def(i).body).unwrap_or(proc);
        let afters = of_mode(ExceptionMode::After).count();
        let backwards = |mode: ExceptionMode| (0..p.exceptions.len()).rev().filter(move |i| kept & (1 << i) != 0 && def(*i).mode == mode);
        for (k, i) in backwards(ExceptionMode::After).enumerate() {
            let b = def(i).body;
            r.st.fired[b.idx()] += 1;
            // The last addition to run closes the phase.
            let closes = phase && k == 0;
            self.push_proc(r.st, b, args, actor, depth, closes, false);
        }
        r.st.fired[body.idx()] += 1;
        // End conditions are checked once the whole phase, additions included, is done.
        self.push_proc(r.st, body, args, actor, depth, phase && afters == 0, false);
        for i in backwards(ExceptionMode::Before) {
            let b = def(i).body;
            r.st.fired[b.idx()] += 1;
            self.push_proc(r.st, b, args, actor, depth, false, false);
        }
    }

    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    fn move_piece(&self, r: &mut Run, frame: Frame, p: u16, to: u16, bottom: bool, at: Loc) {
        let (Some(info), Some(kind)) = (self.zones.get(to as usize), self.inst_kind.get(p as usize).copied()) else { return };
        if !info.kinds.is_empty() && !info.kinds.contains(&kind) {
            r.fail(ExecErrorKind::ZoneKind, format!("`{}` does not hold `{}`", info.name, self.model.kinds[kind.idx()].name), at);
            return;
        }
        let from = r.st.loc[p as usize];
        if from != to {
            if let Some(cap) = info.capacity {
                if r.st.zone_len(to) >= cap as usize {
                    r.fail(ExecErrorKind::Capacity, format!("`{}` is full ({cap})", info.name), at);
                    return;
                }
            }
        }
        r.st.unlink(p);
        r.st.link(p, to, bottom);
        self.fire_triggers(r, frame, p, to);
        if r.err.is_none() && !self.model.ends.is_empty() {
            self.check_ends(r, frame.actor);
        }
    }

    /// Push the triggers listening to this arrival whose condition holds now;
    /// they run in declaration order before the next operation.
    fn fire_triggers(&self, r: &mut Run, frame: Frame, p: u16, zone: u16) {
        let kind = self.inst_kind[p as usize];
        for t in self.triggers_by_kind[kind.idx()].iter().rev() {
            let proc = self.model.proc(*t);
            let base = self.push_proc(r.st, *t, &[Value::Piece(p), Value::Zone(zone)], frame.actor, frame.depth.saturating_add(1), false, false);
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
                return;
            }
            if !holds {
                r.st.frames.pop();
                r.st.stack.truncate(base as usize);
                continue;
            }
            if frame.depth >= self.trigger_depth {
                let limit = self.trigger_depth;
                let mut e = ExecError::new(
                    ExecErrorKind::TriggerChain,
                    format!("triggers fired each other more than {limit} deep (the limit `trigger_depth`): `{}` seems to loop; if the game really chains more, raise `trigger_depth` in the rulebook's header", proc.name),
                    Some(proc.at),
                );
                e.rule = Some(proc.name.clone());
                r.err = Some(Box::new(e));
                return;
            }
            r.st.fired[t.idx()] += 1;
        }
    }

    fn check_ends(&self, r: &mut Run, actor: u8) {
        // While the body of an end condition runs (it must end the game),
        // its own moves do not check the conditions again: the body would
        // start over in the middle of itself.
        if r.st.outcome.is_some() || r.st.frames.iter().any(|f| f.end) {
            return;
        }
        for (i, end) in self.model.ends.iter().enumerate() {
            let locals = self.program.procs[end.body.idx()].locals.max(1);
            let when = &self.program.end_when[i];
            let holds = self.in_window(r, locals, actor, |r| when(r));
            if r.err.is_some() {
                return;
            }
            if holds {
                if r.st.stage != Stage::Rounds {
                    // The game would end before it starts: the condition is
                    // almost always meant for the game in play.
                    let msg = format!("the end condition `{}` already holds during setup: the game would end before it starts", end.name);
                    let mut e = ExecError::new(ExecErrorKind::EndInSetup, msg, Some(self.model.proc(end.body).at));
                    e.rule = Some(end.name.clone());
                    r.err = Some(Box::new(e));
                    return;
                }
                r.st.ends_fired[i] += 1;
                self.push_proc(r.st, end.body, &[], actor, 0, false, true);
                return;
            }
        }
    }
}

/// The finding of a run out of fuel, naming the limit.
pub(crate) fn fuel_message(fuel: u64) -> String {
    format!("the rules took more than {fuel} steps without a decision (the limit `step_fuel`): this rule seems to loop; if the game really needs more, raise `step_fuel` in the rulebook's header")
}

/// Count a run of a branch site (coverage).
#[inline]
fn count(r: &mut Run, site: u32) {
    if let Some(c) = r.st.branches.get_mut(site as usize) {
        *c += 1;
    }
}

