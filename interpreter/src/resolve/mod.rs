//! Name resolution: syntax trees of a base rulebook and its modules in, one
//! typed [`Model`] out, or every diagnostic found in one pass.

mod declare;
mod define;
mod end_bodies;
mod calls;
mod expr;
mod fn_calls;
mod modules;
mod scenario;
mod simultaneous;
mod stmt;

use crate::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, HeaderKind, ItemKind, Provenance, Span};
use std::collections::HashMap;

/// A parsed file to resolve: its name (for diagnostics) and its tree.
pub struct Parsed<'a> {
    /// File name as the user gave it.
    pub name: String,
    /// Syntax tree.
    pub file: &'a ast::File,
}

/// What a global name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sym {
    Kind(KindId),
    Variant(VariantId),
    Die(DieId),
    Face(FaceId),
    Zone(ZoneDefId),
    Tag(TagId),
    Track(TrackId),
    Counter(CounterId),
    Var(VarId),
    Table(TableId),
    Option(OptionId),
    Proc(ProcId),
    Exception(ExceptionId),
    Fn(FnId),
    Node(TrackId, u16),
    /// Assumptions, discrepancies, narratives, end conditions, grids, graphs: named, not usable in expressions.
    Other(&'static str),
}

impl Sym {
    fn describe(self) -> &'static str {
        match self {
            Sym::Kind(_) => "a component kind",
            Sym::Variant(_) => "a variant",
            Sym::Die(_) => "a die",
            Sym::Face(_) => "a die face",
            Sym::Zone(_) => "a zone",
            Sym::Tag(_) => "a space type",
            Sym::Track(_) => "a board (a track, grid or graph)",
            Sym::Counter(_) => "a counter",
            Sym::Var(_) => "a var",
            Sym::Table(_) => "a table",
            Sym::Option(_) => "an option",
            Sym::Proc(_) => "a phase, rule or trigger",
            Sym::Exception(_) => "an exception",
            Sym::Fn(_) => "a function",
            Sym::Node(..) => "a node of a graph",
            Sym::Other(what) => what,
        }
    }
}

/// Resolution state shared by the passes.
pub(crate) struct Resolver {
    pub(crate) model: Model,
    pub(crate) globals: HashMap<String, (Sym, Loc)>,
    /// Names a declaration took from the language (E0102): their uses are
    /// not reported again as unknown.
    pub(crate) reserved_declared: std::collections::HashSet<String>,
    /// Declarations a module removed, with that module's file: a use left
    /// behind is an unknown name, whose help names the module.
    pub(crate) removed: HashMap<String, Vec<(String, Loc)>>,
    pub(crate) attrs: HashMap<String, u16>,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) file: FileId,
    /// Default source of each file's citations.
    pub(crate) default_source: Vec<Option<String>>,
    /// Name of the procedure being compiled, for statement records.
    pub(crate) current_proc: String,
    /// Parameter names of each procedure, for exceptions that share them.
    pub(crate) param_names_of: HashMap<ProcId, Vec<String>>,
    /// While compiling an exception's body: the rule it changes.
    pub(crate) exception_target: Option<ProcId>,
    /// The base rulebook's `players a..b`, where a game too large to lay
    /// out at `b` players is reported.
    pub(crate) players_at: Option<Loc>,
    /// The assignments of a `simultaneous` block's body to locals declared
    /// before it (E0305), in words, found as the blocks are resolved and
    /// reported with the block's other checks.
    pub(crate) outer_locals_set: Vec<(String, Loc)>,
    /// While a scenario's steps are resolved: the names that exist only
    /// there (`sees`, `won`) are the language's.
    pub(crate) in_scenario: bool,
}

