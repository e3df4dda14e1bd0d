//! Calls: the built-in functions (their arity, the sorts of their name
//! arguments and the types of their values) and the calls of a rulebook's
//! own functions.

use super::expr::{fits, Scope, Typed};
use super::{Resolver, Sym};
use crate::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, ExprKind, Quantifier};

/// Functions that exist only in a scenario's steps.
const SCENARIO_ONLY: &[&str] = &["sees", "won"];

impl Resolver {
    /// A name argument that must be of one sort (a track, a kind, a tag...).
    fn sym_arg(&mut self, args: &[ast::Expr], i: usize, wanted: &str) -> Option<Sym> {
        let arg = args.get(i)?;
        let ExprKind::Name(n) = &arg.kind else {
            let at = self.loc(arg.span);
            self.error(Diagnostic::new(codes::WRONG_SORT, format!("{wanted} is expected here, by name"), at, "not a name"));
            return None;
        };
        self.lookup(n, &[])
    }

    pub(crate) fn call(&mut self, sc: &mut Scope, name: &ast::Ident, args: &[ast::Expr], span: ast::Span) -> Typed {
        let arity = |r: &mut Self, n: usize| -> bool {
            if args.len() != n {
                let at = r.loc(span);
                r.error(Diagnostic::new(codes::ARITY, format!("`{}` takes {n} argument{}, {} given", name.name, if n == 1 { "" } else { "s" }, args.len()), at, "wrong number of arguments"));
                false
            } else {
                true
            }
        };
        if self.in_scenario {
            // Names of scenarios only: they hide the rulebook's own, as
            // `decider` and `winner` do.
            match name.name.as_str() {
                "sees" => {
                    if !arity(self, 2) {
                        return self.bad(span);
                    }
                    let (Some(who), Some(p)) = (args.first(), args.get(1)) else { return self.bad(span) };
                    let who = self.expect(sc, who, Ty::Player, "the player of `sees`");
                    let p = self.expect(sc, p, Ty::Piece(None), "the piece of `sees`");
                    return self.val(Expr::Sees(who, p), Ty::Bool, span);
                }
                "won" => {
                    if !arity(self, 1) {
                        return self.bad(span);
                    }
                    let Some(who) = args.first() else { return self.bad(span) };
                    let who = self.expect(sc, who, Ty::Player, "the player of `won`");
                    return self.val(Expr::Won(who), Ty::Bool, span);
                }
                _ => {}
            }
        }
        // A built-in added after a rulebook was written does not take its
        // own function's name away.
        if super::LATER_BUILTINS.contains(&name.name.as_str()) && matches!(self.globals.get(&name.name), Some((Sym::Fn(_), _))) {
            if let Some((Sym::Fn(f), _)) = self.globals.get(&name.name).copied() {
                return self.fn_call(sc, f, name, args, span);
            }
        }
        let simple: Option<(Builtin, &[Ty], Ty)> = match name.name.as_str() {
            "top" => Some((Builtin::Top, &[Ty::Zone], Ty::Piece(None))),
            "pos" => Some((Builtin::Pos, &[Ty::Piece(None)], Ty::Int)),
            "index" => Some((Builtin::Index, &[Ty::Zone], Ty::Int)),
            "zone_of" => Some((Builtin::ZoneOf, &[Ty::Piece(None)], Ty::Zone)),
            "owner" => Some((Builtin::Owner, &[Ty::Piece(None)], Ty::Player)),
            "holder" => Some((Builtin::Holder, &[Ty::Piece(None)], Ty::Player)),
            "next_player" => Some((Builtin::NextPlayer, &[Ty::Player, Ty::Dir], Ty::Player)),
            "abs" => Some((Builtin::Abs, &[Ty::Int], Ty::Int)),
            "min" => Some((Builtin::Min, &[Ty::Int, Ty::Int], Ty::Int)),
            "max" => Some((Builtin::Max, &[Ty::Int, Ty::Int], Ty::Int)),
            "opposite" => Some((Builtin::Opposite, &[Ty::Dir], Ty::Dir)),
            "player" => Some((Builtin::PlayerNo, &[Ty::Int], Ty::Player)),
            "seat" => Some((Builtin::Seat, &[Ty::Player], Ty::Int)),
            _ => None,
        };
        if let Some((b, tys, ret)) = simple {
            if !arity(self, tys.len()) {
                return self.bad(span);
            }
            let ids = args.iter().zip(tys).map(|(a, t)| self.expect(sc, a, *t, &format!("an argument of `{}`", name.name))).collect();
            return self.val(Expr::Call(b, ids), ret, span);
        }
        match name.name.as_str() {
            "count" => {
                if !arity(self, 1) {
                    return self.bad(span);
                }
                let Some(arg) = args.first() else { return self.bad(span) };
                let t = self.expr(sc, arg);
                if t.coll.is_some() {
                    let slot = sc.bind("", Ty::Any);
                    return self.val(Expr::Comp(Quantifier::Count, slot, t.id, None), Ty::Int, span);
                }
                if !fits(t.ty, Ty::Zone) {
                    self.type_error(arg.span, t.ty, Ty::Zone, "the argument of `count`");
                }
                self.val(Expr::Call(Builtin::Count, vec![t.id]), Ty::Int, span)
            }
            "tagged" => {
                if !arity(self, 2) {
                    return self.bad(span);
                }
                let s = args.first().map(|a| self.expect(sc, a, Ty::Zone, "the space of `tagged`"));
                match (s, self.sym_arg(args, 1, "a space type")) {
                    (Some(s), Some(Sym::Tag(t))) => self.val(Expr::Tagged(s, t), Ty::Bool, span),
                    (_, Some(other)) => self.sort_arg(args, 1, other, "a space type", span),
                    _ => self.bad(span),
                }
            }
            "space" => {
                if !arity(self, 2) {
                    return self.bad(span);
                }
                let i = args.get(1).map(|a| self.expect(sc, a, Ty::Int, "the index of `space`"));
                match (self.sym_arg(args, 0, "a track"), i) {
                    (Some(Sym::Track(t)), Some(i)) => self.val(Expr::Space(t, i), Ty::Zone, span),
                    (Some(other), _) => self.sort_arg(args, 0, other, "a track", span),
                    _ => self.bad(span),
                }
            }
            "spaces" => {
                if !arity(self, 1) {
                    return self.bad(span);
                }
                match self.sym_arg(args, 0, "a board") {
                    Some(Sym::Track(t)) => self.coll(Expr::Spaces(t), Ty::Zone, span),
                    Some(other) => self.sort_arg(args, 0, other, "a board (a track, grid or graph)", span),
                    None => self.bad(span),
                }
            }
            "pieces" => {
                if args.len() != 1 && args.len() != 2 {
                    let at = self.loc(span);
                    self.error(Diagnostic::new(codes::ARITY, format!("`pieces` takes 1 or 2 arguments, {} given", args.len()), at, "wrong number of arguments").help("`pieces(kind)` or `pieces(kind, player)`"));
                    return self.bad(span);
                }
                let owner = args.get(1).map(|a| self.expect(sc, a, Ty::Player, "the player of `pieces`"));
                match (self.sym_arg(args, 0, "a component kind"), owner) {
                    (Some(Sym::Kind(k)), None) => self.coll(Expr::Pieces(k), Ty::Piece(Some(k)), span),
                    (Some(Sym::Kind(k)), Some(p)) => {
                        if !self.model.kinds.get(k.idx()).is_some_and(|d| d.per_player) {
                            let at = self.loc(span);
                            let name = self.model.kinds.get(k.idx()).map(|d| d.name.clone()).unwrap_or_default();
                            self.error(Diagnostic::new(codes::WRONG_SORT, format!("`{name}` is not a per-player kind: its pieces belong to nobody"), at, "no owner").help(format!("write `pieces({name})`, or declare the kind `per_player`")));
                        }
                        self.coll(Expr::PiecesOf(k, p), Ty::Piece(Some(k)), span)
                    }
                    (Some(other), _) => self.sort_arg(args, 0, other, "a component kind", span),
                    (None, _) => self.bad(span),
                }
            }
            "step" => {
                if !arity(self, 3) {
                    return self.bad(span);
                }
                let ids: Vec<ExprId> = args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| self.expect(sc, a, if i == 0 { Ty::Zone } else { Ty::Int }, "an argument of `step`"))
                    .collect();
                match ids.as_slice() {
                    [z, dr, dc] => self.val(Expr::Step(*z, *dr, *dc), Ty::Zone, span),
                    _ => self.bad(span),
                }
            }
            "row" | "col" => {
                if !arity(self, 1) {
                    return self.bad(span);
                }
                let Some(arg) = args.first() else { return self.bad(span) };
                let z = self.expect(sc, arg, Ty::Zone, "the cell of `row` / `col`");
                self.val(if name.name == "row" { Expr::CellRow(z) } else { Expr::CellCol(z) }, Ty::Int, span)
            }
            "neighbors" => {
                if !arity(self, 1) {
                    return self.bad(span);
                }
                let Some(arg) = args.first() else { return self.bad(span) };
                let z = self.expect(sc, arg, Ty::Zone, "the space of `neighbors`");
                self.coll(Expr::Neighbors(z), Ty::Zone, span)
            }
            "line" => {
                if !arity(self, 3) {
                    return self.bad(span);
                }
                let ids: Vec<ExprId> = args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| self.expect(sc, a, if i == 0 { Ty::Zone } else { Ty::Int }, "an argument of `line`"))
                    .collect();
                match ids.as_slice() {
                    [z, dr, dc] => self.coll(Expr::Line(*z, *dr, *dc), Ty::Zone, span),
                    _ => self.bad(span),
                }
            }
            "linked" => {
                if args.len() != 2 && args.len() != 3 {
                    let at = self.loc(span);
                    self.error(Diagnostic::new(codes::ARITY, format!("`linked` takes 2 or 3 arguments, {} given", args.len()), at, "wrong number of arguments").help("`linked(a, b)` or `linked(a, b, road)`"));
                    return self.bad(span);
                }
                let a = args.first().map(|x| self.expect(sc, x, Ty::Zone, "a node of `linked`"));
                let b = args.get(1).map(|x| self.expect(sc, x, Ty::Zone, "a node of `linked`"));
                let tag = if args.len() == 3 {
                    match self.sym_arg(args, 2, "a space type") {
                        Some(Sym::Tag(t)) => Some(t),
                        Some(other) => return self.sort_arg(args, 2, other, "a space type", span),
                        None => return self.bad(span),
                    }
                } else {
                    None
                };
                match (a, b) {
                    (Some(a), Some(b)) => self.val(Expr::Linked(a, b, tag), Ty::Bool, span),
                    _ => self.bad(span),
                }
            }
            "cell" => {
                if !arity(self, 3) {
                    return self.bad(span);
                }
                let r = args.get(1).map(|a| self.expect(sc, a, Ty::Int, "the row of `cell`"));
                let c = args.get(2).map(|a| self.expect(sc, a, Ty::Int, "the column of `cell`"));
                match (self.sym_arg(args, 0, "a grid"), r, c) {
                    // A track or a graph has no rows and columns: `none`
                    // for every cell would hide the mistake.
                    (Some(Sym::Track(t)), _, _) if !matches!(self.model.tracks.get(t.idx()).map(|d| d.shape), Some(Shape::Grid { .. })) => {
                        let (name, word) = match self.model.tracks.get(t.idx()) {
                            Some(d) if d.shape == Shape::Graph => (d.name.clone(), "a graph"),
                            Some(d) => (d.name.clone(), "a track"),
                            None => (String::new(), "a board"),
                        };
                        let at = args.first().map_or(self.loc(span), |a| self.loc(a.span));
                        self.error(Diagnostic::new(codes::WRONG_SORT, format!("`{name}` is {word}, but a grid is expected here"), at, "expected a grid").help(format!("`cell(GRID, row, column)` names a cell of a `grid`; a space of {word} is `space({name}, n)`")));
                        self.bad(span)
                    }
                    (Some(Sym::Track(t)), Some(r), Some(c)) => self.val(Expr::Cell(t, r, c), Ty::Zone, span),
                    (Some(other), _, _) => self.sort_arg(args, 0, other, "a grid", span),
                    _ => self.bad(span),
                }
            }
            "leader" | "rearmost" => {
                if !arity(self, 2) {
                    return self.bad(span);
                }
                match (self.sym_arg(args, 0, "a track"), self.sym_arg(args, 1, "a component kind")) {
                    (Some(Sym::Track(t)), Some(Sym::Kind(k))) => {
                        let e = if name.name == "leader" { Expr::Leader(t, k) } else { Expr::Rearmost(t, k) };
                        self.val(e, Ty::Piece(Some(k)), span)
                    }
                    (Some(Sym::Track(_)), Some(other)) => self.sort_arg(args, 1, other, "a component kind", span),
                    (Some(other), _) => self.sort_arg(args, 0, other, "a track", span),
                    _ => self.bad(span),
                }
            }
            "enabled" => {
                if !arity(self, 1) {
                    return self.bad(span);
                }
                match self.sym_arg(args, 0, "an option") {
                    Some(Sym::Option(o)) => self.val(Expr::Enabled(o), Ty::Bool, span),
                    Some(other) => self.sort_arg(args, 0, other, "an option", span),
                    None => self.bad(span),
                }
            }
            "is" => {
                if !arity(self, 2) {
                    return self.bad(span);
                }
                let p = args.first().map(|a| self.expect(sc, a, Ty::Piece(None), "the first argument of `is`"));
                // Only a variant or a kind can stand second: an unknown
                // name is suggested one of those, not a built-in.
                let variants_and_kinds = |m: &Model| ("the variants and kinds are".to_string(), m.variants.iter().map(|v| v.name.clone()).chain(m.kinds.iter().map(|k| k.name.clone())).collect());
                let second = match args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Name(n)) => self.lookup_among(n, &variants_and_kinds),
                    _ => self.sym_arg(args, 1, "a variant or a component kind"),
                };
                match (p, second) {
                    (Some(p), Some(Sym::Variant(v))) => self.val(Expr::Is(p, v), Ty::Bool, span),
                    (Some(p), Some(Sym::Kind(k))) => self.val(Expr::IsKind(p, k), Ty::Bool, span),
                    (_, Some(other)) => self.sort_arg(args, 1, other, "a variant or a component kind", span),
                    _ => self.bad(span),
                }
            }
            _ => {
                let builtins: Vec<&str> = super::BUILTIN_NAMES.iter().chain(super::LATER_BUILTINS).copied().collect();
                match self.globals.get(&name.name).map(|(s, _)| *s) {
                    Some(Sym::Table(t)) => {
                        if !arity(self, 1) {
                            return self.bad(span);
                        }
                        let Some(arg) = args.first() else { return self.bad(span) };
                        let k = self.expect(sc, arg, Ty::Int, "the key of a table");
                        self.val(Expr::Row(t, k), Ty::Row(t), span)
                    }
                    Some(Sym::Fn(f)) => self.fn_call(sc, f, name, args, span),
                    Some(other) => {
                        self.wrong_sort(name, other, "a function or a table");
                        self.bad(span)
                    }
                    None => {
                        let at = self.loc(name.span);
                        let mut d = Diagnostic::new(codes::UNKNOWN_NAME, format!("unknown function `{}`", name.name), at, "not a function");
                        let callable: Vec<&str> = self.globals.iter().filter(|(_, (s, _))| matches!(s, Sym::Table(_) | Sym::Fn(_))).map(|(n, _)| n.as_str()).collect();
                        if let Some(help) = self.removed_help(&name.name) {
                            d = d.help(help);
                        } else if SCENARIO_ONLY.contains(&name.name.as_str()) {
                            d = d.help(format!("`{}` exists only in a scenario's steps, to check what the rules did (docs/language.md, \"Scenarios\")", name.name));
                        } else if let Some(s) = did_you_mean(&name.name, builtins.iter().copied().chain(callable.iter().copied())) {
                            d = d.help(format!("did you mean `{s}`?"));
                        } else if let Some(r) = self.rule_meant(&name.name) {
                            // `do_jump(...)` or `jmp(...)` for the rule `jump`.
                            d = d.help(format!("`{r}` is a rule, and a rule gives no value: run it with `do {r}(...)` as a statement (it may set a var or a counter), or write a `fn` for the value"));
                        } else {
                            d = d.help("no function, table or built-in has this name: declare a function with `fn NAME(PARAMS) = EXPR`; to run a rule, write `do rule_name(args)` as a statement (a rule gives no value)");
                        }
                        self.error(d);
                        self.bad(span)
                    }
                }
            }
        }
    }

    /// A call of a function of the rulebook.
    fn fn_call(&mut self, sc: &mut Scope, f: FnId, name: &ast::Ident, args: &[ast::Expr], span: ast::Span) -> Typed {
        let (tys, ret, declared) = self.model.fns.get(f.idx()).map(|d| (d.param_tys.clone(), d.ty, Some(d.at))).unwrap_or((Vec::new(), Ty::Any, None));
        if args.len() != tys.len() {
            let at = self.loc(span);
            let n = tys.len();
            let mut d = Diagnostic::new(codes::ARITY, format!("`{}` takes {n} argument{}, {} given", name.name, if n == 1 { "" } else { "s" }, args.len()), at, "wrong number of arguments");
            if let Some(declared) = declared {
                d = d.related(declared, format!("`{}` declared here", name.name));
            }
            self.error(d);
            return self.bad(span);
        }
        let before = self.diags.len();
        let ids = args.iter().zip(&tys).map(|(a, t)| self.expect(sc, a, *t, &format!("an argument of `{}`", name.name))).collect();
        if let Some(declared) = declared {
            self.show_declaration(before, declared, &name.name);
        }
        self.val(Expr::CallFn(f, ids), ret, span)
    }

    /// An argument of the wrong type, found since diagnostic `before`, is
    /// shown beside the declaration of what it is passed to: a module's
    /// replacement may have changed its parameters, in another file than
    /// the call (an outside rule author saw the base's call blamed, and no
    /// word of the module).
    pub(crate) fn show_declaration(&mut self, before: usize, declared: Loc, name: &str) {
        for d in self.diags.iter_mut().skip(before) {
            let of_this_call = d.message.contains(&format!(" of `{name}` "));
            if d.code == codes::TYPE && of_this_call {
                d.relate_once(declared, format!("`{name}` declared here"));
            }
        }
    }

    fn sort_arg(&mut self, args: &[ast::Expr], i: usize, got: Sym, wanted: &str, span: ast::Span) -> Typed {
        if let Some(ast::Expr { kind: ExprKind::Name(n), .. }) = args.get(i) {
            self.wrong_sort(n, got, wanted);
        }
        self.bad(span)
    }
}
