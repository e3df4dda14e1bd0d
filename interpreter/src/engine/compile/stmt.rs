//! Statements to a flat list of operations per procedure. Blocks disappear:
//! `if`, `while`, `match` and the `else` of a `choose` become jumps, and a
//! `for`, a `repeat` or an `as` keeps its bookkeeping in hidden locals of the
//! frame, so the position in the rules is just a procedure and an index.

use super::compiler::Compiler;
use super::liveness::{live_in, reads_of, Effects};
use super::{Audience, BoolF, Code, IntOp, Op, Program, RevealOp, Site, TableCell, Target, ValF, NO_SITE};
use crate::engine::layout::Game;
use crate::engine::tuples::Staged;
use crate::model::*;

/// Compile every procedure, condition and initial value of the game.
pub(crate) fn compile_program(g: &Game) -> Program {
    let m = &*g.model;
    // Conditions evaluated in the frame of a procedure share its slots.
    let mut exception_when: Vec<Option<BoolF>> = m.exceptions.iter().map(|_| None).collect();
    let mut end_when: Vec<Option<BoolF>> = m.ends.iter().map(|_| None).collect();
    let mut trigger_when = Vec::with_capacity(m.procs.len());
    let mut procs = Vec::with_capacity(m.procs.len());
    let mut sites = Vec::new();
    for (i, p) in m.procs.iter().enumerate() {
        let id = ProcId(i as u16);
        let mut c = Compiler::new(g, p.locals);
        trigger_when.push(p.when.map(|w| c.bool(w)));
        for (x, def) in m.exceptions.iter().enumerate() {
            if def.body == id {
                exception_when[x] = Some(c.bool(def.when));
            }
        }
        for (x, end) in m.ends.iter().enumerate() {
            if end.body == id {
                end_when[x] = Some(c.bool(end.when));
            }
        }
        let mut e = Emit { c, ops: Vec::new(), at: Vec::new(), effects: Vec::new(), next: Effects::default(), proc: id, sites: &mut sites };
        e.block(p.body);
        let locals = e.c.frame;
        let live = live_in(&e.ops, &e.effects, locals);
        procs.push(Code { ops: e.ops, at: e.at, locals, live });
    }
    let mut init = Compiler::new(g, 8);
    let counter_init: Vec<Option<IntOp>> = m.counters.iter().map(|d| d.init.map(|x| init.int_req(x))).collect();
    let var_init: Vec<Option<ValF>> = m.vars.iter().map(|d| d.init.map(|x| init.val(x))).collect();
    let round_times = m.round.and_then(|(_, t)| t).map(|t| init.int_req(t));
    let mut cells = Compiler::new(g, 0);
    let mut cell = |x: ExprId| match cells.const_int(x) {
        Some(n) => TableCell::Known(crate::engine::value::Value::Int(n)),
        None => TableCell::Worked(cells.val(x)),
    };
    let table_cells = m.tables.iter().map(|t| t.rows.iter().map(|(_, _, row)| row.iter().map(|x| cell(*x)).collect()).collect()).collect();
    let invariants = m
        .invariants
        .iter()
        .map(|d| {
            let mut c = Compiler::new(g, d.locals);
            let when = d.when.map(|w| c.bool(w));
            let holds = c.bool(d.holds);
            (when, holds, c.frame)
        })
        .collect();
    let never: fn() -> BoolF = || Box::new(|_| false);
    let reveals = procs.iter().any(|c: &Code| c.ops.iter().any(|op| matches!(op, Op::Reveal { .. })));
    Program {
        procs,
        exception_when: exception_when.into_iter().map(|w| w.unwrap_or_else(never)).collect(),
        trigger_when,
        end_when: end_when.into_iter().map(|w| w.unwrap_or_else(never)).collect(),
        counter_init,
        var_init,
        init_locals: init.frame,
        round_times,
        table_cells,
        table_locals: cells.frame,
        invariants,
        sites,
        reveals,
    }
}

