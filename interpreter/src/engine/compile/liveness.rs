//! Which locals of a procedure are live at each operation: read later on
//! some path before being written again. Exploration leaves the dead ones
//! out of a state's fingerprint, so that two positions that differ only in a
//! value the rules will never read again are one state.
//!
//! The usual backward dataflow over the operations' jumps: live before an
//! operation = what it reads, plus what is live after it and it does not
//! write.

use super::Op;
use crate::model::{Expr, ExprId, Model};

/// The locals one operation reads and writes (frame slots).
#[derive(Debug, Clone, Default)]
pub(crate) struct Effects {
    pub(crate) reads: Vec<u16>,
    pub(crate) writes: Vec<u16>,
}

/// The locals an expression reads: every local it names, less the ones its
/// own comprehensions bind (a function's body reads only its own slots,
/// written by the call; its arguments are walked).
pub(crate) fn reads_of(m: &Model, exprs: &[ExprId], slot: impl Fn(u16) -> u16) -> Vec<u16> {
    let (mut read, mut bound) = (Vec::new(), Vec::new());
    for e in exprs {
        m.walk_expr(*e, &mut |x| match m.expr(x) {
            Expr::Local(s) => read.push(slot(*s)),
            Expr::Comp(_, s, ..) | Expr::Region(s, ..) | Expr::InARow(s, ..) => bound.push(slot(*s)),
            _ => {}
        });
    }
    read.retain(|s| !bound.contains(s));
    read.sort_unstable();
    read.dedup();
    read
}

/// Where control may go after operation `pc`.
fn successors(op: &Op, pc: u32, out: &mut Vec<u32>) {
    out.clear();
    match op {
        Op::Jump(t) => out.push(*t),
        Op::JumpUnless(_, t, _) | Op::ForStart { exit: t, .. } | Op::RepeatStart { exit: t, .. } | Op::MoveAllStart { exit: t, .. } | Op::MoveCountStart { exit: t, .. } => out.extend([pc + 1, *t]),
        // One piece, then the same operation again, or out.
        Op::MoveAllNext { exit: t, .. } | Op::MoveCountNext { exit: t, .. } => out.extend([pc, *t]),
        Op::ForNext { body, .. } | Op::RepeatNext { body, .. } => out.extend([*body, pc + 1]),
        Op::Match { arms, default, .. } => {
            out.extend(arms.iter().map(|(_, t)| *t));
            out.push(*default);
        }
        Op::Choose(c) => {
            out.push(pc + 1);
            out.extend(c.otherwise.iter().copied());
        }
        Op::Win(_) | Op::WinAll(_) | Op::Draw | Op::End => {}
        _ => out.push(pc + 1),
    }
}

/// Live locals before each operation (and after the last), as bit sets of
/// `words` 64-bit words.
pub(crate) fn live_in(ops: &[Op], effects: &[Effects], frame: u16) -> Vec<Vec<u64>> {
    let words = (frame as usize).div_ceil(64).max(1);
    let mut live = vec![vec![0u64; words]; ops.len() + 1];
    let mut succ = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for pc in (0..ops.len()).rev() {
            let mut set = vec![0u64; words];
            successors(&ops[pc], pc as u32, &mut succ);
            for s in &succ {
                if let Some(after) = live.get(*s as usize) {
                    for (w, a) in set.iter_mut().zip(after) {
                        *w |= a;
                    }
                }
            }
            let fx = effects.get(pc).cloned().unwrap_or_default();
            for w in &fx.writes {
                if let Some(word) = set.get_mut(*w as usize / 64) {
                    *word &= !(1u64 << (w % 64));
                }
            }
            for r in &fx.reads {
                if let Some(word) = set.get_mut(*r as usize / 64) {
                    *word |= 1u64 << (r % 64);
                }
            }
            if set != live[pc] {
                live[pc] = set;
                changed = true;
            }
        }
    }
    live
}
