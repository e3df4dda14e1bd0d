//! The invariants checked after every step of a game, by the simulation
//! checks, the explorer and `replay`.

use crate::engine::{Game, State};

/// What the game looked like at its start: the baseline the conservation
/// check compares against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    /// Instances of each kind in all zones.
    pub kinds: Vec<u32>,
    /// Instances in all zones.
    pub total: usize,
}

impl Baseline {
    /// Read the baseline off a state.
    pub fn of(game: &Game, st: &State) -> Baseline {
        let kinds = st.kind_counts(game);
        Baseline { total: kinds.iter().map(|k| *k as usize).sum(), kinds }
    }
}

/// An invariant that does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Stable code.
    pub code: &'static str,
    /// What broke.
    pub message: String,
    /// The rulebook's declaration of the invariant, for a declared one.
    pub at: Option<crate::model::Loc>,
}

/// Code: a component appeared or vanished.
pub const LEAK: &str = "V501";
/// Code: a game that is not over offers no choice.
pub const STUCK: &str = "V502";
/// Code: an invariant the rulebook declares does not hold.
pub const DECLARED: &str = "V504";

/// Check the invariants that hold at every decision point once setup is
/// done: no component appears or vanishes (pieces taken out of or put back in
/// the box during play count as appearing and vanishing), the invariants the
/// rulebook declares hold, and a game that is not over offers a choice. The
/// state is left as it was (checking a declared invariant evaluates it).
///
/// A state where chance decides (a die or a shuffle of an exploring game),
/// or where a player has one option only (a forced move, which an
/// exploring game stops at too), is not checked: it stands in the middle of
/// a rule, between two of its statements, where the rules may still be on
/// their way to a position the invariants describe (a six rolled again by
/// a `while`). Played with the generator, the same game passes through it
/// without stopping; the invariants are checked at the next decision of a
/// player, or at the end.
pub fn check(game: &Game, st: &mut State, base: &Baseline) -> Option<Violation> {
    if st.pending.is_some_and(|p| p.player == crate::engine::CHANCE) || (st.forced_decisions && game.choices(st).is_some_and(|(_, o)| o.len() == 1)) {
        return None;
    }
    // Instances never change kind: if the zones hold as many pieces as at
    // the start, they hold the same pieces.
    let held: usize = (0..game.zones.len() as u16).map(|z| st.zone_len(z)).sum();
    if held != base.total {
        return Some(Violation { code: LEAK, message: "the number of components changed".into(), at: None });
    }
    if let Some(n) = st.box_after_setup {
        let now = st.zone_len(game.box_zone) as u32;
        if now != n {
            let verb = if now < n { "came out of" } else { "went into" };
            return Some(Violation {
                code: LEAK,
                message: format!("{} component(s) {verb} the box during play: components must move between zones of the game, never appear or vanish", now.abs_diff(n)),
                at: st.box_moved_at,
            });
        }
        if let Some(at) = st.box_moved_at {
            // As many in as out since the last check: still a piece that
            // vanished and one that appeared.
            return Some(Violation {
                code: LEAK,
                message: "components went into the box and came out of it during play: components must move between zones of the game, never appear or vanish".into(),
                at: Some(at),
            });
        }
    }
    if let Some(b) = game.broken_invariant(st) {
        return Some(Violation { code: DECLARED, message: b.message(), at: Some(b.def.at) });
    }
    if st.outcome.is_none() && game.choices(st).is_none_or(|(_, o)| o.is_empty()) {
        return Some(Violation { code: STUCK, message: "the game is not over and nobody has a choice".into(), at: None });
    }
    None
}