/// Emits the operations of one procedure, and the locals each reads and
/// writes (for the liveness of locals).
struct Emit<'c, 's> {
    c: Compiler<'c>,
    ops: Vec<Op>,
    at: Vec<Loc>,
    effects: Vec<Effects>,
    /// What the next operation emitted reads and writes.
    next: Effects,
    /// The procedure, and the branch sites of the whole program.
    proc: ProcId,
    sites: &'s mut Vec<Site>,
}

impl Emit<'_, '_> {
    /// A new branch site of this procedure.
    fn site(&mut self, at: Loc, what: impl Into<String>) -> u32 {
        self.sites.push(Site { proc: self.proc, at, what: what.into() });
        (self.sites.len() - 1) as u32
    }

    fn emit(&mut self, op: Op, at: Loc) -> u32 {
        self.ops.push(op);
        self.at.push(at);
        self.effects.push(std::mem::take(&mut self.next));
        (self.ops.len() - 1) as u32
    }

    /// The next operation reads the locals of these expressions.
    fn uses(&mut self, exprs: &[ExprId]) {
        let c = &self.c;
        let reads = reads_of(c.m, exprs, |s| c.slot(s));
        self.next.reads.extend(reads);
    }

    /// The next operation reads these slots.
    fn reads(&mut self, slots: &[u16]) {
        self.next.reads.extend_from_slice(slots);
    }

    /// The next operation writes these slots.
    fn sets(&mut self, slots: &[u16]) {
        self.next.writes.extend_from_slice(slots);
    }

    /// The players of `reveal ... to` or `roll ... to`: one, or a collection.
    fn audience(&mut self, to: ExprId, many: bool) -> Audience {
        if many {
            Audience::Many(self.c.coll(to))
        } else {
            Audience::One(self.c.player_req(to))
        }
    }

    fn here(&self) -> u32 {
        self.ops.len() as u32
    }

    /// Point the jump of operation `i` at `target`.
    fn patch(&mut self, i: u32, target: u32) {
        match self.ops.get_mut(i as usize) {
            Some(
                Op::Jump(t)
                | Op::JumpUnless(_, t, _)
                | Op::ForStart { exit: t, .. }
                | Op::RepeatStart { exit: t, .. }
                | Op::MoveAllStart { exit: t, .. }
                | Op::MoveAllNext { exit: t, .. }
                | Op::MoveCountStart { exit: t, .. }
                | Op::MoveCountNext { exit: t, .. },
            ) => *t = target,
            Some(Op::Choose(c)) => c.otherwise = Some(target),
            Some(Op::Match { default, .. }) => *default = target,
            _ => {}
        }
    }

    fn block(&mut self, b: BlockId) {
        let m = self.c.m;
        for s in m.block(b) {
            self.stmt(*s);
        }
    }

