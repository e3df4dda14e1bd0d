//! Which parts of a walk's condition are tests of the item read in place
//! ([`Test`], in `conds.rs`), recognised once when the rules are compiled:
//! the longest prefix of the condition's `and` chain made of them, the
//! rest left to closures.

use super::compiler::Compiler;
use super::conds::{AttrRhs, Cmp, Cond, Coord, PerSpaceCount, Plain, Test, Tested, Walked};
use super::operands::AttrRead;
use super::BoolF;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

impl Compiler<'_> {
    /// The condition `e` (none: every item) of a walk whose items, bound to
    /// the frame slot `slot`, are what `walked` says (`None`: no test is
    /// read in place, the condition is its closure).
    pub(crate) fn cond(&mut self, slot: u16, e: Option<ExprId>, walked: Option<Walked>) -> Cond {
        let Some(e) = e else { return Cond::Plain(Plain { slot, cond: None }) };
        let mut parts = Vec::new();
        self.chain(BinOp::And, e, &mut parts);
        // `where true` (and `true` in an `and` chain) tests nothing.
        parts.retain(|p| !matches!(self.m.expr(*p), Expr::Bool(true)));
        if parts.is_empty() {
            return Cond::Plain(Plain { slot, cond: None });
        }
        let mut tests = Vec::new();
        if let Some(walked) = walked {
            while let Some(t) = parts.get(tests.len()).copied().and_then(|p| self.test(slot, p, walked)) {
                tests.push(t);
            }
        }
        if let ([], [only]) = (&tests[..], &parts[..]) {
            // Nothing read in place: the condition as it always was.
            let only = *only;
            return Cond::Plain(Plain { slot, cond: Some(self.bool(only)) });
        }
        if tests.is_empty() {
            let all: Vec<BoolF> = parts.iter().map(|p| self.bool(*p)).collect();
            return Cond::Plain(Plain { slot, cond: Some(Box::new(move |r| all.iter().all(|f| f(r)))) });
        }
        let rest: Vec<BoolF> = parts.get(tests.len()..).unwrap_or_default().iter().map(|p| self.bool(*p)).collect();
        let rest: Option<BoolF> = match rest.len() {
            0 => None,
            1 => rest.into_iter().next(),
            _ => Some(Box::new(move |r| rest.iter().all(|f| f(r)))),
        };
        Cond::Tested(Tested { slot, tests: tests.into_boxed_slice(), rest })
    }

    /// The condition of a walk made of `tests` read in place and nothing
    /// else (`None` without one): the condition of a `choose` over tuples
    /// that only tests its last binding's item (tuples.rs), compiled part
    /// by part where each is written.
    pub(crate) fn tested_cond(slot: u16, tests: Vec<Test>) -> Option<Cond> {
        if tests.is_empty() {
            return None;
        }
        Some(Cond::Tested(Tested { slot, tests: tests.into_boxed_slice(), rest: None }))
    }

    /// `e` as a test of the item in `slot`, if it is one.
    pub(crate) fn test(&mut self, slot: u16, e: ExprId, walked: Walked) -> Option<Test> {
        if self.argument(e).is_some() {
            return None;
        }
        if let Expr::Not(a) = *self.m.expr(e) {
            return self.test(slot, a, walked).map(Test::negated);
        }
        match walked {
            // A function of the space or piece whose whole body is a test
            // (`empty(z) = count(z) == 0`, `on_board(d) = zone_of(d) !=
            // captured`, `mine(z, p) = any m in z where owner(m) == p`) is
            // that test: a call counts as its body written in place.
            Walked::Spaces => match self.m.expr(e).clone() {
                Expr::CallFn(f, args) => self.peek_inline(f, &args, |c, body| c.any_piece_of(slot, body).or_else(|| c.test(slot, body, walked))),
                _ => self.any_piece_of(slot, e).or_else(|| self.space_test(slot, e)),
            },
            Walked::Pieces => match self.m.expr(e).clone() {
                Expr::CallFn(f, args) => self.peek_inline(f, &args, |c, body| c.test(slot, body, walked)),
                _ => self.piece_test(slot, e),
            },
            Walked::Numbers { lo, hi } => self.number_test(slot, e, lo, hi),
        }
    }

    /// `e` as a test of the number in `slot`, from `lo..=hi`, if it is one.
    fn number_test(&mut self, slot: u16, e: ExprId, lo: i64, hi: i64) -> Option<Test> {
        let (cmp, a, k) = self.compared_with_constant(e)?;
        let Expr::Call(Builtin::Count, args) = self.m.expr(a) else { return None };
        let [cell] = args[..] else { return None };
        let Expr::Cell(t, row, col) = *self.m.expr(cell) else { return None };
        let Shape::Grid { rows, cols, .. } = self.m.tracks.get(t.idx())?.shape else { return None };
        // A coordinate that could leave the grid is an error the closure
        // reports: such a test is not read in place.
        let coord = |c: &Self, x: ExprId, size: u16| -> Option<Coord> {
            let within = |v: i64| (1..=i64::from(size)).contains(&v);
            let range_within = |lo: i64, hi: i64| lo > hi || (within(lo) && within(hi));
            match (c.m.expr(x), c.plain_local(x)) {
                (Expr::Int(v), _) if within(*v) => Some(Coord::Const(*v)),
                (_, Some(s)) if s == slot => range_within(lo, hi).then_some(Coord::Item),
                (_, Some(s)) => c.walked_numbers.iter().find(|(w, ..)| *w == s).filter(|(_, lo, hi)| range_within(*lo, *hi)).map(|_| Coord::Bound(s)),
                _ => None,
            }
        };
        let (row, col) = (coord(self, row, rows)?, coord(self, col, cols)?);
        Some(Test::CellCount { base: self.g.track_base[t.idx()], cols: i64::from(cols), row, col, cmp, k })
    }

    /// `a <cmp> k` for a constant `k`.
    fn compared_with_constant(&self, e: ExprId) -> Option<(Cmp, ExprId, i64)> {
        let Expr::Bin(op, a, b) = self.m.expr(e) else { return None };
        let cmp = Cmp::of(op)?;
        Some((cmp, *a, self.const_int(*b)?))
    }

    /// `any d in z where <tests of d>`, `z` being the space in `slot`.
    fn any_piece_of(&mut self, slot: u16, e: ExprId) -> Option<Test> {
        let Expr::Comp(Quantifier::Any, d, coll, cond) = *self.m.expr(e) else { return None };
        let Expr::Contents(z) = *self.m.expr(coll) else { return None };
        if self.local_slot(z) != Some(slot) {
            return None;
        }
        let d = self.slot(d);
        let mut parts = Vec::new();
        if let Some(cond) = cond {
            self.chain(BinOp::And, cond, &mut parts);
        }
        // `where true` tests nothing: the first piece holds.
        parts.retain(|p| !matches!(self.m.expr(*p), Expr::Bool(true)));
        let tests: Option<Vec<Test>> = parts.iter().map(|p| self.piece_test(d, *p)).collect();
        Some(Test::AnyPiece { slot: d, tests: tests?.into() })
    }

    /// The frame slot of a local, or of the caller's local that a
    /// parameter of an inlined function stands for.
    pub(crate) fn local_slot(&mut self, e: ExprId) -> Option<u16> {
        self.local_at(e).map(|(slot, _)| slot)
    }

    /// `e` as a test of the piece in `slot`, if it is one. In the body of
    /// a function being looked into, the piece is the parameter that
    /// stands for it.
    fn piece_test(&mut self, slot: u16, e: ExprId) -> Option<Test> {
        let of_piece = |c: &mut Self, x: ExprId| c.local_slot(x) == Some(slot);
        match self.m.expr(e).clone() {
            Expr::Is(p, v) if of_piece(self, p) => Some(Test::Variant(v)),
            Expr::IsKind(p, k) if of_piece(self, p) => Some(Test::Kind(k)),
            Expr::Bin(op, a, b) if self.attr_of(slot, a).is_some() || self.attr_of(slot, b).is_some() => self.attr_test(slot, op, a, b),
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let negate = op == BinOp::Ne;
                // `builtin(d) == other` or `other == builtin(d)`: the other side.
                let of_item = |c: &mut Self, x: ExprId, builtin: Builtin| match c.m.expr(x).clone() {
                    Expr::Call(f, args) if f == builtin && args.len() == 1 => of_piece(c, args[0]),
                    _ => false,
                };
                let compared_with = |c: &mut Self, builtin: Builtin| {
                    if of_item(c, a, builtin) {
                        Some(b)
                    } else if of_item(c, b, builtin) {
                        Some(a)
                    } else {
                        None
                    }
                };
                if let Some(other) = compared_with(self, Builtin::ZoneOf) {
                    return self.fixed_zone(other).map(|zone| Test::InZone { zone, negate });
                }
                let other = compared_with(self, Builtin::Owner)?;
                let other = self.local_slot(other).filter(|s| *s != slot)?;
                Some(Test::OwnerIsLocal { slot: other, negate })
            }
            _ => None,
        }
    }

    /// The zone `e` always is (`box`, a zone declared once, a space named
    /// by its track and number), looking through a parameter to the
    /// caller's argument.
    fn fixed_zone(&mut self, e: ExprId) -> Option<u16> {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.fixed_zone(a));
        }
        match *self.m.expr(e) {
            Expr::Box => Some(self.g.box_zone),
            Expr::Node(t, i) => Some(self.g.track_base[t.idx()] + i),
            Expr::Zone(d, None) if self.m.zones[d.idx()].mult == ZoneMult::Single => Some(self.g.zone_base[d.idx()]),
            _ => None,
        }
    }

    /// The attribute `e` reads of the piece in `slot`, if it is `d.attr`.
    fn attr_of(&self, slot: u16, e: ExprId) -> Option<u16> {
        match *self.m.expr(e) {
            Expr::Attr(x, a) if self.plain_local(x) == Some(slot) => Some(a),
            _ => None,
        }
    }

    /// `a <op> b` where one side is an attribute of the piece in `slot`, as
    /// a test, when the other side is a constant, or (`==` and `!=` only) a
    /// local or an attribute of another local written after it.
    fn attr_test(&mut self, slot: u16, op: BinOp, a: ExprId, b: ExprId) -> Option<Test> {
        let cmp = Cmp::of(&op)?;
        // The item's attribute on the left: `k < d.attr` is `d.attr > k`.
        let (attr, other, cmp, item_first) = match (self.attr_of(slot, a), self.attr_of(slot, b)) {
            (Some(attr), _) => (attr, b, cmp, true),
            (None, Some(attr)) => (attr, a, cmp.flipped(), false),
            (None, None) => return None,
        };
        let equality = matches!(cmp, Cmp::Eq | Cmp::Ne);
        let rhs = if let Some(k) = self.const_int(other) {
            AttrRhs::Const(k)
        } else if let (true, Some(s)) = (equality, self.local_slot(other).filter(|s| *s != slot)) {
            AttrRhs::Local(s)
        } else {
            // Two attributes are read in the order written (the first error
            // is the one reported): the item's must come first.
            match (equality && item_first, self.argument(other).is_none().then(|| self.m.expr(other).clone())) {
                (true, Some(Expr::Attr(y, b))) => {
                    let s = self.local_slot(y).filter(|s| *s != slot)?;
                    let at = self.at(other);
                    AttrRhs::Attr(Box::new(AttrRead { slot: s, table: self.attr_table(b, at) }))
                }
                _ => return None,
            }
        };
        let at = self.at(if item_first { a } else { b });
        Some(Test::Attr { table: Box::new(self.attr_table(attr, at)), cmp, rhs })
    }

    /// `count(zone[z]) <cmp> k`, `zone` declared `per_space` of a board
    /// and `z` the space in `slot`.
    fn per_space_count(&mut self, slot: u16, zone: ExprId, cmp: Cmp, k: i64) -> Option<Test> {
        if self.argument(zone).is_some() {
            return None;
        }
        let Expr::Zone(d, Some(i)) = *self.m.expr(zone) else { return None };
        let ZoneMult::PerSpace(track) = self.m.zones.get(d.idx())?.mult else { return None };
        if self.local_slot(i) != Some(slot) {
            return None;
        }
        let board = self.m.tracks.get(track.idx())?.name.clone();
        let (base, at) = (self.g.zone_base[d.idx()], self.at(zone));
        Some(Test::PerSpaceCount(Box::new(PerSpaceCount { track, base, cmp, k, board, at })))
    }

    /// `e` as a test of the space in `slot`, if it is one. In the body of
    /// a function being looked into, the space is the parameter that
    /// stands for it.
    fn space_test(&mut self, slot: u16, e: ExprId) -> Option<Test> {
        let of_space = |c: &mut Self, x: ExprId| c.local_slot(x) == Some(slot);
        if let Expr::Tagged(z, t) = *self.m.expr(e) {
            return of_space(self, z).then_some(Test::Tagged(1u64 << (t.0 % 64)));
        }
        let Expr::Bin(op, a, b) = self.m.expr(e).clone() else { return None };
        let cmp = Cmp::of(&op)?;
        // `top(z) == none` holds just when `count(z) == 0` does (and `!=`
        // when it does not): the front of an empty zone is `none`.
        for (x, y) in [(a, b), (b, a)] {
            if let (Expr::Call(Builtin::Top, args), Expr::None) = (self.m.expr(x).clone(), self.m.expr(y)) {
                if matches!(cmp, Cmp::Eq | Cmp::Ne) && args.len() == 1 && of_space(self, args[0]) {
                    return Some(Test::Count(cmp, 0));
                }
            }
        }
        match (self.m.expr(a).clone(), self.const_int(b)) {
            (Expr::Call(Builtin::Count, args), Some(k)) if args.len() == 1 && of_space(self, args[0]) => Some(Test::Count(cmp, k)),
            (Expr::Call(Builtin::Count, args), Some(k)) if args.len() == 1 => self.per_space_count(slot, args[0], cmp, k),
            // Only `==` and `!=`: an order needs a number, and `row(z)` off
            // a grid is `none`, an error there.
            (Expr::CellRow(z) | Expr::CellCol(z), Some(k)) if matches!(cmp, Cmp::Eq | Cmp::Ne) && of_space(self, z) => {
                let column = matches!(self.m.expr(a), Expr::CellCol(_));
                Some(Test::Line { column, cmp, k })
            }
            (Expr::CellRow(z) | Expr::CellCol(z), None) if cmp == Cmp::Eq && of_space(self, z) => {
                let column = matches!(self.m.expr(a), Expr::CellCol(_));
                let other = self.local_slot(b).filter(|s| *s != slot)?;
                Some(Test::LineIsLocal { column, slot: other })
            }
            _ => None,
        }
    }
}
