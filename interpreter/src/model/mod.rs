//! The resolved, typed model of a rulebook: every name replaced by an integer
//! id, every expression and statement stored in arenas. The engine and the
//! validator consume this, never the syntax tree.

use grimoire_grammar::ast::{AssignOp, BinOp, ExceptionMode, OptionsTest, Quantifier, Span, Visibility};
use serde::Serialize;

mod code;
mod decls;
mod scenarios;

pub use code::*;
pub use decls::*;
pub use scenarios::*;

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
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Loc {
    /// Which file.
    pub file: FileId,
    /// Where in it.
    pub span: Span,
}

/// Two places are equal when they are the same bytes of the same file.
/// (The AST's spans compare equal whatever they hold, so that trees
/// compare by their contents; a place is compared by where it is.)
impl PartialEq for Loc {
    fn eq(&self, other: &Loc) -> bool {
        self.file == other.file && (self.span.start, self.span.end) == (other.span.start, other.span.end)
    }
}
impl Eq for Loc {}

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
    /// A declaration of the game, which must be traced to the source on
    /// its own (T006); not a part of one (a variant, a face), a statement
    /// or block inside one, or a helper `fn`, which the rules that use it
    /// trace.
    #[serde(skip)]
    pub declaration: bool,
}

/// The whole resolved rulebook (base and modules merged).
#[derive(Debug, Clone, Serialize, Default)]
pub struct Model {
    /// Rulebook name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// The names of the modules merged into the rulebook, in the order
    /// they were merged.
    pub modules: Vec<String>,
    /// Default source text file.
    pub source: Option<String>,
    /// Every `source "..."` of a header (the rulebook's and its modules'),
    /// with where it is written: where a source that cannot be found is
    /// reported.
    pub source_clauses: Vec<(String, Loc)>,
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
    /// For each file, the modules it builds on (extends, directly or
    /// through other modules); the base rulebook, file 0, is under every
    /// file and listed for none.
    pub file_bases: Vec<Vec<FileId>>,
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
    /// The `instead` exceptions to the procedure named `rule` whose bodies
    /// ran (`fired` gives how often a procedure ran), with how often: what
    /// replaced a rule that never ran its own body (V203, `simulate`).
    pub fn ran_instead_of<'m>(&'m self, rule: &str, fired: impl Fn(ProcId) -> u64 + 'm) -> impl Iterator<Item = (&'m ExceptionDef, u64)> + 'm {
        let target = self.procs.iter().position(|p| p.name == rule);
        self.exceptions
            .iter()
            .filter(move |x| Some(x.target.idx()) == target && x.mode == grimoire_grammar::ast::ExceptionMode::Instead)
            .map(move |x| (x, fired(x.body)))
            .filter(|(_, n)| *n > 0)
    }
    /// Visit an expression and every expression inside it (a function's
    /// arguments, not its body).
    pub fn walk_expr(&self, id: ExprId, f: &mut dyn FnMut(ExprId)) {
        f(id);
        let mut g = |x: &ExprId| self.walk_expr(*x, f);
        match self.expr(id) {
            Expr::Zone(_, Some(i)) | Expr::Var(_, Some(i)) | Expr::Counter(_, Some(i)) | Expr::PieceOf(_, Some(i)) => g(i),
            Expr::Attr(x, _) | Expr::Row(_, x) | Expr::Column(x, _) | Expr::Neg(x) | Expr::Not(x) | Expr::Tagged(x, _) | Expr::Space(_, x) | Expr::Is(x, _) | Expr::IsKind(x, _) | Expr::Contents(x) | Expr::CellRow(x) | Expr::CellCol(x) | Expr::Neighbors(x) | Expr::PiecesOf(_, x) | Expr::Won(x) => g(x),
            Expr::Bin(_, a, b) | Expr::Range(a, b) | Expr::Cell(_, a, b) | Expr::Region(_, a, b) | Expr::Linked(a, b, _) | Expr::Sees(a, b) | Expr::InARow(_, a, b) => {
                g(a);
                g(b);
            }
            Expr::Line(a, b, c) | Expr::Step(a, b, c) | Expr::If(a, b, c) => {
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

    /// Every expression id a block uses, directly or nested, with the statements.
    pub fn walk_block(&self, b: BlockId, stmt: &mut dyn FnMut(&Stmt), expr: &mut dyn FnMut(ExprId)) {
            let model = self;
        for s in model.block(b) {
            let node = &model.stmt(*s).stmt;
            stmt(node);
            match node {
                Stmt::Let(_, x) | Stmt::Shuffle(x) | Stmt::Win(x) | Stmt::WinAll(x) => model.walk_expr(*x, expr),
                Stmt::Reveal { what: RevealWhat::Piece(x) | RevealWhat::Top(x) | RevealWhat::All(x), to, .. } => {
                    model.walk_expr(*x, expr);
                    model.walk_expr(*to, expr);
                }
                Stmt::Assign(lv, _, x) => {
                    model.walk_expr(*x, expr);
                    match lv {
                        LValue::Var(_, Some(i)) | LValue::Counter(_, Some(i)) => model.walk_expr(*i, expr),
                        _ => {}
                    }
                }
                Stmt::MovePiece { piece, to, .. } => {
                    model.walk_expr(*piece, expr);
                    model.walk_expr(*to, expr);
                }
                Stmt::MoveTop { from, to, .. } | Stmt::MoveAll { from, to, .. } => {
                    model.walk_expr(*from, expr);
                    model.walk_expr(*to, expr);
                }
                Stmt::MoveCount { n, from, to, .. } => {
                    model.walk_expr(*n, expr);
                    model.walk_expr(*from, expr);
                    model.walk_expr(*to, expr);
                }
                Stmt::ChooseRandom { binds, cond, otherwise } | Stmt::Choose { binds, cond, otherwise, .. } => {
                    if let Stmt::Choose { by, .. } = node {
                        model.walk_expr(*by, expr);
                    }
                    binds.iter().for_each(|(_, from)| model.walk_expr(*from, expr));
                    if let Some(c) = cond {
                        model.walk_expr(*c, expr);
                    }
                    if let Some(blk) = otherwise {
                        model.walk_block(*blk, stmt, expr);
                    }
                }
                Stmt::If(arms, otherwise) => {
                    for (c, blk) in arms {
                        model.walk_expr(*c, expr);
                        model.walk_block(*blk, stmt, expr);
                    }
                    if let Some(blk) = otherwise {
                        model.walk_block(*blk, stmt, expr);
                    }
                }
                Stmt::While(c, blk) | Stmt::Repeat(c, blk) | Stmt::For(_, c, blk) | Stmt::Simultaneous(_, c, blk) | Stmt::As(c, blk) => {
                    model.walk_expr(*c, expr);
                    model.walk_block(*blk, stmt, expr);
                }
                Stmt::Match(x, arms, default) => {
                    model.walk_expr(*x, expr);
                    for (_, blk) in arms {
                        model.walk_block(*blk, stmt, expr);
                    }
                    if let Some(blk) = default {
                        model.walk_block(*blk, stmt, expr);
                    }
                }
                Stmt::Call(_, args) => args.iter().for_each(|a| model.walk_expr(*a, expr)),
                Stmt::Roll { seen_by, .. } => {
                    if let Some((to, _)) = seen_by {
                        model.walk_expr(*to, expr);
                    }
                }
                Stmt::Draw | Stmt::End | Stmt::Pass | Stmt::Proceed(_) => {}
            }
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
