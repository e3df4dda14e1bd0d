//! The syntax tree of a rulebook. Every node keeps the byte span of its text;
//! spans are ignored by equality so that trees can be compared across layouts.
//!
//! Here: what every part shares (spans, names, strings, ranges, provenance,
//! the file and its header); `items.rs` the top-level declarations,
//! `scenario.rs` scenarios and their steps, `code.rs` statements and
//! expressions. All of it is read as `ast::NAME`.

use serde::Serialize;

/// A byte range in the source text.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl PartialEq for Span {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Span {}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }
    /// True for an empty span.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start, s.len()).into()
    }
}

/// A name with its span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ident {
    /// The name as written.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A string literal (quotes removed, escapes resolved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Str {
    /// The text.
    pub value: String,
    /// Where it was written, quotes included.
    pub span: Span,
}

/// A whole file: a rulebook or a module.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct File {
    /// The header.
    pub header: Header,
    /// Declarations in order.
    pub items: Vec<Item>,
}

/// What the file is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum HeaderKind {
    /// A base rulebook.
    Rulebook,
    /// A module extending the rulebook at this path (relative to the module file).
    Module {
        /// Path of the base file.
        extends: Str,
    },
}

/// `rulebook NAME { ... }` or `module NAME extends "..." { ... }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Header {
    /// Rulebook or module.
    pub kind: HeaderKind,
    /// Its name.
    pub name: Ident,
    /// `title "..."`.
    pub title: Option<Str>,
    /// `source "file.txt"`: the default source of citations.
    pub source: Option<Str>,
    /// `players a..b` with provenance.
    pub players: Option<(Range, Vec<Provenance>)>,
    /// Engine limits the rulebook sets (`trigger_depth 100`): name, value,
    /// where the value is written.
    pub limits: Vec<(Ident, i64, Span)>,
    /// The provenance of `title` and of the limits: the clause's name, its
    /// provenance clauses, and where the clause is written.
    pub cited: Vec<(String, Vec<Provenance>, Span)>,
    /// Whole header.
    pub span: Span,
}

/// An inclusive integer range `a..b` (or a single `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    /// Low end.
    pub lo: i64,
    /// High end (inclusive).
    pub hi: i64,
    /// Where it was written.
    pub span: Span,
}

/// Where a declaration comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Provenance {
    /// `cite "quote" [in "file"]`.
    Quote {
        /// Verbatim quote.
        quote: Str,
        /// Other source file, if not the default.
        source: Option<Str>,
    },
    /// `cite line N` / `cite lines a..b`.
    Lines {
        /// Line range.
        lines: Range,
        /// Other source file, if not the default.
        source: Option<Str>,
    },
    /// `assume "reason"`.
    Assume(Str),
}

mod code;
mod items;
mod scenario;

pub use code::*;
pub use items::*;
pub use scenario::*;
