//! Parse diagnostics: where the text stops making sense, and what was expected.

use crate::ast::Span;
use miette::Diagnostic;
use thiserror::Error;

/// The text is not a well-formed rulebook.
#[derive(Debug, Clone, Error, Diagnostic, PartialEq, Eq)]
#[error("syntax error: expected {expected}")]
#[diagnostic(code(grimoire::syntax))]
pub struct ParseError {
    /// What the parser could have accepted at this point, in words.
    pub expected: String,
    /// Where.
    #[label("here")]
    pub span: Span,
    /// A hint for the most common mistakes.
    #[help]
    pub help: Option<String>,
}
