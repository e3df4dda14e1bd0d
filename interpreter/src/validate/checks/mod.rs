//! Static checks: one file per check, each opening with what it checks, why,
//! an example and how to fix it.

mod box_to_shared;
mod constant_condition;
mod exception_priority;
mod no_ending;
mod table_rows;
mod unreachable;
mod unused;

use super::Finding;
use crate::model::{BlockId, ExprId, Model, RevealWhat, Stmt};

/// Run every static check.
pub fn run_all(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(unreachable::check(model));
    out.extend(unused::check(model));
    out.extend(exception_priority::check(model));
    out.extend(table_rows::check(model));
    out.extend(constant_condition::check(model));
    out.extend(box_to_shared::check(model));
    out.extend(no_ending::check(model));
    out
}

/// Every expression id a block uses, directly or nested, with the statements.
pub(crate) fn walk_block(model: &Model, b: BlockId, stmt: &mut dyn FnMut(&Stmt), expr: &mut dyn FnMut(ExprId)) {
    for s in model.block(b) {
        let node = &model.stmt(*s).stmt;
        stmt(node);
        match node {
            Stmt::Let(_, x) | Stmt::Shuffle(x) | Stmt::Win(x) | Stmt::WinAll(x) => model.walk_expr(*x, expr),
            Stmt::Reveal { what: RevealWhat::Piece(x) | RevealWhat::Top(x) | RevealWhat::All(x), to, .. } => {
                model.walk_expr(*x, expr);
                model.walk_expr(*to, expr);
            }
            Stmt::Assign(lv, _, x) => {
                model.walk_expr(*x, expr);
                match lv {
                    crate::model::LValue::Var(_, Some(i)) | crate::model::LValue::Counter(_, Some(i)) => model.walk_expr(*i, expr),
                    _ => {}
                }
            }
            Stmt::MovePiece { piece, to, .. } => {
                model.walk_expr(*piece, expr);
                model.walk_expr(*to, expr);
            }
            Stmt::MoveTop { from, to, .. } | Stmt::MoveAll { from, to, .. } => {
                model.walk_expr(*from, expr);
                model.walk_expr(*to, expr);
            }
            Stmt::MoveCount { n, from, to, .. } => {
                model.walk_expr(*n, expr);
                model.walk_expr(*from, expr);
                model.walk_expr(*to, expr);
            }
            Stmt::ChooseRandom { binds, cond, otherwise } | Stmt::Choose { binds, cond, otherwise, .. } => {
                if let Stmt::Choose { by, .. } = node {
                    model.walk_expr(*by, expr);
                }
                binds.iter().for_each(|(_, from)| model.walk_expr(*from, expr));
                if let Some(c) = cond {
                    model.walk_expr(*c, expr);
                }
                if let Some(blk) = otherwise {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::If(arms, otherwise) => {
                for (c, blk) in arms {
                    model.walk_expr(*c, expr);
                    walk_block(model, *blk, stmt, expr);
                }
                if let Some(blk) = otherwise {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::While(c, blk) | Stmt::Repeat(c, blk) | Stmt::For(_, c, blk) | Stmt::Simultaneous(_, c, blk) | Stmt::As(c, blk) => {
                model.walk_expr(*c, expr);
                walk_block(model, *blk, stmt, expr);
            }
            Stmt::Match(x, arms, default) => {
                model.walk_expr(*x, expr);
                for (_, blk) in arms {
                    walk_block(model, *blk, stmt, expr);
                }
                if let Some(blk) = default {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::Call(_, args) => args.iter().for_each(|a| model.walk_expr(*a, expr)),
            Stmt::Roll { seen_by, .. } => {
                if let Some((to, _)) = seen_by {
                    model.walk_expr(*to, expr);
                }
            }
            Stmt::Draw | Stmt::End | Stmt::Pass | Stmt::Proceed(_) => {}
        }
    }
}
