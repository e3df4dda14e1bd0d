//! The resolved, typed model of a rulebook: every name replaced by an integer
//! id, every expression and statement stored in arenas. The engine and the
//! validator consume this, never the syntax tree.

use grimoire_grammar::ast::{AssignOp, BinOp, ExceptionMode, OptionsTest, Quantifier, Span, Visibility};
use serde::Serialize;

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u16);
        impl $name {
            /// The id as an index into its arena.
            pub fn idx(self) -> usize { self.0 as usize }
        }
    )*};
}

ids!(
    /// A component kind.
    KindId,
    /// A variant of a component kind.
    VariantId,
    /// A die.
    DieId,
    /// A named die face.
    FaceId,
    /// A zone declaration (one or many runtime zones).
    ZoneDefId,
    /// A space type.
    TagId,
    /// A track.
    TrackId,
    /// A counter declaration.
    CounterId,
    /// A var declaration.
    VarId,
    /// A table.
    TableId,
    /// An option.
    OptionId,
    /// A phase, rule or trigger.
    ProcId,
    /// An end condition.
    EndId,
    /// An exception.
    ExceptionId,
    /// A source file of the rulebook text (the `.rules` files).
    FileId,
    /// A function (a named expression).
    FnId,
);

/// An expression in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ExprId(pub u32);
/// A statement in the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct StmtId(pub u32);
/// A block of statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct BlockId(pub u32);

/// A place in a `.rules` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Loc {
    /// Which file.
    pub file: FileId,
    /// Where in it.
    pub span: Span,
}

/// Where a declaration comes from in the source text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Citation {
    /// A verbatim quote.
    Quote {
        /// Source text file name.
        source: String,
        /// The quote.
        quote: String,
        /// Where the citation is written.
        at: Loc,
    },
    /// A line range.
    Lines {
        /// Source text file name.
        source: String,
        /// First line (as written: a number past the file's end is a
        /// finding, never wrapped).
        from: u64,
        /// Last line.
        to: u64,
        /// Where the citation is written.
        at: Loc,
    },
}

/// Which sort of provenance record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RecordKind {
    /// A rule, component, zone...: something encoded.
    Encoded,
    /// An assumption where the text is silent.
    Assumption,
    /// Two passages disagree.
    Discrepancy,
    /// A rule kept as text only.
    Narrative,
}

/// One declaration or statement and what it cites: the unit of traceability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Record {
    /// What sort.
    pub kind: RecordKind,
    /// A short name (the declaration's, or `rule advance` for a statement).
    pub name: String,
    /// Explanation: the assumption's reason, the narrative text, the reading chosen.
    pub text: Option<String>,
    /// Citations.
    pub cites: Vec<Citation>,
    /// Inline `assume` reasons.
    pub assumes: Vec<String>,
    /// Where it is written.
    pub at: Loc,
}

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
    /// Rows and columns of square cells, row by row; 4 neighbours each.
    Grid {
        /// Rows.
        rows: u16,
        /// Columns.
        cols: u16,
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

/// Built-in functions with value arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Builtin {
    /// `count(zone)`
    Count,
    /// `top(zone)`
    Top,
    /// `pos(piece)`
    Pos,
    /// `index(space)`
    Index,
    /// `zone_of(piece)`
    ZoneOf,
    /// `owner(piece)`
    Owner,
    /// `holder(piece)`
    Holder,
    /// `next_player(p, dir)`
    NextPlayer,
    /// `abs(x)`
    Abs,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `opposite(dir)`
    Opposite,
    /// `player(n)`: the n-th player, from 1
    PlayerNo,
}

