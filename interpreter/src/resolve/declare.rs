//! Pass 1 of resolution: every name gets an id, so that declarations may
//! come in any order. Pass 2 (define.rs) fills each declaration in.

use super::{Placed, Resolver, Sym};
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, ItemKind, ProcKind};

/// Most parameters a procedure may take (the engine passes them on a fixed array).
pub const MAX_PARAMS: usize = 8;

impl Resolver {
    /// Give `name` to `sym`; false (and E0102) when the name is taken, by
    /// another declaration or by the language.
    fn declare(&mut self, name: &ast::Ident, sym: Sym) -> bool {
        let at = self.loc(name.span);
        if let Some((_, first)) = self.globals.get(&name.name) {
            let first = *first;
            // In a module, the likely intent is to change the base's declaration.
            let help = if first.file == at.file {
                "every name is global: rename one of them".to_string()
            } else {
                format!("every name is global: to change the declaration of `{}` that another file makes, write `replace` before this one, in a module that extends that file (directly or through other modules); otherwise rename it", name.name)
            };
            self.error(Diagnostic::new(codes::DUPLICATE_NAME, format!("`{}` is declared twice", name.name), at, "second declaration").related(first, "first declared here").help(help));
            return false;
        }
        if super::BUILTIN_NAMES.contains(&name.name.as_str()) {
            self.error(Diagnostic::new(codes::DUPLICATE_NAME, format!("`{}` is a name of the language itself", name.name), at, "reserved").help("choose another name"));
            self.reserved_declared.insert(name.name.clone());
            return false;
        }
        self.globals.insert(name.name.clone(), (sym, at));
        true
    }

