//! Operands read in place: most operands of a built-in or an operation are
//! constants or locals, so they are read by a `match` instead of a call to a
//! closure; the rest keep their closure. Also the arithmetic of the language
//! and the slots of per-player and per-piece vars and counters.

use super::{BoolF, IdF, Index, IntF, ValF, NONE_INT, NO_PLAYER};
use crate::engine::error::ExecErrorKind;
use crate::engine::run::Run;
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::Loc;
use grimoire_grammar::ast::BinOp;

/// Which kind of id an [`IdOp`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdKind {
    Zone,
    Piece,
    Player,
}

impl IdKind {
    pub(crate) fn none(self) -> u16 {
        match self {
            IdKind::Zone | IdKind::Piece => NIL,
            IdKind::Player => u16::from(NO_PLAYER),
        }
    }
    pub(crate) fn what(self) -> &'static str {
        match self {
            IdKind::Zone => "a zone",
            IdKind::Piece => "a piece",
            IdKind::Player => "a player",
        }
    }
}

/// A zone, piece or player operand that must not be `none`. Most operands
/// are constants or locals: they are read in place, without a call. (Ids in
/// values are made by the engine, so they are always in range.)
pub(crate) enum IdOp {
    Const(u16),
    Zone(u16, Loc),
    Piece(u16, Loc),
    Player(u16, Loc),
    /// A local zone where `none` is allowed (it gives `NIL`).
    ZoneOrNone(u16, Loc),
    /// `zone_of(x)` for a local piece `x`.
    ZoneOfLocal(u16, Loc),
    /// `owner(x)` for a local piece `x` (`none` for a piece of nobody is
    /// an error).
    OwnerOfLocal(u16, Loc),
    /// `owner(x)` for a local piece `x`, where `none` for a piece of nobody
    /// is allowed (a comparison).
    OwnerOrNoneOfLocal(u16, Loc),
    /// `owner(top(z))` for a local zone `z`, `none` for a piece of nobody
    /// allowed (a comparison); an empty zone has no top piece to ask, an
    /// error at `top_at`, as `top(z)` given to `owner` is.
    OwnerOfTopOfLocal { slot: u16, zone_at: Loc, top_at: Loc },
    /// `cell(grid, row, col)`, read in place (tic-tac-toe written with
    /// its lines spelt out asks for a cell a dozen times a ply); off the
    /// grid it is `none`, an error when `req`.
    Cell(Box<CellAt>),
    /// Any other expression, `none` allowed.
    Dyn(IdF),
    /// Any other expression, `none` reported: checked here rather than by
    /// another closure around it.
    DynReq(IdF, IdKind, Loc),
}

/// The operands of [`IdOp::Cell`].
pub(crate) struct CellAt {
    pub(crate) grid: crate::engine::geometry::GridCells,
    pub(crate) row: IntOp,
    pub(crate) col: IntOp,
    /// Where `none` (a cell off the grid) is reported, when it is an error.
    pub(crate) req: Option<Loc>,
}

impl CellAt {
    /// Not inlined: its row and column are `IntOp`s, which may hold
    /// `IdOp`s, and a cycle of always-inlined `get`s is inlined nowhere
    /// (measured: every rulebook ran 1 to 2 % more instructions).
    #[inline(never)]
    fn get(&self, r: &mut Run) -> u16 {
        let (row, col) = (self.row.get(r), self.col.get(r));
        match self.grid.cell(row, col) {
            Some(z) => z,
            None => match &self.req {
                Some(at) => bad_id(r, Value::None, IdKind::Zone, at),
                None => NIL,
            },
        }
    }
}

