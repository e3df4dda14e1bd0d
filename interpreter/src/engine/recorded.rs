//! What a game keeps for the screens of `play` when its rolls are kept
//! ([`Game::begin_recording`]): the dice rolled, the choices taken without
//! asking, the pieces revealed. No rule reads any of it: fingerprints,
//! canonical forms and packed states leave it out.
//!
//! [`Game::begin_recording`]: super::Game::begin_recording

use crate::model::*;
use super::value::Value;

/// A die rolled in a game whose rolls are kept ([`Game::begin_recording`]):
/// what `play` shows the players, since the rules may keep a roll in a
/// local that no screen shows. No rule reads it: fingerprints, canonical
/// forms and packed states leave it out.
///
/// [`Game::begin_recording`]: super::Game::begin_recording
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    /// The die.
    pub die: DieId,
    /// The face or number it showed.
    pub value: Value,
    /// The rule that rolled it.
    pub rule: ProcId,
    /// The `roll` statement.
    pub at: Loc,
    /// How many decisions had been taken when it was rolled.
    pub after_decisions: u32,
    /// The players shown the roll, one bit each (`roll ... to PLAYERS`);
    /// everybody when `None`.
    pub seen_by: Option<u16>,
}

/// A `choose` with one option, taken without asking, in a game whose rolls
/// are kept ([`Game::begin_recording`]): `play --auto` prints it among the
/// decisions, where a log (which records decisions only) would read as an
/// illegal game without it (a bid followed by a lower one, the forced
/// challenge between them missing). No rule reads it.
///
/// [`Game::begin_recording`]: super::Game::begin_recording
#[derive(Debug, Clone, PartialEq)]
pub struct Forced {
    /// The player it was taken for.
    pub player: u8,
    /// The option, one value per binding.
    pub option: Vec<Value>,
    /// How many decisions had been taken when it was taken.
    pub after_decisions: u32,
    /// How many rolls kept since the last `take_rolls` came before it (a
    /// roll and a forced choice after the same decision are printed in
    /// the order they happened).
    pub rolls_before: usize,
}

/// A piece shown by a `reveal` to players who could not see it, in a game
/// whose rolls are kept ([`Game::begin_recording`]): `play` lists it to
/// them on their next screen, since the piece may have moved out of their
/// sight by then (a hand looked at, then shuffled into the deck). No rule
/// reads it: fingerprints, canonical forms and packed states leave it out.
///
/// [`Game::begin_recording`]: super::Game::begin_recording
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revealed {
    /// The piece.
    pub piece: u16,
    /// The zone it was in when it was shown.
    pub zone: u16,
    /// The rule whose `reveal` showed it (`None`: shown before the game's
    /// first decision, by a setup whose run was not recorded).
    pub rule: Option<ProcId>,
    /// How many decisions had been taken when it was shown.
    pub after_decisions: u32,
    /// The players it was shown to (those who did not know it), one bit each.
    pub to: u16,
}

impl Revealed {
    /// Whether `player` (from 0) was shown the piece.
    pub fn shown_to(&self, player: u8) -> bool {
        player < 16 && self.to >> player & 1 == 1
    }
}

impl Rolled {
    /// Whether `player` (from 0) is shown this roll.
    pub fn shown_to(&self, player: u8) -> bool {
        self.seen_by.is_none_or(|mask| player < 16 && mask >> player & 1 == 1)
    }
}
