//! The step machine: runs the compiled operations of the top frame until a
//! decision is needed or the game ends. Nothing of the game lives on the Rust
//! stack between two calls, so a state can be cloned or saved at any
//! decision.

use super::tuples::{collect_tuples, take_option};
use super::compile::{arith, resolve_slot, Op, Target, NONE_INT, NO_SITE};
use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::run::Run;
use super::simultaneous::SimSlot;
use super::state::{Frame, Outcome, Pending, State, CHANCE};
use super::value::Value;
use super::Options;
use crate::model::*;
use grimoire_grammar::ast::AssignOp;

/// Most exceptions one rule may have (they are tracked as bits).
pub const MAX_EXCEPTIONS_PER_RULE: usize = 128;
/// Most rules running inside each other (`do`, phases, triggers and the
/// round itself): a rule that calls itself without end stops here.
pub const MAX_RULE_DEPTH: usize = 10_000;

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
            (Op::Choose(c), _) => match &self.model.stmt(c.stmt).stmt {
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
        let n = tuples(st.options.len(), arity);
        if index >= n {
            return Err(ExecError::new(ExecErrorKind::BadChoice, format!("option {index} does not exist; there are {n}"), None));
        }
        let first = index * arity;
        match (p.shuffle, self.pending_op(st).map(|(op, _)| op)) {
            (Some(z), _) => {
                let k = st.options.get(first).copied().unwrap_or_default();
                self.shuffle_as_chance(st, z, k);
            }
            (None, Some(Op::Choose(c))) => {
                for (k, (slot, _)) in c.binds.iter().enumerate() {
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

    /// Take option `index` of the pending decision of `from` in `into`,
    /// which becomes the state that follows (`from` is left as it was): what
    /// `into.clone_from(from)` then `apply(into, index)` give, without
    /// copying the decision's other options.
    pub fn apply_copy(&self, from: &State, into: &mut State, index: usize) -> Result<(), ExecError> {
        if !into.copy_with_option(from, index) {
            // Not a legal option: the error `apply` gives.
            into.clone_from(from);
            return self.apply(into, index);
        }
        self.apply(into, 0)
    }

    /// The state that option `index` of the pending decision of `from`
    /// leads to, and whether the rules ran without error: `apply` on a
    /// clone of `from`, without copying the decision's other options.
    pub fn after(&self, from: &State, index: usize) -> (State, Result<(), ExecError>) {
        match from.clone_with_option(index) {
            Some(mut next) => {
                let result = self.apply(&mut next, 0);
                (next, result)
            }
            None => {
                // Not a legal option: the error `apply` gives.
                let mut next = from.clone();
                let result = self.apply(&mut next, index);
                (next, result)
            }
        }
    }

    /// Run until a decision or the end.
    pub(crate) fn run(&self, st: &mut State) -> Result<(), ExecError> {
        self.run_with_fuel(st, self.step_fuel)
    }

    /// Run until a decision or the end with `fuel` steps left (a game
    /// started from a state stopped in the middle of a run).
    pub(crate) fn run_with_fuel(&self, st: &mut State, fuel: u64) -> Result<(), ExecError> {
        let first_round = st.round;
        let mut r = Run::new(self, st, fuel);
        let result = self.run_loop::<false>(&mut r, first_round);
        r.st.scratch.clear();
        result
    }

    /// A run out of fuel that went through rounds with no decision in
    /// them: the rounds themselves go on without end (a game no player
    /// takes part in, which nothing ends), not the rule that happened to be
    /// running when the fuel ran out (an outside tester's War without its
    /// cap on battles was blamed on a different rule in each game). Said
    /// so, at the round.
    #[cold]
    #[inline(never)]
    fn rounds_without_decision(&self, mut e: ExecError, first: u32, last: u32) -> ExecError {
        if e.kind != ExecErrorKind::Fuel || last < first.saturating_add(2) {
            return e;
        }
        e.message = rounds_fuel_message(self.step_fuel, first, last);
        if let Some((round, _)) = self.model.round {
            let p = self.model.proc(round);
            (e.at, e.rule) = (Some(p.at), Some(p.name.clone()));
        }
        e
    }

    /// Run from a fresh state up to the first operation that may draw from
    /// the RNG (a shuffle, a roll, a `choose`), and stop before it: the
    /// fuel left when it stopped, or `None` if the run ended, waited for a
    /// decision or failed before. Every game, whatever its seed, goes
    /// through that state with that fuel.
    pub(crate) fn run_to_chance(&self, st: &mut State) -> Option<u64> {
        let mut r = Run::new(self, st, self.step_fuel);
        let first_round = r.st.round;
        let result = self.run_loop::<true>(&mut r, first_round);
        r.st.scratch.clear();
        let stopped = r.stopped && result.is_ok() && r.err.is_none();
        stopped.then_some(r.fuel)
    }

    /// The run; `first_round` is the round it started in (an error of fuel
    /// after rounds without a decision is the round's).
    fn run_loop<const TO_CHANCE: bool>(&self, r: &mut Run, first_round: u32) -> Result<(), ExecError> {
        loop {
            if r.st.outcome.is_some() || r.st.pending.is_some() {
                return Ok(());
            }
            let Some(frame) = r.st.frames.last().map(Frame::read_by_fields) else {
                // Starting a round costs a step: a round that does nothing
                // (`round turn { }`) must run out of fuel, not spin forever.
                if !r.tick() {
                    r.err = None;
                    let round = self.model.round.map(|(p, _)| p);
                    let mut e = ExecError::new(ExecErrorKind::Fuel, fuel_message(self.step_fuel), round.map(|p| self.model.proc(p).at));
                    e.rule = round.map(|p| self.model.proc(p).name.clone());
                    return Err(self.rounds_without_decision(e, first_round, r.st.round));
                }
                self.next_stage(r);
                self.stop_on_error(r, None, None, first_round)?;
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
                    self.stop_on_error(r, Some(frame.proc), None, first_round)?;
                    break;
                };
                if TO_CHANCE && matches!(op, Op::Shuffle(_) | Op::Roll(..) | Op::Choose(_)) {
                    // The frame's next operation is this one: a later run
                    // starts with it.
                    r.stopped = true;
                    return Ok(());
                }
                if !r.tick() {
                    r.err = None;
                    let mut e = ExecError::new(ExecErrorKind::Fuel, fuel_message(self.step_fuel), code.at.get(pc).copied());
                    e.rule = Some(self.model.proc(frame.proc).name.clone());
                    return Err(self.rounds_without_decision(e, first_round, r.st.round));
                }
                let f = &mut r.st.frames[top];
                f.pc = pc as u32 + 1;
                // `as` changes the frame's actor between operations. Not
                // `*f`: read whole just after `pc` was written, the frame
                // waited for that write (see `Frame::read_by_fields`).
                let now = Frame { pc: pc as u32 + 1, actor: f.actor, ..frame };
                r.actor = now.actor;
                self.exec(r, now, top, pc as u32, op, &code.at[pc]);
                if r.err.is_some() {
                    return self.stop_on_error(r, Some(frame.proc), code.at.get(pc).copied(), first_round);
                }
                if r.st.frames.len() != top + 1 || r.st.pending.is_some() || r.st.outcome.is_some() {
                    break;
                }
                pc = r.st.frames[top].pc as usize;
            }
        }
    }

    /// The error recorded by the last operation, with the rule it ran in
    /// and, when the error has no place of its own (fuel that ran out in
    /// the middle of a walk), the operation's.
    fn stop_on_error(&self, r: &mut Run, proc: Option<ProcId>, op_at: Option<Loc>, first_round: u32) -> Result<(), ExecError> {
        match r.err.take() {
            None => Ok(()),
            Some(e) => {
                let mut e = *e;
                if e.rule.is_none() {
                    e.rule = proc.map(|p| self.model.proc(p).name.clone());
                }
                if e.at.is_none() {
                    e.at = op_at;
                }
                Err(self.rounds_without_decision(e, first_round, r.st.round))
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

    /// Whether the move just made left something to run before the next
    /// one: a trigger or an end condition's body pushed above the frame at
    /// `index`, the end of the game, or a decision.
    pub(super) fn arrival_fired(r: &Run, index: usize) -> bool {
        r.st.frames.len() != index + 1 || r.st.outcome.is_some() || r.st.pending.is_some()
    }

    /// Set the next operation of the frame at `index` of the stack.
    pub(super) fn jump(r: &mut Run, index: usize, target: u32) {
        if let Some(f) = r.st.frames.get_mut(index) {
            f.pc = target;
        }
    }

    #[allow(clippy::too_many_arguments, reason = "an operation runs in the context of its frame")]
    #[inline(always)]
    fn exec(&self, r: &mut Run, frame: Frame, index: usize, pc: u32, op: &Op, at: &Loc) {
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
                        r.fail(ExecErrorKind::Underflow, msg, *at);
                    }
                }
            }
            Op::MoveAllStart { from, to, zones, exit } => {
                let (f, z) = (from.get(r), to.get(r));
                if r.err.is_some() {
                    return;
                }
                if f == z || r.st.zone_len(f) == 0 {
                    Self::jump(r, index, *exit);
                    return;
                }
                r.set_local(*zones, Value::zone(f));
                r.set_local(zones + 1, Value::zone(z));
            }
            Op::MoveAllNext { zones, bottom, exit } => {
                let (Value::Zone(f), Value::Zone(z)) = (r.local(*zones), r.local(zones + 1)) else { return };
                let (f, z) = (f as u16, z as u16);
                loop {
                    let Some(p) = r.st.zone_pieces(f).next() else {
                        Self::jump(r, index, *exit);
                        return;
                    };
                    // Each piece moved costs a step, besides the operation's own.
                    if !r.tick() {
                        return;
                    }
                    self.move_piece(r, frame, p, z, *bottom, at);
                    if r.err.is_some() {
                        return;
                    }
                    if r.st.zone_len(f) == 0 {
                        Self::jump(r, index, *exit);
                        return;
                    }
                    if Self::arrival_fired(r, index) {
                        // Back here for the next piece, once what this
                        // arrival fired has run.
                        Self::jump(r, index, pc);
                        return;
                    }
                }
            }
            Op::MoveCountStart { n, kind, from, to, state, exit } => {
                let (n, f, z) = (n.get(r), from.get(r), to.get(r));
                if r.err.is_some() {
                    return;
                }
                if !self.count_available(r, n, *kind, f, z, *at) || n <= 0 {
                    Self::jump(r, index, *exit);
                    return;
                }
                r.set_local(*state, Value::zone(f));
                r.set_local(state + 1, Value::zone(z));
                r.set_local(state + 2, Value::Int(n));
            }
            Op::MoveCountNext { kind, state, bottom, exit } => self.move_count_next(r, frame, index, pc, *kind, *state, *bottom, *exit, at),
            Op::Shuffle(z) => {
                let z = z.get(r);
                if r.err.is_none() {
                    self.shuffle(r, z, pc);
                }
            }
            Op::Reveal { what, to } => self.reveal(r, what, to, frame.proc, *at),
            Op::Roll(slot, die) => self.roll(r, *slot, *die, pc, frame.proc, *at),
            Op::RollSeenBy(to) => self.roll_seen_by(r, to, *at),
            Op::Choose(c) => {
                let super::compile::ChooseOp { binds, cond, tested, by, otherwise, sites, caches, .. } = &**c;
                let who = by.as_ref().map(|f| f.get(r));
                r.st.options.clear();
                if r.err.is_none() {
                    super::compile::hoist::with_caches(r, *caches, |r| collect_tuples(r, binds, cond, tested.as_ref()));
                }
                if r.err.is_some() {
                    r.st.options.clear();
                    return;
                }
                let arity = binds.len().max(1);
                let n = tuples(r.st.options.len(), arity);
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
                        (None, Some(who)) => r.fail(ExecErrorKind::Deadlock, format!("player {} must choose but has no legal option (where the rules say what happens then, write it as the `choose`'s `else {{ ... }}`)", who + 1), *at),
                        (None, None) => r.fail(ExecErrorKind::Deadlock, "`choose ... at random` has nothing to choose from".into(), *at),
                    }
                    return;
                }
                if let (Some(who), Some(sim)) = (who, r.st.sim.as_deref()) {
                    if sim.player != Some(who as u8) {
                        let turn = sim.player.map_or("nobody's".to_string(), |p| format!("player {}'s", p + 1));
                        r.fail(ExecErrorKind::Simultaneous, format!("player {} decides during {turn} turn of a `simultaneous` block: only the player whose turn it is may decide there", who + 1), *at);
                        return;
                    }
                }
                let decide = match who {
                    Some(who) if n > 1 || r.st.forced_decisions => Some(who as u8),
                    Some(who) => {
                        // A forced choice is no decision: take it and go on.
                        if let Some(kept) = r.st.forced.as_mut() {
                            let option = r.st.options.get(..arity).unwrap_or_default().to_vec();
                            let rolls_before = r.st.rolled.as_ref().map_or(0, Vec::len);
                            kept.push(super::recorded::Forced { player: who as u8, option, after_decisions: r.st.decisions, rolls_before });
                        }
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
            Op::SimBegin => r.sim_begin(*at),
            Op::SimTurn(slot) => {
                let p = r.local(*slot);
                r.sim_turn(p, *at);
            }
            Op::SimSeal => r.sim_seal(),
            Op::SimReveal => r.sim_reveal(*at, |slot| self.slot_name(slot)),
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
                        (MatchKey::Face(f), Value::Face(x)) => u64::from(f.0) == x,
                        (MatchKey::Variant(vr), Value::Variant(x)) => u64::from(vr.0) == x,
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
                    r.st.end_game(Outcome::Winner(p as u8));
                }
            }
            Op::WinAll(c) => {
                let mask = r.players_mask(c, *at);
                if r.err.is_none() {
                    let outcome = match mask.count_ones() {
                        0 => Outcome::Ended,
                        1 => Outcome::Winner(mask.trailing_zeros() as u8),
                        _ => Outcome::Shared(mask),
                    };
                    r.st.end_game(outcome);
                }
            }
            Op::Draw => r.st.end_game(Outcome::Draw),
            Op::End => r.st.end_game(Outcome::Ended),
            Op::Pass => {}
        }
    }

    fn assign(&self, r: &mut Run, target: &Target, op: AssignOp, v: &super::compile::ValOp, at: &Loc) {
        let value = v.get(r);
        if r.err.is_some() {
            return;
        }
        let combine = |r: &mut Run, old: Value| -> Value {
            if op == AssignOp::Set {
                return value;
            }
            let (a, b) = (r.as_int(old, *at), r.as_int(value, *at));
            let (a, b) = (r.need_int(a, *at), r.need_int(b, *at));
            Value::Int(arith(r, if op == AssignOp::Add { grimoire_grammar::ast::BinOp::Add } else { grimoire_grammar::ast::BinOp::Sub }, a, b, *at))
        };
        match target {
            Target::Local(s) => {
                let new = combine(r, r.local(*s));
                if r.err.is_none() {
                    r.set_local(*s, new);
                }
            }
            Target::Var(base, index) => {
                let Some(slot) = resolve_slot(r, *base, index, *at) else { return };
                r.sim_record(SimSlot::Var(slot as u32));
                let old = r.st.vars.get(slot).copied().unwrap_or_default();
                let new = combine(r, old);
                if r.err.is_none() {
                    self.write_unseen_by_ends(r.st, |ends| ends.var(slot), |st| st.set_var(slot, new));
                }
            }
            Target::Counter(base, index, lo, hi, c) => {
                let Some(slot) = resolve_slot(r, *base, index, *at) else { return };
                r.sim_record(SimSlot::Counter(slot as u32));
                let old = Value::Int(r.st.counters.get(slot).copied().unwrap_or(0));
                let new = combine(r, old);
                let new = r.as_int(new, *at);
                let new = r.need_int(new, *at);
                if r.err.is_some() {
                    return;
                }
                if new < *lo || new > *hi || new == NONE_INT {
                    let name = &self.model.counters[c.idx()].name;
                    r.fail(ExecErrorKind::CounterBounds, format!("the counter `{name}` would become {new}, outside {lo}..{hi}"), *at);
                    return;
                }
                self.write_unseen_by_ends(r.st, |ends| ends.counter(slot), |st| st.set_counter(slot, new));
            }
        }
    }

}

