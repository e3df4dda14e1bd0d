//! Expressions: names to ids, with static types and collection checks.

use super::{Resolver, Sym};
use crate::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, BinOp, ExprKind, Quantifier};

/// Locals visible in a procedure body. Slots are never reused, so a
/// procedure's frame size is the number of names it ever binds.
#[derive(Default)]
pub(crate) struct Scope {
    names: Vec<(String, u16, Ty)>,
    pub(crate) next: u16,
}

impl Scope {
    pub(crate) fn bind(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.names.push((name.to_string(), slot, ty));
        slot
    }
    pub(crate) fn mark(&self) -> usize {
        self.names.len()
    }
    pub(crate) fn reset(&mut self, mark: usize) {
        self.names.truncate(mark);
    }
    /// The name bound to a slot, if it is still in scope.
    pub(crate) fn name_of(&self, slot: u16) -> Option<&str> {
        self.names.iter().rev().find(|(_, s, _)| *s == slot).map(|(n, _, _)| n.as_str())
    }
    fn get(&self, name: &str) -> Option<(u16, Ty)> {
        self.names.iter().rev().find(|(n, _, _)| n == name).map(|(_, s, t)| (*s, *t))
    }
    fn all(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|(n, _, _)| n.as_str())
    }
}

/// The names every rulebook has: each one's expression and type, and
/// whether it is a collection (of that type).
fn built_in_name(name: &str) -> Option<(Expr, Ty, bool)> {
    Some(match name {
        "actor" => (Expr::Actor, Ty::Player, false),
        "players" => (Expr::Players, Ty::Player, true),
        "player_count" => (Expr::PlayerCount, Ty::Int, false),
        "round_number" => (Expr::RoundNumber, Ty::Int, false),
        "box" => (Expr::Box, Ty::Zone, false),
        "clockwise" => (Expr::Dir(1), Ty::Dir, false),
        "counterclockwise" => (Expr::Dir(-1), Ty::Dir, false),
        _ => return None,
    })
}

/// A compiled expression with its static type; `coll` is the element type
/// when the expression is a collection.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Typed {
    pub(crate) id: ExprId,
    pub(crate) ty: Ty,
    pub(crate) coll: Option<Ty>,
}

pub(crate) fn fits(actual: Ty, expected: Ty) -> bool {
    match (actual, expected) {
        (Ty::Any, _) | (_, Ty::Any) => true,
        (Ty::Piece(a), Ty::Piece(b)) => a.is_none() || b.is_none() || a == b,
        (a, b) => a == b,
    }
}

pub(crate) fn ty_name(t: Ty) -> &'static str {
    match t {
        Ty::Any => "anything",
        Ty::Int => "a number",
        Ty::Bool => "a truth value",
        Ty::Player => "a player",
        Ty::Piece(_) => "a piece",
        Ty::Zone => "a zone",
        Ty::Face(_) => "a die face",
        Ty::Variant(_) => "a variant",
        Ty::Dir => "a direction",
        Ty::Row(_) => "a table row",
    }
}

impl Resolver {
    pub(crate) fn push_expr(&mut self, e: Expr, span: ast::Span) -> ExprId {
        let id = ExprId(self.model.exprs.len() as u32);
        self.model.exprs.push(e);
        let at = self.loc(span);
        self.model.expr_at.push(at);
        id
    }

    pub(crate) fn bad(&mut self, span: ast::Span) -> Typed {
        Typed { id: self.push_expr(Expr::None, span), ty: Ty::Any, coll: None }
    }

    pub(crate) fn val(&mut self, e: Expr, ty: Ty, span: ast::Span) -> Typed {
        Typed { id: self.push_expr(e, span), ty, coll: None }
    }

    pub(crate) fn coll(&mut self, e: Expr, elem: Ty, span: ast::Span) -> Typed {
        Typed { id: self.push_expr(e, span), ty: Ty::Any, coll: Some(elem) }
    }

