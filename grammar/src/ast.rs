//! The syntax tree of a rulebook. Every node keeps the byte span of its text;
//! spans are ignored by equality so that trees can be compared across layouts.

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
    /// A grid board (parsed; not run yet).
    Grid {
        /// Name.
        name: Ident,
        /// Rows.
        rows: i64,
        /// Columns.
        cols: i64,
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