    /// Names one declaration gives side by side, which must differ (a
    /// rule's or a function's parameters, a trigger's two names, a table's
    /// columns, the names one `choose` binds): the second of two alike is
    /// E0102. Taken silently, one of the two would win, and which one
    /// depended on the construct.
    pub(crate) fn distinct_names<'a>(&mut self, names: impl IntoIterator<Item = &'a ast::Ident>, what: &str) {
        let mut seen: Vec<&ast::Ident> = Vec::new();
        for n in names {
            match seen.iter().find(|f| f.name == n.name) {
                Some(first) => {
                    let (at, first) = (self.loc(n.span), self.loc(first.span));
                    self.error(
                        Diagnostic::new(codes::DUPLICATE_NAME, format!("`{}` names two {what}", n.name), at, "second one")
                            .related(first, "first one")
                            .help("rename one of them: a name can stand for one thing only"),
                    );
                }
                None => seen.push(n),
            }
        }
    }

    fn new_proc(&mut self, kind: ProcKind, name: &str, span: ast::Span) -> ProcId {
        let id = ProcId(self.model.procs.len() as u16);
        let at = self.loc(span);
        self.model.procs.push(Proc {
            kind,
            name: name.to_string(),
            params: 0,
            param_tys: Vec::new(),
            locals: 0,
            body: BlockId(0),
            on_arrive: None,
            when: None,
            exceptions: Vec::new(),
            at,
        });
        id
    }

    fn attr(&mut self, name: &str) -> u16 {
        if let Some(a) = self.attrs.get(name) {
            return *a;
        }
        let a = self.model.attrs.len() as u16;
        self.model.attrs.push(name.to_string());
        self.attrs.insert(name.to_string(), a);
        a
    }

    /// Pass 1: a name and an id for every declaration.
    pub(crate) fn declare_all(&mut self, items: &[Placed]) {
        for p in items {
            self.file = p.file;
            let span = p.item.span;
            match &p.item.kind {
                ItemKind::Component(c) => {
                    let k = KindId(self.model.kinds.len() as u16);
                    let at = self.loc(c.name.span);
                    if !(0..=4096).contains(&c.count) {
                        let loc = self.loc(c.count_span);
                        self.error(Diagnostic::new(codes::TOTAL, format!("`{}` declares {} pieces; a kind has 0 to 4096", c.name.name, c.count), loc, "out of range").help("split the kind into several, or check the number"));
                    }
                    self.model.kinds.push(Kind { name: c.name.name.clone(), label: c.label.as_ref().map(|l| l.value.clone()), count: c.count.clamp(0, 4096) as u16, per_player: c.per_player, variants: Vec::new(), at });
                    self.declare(&c.name, Sym::Kind(k));
                    for v in &c.variants {
                        if !(0..=4096).contains(&v.count) {
                            let loc = self.loc(v.name.span);
                            self.error(Diagnostic::new(codes::TOTAL, format!("the variant `{}` declares {} pieces; a variant has 0 to 4096", v.name.name, v.count), loc, "out of range").help("split the kind into several, or check the number"));
                        }
                        let vid = VariantId(self.model.variants.len() as u16);
                        let attrs = v.attrs.iter().map(|(n, x)| (self.attr(&n.name), *x)).collect();
                        self.model.variants.push(Variant { name: v.name.name.clone(), label: v.label.as_ref().map(|l| l.value.clone()), kind: k, count: v.count.clamp(0, 4096) as u16, attrs });
                        if let Some(kind) = self.model.kinds.get_mut(k.idx()) {
                            kind.variants.push(vid);
                        }
                        self.declare(&v.name, Sym::Variant(vid));
                    }
                }
                ItemKind::Die(d) => {
                    let id = DieId(self.model.dice.len() as u16);
                    if !(1..=1000).contains(&d.sides) {
                        let loc = self.loc(d.sides_span);
                        self.error(Diagnostic::new(codes::TOTAL, format!("the die `{}` has {} sides; a die has 1 to 1000", d.name.name, d.sides), loc, "out of range"));
                    }
                    self.model.dice.push(Die { name: d.name.name.clone(), sides: Vec::new(), size: d.sides.clamp(1, 1000) as u16 });
                    self.declare(&d.name, Sym::Die(id));
                    for f in &d.faces {
                        let fid = FaceId(self.model.faces.len() as u16);
                        self.model.faces.push(Face { die: id, name: f.name.name.clone(), label: f.label.as_ref().map(|l| l.value.clone()) });
                        self.declare(&f.name, Sym::Face(fid));
                    }
                }
                ItemKind::Zone(z) => {
                    let id = ZoneDefId(self.model.zones.len() as u16);
                    let at = self.loc(z.name.span);
                    self.model.zones.push(ZoneDef { name: z.name.name.clone(), label: z.label.as_ref().map(|l| l.value.clone()), mult: ZoneMult::Single, kinds: Vec::new(), visibility: z.visibility, ordered: z.ordered, capacity: z.capacity.map(|c| c.clamp(0, 65535) as u16), at });
                    self.declare(&z.name, Sym::Zone(id));
                }
                ItemKind::SpaceType { name, .. } => {
                    let id = TagId(self.model.tags.len() as u16);
                    if self.model.tags.len() >= 64 {
                        let at = self.loc(name.span);
                        self.error(Diagnostic::new(codes::TRACK, "a rulebook may declare at most 64 space types", at, "one too many"));
                    }
                    self.model.tags.push(name.name.clone());
                    self.declare(name, Sym::Tag(id));
                }
                ItemKind::Track(t) => {
                    let id = TrackId(self.model.tracks.len() as u16);
                    let shape = match t.shape {
                        ast::TrackShape::Linear => Shape::Linear,
                        ast::TrackShape::Circular => Shape::Circular,
                    };
                    self.model.tracks.push(Track { name: t.name.name.clone(), shape, spaces: Vec::new(), node_names: Vec::new(), node_labels: Vec::new(), edges: Vec::new() });
                    self.declare(&t.name, Sym::Track(id));
                }
                ItemKind::Counter(c) => {
                    let id = CounterId(self.model.counters.len() as u16);
                    let at = self.loc(c.name.span);
                    self.model.counters.push(CounterDef { name: c.name.name.clone(), label: c.label.as_ref().map(|l| l.value.clone()), per_player: c.per_player, per_piece: None, lo: c.bounds.lo, hi: c.bounds.hi, init: None, visibility: c.visibility, at });
                    self.declare(&c.name, Sym::Counter(id));
                }
                ItemKind::Var(v) => {
                    let id = VarId(self.model.vars.len() as u16);
                    self.model.vars.push(VarDef { name: v.name.name.clone(), label: v.label.as_ref().map(|l| l.value.clone()), per_player: v.per_player, per_piece: None, ty: Ty::Any, init: None, visibility: v.visibility });
                    self.declare(&v.name, Sym::Var(id));
                }
                ItemKind::Table(t) => {
                    let id = TableId(self.model.tables.len() as u16);
                    self.distinct_names(&t.columns, &format!("columns of the table `{}`", t.name.name));
                    self.model.tables.push(TableDef { name: t.name.name.clone(), columns: t.columns.iter().map(|c| c.name.clone()).collect(), key_is_players: t.key.name == "players", rows: Vec::new() });
                    self.declare(&t.name, Sym::Table(id));
                }
                ItemKind::Option { name, .. } => {
                    let id = OptionId(self.model.options.len() as u16);
                    self.model.options.push(name.name.clone());
                    self.declare(name, Sym::Option(id));
                }
                ItemKind::Procedure(pr) => {
                    let id = self.new_proc(pr.kind, &pr.name.name, span);
                    self.declare(&pr.name, Sym::Proc(id));
                }
                ItemKind::Exception(e) => {
                    let id = ExceptionId(self.model.exceptions.len() as u16);
                    let body = self.new_proc(ProcKind::Rule, &e.name.name, span);
                    let at = self.loc(e.name.span);
                    self.model.exceptions.push(ExceptionDef { name: e.name.name.clone(), target: ProcId(0), when: ExprId(0), mode: e.mode, over: Vec::new(), body, at });
                    self.declare(&e.name, Sym::Exception(id));
                }
                ItemKind::Function { name, .. } => {
                    // Only a function whose name is its own is kept: the
                    // passes that read every function's body (calls,
                    // cycles, inlining) must never meet one that was
                    // refused, and so never defined.
                    let id = FnId(self.model.fns.len() as u16);
                    if self.declare(name, Sym::Fn(id)) {
                        let at = self.loc(name.span);
                        self.model.fns.push(FnDef { name: name.name.clone(), param_tys: Vec::new(), locals: 0, body: ExprId(0), ty: Ty::Any, at });
                    }
                }
                ItemKind::Setup(_) => {
                    if let Some(first) = self.model.setup {
                        let at = self.loc(span);
                        let first = self.model.proc(first).at;
                        let help = if first.file == at.file {
                            "merge them into one"
                        } else {
                            "a module adds to its base's setup with an exception: `exception NAME to setup when true after { ... }` (or `before`; `instead` replaces it)"
                        };
                        self.error(Diagnostic::new(codes::DUPLICATE_NAME, "the rulebook has two `setup` blocks", at, "second setup").related(first, "first setup").help(help));
                    }
                    self.model.setup = Some(self.new_proc(ProcKind::Phase, "setup", span));
                }
                ItemKind::Round { name, .. } => {
                    if self.model.round.is_some() {
                        let at = self.loc(span);
                        self.error(Diagnostic::new(codes::DUPLICATE_NAME, "the rulebook has two `round` blocks", at, "second round").help("a game has one round structure; use phases inside it"));
                    }
                    let id = self.new_proc(ProcKind::Phase, &name.name, span);
                    self.model.round = Some((id, None));
                    self.declare(name, Sym::Proc(id));
                }
                ItemKind::Invariant { name, .. } => {
                    self.declare(name, Sym::Other("an invariant"));
                }
                ItemKind::Scenario(s) => {
                    self.declare(&s.name, Sym::Other("a scenario"));
                }
                ItemKind::End { name, .. } => {
                    let body = self.new_proc(ProcKind::Rule, &name.name, span);
                    self.model.ends.push(EndDef { name: name.name.clone(), when: ExprId(0), body });
                    self.declare(name, Sym::Other("an end condition"));
                }
                ItemKind::Grid { name, rows, cols, hex } => {
                    let id = TrackId(self.model.tracks.len() as u16);
                    let (r, c) = ((*rows).clamp(1, 64) as u16, (*cols).clamp(1, 64) as u16);
                    if *rows < 1 || *cols < 1 || *rows > 64 || *cols > 64 {
                        let at = self.loc(name.span);
                        self.error(Diagnostic::new(codes::TRACK, format!("the grid `{}` must have 1 to 64 rows and columns", name.name), at, "bad size"));
                    }
                    self.model.tracks.push(Track { name: name.name.clone(), shape: Shape::Grid { rows: r, cols: c, hex: *hex }, spaces: vec![0; r as usize * c as usize], node_names: Vec::new(), node_labels: Vec::new(), edges: Vec::new() });
                    self.declare(name, Sym::Track(id));
                }
                ItemKind::Graph { name, nodes, .. } => {
                    let id = TrackId(self.model.tracks.len() as u16);
                    let node_names = nodes.iter().map(|(n, _, _)| n.name.clone()).collect();
                    let node_labels = nodes.iter().map(|(_, label, _)| label.as_ref().map(|l| l.value.clone())).collect();
                    self.model.tracks.push(Track { name: name.name.clone(), shape: Shape::Graph, spaces: vec![0; nodes.len()], node_names, node_labels, edges: Vec::new() });
                    self.declare(name, Sym::Track(id));
                    for (i, (n, _, _)) in nodes.iter().enumerate() {
                        self.declare(n, Sym::Node(id, i as u16));
                    }
                }
                ItemKind::Assumption { name, .. } => {
                    self.declare(name, Sym::Other("an assumption"));
                }
                ItemKind::Discrepancy { name, .. } => {
                    self.declare(name, Sym::Other("a discrepancy"));
                }
                ItemKind::Narrative { name, .. } => {
                    self.declare(name, Sym::Other("a narrative rule"));
                }
                ItemKind::Replace(_) | ItemKind::Remove { .. } => {}
            }
        }
    }
}