    pub(crate) fn type_error(&mut self, span: ast::Span, got: Ty, want: Ty, what: &str) {
        let at = self.loc(span);
        let (want_name, got_name) = match (want, got) {
            // Two pieces of different kinds: "a piece, found a piece" says nothing.
            (Ty::Piece(Some(w)), Ty::Piece(Some(g))) => (self.piece_of(w), self.piece_of(g)),
            _ => (ty_name(want).to_string(), ty_name(got).to_string()),
        };
        let mut d = Diagnostic::new(codes::TYPE, format!("{what} must be {want_name}, found {got_name}"), at, format!("{got_name} here"));
        if let (Ty::Piece(_), Ty::Variant(k)) = (want, got) {
            // `h5` for the one card of that variant: say why this variant
            // names no piece here.
            let (kind, per_player) = self.model.kinds.get(k.idx()).map_or(("?", false), |d| (d.name.as_str(), d.per_player));
            let why = if per_player {
                format!("a variant of the `per_player` kind `{kind}` is one piece per player: name a player's with `first x in pieces({kind}, p) where is(x, VARIANT)`")
            } else {
                format!("a variant names a sort of `{kind}`: only one counted once (`x1`), written by its name where a piece is expected, names its piece; else name a piece with `first x in pieces({kind}) where is(x, VARIANT)`")
            };
            d = d.help(why);
        }
        self.error(d);
    }

    /// "a piece of kind `k`".
    pub(crate) fn piece_of(&self, k: KindId) -> String {
        format!("a piece of kind `{}`", self.model.kinds.get(k.idx()).map_or("?", |d| d.name.as_str()))
    }

    /// A single value of the expected type.
    pub(crate) fn expect(&mut self, sc: &mut Scope, e: &ast::Expr, want: Ty, what: &str) -> ExprId {
        let t = self.expr(sc, e);
        if t.coll.is_some() {
            let at = self.loc(e.span);
            self.error(Diagnostic::new(codes::COLLECTION, format!("{what} must be a single value, not a collection"), at, "a collection").help("use `count x in ...`, `first x in ...` or `any x in ...` to get one value"));
        } else if let Some(piece) = self.the_one_of_variant(&t, want, e.span) {
            return piece;
        } else if !fits(t.ty, want) {
            self.type_error(e.span, t.ty, want, what);
            // A call of a `fn` of the wrong type is shown beside the `fn`: a
            // module's replacement may have changed what it gives, in
            // another file than the call.
            if let ExprKind::Call(name, _) = &e.kind {
                if let Some((Sym::Fn(f), _)) = self.globals.get(&name.name).copied() {
                    let declared = self.model.fns.get(f.idx()).map(|d| d.at);
                    if let (Some(declared), Some(d)) = (declared, self.diags.last_mut()) {
                        d.relate_once(declared, format!("`{}` declared here", name.name));
                    }
                }
            }
            // `if count x in C where P { ... }`: a count where a truth value
            // is wanted, most often missing its comparison.
            if let (Ty::Bool, Ty::Int, ExprKind::Comprehension { q, .. }) = (want, t.ty, &e.kind) {
                let form = match q {
                    Quantifier::Count | Quantifier::CountWhile => Some("count x in C where P"),
                    Quantifier::Sum => Some("sum x in C of E"),
                    Quantifier::Max => Some("max x in C of E"),
                    Quantifier::Min => Some("min x in C of E"),
                    _ => None,
                };
                if let (Some(form), Some(d)) = (form, self.diags.last_mut().filter(|d| d.help.is_none())) {
                    d.help = Some(format!("`{form}` is a number: compare it, with the comprehension in parentheses, `({form}) > 0`; for a truth value, `any x in C where P`"));
                }
            }
        }
        t.id
    }

