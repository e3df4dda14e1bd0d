//! Grimoire interpreter: resolves rulebooks into a typed model, runs them, and
//! checks them.
//!
//! The pipeline is `text -> grimoire_grammar::parse -> resolve -> Game ->
//! State`. This crate never reads files and never prints: the CLI does both.

pub mod diagnostic;
pub mod model;
pub mod resolve;

pub use diagnostic::Diagnostic;
pub use model::Model;
pub mod engine;