/// Resolve a base rulebook (first) and the modules that extend it (in order).
pub fn resolve(files: &[Parsed]) -> Result<Model, Vec<Diagnostic>> {
    let mut r = Resolver {
        model: Model::default(),
        globals: HashMap::new(),
        reserved_declared: Default::default(),
        removed: HashMap::new(),
        attrs: HashMap::new(),
        diags: Vec::new(),
        file: FileId(0),
        default_source: Vec::new(),
        current_proc: String::new(),
        param_names_of: HashMap::new(),
        exception_target: None,
        players_at: None,
        outer_locals_set: Vec::new(),
        in_scenario: false,
    };
    r.model.files = files.iter().map(|f| f.name.clone()).collect();
    r.header(files);
    // Files that do not make one game (two rulebooks, a module first) would
    // bury that one error under every name declared twice: stop here.
    if r.diags.iter().any(|d| d.code == codes::MODULE) {
        return Err(r.diags);
    }
    let items = r.merge(files);
    r.declare_all(&items);
    r.define_all(&items);
    let modules: Vec<String> = files.iter().map(|f| f.file.header.name.name.clone()).collect();
    // The modules each file builds on (a module that extends a module),
    // which its scenarios run on too.
    let bases: Vec<Vec<FileId>> = (0..files.len()).map(|i| (1..files.len()).filter(|j| modules::extends_file(files, i, *j)).map(|j| FileId(j as u16)).collect()).collect();
    r.scenarios(&items, &modules, &bases);
    r.model.file_bases = bases;
    if r.diags.is_empty() {
        r.check_layout_size();
        r.check_inlined_size();
        r.check_simultaneous_blocks();
        r.check_end_bodies();
    }
    if r.diags.is_empty() {
        Ok(r.model)
    } else {
        // Found pass by pass (declarations, then definitions, then the
        // checks of the whole), reported in the order of the text.
        let mut diags = r.diags;
        diags.sort_by_key(|d| (d.at.file.0, d.at.span.start));
        Err(diags)
    }
}

/// A declaration and the file it comes from.
pub(crate) struct Placed<'a> {
    pub(crate) file: FileId,
    pub(crate) item: &'a ast::Item,
}

