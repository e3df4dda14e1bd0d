//! Statements and blocks: locals bound in order, calls checked against the
//! procedures they call.

use super::expr::{fits, ty_name, Scope};
use super::{Resolver, Sym};
use crate::diagnostic::{codes, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, AssignOp, MoveWhat, Pattern, StmtKind};

impl Resolver {
    pub(crate) fn block(&mut self, sc: &mut Scope, b: &ast::Block) -> BlockId {
        if !b.provenance.is_empty() {
            let name = format!("{} (block)", self.current_proc);
            let at = self.loc(b.span);
            self.record_part(name, None, &b.provenance, at);
        }
        let mark = sc.mark();
        let ids: Vec<StmtId> = b.stmts.iter().map(|s| self.stmt(sc, s)).collect();
        sc.reset(mark);
        let id = BlockId(self.model.blocks.len() as u32);
        self.model.blocks.push(ids);
        id
    }

    fn push_stmt(&mut self, stmt: Stmt, span: ast::Span) -> StmtId {
        let id = StmtId(self.model.stmts.len() as u32);
        let at = self.loc(span);
        self.model.stmts.push(StmtNode { stmt, at });
        id
    }

    fn stmt(&mut self, sc: &mut Scope, s: &ast::Stmt) -> StmtId {
        if !s.provenance.is_empty() {
            let name = format!("{} (statement)", self.current_proc);
            let at = self.loc(s.span);
            self.record_part(name, None, &s.provenance, at);
        }
        let stmt = self.stmt_kind(sc, &s.kind, s.span);
        self.push_stmt(stmt, s.span)
    }

    fn zone(&mut self, sc: &mut Scope, e: &ast::Expr, what: &str) -> ExprId {
        self.expect(sc, e, Ty::Zone, what)
    }

