//! Expressions and statements, as stored in the model's arenas.

use super::*;

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
    /// `seat(p)`: a player's number, from 1 (what `player(n)` takes)
    Seat,
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
    /// The single instance of a variant counted once (`x1`) of a kind that
    /// is not `per_player`, named where a piece is expected.
    PieceOfVariant(VariantId),
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
    /// `if C { A } else { B }`: `A` when `C` holds, else `B`.
    If(ExprId, ExprId, ExprId),
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
    /// `sees(player, piece)`, in scenarios only: the player is shown the
    /// piece now (its zone is open to him, or he knows it).
    Sees(ExprId, ExprId),
    /// `won(player)`, in scenarios only: the game is over and the player
    /// is among its winners (a shared victory included).
    Won(ExprId),
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