impl IdOp {
    /// Its value; `none` or a value of another type is reported and comes
    /// back as the kind's `none`.
    #[inline(always)]
    pub(crate) fn get(&self, r: &mut Run) -> u16 {
        match self {
            IdOp::Const(x) => *x,
            IdOp::Zone(slot, at) => match r.local(*slot) {
                Value::Zone(z) => z as u16,
                other => bad_id(r, other, IdKind::Zone, at),
            },
            IdOp::ZoneOrNone(slot, at) => match r.local(*slot) {
                Value::Zone(z) => z as u16,
                Value::None => NIL,
                other => bad_id(r, other, IdKind::Zone, at),
            },
            IdOp::Piece(slot, at) => match r.local(*slot) {
                Value::Piece(p) => p as u16,
                other => bad_id(r, other, IdKind::Piece, at),
            },
            IdOp::Player(slot, at) => match r.local(*slot) {
                Value::Player(p) => p as u16,
                other => bad_id(r, other, IdKind::Player, at),
            },
            IdOp::ZoneOfLocal(slot, at) => match r.local(*slot) {
                Value::Piece(p) => r.st.loc.get(p as usize).copied().unwrap_or(NIL),
                other => bad_id(r, other, IdKind::Piece, at),
            },
            IdOp::OwnerOfLocal(slot, at) => match r.local(*slot) {
                Value::Piece(p) => match r.g.inst_owner.get(p as usize).copied().flatten() {
                    Some(o) => u16::from(o),
                    None => bad_id(r, Value::None, IdKind::Player, at),
                },
                other => bad_id(r, other, IdKind::Piece, at),
            },
            IdOp::OwnerOrNoneOfLocal(slot, at) => match r.local(*slot) {
                Value::Piece(p) => r.g.inst_owner.get(p as usize).copied().flatten().map(u16::from).unwrap_or(u16::from(NO_PLAYER)),
                other => bad_id(r, other, IdKind::Piece, at),
            },
            IdOp::OwnerOfTopOfLocal { slot, zone_at, top_at } => {
                let z = match r.local(*slot) {
                    Value::Zone(z) => z as u16,
                    other => {
                        bad_id(r, other, IdKind::Zone, zone_at);
                        return u16::from(NO_PLAYER);
                    }
                };
                match r.st.tail.get(z as usize).copied().unwrap_or(NIL) {
                    NIL => {
                        bad_id(r, Value::None, IdKind::Piece, top_at);
                        u16::from(NO_PLAYER)
                    }
                    p => r.g.inst_owner.get(p as usize).copied().flatten().map(u16::from).unwrap_or(u16::from(NO_PLAYER)),
                }
            }
            IdOp::Cell(c) => c.get(r),
            IdOp::Dyn(f) => f(r),
            IdOp::DynReq(f, kind, at) => {
                let x = f(r);
                if x == kind.none() {
                    r.wrong(kind.what(), Value::None, *at);
                }
                x
            }
        }
    }
}

#[cold]
#[inline(never)]
pub(crate) fn bad_id(r: &mut Run, found: Value, kind: IdKind, at: &Loc) -> u16 {
    r.wrong(kind.what(), found, *at);
    kind.none()
}

#[cold]
#[inline(never)]
pub(crate) fn bad_int(r: &mut Run, found: Value, req: bool, at: &Loc) -> i64 {
    if found == Value::None && !req {
        return NONE_INT;
    }
    r.wrong("a number", found, *at);
    0
}

/// A number operand: constants, locals and the cheap reads of the state
/// (a counter, an attribute of a local piece, `count`, `row`, `col`) are
/// read in place, without a call.
pub(crate) enum IntOp {
    Const(i64),
    /// `req`: `none` is an error.
    Local { slot: u16, at: Loc, req: bool },
    /// `count(zone)`.
    Count(IdOp),
    /// A counter of one slot.
    Counter(u32),
    /// `score[p]` for a local player `p`: the counter's first slot.
    PlayerCounter { base: u32, who: u16, at: Loc },
    /// `x.attr` for a local `x`.
    Attr(Box<AttrRead>),
    /// `row(z)` (or `col(z)` when `column`); `none` off a grid, an error
    /// when `req`.
    Line { column: bool, z: IdOp, req: bool, at: Loc },
    /// Any other expression, `none` allowed.
    Dyn(IntF),
    /// Any other expression, `none` reported: checked here rather than by
    /// another closure around it.
    DynReq(IntF, Loc),
}