/// Compiled expressions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Expr {
    /// Integer.
    Int(i64),
    /// Boolean.
    Bool(bool),
    /// `none`.
    None,
    /// A local slot.
    Local(u16),
    /// A runtime zone: declaration and, for per-player / per-space, the index.
    Zone(ZoneDefId, Option<ExprId>),
    /// The box (out of the game).
    Box,
    /// A var.
    Var(VarId, Option<ExprId>),
    /// A counter.
    Counter(CounterId, Option<ExprId>),
    /// The single instance of a kind, or a player's one instance.
    PieceOf(KindId, Option<ExprId>),
    /// A variant value.
    Variant(VariantId),
    /// A face value.
    Face(FaceId),
    /// A direction: 1 clockwise, -1 counterclockwise.
    Dir(i8),
    /// The player on whose behalf the current effect runs.
    Actor,
    /// All players from the first.
    Players,
    /// Number of players.
    PlayerCount,
    /// Current round, from 1.
    RoundNumber,
    /// `piece.attr`.
    Attr(ExprId, u16),
    /// `table(key)`.
    Row(TableId, ExprId),
    /// `row.column`.
    Column(ExprId, u16),
    /// Binary operator.
    Bin(BinOp, ExprId, ExprId),
    /// `-x`.
    Neg(ExprId),
    /// `not x`.
    Not(ExprId),
    /// `a..b` (a collection).
    Range(ExprId, ExprId),
    /// `[a, b]` (a collection).
    List(Vec<ExprId>),
    /// Comprehension: quantifier, bound slot, collection, body.
    Comp(Quantifier, u16, ExprId, Option<ExprId>),
    /// Built-in call.
    Call(Builtin, Vec<ExprId>),
    /// `tagged(space, tag)`.
    Tagged(ExprId, TagId),
    /// `space(track, i)`.
    Space(TrackId, ExprId),
    /// `spaces(track)` (a collection).
    Spaces(TrackId),
    /// `pieces(kind)` (a collection).
    Pieces(KindId),
    /// `leader(track, kind)`: the piece of that kind in front.
    Leader(TrackId, KindId),
    /// `rearmost(track, kind)`: the last piece of that kind.
    Rearmost(TrackId, KindId),
    /// `enabled(option)`.
    Enabled(OptionId),
    /// `is(piece, variant)`.
    Is(ExprId, VariantId),
    /// `is(piece, kind)`.
    IsKind(ExprId, KindId),
    /// A node of a graph, by name.
    Node(TrackId, u16),
    /// `linked(a, b)` or `linked(a, b, tag)`: an edge joins the two nodes.
    Linked(ExprId, ExprId, Option<TagId>),
    /// A call of a function.
    CallFn(FnId, Vec<ExprId>),
    /// A zone's contents as a collection (`for x in zone`).
    Contents(ExprId),
    /// `cell(grid, row, col)`, from 1; `none` off the grid.
    Cell(TrackId, ExprId, ExprId),
    /// `row(space)`, from 1.
    CellRow(ExprId),
    /// `col(space)`, from 1.
    CellCol(ExprId),
    /// `neighbors(space)` (a collection).
    Neighbors(ExprId),
    /// `line(space, drow, dcol)`: the cells met going straight from a cell to
    /// the edge, the cell itself excluded (a collection).
    Line(ExprId, ExprId, ExprId),
    /// `region x from start where cond` (a collection).
    Region(u16, ExprId, ExprId),
    /// `step(space, drow, dcol)`: the cell that many rows and columns away,
    /// `none` off the grid.
    Step(ExprId, ExprId, ExprId),
    /// `in_a_row x through cell where cond`: the longest straight run through
    /// the cell (row, column, diagonals) of cells where `cond` holds.
    InARow(u16, ExprId, ExprId),
    /// `pieces(kind, player)`: a player's pieces of a per-player kind (a collection).
    PiecesOf(KindId, ExprId),
}

/// Where an assignment writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum LValue {
    /// A local.
    Local(u16),
    /// A var.
    Var(VarId, Option<ExprId>),
    /// A counter.
    Counter(CounterId, Option<ExprId>),
}

/// What a match arm matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MatchKey {
    /// A variant (a piece of that variant, or the variant value).
    Variant(VariantId),
    /// A face.
    Face(FaceId),
}

