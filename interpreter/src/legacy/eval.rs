//! Expressions at run time. Evaluation reads the state and writes only the
//! slots of comprehension variables; collections are walked in place, through
//! a scratch buffer used as a stack, so evaluation does not allocate once the
//! buffer has grown.

use super::error::{ExecError, ExecErrorKind};
use super::layout::Game;
use super::state::{State, NO_ACTOR};
use super::value::Value;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

/// Where an expression is evaluated: locals window and acting player.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) base: u32,
    pub(crate) actor: u8,
}

impl Game {
    pub(crate) fn err(&self, kind: ExecErrorKind, msg: impl Into<String>, e: ExprId) -> ExecError {
        ExecError::new(kind, msg, self.model.expr_at.get(e.0 as usize).copied())
    }

    pub(crate) fn eval_const(&self, st: &mut State, e: ExprId) -> Result<Value, ExecError> {
        let mut scratch = Vec::new();
        let base = st.stack.len() as u32;
        st.stack.resize(st.stack.len() + 8, Value::None);
        let v = self.eval(st, &mut scratch, Ctx { base, actor: NO_ACTOR }, e);
        st.stack.truncate(base as usize);
        v
    }

    pub(crate) fn eval_const_int(&self, st: &mut State, e: ExprId) -> Result<i64, ExecError> {
        let v = self.eval_const(st, e)?;
        self.int(v, e)
    }