impl IntOp {
    #[inline(always)]
    pub(crate) fn get(&self, r: &mut Run) -> i64 {
        match self {
            IntOp::Const(x) => *x,
            IntOp::Local { slot, at, req } => match r.local(*slot) {
                Value::Int(i) => i,
                other => bad_int(r, other, *req, at),
            },
            IntOp::Count(z) => {
                let z = z.get(r);
                r.st.len.get(z as usize).map(|n| i64::from(*n)).unwrap_or(0)
            }
            IntOp::Counter(s) => r.st.counters.get(*s as usize).copied().unwrap_or(0),
            IntOp::PlayerCounter { base, who, at } => match r.local(*who) {
                Value::Player(p) if p < u64::from(r.g.players) => r.st.counters.get(*base as usize + p as usize).copied().unwrap_or(0),
                // An id past the player count is never made by the engine.
                Value::Player(_) => 0,
                other => {
                    bad_id(r, other, IdKind::Player, at);
                    0
                }
            },
            IntOp::Attr(a) => a.get(r),
            IntOp::Line { column, z, req, at } => {
                let z = z.get(r);
                let table = if *column { &r.g.geometry.cols } else { &r.g.geometry.rows };
                let i = table.get(z as usize).copied().unwrap_or(NONE_INT);
                if *req {
                    return r.need_int(i, *at);
                }
                i
            }
            IntOp::Dyn(f) => f(r),
            IntOp::DynReq(f, at) => {
                let x = f(r);
                r.need_int(x, *at)
            }
        }
    }
}

/// The values of one attribute: of every piece (through its variant) and
/// of every variant.
#[derive(Debug)]
pub(crate) struct AttrTable {
    pub(crate) by_piece: Box<[Option<i64>]>,
    pub(crate) by_variant: Box<[Option<i64>]>,
    pub(crate) name: Box<str>,
    pub(crate) at: Loc,
}

impl AttrTable {
    /// The attribute of any value (an error when it has none).
    #[inline(never)]
    pub(crate) fn of(&self, r: &mut Run, v: Value) -> i64 {
        let found = match v {
            Value::Piece(p) => self.by_piece.get(p as usize).copied().flatten(),
            Value::Variant(x) => self.by_variant.get(x as usize).copied().flatten(),
            _ => None,
        };
        match found {
            Some(x) => x,
            None => {
                let msg = format!("{} has no attribute `{}`", r.g.label(v), self.name);
                r.fail(ExecErrorKind::Type, msg, self.at);
                0
            }
        }
    }
}

/// `x.attr` for a local `x`.
#[derive(Debug)]
pub(crate) struct AttrRead {
    pub(crate) slot: u16,
    pub(crate) table: AttrTable,
}

impl AttrRead {
    /// The attribute of the local's value: a piece's in one lookup; a
    /// variant's, or the error of a value without it, out of line.
    #[inline(always)]
    pub(crate) fn get(&self, r: &mut Run) -> i64 {
        let v = r.local(self.slot);
        if let Value::Piece(p) = v {
            if let Some(Some(x)) = self.table.by_piece.get(p as usize) {
                return *x;
            }
        }
        self.table.of(r, v)
    }
}

/// A value operand: a constant or a local is read in place, and an
/// expression of a fixed type is its typed closure, turned into a value
/// here (as `Compiler::val` would in a closure around it): one call fewer.
pub(crate) enum ValOp {
    Const(Value),
    Local(u16),
    Int(IntF),
    Bool(BoolF),
    Zone(IdF),
    Piece(IdF),
    Player(IdF),
    /// Any other expression.
    Dyn(ValF),
}

impl ValOp {
    #[inline(always)]
    pub(crate) fn get(&self, r: &mut Run) -> Value {
        match self {
            ValOp::Const(v) => *v,
            ValOp::Local(s) => r.local(*s),
            ValOp::Int(f) => int_value(f(r)),
            ValOp::Bool(f) => Value::bool(f(r)),
            ValOp::Zone(f) => zone_value(f(r)),
            ValOp::Piece(f) => piece_value(f(r)),
            ValOp::Player(f) => player_value(f(r)),
            ValOp::Dyn(f) => f(r),
        }
    }
}