    /// A variant counted once (`x1`) of a kind that is not `per_player`,
    /// named where a piece of its kind is expected, names that one piece
    /// (`move ace to hand[p]`), as a kind of a single piece does. Anywhere
    /// else the name stays the variant (`is(c, ace)`, `c == ace`, `match`).
    fn the_one_of_variant(&mut self, t: &Typed, want: Ty, span: ast::Span) -> Option<ExprId> {
        let (Ty::Variant(k), Ty::Piece(wanted), None) = (t.ty, want, t.coll) else { return None };
        let Expr::Variant(v) = *self.model.expr(t.id) else { return None };
        let once = self.model.variants.get(v.idx()).is_some_and(|d| d.count == 1);
        let shared = self.model.kinds.get(k.idx()).is_some_and(|d| !d.per_player);
        (once && shared && wanted.is_none_or(|w| w == k)).then(|| self.push_expr(Expr::PieceOfVariant(v), span))
    }

    /// A collection; a zone counts as the collection of its pieces.
    pub(crate) fn collection(&mut self, sc: &mut Scope, e: &ast::Expr) -> (ExprId, Ty) {
        let t = self.expr(sc, e);
        if let Some(elem) = t.coll {
            return (t.id, elem);
        }
        if fits(t.ty, Ty::Zone) {
            let id = self.push_expr(Expr::Contents(t.id), e.span);
            // A value of unknown type (one whose error was reported, such
            // as an unknown name) has items of unknown type: taking them
            // for pieces made every later use of them an error too.
            let item = if t.ty == Ty::Any { Ty::Any } else { Ty::Piece(None) };
            return (id, item);
        }
        let at = self.loc(e.span);
        self.error(Diagnostic::new(codes::COLLECTION, format!("a collection is needed here, found {}", ty_name(t.ty)), at, "not a collection").help("a zone, `players`, a range `a..b`, a list `[a, b]`, `spaces(track)`, `pieces(kind)` or `[x in C where P]`"));
        (t.id, Ty::Any)
    }

