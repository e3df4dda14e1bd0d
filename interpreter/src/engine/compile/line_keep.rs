//! What keeps the last binding of a `choose` over tuples to one line of a
//! grid (tuples.rs, `last_on_line`): the part of the condition that names
//! the row or column, and the parts that may stand before it because they
//! only test the cell.

use super::compiler::Compiler;
use crate::model::*;
use grimoire_grammar::ast::BinOp;

impl Compiler<'_> {
    /// Whether `part` reads the cell in `slot` in a way that can neither
    /// fail nor spend a step nor change anything: `count(b) OP k` with `k`
    /// a literal, `tagged(b, T)`, `not` of one, `and` or `or` of them.
    /// Such parts may stand before the part that keeps the last binding to
    /// one line (`count(b) == 0 and row(b) == row(a)`): on the cells off
    /// the line, skipping them changes nothing the general walk would do.
    pub(crate) fn infallible_cell_test(&mut self, part: ExprId, slot: u16) -> bool {
        match *self.m.expr(part) {
            Expr::Not(a) => self.infallible_cell_test(a, slot),
            Expr::Bin(BinOp::And | BinOp::Or, a, b) => self.infallible_cell_test(a, slot) && self.infallible_cell_test(b, slot),
            Expr::Tagged(z, _) => self.local_slot(z) == Some(slot),
            Expr::Bin(BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, a, b) => {
                for (x, k) in [(a, b), (b, a)] {
                    let counted = match self.m.expr(x) {
                        Expr::Call(Builtin::Count, args) => match args[..] {
                            [z] => Some(z),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let (Some(z), Expr::Int(_)) = (counted, self.m.expr(k)) {
                        if self.local_slot(z) == Some(slot) {
                            return true;
                        }
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// `row(b) == n` or `col(b) == n` (either way round) for the space in
    /// `slot`, the last binding of a `choose` over tuples, with `n` a number
    /// that does not read it (`row(from) + 1`): the line that binding's
    /// walk may keep to (tuples.rs). `n` is read once per walk, so it must
    /// be plain arithmetic of locals, counters and coordinates, no walk or
    /// call, which would take slots of the frame of their own.
    pub(crate) fn last_line(&mut self, part: ExprId, slot: u16) -> Option<crate::engine::tuples::LastLine> {
        let Expr::Bin(BinOp::Eq, a, b) = *self.m.expr(part) else { return None };
        for (x, n) in [(a, b), (b, a)] {
            let (Expr::CellRow(z) | Expr::CellCol(z)) = *self.m.expr(x) else { continue };
            let column = matches!(self.m.expr(x), Expr::CellCol(_));
            if self.local_slot(z) != Some(slot) || self.native(n) != super::compiler::Native::Int || self.frame_reads(n).contains(&slot) {
                continue;
            }
            let mut plain = true;
            self.m.walk_expr(n, &mut |e| {
                plain &= matches!(
                    self.m.expr(e),
                    Expr::Int(_) | Expr::Local(_) | Expr::Counter(..) | Expr::CellRow(_) | Expr::CellCol(_) | Expr::Neg(_) | Expr::PlayerCount | Expr::RoundNumber
                        | Expr::Bin(BinOp::Add | BinOp::Sub | BinOp::Mul, ..)
                );
            });
            if plain {
                return Some(crate::engine::tuples::LastLine { column, number: self.int(n) });
            }
        }
        None
    }
}