/// Compiled statements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Stmt {
    /// `let` or assignment to a local.
    Let(u16, ExprId),
    /// Assignment.
    Assign(LValue, grimoire_grammar::ast::AssignOp, ExprId),
    /// Move one piece.
    MovePiece {
        /// Piece.
        piece: ExprId,
        /// Destination.
        to: ExprId,
        /// At the bottom / front.
        bottom: bool,
    },
    /// Move the top piece of a zone.
    MoveTop {
        /// From.
        from: ExprId,
        /// To.
        to: ExprId,
        /// At the bottom.
        bottom: bool,
    },
    /// Move every piece of a zone.
    MoveAll {
        /// From.
        from: ExprId,
        /// To.
        to: ExprId,
        /// At the bottom.
        bottom: bool,
    },
    /// Move N pieces of a kind.
    MoveCount {
        /// How many.
        n: ExprId,
        /// Kind.
        kind: KindId,
        /// From.
        from: ExprId,
        /// To.
        to: ExprId,
        /// At the bottom.
        bottom: bool,
    },
    /// Shuffle a zone.
    Shuffle(ExprId),
    /// `reveal WHAT to PLAYERS`: those players now know which piece it is.
    Reveal {
        /// Which pieces.
        what: RevealWhat,
        /// A player, or (when `many`) a collection of players.
        to: ExprId,
        /// `to` is a collection.
        many: bool,
    },
    /// Roll a die into a local; `seen_by` is who is shown the roll (a
    /// player, or when `many` a collection of players), everybody if absent.
    Roll {
        /// The local.
        slot: u16,
        /// The die.
        die: DieId,
        /// `to PLAYERS`, and whether it is a collection.
        seen_by: Option<(ExprId, bool)>,
    },
    /// A decision over the tuples of its bindings for which `cond` holds.
    Choose {
        /// Each binding: the local receiving its part of the choice and the
        /// collection it ranges over (which may read the earlier bindings).
        binds: Vec<(u16, ExprId)>,
        /// Which tuples are options.
        cond: Option<ExprId>,
        /// Who decides.
        by: ExprId,
        /// The question.
        prompt: Option<String>,
        /// Run when there is no option (absent: a deadlock).
        otherwise: Option<BlockId>,
    },
    /// Chance picks one tuple, uniformly.
    ChooseRandom {
        /// As for `Choose`.
        binds: Vec<(u16, ExprId)>,
        /// Which tuples are options.
        cond: Option<ExprId>,
        /// Run when there is no option (absent: a deadlock).
        otherwise: Option<BlockId>,
    },
    /// Conditional.
    If(Vec<(ExprId, BlockId)>, Option<BlockId>),
    /// Loop while.
    While(ExprId, BlockId),
    /// Loop N times.
    Repeat(ExprId, BlockId),
    /// Loop over a collection.
    For(u16, ExprId, BlockId),
    /// `simultaneous p in PLAYERS { ... }`: the body runs for each player in
    /// turn, each time on the state before the block; what each turn set is
    /// put back and shows, for every player, when the block ends.
    Simultaneous(u16, ExprId, BlockId),
    /// Match.
    Match(ExprId, Vec<(Vec<MatchKey>, BlockId)>, Option<BlockId>),
    /// Call a phase or rule.
    Call(ProcId, Vec<ExprId>),
    /// Run a block on behalf of a player.
    As(ExprId, BlockId),
    /// Win.
    Win(ExprId),
    /// Shared victory of every player of a collection.
    WinAll(ExprId),
    /// Draw.
    Draw,
    /// End without a winner.
    End,
    /// Nothing.
    Pass,
    /// Run a rule's own body, exceptions aside (`proceed` in an exception).
    Proceed(ProcId),
}

/// What a `reveal` shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum RevealWhat {
    /// One piece.
    Piece(ExprId),
    /// The top piece of a zone (nothing when it is empty).
    Top(ExprId),
    /// Every piece of a zone.
    All(ExprId),
}

/// A statement with where it was written.
#[derive(Debug, Clone, Serialize)]
pub struct StmtNode {
    /// What it does.
    pub stmt: Stmt,
    /// Where.
    pub at: Loc,
}

/// The scenario local holding the player who must decide now (`decider`).
pub const SCENARIO_DECIDER: u16 = 0;
/// The scenario local holding the single winner of a finished game (`winner`).
pub const SCENARIO_WINNER: u16 = 1;
/// Locals every scenario binds before its own (`decider`, `winner`).
pub const SCENARIO_LOCALS: u16 = 2;

/// A scenario: a position reached by steps, and what must hold there. Its
/// expressions live in [`Model::scenario_exprs`], out of the game's arena,
/// so that a scenario never changes how a game is compiled or explored.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioDef {
    /// Name.
    pub name: String,
    /// The file that declares it.
    pub file: FileId,
    /// Files of the modules named by `with`.
    pub needs: Vec<FileId>,
    /// Modules named by `with` that are not loaded: the scenario is skipped.
    /// With each, a loaded module whose name is one typo away, if any.
    pub missing: Vec<(String, Option<String>)>,
    /// Number of players.
    pub players: u8,
    /// Seed of the game's dice and shuffles, and of the random agent of `play`.
    pub seed: u64,
    /// Options switched on.
    pub options: Vec<String>,
    /// Steps in order.
    pub steps: Vec<ScenarioStep>,
    /// Local slots its expressions use, `SCENARIO_LOCALS` included.
    pub locals: u16,
    /// What the scenario cites.
    pub cites: Vec<Citation>,
    /// Its `assume` clauses.
    pub assumes: Vec<String>,
    /// Where its name is written.
    pub at: Loc,
}

impl ScenarioDef {
    /// The files it runs on, by index in the files compiled, in order: the
    /// base, its own file and the modules its `with` names.
    pub fn runs_on(&self) -> Vec<usize> {
        let mut files = vec![0, self.file.idx()];
        files.extend(self.needs.iter().map(|f| f.idx()));
        files.sort_unstable();
        files.dedup();
        files
    }
}

