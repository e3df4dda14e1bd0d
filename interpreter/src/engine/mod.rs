//! The engine: a step machine over plain-data game states.
//!
//! [`Game`] is a model laid out for a player count (instances, zones, slots);
//! [`State`] is everything that changes, including where in the rules the game
//! is (a stack of frames), so it can be cloned, hashed, saved and explored.
//! `choices` lists what whoever must decide may choose; `apply` runs the rules
//! until the next decision or the end.

#![allow(clippy::indexing_slicing, reason = "every id is handed out by the resolver or by Game::new, which size the arrays")]

mod canonical;
mod compile;
mod end_watch;
mod error;
mod eval;
mod calls;
mod exec;
mod moves;
mod geometry;
mod invariants;
mod layout;
mod observe;
mod options;
mod pack;
mod recorded;
mod run;
mod shuffle_orders;
mod simultaneous;
mod state;
mod tuples;
mod value;
mod zone_hash;

pub use compile::Site;
pub use error::{ExecError, ExecErrorKind};
pub use layout::{Game, SetupError, ZoneInfo};
pub use observe::{ordinal, Observation, ZoneView, EVERYBODY};
pub use options::Options;
pub use exec::{MAX_EXCEPTIONS_PER_RULE, MAX_RULE_DEPTH};
pub use invariants::BrokenInvariant;
pub use recorded::{Forced, Revealed, Rolled};
pub use state::{Outcome, State, ZoneIter, CHANCE, SHUFFLE_SAMPLES};
pub use value::Value;

/// Steps one `apply` may take before the engine says the rules loop, unless
/// the rulebook sets `step_fuel`: every operation and every item a
/// collection walks counts one.
pub const STEP_FUEL: u64 = 10_000_000;
/// How deep triggers may fire triggers before the engine says they loop,
/// unless the rulebook sets `trigger_depth`.
pub const TRIGGER_DEPTH: u8 = 64;
