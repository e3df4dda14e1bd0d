//! Zones, pieces, players and the values of no fixed type (locals, vars,
//! table rows, `first`, variants, faces, directions).

use super::conds::with_cond;
use super::compiler::Compiler;
use super::operands::slot_of;
use super::{Index, IdF, ValF, NO_PLAYER};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::state::{NIL, NO_ACTOR};
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::Quantifier;

impl Compiler<'_> {
    pub(crate) fn zone_native(&mut self, e: ExprId) -> IdF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::If(c, a, b) => self.conditional(c, a, b, Self::zone),
            Expr::Box => {
                let b = g.box_zone;
                Box::new(move |_| b)
            }
            Expr::Node(t, i) => {
                let z = g.track_base[t.idx()] + i;
                Box::new(move |_| z)
            }
            Expr::Zone(d, idx) => {
                let base = g.zone_base[d.idx()];
                match (self.m.zones[d.idx()].mult, idx) {
                    (ZoneMult::Single, _) | (_, None) => Box::new(move |_| base),
                    (ZoneMult::PerPlayer, Some(i)) => {
                        let p = self.player_req(i);
                        Box::new(move |r| {
                            let p = p.get(r);
                            if p == u16::from(NO_PLAYER) {
                                NIL
                            } else {
                                base + p
                            }
                        })
                    }
                    (ZoneMult::PerSpace(t), Some(i)) => {
                        let z = self.zone_req(i);
                        let track = self.m.tracks[t.idx()].name.clone();
                        Box::new(move |r| {
                            let z = z.get(r);
                            match r.g.geometry.place.get(z as usize).copied().flatten() {
                                Some(p) if p.track == t => base + p.index,
                                _ if z == NIL => NIL,
                                _ => {
                                    let msg = format!("a space of `{track}` was needed, found {}", r.g.label(Value::zone(z)));
                                    r.fail(ExecErrorKind::Type, msg, at);
                                    NIL
                                }
                            }
                        })
                    }
                }
            }
            Expr::Cell(t, row, col) => {
                let (row, col) = (self.int_req(row), self.int_req(col));
                Box::new(move |r| {
                    let (a, b) = (row.get(r), col.get(r));
                    r.g.geometry.cell(t, a, b).unwrap_or(NIL)
                })
            }
            Expr::Space(t, i) => {
                let i = self.int_req(i);
                let board = &self.m.tracks[t.idx()];
                let (shape, name, size) = (board.shape, board.name.clone(), board.spaces.len());
                Box::new(move |r| {
                    let i = i.get(r);
                    match r.g.geometry.along(t, i.saturating_sub(1)) {
                        Some(z) => z,
                        None => {
                            r.fail(ExecErrorKind::OutOfRange, off_board(shape, &name, size, i), at);
                            NIL
                        }
                    }
                })
            }
            Expr::Step(z, dr, dc) => {
                let (z, dr, dc) = (self.zone_or_none(z), self.int_req(dr), self.int_req(dc));
                Box::new(move |r| {
                    let z = z.get(r);
                    let (a, b) = (dr.get(r), dc.get(r));
                    // From `none` (a step off the grid, chained), or from a
                    // zone that is not a cell of a grid (a piece off the
                    // board), no step leads anywhere.
                    if z == NIL {
                        return NIL;
                    }
                    r.g.geometry.step(z, a, b).unwrap_or(NIL)
                })
            }
            Expr::Call(Builtin::ZoneOf, args) => {
                let p = self.piece_req(args.first().copied().unwrap_or(e));
                Box::new(move |r| {
                    let p = p.get(r);
                    r.st.loc.get(p as usize).copied().unwrap_or(NIL)
                })
            }
            _ => self.mismatch(e),
        }
    }

    pub(crate) fn piece_native(&mut self, e: ExprId) -> IdF {
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::If(c, a, b) => self.conditional(c, a, b, Self::piece),
            Expr::PieceOf(k, None) => {
                let first = g.kind_range[k.idx()].0;
                Box::new(move |_| first)
            }
            Expr::PieceOfVariant(v) => {
                let p = g.piece_of_variant(v);
                Box::new(move |_| p)
            }
            Expr::PieceOf(k, Some(i)) => {
                let (first, count) = (g.kind_range[k.idx()].0, self.m.kinds[k.idx()].count);
                let p = self.player_req(i);
                Box::new(move |r| {
                    let p = p.get(r);
                    if p == u16::from(NO_PLAYER) {
                        NIL
                    } else {
                        first + p * count
                    }
                })
            }
            Expr::Call(Builtin::Top, args) => {
                let z = self.zone_req(args.first().copied().unwrap_or(e));
                Box::new(move |r| {
                    let z = z.get(r);
                    r.st.tail.get(z as usize).copied().unwrap_or(NIL)
                })
            }
            Expr::Leader(t, k) | Expr::Rearmost(t, k) => {
                let front = matches!(self.m.expr(e), Expr::Leader(..));
                let (base, len) = (g.track_base[t.idx()], self.m.tracks[t.idx()].spaces.len() as u16);
                Box::new(move |r| race_end(r, base, len, k, front))
            }
            _ => self.mismatch(e),
        }
    }

    pub(crate) fn player_native(&mut self, e: ExprId) -> IdF {
        let at = self.at(e);
        match self.m.expr(e).clone() {
            Expr::If(c, a, b) => self.conditional(c, a, b, Self::player),
            Expr::Actor => Box::new(|r| if r.actor == NO_ACTOR { u16::from(NO_PLAYER) } else { u16::from(r.actor) }),
            Expr::Call(b, args) => {
                let arg = |i: usize| args.get(i).copied().unwrap_or(e);
                match b {
                    Builtin::Owner => {
                        let p = self.piece_req(arg(0));
                        Box::new(move |r| {
                            let p = p.get(r);
                            r.g.inst_owner.get(p as usize).copied().flatten().map(u16::from).unwrap_or(u16::from(NO_PLAYER))
                        })
                    }
                    Builtin::Holder => {
                        let p = self.piece_req(arg(0));
                        Box::new(move |r| {
                            let p = p.get(r);
                            let z = r.st.loc.get(p as usize).copied().unwrap_or(NIL);
                            r.g.zones.get(z as usize).and_then(|info| info.owner).map(u16::from).unwrap_or(u16::from(NO_PLAYER))
                        })
                    }
                    Builtin::NextPlayer => {
                        let (p, d) = (self.player_req(arg(0)), self.val(arg(1)));
                        let dir_at = self.at(arg(1));
                        Box::new(move |r| {
                            let p = p.get(r);
                            let d = match d(r) {
                                Value::Dir(d) => d,
                                other => {
                                    r.wrong("a direction", other, dir_at);
                                    return u16::from(NO_PLAYER);
                                }
                            };
                            if p == u16::from(NO_PLAYER) {
                                return p;
                            }
                            (i64::from(p) + d).rem_euclid(i64::from(r.g.players)) as u16
                        })
                    }
                    Builtin::PlayerNo => {
                        let n = self.int_req(arg(0));
                        Box::new(move |r| {
                            let n = n.get(r);
                            if n < 1 || n > i64::from(r.g.players) {
                                let msg = format!("there is no player {n} in a game of {}", r.g.players);
                                r.fail(ExecErrorKind::OutOfRange, msg, at);
                                return u16::from(NO_PLAYER);
                            }
                            (n - 1) as u16
                        })
                    }
                    _ => self.mismatch(e),
                }
            }
            _ => self.mismatch(e),
        }
    }

    // ------------------------------------------------------------ other values

    pub(crate) fn val_native(&mut self, e: ExprId) -> ValF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::If(c, a, b) => self.conditional(c, a, b, Self::val),
            Expr::None => Box::new(|_| Value::None),
            Expr::Local(s) => {
                let s = self.slot(s);
                Box::new(move |r| r.local(s))
            }
            Expr::Var(v, idx) => {
                let base = g.var_base[v.idx()];
                let index = self.index(idx, self.m.vars[v.idx()].per_piece);
                if let Index::None = index {
                    let s = base as usize;
                    return Box::new(move |r| r.st.vars.get(s).copied().unwrap_or_default());
                }
                Box::new(move |r| match slot_of(r, base, &index, at) {
                    Some(s) => r.st.vars.get(s).copied().unwrap_or_default(),
                    None => Value::None,
                })
            }
            Expr::Variant(v) => Box::new(move |_| Value::variant(v.0)),
            Expr::Face(f) => Box::new(move |_| Value::face(f.0)),
            Expr::Dir(d) => Box::new(move |_| Value::dir(d)),
            Expr::Row(t, key) => {
                let key = self.int_req(key);
                // The rows' key ranges (which do not overlap) by first key,
                // with each row's place in the table: a lookup is a binary
                // search, not a walk of every row, so its time is bounded as
                // its steps are (a hostile tester's table of 100,000 rows
                // took three minutes to run out of fuel).
                let mut rows: Vec<(i64, i64, u16)> = self.m.tables[t.idx()].rows.iter().enumerate().map(|(i, (lo, hi, _))| (*lo, *hi, i as u16)).collect();
                rows.sort_unstable();
                let name = self.m.tables[t.idx()].name.clone();
                Box::new(move |r| {
                    let k = key.get(r);
                    let found = rows.partition_point(|(lo, _, _)| *lo <= k).checked_sub(1).and_then(|i| rows.get(i)).filter(|(_, hi, _)| k <= *hi);
                    match found {
                        Some((_, _, row)) => Value::row(t.0, *row),
                        None => {
                            r.fail(ExecErrorKind::OutOfRange, format!("the table `{name}` has no row for {k}"), at);
                            Value::None
                        }
                    }
                })
            }
            Expr::Column(row, c) => {
                let row = self.val(row);
                Box::new(move |r| match row(r) {
                    Value::Row(packed) => {
                        let (t, i) = Value::row_parts(packed);
                        r.g.table_cell(r, t, i, c)
                    }
                    other => {
                        r.wrong("a table row", other, at);
                        Value::None
                    }
                })
            }
            Expr::Comp(Quantifier::First, slot, coll, body) => {
                self.once_per_walk(e, |c| c.first(slot, coll, body))
            }
            Expr::Call(Builtin::Opposite, args) => {
                let d = self.val(args.first().copied().unwrap_or(e));
                Box::new(move |r| match d(r) {
                    Value::Dir(d) => Value::Dir(-d),
                    other => {
                        r.wrong("a direction", other, at);
                        Value::None
                    }
                })
            }
            _ => self.mismatch(e),
        }
    }

    /// `first slot in coll where body`.
    fn first(&mut self, slot: u16, coll: ExprId, body: Option<ExprId>) -> ValF {
        let items = self.items(coll);
        let slot = self.slot(slot);
        with_cond!(self.cond(slot, body, items.gives()), cond => Box::new(move |r| {
            let mut found = Value::None;
            items.walk_kept(r, &cond, |_, item| {
                found = item;
                false
            });
            found
        }))
    }

    // ------------------------------------------------------------ collections
}