    pub(crate) fn expr(&mut self, sc: &mut Scope, e: &ast::Expr) -> Typed {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(n) => self.val(Expr::Int(*n), Ty::Int, span),
            ExprKind::Bool(b) => self.val(Expr::Bool(*b), Ty::Bool, span),
            ExprKind::None => self.val(Expr::None, Ty::Any, span),
            ExprKind::Str(_) => {
                let at = self.loc(span);
                self.error(Diagnostic::new(codes::TYPE, "a string cannot be used as a value", at, "string").help("strings are only labels: `prompt \"...\"`, `cite \"...\"`"));
                self.bad(span)
            }
            ExprKind::Name(n) => self.name(sc, n),
            ExprKind::Index(base, idx) => self.index(sc, base, idx, span),
            ExprKind::Field(base, field) => {
                let reported = self.diags.len();
                let b = self.expr(sc, base);
                // A base already reported (`a().x.x`, an unknown name) has
                // no type to look the field up in: one mistake, one
                // diagnostic, not one more per `.field` after it.
                if b.ty == Ty::Any && self.diags.len() > reported && matches!(self.model.expr(b.id), Expr::None) {
                    return self.bad(span);
                }
                match b.ty {
                    Ty::Row(t) => {
                        let col = self.model.tables.get(t.idx()).and_then(|tab| tab.columns.iter().position(|c| *c == field.name));
                        match col {
                            Some(c) => self.val(Expr::Column(b.id, c as u16), Ty::Int, span),
                            None => {
                                let at = self.loc(field.span);
                                let (name, cols) = self.model.tables.get(t.idx()).map(|t| (t.name.clone(), t.columns.clone())).unwrap_or_default();
                                let mut d = Diagnostic::new(codes::UNKNOWN_NAME, format!("the table `{name}` has no column `{}`", field.name), at, "unknown column");
                                let listed = cols.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
                                d = match did_you_mean(&field.name, cols.iter().map(String::as_str)) {
                                    Some(s) => d.help(format!("did you mean `{s}`? Its columns are {listed}")),
                                    None => d.help(format!("its columns are {listed}")),
                                };
                                // Shown beside the table: a module that replaced it
                                // with other columns leaves the base's reads behind.
                                if let Some((_, declared)) = self.globals.get(&name) {
                                    d = d.related(*declared, format!("`{name}` declared here"));
                                }
                                self.error(d);
                                self.bad(span)
                            }
                        }
                    }
                    Ty::Piece(_) | Ty::Any | Ty::Variant(_) => match self.attrs.get(&field.name) {
                        Some(a) => self.val(Expr::Attr(b.id, *a), Ty::Int, span),
                        None => {
                            let at = self.loc(field.span);
                            let names: Vec<String> = self.attrs.keys().cloned().collect();
                            let mut d = Diagnostic::new(codes::UNKNOWN_NAME, format!("no component has an attribute `{}`", field.name), at, "unknown attribute");
                            if let Some(s) = did_you_mean(&field.name, names.iter().map(String::as_str)) {
                                d = d.help(format!("did you mean `{s}`?"));
                            }
                            self.error(d);
                            self.bad(span)
                        }
                    },
                    other => {
                        self.type_error(base.span, other, Ty::Piece(None), "the left of `.`");
                        self.bad(span)
                    }
                }
            }
            ExprKind::Call(name, args) => self.call(sc, name, args, span),
            ExprKind::Binary(op, a, b) => self.binary(sc, *op, a, b, span),
            ExprKind::Neg(a) => {
                let a = self.expect(sc, a, Ty::Int, "the operand of `-`");
                self.val(Expr::Neg(a), Ty::Int, span)
            }
            ExprKind::Not(a) => {
                let a = self.expect(sc, a, Ty::Bool, "the operand of `not`");
                self.val(Expr::Not(a), Ty::Bool, span)
            }
            ExprKind::If(c, a, b) => self.conditional(sc, c, a, b, span),
            ExprKind::Range(a, b) => {
                let a = self.expect(sc, a, Ty::Int, "a range bound");
                let b = self.expect(sc, b, Ty::Int, "a range bound");
                self.coll(Expr::Range(a, b), Ty::Int, span)
            }
            ExprKind::List(items) => {
                if let [item] = &items[..] {
                    if let Some(bad) = self.filter_without_where(sc, item, span) {
                        return bad;
                    }
                }
                let mut ids = Vec::new();
                let mut elem = Ty::Any;
                for (i, it) in items.iter().enumerate() {
                    let t = self.expr(sc, it);
                    if i == 0 {
                        elem = t.ty;
                    } else if !fits(t.ty, elem) {
                        self.type_error(it.span, t.ty, elem, "every element of a list");
                    }
                    ids.push(t.id);
                }
                self.coll(Expr::List(ids), elem, span)
            }
            ExprKind::Region { var, start, cond } => {
                let s = self.expect(sc, start, Ty::Zone, "the start of a region");
                let mark = sc.mark();
                let slot = sc.bind(&var.name, Ty::Zone);
                let c = self.expect(sc, cond, Ty::Bool, "the `where` condition of a region");
                sc.reset(mark);
                self.coll(Expr::Region(slot, s, c), Ty::Zone, span)
            }
            ExprKind::InARow { var, through, cond } => {
                let c = self.expect(sc, through, Ty::Zone, "the cell of `in_a_row`");
                let mark = sc.mark();
                let slot = sc.bind(&var.name, Ty::Zone);
                let p = self.expect(sc, cond, Ty::Bool, "the `where` condition of `in_a_row`");
                sc.reset(mark);
                self.val(Expr::InARow(slot, c, p), Ty::Int, span)
            }
            ExprKind::Comprehension { q, var, coll, body } => {
                let (c, elem) = self.collection(sc, coll);
                let mark = sc.mark();
                let slot = sc.bind(&var.name, elem);
                let value_body = matches!(q, Quantifier::Sum | Quantifier::Max | Quantifier::Min);
                let b = body.as_ref().map(|b| {
                    if value_body {
                        self.expect(sc, b, Ty::Int, "the value of a sum, max or min")
                    } else {
                        self.expect(sc, b, Ty::Bool, "the `where` condition")
                    }
                });
                sc.reset(mark);
                if value_body && b.is_none() {
                    let at = self.loc(span);
                    self.error(Diagnostic::new(codes::TYPE, "`sum`, `max` and `min` need `of EXPR`", at, "no value").help("write `sum x in C of x.value`"));
                }
                let comp = Expr::Comp(*q, slot, c, b);
                match q {
                    Quantifier::Count | Quantifier::CountWhile | Quantifier::Sum | Quantifier::Max | Quantifier::Min => self.val(comp, Ty::Int, span),
                    Quantifier::Any | Quantifier::All => self.val(comp, Ty::Bool, span),
                    Quantifier::First => self.val(comp, elem, span),
                    Quantifier::Filter | Quantifier::FilterWhile => self.coll(comp, elem, span),
                }
            }
        }
    }

    /// `[s in C]` with `s` a new name: meant as "the items of C", it
    /// reads as a list of one truth value (is `s` in `C`?), and the
    /// unknown `s` would be the only thing said. Said here with the two
    /// forms that mean it; `None` when `s` is a name in scope (the list
    /// of one truth value is what was written).
    fn filter_without_where(&mut self, sc: &Scope, item: &ast::Expr, span: ast::Span) -> Option<Typed> {
        let ExprKind::Binary(BinOp::In, x, _) = &item.kind else { return None };
        let ExprKind::Name(n) = &x.kind else { return None };
        let known = sc.get(&n.name).is_some() || self.globals.contains_key(&n.name) || built_in_name(&n.name).is_some();
        if known {
            return None;
        }
        let at = self.loc(n.span);
        let message = format!("unknown name `{}`: `[{} in ...]` without `where` is a list of one truth value, not the items of a collection", n.name, n.name);
        let help = format!("to take every item of the collection, write the collection itself; to keep some of them, `[{} in ... where CONDITION]`", n.name);
        self.error(Diagnostic::new(codes::UNKNOWN_NAME, message, at, "not a name in scope").help(help));
        Some(self.bad(span))
    }

    /// A name: a local, a [`built_in_name`], or a declaration.
    fn name(&mut self, sc: &mut Scope, n: &ast::Ident) -> Typed {
        let span = n.span;
        if let Some((slot, ty)) = sc.get(&n.name) {
            return self.val(Expr::Local(slot), ty, span);
        }
        match built_in_name(&n.name) {
            Some((e, ty, true)) => return self.coll(e, ty, span),
            Some((e, ty, false)) => return self.val(e, ty, span),
            None => {}
        }
        let locals: Vec<String> = sc.all().map(str::to_string).collect();
        let extra: Vec<&str> = locals.iter().map(String::as_str).collect();
        let Some(sym) = self.lookup(n, &extra) else { return self.bad(span) };
        match sym {
            Sym::Zone(z) => {
                if self.model.zones.get(z.idx()).map(|d| d.mult) == Some(ZoneMult::Single) {
                    self.val(Expr::Zone(z, None), Ty::Zone, span)
                } else {
                    self.needs_index(n, "zone", "hand[p]");
                    self.bad(span)
                }
            }
            Sym::Var(v) => {
                let (per, ty) = self.model.vars.get(v.idx()).map(|d| (d.per_player || d.per_piece.is_some(), d.ty)).unwrap_or((false, Ty::Any));
                if per {
                    self.needs_index(n, "var", "curse[p]");
                }
                self.val(Expr::Var(v, None), ty, span)
            }
            Sym::Counter(c) => {
                if self.model.counters.get(c.idx()).is_some_and(|d| d.per_player || d.per_piece.is_some()) {
                    self.needs_index(n, "counter", "vp[p]");
                }
                self.val(Expr::Counter(c, None), Ty::Int, span)
            }
            Sym::Kind(k) => {
                let (count, per) = self.model.kinds.get(k.idx()).map(|d| (d.count, d.per_player)).unwrap_or((0, false));
                if count == 1 && !per {
                    self.val(Expr::PieceOf(k, None), Ty::Piece(Some(k)), span)
                } else if count == 1 {
                    self.needs_index(n, "component", "knight[p]");
                    self.bad(span)
                } else {
                    let at = self.loc(span);
                    self.error(Diagnostic::new(codes::WRONG_SORT, format!("`{}` names {} pieces, not one", n.name, if per { "several players'" } else { "several" }), at, "not one piece").help(format!("use `pieces({})` for all of them, or a zone that holds them", n.name)));
                    self.bad(span)
                }
            }
            Sym::Variant(v) => {
                let k = self.model.variants.get(v.idx()).map(|d| d.kind).unwrap_or(KindId(0));
                self.val(Expr::Variant(v), Ty::Variant(k), span)
            }
            Sym::Node(t, i) => self.val(Expr::Node(t, i), Ty::Zone, span),
            Sym::Face(f) => {
                let d = self.model.faces.get(f.idx()).map(|d| d.die).unwrap_or(DieId(0));
                self.val(Expr::Face(f), Ty::Face(d), span)
            }
            other => {
                self.wrong_sort(n, other, "a value");
                self.bad(span)
            }
        }
    }

    fn needs_index(&mut self, n: &ast::Ident, what: &str, example: &str) {
        let at = self.loc(n.span);
        self.error(Diagnostic::new(codes::WRONG_SORT, format!("the {what} `{}` has one per player or per space; say whose", n.name), at, "which one?").help(format!("write it with an index, like `{example}`")));
    }

    /// `x[i]` of a var or counter that holds one value for the whole game:
    /// the index would select nothing. (It once read or wrote the value
    /// declared after it.) The declaration is shown: a module that replaced
    /// a per-player declaration by a single one leaves the base's indexed
    /// uses behind, in another file.
    fn single_indexed(&mut self, n: &ast::Ident, what: &str, idx: &ast::Expr, span: ast::Span) -> Typed {
        let at = self.loc(idx.span);
        let mut d = Diagnostic::new(codes::WRONG_SORT, format!("the {what} `{}` holds one value for the whole game and takes no index", n.name), at, "no index needed")
            .help(format!("write `{0}`, or declare it `{what} {0} per_player ...` to keep one value per player", n.name));
        if let Some((_, declared)) = self.globals.get(&n.name) {
            d = d.related(*declared, format!("`{}` declared here", n.name));
        }
        self.error(d);
        self.bad(span)
    }

    fn index(&mut self, sc: &mut Scope, base: &ast::Expr, idx: &ast::Expr, span: ast::Span) -> Typed {
        let ExprKind::Name(n) = &base.kind else {
            let at = self.loc(base.span);
            self.error(Diagnostic::new(codes::WRONG_SORT, "only a per-player or per-space zone, var, counter or piece can be indexed", at, "cannot index this"));
            return self.bad(span);
        };
        let Some(sym) = self.lookup(n, &[]) else { return self.bad(span) };
        match sym {
            Sym::Zone(z) => {
                let mult = self.model.zones.get(z.idx()).map(|d| d.mult).unwrap_or(ZoneMult::Single);
                let i = match mult {
                    ZoneMult::PerPlayer => self.expect(sc, idx, Ty::Player, "the index of a per-player zone"),
                    ZoneMult::PerSpace(_) => self.expect(sc, idx, Ty::Zone, "the index of a per-space zone (a space)"),
                    ZoneMult::Single => {
                        let at = self.loc(idx.span);
                        self.error(Diagnostic::new(codes::WRONG_SORT, format!("the zone `{}` is a single zone and takes no index", n.name), at, "no index needed").help(format!("write `{}`", n.name)));
                        return self.bad(span);
                    }
                };
                self.val(Expr::Zone(z, Some(i)), Ty::Zone, span)
            }
            Sym::Var(v) => {
                let (ty, per_player, per_piece) = self.model.vars.get(v.idx()).map(|d| (d.ty, d.per_player, d.per_piece)).unwrap_or((Ty::Any, true, None));
                let i = match per_piece {
                    Some(k) => self.expect(sc, idx, Ty::Piece(Some(k)), "the index of a per-piece var"),
                    None if per_player => self.expect(sc, idx, Ty::Player, "the index of a per-player var"),
                    None => return self.single_indexed(n, "var", idx, span),
                };
                self.val(Expr::Var(v, Some(i)), ty, span)
            }
            Sym::Counter(c) => {
                let (per_player, per_piece) = self.model.counters.get(c.idx()).map(|d| (d.per_player, d.per_piece)).unwrap_or((true, None));
                let i = match per_piece {
                    Some(k) => self.expect(sc, idx, Ty::Piece(Some(k)), "the index of a per-piece counter"),
                    None if per_player => self.expect(sc, idx, Ty::Player, "the index of a per-player counter"),
                    None => return self.single_indexed(n, "counter", idx, span),
                };
                self.val(Expr::Counter(c, Some(i)), Ty::Int, span)
            }
            Sym::Kind(k) if self.model.kinds.get(k.idx()).is_some_and(|d| d.per_player && d.count == 1) => {
                let i = self.expect(sc, idx, Ty::Player, "the index of a player's piece");
                self.val(Expr::PieceOf(k, Some(i)), Ty::Piece(Some(k)), span)
            }
            // A kind of several pieces (each player's, or shared): `k[p]`
            // would not say which one.
            Sym::Kind(k) => {
                let (count, per_player) = self.model.kinds.get(k.idx()).map(|d| (d.count, d.per_player)).unwrap_or((0, false));
                let at = self.loc(n.span);
                let whose = if per_player { format!("each player has {count} of them") } else { format!("the game has {count}, of nobody") };
                let pick = match (per_player, count) {
                    (true, _) => format!("`first m in pieces({0}, p) where ...` names one of a player's, `move N of {0} from ZONE to ZONE` moves several", n.name),
                    (false, 1) => format!("the game's one `{0}` is written `{0}`, with no index", n.name),
                    (false, _) => format!("`first m in pieces({0}) where ...` names one, `move N of {0} from ZONE to ZONE` moves several", n.name),
                };
                self.error(
                    Diagnostic::new(codes::WRONG_SORT, format!("`{}[...]` names a player's only piece of the kind, and {whose}", n.name), at, "which one?")
                        .help(format!("{pick}; `{}[p]` is for a kind of one piece per player (`piece {} per_player 1`)", n.name, n.name)),
                );
                self.bad(span)
            }
            other => {
                self.wrong_sort(n, other, "a per-player or per-space zone, var, counter or piece");
                self.bad(span)
            }
        }
    }

    /// `if C { A } else { B }`: its type is its branches' (`none` in one
    /// takes the other's); a collection cannot be chosen (a value is).
    fn conditional(&mut self, sc: &mut Scope, c: &ast::Expr, a: &ast::Expr, b: &ast::Expr, span: ast::Span) -> Typed {
        let c = self.expect(sc, c, Ty::Bool, "the condition of `if`");
        let (x, y) = (self.expr(sc, a), self.expr(sc, b));
        for (t, side) in [(&x, a), (&y, b)] {
            if t.coll.is_some() {
                let at = self.loc(side.span);
                self.error(
                    Diagnostic::new(codes::COLLECTION, "a branch of `if C { A } else { B }` must be a single value, not a collection", at, "a collection")
                        .help("choose the collection where it is walked: `for x in C where COND`, `[x in C where COND]`"),
                );
                return self.bad(span);
            }
        }
        let ty = match (x.ty, y.ty) {
            (Ty::Any, t) | (t, Ty::Any) => t,
            // A piece of a kind the expression does not know (`top(z)`)
            // is a piece of the other's kind as far as typing goes, as it
            // is everywhere; two known kinds must agree, as other types do.
            (Ty::Piece(None), Ty::Piece(k)) | (Ty::Piece(k), Ty::Piece(None)) => Ty::Piece(k),
            (t, u) if t == u => t,
            (t, u) => {
                self.type_error(b.span, u, t, "the `else` value of `if`, like its first value,");
                t
            }
        };
        self.val(Expr::If(c, x.id, y.id), ty, span)
    }

    /// `a == b > 0`: a comparison whose left operand is a comparison, which
    /// is a truth value. Most often a comprehension's `where` took in the
    /// comparison meant for its count (`count x in C where P > 2`): the
    /// type error (since diagnostic `before`) says how to write it.
    fn comparisons_do_not_chain(&mut self, before: usize, a: &ast::Expr) {
        let compared = matches!(a.kind, ExprKind::Binary(BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, ..));
        if !compared {
            return;
        }
        let at = self.loc(a.span);
        let help = "comparisons do not chain: `a == b > c` compares the truth value `a == b`. If a comprehension's `where` took in the comparison meant for it, put the comprehension in parentheses: `(count x in C where P) > 2`";
        for d in self.diags.iter_mut().skip(before) {
            if d.code == codes::TYPE && d.at == at && d.help.is_none() {
                d.help = Some(help.to_string());
            }
        }
    }

    fn binary(&mut self, sc: &mut Scope, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: ast::Span) -> Typed {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let x = self.expect(sc, a, Ty::Int, "an operand of arithmetic");
                let y = self.expect(sc, b, Ty::Int, "an operand of arithmetic");
                self.val(Expr::Bin(op, x, y), Ty::Int, span)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let before = self.diags.len();
                let x = self.expect(sc, a, Ty::Int, "an operand of a comparison");
                let y = self.expect(sc, b, Ty::Int, "an operand of a comparison");
                self.comparisons_do_not_chain(before, a);
                self.val(Expr::Bin(op, x, y), Ty::Bool, span)
            }
            BinOp::And | BinOp::Or => {
                let x = self.expect(sc, a, Ty::Bool, "an operand of `and` / `or`");
                let y = self.expect(sc, b, Ty::Bool, "an operand of `and` / `or`");
                self.val(Expr::Bin(op, x, y), Ty::Bool, span)
            }
            BinOp::Eq | BinOp::Ne => {
                let x = self.expr(sc, a);
                let y = self.expr(sc, b);
                // Values compare; collections do not (the game would fail
                // when it runs the comparison).
                for (t, side) in [(&x, a), (&y, b)] {
                    if t.coll.is_some() {
                        let at = self.loc(side.span);
                        self.error(
                            Diagnostic::new(codes::COLLECTION, "a side of `==` or `!=` must be a single value, not a collection".to_string(), at, "a collection")
                                .help("compare what you mean of it: `count x in ...`, `all x in ... where ...`, or `v in ...` for membership"),
                        );
                    }
                }
                let piece_vs_variant = matches!((x.ty, y.ty), (Ty::Piece(_), Ty::Variant(_)) | (Ty::Variant(_), Ty::Piece(_)));
                if !piece_vs_variant && !fits(y.ty, x.ty) {
                    self.type_error(b.span, y.ty, x.ty, "the right side of the comparison");
                }
                self.val(Expr::Bin(op, x.id, y.id), Ty::Bool, span)
            }
            BinOp::In => {
                let x = self.expr(sc, a);
                let (c, elem) = self.collection(sc, b);
                // A piece and a variant compare as `==` does: `top(deck) in
                // [ace, king]`, `two in hand[p]` (some two is there).
                let piece_vs_variant = matches!((x.ty, elem), (Ty::Piece(_), Ty::Variant(_)) | (Ty::Variant(_), Ty::Piece(_)));
                if !piece_vs_variant && !fits(x.ty, elem) {
                    self.type_error(a.span, x.ty, elem, "the left side of `in`");
                }
                self.val(Expr::Bin(op, x.id, c), Ty::Bool, span)
            }
        }
    }
}