    fn stmt(&mut self, s: StmtId) {
        let m = self.c.m;
        let node = m.stmt(s);
        let at = node.at;
        match node.stmt.clone() {
            Stmt::Let(slot, e) => {
                let v = self.c.val_op(e);
                let slot = self.c.slot(slot);
                self.uses(&[e]);
                self.sets(&[slot]);
                self.emit(Op::Let(slot, v), at);
            }
            Stmt::Assign(lv, op, e) => {
                let target = match lv {
                    LValue::Local(s) => Target::Local(self.c.slot(s)),
                    LValue::Var(v, idx) => Target::Var(self.c.g.var_base[v.idx()], self.c.index(idx, m.vars[v.idx()].per_piece)),
                    LValue::Counter(c, idx) => {
                        let def = &m.counters[c.idx()];
                        Target::Counter(self.c.g.counter_base[c.idx()], self.c.index(idx, def.per_piece), def.lo, def.hi, c)
                    }
                };
                let value = self.c.val_op(e);
                self.uses(&[e]);
                match (&target, lv) {
                    (Target::Local(s), _) => {
                        if op != grimoire_grammar::ast::AssignOp::Set {
                            self.reads(&[*s]);
                        }
                        self.sets(&[*s]);
                    }
                    (_, LValue::Var(_, Some(i)) | LValue::Counter(_, Some(i))) => self.uses(&[i]),
                    _ => {}
                }
                self.emit(Op::Assign(target, op, value), at);
            }
            Stmt::MovePiece { piece, to, bottom } => {
                self.uses(&[piece, to]);
                let (piece, to) = (self.c.piece_req(piece), self.c.zone_req(to));
                self.emit(Op::MovePiece { piece, to, bottom }, at);
            }
            Stmt::MoveTop { from, to, bottom } => {
                self.uses(&[from, to]);
                let (from, to) = (self.c.zone_req(from), self.c.zone_req(to));
                self.emit(Op::MoveTop { from, to, bottom }, at);
            }
            Stmt::MoveAll { from, to, bottom } => {
                let zones = self.c.alloc(2);
                self.uses(&[from, to]);
                self.sets(&[zones, zones + 1]);
                let (from, to) = (self.c.zone_req(from), self.c.zone_req(to));
                let start = self.emit(Op::MoveAllStart { from, to, zones, exit: 0 }, at);
                self.reads(&[zones, zones + 1]);
                let next = self.emit(Op::MoveAllNext { zones, bottom, exit: 0 }, at);
                let end = self.here();
                self.patch(start, end);
                self.patch(next, end);
            }
            Stmt::MoveCount { n, kind, from, to, bottom } => {
                let state = self.c.alloc(3);
                self.uses(&[n, from, to]);
                self.sets(&[state, state + 1, state + 2]);
                let n = self.c.int_req(n);
                let (from, to) = (self.c.zone_req(from), self.c.zone_req(to));
                let start = self.emit(Op::MoveCountStart { n: Box::new(n), kind, from, to, state, exit: 0 }, at);
                self.reads(&[state, state + 1, state + 2]);
                self.sets(&[state + 2]);
                let next = self.emit(Op::MoveCountNext { kind, state, bottom, exit: 0 }, at);
                let end = self.here();
                self.patch(start, end);
                self.patch(next, end);
            }
            Stmt::Shuffle(z) => {
                self.uses(&[z]);
                let z = self.c.zone_req(z);
                self.emit(Op::Shuffle(z), at);
            }
            Stmt::Reveal { what, to, many } => {
                let zone_or_piece = match what {
                    RevealWhat::Piece(x) | RevealWhat::Top(x) | RevealWhat::All(x) => x,
                };
                self.uses(&[zone_or_piece, to]);
                let what = match what {
                    RevealWhat::Piece(p) => RevealOp::Piece(self.c.piece_req(p)),
                    RevealWhat::Top(z) => RevealOp::Top(self.c.zone_req(z)),
                    RevealWhat::All(z) => RevealOp::All(self.c.zone_req(z)),
                };
                let to = self.audience(to, many);
                self.emit(Op::Reveal { what, to }, at);
            }
            Stmt::Roll { slot, die, seen_by } => {
                let slot = self.c.slot(slot);
                self.sets(&[slot]);
                self.emit(Op::Roll(slot, die), at);
                if let Some((to, many)) = seen_by {
                    self.uses(&[to]);
                    let to = self.audience(to, many);
                    self.emit(Op::RollSeenBy(to), at);
                }
            }
            Stmt::Choose { binds, cond, by, otherwise, .. } => {
                self.uses(&[by]);
                let by = self.c.player_req(by);
                self.choose(&binds, cond, Some(by), otherwise, s, at);
            }
            Stmt::ChooseRandom { binds, cond, otherwise } => self.choose(&binds, cond, None, otherwise, s, at),
            Stmt::If(arms, otherwise) => {
                let mut to_end = Vec::new();
                let last = arms.len().saturating_sub(1);
                for (k, (cond, b)) in arms.into_iter().enumerate() {
                    self.uses(&[cond]);
                    let cond_at = m.expr_at.get(cond.0 as usize).copied().unwrap_or(at);
                    let held = self.site(cond_at, if k == 0 { "the block of this `if`" } else { "the block of this `else if`" });
                    let failed = match otherwise {
                        Some(_) if k == last => self.site(at, "the `else` block of this `if`"),
                        _ => NO_SITE,
                    };
                    let cond = self.c.bool(cond);
                    let skip = self.emit(Op::JumpUnless(cond, 0, [held, failed]), at);
                    self.block(b);
                    to_end.push(self.emit(Op::Jump(0), at));
                    let next = self.here();
                    self.patch(skip, next);
                }
                if let Some(b) = otherwise {
                    self.block(b);
                }
                let end = self.here();
                for j in to_end {
                    self.patch(j, end);
                }
            }
            Stmt::While(cond, b) => {
                let top = self.here();
                self.uses(&[cond]);
                let body = self.site(at, "the body of this `while`");
                let cond = self.c.bool(cond);
                let exit = self.emit(Op::JumpUnless(cond, 0, [body, NO_SITE]), at);
                self.block(b);
                self.emit(Op::Jump(top), at);
                let end = self.here();
                self.patch(exit, end);
            }
            Stmt::Repeat(n, b) => {
                let left = self.c.alloc(1);
                self.uses(&[n]);
                self.sets(&[left]);
                let n = self.c.int_req(n);
                let start = self.emit(Op::RepeatStart { n, left, exit: 0 }, at);
                let body = self.here();
                self.block(b);
                self.reads(&[left]);
                self.sets(&[left]);
                self.emit(Op::RepeatNext { left, body }, at);
                let end = self.here();
                self.patch(start, end);
            }
            Stmt::For(slot, coll, b) => {
                let state = self.c.alloc(3);
                let items = self.c.items(coll);
                let slot = self.c.slot(slot);
                self.uses(&[coll]);
                self.sets(&[slot, state, state + 1, state + 2]);
                let start = self.emit(Op::ForStart { slot, items: Box::new(items), state, exit: 0 }, at);
                let body = self.here();
                self.block(b);
                self.reads(&[state, state + 1, state + 2]);
                self.sets(&[slot, state + 2]);
                self.emit(Op::ForNext { slot, state, body }, at);
                let end = self.here();
                self.patch(start, end);
            }
            Stmt::Simultaneous(slot, coll, b) => {
                // A `for` over the players whose body is one player's turn.
                let state = self.c.alloc(3);
                let items = self.c.items(coll);
                let slot = self.c.slot(slot);
                self.emit(Op::SimBegin, at);
                self.uses(&[coll]);
                self.sets(&[slot, state, state + 1, state + 2]);
                let start = self.emit(Op::ForStart { slot, items: Box::new(items), state, exit: 0 }, at);
                let body = self.here();
                self.reads(&[slot]);
                self.emit(Op::SimTurn(slot), at);
                self.block(b);
                self.emit(Op::SimSeal, at);
                self.reads(&[state, state + 1, state + 2]);
                self.sets(&[slot, state + 2]);
                self.emit(Op::ForNext { slot, state, body }, at);
                let end = self.here();
                self.emit(Op::SimReveal, at);
                self.patch(start, end);
            }
            Stmt::Match(e, arms, default) => {
                let value = self.c.val_op(e);
                self.uses(&[e]);
                let mut sites: Vec<u32> = Vec::new();
                for (keys, _) in &arms {
                    let names: Vec<String> = keys
                        .iter()
                        .map(|k| match k {
                            MatchKey::Variant(v) => m.variants.get(v.idx()).map(|x| x.name.clone()).unwrap_or_default(),
                            MatchKey::Face(f) => m.faces.get(f.idx()).map(|x| x.name.clone()).unwrap_or_default(),
                        })
                        .collect();
                    sites.push(self.site(at, format!("the arm `{}` of this `match`", names.join(", "))));
                }
                sites.push(match default {
                    Some(_) => self.site(at, "the arm `_` of this `match`"),
                    None => NO_SITE,
                });
                let op = self.emit(Op::Match { value, arms: Vec::new(), default: 0, sites }, at);
                let mut targets = Vec::new();
                let mut to_end = Vec::new();
                for (keys, b) in arms {
                    targets.push((keys, self.here()));
                    self.block(b);
                    to_end.push(self.emit(Op::Jump(0), at));
                }
                let fallback = self.here();
                if let Some(b) = default {
                    self.block(b);
                }
                let end = self.here();
                for j in to_end {
                    self.patch(j, end);
                }
                self.patch(op, fallback);
                if let Some(Op::Match { arms, .. }) = self.ops.get_mut(op as usize) {
                    *arms = targets;
                }
            }
            Stmt::Call(p, args) => {
                self.uses(&args);
                let args = args.iter().map(|a| self.c.val_op(*a)).collect();
                self.emit(Op::Call(p, args), at);
            }
            Stmt::Proceed(p) => {
                let params: Vec<u16> = (0..m.proc(p).params).collect();
                self.reads(&params);
                self.emit(Op::Proceed(p), at);
            }
            Stmt::As(p, b) => {
                let save = self.c.alloc(1);
                self.uses(&[p]);
                self.sets(&[save]);
                let player = self.c.player_req(p);
                self.emit(Op::SetActor { player, save }, at);
                self.block(b);
                self.reads(&[save]);
                self.emit(Op::RestoreActor(save), at);
            }
            Stmt::Win(p) => {
                self.uses(&[p]);
                let p = self.c.player_req(p);
                self.emit(Op::Win(p), at);
            }
            Stmt::WinAll(c) => {
                self.uses(&[c]);
                let c = self.c.coll(c);
                self.emit(Op::WinAll(c), at);
            }
            Stmt::Draw => {
                self.emit(Op::Draw, at);
            }
            Stmt::End => {
                self.emit(Op::End, at);
            }
            Stmt::Pass => {
                self.emit(Op::Pass, at);
            }
        }
    }

