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
            // A name alone (`row(b) == r`, `r` bound by an earlier
            // collection) holds any value: read as a number here, one that
            // is not (`none`) fails, and the general walk runs instead.
            let number = self.native(n) == super::compiler::Native::Int || matches!(self.m.expr(n), Expr::Local(_));
            if self.local_slot(z) != Some(slot) || !number || self.frame_reads(n).contains(&slot) {
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

#[cfg(test)]
mod tests {
    use crate::engine::compile::Op;
    use crate::engine::Game;
    use crate::{compile, Source};
    use std::sync::Arc;

    /// Whether the `choose` of a rulebook whose condition is `cond` (over
    /// `r` from a range and `b` a cell of a 4 × 4 grid) keeps `b` to a line.
    fn kept_to_a_line(cond: &str) -> bool {
        let text = format!(
            "rulebook a {{ players 2..2 }}
grid g 4 x 4
round turn {{
  choose r from 1..4, b from spaces(g) where {cond} by player(1)
  draw
}}"
        );
        let model = compile(&[Source { name: "a.rules".into(), text }]).unwrap_or_else(|d| panic!("{cond}: {d:?}"));
        let game = Game::new(Arc::new(model), 2, &[]).unwrap_or_else(|e| panic!("{cond}: {e:?}"));
        let chooses: Vec<bool> = game.program.procs.iter().flat_map(|p| &p.ops).filter_map(|op| if let Op::Choose(c) = op { Some(c.cond.line.is_some()) } else { None }).collect();
        assert_eq!(chooses.len(), 1, "{cond}");
        chooses[0]
    }

    /// A name alone is a line's number as much as arithmetic is (an
    /// outside tester's gomoku wrote `row(c) == r` and ran 7 times slower
    /// than with `r + 0`); a number that reads the cell is not.
    #[test]
    fn a_name_alone_keeps_the_walk_to_its_line() {
        for cond in ["row(b) == r", "col(b) == r", "r == row(b)", "count(b) == 0 and row(b) == r", "row(b) == r + 1"] {
            assert!(kept_to_a_line(cond), "{cond}");
        }
        for cond in ["row(b) - r == 0", "row(b) == col(b)", "b != none and row(b) == r"] {
            assert!(!kept_to_a_line(cond), "{cond}");
        }
    }
}
