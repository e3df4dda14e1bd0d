//! What a `simultaneous` block may do. Its turns are made independent by
//! putting back, after each, the counters and vars it set (see
//! engine/simultaneous.rs); anything else a turn did would show through to
//! the next player. So the body, and every rule it runs (with the
//! exceptions a module adds to them), may decide, compute and set counters
//! and vars, but not move, shuffle, reveal, roll, pick at random, end the
//! game or start another block.

use super::Resolver;
use crate::diagnostic::{codes, Diagnostic};
use crate::model::{BlockId, Loc, Model, ProcId, Stmt};

/// What a turn of a block may not do, in words, and where it is written.
type Forbidden = (String, Loc);

impl Resolver {
    pub(crate) fn check_simultaneous_blocks(&mut self) {
        let m = &self.model;
        let reach = what_rules_may_do(m);
        let mut found = Vec::new();
        for p in &m.procs {
            walk(m, p.body, &mut |stmt, _| {
                if let Stmt::Simultaneous(_, _, b) = stmt {
                    let (direct, calls) = look_at(m, *b);
                    let bad = direct.or_else(|| {
                        calls.into_iter().find_map(|(callee, at)| {
                            let what = reach.get(callee.idx())?.as_ref()?;
                            Some((format!("run `{}`, which may {what}", m.proc(callee).name), at))
                        })
                    });
                    found.extend(bad);
                }
            });
        }
        found.sort_by_key(|(_, at)| (at.file.0, at.span.start));
        found.dedup();
        for (what, at) in found {
            self.error(
                Diagnostic::new(codes::SIMULTANEOUS, format!("a `simultaneous` block cannot {what}: the players' turns would not be independent"), at, "inside a `simultaneous` block")
                    .help("decide and record in the block (set a `per_player` var), and act on the decisions after it"),
            );
        }
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
            (direct, calls)
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

/// The first statement of a block (nested blocks included) that a turn may
/// not run, and the rules the block runs.
fn look_at(m: &Model, b: BlockId) -> (Option<Forbidden>, Vec<(ProcId, Loc)>) {
    let mut bad = None;
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
        if bad.is_none() {
            bad = Some((what.to_string(), at));
        }
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