    /// The condition of a `choose` with several bindings, split into the
    /// parts joined by `and`, each with the last binding it reads. A part
    /// never goes before one written ahead of it: it waits for the latest
    /// binding of the parts before it too, so the parts are still tested in
    /// the order written. A call of a function whose arguments are all
    /// simple (the bindings, constants) is opened: the parts of its body
    /// are parts too, as if it were written in place (`can_step(k, dr, dc)`
    /// tests `may_go(k, dr)` once per `k` and `dr`).
    fn staged(&mut self, slots: &[u16], cond: ExprId, last_walked: Option<super::conds::Walked>, earlier_numbers: &[(u16, i64, i64)]) -> Staged {
        let n = slots.len();
        // Which binding each part waits for, looked at before anything is
        // compiled (the slots the opened calls take are given back).
        let mut waits = Vec::new();
        let frame = self.c.frame;
        self.c.and_parts(cond, &mut |c, part| {
            let reads = c.frame_reads(part);
            let last = slots.iter().rposition(|s| reads.contains(s)).unwrap_or(0);
            waits.push(waits.last().map_or(last, |w: &usize| last.max(*w)));
        });
        self.c.frame = frame;
        // The first part that waits for the last binding, if it keeps one
        // row or column of a grid: its line's number. Parts that only test
        // the cell without fail or cost (`count(b) == 0`) may stand before
        // it: off the line, they would run for nothing.
        let first_last = waits.iter().position(|w| *w + 1 == n);
        let last_slot = slots.last().copied();
        let mut line = None;
        let mut looking = true;
        let mut index = 0;
        self.c.and_parts(cond, &mut |c, part| {
            if looking && first_last.is_some_and(|f| index >= f) {
                match last_slot {
                    Some(slot) if c.infallible_cell_test(part, slot) => {}
                    Some(slot) => {
                        line = c.last_line(part, slot);
                        looking = false;
                    }
                    None => looking = false,
                }
            }
            index += 1;
        });
        self.c.frame = frame;
        // Every part tests the last binding's item only, each a test read
        // in place (`count(c) == 0`; a cell may be named by earlier
        // bindings that walk numbers, `count(cell(board, r, k)) == 0`):
        // the last walk keeps its items without a closure call each, as a
        // `choose` of one binding does. With a
        // part of an earlier binding, or one that is no such test, the
        // parts stay closures: tested one by one at each tuple, the tests
        // read in place measured no faster than the closures (0.91x).
        if let (None, Some(walked), Some(slot), true) = (&line, last_walked, last_slot, n <= 64 && waits.iter().all(|w| *w + 1 == n)) {
            let mut tests = Vec::new();
            let mut all = true;
            self.c.walked_numbers = earlier_numbers.to_vec();
            self.c.and_parts(cond, &mut |c, part| {
                if all {
                    match c.test(slot, part, walked) {
                        Some(t) => tests.push(t),
                        None => all = false,
                    }
                }
            });
            self.c.walked_numbers.clear();
            self.c.frame = frame;
            if all {
                if let Some(tested) = super::compiler::Compiler::tested_cond(slot, tests) {
                    return Staged { last_tested: Some(tested), ..Staged::whole(None) };
                }
            }
        }
        // Nothing to test early: the condition whole, for each tuple, as
        // compiled anywhere else (one closure fewer per tuple).
        if n > 64 || waits.iter().all(|w| *w + 1 == n) {
            return Staged { line, ..Staged::whole(Some(self.c.bool(cond))) };
        }
        let mut groups: Vec<Vec<BoolF>> = (0..n).map(|_| Vec::new()).collect();
        let mut next = waits.into_iter();
        self.c.and_parts(cond, &mut |c, part| {
            let test = c.bool(part);
            if let Some(g) = next.next().and_then(|w| groups.get_mut(w)) {
                g.push(test);
            }
        });
        let mut compiled: Vec<Option<BoolF>> = groups.into_iter().map(super::logic::all_tests).collect();
        let last = compiled.pop().flatten();
        Staged { early: compiled, last, line, last_tested: None }
    }