impl Resolver {
    pub(crate) fn loc(&self, span: Span) -> Loc {
        Loc { file: self.file, span }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A rulebook that the engine cannot lay out at its own largest player
    /// count is refused here, not at the first game of that count.
    fn check_layout_size(&mut self) {
        let most = self.model.max_players;
        let Some(what) = self.model.layout_size(most).too_large() else { return };
        let Some(at) = self.players_at else { return };
        let most_usable = (self.model.min_players..most).rev().find(|&p| self.model.layout_size(p).too_large().is_none());
        let help = match most_usable {
            Some(p) => format!("at most {} fit: lower the highest player count, or the number of pieces, zones or spaces", crate::diagnostic::players(p)),
            None => "lower the number of pieces, zones or spaces".to_string(),
        };
        let message = format!("at {} the game has {what}; the engine numbers at most {}", crate::diagnostic::players(most), LayoutSize::MAX);
        self.error(Diagnostic::new(codes::HEADER, message, at, "too many for the engine").help(help));
    }

    fn header(&mut self, files: &[Parsed]) {
        // The first module that sets `players`: its range and where it is.
        let mut module_range: Option<(i64, i64, Loc)> = None;
        // The name in each header: a scenario's `with NAME` picks a module
        // by it, so two files may not share one.
        let mut named: HashMap<&str, Loc> = HashMap::new();
        // The first file's name, shown beside a second rulebook: files are
        // taken in the order of their paths, so "the first" is not always
        // the one the user meant as the rulebook.
        let first_at = Loc { file: FileId(0), span: files.first().map(|f| f.file.header.name.span).unwrap_or_default() };
        for (i, f) in files.iter().enumerate() {
            let h = &f.file.header;
            self.file = FileId(i as u16);
            let at = self.loc(h.name.span);
            if let Some(first) = named.insert(&h.name.name, at) {
                self.error(
                    Diagnostic::new(codes::MODULE, format!("two files are named `{}`", h.name.name), at, "named again")
                        .related(first, "first named here")
                        .help("a module is known by the name in its header (a scenario's `with NAME` picks it by that name): give each module a name of its own, other than its base's"),
                );
            }
            let is_module = matches!(h.kind, HeaderKind::Module { .. });
            if i == 0 && is_module {
                let at = self.loc(h.name.span);
                self.error(
                    Diagnostic::new(codes::MODULE, format!("`{}` is a module, not a rulebook", h.name.name), at, "module")
                        .help("check the module with its base rulebook: `grimoire check base.rules module.rules`"),
                );
            }
            if i > 0 && is_module {
                self.model.modules.push(h.name.name.clone());
            }
            if i > 0 && !is_module {
                let at = self.loc(h.name.span);
                self.error(
                    Diagnostic::new(codes::MODULE, format!("`{}` is a rulebook, not a module: two rulebooks were given, or reached as the bases of the modules given", h.name.name), at, "a second rulebook")
                        .related(first_at, "a rulebook")
                        .help("give one rulebook, with modules only: the others must start with `module NAME extends \"...\"` (a module's base is read with it, so modules of two different games cannot be combined)"),
                );
            }
            let src = h.source.as_ref().map(|s| s.value.clone());
            self.default_source.push(src.clone());
            if let Some(s) = &h.source {
                let at = self.loc(s.span);
                self.model.source_clauses.push((s.value.clone(), at));
            }
            if i == 0 {
                self.model.trigger_depth = crate::engine::TRIGGER_DEPTH;
                self.model.step_fuel = crate::engine::STEP_FUEL;
                self.model.name = h.name.name.clone();
                self.model.title = h.title.as_ref().map(|t| t.value.clone());
                self.model.source = src;
                match &h.players {
                    Some((range, prov)) => self.player_range(range, prov),
                    None => {
                        let at = self.loc(h.span);
                        self.error(Diagnostic::new(codes::HEADER, "the rulebook does not say how many players", at, "header").help("add `players a..b` to the header"));
                    }
                }
            } else if let (Some((range, prov)), true) = (&h.players, is_module) {
                // (A second rulebook is E0402 above: its counts are no
                // module's.) An expansion may play at other counts than its base (La
                // Compagnie de Merlin: 3 to 8 where the base says 3 to 7):
                // its range replaces the base's. Two modules that disagree
                // leave no count to play at, which is said at the second.
                match module_range {
                    Some((lo, hi, first)) if (lo, hi) != (range.lo, range.hi) => {
                        let message = format!("two modules set different player counts: {lo}..{hi} and {}..{}", range.lo, range.hi);
                        let d = Diagnostic::new(codes::HEADER, message, self.loc(range.span), "players")
                            .related(first, format!("`players {lo}..{hi}` here"))
                            .help("give the modules the same `players a..b`, or leave it to one of them");
                        self.error(d);
                    }
                    Some(_) => {
                        let at = self.loc(range.span);
                        self.record(RecordKind::Encoded, "players".to_string(), None, prov, at);
                    }
                    None => {
                        module_range = Some((range.lo, range.hi, self.loc(range.span)));
                        self.player_range(range, prov);
                    }
                }
            }
            // `title` and the limits cite the text like any declaration.
            for (name, prov, span) in &h.cited {
                let at = self.loc(*span);
                self.record(RecordKind::Encoded, name.clone(), None, prov, at);
            }
            // The rulebook sets its limits; a module may raise them (the
            // highest wins), never lower what its base needs.
            for (name, value, span) in &h.limits {
                let at = self.loc(*span);
                match name.name.as_str() {
                    "trigger_depth" if (1..=i64::from(MAX_TRIGGER_DEPTH)).contains(value) => {
                        self.model.trigger_depth = if i == 0 { *value as u8 } else { self.model.trigger_depth.max(*value as u8) }
                    }
                    "trigger_depth" => self.error(Diagnostic::new(codes::HEADER, format!("`trigger_depth` must lie within 1..{MAX_TRIGGER_DEPTH}"), at, "out of range")),
                    _ if (1_000..=MAX_STEP_FUEL).contains(value) => {
                        self.model.step_fuel = if i == 0 { *value as u64 } else { self.model.step_fuel.max(*value as u64) }
                    }
                    _ => self.error(Diagnostic::new(codes::HEADER, format!("`step_fuel` must lie within 1000..{MAX_STEP_FUEL}"), at, "out of range")),
                }
            }
        }
    }

    /// `players a..b` of the rulebook, or of a module that changes it: the
    /// counts the game is played at, checked and recorded with their
    /// provenance.
    fn player_range(&mut self, range: &ast::Range, prov: &[Provenance]) {
        let at = self.loc(range.span);
        if range.lo < 1 || range.hi > 16 {
            self.error(Diagnostic::new(codes::HEADER, "player counts must lie within 1..16", at, "players").help("write a range such as `players 3..8`"));
        } else if range.lo > range.hi {
            let message = format!("the player range {}..{} is empty: its low end is above its high end", range.lo, range.hi);
            let help = format!("write the fewest players first: `players {}..{}`", range.hi, range.lo);
            self.error(Diagnostic::new(codes::HEADER, message, at, "players").help(help));
        }
        self.model.min_players = range.lo.clamp(1, 16) as u8;
        self.model.max_players = range.hi.clamp(1, 16) as u8;
        self.players_at = Some(at);
        self.record(RecordKind::Encoded, "players".to_string(), None, prov, at);
    }

    /// Record provenance for traceability.
    pub(crate) fn record(&mut self, kind: RecordKind, name: String, text: Option<String>, prov: &[Provenance], at: Loc) {
        let source = self.default_source.get(self.file.idx()).cloned().flatten().unwrap_or_default();
        let mut cites = Vec::new();
        let mut assumes = Vec::new();
        for p in prov {
            match p {
                Provenance::Quote { quote, source: s } => cites.push(Citation::Quote {
                    source: s.as_ref().map(|s| s.value.clone()).unwrap_or_else(|| source.clone()),
                    quote: quote.value.clone(),
                    at: self.loc(quote.span),
                }),
                Provenance::Lines { lines, source: s } => cites.push(Citation::Lines {
                    source: s.as_ref().map(|s| s.value.clone()).unwrap_or_else(|| source.clone()),
                    from: lines.lo.max(0) as u64,
                    to: lines.hi.max(0) as u64,
                    at: self.loc(lines.span),
                }),
                Provenance::Assume(reason) => assumes.push(reason.value.clone()),
            }
        }
        self.model.records.push(Record { kind, name, text, cites, assumes, at, declaration: true });
    }

    /// [`Resolver::record`] of what is not a declaration of its own: a part
    /// of one, a statement or block inside one, a helper `fn` (see
    /// [`Record::declaration`]).
    pub(crate) fn record_part(&mut self, name: String, text: Option<String>, prov: &[Provenance], at: Loc) {
        self.record(RecordKind::Encoded, name, text, prov, at);
        if let Some(r) = self.model.records.last_mut() {
            r.declaration = false;
        }
    }

    /// The rule an unknown name seems to mean (`do_jump` or `jmp` for the
    /// rule `jump`): one that is a word of the name, one the name contains
    /// (3 letters or more), or one a typo away.
    pub(crate) fn rule_meant(&self, name: &str) -> Option<String> {
        let mut rules: Vec<&str> = self.globals.iter().filter(|(_, (s, _))| matches!(s, Sym::Proc(_))).map(|(n, _)| n.as_str()).collect();
        // The longest first (`jump_twice` before `jump`), then by name: the
        // same answer whatever the order of the table of names.
        rules.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        let inside = |r: &&&str| name.split('_').any(|w| w == **r) || (r.chars().count() >= 3 && name.contains(**r));
        rules.iter().find(inside).copied().or_else(|| did_you_mean(name, rules.iter().copied())).map(str::to_string)
    }

    /// The help for a name a module's `remove` took away, if it did.
    pub(crate) fn removed_help(&self, name: &str) -> Option<String> {
        let (module, _) = self.removed.get(name)?.first()?;
        Some(format!("`{name}` was removed by the module `{module}` (`remove`): remove or replace what still uses it too"))
    }

    /// Look a global name up, reporting unknown names with a suggestion.
    pub(crate) fn lookup(&mut self, name: &ast::Ident, extra: &[&str]) -> Option<Sym> {
        if let Some((sym, _)) = self.globals.get(&name.name) {
            return Some(*sym);
        }
        if self.reserved_declared.contains(&name.name) {
            // Its declaration was refused (E0102), which says what to do.
            return None;
        }
        let at = self.loc(name.span);
        let candidates: Vec<&str> = self
            .globals
            .keys()
            .map(String::as_str)
            .chain(extra.iter().copied())
            .chain(BUILTIN_NAMES.iter().copied())
            .chain(LATER_BUILTINS.iter().copied())
            .filter(|c| *c != name.name)
            .collect();
        let mut d = Diagnostic::new(codes::UNKNOWN_NAME, format!("unknown name `{}`", name.name), at, "not declared");
        if let Some(help) = self.removed_help(&name.name) {
            d = d.help(help);
        } else if BUILTIN_NAMES.contains(&name.name.as_str()) {
            d = d.help(format!("`{}` is a built-in of the language (docs/language.md), which cannot be used this way here", name.name));
        } else if let Some(s) = did_you_mean(&name.name, candidates.into_iter()) {
            d = d.help(format!("did you mean `{s}`?"));
        } else {
            d = d.help("declare it, or check its spelling");
        }
        self.error(d);
        None
    }

    /// [`Resolver::lookup`] where only some declarations can stand (the
    /// variants of a kind in a `match` arm): an unknown name gets its
    /// suggestion among the names `candidates` gives, never a built-in or
    /// another sort of declaration (`tow` had got "did you mean `row`?" in
    /// a `match` on cards), and when none is close, those names listed
    /// after what they are ("the variants of `card` are"). `candidates`
    /// runs only for an unknown name.
    pub(crate) fn lookup_among(&mut self, name: &ast::Ident, candidates: &dyn Fn(&Model) -> (String, Vec<String>)) -> Option<Sym> {
        if let Some((sym, _)) = self.globals.get(&name.name) {
            return Some(*sym);
        }
        if self.reserved_declared.contains(&name.name) {
            return None;
        }
        let (what, names) = candidates(&self.model);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let at = self.loc(name.span);
        let mut d = Diagnostic::new(codes::UNKNOWN_NAME, format!("unknown name `{}`", name.name), at, "not declared");
        const LISTED: usize = 12;
        d = match did_you_mean(&name.name, names.iter().copied()) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None if names.is_empty() => d.help("declare it, or check its spelling"),
            None => {
                let shown: Vec<String> = names.iter().take(LISTED).map(|n| format!("`{n}`")).collect();
                let more = if names.len() > LISTED { format!(" and {} more", names.len() - LISTED) } else { String::new() };
                d.help(format!("{what}: {}{more}", shown.join(", ")))
            }
        };
        self.error(d);
        None
    }