/// The finding of a run out of fuel, naming the limit.
pub(crate) fn fuel_message(fuel: u64) -> String {
    format!("the rules took more than {fuel} steps without a decision (the limit `step_fuel`): this rule seems to loop; {}", raise_fuel(fuel))
}

/// The finding of a run out of fuel that went from round `first` to round
/// `last` without a decision.
fn rounds_fuel_message(fuel: u64, first: u32, last: u32) -> String {
    format!(
        "the rules took more than {fuel} steps without a decision (the limit `step_fuel`), going from {} to round {last} with no player deciding anything: the rounds seem to go on without end; if the game should end there, what ends it (an `end` condition, a `win` or `draw`, a round limit `round NAME times N`) is missing or never holds; {}",
        if first == 0 { "the setup".to_string() } else { format!("round {first}") },
        raise_fuel(fuel)
    )
}

/// What to do about the limit itself.
fn raise_fuel(fuel: u64) -> &'static str {
    if fuel >= crate::resolve::MAX_STEP_FUEL as u64 {
        "`step_fuel` is at its highest already, so the rules must take fewer steps between two decisions"
    } else {
        "if the game really needs more, raise `step_fuel` in the rulebook's header"
    }
}

/// Count a run of a branch site (coverage).
#[inline]
fn count(r: &mut Run, site: u32) {
    if let Some(c) = r.st.branches.get_mut(site as usize) {
        *c += 1;
    }
}


/// How many options a decision offers, its values laid `arity` to an
/// option. One name (the usual case) needs no division, which measured 2 %
/// of tic-tac-toe's time.
#[inline(always)]
fn tuples(values: usize, arity: usize) -> usize {
    if arity == 1 {
        values
    } else {
        values / arity
    }
}

#[cfg(test)]
mod tests {
    /// The hint to raise `step_fuel` is given only while it can be raised.
    #[test]
    fn the_fuel_message_does_not_ask_to_raise_a_limit_at_its_highest() {
        let most = crate::resolve::MAX_STEP_FUEL as u64;
        assert!(super::fuel_message(100_000).contains("raise `step_fuel`"));
        let at_most = super::fuel_message(most);
        assert!(!at_most.contains("raise `step_fuel`") && at_most.contains("at its highest"), "{at_most}");
    }
}