    /// A `choose`: the operation, then (if there is an `else`) a jump over
    /// the `else` block, which the operation goes to when there is no option.
    fn choose(&mut self, binds: &[(u16, ExprId)], cond: Option<ExprId>, by: Option<super::IdOp>, otherwise: Option<BlockId>, s: StmtId, at: Loc) {
        // The collections and the condition read the bindings as they are
        // tried: those reads are the statement's own, not uses of older values.
        let slots: Vec<u16> = binds.iter().map(|(slot, _)| self.c.slot(*slot)).collect();
        let exprs: Vec<ExprId> = binds.iter().map(|(_, from)| *from).chain(cond).collect();
        self.uses(&exprs);
        self.next.reads.retain(|r| !slots.contains(r));
        self.sets(&slots);
        let binds: Vec<(u16, super::Items)> = binds.iter().map(|(slot, from)| (self.c.slot(*slot), self.c.items(*from))).collect();
        // One binding, the usual case: its condition is tested as each item
        // is tried (conds.rs); with several, each part as soon as the
        // bindings it reads are bound (tuples.rs).
        // What the condition reads of neither the bindings nor what it binds
        // itself is computed once per walk (hoist.rs).
        if let Some(x) = cond {
            self.c.hoist_in(&slots, x);
        }
        let (cond, tested) = match (&binds[..], cond) {
            ([(slot, items)], Some(x)) => {
                let walked = items.gives();
                (Staged::whole(None), Some(self.c.cond(*slot, Some(x), walked)))
            }
            (_, Some(x)) => {
                let last_walked = binds.last().and_then(|(_, items)| items.gives());
                let earlier = binds.split_last().map_or(&[][..], |(_, earlier)| earlier);
                let earlier_numbers: Vec<(u16, i64, i64)> = earlier
                    .iter()
                    .filter_map(|(slot, items)| match items.gives() {
                        Some(super::conds::Walked::Numbers { lo, hi }) => Some((*slot, lo, hi)),
                        _ => None,
                    })
                    .collect();
                (self.staged(&slots, x, last_walked, &earlier_numbers), None)
            }
            (_, None) => (Staged::whole(None), None),
        };
        let caches = self.c.hoisted();
        let chosen = self.site(at, "this `choose` (with options to choose from)");
        let none = match otherwise {
            Some(_) => self.site(at, "the `else` of this `choose`"),
            None => NO_SITE,
        };
        let op = self.emit(Op::Choose(Box::new(super::ChooseOp { binds, cond, tested, by, otherwise: None, stmt: s, sites: [chosen, none], caches })), at);
        if let Some(b) = otherwise {
            let over = self.emit(Op::Jump(0), at);
            let start = self.here();
            self.block(b);
            let end = self.here();
            self.patch(over, end);
            self.patch(op, start);
        }
    }
}
