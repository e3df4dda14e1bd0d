//! V102 — tables keyed by the player count that miss an allowed count.
//!
//! What: a table whose key column is `players` must have a row for every
//! player count the rulebook allows.
//! Why: the setup or a phase looks the row up at that count and the game
//! cannot start.
//! Example: `players 3..8` with a table that stops at 7.
//! Fix: add the missing row from the source, or narrow `players`.

use crate::model::Model;
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V102";

/// Run the check. Tables carry no location of their own; the finding points
/// at the rulebook's first record of the table.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for t in &model.tables {
        let missing: Vec<String> = (model.min_players..=model.max_players)
            .filter(|n| !t.rows.iter().any(|(lo, hi, _)| (*lo..=*hi).contains(&i64::from(*n))))
            .map(|n| n.to_string())
            .collect();
        if !missing.is_empty() && t.key_is_players {
            let at = model.records.iter().find(|r| r.name == t.name).map(|r| r.at);
            out.push(
                Finding::new(CODE, Severity::Error, format!("the table `{}` has no row for {} players", t.name, missing.join(", ")), at)
                    .help("add the rows from the source, or narrow the rulebook's `players` range"),
            );
        }
    }
    out
}
