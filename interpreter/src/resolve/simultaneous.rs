//! What a `simultaneous` block may do. Its turns are made independent by
//! putting back, after each, the counters and vars it set (see
//! engine/simultaneous.rs); anything else a turn did would show through to
//! the next player. So the body, and every rule it runs (with the
//! exceptions a module adds to them), may decide, compute and set counters
//! and vars, but not move, shuffle, reveal, roll, pick at random, end the
//! game or start another block; and the body may not change a local
//! declared before the block, which nothing puts back (the rules it runs
//! have locals of their own, new at each call). Every such statement is
//! reported, each at its place.

use super::expr::Scope;
use super::Resolver;
use crate::diagnostic::{codes, Diagnostic};
use crate::model::{BlockId, LValue, Loc, Model, ProcId, Stmt};

/// What a turn of a block may not do, in words, and where it is written.
type Forbidden = (String, Loc);

/// The label and help of a statement that acts in a turn.
const ACTS: (&str, &str) = ("inside a `simultaneous` block", "decide and record in the block (set a `per_player` var), and act on the decisions after it");

/// The label and help of an assignment to a local declared before the block.
const OUTER_LOCAL: (&str, &str) = ("a local from before the block", "a local is not put back after each turn as vars and counters are, so the next player would see what this one set: record it in a var instead, which each turn sets in secret and the block reveals at its end (a `per_player` var, `x[p] = ...`, so that the players do not clash), or use a local declared inside the block");

impl Resolver {
    pub(crate) fn check_simultaneous_blocks(&mut self) {
        let m = &self.model;
        let reach = what_rules_may_do(m);
        let mut found: Vec<(String, Loc, (&str, &str))> = Vec::new();
        for p in &m.procs {
            walk(m, p.body, &mut |stmt, _| {
                if let Stmt::Simultaneous(_, _, b) = stmt {
                    let (direct, calls) = look_at(m, *b);
                    found.extend(direct.into_iter().map(|(what, at)| (what, at, ACTS)));
                    found.extend(calls.into_iter().filter_map(|(callee, at)| {
                        let what = reach.get(callee.idx())?.as_ref()?;
                        Some((format!("run `{}`, which may {what}", m.proc(callee).name), at, ACTS))
                    }));
                }
            });
        }
        found.extend(self.outer_locals_set.iter().map(|(what, at)| (what.clone(), *at, OUTER_LOCAL)));
        found.sort_by_key(|(_, at, _)| (at.file.0, at.span.start));
        found.dedup();
        for (what, at, (label, help)) in found {
            self.error(Diagnostic::new(codes::SIMULTANEOUS, format!("a `simultaneous` block cannot {what}: the players' turns would not be independent"), at, label).help(help));
        }
    }

    /// Called as a `simultaneous` block is resolved, its body's scope still
    /// open: the assignments (`=`, `+=`, `-=`) of its body to locals
    /// declared before it, which are those of a slot below `first`, the
    /// slot of the block's own name. Reported by
    /// [`Resolver::check_simultaneous_blocks`] with the rest.
    pub(crate) fn note_outer_locals_set(&mut self, sc: &Scope, first: u16, body: BlockId) {
        let mut found = Vec::new();
        walk(&self.model, body, &mut |stmt, at| {
            if let Stmt::Assign(LValue::Local(slot), _, _) = stmt {
                if *slot < first {
                    let name = sc.name_of(*slot).unwrap_or("?");
                    found.push((format!("change `{name}`, a local declared before it"), at));
                }
            }
        });
        self.outer_locals_set.extend(found);
    }
}

/// For each rule: what it may do that a turn may not, itself or through
/// the rules it runs and the exceptions to it (a fixpoint over the calls,
/// so that cycles of calls are followed to the end).
fn what_rules_may_do(m: &Model) -> Vec<Option<String>> {
    // Per rule: what it does itself, and the rules it runs (with where).
    type Calls = Vec<(ProcId, Loc)>;
    let looked: Vec<(Option<Forbidden>, Calls)> = m
        .procs
        .iter()
        .map(|p| {
            let (direct, mut calls) = look_at(m, p.body);
            calls.extend(p.exceptions.iter().filter_map(|e| m.exceptions.get(e.idx())).map(|e| (e.body, e.at)));
            (direct.into_iter().next(), calls)
        })
        .collect();
    let mut reach: Vec<Option<String>> = looked.iter().map(|(direct, _)| direct.as_ref().map(|(what, _)| what.clone())).collect();
    loop {
        let mut changed = false;
        for (p, (_, calls)) in looked.iter().enumerate() {
            if reach.get(p).is_some_and(Option::is_some) {
                continue;
            }
            let through = calls.iter().find_map(|(c, _)| reach.get(c.idx()).cloned().flatten().map(|what| (*c, what)));
            if let Some((c, what)) = through {
                if let Some(slot) = reach.get_mut(p) {
                    *slot = Some(if c.idx() == p { what } else { format!("{what} (through `{}`)", m.proc(c).name) });
                    changed = true;
                }
            }
        }
        if !changed {
            return reach;
        }
    }
}

/// The statements of a block (nested blocks included) that a turn may not
/// run, in the order walked, and the rules the block runs.
fn look_at(m: &Model, b: BlockId) -> (Vec<Forbidden>, Vec<(ProcId, Loc)>) {
    let mut bad = Vec::new();
    let mut calls = Vec::new();
    walk(m, b, &mut |stmt, at| {
        let what = match stmt {
            Stmt::MovePiece { .. } | Stmt::MoveTop { .. } | Stmt::MoveAll { .. } | Stmt::MoveCount { .. } => "move pieces",
            Stmt::Shuffle(_) => "shuffle",
            Stmt::Reveal { .. } => "reveal pieces",
            Stmt::Roll { .. } => "roll a die",
            Stmt::ChooseRandom { .. } => "pick at random",
            Stmt::Win(_) | Stmt::WinAll(_) | Stmt::Draw | Stmt::End => "end the game",
            Stmt::Simultaneous(..) => "hold another `simultaneous` block",
            Stmt::Call(p, _) | Stmt::Proceed(p) => {
                calls.push((*p, at));
                return;
            }
            _ => return,
        };
        bad.push((what.to_string(), at));
    });
    (bad, calls)
}

/// Every statement of a block, nested blocks included, with where it is.
pub(super) fn walk(m: &Model, b: BlockId, f: &mut dyn FnMut(&Stmt, Loc)) {
    let mut todo = vec![b];
    while let Some(b) = todo.pop() {
        for s in m.block(b) {
            let node = m.stmt(*s);
            f(&node.stmt, node.at);
            match &node.stmt {
                Stmt::Choose { otherwise: Some(x), .. } | Stmt::ChooseRandom { otherwise: Some(x), .. } => todo.push(*x),
                Stmt::If(arms, otherwise) => {
                    todo.extend(arms.iter().map(|(_, x)| *x));
                    todo.extend(otherwise.iter().copied());
                }
                Stmt::While(_, x) | Stmt::Repeat(_, x) | Stmt::For(_, _, x) | Stmt::Simultaneous(_, _, x) | Stmt::As(_, x) => todo.push(*x),
                Stmt::Match(_, arms, default) => {
                    todo.extend(arms.iter().map(|(_, x)| *x));
                    todo.extend(default.iter().copied());
                }
                _ => {}
            }
        }
    }
}
