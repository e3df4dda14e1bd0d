//! The previous engine, a tree-walking interpreter of the model, kept only so
//! that `cargo bench` can print the new engine's speed as a ratio to it on the
//! same rulebooks, in one run. Nothing else uses it; it is compiled only with
//! the `legacy-engine` feature.
//!
//! [`Game`] is a model laid out for a player count (instances, zones, slots);
//! [`State`] is everything that changes, including where in the rules the game
//! is (a stack of frames), so it can be cloned, hashed, saved and explored.
//! `choices` lists what whoever must decide may choose; `apply` runs the rules
//! until the next decision or the end.

#![allow(clippy::indexing_slicing, reason = "every id is handed out by the resolver or by Game::new, which size the arrays")]

mod error;
mod eval;
mod exec;
mod layout;
mod observe;
mod options;
mod state;
mod value;

pub use error::{ExecError, ExecErrorKind};
pub use layout::{Game, SetupError, ZoneInfo};
pub use observe::{Observation, ZoneView};
pub use options::Options;
pub use state::{Outcome, State, CHANCE, SHUFFLE_SAMPLES};
pub use value::Value;

/// Steps one `apply` may take before the engine says the rules loop.
pub const STEP_FUEL: u32 = 1_000_000;
/// How deep triggers may fire triggers before the engine says they loop.
pub const TRIGGER_DEPTH: u8 = 64;
