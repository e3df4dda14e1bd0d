//! Static checks: one file per check, each opening with what it checks, why,
//! an example and how to fix it.

mod exception_priority;
mod table_rows;
mod unreachable;
mod unused;

use super::Finding;
use crate::model::{BlockId, Expr, ExprId, Model, Stmt};

/// Run every static check.
pub fn run_all(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(unreachable::check(model));
    out.extend(unused::check(model));
    out.extend(exception_priority::check(model));
    out.extend(table_rows::check(model));
    out
}

/// Every expression id a block uses, directly or nested, with the statements.
pub(crate) fn walk_block(model: &Model, b: BlockId, stmt: &mut dyn FnMut(&Stmt), expr: &mut dyn FnMut(ExprId)) {
    for s in model.block(b) {
        let node = &model.stmt(*s).stmt;
        stmt(node);
        match node {
            Stmt::Let(_, x) | Stmt::Shuffle(x) | Stmt::Win(x) | Stmt::WinAll(x) => walk_expr(model, *x, expr),
            Stmt::Assign(lv, _, x) => {
                walk_expr(model, *x, expr);
                match lv {
                    crate::model::LValue::Var(_, Some(i)) | crate::model::LValue::Counter(_, Some(i)) => walk_expr(model, *i, expr),
                    _ => {}
                }
            }
            Stmt::MovePiece { piece, to, .. } => {
                walk_expr(model, *piece, expr);
                walk_expr(model, *to, expr);
            }
            Stmt::MoveTop { from, to, .. } | Stmt::MoveAll { from, to, .. } => {
                walk_expr(model, *from, expr);
                walk_expr(model, *to, expr);
            }
            Stmt::MoveCount { n, from, to, .. } => {
                walk_expr(model, *n, expr);
                walk_expr(model, *from, expr);
                walk_expr(model, *to, expr);
            }
            Stmt::ChooseRandom { binds, cond, otherwise } | Stmt::Choose { binds, cond, otherwise, .. } => {
                if let Stmt::Choose { by, .. } = node {
                    walk_expr(model, *by, expr);
                }
                binds.iter().for_each(|(_, from)| walk_expr(model, *from, expr));
                if let Some(c) = cond {
                    walk_expr(model, *c, expr);
                }
                if let Some(blk) = otherwise {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::If(arms, otherwise) => {
                for (c, blk) in arms {
                    walk_expr(model, *c, expr);
                    walk_block(model, *blk, stmt, expr);
                }
                if let Some(blk) = otherwise {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::While(c, blk) | Stmt::Repeat(c, blk) | Stmt::For(_, c, blk) | Stmt::As(c, blk) => {
                walk_expr(model, *c, expr);
                walk_block(model, *blk, stmt, expr);
            }
            Stmt::Match(x, arms, default) => {
                walk_expr(model, *x, expr);
                for (_, blk) in arms {
                    walk_block(model, *blk, stmt, expr);
                }
                if let Some(blk) = default {
                    walk_block(model, *blk, stmt, expr);
                }
            }
            Stmt::Call(_, args) => args.iter().for_each(|a| walk_expr(model, *a, expr)),
            Stmt::Roll(..) | Stmt::Draw | Stmt::End | Stmt::Pass | Stmt::Proceed(_) => {}
        }
    }
}

/// Visit an expression and every expression inside it.
pub(crate) fn walk_expr(model: &Model, id: ExprId, f: &mut dyn FnMut(ExprId)) {
    f(id);
    let mut g = |x: &ExprId| walk_expr(model, *x, f);
    match model.expr(id) {
        Expr::Zone(_, Some(i)) | Expr::Var(_, Some(i)) | Expr::Counter(_, Some(i)) | Expr::PieceOf(_, Some(i)) => g(i),
        Expr::Attr(x, _) | Expr::Row(_, x) | Expr::Column(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Tagged(x, _) | Expr::Space(_, x) | Expr::Is(x, _) | Expr::IsKind(x, _) | Expr::Contents(x) | Expr::CellRow(x) | Expr::CellCol(x) | Expr::Neighbors(x) => g(x),
        Expr::Bin(_, a, b) | Expr::Range(a, b) | Expr::Cell(_, a, b) | Expr::Region(_, a, b) | Expr::Linked(a, b, _) => {
            g(a);
            g(b);
        }
        Expr::PiecesOf(_, x) => g(x),
        Expr::InARow(_, a, b) => {
            g(a);
            g(b);
        }
        Expr::Line(a, b, c) | Expr::Step(a, b, c) => {
            g(a);
            g(b);
            g(c);
        }
        Expr::List(xs) | Expr::Call(_, xs) | Expr::CallFn(_, xs) => xs.iter().for_each(g),
        Expr::Comp(_, _, c, body) => {
            g(c);
            if let Some(b) = body {
                g(b);
            }
        }
        _ => {}
    }
}
