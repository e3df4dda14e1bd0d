//! The step machine: runs statements frame by frame until a decision is
//! needed or the game ends. Nothing of the game lives on the Rust stack
//! between two calls, so a state can be cloned or saved at any decision.

use super::error::{ExecError, ExecErrorKind};
use super::eval::Ctx;
use super::layout::Game;
use super::state::{Frame, FrameKind, Outcome, Pending, Stage, State, CHANCE, NO_ACTOR, SHUFFLE_SAMPLES};
use super::value::Value;
use super::{Options, STEP_FUEL, TRIGGER_DEPTH};
use crate::model::*;
use grimoire_grammar::ast::{AssignOp, ExceptionMode};

impl Game {
    /// The player who must decide now and the legal options, or `None` when
    /// the game is over.
    pub fn choices<'s>(&self, st: &'s State) -> Option<(u8, Options<'s>)> {
        if st.outcome.is_some() {
            return None;
        }
        st.pending.map(|p| (p.player, Options::new(st.arity as usize, &st.options)))
    }

    /// The question being asked, if the rulebook gave one.
    pub fn prompt(&self, st: &State) -> Option<&str> {
        let p = st.pending?;
        match &self.model.stmt(p.stmt).stmt {
            Stmt::Choose { prompt, .. } => prompt.as_deref(),
            _ => None,
        }
    }

    /// Where in the rulebook the pending decision is asked.
    pub fn pending_at(&self, st: &State) -> Option<Loc> {
        st.pending.map(|p| self.model.stmt(p.stmt).at)
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
        match (p.shuffle, &self.model.stmt(p.stmt).stmt) {
            (Some(z), _) => self.shuffle_as_chance(st, z, st.options[first]),
            (None, Stmt::Choose { binds, .. } | Stmt::ChooseRandom { binds, .. }) => {
                for (k, (slot, _)) in binds.iter().enumerate() {
                    st.stack[(p.slot + u32::from(*slot)) as usize] = st.options[first + k];
                }
            }
            (None, _) => st.stack[p.slot as usize] = st.options[first],
        }
        st.pending = None;
        st.options.clear();
        st.arity = 1;
        if p.player != super::state::CHANCE {
            st.decisions += 1;
            st.plies += 1;
        }
        self.run(st)
    }

    /// Run until a decision or the end.
    pub(crate) fn run(&self, st: &mut State) -> Result<(), ExecError> {
        // The scratch buffer travels with the state so that its capacity is
        // reused from one decision to the next.
        let mut scratch = std::mem::take(&mut st.scratch);
        let result = self.run_with(st, &mut scratch);
        scratch.clear();
        st.scratch = scratch;
        result
    }

    fn run_with(&self, st: &mut State, scratch: &mut Vec<Value>) -> Result<(), ExecError> {
        let mut fuel = STEP_FUEL;
        loop {
            if st.outcome.is_some() || st.pending.is_some() {
                return Ok(());
            }
            if fuel == 0 {
                let (at, rule) = self.innermost(st);
                let mut e = ExecError::new(ExecErrorKind::Fuel, format!("the rules took more than {STEP_FUEL} steps without a decision: this rule seems to loop"), at);
                e.rule = rule;
                return Err(e);
            }
            fuel -= 1;
            if let Err(mut e) = self.step(st, scratch) {
                if e.rule.is_none() {
                    e.rule = self.innermost(st).1;
                }
                return Err(e);
            }
        }
    }

    /// The statement and procedure running deepest, for error reports.
    fn innermost(&self, st: &State) -> (Option<Loc>, Option<String>) {
        let at = st.frames.last().and_then(|f| {
            let stmts = self.model.block(f.block);
            stmts.get((f.pc as usize).saturating_sub(1)).map(|s| self.model.stmt(*s).at)
        });
        let rule = st.frames.iter().rev().find_map(|f| match f.kind {
            FrameKind::Proc { proc, .. } => Some(self.model.proc(proc).name.clone()),
            _ => None,
        });
        (at, rule)
    }

    fn step(&self, st: &mut State, scratch: &mut Vec<Value>) -> Result<(), ExecError> {
        let Some(frame) = st.frames.last().copied() else {
            return self.next_stage(st, scratch);
        };
        let stmts = self.model.block(frame.block);
        if let Some(&s) = stmts.get(frame.pc as usize) {
            if let Some(f) = st.frames.last_mut() {
                f.pc += 1;
            }
            return self.exec(st, scratch, frame, s);
        }
        // The block is done: loop again or leave the frame.
        let cx = Ctx { base: frame.base, actor: frame.actor };
        match frame.kind {
            FrameKind::Seq => {
                st.frames.pop();
            }
            FrameKind::While(c) => {
                let v = self.eval(st, scratch, cx, c)?;
                if self.boolean(v, c)? {
                    self.restart(st);
                } else {
                    st.frames.pop();
                }
            }
            FrameKind::Repeat(left) => {
                if left > 1 {
                    if let Some(f) = st.frames.last_mut() {
                        f.kind = FrameKind::Repeat(left - 1);
                        f.pc = 0;
                    }
                } else {
                    st.frames.pop();
                }
            }
            FrameKind::For { slot, start, len, next } => {
                if next < len {
                    let item = st.stack[(start + next) as usize];
                    st.stack[(frame.base + u32::from(slot)) as usize] = item;
                    if let Some(f) = st.frames.last_mut() {
                        f.kind = FrameKind::For { slot, start, len, next: next + 1 };
                        f.pc = 0;
                    }
                } else {
                    st.frames.pop();
                    st.stack.truncate(frame.mark as usize);
                }
            }
            FrameKind::Proc { phase, end, proc } => {
                st.frames.pop();
                st.stack.truncate(frame.mark as usize);
                if end && st.outcome.is_none() {
                    let at = Some(self.model.proc(proc).at);
                    return Err(ExecError::new(ExecErrorKind::NoOutcome, format!("the end condition `{}` held but its body did not end the game", self.model.proc(proc).name), at));
                }
                if phase {
                    self.check_ends(st, scratch, frame.actor)?;
                }
            }
        }
        Ok(())
    }

    /// Apply chance option `k` of a shuffle: the k-th permutation when all are
    /// enumerated, else an order drawn from a generator seeded with `k`.
    fn shuffle_as_chance(&self, st: &mut State, z: u16, k: Value) {
        let Value::Int(k) = k else { return };
        let zone = &mut st.zones[z as usize];
        let n = zone.len();
        let all: Option<u64> = (1..=n as u64).try_fold(1u64, |acc, i| acc.checked_mul(i).filter(|x| *x <= SHUFFLE_SAMPLES));
        if all.is_some() {
            // Unrank k in the factorial number system.
            let mut pool: Vec<u16> = zone.clone();
            let mut k = k as u64;
            zone.clear();
            for i in (1..=n).rev() {
                let f: u64 = (1..i as u64).product();
                let j = (k / f.max(1)) as usize;
                k %= f.max(1);
                zone.push(pool.remove(j.min(pool.len() - 1)));
            }
        } else {
            use rand_chacha::rand_core::{RngCore, SeedableRng};
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(k as u64);
            for i in (1..n).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                zone.swap(i, j);
            }
        }
    }

    fn restart(&self, st: &mut State) {
        if let Some(f) = st.frames.last_mut() {
            f.pc = 0;
        }
    }

    /// Setup, then rounds until the game ends or runs out of rounds.
    /// Setup, then rounds, each called like any rule so that modules'
    /// exceptions to `setup` and to the round apply.
    fn next_stage(&self, st: &mut State, scratch: &mut Vec<Value>) -> Result<(), ExecError> {
        let m = &*self.model;
        let top = Frame { kind: FrameKind::Seq, block: BlockId(0), pc: 0, base: st.stack.len() as u32, mark: st.stack.len() as u32, actor: NO_ACTOR, depth: 0 };
        if st.stage == Stage::Start {
            st.stage = Stage::Setup;
            if let Some(setup) = m.setup {
                return self.call(st, scratch, setup, &[], top);
            }
        }
        if st.stage == Stage::Setup {
            st.box_after_setup = Some(st.zones[self.box_zone as usize].len() as u32);
        }
        st.stage = Stage::Rounds;
        let Some((round, times)) = m.round else {
            return Err(ExecError::new(ExecErrorKind::NoOutcome, "the rulebook has no `round`, and setup did not end the game", None));
        };
        if let Some(t) = times {
            let n = self.eval_const_int(st, t)?;
            if i64::from(st.round) >= n {
                return Err(ExecError::new(ExecErrorKind::NoOutcome, format!("all {n} rounds were played and no rule decided the outcome"), Some(m.proc(round).at)));
            }
        }
        st.round += 1;
        self.call(st, scratch, round, &[], top)
    }

    #[allow(clippy::too_many_arguments, reason = "a frame has this many parts")]
    fn push_proc(&self, st: &mut State, proc: ProcId, args: &[Value], actor: u8, depth: u8, phase: bool, end: bool) -> u32 {
        let p = self.model.proc(proc);
        let base = st.stack.len() as u32;
        st.stack.extend_from_slice(args);
        st.stack.resize(base as usize + (p.locals as usize).max(args.len()), Value::None);
        st.frames.push(Frame { kind: FrameKind::Proc { proc, phase, end }, block: p.body, pc: 0, base, mark: base, actor, depth });
        base
    }

    fn push_block(&self, st: &mut State, kind: FrameKind, block: BlockId, frame: Frame, actor: u8) {
        let mark = st.stack.len() as u32;
        st.frames.push(Frame { kind, block, pc: 0, base: frame.base, mark, actor, depth: frame.depth });
    }

    fn exec(&self, st: &mut State, scratch: &mut Vec<Value>, frame: Frame, s: StmtId) -> Result<(), ExecError> {
        let cx = Ctx { base: frame.base, actor: frame.actor };
        let node = self.model.stmt(s);
        let at = Some(node.at);
        match &node.stmt {
            Stmt::Let(slot, e) => {
                let v = self.eval(st, scratch, cx, *e)?;
                st.stack[(frame.base + u32::from(*slot)) as usize] = v;
            }
            Stmt::Assign(lv, op, e) => self.assign(st, scratch, cx, lv, *op, *e, at)?,
            Stmt::MovePiece { piece, to, bottom } => {
                let p = self.eval_piece(st, scratch, cx, *piece)?;
                let z = self.eval_zone(st, scratch, cx, *to)?;
                self.move_piece(st, scratch, frame, p, z, *bottom, at)?;
            }
            Stmt::MoveTop { from, to, bottom } => {
                let f = self.eval_zone(st, scratch, cx, *from)?;
                let z = self.eval_zone(st, scratch, cx, *to)?;
                let Some(&p) = st.zones[f as usize].last() else {
                    return Err(ExecError::new(ExecErrorKind::Underflow, format!("`move top of` found `{}` empty", self.zones[f as usize].name), at));
                };
                self.move_piece(st, scratch, frame, p, z, *bottom, at)?;
            }
            Stmt::MoveAll { from, to, bottom } => {
                let f = self.eval_zone(st, scratch, cx, *from)?;
                let z = self.eval_zone(st, scratch, cx, *to)?;
                if f != z {
                    while let Some(&p) = st.zones[f as usize].first() {
                        self.move_piece(st, scratch, frame, p, z, *bottom, at)?;
                    }
                }
            }
            Stmt::MoveCount { n, kind, from, to, bottom } => {
                let count = self.eval_int(st, scratch, cx, *n)?;
                let f = self.eval_zone(st, scratch, cx, *from)?;
                let z = self.eval_zone(st, scratch, cx, *to)?;
                // Out of the box, a player's zone receives that player's own
                // pieces of a per-player kind, never another player's.
                let owner = if f == self.box_zone && self.model.kinds[kind.idx()].per_player { self.zones[z as usize].owner } else { None };
                let takes = |p: &u16| self.inst_kind[*p as usize] == *kind && (owner.is_none() || self.inst_owner[*p as usize] == owner);
                let have = st.zones[f as usize].iter().filter(|p| takes(p)).count() as i64;
                if have < count {
                    return Err(ExecError::new(
                        ExecErrorKind::Underflow,
                        format!("the rule takes {count} `{}` from `{}`, which holds {have}: the text does not say what happens then", self.model.kinds[kind.idx()].name, self.zones[f as usize].name),
                        at,
                    ));
                }
                for _ in 0..count.max(0) {
                    let p = st.zones[f as usize].iter().rev().find(|p| takes(p)).copied();
                    if let Some(p) = p {
                        self.move_piece(st, scratch, frame, p, z, *bottom, at)?;
                    }
                }
            }
            Stmt::Shuffle(z) if st.exploring => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                let n = st.zones[z as usize].len() as u64;
                let perms = (1..=n).try_fold(1u64, |acc, k| acc.checked_mul(k).filter(|x| *x <= SHUFFLE_SAMPLES));
                let options = match perms {
                    Some(p) => p,
                    None => {
                        st.sampled_shuffle = true;
                        SHUFFLE_SAMPLES
                    }
                };
                if options > 1 {
                    st.options.clear();
                    st.options.extend((0..options as i64).map(Value::Int));
                    st.pending = Some(Pending { player: CHANCE, slot: 0, stmt: s, shuffle: Some(z) });
                }
            }
            Stmt::Roll { slot, die, .. } if st.exploring => {
                let d = &self.model.dice[die.idx()];
                st.options.clear();
                if d.sides.is_empty() {
                    st.options.extend((1..=i64::from(d.size)).map(Value::Int));
                } else {
                    st.options.extend(d.sides.iter().map(|f| Value::Face(f.0)));
                }
                st.pending = Some(Pending { player: CHANCE, slot: frame.base + u32::from(*slot), stmt: s, shuffle: None });
            }
            Stmt::Shuffle(z) => {
                let z = self.eval_zone(st, scratch, cx, *z)? as usize;
                let len = st.zones[z].len();
                for i in (1..len).rev() {
                    let j = st.random_below(i as u64 + 1) as usize;
                    st.zones[z].swap(i, j);
                }
            }
            Stmt::Roll { slot, die, .. } => {
                let d = &self.model.dice[die.idx()];
                let side = st.random_below(u64::from(d.size)) as usize;
                let v = match d.sides.get(side) {
                    Some(f) => Value::Face(f.0),
                    None => Value::Int(side as i64 + 1),
                };
                st.stack[(frame.base + u32::from(*slot)) as usize] = v;
            }
            Stmt::Choose { binds, cond, by, otherwise, .. } => {
                let who = self.eval_player(st, scratch, cx, *by)?;
                st.options.clear();
                self.collect_tuples(st, scratch, cx, binds, 0, *cond)?;
                let n = st.options.len() / binds.len().max(1);
                if n == 0 {
                    for (slot, _) in binds {
                        st.stack[(frame.base + u32::from(*slot)) as usize] = Value::None;
                    }
                    return match otherwise {
                        Some(b) => {
                            self.push_block(st, FrameKind::Seq, *b, frame, frame.actor);
                            Ok(())
                        }
                        None => Err(ExecError::new(ExecErrorKind::Deadlock, format!("player {} must choose but has no legal option", who + 1), at)),
                    };
                }
                if n == 1 && !st.forced_decisions {
                    // A forced choice is no decision: take it and go on.
                    for (k, (slot, _)) in binds.iter().enumerate() {
                        st.stack[(frame.base + u32::from(*slot)) as usize] = st.options[k];
                    }
                    st.options.clear();
                    st.plies += 1;
                } else {
                    st.arity = binds.len() as u8;
                    st.pending = Some(Pending { player: who, slot: frame.base, stmt: s, shuffle: None });
                }
            }
            Stmt::ChooseRandom { binds, cond, otherwise } => {
                st.options.clear();
                self.collect_tuples(st, scratch, cx, binds, 0, *cond)?;
                let arity = binds.len().max(1);
                let n = st.options.len() / arity;
                if n == 0 {
                    for (slot, _) in binds {
                        st.stack[(frame.base + u32::from(*slot)) as usize] = Value::None;
                    }
                    return match otherwise {
                        Some(b) => {
                            self.push_block(st, FrameKind::Seq, *b, frame, frame.actor);
                            Ok(())
                        }
                        None => Err(ExecError::new(ExecErrorKind::Deadlock, "`choose ... at random` has nothing to choose from", at)),
                    };
                }
                if st.exploring && n > 1 {
                    st.arity = binds.len() as u8;
                    st.pending = Some(Pending { player: CHANCE, slot: frame.base, stmt: s, shuffle: None });
                } else {
                    let i = st.random_below(n as u64) as usize;
                    for (k, (slot, _)) in binds.iter().enumerate() {
                        st.stack[(frame.base + u32::from(*slot)) as usize] = st.options[i * arity + k];
                    }
                    st.options.clear();
                }
            }
            Stmt::If(arms, otherwise) => {
                for (c, b) in arms {
                    let v = self.eval(st, scratch, cx, *c)?;
                    if self.boolean(v, *c)? {
                        self.push_block(st, FrameKind::Seq, *b, frame, frame.actor);
                        return Ok(());
                    }
                }
                if let Some(b) = otherwise {
                    self.push_block(st, FrameKind::Seq, *b, frame, frame.actor);
                }
            }
            Stmt::While(c, b) => {
                let v = self.eval(st, scratch, cx, *c)?;
                if self.boolean(v, *c)? {
                    self.push_block(st, FrameKind::While(*c), *b, frame, frame.actor);
                }
            }
            Stmt::Repeat(n, b) => {
                let n = self.eval_int(st, scratch, cx, *n)?;
                if n > 0 {
                    self.push_block(st, FrameKind::Repeat(n), *b, frame, frame.actor);
                }
            }
            // The legacy engine is kept only to check that the compiled one
            // plays the games it played; it learns no new statement.
            Stmt::Simultaneous(..) => return Err(ExecError::new(ExecErrorKind::OutOfRange, "the legacy engine does not run `simultaneous`", at)),
            Stmt::For(slot, c, b) => {
                let start = scratch.len();
                self.collect(st, scratch, cx, *c)?;
                let len = (scratch.len() - start) as u32;
                if len > 0 {
                    let mark = st.stack.len() as u32;
                    st.stack.extend_from_slice(&scratch[start..]);
                    st.stack[(frame.base + u32::from(*slot)) as usize] = scratch[start];
                    st.frames.push(Frame { kind: FrameKind::For { slot: *slot, start: mark, len, next: 1 }, block: *b, pc: 0, base: frame.base, mark, actor: frame.actor, depth: frame.depth });
                }
                scratch.truncate(start);
            }
            Stmt::Match(e, arms, default) => {
                let v = self.eval(st, scratch, cx, *e)?;
                let arm = arms.iter().find(|(keys, _)| {
                    keys.iter().any(|k| match (k, v) {
                        (MatchKey::Face(f), Value::Face(x)) => f.0 == x,
                        (MatchKey::Variant(vr), Value::Variant(x)) => vr.0 == x,
                        (MatchKey::Variant(vr), Value::Piece(p)) => self.inst_variant[p as usize] == Some(*vr),
                        _ => false,
                    })
                });
                if let Some(b) = arm.map(|(_, b)| *b).or(*default) {
                    self.push_block(st, FrameKind::Seq, b, frame, frame.actor);
                }
            }
            Stmt::Call(p, args) => {
                let mut vals = [Value::None; 8];
                let n = args.len().min(8);
                for (i, a) in args.iter().take(8).enumerate() {
                    vals[i] = self.eval(st, scratch, cx, *a)?;
                }
                self.call(st, scratch, *p, &vals[..n], frame)?;
            }
            Stmt::Proceed(target) => {
                // The rule an exception changes, run as written, with the
                // exception's own arguments (its first locals).
                let n = self.model.proc(*target).params as usize;
                let mut vals = [Value::None; 8];
                for (i, v) in vals.iter_mut().enumerate().take(n.min(8)) {
                    *v = st.stack[frame.base as usize + i];
                }
                st.fired[target.idx()] += 1;
                let phase = self.model.proc(*target).kind == ProcKind::Phase;
                self.push_proc(st, *target, &vals[..n.min(8)], frame.actor, frame.depth, phase, false);
            }
            Stmt::As(p, b) => {
                let who = self.eval_player(st, scratch, cx, *p)?;
                self.push_block(st, FrameKind::Seq, *b, frame, who);
            }
            Stmt::Win(p) => {
                let v = self.eval(st, scratch, cx, *p)?;
                let winner = self.player(v, *p)?;
                end_game(st, Outcome::Winner(winner));
            }
            Stmt::WinAll(c) => {
                let start = scratch.len();
                self.collect(st, scratch, cx, *c)?;
                let mut mask = 0u16;
                for v in scratch.drain(start..) {
                    mask |= 1 << self.player(v, *c)?;
                }
                let outcome = match mask.count_ones() {
                    0 => Outcome::Ended,
                    1 => Outcome::Winner(mask.trailing_zeros() as u8),
                    _ => Outcome::Shared(mask),
                };
                end_game(st, outcome);
            }
            // What a player knows changes what he is shown, never the game:
            // this engine has no observation of it, so it plays on unchanged.
            Stmt::Reveal { .. } => {}
            Stmt::Draw => end_game(st, Outcome::Draw),
            Stmt::End => end_game(st, Outcome::Ended),
            Stmt::Pass => {}
        }
        Ok(())
    }

    /// Append to `st.options` every tuple of the bindings' collections for
    /// which `cond` holds: nested loops in binding order, so that a later
    /// collection can depend on an earlier binding.
    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn collect_tuples(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, binds: &[(u16, ExprId)], depth: usize, cond: Option<ExprId>) -> Result<(), ExecError> {
        let Some((slot, from)) = binds.get(depth) else {
            let keep = match cond {
                Some(c) => self.eval_bool(st, scratch, cx, c)?,
                None => true,
            };
            if keep {
                for (slot, _) in binds {
                    let v = st.stack[(cx.base + u32::from(*slot)) as usize];
                    st.options.push(v);
                }
            }
            return Ok(());
        };
        let start = scratch.len();
        self.collect(st, scratch, cx, *from)?;
        let end = scratch.len();
        let at = (cx.base + u32::from(*slot)) as usize;
        for i in start..end {
            st.stack[at] = scratch[i];
            self.collect_tuples(st, scratch, cx, binds, depth + 1, cond)?;
        }
        scratch.truncate(start);
        Ok(())
    }

    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn assign(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, lv: &LValue, op: AssignOp, e: ExprId, at: Option<Loc>) -> Result<(), ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        let combine = |old: Value| -> Result<Value, ExecError> {
            match op {
                AssignOp::Set => Ok(v),
                _ => {
                    let a = self.int(old, e)?;
                    let b = self.int(v, e)?;
                    Ok(Value::Int(if op == AssignOp::Add { a.saturating_add(b) } else { a.saturating_sub(b) }))
                }
            }
        };
        match lv {
            LValue::Local(s) => {
                let i = (cx.base + u32::from(*s)) as usize;
                st.stack[i] = combine(st.stack[i])?;
            }
            LValue::Var(var, idx) => {
                let slot = self.slot(st, scratch, cx, self.var_base[var.idx()], *idx, self.model.vars[var.idx()].per_piece)?;
                st.vars[slot] = combine(st.vars[slot])?;
            }
            LValue::Counter(c, idx) => {
                let slot = self.slot(st, scratch, cx, self.counter_base[c.idx()], *idx, self.model.counters[c.idx()].per_piece)?;
                let new = self.int(combine(Value::Int(st.counters[slot]))?, e)?;
                let def = &self.model.counters[c.idx()];
                if new < def.lo || new > def.hi {
                    return Err(ExecError::new(ExecErrorKind::CounterBounds, format!("the counter `{}` would become {new}, outside {}..{}", def.name, def.lo, def.hi), at));
                }
                st.counters[slot] = new;
            }
        }
        Ok(())
    }

    /// Call a procedure, applying the exceptions that hold: those another
    /// holding exception is `over` are dropped; of the rest, at most one may
    /// replace the body (`instead`: two are a conflict), while `before` and
    /// `after` exceptions add to it, in declaration order.
    fn call(&self, st: &mut State, scratch: &mut Vec<Value>, proc: ProcId, args: &[Value], frame: Frame) -> Result<(), ExecError> {
        let p = self.model.proc(proc);
        let phase = p.kind == ProcKind::Phase;
        if p.exceptions.is_empty() {
            st.fired[proc.idx()] += 1;
            self.push_proc(st, proc, args, frame.actor, frame.depth, phase, false);
            return Ok(());
        }
        let mut holding: Vec<ExceptionId> = Vec::new();
        for x in &p.exceptions {
            let def = &self.model.exceptions[x.idx()];
            let base = st.stack.len();
            st.stack.extend_from_slice(args);
            st.stack.resize(base + self.model.proc(def.body).locals.max(args.len() as u16) as usize, Value::None);
            let v = self.eval(st, scratch, Ctx { base: base as u32, actor: frame.actor }, def.when);
            st.stack.truncate(base);
            if self.boolean(v?, def.when)? {
                holding.push(*x);
            }
        }
        let kept: Vec<ExceptionId> = holding.iter().copied().filter(|x| !holding.iter().any(|y| self.model.exceptions[y.idx()].over.contains(x))).collect();
        let mode = |x: &ExceptionId| self.model.exceptions[x.idx()].mode;
        let insteads: Vec<ExceptionId> = kept.iter().copied().filter(|x| mode(x) == ExceptionMode::Instead).collect();
        if let [a, b, ..] = insteads.as_slice() {
            let (da, db) = (&self.model.exceptions[a.idx()], &self.model.exceptions[b.idx()]);
            let mut e = ExecError::new(
                ExecErrorKind::Conflict,
                format!("the exceptions `{}` and `{}` to `{}` both apply, both replace it, and neither is `over` the other", da.name, db.name, p.name),
                Some(da.at),
            );
            e.rule = Some(p.name.clone());
            return Err(e);
        }
        // Frames run last-pushed first: push the afters in reverse, then the
        // body (or its replacement), then the befores in reverse.
        let body = insteads.first().map(|x| self.model.exceptions[x.idx()].body).unwrap_or(proc);
        let afters: Vec<ProcId> = kept.iter().filter(|x| mode(x) == ExceptionMode::After).map(|x| self.model.exceptions[x.idx()].body).collect();
        let befores: Vec<ProcId> = kept.iter().filter(|x| mode(x) == ExceptionMode::Before).map(|x| self.model.exceptions[x.idx()].body).collect();
        for (i, b) in afters.iter().enumerate().rev() {
            st.fired[b.idx()] += 1;
            // The last addition to run closes the phase.
            let closes = phase && i + 1 == afters.len();
            self.push_proc(st, *b, args, frame.actor, frame.depth, closes, false);
        }
        st.fired[body.idx()] += 1;
        // End conditions are checked once the whole phase, additions included, is done.
        self.push_proc(st, body, args, frame.actor, frame.depth, phase && afters.is_empty(), false);
        for b in befores.iter().rev() {
            st.fired[b.idx()] += 1;
            self.push_proc(st, *b, args, frame.actor, frame.depth, false, false);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn move_piece(&self, st: &mut State, scratch: &mut Vec<Value>, frame: Frame, p: u16, to: u16, bottom: bool, at: Option<Loc>) -> Result<(), ExecError> {
        let info = &self.zones[to as usize];
        let kind = self.inst_kind[p as usize];
        if !info.kinds.is_empty() && !info.kinds.contains(&kind) {
            return Err(ExecError::new(ExecErrorKind::ZoneKind, format!("`{}` does not hold `{}`", info.name, self.model.kinds[kind.idx()].name), at));
        }
        let from = st.loc[p as usize];
        if from != to {
            if let Some(cap) = info.capacity {
                if st.zones[to as usize].len() >= cap as usize {
                    return Err(ExecError::new(ExecErrorKind::Capacity, format!("`{}` is full ({cap})", info.name), at));
                }
            }
        }
        let src = &mut st.zones[from as usize];
        if let Some(i) = src.iter().position(|x| *x == p) {
            src.remove(i);
        }
        let dst = &mut st.zones[to as usize];
        if bottom {
            dst.insert(0, p);
        } else {
            dst.push(p);
        }
        st.loc[p as usize] = to;
        self.fire_triggers(st, scratch, frame, p, to)?;
        if !self.model.ends.is_empty() {
            self.check_ends(st, scratch, frame.actor)?;
        }
        Ok(())
    }

    /// Push the triggers listening to this arrival whose condition holds now;
    /// they run in declaration order before the next statement.
    fn fire_triggers(&self, st: &mut State, scratch: &mut Vec<Value>, frame: Frame, p: u16, zone: u16) -> Result<(), ExecError> {
        let kind = self.inst_kind[p as usize];
        for t in self.triggers_by_kind[kind.idx()].iter().rev() {
            let proc = self.model.proc(*t);
            let base = self.push_proc(st, *t, &[Value::Piece(p), Value::Zone(zone)], frame.actor, frame.depth.saturating_add(1), false, false);
            let holds = match proc.when {
                Some(w) => {
                    let v = self.eval(st, scratch, Ctx { base, actor: frame.actor }, w)?;
                    self.boolean(v, w)?
                }
                None => true,
            };
            if !holds {
                st.frames.pop();
                st.stack.truncate(base as usize);
                continue;
            }
            if frame.depth >= TRIGGER_DEPTH {
                let mut e = ExecError::new(ExecErrorKind::TriggerChain, format!("triggers fired each other more than {TRIGGER_DEPTH} deep: `{}` seems to loop", proc.name), Some(proc.at));
                e.rule = Some(proc.name.clone());
                return Err(e);
            }
            st.fired[t.idx()] += 1;
        }
        Ok(())
    }

    fn check_ends(&self, st: &mut State, scratch: &mut Vec<Value>, actor: u8) -> Result<(), ExecError> {
        // As the engine: not while an end condition's body runs.
        if st.outcome.is_some() || st.frames.iter().any(|f| matches!(f.kind, FrameKind::Proc { end: true, .. })) {
            return Ok(());
        }
        for (i, end) in self.model.ends.iter().enumerate() {
            let locals = self.model.proc(end.body).locals as usize;
            let base = st.stack.len();
            st.stack.resize(base + locals.max(1), Value::None);
            let v = self.eval(st, scratch, Ctx { base: base as u32, actor }, end.when);
            st.stack.truncate(base);
            if self.boolean(v?, end.when)? {
                st.ends_fired[i] += 1;
                self.push_proc(st, end.body, &[], actor, 0, false, true);
                return Ok(());
            }
        }
        Ok(())
    }
}

/// End the game; the procedures pushed and not begun (at their first
/// statement) never run, and are not counted as fired (as the engine does).
fn end_game(st: &mut State, outcome: Outcome) {
    st.outcome = Some(outcome);
    for f in &st.frames {
        if let (FrameKind::Proc { proc, .. }, 0) = (f.kind, f.pc) {
            if let Some(n) = st.fired.get_mut(proc.idx()) {
                *n = n.saturating_sub(1);
            }
        }
    }
}
