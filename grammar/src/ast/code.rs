//! Statements and expressions: the bodies of rules, functions and
//! conditions.

use super::*;
use serde::Serialize;

/// A sequence of statements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// Provenance written just before the opening brace.
    pub provenance: Vec<Provenance>,
    /// Statements.
    pub stmts: Vec<Stmt>,
    /// Braces included.
    pub span: Span,
}

/// A statement with its provenance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stmt {
    /// What it does.
    pub kind: StmtKind,
    /// Provenance clauses.
    pub provenance: Vec<Provenance>,
    /// Whole statement.
    pub span: Span,
}

/// Assignment operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AssignOp {
    /// `=`.
    Set,
    /// `+=`.
    Add,
    /// `-=`.
    Sub,
}

/// What a `move` moves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum MoveWhat {
    /// One piece.
    Piece(Expr),
    /// The top piece of a zone.
    Top(Expr),
    /// Every piece of a zone.
    All(Expr),
    /// N pieces of a kind from a zone.
    Count {
        /// How many.
        n: Expr,
        /// Which kind.
        kind: Ident,
        /// From where.
        from: Expr,
    },
}

/// A match arm pattern: names, or `_`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Pattern {
    /// One of these names.
    Names(Vec<Ident>),
    /// Anything.
    Wildcard(Span),
}

/// Statements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum StmtKind {
    /// `let x = e`.
    Let(Ident, Expr),
    /// `lvalue op e`.
    Assign(Expr, AssignOp, Expr),
    /// `move WHAT to ZONE [bottom]`.
    Move {
        /// What.
        what: MoveWhat,
        /// Destination.
        to: Expr,
        /// Put at the bottom rather than on top/behind.
        bottom: bool,
    },
    /// `shuffle zone`.
    Shuffle(Expr),
    /// `reveal WHAT to PLAYERS`: those players know which piece it is.
    Reveal {
        /// A piece, `top of Z` or `all of Z` (the resolver refuses a count).
        what: MoveWhat,
        /// A player, or a collection of players.
        to: Expr,
    },
    /// `roll x = die [to PLAYERS]`: the die, and who is shown the roll
    /// (everybody when absent).
    Roll(Ident, Ident, Option<Expr>),
    /// `choose x from C [, y from D...] [where P] by PLAYER [prompt "..."] [else { }]`:
    /// one decision over the tuples of the bindings for which P holds.
    Choose {
        /// Bound locals and their collections; later ones may use earlier ones.
        binds: Vec<(Ident, Expr)>,
        /// Which tuples are options.
        cond: Option<Expr>,
        /// Who decides.
        by: Expr,
        /// Question shown to the player.
        prompt: Option<Str>,
        /// What happens when there is nothing to choose.
        otherwise: Option<Block>,
    },
    /// `choose x from C [where P] at random [else { }]`: chance picks one, uniformly.
    ChooseRandom {
        /// Bound locals and their collections.
        binds: Vec<(Ident, Expr)>,
        /// Which tuples are options.
        cond: Option<Expr>,
        /// What happens when there is nothing to choose.
        otherwise: Option<Block>,
    },
    /// `if` / `else if` / `else`.
    If(Vec<(Expr, Block)>, Option<Block>),
    /// `while c { }`.
    While(Expr, Block),
    /// `repeat n { }`.
    Repeat(Expr, Block),
    /// `for x in c { }`.
    For(Ident, Expr, Block),
    /// `simultaneous p in PLAYERS { ... }`: each player decides in turn
    /// without seeing what the others decided; all of it shows at the end.
    Simultaneous(Ident, Expr, Block),
    /// `match e { ... }`.
    Match(Expr, Vec<(Pattern, Block)>),
    /// `do rule(args)`.
    Do(Ident, Vec<Expr>),
    /// `phase name`.
    Phase(Ident),
    /// `as p { }`.
    As(Expr, Block),
    /// `win p`.
    Win(Expr),
    /// `draw`.
    Draw,
    /// `end`.
    End,
    /// `pass`.
    Pass,
    /// `proceed`: inside an exception, run the rule it changes as written.
    Proceed,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (floor division)
    Div,
    /// `%`
    Rem,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`
    And,
    /// `or`
    Or,
    /// `in`
    In,
}

/// Comprehension forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Quantifier {
    /// `count x in C where P`
    Count,
    /// `any x in C where P`
    Any,
    /// `all x in C where P`
    All,
    /// `first x in C where P`
    First,
    /// `[x in C where P]`
    Filter,
    /// `sum x in C of E`
    Sum,
    /// `max x in C of E`
    Max,
    /// `min x in C of E`
    Min,
    /// `count x in C while P`: the leading items for which P holds
    CountWhile,
    /// `[x in C while P]`: the leading items for which P holds
    FilterWhile,
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expressions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ExprKind {
    /// Integer literal.
    Int(i64),
    /// `true` / `false`.
    Bool(bool),
    /// `none`.
    None,
    /// String literal (only as a label).
    Str(String),
    /// A name.
    Name(Ident),
    /// `a[b]`.
    Index(Box<Expr>, Box<Expr>),
    /// `a.field`.
    Field(Box<Expr>, Ident),
    /// `f(args)`.
    Call(Ident, Vec<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
    /// `not a`.
    Not(Box<Expr>),
    /// `a..b`.
    Range(Box<Expr>, Box<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `if C { A } else { B }`: `A` when `C` holds, else `B` (an `else if`
    /// is a conditional as `B`).
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `region x from START where P`: the spaces connected to START through
    /// neighbouring spaces where P holds (START included if P holds there).
    Region {
        /// Bound name.
        var: Ident,
        /// Where the region grows from.
        start: Box<Expr>,
        /// Which spaces belong.
        cond: Box<Expr>,
    },
    /// `in_a_row x through CELL where P`: the longest straight run of grid
    /// cells through CELL (along a row, a column or a diagonal) where P holds.
    InARow {
        /// Bound name.
        var: Ident,
        /// The cell the run goes through.
        through: Box<Expr>,
        /// Which cells count.
        cond: Box<Expr>,
    },
    /// A comprehension. For `Sum`/`Max`/`Min` the body is the `of` expression;
    /// otherwise it is the `where` condition (absent: true).
    Comprehension {
        /// Which.
        q: Quantifier,
        /// Bound name.
        var: Ident,
        /// Collection.
        coll: Box<Expr>,
        /// Condition or value.
        body: Option<Box<Expr>>,
    },
}
