//! Static checks: one file per check, each opening with what it checks, why,
//! an example and how to fix it.

mod box_to_shared;
mod constant_condition;
mod exception_priority;
mod module_exception;
mod no_ending;
mod table_rows;
mod unreachable;
mod unused;

use super::Finding;
use crate::model::Model;

/// Run every static check.
pub fn run_all(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    out.extend(unreachable::check(model));
    out.extend(unused::check(model));
    out.extend(exception_priority::check(model));
    out.extend(module_exception::check(model));
    out.extend(table_rows::check(model));
    out.extend(constant_condition::check(model));
    out.extend(box_to_shared::check(model));
    out.extend(no_ending::check(model));
    out
}

