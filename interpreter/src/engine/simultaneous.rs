//! `simultaneous p in PLAYERS { ... }`: every player decides without seeing
//! what the others decided, then everything shows at once.
//!
//! The engine asks one decision at a time, so the block runs its body once
//! per player, in order, and makes the turns independent: each turn starts
//! from the state as it was before the block. What a turn sets (counters and
//! vars: the body cannot move pieces, roll or end the game, the resolver
//! checks it) is written as usual, so that the player reads back his own
//! decisions, and recorded with the value it replaced; when the turn ends,
//! the new values are sealed away and the old ones put back. The next player
//! therefore sees, and `observe` shows, nothing of the earlier turns. When
//! the last turn ends, every sealed value is written: the reveal.
//!
//! All of it lives in the state (plain data), so a game stopped in the
//! middle of a block is saved, replayed and explored like any other.

use super::run::Run;
use super::value::Value;
use super::ExecErrorKind;
use crate::model::Loc;

/// A counter or var slot a turn of the block set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SimSlot {
    Counter(u32),
    Var(u32),
}

/// A `simultaneous` block being run.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(crate) struct Simultaneous {
    /// Whose turn of the block it is (`None` before the first).
    pub(crate) player: Option<u8>,
    /// What the players who had their turn set, in the order of the turns:
    /// the slot, its new value and the player.
    pub(crate) sealed: Vec<(SimSlot, Value, u8)>,
    /// What the current turn changed, with the value from before the block.
    pub(crate) undo: Vec<(SimSlot, Value)>,
    /// Decisions taken in the block so far.
    pub(crate) decisions: u32,
    /// The players whose turn has begun, one bit each: a turn that sets
    /// nothing leaves nothing sealed, and a player may still not have two.
    pub(crate) had_turn: u32,
}

impl super::State {
    /// The game is in the middle of a joint decision: a `simultaneous`
    /// block has taken at least one of its decisions and waits for another.
    /// The explorer takes a whole block as one step and never keeps such a
    /// state (validate/explore.rs).
    pub fn inside_joint_decision(&self) -> bool {
        self.pending.is_some() && self.sim.as_ref().is_some_and(|s| s.decisions > 0)
    }
}

impl Run<'_> {
    /// The block starts: nothing set yet.
    pub(crate) fn sim_begin(&mut self, at: Loc) {
        if self.st.sim.is_some() {
            // The resolver refuses a block inside another; a hand-built model
            // could still try.
            self.fail(ExecErrorKind::Simultaneous, "a `simultaneous` block started inside another".into(), at);
            return;
        }
        self.st.sim = Some(Box::default());
    }

    /// The turn of `player` starts.
    pub(crate) fn sim_turn(&mut self, player: Value, at: Loc) {
        let Value::Player(p) = player else {
            self.fail(ExecErrorKind::Type, "the players of a `simultaneous` block must be players".into(), at);
            return;
        };
        if let Some(sim) = self.st.sim.as_mut() {
            let bit = 1u32.checked_shl(p as u32).unwrap_or(0);
            if sim.had_turn & bit != 0 {
                self.fail(ExecErrorKind::Simultaneous, format!("player {} has two turns in one `simultaneous` block", p + 1), at);
                return;
            }
            sim.had_turn |= bit;
            sim.player = Some(p as u8);
        }
    }

    /// Called before a counter or var slot is written: during a turn, its
    /// value from before the block is kept (once) to be put back.
    #[inline]
    pub(crate) fn sim_record(&mut self, slot: SimSlot) {
        let Some(sim) = self.st.sim.as_mut() else { return };
        if sim.undo.iter().any(|(s, _)| *s == slot) {
            return;
        }
        let old = match slot {
            SimSlot::Counter(i) => Value::Int(self.st.counters.get(i as usize).copied().unwrap_or(0)),
            SimSlot::Var(i) => self.st.vars.get(i as usize).copied().unwrap_or_default(),
        };
        sim.undo.push((slot, old));
    }

    /// The turn ends: its values are sealed away and the old ones put back.
    pub(crate) fn sim_seal(&mut self) {
        let Some(mut sim) = self.st.sim.take() else { return };
        let player = sim.player.unwrap_or(u8::MAX);
        for (slot, old) in std::mem::take(&mut sim.undo) {
            let new = self.sim_swap(slot, old);
            sim.sealed.push((slot, new, player));
        }
        sim.player = None;
        self.st.sim = Some(sim);
    }

    /// The block ends: every turn's values are written. Two players who set
    /// the same slot to different values would make the order of the turns
    /// matter, which a simultaneous decision cannot: that is an error.
    pub(crate) fn sim_reveal(&mut self, at: Loc, name: impl Fn(SimSlot) -> String) {
        let Some(sim) = self.st.sim.take() else { return };
        for (i, (slot, value, player)) in sim.sealed.iter().enumerate() {
            let clash = sim.sealed.get(..i).unwrap_or(&[]).iter().find(|(s, v, q)| s == slot && v != value && q != player);
            if let Some((_, _, first)) = clash {
                let message = format!(
                    "players {} and {} both set {} in one `simultaneous` block: the result would depend on who went first; give each player a slot of his own (a `per_player` var)",
                    first + 1,
                    player + 1,
                    name(*slot)
                );
                self.fail(ExecErrorKind::Simultaneous, message, at);
                return;
            }
            self.sim_swap(*slot, *value);
        }
    }

    /// Write `value` into `slot`, giving back what was there.
    fn sim_swap(&mut self, slot: SimSlot, value: Value) -> Value {
        self.st.ends_checked_for = None;
        match slot {
            SimSlot::Counter(i) => match (self.st.counters.get_mut(i as usize), value) {
                (Some(x), Value::Int(v)) => Value::Int(std::mem::replace(x, v)),
                _ => Value::None,
            },
            SimSlot::Var(i) => match self.st.vars.get_mut(i as usize) {
                Some(x) => std::mem::replace(x, value),
                None => Value::None,
            },
        }
    }
}

impl super::Game {
    /// A counter or var slot in words: "`score` of player 2".
    pub(crate) fn slot_name(&self, slot: SimSlot) -> String {
        let (bases, total, names): (&[u32], u32, Vec<(&str, bool)>) = match slot {
            SimSlot::Counter(_) => (&self.counter_base, self.counter_slots, self.model.counters.iter().map(|c| (c.name.as_str(), c.per_player)).collect()),
            SimSlot::Var(_) => (&self.var_base, self.var_slots, self.model.vars.iter().map(|v| (v.name.as_str(), v.per_player)).collect()),
        };
        let (SimSlot::Counter(i) | SimSlot::Var(i)) = slot;
        let Some(decl) = bases.iter().rposition(|b| *b <= i) else { return "a value".into() };
        let (name, per_player) = names.get(decl).copied().unwrap_or(("?", false));
        let first = bases.get(decl).copied().unwrap_or(0);
        let width = bases.get(decl + 1).copied().unwrap_or(total) - first;
        match (width, per_player) {
            (1, false) => format!("`{name}`"),
            (_, true) => format!("`{name}` of player {}", i - first + 1),
            _ => format!("`{name}` of piece {}", i - first + 1),
        }
    }
}