    pub(crate) fn wrong_sort(&mut self, name: &ast::Ident, sym: Sym, wanted: &str) {
        let at = self.loc(name.span);
        let mut d = Diagnostic::new(codes::WRONG_SORT, format!("`{}` is {}, but {} is expected here", name.name, sym.describe(), wanted), at, format!("expected {wanted}"));
        if matches!(sym, Sym::Proc(_)) && wanted.starts_with("a function") {
            // `let x = jump(p)`: a rule called for a value.
            d = d.help(format!("a rule gives no value: run it with `do {}(...)` as a statement (it may set a var or a counter), or write a `fn` for the value", name.name));
        } else if let (Sym::Fn(f), true) = (sym, wanted.contains("value")) {
            // `hand_size` for `hand_size()`: a function is called, even
            // with no argument.
            let takes = self.model.fns.get(f.idx()).map_or(0, |d| d.param_tys.len());
            d = d.help(format!("a function gives its value when called: `{}({})`", name.name, if takes == 0 { "" } else { "..." }));
        }
        self.error(d);
    }
}

/// Names the language defines itself, offered in "did you mean".
pub(crate) const BUILTIN_NAMES: &[&str] = &[
    "actor", "players", "player_count", "round_number", "box", "clockwise", "counterclockwise", "count", "top", "pos",
    "index", "zone_of", "owner", "holder", "next_player", "abs", "min", "max", "tagged", "space", "spaces", "pieces",
    "leader", "rearmost", "enabled", "is", "opposite", "row", "col", "neighbors", "line", "cell", "player", "linked",
];