    pub(crate) fn int(&self, v: Value, e: ExprId) -> Result<i64, ExecError> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(self.err(ExecErrorKind::Type, format!("a number was needed, found {}", self.label(other)), e)),
        }
    }
    pub(crate) fn boolean(&self, v: Value, e: ExprId) -> Result<bool, ExecError> {
        match v {
            Value::Bool(b) => Ok(b),
            other => Err(self.err(ExecErrorKind::Type, format!("a truth value was needed, found {}", self.label(other)), e)),
        }
    }
    pub(crate) fn player(&self, v: Value, e: ExprId) -> Result<u8, ExecError> {
        match v {
            Value::Player(p) if p < self.players => Ok(p),
            other => Err(self.err(ExecErrorKind::Type, format!("a player was needed, found {}", self.label(other)), e)),
        }
    }
    pub(crate) fn piece(&self, v: Value, e: ExprId) -> Result<u16, ExecError> {
        match v {
            Value::Piece(p) if (p as usize) < self.inst_kind.len() => Ok(p),
            other => Err(self.err(ExecErrorKind::Type, format!("a piece was needed, found {}", self.label(other)), e)),
        }
    }
    pub(crate) fn zone(&self, v: Value, e: ExprId) -> Result<u16, ExecError> {
        match v {
            Value::Zone(z) if (z as usize) < self.zones.len() => Ok(z),
            other => Err(self.err(ExecErrorKind::Type, format!("a zone was needed, found {}", self.label(other)), e)),
        }
    }

    /// Evaluate an expression that must give a zone.
    pub(crate) fn eval_zone(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<u16, ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        self.zone(v, e)
    }

    /// Evaluate an expression that must give a piece.
    pub(crate) fn eval_piece(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<u16, ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        self.piece(v, e)
    }

    /// Evaluate an expression that must give a number.
    pub(crate) fn eval_int(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<i64, ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        self.int(v, e)
    }

    /// Evaluate an expression that must give a truth value.
    pub(crate) fn eval_bool(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<bool, ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        self.boolean(v, e)
    }

    /// Evaluate an expression that must give a player.
    pub(crate) fn eval_player(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<u8, ExecError> {
        let v = self.eval(st, scratch, cx, e)?;
        self.player(v, e)
    }

    /// Equality as the language sees it: a piece equals its variant.
    pub(crate) fn same(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Piece(p), Value::Variant(v)) | (Value::Variant(v), Value::Piece(p)) => self.inst_variant.get(p as usize).copied().flatten() == Some(VariantId(v)),
            _ => a == b,
        }
    }

    pub(crate) fn eval(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<Value, ExecError> {
        let m = &*self.model;
        Ok(match m.expr(e) {
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::None => Value::None,
            Expr::Local(s) => st.stack.get((cx.base + u32::from(*s)) as usize).copied().unwrap_or_default(),
            Expr::Zone(z, idx) => {
                let base = self.zone_base[z.idx()];
                let off = match (m.zones[z.idx()].mult, idx) {
                    (ZoneMult::Single, _) | (_, None) => 0,
                    (ZoneMult::PerPlayer, Some(i)) => {
                        let v = self.eval(st, scratch, cx, *i)?;
                        u16::from(self.player(v, *i)?)
                    }
                    (ZoneMult::PerSpace(t), Some(i)) => {
                        let z = self.eval_zone(st, scratch, cx, *i)?;
                        match self.zones[z as usize].space {
                            Some((tt, k)) if tt == t => k,
                            _ => return Err(self.err(ExecErrorKind::Type, format!("a space of `{}` was needed, found {}", m.tracks[t.idx()].name, self.label(Value::Zone(z))), *i)),
                        }
                    }
                };
                Value::Zone(base + off)
            }
            Expr::Box => Value::Zone(self.box_zone),
            Expr::Var(v, idx) => {
                let slot = self.slot(st, scratch, cx, self.var_base[v.idx()], *idx, m.vars[v.idx()].per_piece)?;
                st.vars[slot]
            }
            Expr::Counter(c, idx) => {
                let slot = self.slot(st, scratch, cx, self.counter_base[c.idx()], *idx, m.counters[c.idx()].per_piece)?;
                Value::Int(st.counters[slot])
            }
            Expr::PieceOf(k, idx) => {
                let (first, _) = self.kind_range[k.idx()];
                let off = match idx {
                    Some(i) => {
                        let v = self.eval(st, scratch, cx, *i)?;
                        u16::from(self.player(v, *i)?) * m.kinds[k.idx()].count
                    }
                    None => 0,
                };
                Value::Piece(first + off)
            }
            Expr::PieceOfVariant(v) => match self.inst_variant.iter().position(|x| *x == Some(*v)) {
                Some(p) => Value::Piece(p as u16),
                None => Value::None,
            },
            Expr::Variant(v) => Value::Variant(v.0),
            Expr::Face(f) => Value::Face(f.0),
            Expr::Dir(d) => Value::Dir(*d),
            Expr::Actor => {
                if cx.actor == NO_ACTOR {
                    Value::None
                } else {
                    Value::Player(cx.actor)
                }
            }
            Expr::PlayerCount => Value::Int(i64::from(self.players)),
            Expr::RoundNumber => Value::Int(i64::from(st.round)),
            Expr::Attr(x, a) => {
                let v = self.eval(st, scratch, cx, *x)?;
                let variant = match v {
                    Value::Piece(p) => self.inst_variant.get(p as usize).copied().flatten(),
                    Value::Variant(v) => Some(VariantId(v)),
                    _ => None,
                };
                let found = variant.and_then(|v| m.variants[v.idx()].attrs.iter().find(|(n, _)| n == a).map(|(_, x)| *x));
                match found {
                    Some(x) => Value::Int(x),
                    None => return Err(self.err(ExecErrorKind::Type, format!("{} has no attribute `{}`", self.label(v), m.attrs[*a as usize]), e)),
                }
            }
            Expr::Row(t, key) => {
                let k = self.eval_int(st, scratch, cx, *key)?;
                match m.tables[t.idx()].rows.iter().position(|(lo, hi, _)| (*lo..=*hi).contains(&k)) {
                    Some(r) => Value::Row(t.0, r as u16),
                    None => return Err(self.err(ExecErrorKind::OutOfRange, format!("the table `{}` has no row for {k}", m.tables[t.idx()].name), e)),
                }
            }
            Expr::Column(row, c) => {
                let r = self.eval(st, scratch, cx, *row)?;
                let Value::Row(t, r) = r else {
                    return Err(self.err(ExecErrorKind::Type, "a table row was needed", *row));
                };
                let cell = m.tables[t as usize].rows[r as usize].2.get(*c as usize).copied();
                match cell {
                    Some(cell) => self.eval(st, scratch, cx, cell)?,
                    None => Value::None,
                }
            }
            Expr::Bin(op, a, b) => return self.binary(st, scratch, cx, *op, *a, *b, e),
            Expr::Neg(a) => {
                let v = self.eval(st, scratch, cx, *a)?;
                Value::Int(-self.int(v, *a)?)
            }
            Expr::Not(a) => {
                let v = self.eval(st, scratch, cx, *a)?;
                Value::Bool(!self.boolean(v, *a)?)
            }
            Expr::If(c, a, b) => {
                let v = self.eval(st, scratch, cx, *c)?;
                let branch = if self.boolean(v, *c)? { *a } else { *b };
                self.eval(st, scratch, cx, branch)?
            }
            Expr::Comp(q, slot, coll, body) => return self.comprehension(st, scratch, cx, *q, *slot, *coll, *body, e),
            Expr::Call(b, args) => return self.builtin(st, scratch, cx, *b, args, e),
            Expr::Tagged(s, t) => {
                let z = self.eval_zone(st, scratch, cx, *s)?;
                match self.zones[z as usize].space {
                    Some((track, i)) => Value::Bool(m.tracks[track.idx()].spaces[i as usize] & (1u64 << (t.0 % 64)) != 0),
                    None => Value::Bool(false),
                }
            }
            Expr::Space(t, i) => {
                let i = self.eval_int(st, scratch, cx, *i)?;
                match self.space_zone(*t, i.saturating_sub(1)) {
                    Some(z) => Value::Zone(z),
                    None => return Err(self.err(ExecErrorKind::OutOfRange, format!("space {i} is off the track `{}`", m.tracks[t.idx()].name), e)),
                }
            }
            Expr::Leader(t, k) => self.race_end(st, *t, *k, true),
            Expr::Rearmost(t, k) => self.race_end(st, *t, *k, false),
            Expr::Enabled(o) => Value::Bool(self.options[o.idx()]),
            Expr::Is(p, v) => {
                let p = self.eval_piece(st, scratch, cx, *p)?;
                Value::Bool(self.inst_variant[p as usize] == Some(*v))
            }
            Expr::CallFn(f, args) => {
                let def = &m.fns[f.idx()];
                let mut vals = [Value::None; 8];
                for (i, a) in args.iter().take(8).enumerate() {
                    vals[i] = self.eval(st, scratch, cx, *a)?;
                }
                let base = st.stack.len();
                st.stack.extend_from_slice(&vals[..args.len().min(8)]);
                st.stack.resize(base + (def.locals as usize).max(args.len().min(8)), Value::None);
                let v = self.eval(st, scratch, Ctx { base: base as u32, actor: cx.actor }, def.body);
                st.stack.truncate(base);
                v?
            }
            Expr::Node(t, i) => Value::Zone(self.track_base[t.idx()] + *i),
            // Scenarios only, which this engine never runs.
            Expr::Sees(..) | Expr::Won(_) => return Err(self.err(ExecErrorKind::Type, "`sees` and `won` exist only in scenarios", e)),
            Expr::Linked(a, b, tag) => {
                let za = self.eval_zone(st, scratch, cx, *a)?;
                let zb = self.eval_zone(st, scratch, cx, *b)?;
                Value::Bool(self.edge_between(za, zb).is_some_and(|mask| tag.is_none_or(|t| mask & (1u64 << (t.0 % 64)) != 0)))
            }
            Expr::IsKind(p, k) => {
                let p = self.eval_piece(st, scratch, cx, *p)?;
                Value::Bool(self.inst_kind[p as usize] == *k)
            }
            Expr::Cell(t, r, c) => {
                let r = self.eval_int(st, scratch, cx, *r)?;
                let c = self.eval_int(st, scratch, cx, *c)?;
                match m.tracks[t.idx()].shape {
                    Shape::Grid { rows, cols, .. } if (1..=i64::from(rows)).contains(&r) && (1..=i64::from(cols)).contains(&c) => {
                        Value::Zone(self.track_base[t.idx()] + ((r - 1) * i64::from(cols) + (c - 1)) as u16)
                    }
                    _ => Value::None,
                }
            }
            Expr::CellRow(z) | Expr::CellCol(z) => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                match self.grid_pos(z) {
                    Some((r, c)) => Value::Int(if matches!(m.expr(e), Expr::CellRow(_)) { r } else { c }),
                    None => Value::None,
                }
            }
            Expr::Step(z, dr, dc) => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                let dr = self.eval_int(st, scratch, cx, *dr)?;
                let dc = self.eval_int(st, scratch, cx, *dc)?;
                match (self.grid_pos(z), self.zones[z as usize].space) {
                    (Some((r, c)), Some((t, _))) => match (r.checked_add(dr), c.checked_add(dc)) {
                        (Some(r), Some(c)) => self.cell_zone(t, r, c).map(Value::Zone).unwrap_or(Value::None),
                        _ => Value::None,
                    },
                    _ => Value::None,
                }
            }
            Expr::InARow(slot, cell, cond) => {
                let z = self.eval_zone(st, scratch, cx, *cell)?;
                let (Some((r, c)), Some((t, _))) = (self.grid_pos(z), self.zones[z as usize].space) else {
                    return Err(self.err(ExecErrorKind::Type, format!("`in_a_row` needs a cell of a grid, found {}", self.label(Value::Zone(z))), e));
                };
                let at = (cx.base + u32::from(*slot)) as usize;
                if st.stack.len() <= at {
                    st.stack.resize(at + 1, Value::None);
                }
                let holds = |g: &Game, st: &mut State, scratch: &mut Vec<Value>, z: u16| -> Result<bool, ExecError> {
                    st.stack[at] = Value::Zone(z);
                    g.eval_bool(st, scratch, cx, *cond)
                };
                if !holds(self, st, scratch, z)? {
                    return Ok(Value::Int(0));
                }
                let mut best = 1;
                let hex = matches!(m.tracks[t.idx()].shape, Shape::Grid { hex: true, .. });
                // A hexagonal grid's cells touch along three lines: the
                // row, the column and the diagonal up and to the right.
                let lines: &[(i64, i64)] = if hex { &[(0, 1), (1, 0), (1, -1)] } else { &[(0, 1), (1, 0), (1, 1), (1, -1)] };
                for &(dr, dc) in lines {
                    let mut run = 1;
                    for sign in [1i64, -1] {
                        let (mut rr, mut cc) = (r, c);
                        loop {
                            (rr, cc) = (rr + sign * dr, cc + sign * dc);
                            match self.cell_zone(t, rr, cc) {
                                Some(x) if holds(self, st, scratch, x)? => run += 1,
                                _ => break,
                            }
                        }
                    }
                    best = best.max(run);
                }
                Value::Int(best)
            }
            Expr::Players | Expr::Range(..) | Expr::PiecesOf(..) | Expr::List(_) | Expr::Spaces(_) | Expr::Pieces(_) | Expr::Contents(_) | Expr::Neighbors(_) | Expr::Line(..) | Expr::Region(..) => {
                return Err(self.err(ExecErrorKind::Type, "a collection was used where one value is needed", e));
            }
        })
    }

    /// The slot of a var or counter: its first slot, plus the player's
    /// number when it has one per player, or the piece's rank among its kind
    /// when it has one per piece.
    pub(crate) fn slot(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, base: u32, idx: Option<ExprId>, per_piece: Option<KindId>) -> Result<usize, ExecError> {
        let Some(i) = idx else { return Ok(base as usize) };
        match per_piece {
            None => Ok(base as usize + self.eval_player(st, scratch, cx, i)? as usize),
            Some(k) => {
                let p = self.eval_piece(st, scratch, cx, i)?;
                let (first, n) = self.kind_range[k.idx()];
                if p < first || p >= first + n {
                    return Err(self.err(ExecErrorKind::Type, format!("a `{}` was needed, found {}", self.model.kinds[k.idx()].name, self.label(Value::Piece(p))), i));
                }
                Ok(base as usize + (p - first) as usize)
            }
        }
    }

    /// The first (`front`) or last piece of a kind in race order on a track:
    /// the furthest space first, and on a space the earliest arrival first.
    fn race_end(&self, st: &State, t: TrackId, k: KindId, front: bool) -> Value {
        let base = self.track_base[t.idx()] as usize;
        let len = self.model.tracks[t.idx()].spaces.len();
        let is_kind = |p: &&u16| self.inst_kind[**p as usize] == k;
        if front {
            for z in (base..base + len).rev() {
                if let Some(p) = st.zones[z].iter().find(is_kind) {
                    return Value::Piece(*p);
                }
            }
        } else {
            for z in base..base + len {
                if let Some(p) = st.zones[z].iter().rev().find(is_kind) {
                    return Value::Piece(*p);
                }
            }
        }
        Value::None
    }

    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn binary(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, op: BinOp, a: ExprId, b: ExprId, e: ExprId) -> Result<Value, ExecError> {
        match op {
            BinOp::And | BinOp::Or => {
                // Short-circuit, so that `x != none and pos(x) > 3` is safe.
                let x = self.eval_bool(st, scratch, cx, a)?;
                if (op == BinOp::And && !x) || (op == BinOp::Or && x) {
                    return Ok(Value::Bool(x));
                }
                let y = self.eval(st, scratch, cx, b)?;
                Ok(Value::Bool(self.boolean(y, b)?))
            }
            BinOp::Eq | BinOp::Ne => {
                let x = self.eval(st, scratch, cx, a)?;
                let y = self.eval(st, scratch, cx, b)?;
                Ok(Value::Bool(self.same(x, y) == (op == BinOp::Eq)))
            }
            BinOp::In => {
                let x = self.eval(st, scratch, cx, a)?;
                let start = scratch.len();
                self.collect(st, scratch, cx, b)?;
                let found = scratch[start..].iter().any(|y| self.same(x, *y));
                scratch.truncate(start);
                Ok(Value::Bool(found))
            }
            _ => {
                let x = self.eval_int(st, scratch, cx, a)?;
                let y = self.eval_int(st, scratch, cx, b)?;
                Ok(match op {
                    BinOp::Add => Value::Int(x.saturating_add(y)),
                    BinOp::Sub => Value::Int(x.saturating_sub(y)),
                    BinOp::Mul => Value::Int(x.saturating_mul(y)),
                    BinOp::Div | BinOp::Rem => {
                        if y == 0 {
                            return Err(self.err(ExecErrorKind::OutOfRange, "division by zero", e));
                        }
                        // Floor division, as the text's "arrondi à l'entier inférieur":
                        // the remainder takes the divisor's sign.
                        let (Some(q), Some(r)) = (x.checked_div(y), x.checked_rem(y)) else {
                            return Err(self.err(ExecErrorKind::OutOfRange, format!("{x} / {y} does not fit in a number"), e));
                        };
                        let floor = r != 0 && ((r < 0) != (y < 0));
                        Value::Int(match (op, floor) {
                            (BinOp::Div, true) => q - 1,
                            (BinOp::Div, false) => q,
                            (_, true) => r + y,
                            (_, false) => r,
                        })
                    }
                    BinOp::Lt => Value::Bool(x < y),
                    BinOp::Le => Value::Bool(x <= y),
                    BinOp::Gt => Value::Bool(x > y),
                    _ => Value::Bool(x >= y),
                })
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn comprehension(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, q: Quantifier, slot: u16, coll: ExprId, body: Option<ExprId>, e: ExprId) -> Result<Value, ExecError> {
        let start = scratch.len();
        self.collect(st, scratch, cx, coll)?;
        let end = scratch.len();
        let at = (cx.base + u32::from(slot)) as usize;
        if st.stack.len() <= at {
            st.stack.resize(at + 1, Value::None);
        }
        let mut acc: i64 = 0;
        let mut count = 0i64;
        let mut result = None;
        for i in start..end {
            let item = scratch[i];
            st.stack[at] = item;
            match q {
                Quantifier::Sum | Quantifier::Max | Quantifier::Min => {
                    let Some(b) = body else { break };
                    let v = self.eval_int(st, scratch, cx, b)?;
                    acc = match (q, count) {
                        (Quantifier::Sum, _) => acc.saturating_add(v),
                        (_, 0) => v,
                        (Quantifier::Max, _) => acc.max(v),
                        _ => acc.min(v),
                    };
                    count += 1;
                }
                _ => {
                    let keep = match body {
                        Some(b) => {
                            let v = self.eval(st, scratch, cx, b)?;
                            self.boolean(v, b)?
                        }
                        None => true,
                    };
                    match (q, keep) {
                        (Quantifier::Any, true) | (Quantifier::First, true) => {
                            result = Some(item);
                            break;
                        }
                        (Quantifier::All, false) => {
                            result = Some(item);
                            break;
                        }
                        (Quantifier::CountWhile | Quantifier::FilterWhile, false) => break,
                        (Quantifier::Filter | Quantifier::FilterWhile, true) => scratch[start + count as usize] = item,
                        _ => {}
                    }
                    if keep {
                        count += 1;
                    }
                }
            }
        }
        let value = match q {
            Quantifier::Count | Quantifier::CountWhile => Value::Int(count),
            Quantifier::Any => Value::Bool(result.is_some()),
            Quantifier::All => Value::Bool(result.is_none()),
            Quantifier::First => result.unwrap_or(Value::None),
            Quantifier::Sum => Value::Int(acc),
            Quantifier::Max | Quantifier::Min => {
                if count == 0 {
                    Value::None
                } else {
                    Value::Int(acc)
                }
            }
            Quantifier::Filter | Quantifier::FilterWhile => {
                // A filter leaves its kept items on the scratch stack for the caller.
                scratch.truncate(start + count as usize);
                return Ok(Value::None);
            }
        };
        scratch.truncate(start);
        let _ = e;
        Ok(value)
    }

    /// Push the items of a collection expression onto `scratch`.
    pub(crate) fn collect(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, e: ExprId) -> Result<(), ExecError> {
        let m = &*self.model;
        match m.expr(e) {
            Expr::Players => scratch.extend((0..self.players).map(Value::Player)),
            Expr::Range(a, b) => {
                let x = self.eval_int(st, scratch, cx, *a)?;
                let y = self.eval_int(st, scratch, cx, *b)?;
                if y.saturating_sub(x) >= 100_000 {
                    return Err(self.err(ExecErrorKind::OutOfRange, format!("the range {x}..{y} is too long to walk"), e));
                }
                scratch.extend((x..=y).map(Value::Int));
            }
            Expr::List(items) => {
                for i in items {
                    let v = self.eval(st, scratch, cx, *i)?;
                    scratch.push(v);
                }
            }
            Expr::Spaces(t) => {
                let base = self.track_base[t.idx()];
                let len = m.tracks[t.idx()].spaces.len() as u16;
                scratch.extend((base..base + len).map(Value::Zone));
            }
            Expr::Pieces(k) => {
                let (first, n) = self.kind_range[k.idx()];
                scratch.extend((first..first + n).map(Value::Piece));
            }
            Expr::PiecesOf(k, p) => {
                let p = self.eval_player(st, scratch, cx, *p)?;
                let (first, n) = self.kind_range[k.idx()];
                let each = m.kinds[k.idx()].count;
                let from = first + u16::from(p) * each;
                scratch.extend((from..(from + each).min(first + n)).map(Value::Piece));
            }
            Expr::Contents(z) => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                scratch.extend(st.zones[z as usize].iter().map(|p| Value::Piece(*p)));
            }
            Expr::Neighbors(z) => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                self.neighbors(z, scratch);
            }
            Expr::Line(z, dr, dc) => {
                let z = self.eval_zone(st, scratch, cx, *z)?;
                let dr = self.eval_int(st, scratch, cx, *dr)?;
                let dc = self.eval_int(st, scratch, cx, *dc)?;
                if let (Some((mut r, mut c)), Some((t, _))) = (self.grid_pos(z), self.zones[z as usize].space) {
                    if (dr, dc) != (0, 0) {
                        // Checked steps: a huge direction leaves the grid instead of overflowing.
                        while let (Some(nr), Some(nc)) = (r.checked_add(dr), c.checked_add(dc)) {
                            (r, c) = (nr, nc);
                            match self.cell_zone(t, r, c) {
                                Some(x) => scratch.push(Value::Zone(x)),
                                None => break,
                            }
                        }
                    }
                }
            }
            Expr::Region(slot, start, cond) => {
                let s = self.eval_zone(st, scratch, cx, *start)?;
                self.region(st, scratch, cx, *slot, s, *cond)?;
            }
            Expr::Comp(q @ (Quantifier::Filter | Quantifier::FilterWhile), slot, coll, body) => {
                self.comprehension(st, scratch, cx, *q, *slot, *coll, *body, e)?;
            }
            _ => return Err(self.err(ExecErrorKind::Type, "a collection was needed here", e)),
        }
        Ok(())
    }

    fn builtin(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, b: Builtin, args: &[ExprId], e: ExprId) -> Result<Value, ExecError> {
        let mut vals = [Value::None; 2];
        for (i, a) in args.iter().enumerate().take(2) {
            vals[i] = self.eval(st, scratch, cx, *a)?;
        }
        let arg = |i: usize| args.get(i).copied().unwrap_or(e);
        Ok(match b {
            Builtin::Count => Value::Int(st.zones[self.zone(vals[0], arg(0))? as usize].len() as i64),
            Builtin::Top => st.zones[self.zone(vals[0], arg(0))? as usize].last().map(|p| Value::Piece(*p)).unwrap_or(Value::None),
            Builtin::Pos => {
                let p = self.piece(vals[0], arg(0))?;
                match self.zones[st.loc[p as usize] as usize].space {
                    Some((_, i)) => Value::Int(i64::from(i) + 1),
                    None => Value::None,
                }
            }
            Builtin::Index => {
                let z = self.zone(vals[0], arg(0))?;
                match self.zones[z as usize].space {
                    Some((_, i)) => Value::Int(i64::from(i) + 1),
                    None => Value::None,
                }
            }
            Builtin::ZoneOf => Value::Zone(st.loc[self.piece(vals[0], arg(0))? as usize]),
            Builtin::Owner => self.inst_owner[self.piece(vals[0], arg(0))? as usize].map(Value::Player).unwrap_or(Value::None),
            Builtin::Holder => {
                let p = self.piece(vals[0], arg(0))?;
                self.zones[st.loc[p as usize] as usize].owner.map(Value::Player).unwrap_or(Value::None)
            }
            Builtin::NextPlayer => {
                let p = self.player(vals[0], arg(0))?;
                let d = match vals[1] {
                    Value::Dir(d) => i64::from(d),
                    other => return Err(self.err(ExecErrorKind::Type, format!("a direction was needed, found {}", self.label(other)), arg(1))),
                };
                Value::Player((i64::from(p) + d).rem_euclid(i64::from(self.players)) as u8)
            }
            Builtin::Abs => Value::Int(self.int(vals[0], arg(0))?.saturating_abs()),
            Builtin::Seat => Value::Int(i64::from(self.player(vals[0], arg(0))?) + 1),
            Builtin::Min => Value::Int(self.int(vals[0], arg(0))?.min(self.int(vals[1], arg(1))?)),
            Builtin::Max => Value::Int(self.int(vals[0], arg(0))?.max(self.int(vals[1], arg(1))?)),
            Builtin::PlayerNo => {
                let n = self.int(vals[0], arg(0))?;
                if n < 1 || n > i64::from(self.players) {
                    return Err(self.err(ExecErrorKind::OutOfRange, format!("there is no player {n} in a game of {}", self.players), e));
                }
                Value::Player((n - 1) as u8)
            }
            Builtin::Opposite => match vals[0] {
                Value::Dir(d) => Value::Dir(-d),
                other => return Err(self.err(ExecErrorKind::Type, format!("a direction was needed, found {}", self.label(other)), arg(0))),
            },
        })
    }
}