    fn stmt_kind(&mut self, sc: &mut Scope, k: &StmtKind, span: ast::Span) -> Stmt {
        match k {
            StmtKind::Let(name, e) => {
                let t = self.expr(sc, e);
                if t.coll.is_some() {
                    let at = self.loc(e.span);
                    self.error(Diagnostic::new(codes::COLLECTION, format!("`{}` cannot hold a collection", name.name), at, "a collection").help("use the collection directly where it is needed: `for`, `choose`, `count x in ...`"));
                }
                let slot = sc.bind(&name.name, t.ty);
                Stmt::Let(slot, t.id)
            }
            StmtKind::Assign(lhs, op, rhs) => self.assign(sc, lhs, *op, rhs),
            StmtKind::Move { what, to, bottom } => {
                let bottom = *bottom;
                match what {
                    MoveWhat::Piece(p) => {
                        let piece = self.expect(sc, p, Ty::Piece(None), "what `move` moves");
                        let to = self.zone(sc, to, "the destination of `move`");
                        Stmt::MovePiece { piece, to, bottom }
                    }
                    MoveWhat::Top(z) => {
                        let from = self.zone(sc, z, "the zone of `move top of`");
                        let to = self.zone(sc, to, "the destination of `move`");
                        Stmt::MoveTop { from, to, bottom }
                    }
                    MoveWhat::All(z) => {
                        let from = self.zone(sc, z, "the zone of `move all of`");
                        let to = self.zone(sc, to, "the destination of `move`");
                        Stmt::MoveAll { from, to, bottom }
                    }
                    MoveWhat::Count { n, kind, from } => {
                        let n = self.expect(sc, n, Ty::Int, "how many pieces `move` moves");
                        let k = self.kind_named(kind).unwrap_or(KindId(0));
                        let from = self.zone(sc, from, "the zone `move` takes from");
                        let to = self.zone(sc, to, "the destination of `move`");
                        Stmt::MoveCount { n, kind: k, from, to, bottom }
                    }
                }
            }
            StmtKind::Shuffle(z) => Stmt::Shuffle(self.zone(sc, z, "what `shuffle` shuffles")),
            StmtKind::Reveal { what, to } => self.reveal(sc, what, to),
            StmtKind::Roll(var, die, seen_by) => {
                let (d, ty) = match self.lookup(die, &[]) {
                    Some(Sym::Die(d)) => {
                        let named = self.model.dice.get(d.idx()).is_some_and(|x| !x.sides.is_empty());
                        (d, if named { Ty::Face(d) } else { Ty::Int })
                    }
                    Some(other) => {
                        self.wrong_sort(die, other, "a die");
                        (DieId(0), Ty::Any)
                    }
                    None => (DieId(0), Ty::Any),
                };
                // Who sees the roll cannot read it: bound before the local.
                let seen_by = seen_by.as_ref().map(|to| self.audience(sc, to, "`roll ... to` shows the roll to players"));
                let slot = sc.bind(&var.name, ty);
                Stmt::Roll { slot, die: d, seen_by }
            }
            StmtKind::Choose { binds, cond, by, prompt, otherwise } => {
                // Who decides cannot see the bindings: it is known before anything is chosen.
                let before = self.diags.len();
                let by = self.expect(sc, by, Ty::Player, "who chooses (`by`)");
                self.explain_bindings_in_by(before, binds);
                // The bindings are in scope in `else` (holding `none` there)
                // and after the statement.
                let (binds, cond) = self.choose_binds(sc, binds, cond.as_ref());
                let otherwise = otherwise.as_ref().map(|b| self.block(sc, b));
                Stmt::Choose { binds, cond, by, prompt: prompt.as_ref().map(|p| p.value.clone()), otherwise }
            }
            StmtKind::ChooseRandom { binds, cond, otherwise } => {
                let (binds, cond) = self.choose_binds(sc, binds, cond.as_ref());
                let otherwise = otherwise.as_ref().map(|b| self.block(sc, b));
                Stmt::ChooseRandom { binds, cond, otherwise }
            }
            StmtKind::If(arms, otherwise) => {
                let arms = arms.iter().map(|(c, b)| (self.expect(sc, c, Ty::Bool, "the condition of `if`"), self.block(sc, b))).collect();
                let otherwise = otherwise.as_ref().map(|b| self.block(sc, b));
                Stmt::If(arms, otherwise)
            }
            StmtKind::While(c, b) => {
                let c = self.expect(sc, c, Ty::Bool, "the condition of `while`");
                Stmt::While(c, self.block(sc, b))
            }
            StmtKind::Repeat(n, b) => {
                let n = self.expect(sc, n, Ty::Int, "the count of `repeat`");
                Stmt::Repeat(n, self.block(sc, b))
            }
            StmtKind::For(var, coll, b) => {
                let (c, elem) = self.collection(sc, coll);
                let mark = sc.mark();
                let slot = sc.bind(&var.name, elem);
                let body = self.block(sc, b);
                sc.reset(mark);
                Stmt::For(slot, c, body)
            }
            StmtKind::Simultaneous(var, coll, b) => {
                let (c, elem) = self.collection(sc, coll);
                if !fits(elem, Ty::Player) {
                    self.type_error(coll.span, elem, Ty::Player, "the players of `simultaneous`");
                }
                let mark = sc.mark();
                let slot = sc.bind(&var.name, Ty::Player);
                let body = self.block(sc, b);
                self.note_outer_locals_set(sc, slot, body);
                sc.reset(mark);
                Stmt::Simultaneous(slot, c, body)
            }
            StmtKind::Match(e, arms) => self.match_stmt(sc, e, arms),
            StmtKind::Do(name, args) => self.call_stmt(sc, name, args, span, false),
            StmtKind::Phase(name) => self.call_stmt(sc, name, &[], span, true),
            StmtKind::As(p, b) => {
                let p = self.expect(sc, p, Ty::Player, "the player of `as`");
                Stmt::As(p, self.block(sc, b))
            }
            StmtKind::Win(p) => {
                let t = self.expr(sc, p);
                match t.coll {
                    // `win [q in players where ...]`: a shared victory.
                    Some(elem) => {
                        if !fits(elem, Ty::Player) {
                            self.type_error(p.span, elem, Ty::Player, "the winners");
                        }
                        Stmt::WinAll(t.id)
                    }
                    None => {
                        if !fits(t.ty, Ty::Player) {
                            self.type_error(p.span, t.ty, Ty::Player, "the winner");
                        }
                        Stmt::Win(t.id)
                    }
                }
            }
            StmtKind::Draw => Stmt::Draw,
            StmtKind::End => Stmt::End,
            StmtKind::Pass => Stmt::Pass,
            StmtKind::Proceed => match self.exception_target {
                Some(t) => Stmt::Proceed(t),
                None => {
                    let at = self.loc(span);
                    self.error(Diagnostic::new(codes::WRONG_SORT, "`proceed` only makes sense inside an exception", at, "not in an exception").help("`proceed` runs the rule an exception changes; elsewhere, call a rule with `do`"));
                    Stmt::Pass
                }
            },
        }
    }

