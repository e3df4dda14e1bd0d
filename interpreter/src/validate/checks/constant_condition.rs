//! V205 — a condition that is always true or always false.
//!
//! What: a condition made only of constants that makes something dead: an
//! `if` or `else if` always true or always false, an end condition always
//! true or always false, and a `while`, `choose ... where`, or the `when` of
//! an exception, trigger or invariant that is always false (`when true` is
//! how a module changes a rule in every case, `while true` a loop that `win`
//! or `end` leaves); and a `choose`, `for` or `simultaneous` block over a
//! collection of constants that is always empty (`[]`, `3..1`, `[x in C
//! where false]`); a `repeat` or a counted round (`round NAME times N`)
//! whose count is a constant below 1.
//! Why: a branch behind an impossible condition never runs, and one behind a
//! condition that always holds makes its alternative dead: either way the
//! rule the text states is not the one encoded (often a condition left from
//! a test, or a typo in a number).
//! Example: `exception unicorn to dragon_blocks when 0 > 1 { ... }`.
//! Fix: write the condition the source text gives, or remove the branch.

use crate::model::{Expr, ExprId, Model, Stmt};
use crate::validate::{Finding, Severity};
use grimoire_grammar::ast::{BinOp, Quantifier};

/// Code of this check.
pub const CODE: &str = "V205";

/// A constant's value, if the expression is made of constants only.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Const {
    Int(i64),
    Bool(bool),
}

