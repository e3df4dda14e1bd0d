//! The top-level declarations of a rulebook: components, zones, boards,
//! counters, vars, tables, procedures and exceptions.

use super::*;
use serde::Serialize;

/// A top-level declaration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// What it declares.
    pub kind: ItemKind,
    /// Its provenance clauses.
    pub provenance: Vec<Provenance>,
    /// The whole declaration.
    pub span: Span,
}

/// Visibility of a zone or var.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Visibility {
    /// Everybody sees it.
    Public,
    /// Only the zone's player sees it.
    Owner,
    /// Nobody sees it (face down).
    Hidden,
}

/// How many zones (or vars) a declaration makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Multiplicity {
    /// One.
    Single,
    /// One per player.
    PerPlayer,
    /// One per space of a track.
    PerSpace(Ident),
}

/// What a top-level declaration is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ItemKind {
    /// A component kind (`piece`, `token`, `card`).
    Component(Component),
    /// A die.
    Die(Die),
    /// A zone.
    Zone(Zone),
    /// A space type.
    SpaceType {
        /// Name.
        name: Ident,
        /// Label in the source language.
        label: Option<Str>,
    },
    /// A track of spaces.
    Track(Track),
    /// A grid board.
    Grid {
        /// Name.
        name: Ident,
        /// Rows.
        rows: i64,
        /// Columns.
        cols: i64,
        /// Hexagonal cells (`grid board 11 x 11 hex`): six neighbours each.
        hex: bool,
    },
    /// A graph board (parsed; not run yet).
    Graph {
        /// Name.
        name: Ident,
        /// Nodes with their label and space types.
        nodes: Vec<(Ident, Option<Str>, Vec<Ident>)>,
        /// Edges with optional tags.
        edges: Vec<(Ident, Ident, Vec<Ident>)>,
    },
    /// A bounded counter.
    Counter(Counter),
    /// A state variable.
    Var(Var),
    /// A look-up table.
    Table(Table),
    /// A named switch.
    Option {
        /// Name.
        name: Ident,
        /// Description.
        label: Option<Str>,
    },
    /// `fn name(params) = expression`: a named expression.
    Function {
        /// Name.
        name: Ident,
        /// Typed parameters.
        params: Vec<(Ident, Ident)>,
        /// Its value.
        body: Expr,
    },
    /// `invariant NAME [per_player p] [when COND]: EXPR`: what must hold
    /// after every step of every game.
    Invariant {
        /// Name.
        name: Ident,
        /// Checked for each player, bound to this name.
        player: Option<Ident>,
        /// Checked only when this holds.
        when: Option<Expr>,
        /// What must hold.
        expr: Expr,
    },
    /// `scenario NAME ... { STEP... }`: a position and what must hold
    /// there; never part of the game.
    Scenario(Scenario),
    /// `setup { ... }`.
    Setup(Block),
    /// `round NAME [times N] { ... }`.
    Round {
        /// Name.
        name: Ident,
        /// Fixed number of rounds, if any.
        times: Option<Expr>,
        /// Body.
        body: Block,
    },
    /// A phase, a rule or a trigger: a named procedure.
    Procedure(Procedure),
    /// `end NAME when COND { ... }`.
    End {
        /// Name.
        name: Ident,
        /// Condition checked after each phase and move.
        when: Expr,
        /// What happens (usually `win` or `draw`).
        body: Block,
    },
    /// An exception to a named rule.
    Exception(Exception),
    /// `assumption NAME "text"`.
    Assumption {
        /// Name.
        name: Ident,
        /// Text.
        text: Str,
    },
    /// `discrepancy NAME { cite ... chosen "..." because "..." }`.
    Discrepancy {
        /// Name.
        name: Ident,
        /// The reading chosen.
        chosen: Option<Str>,
        /// Why.
        because: Option<Str>,
    },
    /// `narrative NAME "text"`: a rule that is not encoded, on purpose.
    Narrative {
        /// Name.
        name: Ident,
        /// Why it is narrative.
        text: Str,
    },
    /// `replace rule|phase|trigger ...` in a module.
    Replace(Box<Item>),
    /// `remove KIND NAME` in a module, with why (its provenance).
    Remove {
        /// Which kind of declaration.
        what: Ident,
        /// Its name (missing in `remove setup`, which the resolver refuses
        /// with what to write instead).
        name: Option<Ident>,
    },
}

/// A component kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Component {
    /// `piece`, `token` or `card`.
    pub category: Ident,
    /// Name.
    pub name: Ident,
    /// How `play` names it to a person (`NAME "label"`), if given.
    pub label: Option<Str>,
    /// One set per player.
    pub per_player: bool,
    /// Declared count (per player if `per_player`).
    pub count: i64,
    /// Span of the count, for diagnostics.
    pub count_span: Span,
    /// Variants.
    pub variants: Vec<Variant>,
}

