//! An end condition's body must end the game (`win`, `draw` or `end`): one
//! that has no such statement, in itself, in the rules it runs (and the
//! exceptions to them) or in the triggers its moves may fire, can never do
//! it, and is refused here rather than failing (R0010) in the first game
//! where the condition holds.

use super::simultaneous::walk;
use super::Resolver;
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;

impl Resolver {
    pub(crate) fn check_end_bodies(&mut self) {
        let m = &self.model;
        let ends_game = rules_that_may_end_the_game(m);
        let mut found = Vec::new();
        for e in &m.ends {
            if !ends_game.get(e.body.idx()).copied().unwrap_or(true) {
                found.push((e.name.clone(), m.proc(e.body).at));
            }
        }
        for (name, at) in found {
            self.error(
                Diagnostic::new(codes::END_BODY, format!("the body of the end condition `{name}` never ends the game"), at, "no `win`, `draw` or `end`")
                    .help("an end condition's body must end the game: add `win ...`, `draw` or `end` to it (or to a rule it runs)"),
            );
        }
    }
}

/// For each procedure: whether it may end the game, itself, through the
/// rules it runs and the exceptions to them, or through the triggers its
/// moves fire (a fixpoint over the calls).
fn rules_that_may_end_the_game(m: &Model) -> Vec<bool> {
    // What each procedure ends, calls, and whether it moves pieces.
    let looked: Vec<(bool, Vec<ProcId>, bool)> = m
        .procs
        .iter()
        .map(|p| {
            let (mut ends, mut moves) = (false, false);
            let mut calls = Vec::new();
            walk(m, p.body, &mut |stmt, _| match stmt {
                Stmt::Win(_) | Stmt::WinAll(_) | Stmt::Draw | Stmt::End => ends = true,
                Stmt::Call(c, _) | Stmt::Proceed(c) => calls.push(*c),
                Stmt::MovePiece { .. } | Stmt::MoveTop { .. } | Stmt::MoveAll { .. } | Stmt::MoveCount { .. } => moves = true,
                _ => {}
            });
            calls.extend(p.exceptions.iter().filter_map(|e| m.exceptions.get(e.idx())).map(|e| e.body));
            (ends, calls, moves)
        })
        .collect();
    let mut may: Vec<bool> = looked.iter().map(|(ends, ..)| *ends).collect();
    loop {
        // A move may fire any trigger: one that may end the game.
        let a_trigger_may_end = m.procs.iter().zip(&may).any(|(p, may)| p.kind == ProcKind::Trigger && *may);
        let mut changed = false;
        for (p, (_, calls, moves)) in looked.iter().enumerate() {
            let newly = may.get(p) == Some(&false) && (calls.iter().any(|c| may.get(c.idx()).copied().unwrap_or(false)) || (*moves && a_trigger_may_end));
            if let (true, Some(slot)) = (newly, may.get_mut(p)) {
                *slot = true;
                changed = true;
            }
        }
        if !changed {
            return may;
        }
    }
}