    /// An unknown name in `by` that is one of the `choose`'s own bindings:
    /// say why it is unknown there, rather than "declare it".
    fn explain_bindings_in_by(&mut self, from: usize, binds: &[(ast::Ident, ast::Expr)]) {
        for d in self.diags.iter_mut().skip(from).filter(|d| d.code == codes::UNKNOWN_NAME) {
            if let Some((name, _)) = binds.iter().find(|(b, _)| d.message == format!("unknown name `{}`", b.name)) {
                d.help = Some(format!("`by` names who decides before anything is chosen, so it cannot read `{}`, which the decision chooses", name.name));
            }
        }
    }

    /// The bindings of a `choose`, each seeing the ones before it, and the
    /// `where` condition seeing them all. The names stay bound in the
    /// `else` block (holding `none`) and after the statement (holding the
    /// choice, or `none`).
    fn choose_binds(&mut self, sc: &mut Scope, binds: &[(ast::Ident, ast::Expr)], cond: Option<&ast::Expr>) -> (Vec<(u16, ExprId)>, Option<ExprId>) {
        self.distinct_names(binds.iter().map(|(var, _)| var), "options of one `choose`");
        let mut out = Vec::new();
        for (var, from) in binds {
            let (from, elem) = self.collection(sc, from);
            out.push((sc.bind(&var.name, elem), from));
        }
        let cond = cond.map(|c| self.expect(sc, c, Ty::Bool, "the `where` condition of `choose`"));
        (out, cond)
    }

    /// `reveal WHAT to PLAYERS`: a piece, the top or all of a zone, shown to
    /// one player or to a collection of players.
    fn reveal(&mut self, sc: &mut Scope, what: &MoveWhat, to: &ast::Expr) -> Stmt {
        let what = match what {
            MoveWhat::Piece(p) => RevealWhat::Piece(self.expect(sc, p, Ty::Piece(None), "what `reveal` shows")),
            MoveWhat::Top(z) => RevealWhat::Top(self.zone(sc, z, "the zone of `reveal top of`")),
            MoveWhat::All(z) => RevealWhat::All(self.zone(sc, z, "the zone of `reveal all of`")),
            MoveWhat::Count { n, from, .. } => {
                let at = self.loc(ast::Span::new(n.span.start, from.span.end));
                self.error(
                    Diagnostic::new(codes::WRONG_SORT, "`reveal` shows given pieces, not a number of a kind", at, "a count")
                        .help("reveal a piece (`reveal c to p`), the top of a zone (`reveal top of deck to p`) or all of it (`reveal all of hand[q] to p`)"),
                );
                RevealWhat::All(self.zone(sc, from, "the zone of `reveal`"))
            }
        };
        let (to, many) = self.audience(sc, to, "`reveal` shows pieces to players");
        Stmt::Reveal { what, to, many }
    }

