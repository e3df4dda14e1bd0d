//! The rulebook's declared invariants (`invariant NAME: CONDITION`), checked
//! on a state: the validator, `simulate`, `explore`, `replay` and `play` call
//! this after every step.

use super::error::ExecError;
use super::layout::Game;
use super::run::Run;
use super::state::{State, NO_ACTOR};
use super::value::Value;
use crate::model::InvariantDef;

/// A declared invariant that does not hold.
#[derive(Debug, Clone)]
pub struct BrokenInvariant<'g> {
    /// The declaration.
    pub def: &'g InvariantDef,
    /// For a `per_player` invariant, the player it fails for.
    pub player: Option<u8>,
    /// The error its condition gave, if evaluating it failed.
    pub error: Option<ExecError>,
}

impl BrokenInvariant<'_> {
    /// The finding, as the engine reports run-time problems.
    pub fn error(&self) -> ExecError {
        let mut e = ExecError::new(super::ExecErrorKind::Invariant, self.message(), Some(self.def.at));
        e.rule = Some(format!("invariant {}", self.def.name));
        e
    }

    /// What broke, in a sentence.
    pub fn message(&self) -> String {
        let whom = self.player.map(|p| format!(" for player {}", u16::from(p) + 1)).unwrap_or_default();
        match &self.error {
            Some(e) => format!("the invariant `{}` could not be checked{whom}: {}", self.def.name, e.message),
            None => format!("the invariant `{}` does not hold{whom}", self.def.name),
        }
    }
}

impl Game {
    /// The first declared invariant that does not hold in `st`, in
    /// declaration order (players in order for a `per_player` one). The
    /// state is left as it was.
    pub fn broken_invariant(&self, st: &mut State) -> Option<BrokenInvariant<'_>> {
        let model = &*self.model;
        for (def, (when, holds, locals)) in model.invariants.iter().zip(&self.program.invariants) {
            let players: Vec<Option<u8>> = if def.per_player { (0..self.players).map(Some).collect() } else { vec![None] };
            for player in players {
                let mut r = Run::new(self, st, self.step_fuel);
                let ok = self.in_window(&mut r, (*locals).max(1), NO_ACTOR, |r| {
                    if let Some(p) = player {
                        r.set_local(0, Value::player(p));
                    }
                    when.as_ref().is_none_or(|w| w(r)) && r.err.is_none() && !holds(r)
                });
                let error = r.err.take().map(|e| *e);
                r.st.scratch.clear();
                if ok || error.is_some() {
                    return Some(BrokenInvariant { def, player, error });
                }
            }
        }
        None
    }
}