/// A number as a value: `NONE_INT` is `none`.
#[inline(always)]
pub(crate) fn int_value(i: i64) -> Value {
    if i == NONE_INT {
        Value::None
    } else {
        Value::Int(i)
    }
}

/// A zone as a value: `NIL` is `none`.
#[inline(always)]
pub(crate) fn zone_value(z: u16) -> Value {
    if z == NIL {
        Value::None
    } else {
        Value::zone(z)
    }
}

/// A piece as a value: `NIL` is `none`.
#[inline(always)]
pub(crate) fn piece_value(p: u16) -> Value {
    if p == NIL {
        Value::None
    } else {
        Value::piece(p)
    }
}

/// A player as a value: `NO_PLAYER` is `none`.
#[inline(always)]
pub(crate) fn player_value(p: u16) -> Value {
    if p == u16::from(NO_PLAYER) {
        Value::None
    } else {
        Value::player(p as u8)
    }
}

/// What a closure returns after recording an error: a value that no
/// operation acts on (the run stops at the end of the operation).
pub(crate) trait Fallback {
    fn fallback() -> Self;
}
impl Fallback for i64 {
    fn fallback() -> Self {
        0
    }
}
impl Fallback for bool {
    fn fallback() -> Self {
        false
    }
}
impl Fallback for u16 {
    fn fallback() -> Self {
        NIL
    }
}
impl Fallback for Value {
    fn fallback() -> Self {
        Value::None
    }
}

/// The slot of a var or counter.
#[inline(always)]
pub(crate) fn slot_of(r: &mut Run, base: u32, index: &Index, at: Loc) -> Option<usize> {
    match index {
        Index::None => Some(base as usize),
        Index::Player(f) => {
            let p = f.get(r);
            (p < u16::from(r.g.players)).then_some(base as usize + p as usize)
        }
        Index::Piece(f, k, first, n) => {
            let p = f.get(r);
            if p == NIL {
                return None;
            }
            if p < *first || p >= first + n {
                let msg = format!("a `{}` was needed, found {}", r.g.model.kinds[k.idx()].name, r.g.label(Value::piece(p)));
                r.fail(ExecErrorKind::Type, msg, at);
                return None;
            }
            Some(base as usize + (p - first) as usize)
        }
    }
}

/// Write a var or counter slot: used by assignments.
pub(crate) fn resolve_slot(r: &mut Run, base: u32, index: &Index, at: Loc) -> Option<usize> {
    slot_of(r, base, index, at)
}

/// Integer arithmetic as the language defines it: floor division and
/// remainder, and an error instead of a wrong number on overflow.
pub(crate) fn arith(r: &mut Run, op: BinOp, x: i64, y: i64, at: Loc) -> i64 {
    if y == 0 && matches!(op, BinOp::Div | BinOp::Rem) {
        r.fail(ExecErrorKind::OutOfRange, "division by zero".into(), at);
        return 0;
    }
    match arith_checked(op, x, y) {
        Some(v) => v,
        None => {
            let sign = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::Div => "/",
                _ => "%",
            };
            r.fail(ExecErrorKind::OutOfRange, format!("{x} {sign} {y} does not fit in a number (from -2^63 + 1 to 2^63 - 1)"), at);
            0
        }
    }
}

/// `x op y`, or `None` where the language reports an error: a result that
/// does not fit, a division by zero. Division is floor division, as the
/// text's "arrondi à l'entier inférieur": the remainder takes the divisor's
/// sign.
pub(crate) fn arith_checked(op: BinOp, x: i64, y: i64) -> Option<i64> {
    let result = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        _ => match (x.checked_div(y), x.checked_rem(y)) {
            (Some(q), Some(rem)) => {
                let floor = rem != 0 && ((rem < 0) != (y < 0));
                Some(match (op, floor) {
                    (BinOp::Div, true) => q.checked_sub(1)?,
                    (BinOp::Div, false) => q,
                    (_, true) => rem + y,
                    (_, false) => rem,
                })
            }
            _ => None,
        },
    };
    result.filter(|v| *v != NONE_INT)
}