/// The first (`front`) or last piece of a kind in race order on a track:
/// the furthest space first, and on a space the earliest arrival first.
fn race_end(r: &Run, base: u16, len: u16, k: KindId, front: bool) -> u16 {
    let is_kind = |p: &u16| r.g.inst_kind.get(*p as usize) == Some(&k);
    // Fewer pieces of the kind than spaces: the space is found from where
    // the pieces are, not by walking the track (a 1,600-space track made
    // `leader` 3.8 times the cost of a move: an outside tester's).
    let (first, count) = r.g.kind_range.get(k.idx()).copied().unwrap_or((0, 0));
    if count < len {
        let on_track = (first..first + count).filter_map(|p| r.st.loc.get(p as usize).copied()).filter(|z| (base..base + len).contains(z));
        let space = if front { on_track.max() } else { on_track.min() };
        return match space {
            Some(z) if front => r.st.zone_pieces(z).find(is_kind).unwrap_or(NIL),
            Some(z) => r.st.zone_pieces(z).filter(is_kind).last().unwrap_or(NIL),
            None => NIL,
        };
    }
    if front {
        for z in (base..base + len).rev() {
            if let Some(p) = r.st.zone_pieces(z).find(is_kind) {
                return p;
            }
        }
    } else {
        for z in base..base + len {
            if let Some(p) = r.st.zone_pieces(z).filter(is_kind).last() {
                return p;
            }
        }
    }
    NIL
}

/// `space(BOARD, i)` past the board, named as the rulebook declares it: a
/// graph's spaces are its nodes (numbered in declaration order), a grid's
/// its cells (row by row).
#[cold]
fn off_board(shape: crate::model::Shape, name: &str, size: usize, i: i64) -> String {
    match shape {
        crate::model::Shape::Graph => format!("the graph `{name}` has no node {i} (its nodes are numbered 1 to {size})"),
        crate::model::Shape::Grid { .. } => format!("the grid `{name}` has no cell {i} (its cells are numbered 1 to {size}, row by row)"),
        _ => format!("space {i} is off the track `{name}` (its spaces are numbered 1 to {size})"),
    }
}