/// Boards: grid positions, neighbours and regions.
impl Game {
    /// Row and column (from 1) of a grid cell.
    pub(crate) fn grid_pos(&self, z: u16) -> Option<(i64, i64)> {
        let (t, i) = self.zones.get(z as usize)?.space?;
        match self.model.tracks[t.idx()].shape {
            Shape::Grid { cols, .. } => Some((i64::from(i / cols) + 1, i64::from(i % cols) + 1)),
            _ => None,
        }
    }

    fn cell_zone(&self, t: TrackId, r: i64, c: i64) -> Option<u16> {
        match self.model.tracks[t.idx()].shape {
            Shape::Grid { rows, cols, .. } if (1..=i64::from(rows)).contains(&r) && (1..=i64::from(cols)).contains(&c) => {
                Some(self.track_base[t.idx()] + ((r - 1) * i64::from(cols) + (c - 1)) as u16)
            }
            _ => None,
        }
    }

    /// Push the spaces next to `z`: 4 neighbours on a grid, the previous and
    /// next space on a track (wrapping on a circular one).
    fn neighbors(&self, z: u16, out: &mut Vec<Value>) {
        let Some((t, i)) = self.zones.get(z as usize).and_then(|x| x.space) else { return };
        match self.model.tracks[t.idx()].shape {
            Shape::Grid { hex, .. } => {
                if let Some((r, c)) = self.grid_pos(z) {
                    let touching: &[(i64, i64)] = if hex { &[(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] } else { &[(-1, 0), (0, -1), (0, 1), (1, 0)] };
                    for &(dr, dc) in touching {
                        if let Some(x) = self.cell_zone(t, r + dr, c + dc) {
                            out.push(Value::Zone(x));
                        }
                    }
                }
            }
            Shape::Graph => {
                let base = self.track_base[t.idx()];
                for (a, b, _) in &self.model.tracks[t.idx()].edges {
                    if *a == i {
                        out.push(Value::Zone(base + b));
                    } else if *b == i {
                        out.push(Value::Zone(base + a));
                    }
                }
            }
            Shape::Linear | Shape::Circular => {
                for d in [-1i64, 1] {
                    if let Some(x) = self.space_zone(t, i64::from(i) + d) {
                        if x != z {
                            out.push(Value::Zone(x));
                        }
                    }
                }
            }
        }
    }

    /// The tags of the edge between two nodes of the same graph, if any.
    fn edge_between(&self, a: u16, b: u16) -> Option<u64> {
        let (ta, ia) = self.zones.get(a as usize)?.space?;
        let (tb, ib) = self.zones.get(b as usize)?.space?;
        if ta != tb {
            return None;
        }
        self.model.tracks[ta.idx()].edges.iter().find(|(x, y, _)| (*x == ia && *y == ib) || (*x == ib && *y == ia)).map(|(_, _, m)| *m)
    }

    /// Flood fill from `start` through neighbours where `cond` holds.
    #[allow(clippy::too_many_arguments, reason = "the evaluation context is spread over borrowed parts of the engine")]
    fn region(&self, st: &mut State, scratch: &mut Vec<Value>, cx: Ctx, slot: u16, start: u16, cond: ExprId) -> Result<(), ExecError> {
        let at = (cx.base + u32::from(slot)) as usize;
        if st.stack.len() <= at {
            st.stack.resize(at + 1, Value::None);
        }
        let holds = |g: &Game, st: &mut State, scratch: &mut Vec<Value>, z: u16| -> Result<bool, ExecError> {
            st.stack[at] = Value::Zone(z);
            let v = g.eval(st, scratch, cx, cond)?;
            g.boolean(v, cond)
        };
        let first = scratch.len();
        if !holds(self, st, scratch, start)? {
            return Ok(());
        }
        scratch.push(Value::Zone(start));
        let mut next = first;
        let mut around = Vec::new();
        while next < scratch.len() {
            let Value::Zone(z) = scratch[next] else { break };
            next += 1;
            around.clear();
            self.neighbors(z, &mut around);
            for n in around.iter().copied() {
                let Value::Zone(nz) = n else { continue };
                if scratch[first..].contains(&n) {
                    continue;
                }
                if holds(self, st, scratch, nz)? {
                    scratch.push(n);
                }
            }
        }
        Ok(())
    }
}
