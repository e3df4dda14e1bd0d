//! The declarations of a rulebook, resolved: components, dice, zones and
//! tracks, counters and vars, tables, procedures, exceptions, functions,
//! invariants and end conditions.

use super::*;

/// A component kind.
#[derive(Debug, Clone, Serialize)]
pub struct Kind {
    /// Name.
    pub name: String,
    /// How `play` names it to a person, if the rulebook says.
    pub label: Option<String>,
    /// Instances per player (if `per_player`) or in all.
    pub count: u16,
    /// One set per player.
    pub per_player: bool,
    /// Variants; empty when all instances are alike.
    pub variants: Vec<VariantId>,
    /// Declaration.
    pub at: Loc,
}

/// A variant of a kind.
#[derive(Debug, Clone, Serialize)]
pub struct Variant {
    /// Name.
    pub name: String,
    /// Label in the source language.
    pub label: Option<String>,
    /// Kind it belongs to.
    pub kind: KindId,
    /// How many instances.
    pub count: u16,
    /// Attribute values, by attribute name id.
    pub attrs: Vec<(u16, i64)>,
}

/// A die.
#[derive(Debug, Clone, Serialize)]
pub struct Die {
    /// Name.
    pub name: String,
    /// Face on each side (empty for a numbered die 1..=sides).
    pub sides: Vec<FaceId>,
    /// Number of sides.
    pub size: u16,
}

/// A named die face.
#[derive(Debug, Clone, Serialize)]
pub struct Face {
    /// The die it belongs to.
    pub die: DieId,
    /// Name.
    pub name: String,
    /// Label in the source language.
    pub label: Option<String>,
}

/// How many runtime zones a zone declaration makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ZoneMult {
    /// One.
    Single,
    /// One per player.
    PerPlayer,
    /// One per space of a track.
    PerSpace(TrackId),
}

/// A zone declaration.
#[derive(Debug, Clone, Serialize)]
pub struct ZoneDef {
    /// Name.
    pub name: String,
    /// How `play` names it to a person, if the rulebook says.
    pub label: Option<String>,
    /// How many.
    pub mult: ZoneMult,
    /// Allowed kinds (empty: any).
    pub kinds: Vec<KindId>,
    /// Who sees inside.
    pub visibility: Visibility,
    /// Order matters.
    pub ordered: bool,
    /// Capacity.
    pub capacity: Option<u16>,
    /// Declaration.
    pub at: Loc,
}

/// The shape of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Shape {
    /// From the first space to the last.
    Linear,
    /// The last space is followed by the first.
    Circular,
    /// Named nodes joined by tagged edges (a road map).
    Graph,
    /// Rows and columns of cells, row by row: square cells with 4
    /// neighbours each, or hexagonal ones with 6.
    Grid {
        /// Rows.
        rows: u16,
        /// Columns.
        cols: u16,
        /// Hexagonal cells: each row half a cell to the right of the one
        /// above it, so that a cell also touches the cell up and to its
        /// right and the one down and to its left.
        hex: bool,
    },
}

/// A board of spaces (a track or a grid); each space is a zone.
#[derive(Debug, Clone, Serialize)]
pub struct Track {
    /// Name.
    pub name: String,
    /// Linear, circular or a grid.
    pub shape: Shape,
    /// Tags of each space (bit i = tag i), space 1 first.
    pub spaces: Vec<u64>,
    /// For a graph: the name of each node.
    pub node_names: Vec<String>,
    /// For a graph: the label of each node, if it has one (how `play`'s
    /// table names the node to a person; options keep the name).
    pub node_labels: Vec<Option<String>>,
    /// For a graph: edges between nodes (indexes from 0) and their tags.
    pub edges: Vec<(u16, u16, u64)>,
}

/// A bounded counter.
#[derive(Debug, Clone, Serialize)]
pub struct CounterDef {
    /// Name.
    pub name: String,
    /// How `play` names it to a person, if the rulebook says.
    pub label: Option<String>,
    /// One per player.
    pub per_player: bool,
    /// One per piece of this kind.
    pub per_piece: Option<KindId>,
    /// Lowest value.
    pub lo: i64,
    /// Highest value.
    pub hi: i64,
    /// Initial value.
    pub init: Option<ExprId>,
    /// Who sees it.
    pub visibility: Visibility,
    /// Declaration.
    pub at: Loc,
}