/// Built-ins added after rulebooks were written: a rulebook may still
/// declare these names (its own `fn step` is called instead of the
/// built-in), so that what compiled before keeps compiling.
pub(crate) const LATER_BUILTINS: &[&str] = &["step", "seat"];

/// The highest `trigger_depth` a rulebook may set.
pub const MAX_TRIGGER_DEPTH: u8 = 255;
/// The highest `step_fuel` a rulebook may set.
pub const MAX_STEP_FUEL: i64 = 1_000_000_000;


/// The words a declaration starts with, as `remove WORD NAME` names them.
pub(crate) const DECLARATION_WORDS: &[&str] = &[
    "piece", "token", "card", "die", "zone", "spacetype", "track", "grid", "graph", "counter", "var", "table", "option", "setup", "round",
    "phase", "rule", "trigger", "end", "exception", "assumption", "discrepancy", "narrative", "fn", "invariant", "scenario",
];

/// The word a declaration starts with.
pub(crate) fn declaration_word(kind: &ItemKind) -> &str {
    match kind {
        ItemKind::Component(c) => c.category.name.as_str(),
        ItemKind::Die(_) => "die",
        ItemKind::Zone(_) => "zone",
        ItemKind::SpaceType { .. } => "spacetype",
        ItemKind::Track(_) => "track",
        ItemKind::Grid { .. } => "grid",
        ItemKind::Graph { .. } => "graph",
        ItemKind::Counter(_) => "counter",
        ItemKind::Var(_) => "var",
        ItemKind::Table(_) => "table",
        ItemKind::Option { .. } => "option",
        ItemKind::Setup(_) => "setup",
        ItemKind::Round { .. } => "round",
        ItemKind::Procedure(p) => match p.kind {
            ast::ProcKind::Phase => "phase",
            ast::ProcKind::Rule => "rule",
            ast::ProcKind::Trigger => "trigger",
        },
        ItemKind::End { .. } => "end",
        ItemKind::Exception(_) => "exception",
        ItemKind::Assumption { .. } => "assumption",
        ItemKind::Discrepancy { .. } => "discrepancy",
        ItemKind::Narrative { .. } => "narrative",
        ItemKind::Function { .. } => "fn",
        ItemKind::Invariant { .. } => "invariant",
        ItemKind::Scenario(_) => "scenario",
        ItemKind::Replace(_) | ItemKind::Remove { .. } => "module change",
    }
}