/// One step of a scenario.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioStep {
    /// What it does.
    pub step: StepDef,
    /// What it cites.
    pub cites: Vec<Citation>,
    /// Where it is written.
    pub at: Loc,
}

/// What a `place` step moves.
#[derive(Debug, Clone, Serialize)]
pub enum PlaceWhat {
    /// One piece.
    Piece(ExprId),
    /// The top piece of a zone.
    Top(ExprId),
    /// Every piece of a zone.
    All(ExprId),
    /// N pieces of a kind from a zone, the top-most first.
    Count {
        /// How many.
        n: ExprId,
        /// Which kind.
        kind: KindId,
        /// From where.
        from: ExprId,
    },
}

/// Scenario steps, resolved.
#[derive(Debug, Clone, Serialize)]
pub enum StepDef {
    /// Take the option with this label.
    ChooseLabel(String),
    /// Take the n-th option, from 1.
    ChooseIndex(u32),
    /// Take the option holding these values (one per binding of the `choose`).
    ChooseValue(Vec<ExprId>),
    /// The random agent takes this many decisions.
    Play(u32),
    /// The random agent decides until this holds.
    PlayUntil(ExprId),
    /// Move pieces by hand.
    Place {
        /// What.
        what: PlaceWhat,
        /// Where.
        to: ExprId,
        /// At the front.
        bottom: bool,
    },
    /// Change a var or counter by hand.
    Set(LValue, AssignOp, ExprId),
    /// This must hold.
    Expect(ExprId),
    /// The options offered, compared with labels.
    ExpectOptions(OptionsTest, Vec<String>),
    /// The question of the pending decision.
    ExpectPrompt(String),
    /// The game is over (true) or not (false).
    ExpectOver(bool),
}

/// The whole resolved rulebook (base and modules merged).
#[derive(Debug, Clone, Serialize, Default)]
pub struct Model {
    /// Rulebook name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// Default source text file.
    pub source: Option<String>,
    /// Allowed player counts.
    pub min_players: u8,
    /// Allowed player counts.
    pub max_players: u8,
    /// How deep triggers may fire triggers (`trigger_depth` in the header).
    pub trigger_depth: u8,
    /// Steps one decision may take before the rules are said to loop
    /// (`step_fuel` in the header).
    pub step_fuel: u64,
    /// Names of the `.rules` files, by `FileId`.
    pub files: Vec<String>,
    /// Component kinds.
    pub kinds: Vec<Kind>,
    /// Variants.
    pub variants: Vec<Variant>,
    /// Attribute names.
    pub attrs: Vec<String>,
    /// Dice.
    pub dice: Vec<Die>,
    /// Faces.
    pub faces: Vec<Face>,
    /// Zone declarations.
    pub zones: Vec<ZoneDef>,
    /// Space types.
    pub tags: Vec<String>,
    /// Tracks.
    pub tracks: Vec<Track>,
    /// Counters.
    pub counters: Vec<CounterDef>,
    /// Vars.
    pub vars: Vec<VarDef>,
    /// Tables.
    pub tables: Vec<TableDef>,
    /// Options.
    pub options: Vec<String>,
    /// Procedures.
    pub procs: Vec<Proc>,
    /// Functions.
    pub fns: Vec<FnDef>,
    /// The setup procedure.
    pub setup: Option<ProcId>,
    /// The round procedure and its optional fixed count.
    pub round: Option<(ProcId, Option<ExprId>)>,
    /// End conditions.
    pub ends: Vec<EndDef>,
    /// Declared invariants.
    pub invariants: Vec<InvariantDef>,
    /// Exceptions.
    pub exceptions: Vec<ExceptionDef>,
    /// Triggers, in declaration order.
    pub triggers: Vec<ProcId>,
    /// Expression arena.
    pub exprs: Vec<Expr>,
    /// Expression spans.
    pub expr_at: Vec<Loc>,
    /// Statement arena.
    pub stmts: Vec<StmtNode>,
    /// Blocks.
    pub blocks: Vec<Vec<StmtId>>,
    /// Provenance records, for traceability.
    pub records: Vec<Record>,
    /// Scenarios, in declaration order (never part of the game).
    pub scenarios: Vec<ScenarioDef>,
    /// The expressions of the scenarios; their ids follow those of `exprs`
    /// (see [`Model::with_scenario_exprs`]).
    pub scenario_exprs: Vec<Expr>,
    /// Spans of the scenarios' expressions.
    pub scenario_expr_at: Vec<Loc>,
}