/// Static types of values, for checking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ty {
    /// Anything (not known statically).
    Any,
    /// Integer.
    Int,
    /// Boolean.
    Bool,
    /// A player.
    Player,
    /// A component instance, of a kind if known.
    Piece(Option<KindId>),
    /// A zone or a space.
    Zone,
    /// A die face.
    Face(DieId),
    /// A variant.
    Variant(KindId),
    /// A direction.
    Dir,
    /// A table row.
    Row(TableId),
}

/// A state variable.
#[derive(Debug, Clone, Serialize)]
pub struct VarDef {
    /// Name.
    pub name: String,
    /// How `play` names it to a person, if the rulebook says.
    pub label: Option<String>,
    /// One per player.
    pub per_player: bool,
    /// One per piece of this kind.
    pub per_piece: Option<KindId>,
    /// Type.
    pub ty: Ty,
    /// Initial value.
    pub init: Option<ExprId>,
    /// Who sees it.
    pub visibility: Visibility,
}

/// Rows of one table: the engine numbers a row in 16 bits.
pub const MAX_TABLE_ROWS: usize = 65_535;

/// A look-up table.
#[derive(Debug, Clone, Serialize)]
pub struct TableDef {
    /// Name.
    pub name: String,
    /// Column names.
    pub columns: Vec<String>,
    /// The key is the player count (`table t(players) -> ...`).
    pub key_is_players: bool,
    /// Rows: inclusive key range, one expression per column.
    pub rows: Vec<(i64, i64, Vec<ExprId>)>,
}

/// Phase, rule or trigger.
pub use grimoire_grammar::ast::ProcKind;

/// A procedure: phase, rule or trigger.
#[derive(Debug, Clone, Serialize)]
pub struct Proc {
    /// Which kind.
    pub kind: ProcKind,
    /// Name.
    pub name: String,
    /// Number of parameters (the first local slots).
    pub params: u16,
    /// Parameter types.
    pub param_tys: Vec<Ty>,
    /// Number of local slots, parameters included.
    pub locals: u16,
    /// Body.
    pub body: BlockId,
    /// For a trigger: the kind of piece whose arrival it listens to.
    pub on_arrive: Option<KindId>,
    /// For a trigger: condition.
    pub when: Option<ExprId>,
    /// Exceptions to this procedure.
    pub exceptions: Vec<ExceptionId>,
    /// Declaration.
    pub at: Loc,
}

/// An exception to a procedure.
#[derive(Debug, Clone, Serialize)]
pub struct ExceptionDef {
    /// Name.
    pub name: String,
    /// The procedure it changes.
    pub target: ProcId,
    /// Condition, evaluated in the target's locals.
    pub when: ExprId,
    /// How it combines.
    pub mode: ExceptionMode,
    /// Exceptions it wins over.
    pub over: Vec<ExceptionId>,
    /// Its body, compiled as a procedure with the target's parameters.
    pub body: ProcId,
    /// Declaration.
    pub at: Loc,
}

/// How deep functions may call functions. The engine inlines every call, so
/// a chain this long is compiled once per use; the resolver rejects longer.
pub const MAX_CALL_DEPTH: usize = 64;
/// Most expressions in a function once the functions it calls are inlined.
pub const MAX_INLINED_EXPRS: u64 = 100_000;
/// Most expressions in a rulebook once every function call is inlined.
pub const MAX_INLINED_TOTAL: u64 = 2_000_000;

/// A function: a named expression with parameters.
#[derive(Debug, Clone, Serialize)]
pub struct FnDef {
    /// Name.
    pub name: String,
    /// Parameter types (the first local slots).
    pub param_tys: Vec<Ty>,
    /// Local slots, parameters included.
    pub locals: u16,
    /// Its value.
    pub body: ExprId,
    /// Its type.
    pub ty: Ty,
    /// Declaration.
    pub at: Loc,
}

/// A declared invariant: what must hold after every step of every game.
#[derive(Debug, Clone, Serialize)]
pub struct InvariantDef {
    /// Name.
    pub name: String,
    /// Checked once per player, the player in local slot 0.
    pub per_player: bool,
    /// Checked only when this holds.
    pub when: Option<ExprId>,
    /// What must hold.
    pub holds: ExprId,
    /// Local slots its expressions use.
    pub locals: u16,
    /// Declaration.
    pub at: Loc,
}

/// An end condition.
#[derive(Debug, Clone, Serialize)]
pub struct EndDef {
    /// Name.
    pub name: String,
    /// Condition.
    pub when: ExprId,
    /// Body, compiled as a procedure without parameters.
    pub body: ProcId,
}