/// The name a declaration introduces, if any.
pub(crate) fn item_name(kind: &ItemKind) -> Option<&ast::Ident> {
    match kind {
        ItemKind::Component(c) => Some(&c.name),
        ItemKind::Die(d) => Some(&d.name),
        ItemKind::Zone(z) => Some(&z.name),
        ItemKind::SpaceType { name, .. }
        | ItemKind::Grid { name, .. }
        | ItemKind::Graph { name, .. }
        | ItemKind::Option { name, .. }
        | ItemKind::Round { name, .. }
        | ItemKind::End { name, .. }
        | ItemKind::Assumption { name, .. }
        | ItemKind::Discrepancy { name, .. }
        | ItemKind::Narrative { name, .. } => Some(name),
        ItemKind::Track(t) => Some(&t.name),
        ItemKind::Counter(c) => Some(&c.name),
        ItemKind::Var(v) => Some(&v.name),
        ItemKind::Table(t) => Some(&t.name),
        ItemKind::Procedure(p) => Some(&p.name),
        ItemKind::Exception(e) => Some(&e.name),
        ItemKind::Function { name, .. } | ItemKind::Invariant { name, .. } => Some(name),
        ItemKind::Scenario(s) => Some(&s.name),
        ItemKind::Setup(_) | ItemKind::Replace(_) | ItemKind::Remove { .. } => None,
    }
}
