//! Diagnostics of resolution and static checks: a stable code, a message, the
//! span of the offending text and a hint. Rendering is the CLI's business.

use crate::model::Loc;
use serde::Serialize;

/// One problem found in a rulebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable code, such as `E0101`.
    pub code: &'static str,
    /// Lowercase message naming user names in backticks.
    pub message: String,
    /// Where.
    pub at: Loc,
    /// Label under the span.
    pub label: String,
    /// A hint: how to fix it, or "did you mean".
    pub help: Option<String>,
    /// Other places involved (the first declaration of a duplicate...).
    pub related: Vec<(Loc, String)>,
}

impl Diagnostic {
    /// A diagnostic with a code, a message and where.
    pub fn new(code: &'static str, message: impl Into<String>, at: Loc, label: impl Into<String>) -> Self {
        Diagnostic { code, message: message.into(), at, label: label.into(), help: None, related: Vec::new() }
    }
    /// Add a hint.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// Add a related place.
    pub fn related(mut self, at: Loc, label: impl Into<String>) -> Self {
        self.related.push((at, label.into()));
        self
    }
    /// Add a related place to a diagnostic already made, unless it shows
    /// that place already (a declaration shown beside each error it
    /// explains, once).
    pub fn relate_once(&mut self, at: Loc, label: impl Into<String>) {
        if !self.related.iter().any(|(there, _)| *there == at) {
            self.related.push((at, label.into()));
        }
    }
}

/// Codes used by resolution, with a line each on what they mean.
pub mod codes {
    /// The text does not parse.
    pub const SYNTAX: &str = "E0001";
    /// A name is used that nothing declares.
    pub const UNKNOWN_NAME: &str = "E0101";
    /// A name is declared twice.
    pub const DUPLICATE_NAME: &str = "E0102";
    /// A name is used where another sort of thing is expected.
    pub const WRONG_SORT: &str = "E0103";
    /// Wrong number of arguments.
    pub const ARITY: &str = "E0104";
    /// A value of the wrong type.
    pub const TYPE: &str = "E0201";
    /// A collection is needed here, or given where a value is needed.
    pub const COLLECTION: &str = "E0202";
    /// A declared total does not equal the sum of its parts.
    pub const TOTAL: &str = "E0301";
    /// A track skips or repeats a space.
    pub const TRACK: &str = "E0302";
    /// The header is missing something.
    pub const HEADER: &str = "E0303";
    /// A table row is malformed.
    pub const TABLE: &str = "E0304";
    /// A module replaces or removes something that does not exist.
    pub const MODULE_TARGET: &str = "E0401";
    /// A module extends the wrong file, or a rulebook is used as a module.
    pub const MODULE: &str = "E0402";
    /// A `simultaneous` block does more than decide and record: it moves,
    /// reveals, rolls, shuffles, picks at random, ends the game or nests a
    /// block.
    pub const SIMULTANEOUS: &str = "E0305";
    /// Exceptions are `over` one another in a cycle.
    pub const OVER_CYCLE: &str = "E0306";
    /// The body of an end condition never ends the game.
    pub const END_BODY: &str = "E0307";
}

/// "1 player", "3 players": a player count in a message.
pub(crate) fn players(n: u8) -> String {
    if n == 1 {
        "1 player".to_string()
    } else {
        format!("{n} players")
    }
}

/// A count in a message, with thousands separators: `20,000`.
pub fn grouped(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub use grimoire_grammar::did_you_mean;

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_grouped_by_thousands() {
        for (n, text) in [(0u64, "0"), (999, "999"), (1000, "1,000"), (20_000, "20,000"), (1_234_567, "1,234,567"), (u64::MAX, "18,446,744,073,709,551,615")] {
            assert_eq!(super::grouped(n), text);
        }
    }
}