/// A variant of a component kind or a die face.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Variant {
    /// Name.
    pub name: Ident,
    /// Label in the source language.
    pub label: Option<Str>,
    /// How many (`xN`), 1 if absent.
    pub count: i64,
    /// Integer attributes.
    pub attrs: Vec<(Ident, i64)>,
    /// Provenance.
    pub provenance: Vec<Provenance>,
    /// Whole variant.
    pub span: Span,
}

/// A die.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Die {
    /// Name.
    pub name: Ident,
    /// Number of faces.
    pub sides: i64,
    /// Span of the side count.
    pub sides_span: Span,
    /// Named faces; empty for a plain 1..N die.
    pub faces: Vec<Variant>,
}

/// A zone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Zone {
    /// Name.
    pub name: Ident,
    /// How `play` names it to a person (`NAME "label"`), if given.
    pub label: Option<Str>,
    /// One, per player, per space.
    pub multiplicity: Multiplicity,
    /// Component kinds it may hold (empty: any).
    pub kinds: Vec<Ident>,
    /// Who sees inside.
    pub visibility: Visibility,
    /// Order matters.
    pub ordered: bool,
    /// Capacity.
    pub capacity: Option<i64>,
}

/// Shape of a track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TrackShape {
    /// From the first space to the last.
    Linear,
    /// The last space is followed by the first.
    Circular,
}

/// A track of typed spaces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Track {
    /// Name.
    pub name: Ident,
    /// Linear or circular.
    pub shape: TrackShape,
    /// `a..b: tag tag` rows.
    pub rows: Vec<(Range, Vec<Ident>)>,
}

/// A bounded counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Counter {
    /// Name.
    pub name: Ident,
    /// How `play` names it to a person (`NAME "label"`), if given.
    pub label: Option<Str>,
    /// One per player.
    pub per_player: bool,
    /// One per piece of this kind.
    pub per_piece: Option<Ident>,
    /// Bounds.
    pub bounds: Range,
    /// Initial value.
    pub init: Option<Expr>,
    /// Who may see it (`play` shows it; the rules read it whatever it is).
    pub visibility: Visibility,
}

/// A state variable.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Var {
    /// Name.
    pub name: Ident,
    /// How `play` names it to a person (`NAME "label"`), if given.
    pub label: Option<Str>,
    /// One per player.
    pub per_player: bool,
    /// One per piece of this kind.
    pub per_piece: Option<Ident>,
    /// Declared type.
    pub ty: Ident,
    /// Initial value (`none` if absent).
    pub init: Option<Expr>,
    /// Who may see it.
    pub visibility: Visibility,
}

/// A look-up table by integer key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Name.
    pub name: Ident,
    /// Name of the key column.
    pub key: Ident,
    /// Names of the value columns.
    pub columns: Vec<Ident>,
    /// Rows: key range and values.
    pub rows: Vec<(Range, Vec<Expr>)>,
}

/// Which kind of procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ProcKind {
    /// `phase`.
    Phase,
    /// `rule`.
    Rule,
    /// `trigger`.
    Trigger,
}

/// A named procedure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Procedure {
    /// Phase, rule or trigger.
    pub kind: ProcKind,
    /// Name.
    pub name: Ident,
    /// Typed parameters (`name: type`).
    pub params: Vec<(Ident, Ident)>,
    /// For a trigger: `on arrive(piece_var: kind, zone_var)`.
    pub event: Option<Event>,
    /// For a trigger: `when COND`.
    pub when: Option<Expr>,
    /// Body.
    pub body: Block,
}

/// The event a trigger listens to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// Event name (`arrive`).
    pub name: Ident,
    /// Variable bound to the moved piece.
    pub piece: Ident,
    /// Kind of piece listened to.
    pub kind: Ident,
    /// Variable bound to the zone it arrived in.
    pub zone: Ident,
}

/// How an exception combines with its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ExceptionMode {
    /// Replaces the rule's body.
    Instead,
    /// Runs before the body.
    Before,
    /// Runs after the body.
    After,
}

/// `exception NAME to RULE when COND [mode] [over X] { ... }`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exception {
    /// Name.
    pub name: Ident,
    /// The rule it changes.
    pub rule: Ident,
    /// When it applies.
    pub when: Expr,
    /// How.
    pub mode: ExceptionMode,
    /// Exceptions it wins over.
    pub over: Vec<Ident>,
    /// Body.
    pub body: Block,
}
