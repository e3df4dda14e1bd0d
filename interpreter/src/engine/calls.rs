//! Frames: calling a rule with the exceptions that hold, the stages of a
//! game (setup, then rounds), end conditions checked after a move or a
//! phase, and the windows of fresh locals that conditions are evaluated in.

use super::compile::TableCell;
use super::error::{ExecError, ExecErrorKind};
use super::exec::{MAX_EXCEPTIONS_PER_RULE, MAX_RULE_DEPTH};
use super::layout::Game;
use super::run::Run;
use super::state::{Frame, Stage, State};
use super::value::Value;
use crate::model::*;
use grimoire_grammar::ast::ExceptionMode;

impl Game {
    /// Call a procedure, applying the exceptions that hold: those another
    /// holding exception is `over` are dropped; of the rest, at most one may
    /// replace the body (`instead`: two are a conflict), while `before` and
    /// `after` exceptions add to it, in declaration order.
    pub(super) fn call(&self, r: &mut Run, proc: ProcId, args: &[Value], actor: u8, depth: u8) {
        let p = self.model.proc(proc);
        if r.st.frames.len() >= MAX_RULE_DEPTH {
            // A rule that calls itself without end would otherwise grow the
            // stack of frames until the fuel runs out: gigabytes at a large
            // `step_fuel`.
            r.fail(ExecErrorKind::OutOfRange, format!("rules call rules more than {MAX_RULE_DEPTH} deep, at `{}`: a rule that calls itself without end stops here, and a chain of calls this deep must be written as a loop (`while`)", p.name), p.at);
            return;
        }
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

    #[allow(clippy::too_many_arguments, reason = "a frame has this many parts")]
    pub(super) fn push_proc(&self, st: &mut State, proc: ProcId, args: &[Value], actor: u8, depth: u8, phase: bool, end: bool) -> u32 {
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

    pub(super) fn check_ends(&self, r: &mut Run, actor: u8) {
        // While the body of an end condition runs (it must end the game),
        // its own moves do not check the conditions again: the body would
        // start over in the middle of itself. During setup none is checked:
        // setup may pass through positions where one holds (Kalah's pits
        // filled one by one leave a side empty for a while); they are
        // checked once when it is done (`ends_after_setup`). Nor inside a
        // `simultaneous` block: a turn's values are its own until the block
        // ends (the end of a phase the body runs would see one player's
        // sealed bid and end the game before the others bid).
        if r.st.stage != Stage::Rounds || r.st.outcome.is_some() || r.st.sim.is_some() || r.st.frames.iter().any(|f| f.end) {
            return;
        }
        if r.st.ends_checked_for == Some(actor) {
            return;
        }
        match self.end_that_holds(r, actor) {
            Some(i) => {
                r.st.ends_fired[i] += 1;
                let body = self.model.ends[i].body;
                // Its body is a procedure run like any other: the search
                // and the guided games, which count procedures, see it ran.
                r.st.fired[body.idx()] += 1;
                self.push_proc(r.st, body, &[], actor, 0, false, true);
            }
            None if r.err.is_none() => r.st.ends_checked_for = Some(actor),
            None => {}
        }
    }

    /// The first end condition that holds now, if any (`None` also when
    /// one failed: the error is in `r`).
    fn end_that_holds(&self, r: &mut Run, actor: u8) -> Option<usize> {
        for (i, end) in self.model.ends.iter().enumerate() {
            let locals = self.program.procs[end.body.idx()].locals.max(1);
            let when = &self.program.end_when[i];
            let holds = self.in_window(r, locals, actor, |r| when(r));
            if r.err.is_some() {
                self.place_condition_error(r, end.when, &end.name);
                return None;
            }
            if holds {
                return Some(i);
            }
        }
        None
    }

    /// Setup is done: an end condition that holds now would end the game
    /// before it starts, which is almost always a condition meant for the
    /// game in play that the position setup leaves already meets (R0013).
    fn ends_after_setup(&self, r: &mut Run) {
        if r.st.outcome.is_some() {
            return;
        }
        let Some(i) = self.end_that_holds(r, super::state::NO_ACTOR) else { return };
        let end = &self.model.ends[i];
        let msg = format!("the end condition `{}` already holds when setup is done: the game would end before it starts", end.name);
        // What ran is the setup (the message names the condition, which
        // did not run: "while running `e`" said it had).
        let mut e = ExecError::new(ExecErrorKind::EndInSetup, msg, Some(self.model.proc(end.body).at));
        e.rule = Some(self.model.setup.map_or_else(|| "setup".to_string(), |s| self.model.proc(s).name.clone()));
        r.err = Some(Box::new(e));
    }

    /// Setup, then rounds, each called like any rule so that modules'
    /// exceptions to `setup` and to the round apply.
    pub(super) fn next_stage(&self, r: &mut Run) {
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
        if r.st.round == 0 {
            self.ends_after_setup(r);
            if r.err.is_some() {
                return;
            }
        }
        let Some((round, _)) = m.round else {
            if r.err.is_none() {
                // At the end of setup, which ran out without an outcome.
                let at = m.setup.map(|s| m.proc(s).at);
                r.err = Some(Box::new(ExecError::new(ExecErrorKind::NoOutcome, "the rulebook has no `round`, and setup did not end the game", at)));
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
        r.st.ends_checked_for = None;
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

    /// An error while a condition of its own was evaluated (an end's or a
    /// trigger's `when`) is the condition's: one without a place (the fuel
    /// that ran out in the middle of a walk) is placed at the condition, and
    /// the rule named is the end or trigger, not the rule whose move or
    /// round led to the check (an outside tester was sent to the setup's
    /// `move` for a trigger's looping `when`).
    pub(crate) fn place_condition_error(&self, r: &mut Run, when: ExprId, name: &str) {
        if let Some(e) = r.err.as_mut() {
            if e.at.is_none() {
                e.at = self.model.expr_at.get(when.0 as usize).copied();
            }
            if e.rule.is_none() {
                e.rule = Some(name.to_string());
            }
        }
    }

    /// A cell of a table: a number written out as it is, anything else
    /// evaluated in a fresh window.
    pub(crate) fn table_cell(&self, r: &mut Run, table: u16, row: u16, col: u16) -> Value {
        let cell = self.program.table_cells.get(table as usize).and_then(|rows| rows.get(row as usize)).and_then(|cells| cells.get(col as usize));
        match cell {
            Some(TableCell::Known(v)) => *v,
            Some(TableCell::Worked(f)) => {
                let actor = r.actor;
                self.in_window(r, self.program.table_locals, actor, |r| f(r))
            }
            None => Value::None,
        }
    }
}
