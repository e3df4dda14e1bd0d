//! V302 — an exception to a rule as a module it does not build on declares
//! or replaces it.
//!
//! What: the exception `x` of file A changes the rule `r`, whose
//! declaration in force is in module B; neither A nor B extends the other.
//! Why: A was written against another `r` (the base's, most often). Given
//! together, A's exception now applies to B's replacement, which may have
//! other parameters, moves or board (a house rule written for seven
//! columns changing a round that plays on nine), and nothing fails.
//! Example: `five.rules` replaces `round turn`; `centreban.rules`, a module
//! of the same base, adds `exception no_centre to turn when ... instead`.
//! Fix: make A extend B if it was written for B's `r`; otherwise check
//! that the exception still fits the rule it changes now.

use crate::model::Model;
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V302";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let builds_on = |a: usize, b: usize| model.file_bases.get(a).is_some_and(|bases| bases.iter().any(|f| f.idx() == b));
    let name = |f: usize| model.files.get(f).map_or("?", String::as_str);
    let mut out = Vec::new();
    for x in &model.exceptions {
        let Some(rule) = model.procs.get(x.target.idx()) else { continue };
        let (a, b) = (x.at.file.idx(), rule.at.file.idx());
        if a == b || a == 0 || b == 0 || builds_on(a, b) || builds_on(b, a) {
            continue;
        }
        let mut f = Finding::new(CODE, Severity::Warning, format!("the exception `{}` changes `{}` as `{}` declares it, a module that `{}` does not extend", x.name, rule.name, name(b), name(a)), Some(x.at))
            .help(format!("`{}` was written against another `{}`: make it extend `{}` if it was meant for this one, or check that the exception still fits the rule it now changes", name(a), rule.name, name(b)));
        f.related.push((rule.at, format!("`{}` as `{}` declares it", rule.name, name(b))));
        out.push(f);
    }
    out
}
