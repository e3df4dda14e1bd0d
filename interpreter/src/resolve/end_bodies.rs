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
                    .help("an end condition's body must end the game: add `win ...`, `draw` or `end` to it (or to a rule it runs, or to a trigger its moves fire)"),
            );
        }
    }
}

/// What a procedure does that may end the game: whether it ends it
/// itself, the procedures it runs (exceptions included), and the kinds
/// each of its moves may move (`None`: any).
struct Looked {
    ends: bool,
    calls: Vec<ProcId>,
    moves: Vec<Option<Vec<KindId>>>,
}

/// The kinds of piece a move may move, when the text says (`move 2 of
/// stone ...`, `move stone ...`, the top or all of a zone declared for
/// some kinds); `None`: any kind.
fn kinds_moved(m: &Model, stmt: &Stmt) -> Option<Vec<KindId>> {
    let of_zone = |z: ExprId| match m.expr(z) {
        Expr::Zone(def, _) => m.zones.get(def.idx()).map(|d| d.kinds.clone()).filter(|k| !k.is_empty()),
        _ => None,
    };
    match stmt {
        Stmt::MoveCount { kind, .. } => Some(vec![*kind]),
        Stmt::MoveTop { from, .. } | Stmt::MoveAll { from, .. } => of_zone(*from),
        Stmt::MovePiece { piece, .. } => match m.expr(*piece) {
            Expr::PieceOf(kind, _) => Some(vec![*kind]),
            Expr::PieceOfVariant(v) => m.variants.get(v.idx()).map(|d| vec![d.kind]),
            Expr::Call(Builtin::Top, zone) => zone.first().and_then(|z| of_zone(*z)),
            _ => None,
        },
        _ => None,
    }
}

/// For each procedure: whether it may end the game, itself, through the
/// rules it runs and the exceptions to them, or through the triggers its
/// moves may fire (a fixpoint over the calls): a trigger listens to the
/// arrivals of one kind, and a move whose kinds the text gives fires only
/// the triggers of those (a hostile tester's end body moved a stone, and
/// only a trigger on flags could end the game: R0010 in play, not E0307).
fn rules_that_may_end_the_game(m: &Model) -> Vec<bool> {
    let looked: Vec<Looked> = m
        .procs
        .iter()
        .map(|p| {
            let mut ends = false;
            let (mut calls, mut moves) = (Vec::new(), Vec::new());
            walk(m, p.body, &mut |stmt, _| match stmt {
                Stmt::Win(_) | Stmt::WinAll(_) | Stmt::Draw | Stmt::End => ends = true,
                Stmt::Call(c, _) | Stmt::Proceed(c) => calls.push(*c),
                Stmt::MovePiece { .. } | Stmt::MoveTop { .. } | Stmt::MoveAll { .. } | Stmt::MoveCount { .. } => moves.push(kinds_moved(m, stmt)),
                _ => {}
            });
            calls.extend(p.exceptions.iter().filter_map(|e| m.exceptions.get(e.idx())).map(|e| e.body));
            Looked { ends, calls, moves }
        })
        .collect();
    let mut may: Vec<bool> = looked.iter().map(|l| l.ends).collect();
    loop {
        // The kinds whose arrival fires a trigger that may end the game
        // (`None` in the list: a trigger of any kind).
        let ending: Vec<Option<KindId>> = m.procs.iter().zip(&may).filter(|(p, may)| p.kind == ProcKind::Trigger && **may).map(|(p, _)| p.on_arrive).collect();
        let fires_an_ending = |kinds: &Option<Vec<KindId>>| match kinds {
            None => !ending.is_empty(),
            Some(kinds) => ending.iter().any(|k| k.is_none_or(|k| kinds.contains(&k))),
        };
        let mut changed = false;
        for (p, Looked { calls, moves, .. }) in looked.iter().enumerate() {
            let newly = may.get(p) == Some(&false) && (calls.iter().any(|c| may.get(c.idx()).copied().unwrap_or(false)) || moves.iter().any(fires_an_ending));
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
