//! V301 — exceptions to the same rule with no priority between them.
//!
//! What: for every rule with two or more exceptions that replace it
//! (`instead`), every pair where neither is `over` the other; `before` and
//! `after` exceptions add to the rule and compose in declaration order. The simulation confirms a conflict (R0009) when both
//! conditions hold in a game; this static check says it can happen.
//! Why: "the most specific rule wins" needs an order; without one, two
//! expansions that both change a rule leave the game undefined.
//! Example: `exception a to move when x` and `exception b to move when y`.
//! Fix: say which wins (`exception b to move when y over a`), or make the
//! conditions exclusive. Two independent modules settle it in a third,
//! given with both.

use crate::model::Model;
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V301";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for p in &model.procs {
        for (i, a) in p.exceptions.iter().enumerate() {
            for b in p.exceptions.iter().skip(i + 1) {
                let (da, db) = (&model.exceptions[a.idx()], &model.exceptions[b.idx()]);
                // Additions (`before`, `after`) compose; only two replacements clash.
                let replaces = |x: &crate::model::ExceptionDef| x.mode == grimoire_grammar::ast::ExceptionMode::Instead;
                if da.over.contains(b) || db.over.contains(a) || !replaces(da) || !replaces(db) {
                    continue;
                }
                let mut f = Finding::new(
                    CODE,
                    Severity::Warning,
                    format!("the exceptions `{}` and `{}` both change `{}` and neither is `over` the other", da.name, db.name, p.name),
                    Some(da.at),
                )
                .help(if da.at.file == db.at.file {
                    format!("if both can apply at once, say which wins: `... over {}`", db.name)
                } else {
                    // `over` may only name what its file can see alone.
                    format!(
                        "if both can apply at once, say which wins with `over`, in the file that extends the other's; if neither extends the other, `over` in one would not compile without the other: settle it in a module given with both (`replace exception {} ... over {}`)",
                        da.name, db.name
                    )
                });
                f.related.push((db.at, "the other exception".into()));
                out.push(f);
            }
        }
    }
    out
}