    /// The players after `to` in `reveal ... to PLAYERS` or `roll ... to
    /// PLAYERS`: a player, or (true) a collection of players. `says` begins
    /// the message of a wrong type: "`reveal` shows pieces to players".
    fn audience(&mut self, sc: &mut Scope, to: &ast::Expr, says: &str) -> (ExprId, bool) {
        let t = self.expr(sc, to);
        let help = "name a player (`to p`), every player (`to players`) or some of them (`to [q in players where ...]`)";
        let (elem, many) = match t.coll {
            Some(elem) => (elem, true),
            None => (t.ty, false),
        };
        if !fits(elem, Ty::Player) {
            let at = self.loc(to.span);
            let label = if many { "not players" } else { "not a player" };
            self.error(Diagnostic::new(codes::TYPE, format!("{says}, not to {}", ty_name(elem)), at, label).help(help));
        }
        (t.id, many)
    }

    fn assign(&mut self, sc: &mut Scope, lhs: &ast::Expr, op: AssignOp, rhs: &ast::Expr) -> Stmt {
        let target = self.expr(sc, lhs);
        let lv = match self.model.exprs.get(target.id.0 as usize) {
            Some(Expr::Local(s)) => Some(LValue::Local(*s)),
            Some(Expr::Var(v, i)) => Some(LValue::Var(*v, *i)),
            Some(Expr::Counter(c, i)) => Some(LValue::Counter(*c, *i)),
            Some(Expr::None) => None, // already reported
            _ => {
                let at = self.loc(lhs.span);
                self.error(Diagnostic::new(codes::WRONG_SORT, "only a local, a var or a counter can be assigned", at, "not assignable").help("to change where a piece is, use `move`"));
                None
            }
        };
        let want = if op == AssignOp::Set { target.ty } else { Ty::Int };
        if op != AssignOp::Set && !fits(target.ty, Ty::Int) {
            self.type_error(lhs.span, target.ty, Ty::Int, "the target of `+=` / `-=`");
        }
        let value = self.expect(sc, rhs, want, "the assigned value");
        match lv {
            Some(lv) => Stmt::Assign(lv, op, value),
            None => Stmt::Pass,
        }
    }

    fn match_stmt(&mut self, sc: &mut Scope, e: &ast::Expr, arms: &[(Pattern, ast::Block)]) -> Stmt {
        let t = self.expr(sc, e);
        // What an arm can name: the variants of the kind matched, or the
        // faces of the die; any variant or face when that is not known.
        let arm_candidates = |m: &Model| -> (String, Vec<String>) {
            match t.ty {
                Ty::Piece(Some(k)) | Ty::Variant(k) => (
                    format!("the variants of `{}` are", m.kinds.get(k.idx()).map_or("", |x| x.name.as_str())),
                    m.variants.iter().filter(|v| v.kind == k).map(|v| v.name.clone()).collect(),
                ),
                Ty::Face(d) => (
                    format!("the faces of `{}` are", m.dice.get(d.idx()).map_or("", |x| x.name.as_str())),
                    m.faces.iter().filter(|f| f.die == d).map(|f| f.name.clone()).collect(),
                ),
                _ => ("the variants and faces are".to_string(), m.variants.iter().map(|v| v.name.clone()).chain(m.faces.iter().map(|f| f.name.clone())).collect()),
            }
        };
        let mut out = Vec::new();
        let mut default = None;
        // A name in two arms: the second arm could never run.
        let arm_names = arms.iter().flat_map(|(pat, _)| match pat {
            Pattern::Names(ns) => ns.as_slice(),
            Pattern::Wildcard(_) => &[],
        });
        self.distinct_names(arm_names, "arms of one `match`");
        for (pat, body) in arms {
            match pat {
                Pattern::Wildcard(_) => default = Some(self.block(sc, body)),
                Pattern::Names(pattern_names) => {
                    let mut keys = Vec::new();
                    for n in pattern_names {
                        match self.lookup_among(n, &arm_candidates) {
                            Some(Sym::Variant(v)) => {
                                let kind = self.model.variants.get(v.idx()).map(|x| x.kind);
                                let ok = match t.ty {
                                    Ty::Piece(Some(k)) | Ty::Variant(k) => Some(k) == kind,
                                    Ty::Piece(None) | Ty::Any => true,
                                    _ => false,
                                };
                                if !ok {
                                    self.type_error(n.span, Ty::Variant(kind.unwrap_or(KindId(0))), t.ty, "a pattern");
                                }
                                keys.push(MatchKey::Variant(v));
                            }
                            Some(Sym::Face(f)) => {
                                let die = self.model.faces.get(f.idx()).map(|x| x.die);
                                let ok = matches!(t.ty, Ty::Any) || matches!(t.ty, Ty::Face(d) if Some(d) == die);
                                if !ok {
                                    self.type_error(n.span, Ty::Face(die.unwrap_or(DieId(0))), t.ty, "a pattern");
                                }
                                keys.push(MatchKey::Face(f));
                            }
                            Some(other) => self.wrong_sort(n, other, "a variant or a die face"),
                            None => {}
                        }
                    }
                    let b = self.block(sc, body);
                    out.push((keys, b));
                }
            }
        }
        Stmt::Match(t.id, out, default)
    }