fn fold(m: &Model, e: ExprId) -> Option<Const> {
    Some(match m.expr(e) {
        Expr::Int(i) => Const::Int(*i),
        Expr::Bool(b) => Const::Bool(*b),
        Expr::Not(a) => match fold(m, *a)? {
            Const::Bool(b) => Const::Bool(!b),
            Const::Int(_) => return None,
        },
        Expr::Neg(a) => match fold(m, *a)? {
            Const::Int(i) => Const::Int(i.checked_neg()?),
            Const::Bool(_) => return None,
        },
        Expr::Bin(op, a, b) => {
            let (x, y) = (fold(m, *a), fold(m, *b));
            match (op, x, y) {
                // `false and anything` is false whatever the rest.
                (BinOp::And, Some(Const::Bool(false)), _) | (BinOp::And, _, Some(Const::Bool(false))) => Const::Bool(false),
                (BinOp::Or, Some(Const::Bool(true)), _) | (BinOp::Or, _, Some(Const::Bool(true))) => Const::Bool(true),
                (BinOp::And, Some(Const::Bool(p)), Some(Const::Bool(q))) => Const::Bool(p && q),
                (BinOp::Or, Some(Const::Bool(p)), Some(Const::Bool(q))) => Const::Bool(p || q),
                (_, Some(Const::Int(p)), Some(Const::Int(q))) => match op {
                    BinOp::Add => Const::Int(p.checked_add(q)?),
                    BinOp::Sub => Const::Int(p.checked_sub(q)?),
                    BinOp::Mul => Const::Int(p.checked_mul(q)?),
                    BinOp::Eq => Const::Bool(p == q),
                    BinOp::Ne => Const::Bool(p != q),
                    BinOp::Lt => Const::Bool(p < q),
                    BinOp::Le => Const::Bool(p <= q),
                    BinOp::Gt => Const::Bool(p > q),
                    BinOp::Ge => Const::Bool(p >= q),
                    _ => return None,
                },
                (BinOp::Eq, Some(Const::Bool(p)), Some(Const::Bool(q))) => Const::Bool(p == q),
                (BinOp::Ne, Some(Const::Bool(p)), Some(Const::Bool(q))) => Const::Bool(p != q),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// A collection written with constants that holds nothing: `[]`, a range
/// whose end is below its start (`3..1`), or a filter of one (`[x in C
/// where false]`, `[x in []]`).
fn always_empty(m: &Model, e: ExprId) -> bool {
    match m.expr(e) {
        Expr::List(items) => items.is_empty(),
        Expr::Range(a, b) => matches!((fold(m, *a), fold(m, *b)), (Some(Const::Int(lo)), Some(Const::Int(hi))) if hi < lo),
        Expr::Comp(Quantifier::Filter | Quantifier::FilterWhile, _, items, cond) => always_empty(m, *items) || cond.is_some_and(|c| matches!(fold(m, c), Some(Const::Bool(false)))),
        _ => false,
    }
}

/// A count written with constants that is below 1 (`repeat 0`, `round
/// turn times 0`): what it counts never runs.
fn never_counts(m: &Model, n: ExprId) -> bool {
    matches!(fold(m, n), Some(Const::Int(k)) if k < 1)
}

/// A statement over a collection that is always empty, what that means and
/// the fix.
struct Empty {
    collection: ExprId,
    message: &'static str,
    help: &'static str,
}

/// Which constant values of a condition are a mistake.
#[derive(Clone, Copy)]
enum Suspect {
    /// Either: an `if` whose block or whose alternative can never run, an
    /// end that holds at once or never.
    Both,
    /// Only `false`: `when true` is how a module changes a rule in every
    /// case, `while true` a loop left by `win` or `end`, `where true` harmless.
    False,
}

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut conditions: Vec<(ExprId, &'static str, Suspect)> = Vec::new();
    // The collections of `choose`s that can offer nothing, and of loops
    // that never run.
    let mut empty: Vec<Empty> = Vec::new();
    for s in &model.stmts {
        match &s.stmt {
            Stmt::If(arms, _) => conditions.extend(arms.iter().map(|(c, _)| (*c, "the condition of this `if`", Suspect::Both))),
            Stmt::While(c, _) => conditions.push((*c, "the condition of this `while`", Suspect::False)),
            Stmt::Choose { binds, cond, .. } | Stmt::ChooseRandom { binds, cond, .. } => {
                conditions.extend(cond.map(|c| (c, "the `where` of this `choose`", Suspect::False)));
                empty.extend(binds.iter().map(|(_, coll)| *coll).filter(|coll| always_empty(model, *coll)).map(|collection| Empty {
                    collection,
                    message: "the collection of this `choose` is always empty: it never offers an option",
                    help: "only its `else` can run (without one, every game that reaches it fails, R0001): write the collection the source gives",
                }));
            }
            Stmt::For(_, collection, _) if always_empty(model, *collection) => empty.push(Empty {
                collection: *collection,
                message: "the collection of this `for` is always empty: its body never runs",
                help: "write the collection the source gives, or remove the loop",
            }),
            Stmt::Repeat(n, _) if never_counts(model, *n) => empty.push(Empty {
                collection: *n,
                message: "this `repeat` runs its body 0 times: its count is a constant below 1",
                help: "write the count the source gives, or remove the loop",
            }),
            Stmt::Simultaneous(_, collection, _) if always_empty(model, *collection) => empty.push(Empty {
                collection: *collection,
                message: "the players of this `simultaneous` block are always an empty collection: its body never runs",
                help: "write the players the source gives (`players`, or those it names), or remove the block",
            }),
            _ => {}
        }
    }
    if let Some((_, Some(times))) = model.round.filter(|(_, times)| times.is_some_and(|n| never_counts(model, n))) {
        empty.push(Empty {
            collection: times,
            message: "the round is counted 0 times: no round runs, and every game not ended by its setup has no outcome (R0010)",
            help: "write the number of rounds the source gives",
        });
    }
    conditions.extend(model.exceptions.iter().map(|x| (x.when, "the `when` of this exception", Suspect::False)));
    conditions.extend(model.procs.iter().filter_map(|p| p.when).map(|w| (w, "the `when` of this trigger", Suspect::False)));
    conditions.extend(model.ends.iter().map(|e| (e.when, "the condition of this end", Suspect::Both)));
    conditions.extend(model.invariants.iter().filter_map(|i| i.when).map(|w| (w, "the `when` of this invariant", Suspect::False)));
    let mut out = Vec::new();
    for e in empty {
        let at = model.expr_at.get(e.collection.0 as usize).copied();
        out.push(Finding::new(CODE, Severity::Warning, e.message, at).help(e.help));
    }
    for (c, what, suspect) in conditions {
        if let (Some(Const::Bool(b)), Suspect::Both) | (Some(Const::Bool(b @ false)), Suspect::False) = (fold(model, c), suspect) {
            let at = model.expr_at.get(c.0 as usize).copied();
            out.push(
                Finding::new(CODE, Severity::Warning, format!("{what} is always {}: it is made of constants only", if b { "true" } else { "false" }), at)
                    .help(if b { "its alternative can never run: write the condition the source gives, or drop the test" } else { "what it guards can never run: write the condition the source gives, or remove the branch" }),
            );
        }
    }
    out
}
