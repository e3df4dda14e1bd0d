//! V207 — a rulebook where nothing can end the game.
//!
//! What: a rulebook with a `round` (not counted: `round NAME times N`
//! stops, R0010) and no `win`, `draw` or `end` statement anywhere (an end
//! condition finishes the game with one of them too).
//! Why: the rounds then run until a game is cut off at `--max-decisions`
//! (V503) or found to loop (V505), findings that point at no line; the
//! missing ending is usually a rule not yet written (an outside tester's
//! rulebook with no ending passed `check`).
//! Example: a take-away game whose last player to take wins, with the
//! `win` forgotten.
//! Fix: encode how the source says the game ends: `win PLAYER`, `draw` or
//! `end` in the rule where it happens, or an end condition (`end NAME when
//! COND { win ... }`).

use crate::model::{Model, Stmt};
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V207";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    // Counted rounds stop: without an outcome then, the game fails with
    // R0010, at the round, which says as much.
    let Some((round, None)) = model.round else { return Vec::new() };
    let ends = model.stmts.iter().any(|s| matches!(s.stmt, Stmt::Win(_) | Stmt::WinAll(_) | Stmt::Draw | Stmt::End));
    if ends {
        return Vec::new();
    }
    let at = model.procs.get(round.idx()).map(|p| p.at);
    vec![Finding::new(CODE, Severity::Error, "nothing in the rulebook ends the game: no `win`, `draw` or `end` statement, in a rule or an end condition, so the rounds can only go on".to_string(), at)
        .help("encode how the source says the game ends: `win PLAYER`, `draw` or `end` where it happens, or an end condition (`end NAME when COND { win ... }`)")]
}
