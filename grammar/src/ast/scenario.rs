//! Scenarios (`grimoire test`) and their steps.

use super::*;
use serde::Serialize;

/// `scenario NAME [players N] [seed S] [option O]... [with MODULE, ...] { STEP... }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    /// Name.
    pub name: Ident,
    /// `players N`, if given.
    pub players: Option<(i64, Span)>,
    /// `seed S`, if given.
    pub seed: Option<(i64, Span)>,
    /// `option NAME` clauses: options of the rulebook switched on.
    pub options: Vec<Ident>,
    /// `with MODULE, ...`: modules (by their header name) that must be loaded.
    pub with: Vec<Ident>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One step of a scenario, with its provenance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// Provenance clauses.
    pub provenance: Vec<Provenance>,
    /// Whole step.
    pub span: Span,
}

/// How `expect options` compares the options offered with its labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OptionsTest {
    /// `contain`: every label is offered.
    Contain,
    /// `exclude`: no label is offered.
    Exclude,
    /// `==`: exactly these labels, in this order.
    Equal,
}

/// Scenario steps.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum StepKind {
    /// `choose "label"`, `choose N` (the N-th option, from 1) or `choose EXPR`
    /// (the option holding that value).
    Choose(Expr),
    /// `play N`: the random agent takes the next N decisions.
    Play(i64),
    /// `play until COND`: the random agent decides until COND holds.
    PlayUntil(Expr),
    /// `play until over`: the random agent decides until the game ends.
    PlayToEnd,
    /// `place WHAT at ZONE [bottom]`: move pieces by hand; no trigger fires.
    Place {
        /// What.
        what: MoveWhat,
        /// Where.
        to: Expr,
        /// At the front rather than the back.
        bottom: bool,
    },
    /// `set LVALUE op EXPR`: change a var or counter by hand.
    Set(Expr, AssignOp, Expr),
    /// `expect COND`.
    Expect(Expr),
    /// `expect options contain|exclude|== LABELS`.
    ExpectOptions(OptionsTest, Vec<Str>),
    /// `expect prompt "text"`: the question of the pending decision.
    ExpectPrompt(Str),
    /// `expect over` (true) or `expect not over` (false).
    ExpectOver(bool),
}