    fn call_stmt(&mut self, sc: &mut Scope, name: &ast::Ident, args: &[ast::Expr], span: ast::Span, is_phase: bool) -> Stmt {
        if !self.globals.contains_key(&name.name) {
            if let Some(r) = self.rule_meant(&name.name) {
                // `do do_jump(p)` for `do jump(p)`.
                let at = self.loc(name.span);
                self.error(Diagnostic::new(codes::UNKNOWN_NAME, format!("unknown rule `{}`", name.name), at, "no rule of this name").help(format!("did you mean `do {r}(...)`?")));
                return Stmt::Pass;
            }
        }
        let p = match self.lookup(name, &[]) {
            Some(Sym::Proc(p)) => p,
            Some(other) => {
                self.wrong_sort(name, other, if is_phase { "a phase" } else { "a rule" });
                return Stmt::Pass;
            }
            None => return Stmt::Pass,
        };
        let (kind, tys, declared) = match self.model.procs.get(p.idx()) {
            Some(proc_) => (proc_.kind, proc_.param_tys.clone(), proc_.at),
            None => return Stmt::Pass,
        };
        if kind == ProcKind::Trigger {
            let at = self.loc(name.span);
            self.error(Diagnostic::new(codes::WRONG_SORT, format!("`{}` is a trigger; triggers fire on events and cannot be called", name.name), at, "a trigger").help("move the shared part into a `rule` and call it from both"));
        }
        if is_phase && kind != ProcKind::Phase {
            let at = self.loc(name.span);
            self.error(Diagnostic::new(codes::WRONG_SORT, format!("`{}` is not a phase", name.name), at, "not a phase").help(format!("write `do {}(...)` to run a rule", name.name)));
        }
        if tys.len() != args.len() {
            let at = self.loc(span);
            // The declaration may be a module's replacement, in another
            // file than the call: both are shown.
            let d = Diagnostic::new(codes::ARITY, format!("`{}` takes {} argument(s), {} given", name.name, tys.len(), args.len()), at, "wrong number of arguments");
            self.error(d.related(declared, format!("`{}` declared here", name.name)));
        }
        let before = self.diags.len();
        let ids = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let want = tys.get(i).copied().unwrap_or(Ty::Any);
                self.expect(sc, a, want, &format!("argument {} of `{}`", i + 1, name.name))
            })
            .collect();
        self.show_declaration(before, declared, &name.name);
        Stmt::Call(p, ids)
    }

    /// The type named in a parameter or var declaration.
    pub(crate) fn type_named(&mut self, t: &ast::Ident) -> Ty {
        match t.name.as_str() {
            "int" => Ty::Int,
            "bool" => Ty::Bool,
            "player" => Ty::Player,
            "piece" | "card" | "token" => Ty::Piece(None),
            "space" | "zone" => Ty::Zone,
            "dir" => Ty::Dir,
            "face" | "any" => Ty::Any,
            _ => match self.lookup(t, &["int", "bool", "player", "piece", "space", "zone", "dir", "face"]) {
                Some(Sym::Kind(k)) => Ty::Piece(Some(k)),
                Some(Sym::Die(d)) => Ty::Face(d),
                Some(other) => {
                    self.wrong_sort(t, other, "a type");
                    Ty::Any
                }
                None => Ty::Any,
            },
        }
    }
}

