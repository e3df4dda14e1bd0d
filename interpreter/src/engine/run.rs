//! What compiled code runs against: the game, the state, the window of the
//! running procedure's locals, the acting player, the fuel left, and the
//! first error. An error does not travel back through every expression: it
//! is recorded here (a cold path that builds the message) and the operation
//! that evaluated the expression stops the run.

use super::compile::{CollF, NONE_INT, NO_PLAYER};
use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::state::{State, NIL};
use super::value::Value;
use crate::model::Loc;

/// The context of compiled code.
pub(crate) struct Run<'a> {
    pub(crate) g: &'a Game,
    pub(crate) st: &'a mut State,
    /// The locals of the running procedure start here on the stack.
    pub(crate) base: usize,
    /// The player on whose behalf the running procedure acts.
    pub(crate) actor: u8,
    /// Steps left: operations and collection items both count.
    pub(crate) fuel: u64,
    /// The first error, if any; the run stops at the end of the operation.
    pub(crate) err: Option<Box<ExecError>>,
    /// `Game::run_to_chance` stopped before an operation that may draw
    /// from the RNG.
    pub(crate) stopped: bool,
    /// Where the caches of the walk running now start on the state's
    /// scratch buffer (hoist.rs).
    pub(crate) caches: usize,
}

impl<'a> Run<'a> {
    pub(crate) fn new(g: &'a Game, st: &'a mut State, fuel: u64) -> Self {
        Run { g, st, base: 0, actor: super::state::NO_ACTOR, fuel, err: None, stopped: false, caches: 0 }
    }

    /// A local of the running procedure.
    #[inline]
    pub(crate) fn local(&self, slot: u16) -> Value {
        self.st.stack.get(self.base + slot as usize).copied().unwrap_or(Value::None)
    }

    /// Set a local of the running procedure.
    #[inline]
    pub(crate) fn set_local(&mut self, slot: u16, v: Value) {
        if let Some(x) = self.st.stack.get_mut(self.base + slot as usize) {
            *x = v;
        }
    }

    /// Spend one step; false (and an error) when the fuel is gone.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        if self.fuel == 0 {
            self.out_of_fuel();
            return false;
        }
        self.fuel -= 1;
        true
    }

    /// Spend `n` steps at once (the pieces a statement moves, shuffles,
    /// reveals or looks through); false (and an error) when the fuel is
    /// gone first.
    #[inline]
    pub(crate) fn spend(&mut self, n: u64) -> bool {
        if self.fuel < n {
            self.fuel = 0;
            self.out_of_fuel();
            return false;
        }
        self.fuel -= n;
        true
    }

    #[cold]
    fn out_of_fuel(&mut self) {
        if self.err.is_none() {
            let msg = super::exec::fuel_message(self.g.step_fuel);
            self.err = Some(Box::new(ExecError::new(ExecErrorKind::Fuel, msg, None)));
        }
    }

    /// Record an error (the first one wins).
    #[cold]
    #[inline(never)]
    pub(crate) fn fail(&mut self, kind: ExecErrorKind, message: String, at: Loc) {
        if self.err.is_none() {
            self.err = Some(Box::new(ExecError::new(kind, message, Some(at))));
        }
    }

    /// The players of a collection as a bit mask (player i: bit i), each
    /// item that is not a player of the game an error (`reveal ... to`,
    /// `win` of several players).
    pub(crate) fn players_mask(&mut self, players: &CollF, at: Loc) -> u16 {
        let mut mask = 0u16;
        players(self, &mut |r, v| {
            match v {
                Value::Player(p) if p < u64::from(r.g.players) => mask |= 1 << p,
                other => r.wrong("a player", other, at),
            }
            r.err.is_none()
        });
        mask
    }

    /// Record a type error: `wanted` was needed and `found` came.
    #[cold]
    #[inline(never)]
    pub(crate) fn wrong(&mut self, wanted: &str, found: Value, at: Loc) {
        let msg = format!("{wanted} was needed, found {}", self.g.label(found));
        self.fail(ExecErrorKind::Type, msg, at);
    }

    /// The walk of a collection goes on: fuel is left. (After an error the
    /// walk may go on to its end, bounded like any other; nothing acts on
    /// its result.)
    #[inline]
    pub(crate) fn going(&mut self) -> bool {
        self.tick()
    }
}

/// Conversions from a general value to the unboxed forms, for expressions
/// whose type is only known at run time (locals, vars, function results).
impl Run<'_> {
    #[inline]
    pub(crate) fn as_int(&mut self, v: Value, at: Loc) -> i64 {
        match v {
            Value::Int(i) => i,
            Value::None => NONE_INT,
            other => {
                self.wrong("a number", other, at);
                0
            }
        }
    }

    #[inline]
    pub(crate) fn as_bool(&mut self, v: Value, at: Loc) -> bool {
        match v {
            Value::True => true,
            Value::False => false,
            other => {
                self.wrong("a truth value", other, at);
                false
            }
        }
    }

    #[inline]
    pub(crate) fn as_zone(&mut self, v: Value, at: Loc) -> u16 {
        match v {
            Value::Zone(z) if (z as usize) < self.g.zones.len() => z as u16,
            Value::None => NIL,
            other => {
                self.wrong("a zone", other, at);
                NIL
            }
        }
    }

    #[inline]
    pub(crate) fn as_piece(&mut self, v: Value, at: Loc) -> u16 {
        match v {
            Value::Piece(p) if (p as usize) < self.g.inst_kind.len() => p as u16,
            Value::None => NIL,
            other => {
                self.wrong("a piece", other, at);
                NIL
            }
        }
    }

    #[inline]
    pub(crate) fn as_player(&mut self, v: Value, at: Loc) -> u16 {
        match v {
            Value::Player(p) if p < u64::from(self.g.players) => p as u16,
            Value::None => u16::from(NO_PLAYER),
            other => {
                self.wrong("a player", other, at);
                u16::from(NO_PLAYER)
            }
        }
    }

    /// A number that must not be `none`.
    #[inline]
    pub(crate) fn need_int(&mut self, i: i64, at: Loc) -> i64 {
        if i == NONE_INT {
            self.wrong("a number", Value::None, at);
            return 0;
        }
        i
    }
}