/// Component instances and zones (the box included) a game has once laid
/// out for a player count. The engine numbers both with 16 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutSize {
    /// Component instances.
    pub instances: usize,
    /// Zones, one per space of every board and the box included.
    pub zones: usize,
}

impl LayoutSize {
    /// The most instances, or zones, the engine can number.
    pub const MAX: usize = u16::MAX as usize;

    /// What is too large, in words, if anything is.
    pub fn too_large(&self) -> Option<String> {
        if self.instances > Self::MAX {
            Some(format!("{} component instances", self.instances))
        } else if self.zones > Self::MAX {
            Some(format!("{} zones", self.zones))
        } else {
            None
        }
    }
}

impl Model {
    /// How large a game of `players` players is. Both counts grow with the
    /// players, so the largest player count bounds them all.
    pub fn layout_size(&self, players: u8) -> LayoutSize {
        let n = usize::from(players);
        let copies = |per_player: bool| if per_player { n } else { 1 };
        let instances = self
            .kinds
            .iter()
            .map(|k| {
                let one_set = if k.variants.is_empty() {
                    usize::from(k.count)
                } else {
                    k.variants.iter().filter_map(|v| self.variants.get(v.idx())).map(|v| usize::from(v.count)).sum()
                };
                one_set * copies(k.per_player)
            })
            .sum();
        let spaces: usize = self.tracks.iter().map(|t| t.spaces.len()).sum();
        let declared: usize = self
            .zones
            .iter()
            .map(|z| match z.mult {
                ZoneMult::Single => 1,
                ZoneMult::PerPlayer => n,
                ZoneMult::PerSpace(t) => self.tracks.get(t.idx()).map_or(0, |t| t.spaces.len()),
            })
            .sum();
        LayoutSize { instances, zones: spaces + declared + 1 }
    }

}

#[allow(clippy::indexing_slicing, reason = "ids are only handed out by the resolver, which pushed what they index")]
impl Model {
    /// An expression by id.
    pub fn expr(&self, id: ExprId) -> &Expr {
        // Ids come from the resolver, which only hands out ids it pushed.
        &self.exprs[id.0 as usize]
    }
    /// A statement by id.
    pub fn stmt(&self, id: StmtId) -> &StmtNode {
        &self.stmts[id.0 as usize]
    }
    /// A block by id.
    pub fn block(&self, id: BlockId) -> &[StmtId] {
        &self.blocks[id.0 as usize]
    }
    /// A procedure by id.
    pub fn proc(&self, id: ProcId) -> &Proc {
        &self.procs[id.idx()]
    }
    /// Visit an expression and every expression inside it (a function's
    /// arguments, not its body).
    pub fn walk_expr(&self, id: ExprId, f: &mut dyn FnMut(ExprId)) {
        f(id);
        let mut g = |x: &ExprId| self.walk_expr(*x, f);
        match self.expr(id) {
            Expr::Zone(_, Some(i)) | Expr::Var(_, Some(i)) | Expr::Counter(_, Some(i)) | Expr::PieceOf(_, Some(i)) => g(i),
            Expr::Attr(x, _) | Expr::Row(_, x) | Expr::Column(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Tagged(x, _) | Expr::Space(_, x) | Expr::Is(x, _) | Expr::IsKind(x, _) | Expr::Contents(x) | Expr::CellRow(x) | Expr::CellCol(x) | Expr::Neighbors(x) | Expr::PiecesOf(_, x) => g(x),
            Expr::Bin(_, a, b) | Expr::Range(a, b) | Expr::Cell(_, a, b) | Expr::Region(_, a, b) | Expr::Linked(a, b, _) | Expr::InARow(_, a, b) => {
                g(a);
                g(b);
            }
            Expr::Line(a, b, c) | Expr::Step(a, b, c) => {
                g(a);
                g(b);
                g(c);
            }
            Expr::List(xs) | Expr::Call(_, xs) | Expr::CallFn(_, xs) => xs.iter().for_each(g),
            Expr::Comp(_, _, c, body) => {
                g(c);
                if let Some(b) = body {
                    g(b);
                }
            }
            _ => {}
        }
    }

    /// The model with the scenarios' expressions appended to the game's,
    /// where their ids point: what a scenario runs on. Only scenarios need
    /// it; games, exploration and the validator use the model as it is.
    pub fn with_scenario_exprs(&self) -> Model {
        let mut m = self.clone();
        m.exprs.append(&mut m.scenario_exprs);
        m.expr_at.append(&mut m.scenario_expr_at);
        m
    }

    /// Look a procedure up by name.
    pub fn proc_named(&self, name: &str) -> Option<ProcId> {
        self.procs.iter().position(|p| p.name == name).map(|i| ProcId(i as u16))
    }
}
