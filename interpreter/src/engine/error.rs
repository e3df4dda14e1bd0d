//! What can go wrong while a game runs. Each error names the statement of the
//! rulebook where it happened: these are findings about the rulebook, not
//! crashes of the engine.

use crate::model::Loc;
use serde::Serialize;

/// Which sort of run-time problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExecErrorKind {
    /// A player must choose and has no legal option.
    Deadlock,
    /// The rules ran out of fuel: a loop that does not end.
    Fuel,
    /// Triggers fired triggers too deep.
    TriggerChain,
    /// A counter left its bounds.
    CounterBounds,
    /// A rule took from a zone that did not hold enough.
    Underflow,
    /// A zone received more than its capacity.
    Capacity,
    /// A zone received a kind it does not hold.
    ZoneKind,
    /// A value of the wrong type, or `none` where a value was needed.
    Type,
    /// Two exceptions apply and neither wins.
    Conflict,
    /// The game ran out of rounds and nothing decided the outcome.
    NoOutcome,
    /// A choice index outside the listed options, or a move after the end.
    BadChoice,
    /// A table has no row for a key, or a space is off its track.
    OutOfRange,
    /// An invariant the rulebook declares does not hold.
    Invariant,
    /// An end condition holds before setup is over.
    EndInSetup,
    /// A `simultaneous` block lets one player's decision show through to
    /// another: two players set the same thing, or someone other than the
    /// player whose turn it is decides.
    Simultaneous,
}

impl ExecErrorKind {
    /// Stable code of the finding.
    pub fn code(self) -> &'static str {
        match self {
            ExecErrorKind::Deadlock => "R0001",
            ExecErrorKind::Fuel => "R0002",
            ExecErrorKind::TriggerChain => "R0003",
            ExecErrorKind::CounterBounds => "R0004",
            ExecErrorKind::Underflow => "R0005",
            ExecErrorKind::Capacity => "R0006",
            ExecErrorKind::ZoneKind => "R0007",
            ExecErrorKind::Type => "R0008",
            ExecErrorKind::Conflict => "R0009",
            ExecErrorKind::NoOutcome => "R0010",
            ExecErrorKind::BadChoice => "R0011",
            ExecErrorKind::OutOfRange => "R0012",
            // The validator's code for the same finding.
            ExecErrorKind::Invariant => "V504",
            ExecErrorKind::EndInSetup => "R0013",
            ExecErrorKind::Simultaneous => "R0014",
        }
    }
}

/// A run-time problem and where in the rulebook it arose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct ExecError {
    /// Which sort.
    pub kind: ExecErrorKind,
    /// Lowercase explanation.
    pub message: String,
    /// The statement or expression where it happened.
    pub at: Option<Loc>,
    /// The procedure that was running.
    pub rule: Option<String>,
}

impl ExecError {
    pub(crate) fn new(kind: ExecErrorKind, message: impl Into<String>, at: Option<Loc>) -> Self {
        ExecError { kind, message: message.into(), at, rule: None }
    }
}
