//! V206 — `move N of KIND from box` of a per-player kind into a zone of no
//! player.
//!
//! What: the statement `move N of KIND from box to Z` where `KIND` is
//! `per_player` and `Z` is not one of a `per_player` zone's zones (a space,
//! a shared pile).
//! Why: out of the box, a player's zone receives only that player's
//! pieces; any other zone receives the top-most pieces of the kind,
//! whoever owns them (the last player's first). Written inside `for p in
//! players`, it gives each player someone else's pieces, and nothing fails.
//! Example: `for p in players { move 2 of pawn from box to start_of(p) }`.
//! Fix: move the player's own pieces (`move first m in pieces(pawn, p)
//! where zone_of(m) == box to Z`, or through a zone of the player's).

use crate::model::{Expr, Model, Stmt, ZoneMult};
use crate::validate::{Finding, Severity};

/// Code of this check.
pub const CODE: &str = "V206";

/// Run the check.
pub fn check(model: &Model) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &model.stmts {
        let Stmt::MoveCount { kind, from, to, .. } = &s.stmt else { continue };
        let Some(k) = model.kinds.get(kind.idx()) else { continue };
        if !k.per_player || !matches!(model.expr(*from), Expr::Box) {
            continue;
        }
        let players_zone = match model.expr(*to) {
            Expr::Zone(d, Some(_)) => model.zones.get(d.idx()).is_some_and(|z| z.mult == ZoneMult::PerPlayer),
            Expr::Box => true,
            _ => false,
        };
        if players_zone {
            continue;
        }
        out.push(
            Finding::new(CODE, Severity::Warning, format!("this takes `{}` out of the box into a zone of no player: it gets the top-most ones, whoever owns them", k.name), Some(s.at))
                .help(format!("to give a player his own, move them by owner (`move first m in pieces({}, p) where zone_of(m) == box to ...`) or through a zone of his", k.name)),
        );
    }
    out
}
