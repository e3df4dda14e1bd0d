//! Expressions to closures. Each expression has a native form, read off its
//! shape: a count is a number, a comparison a truth value, `hand[p]` a zone,
//! `top(z)` a piece, `owner(x)` a player, a local or a var any value. A
//! closure of the native form is built directly; asking for another form
//! wraps it in a conversion that checks the value at run time (the cold path
//! reports the same error the resolver's types promise will not happen).

use super::{BoolF, CollF, IdF, Index, IntF, ValF, Visit, NONE_INT, NO_PLAYER};
use crate::engine::error::ExecErrorKind;
use crate::engine::geometry::DIRECTIONS;
use crate::engine::layout::Game;
use crate::engine::run::Run;
use crate::engine::state::{NIL, NO_ACTOR};
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

/// What an expression gives without conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Native {
    Int,
    Bool,
    Zone,
    Piece,
    Player,
    Val,
    Coll,
}

/// Functions may call functions this deep (they are inlined).
pub(crate) const INLINE_DEPTH: u32 = 64;

/// Compiles the expressions of one frame (a procedure, or the window of the
/// initial values): slots of inlined functions and hidden slots are
/// allocated past the frame's own locals.
pub(crate) struct Compiler<'c> {
    pub(crate) g: &'c Game,
    pub(crate) m: &'c Model,
    /// The procedure, then one scope per function being inlined.
    scopes: Vec<Scope>,
    /// Slots of the frame in use so far.
    pub(crate) frame: u16,
}

/// Where the locals of the code being compiled live.
struct Scope {
    /// Added to every slot: where an inlined function's locals start.
    offset: u16,
    /// For an inlined function: the argument expression (of the caller)
    /// that stands for each parameter, when it is simple enough to use in
    /// place (a local, a constant); `None` when the argument was stored.
    args: Vec<Option<ExprId>>,
}

/// Signature of a closure giving one kind of unboxed value.
type F<T> = Box<dyn Fn(&mut Run) -> T + Send + Sync>;

/// Which kind of id an [`IdOp`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdKind {
    Zone,
    Piece,
    Player,
}

impl IdKind {
    fn none(self) -> u16 {
        match self {
            IdKind::Zone | IdKind::Piece => NIL,
            IdKind::Player => u16::from(NO_PLAYER),
        }
    }
    fn what(self) -> &'static str {
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
    Dyn(IdF),
}

impl IdOp {
    /// Its value; `none` or a value of another type is reported and comes
    /// back as the kind's `none`.
    #[inline(always)]
    pub(crate) fn get(&self, r: &mut Run) -> u16 {
        match self {
            IdOp::Const(x) => *x,
            IdOp::Zone(slot, at) => match r.local(*slot) {
                Value::Zone(z) => z,
                other => bad_id(r, other, IdKind::Zone, at),
            },
            IdOp::Piece(slot, at) => match r.local(*slot) {
                Value::Piece(p) => p,
                other => bad_id(r, other, IdKind::Piece, at),
            },
            IdOp::Player(slot, at) => match r.local(*slot) {
                Value::Player(p) => u16::from(p),
                other => bad_id(r, other, IdKind::Player, at),
            },
            IdOp::Dyn(f) => f(r),
        }
    }
}

#[cold]
#[inline(never)]
fn bad_id(r: &mut Run, found: Value, kind: IdKind, at: &Loc) -> u16 {
    r.wrong(kind.what(), found, *at);
    kind.none()
}

#[cold]
#[inline(never)]
fn bad_int(r: &mut Run, found: Value, req: bool, at: &Loc) -> i64 {
    if found == Value::None && !req {
        return NONE_INT;
    }
    r.wrong("a number", found, *at);
    0
}

/// A number operand: constants and locals are read in place.
pub(crate) enum IntOp {
    Const(i64),
    /// `req`: `none` is an error.
    Local { slot: u16, at: Loc, req: bool },
    Dyn(IntF),
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
            IntOp::Dyn(f) => f(r),
        }
    }
}

impl<'c> Compiler<'c> {
    pub(crate) fn new(g: &'c Game, locals: u16) -> Self {
        Compiler { g, m: &g.model, scopes: vec![Scope { offset: 0, args: Vec::new() }], frame: locals }
    }

    /// A fresh hidden slot of the frame (loops, `as`, inlined functions).
    pub(crate) fn alloc(&mut self, n: u16) -> u16 {
        let at = self.frame;
        self.frame = self.frame.saturating_add(n);
        at
    }

    /// The frame slot of a local as the rulebook numbers it.
    pub(crate) fn slot(&self, s: u16) -> u16 {
        self.scopes.last().map(|sc| sc.offset).unwrap_or(0).saturating_add(s)
    }

    /// The caller's argument that stands for this parameter of the function
    /// being inlined, if it is used in place.
    fn argument(&self, e: ExprId) -> Option<ExprId> {
        let Expr::Local(s) = self.m.expr(e) else { return None };
        self.scopes.last()?.args.get(*s as usize).copied().flatten()
    }

    /// Compile an argument expression in the caller's scope.
    fn in_caller<T>(&mut self, arg: ExprId, compile: impl FnOnce(&mut Self, ExprId) -> T) -> T {
        let inner = self.scopes.pop();
        let out = compile(self, arg);
        if let Some(sc) = inner {
            self.scopes.push(sc);
        }
        out
    }

    /// Arguments cheap and pure enough to be evaluated where the parameter
    /// is read instead of once into a slot.
    fn simple(&self, e: ExprId) -> bool {
        match self.m.expr(e) {
            Expr::Local(_) | Expr::Int(_) | Expr::Bool(_) | Expr::None | Expr::Variant(_) | Expr::Face(_) | Expr::Dir(_) | Expr::PlayerCount | Expr::Box | Expr::Node(..) | Expr::Actor | Expr::Enabled(_) => true,
            Expr::Zone(_, None) | Expr::Var(_, None) | Expr::Counter(_, None) | Expr::PieceOf(_, None) => true,
            _ => false,
        }
    }

    fn at(&self, e: ExprId) -> Loc {
        self.m.expr_at.get(e.0 as usize).copied().unwrap_or(Loc { file: FileId(0), span: grimoire_grammar::ast::Span::new(0, 0) })
    }

    fn native(&self, e: ExprId) -> Native {
        match self.m.expr(e) {
            Expr::Int(_) | Expr::Counter(..) | Expr::PlayerCount | Expr::RoundNumber | Expr::Attr(..) | Expr::Neg(_) | Expr::CellRow(_) | Expr::CellCol(_) | Expr::InARow(..) => Native::Int,
            Expr::Bin(op, ..) => match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => Native::Int,
                _ => Native::Bool,
            },
            Expr::Comp(q, ..) => match q {
                Quantifier::Count | Quantifier::CountWhile | Quantifier::Sum | Quantifier::Max | Quantifier::Min => Native::Int,
                Quantifier::Any | Quantifier::All => Native::Bool,
                Quantifier::First => Native::Val,
                Quantifier::Filter | Quantifier::FilterWhile => Native::Coll,
            },
            Expr::Call(b, _) => match b {
                Builtin::Count | Builtin::Pos | Builtin::Index | Builtin::Abs | Builtin::Min | Builtin::Max => Native::Int,
                Builtin::ZoneOf => Native::Zone,
                Builtin::Top => Native::Piece,
                Builtin::Owner | Builtin::Holder | Builtin::NextPlayer | Builtin::PlayerNo => Native::Player,
                Builtin::Opposite => Native::Val,
            },
            Expr::Bool(_) | Expr::Not(_) | Expr::Tagged(..) | Expr::Enabled(_) | Expr::Is(..) | Expr::IsKind(..) | Expr::Linked(..) => Native::Bool,
            Expr::Zone(..) | Expr::Box | Expr::Node(..) | Expr::Cell(..) | Expr::Space(..) | Expr::Step(..) => Native::Zone,
            Expr::PieceOf(..) | Expr::Leader(..) | Expr::Rearmost(..) => Native::Piece,
            Expr::Actor => Native::Player,
            Expr::None | Expr::Local(_) | Expr::Var(..) | Expr::Variant(_) | Expr::Face(_) | Expr::Dir(_) | Expr::Row(..) | Expr::Column(..) | Expr::CallFn(..) => Native::Val,
            Expr::Players | Expr::Range(..) | Expr::List(_) | Expr::Spaces(_) | Expr::Pieces(_) | Expr::PiecesOf(..) | Expr::Contents(_) | Expr::Neighbors(_) | Expr::Line(..) | Expr::Region(..) => Native::Coll,
        }
    }

    // ------------------------------------------------------------ entry points

    /// A number (`NONE_INT` for none).
    pub(crate) fn int(&mut self, e: ExprId) -> IntF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.int(a));
        }
        if let Expr::Local(s) = self.m.expr(e) {
            let (s, at) = (self.slot(*s), self.at(e));
            return Box::new(move |r| {
                let v = r.local(s);
                r.as_int(v, at)
            });
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.int(body));
        }
        if self.native(e) == Native::Int {
            return self.int_native(e);
        }
        let (v, at) = (self.val(e), self.at(e));
        Box::new(move |r| {
            let x = v(r);
            r.as_int(x, at)
        })
    }

    /// A number that must not be `none`.
    pub(crate) fn int_req(&mut self, e: ExprId) -> IntOp {
        self.int_op(e, true)
    }

    /// A number as an operand: a constant or a local is read in place.
    pub(crate) fn int_op(&mut self, e: ExprId, req: bool) -> IntOp {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.int_op(a, req));
        }
        match self.m.expr(e) {
            Expr::Int(i) => return IntOp::Const(*i),
            Expr::PlayerCount => return IntOp::Const(i64::from(self.g.players)),
            Expr::Local(s) => return IntOp::Local { slot: self.slot(*s), at: self.at(e), req },
            _ => {}
        }
        let (f, at) = (self.int(e), self.at(e));
        if !req {
            return IntOp::Dyn(f);
        }
        IntOp::Dyn(Box::new(move |r| {
            let x = f(r);
            r.need_int(x, at)
        }))
    }

    /// A truth value.
    pub(crate) fn bool(&mut self, e: ExprId) -> BoolF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.bool(a));
        }
        if let Expr::Local(s) = self.m.expr(e) {
            let (s, at) = (self.slot(*s), self.at(e));
            return Box::new(move |r| {
                let v = r.local(s);
                r.as_bool(v, at)
            });
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.bool(body));
        }
        if self.native(e) == Native::Bool {
            return self.bool_native(e);
        }
        let (v, at) = (self.val(e), self.at(e));
        Box::new(move |r| {
            let x = v(r);
            r.as_bool(x, at)
        })
    }

    /// A zone (`NIL` for none).
    pub(crate) fn zone(&mut self, e: ExprId) -> IdF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.zone(a));
        }
        if let Expr::Local(s) = self.m.expr(e) {
            let (s, at) = (self.slot(*s), self.at(e));
            return Box::new(move |r| {
                let v = r.local(s);
                r.as_zone(v, at)
            });
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.zone(body));
        }
        if self.native(e) == Native::Zone {
            return self.zone_native(e);
        }
        let (v, at) = (self.val(e), self.at(e));
        Box::new(move |r| {
            let x = v(r);
            r.as_zone(x, at)
        })
    }

    /// A piece (`NIL` for none).
    pub(crate) fn piece(&mut self, e: ExprId) -> IdF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.piece(a));
        }
        if let Expr::Local(s) = self.m.expr(e) {
            let (s, at) = (self.slot(*s), self.at(e));
            return Box::new(move |r| {
                let v = r.local(s);
                r.as_piece(v, at)
            });
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.piece(body));
        }
        if self.native(e) == Native::Piece {
            return self.piece_native(e);
        }
        let (v, at) = (self.val(e), self.at(e));
        Box::new(move |r| {
            let x = v(r);
            r.as_piece(x, at)
        })
    }

    /// A player (`NO_PLAYER` for none).
    pub(crate) fn player(&mut self, e: ExprId) -> IdF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.player(a));
        }
        if let Expr::Local(s) = self.m.expr(e) {
            let (s, at) = (self.slot(*s), self.at(e));
            return Box::new(move |r| {
                let v = r.local(s);
                r.as_player(v, at)
            });
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.player(body));
        }
        if self.native(e) == Native::Player {
            return self.player_native(e);
        }
        let (v, at) = (self.val(e), self.at(e));
        Box::new(move |r| {
            let x = v(r);
            r.as_player(x, at)
        })
    }

    /// A zone that must not be `none`: `NIL` after reporting it.
    pub(crate) fn zone_req(&mut self, e: ExprId) -> IdOp {
        self.id_op(e, IdKind::Zone)
    }

    /// A piece that must not be `none`.
    pub(crate) fn piece_req(&mut self, e: ExprId) -> IdOp {
        self.id_op(e, IdKind::Piece)
    }

    /// A player that must not be `none`.
    pub(crate) fn player_req(&mut self, e: ExprId) -> IdOp {
        self.id_op(e, IdKind::Player)
    }

    /// A zone, piece or player that must not be `none`, as an operand: a
    /// constant or a local is read in place.
    fn id_op(&mut self, e: ExprId, kind: IdKind) -> IdOp {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.id_op(a, kind));
        }
        let g = self.g;
        match (self.m.expr(e), kind) {
            (Expr::Local(s), IdKind::Zone) => return IdOp::Zone(self.slot(*s), self.at(e)),
            (Expr::Local(s), IdKind::Piece) => return IdOp::Piece(self.slot(*s), self.at(e)),
            (Expr::Local(s), IdKind::Player) => return IdOp::Player(self.slot(*s), self.at(e)),
            (Expr::Box, IdKind::Zone) => return IdOp::Const(g.box_zone),
            (Expr::Node(t, i), IdKind::Zone) => return IdOp::Const(g.track_base[t.idx()] + i),
            (Expr::Zone(d, None), IdKind::Zone) => return IdOp::Const(g.zone_base[d.idx()]),
            (Expr::PieceOf(k, None), IdKind::Piece) => return IdOp::Const(g.kind_range[k.idx()].0),
            _ => {}
        }
        let (f, at) = match kind {
            IdKind::Zone => (self.zone(e), self.at(e)),
            IdKind::Piece => (self.piece(e), self.at(e)),
            IdKind::Player => (self.player(e), self.at(e)),
        };
        IdOp::Dyn(Box::new(move |r| {
            let x = f(r);
            if x == kind.none() {
                r.wrong(kind.what(), Value::None, at);
            }
            x
        }))
    }

    /// Any value.
    pub(crate) fn val(&mut self, e: ExprId) -> ValF {
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.val(a));
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.val(body));
        }
        match self.native(e) {
            Native::Int => {
                let f = self.int_native(e);
                Box::new(move |r| {
                    let i = f(r);
                    if i == NONE_INT {
                        Value::None
                    } else {
                        Value::Int(i)
                    }
                })
            }
            Native::Bool => {
                let f = self.bool_native(e);
                Box::new(move |r| Value::Bool(f(r)))
            }
            Native::Zone => {
                let f = self.zone_native(e);
                Box::new(move |r| match f(r) {
                    NIL => Value::None,
                    z => Value::Zone(z),
                })
            }
            Native::Piece => {
                let f = self.piece_native(e);
                Box::new(move |r| match f(r) {
                    NIL => Value::None,
                    p => Value::Piece(p),
                })
            }
            Native::Player => {
                let f = self.player_native(e);
                Box::new(move |r| {
                    let p = f(r);
                    if p == u16::from(NO_PLAYER) {
                        Value::None
                    } else {
                        Value::Player(p as u8)
                    }
                })
            }
            Native::Val => self.val_native(e),
            Native::Coll => {
                let at = self.at(e);
                Box::new(move |r| {
                    r.fail(ExecErrorKind::Type, "a collection was used where one value is needed".into(), at);
                    Value::None
                })
            }
        }
    }

    /// A collection.
    pub(crate) fn coll(&mut self, e: ExprId) -> CollF {
        if self.native(e) == Native::Coll {
            return self.coll_native(e);
        }
        let at = self.at(e);
        Box::new(move |r, _| {
            r.fail(ExecErrorKind::Type, "a collection was needed here".into(), at);
            false
        })
    }

    /// A function call, inlined: simple arguments (locals, constants) are
    /// read in place wherever the body reads the parameter; the others are
    /// evaluated once into fresh slots of the frame, where the body (compiled
    /// with its slots moved there) reads them.
    fn inline<T: Fallback + 'static>(&mut self, f: FnId, args: &[ExprId], body: impl FnOnce(&mut Self, ExprId) -> F<T>) -> F<T> {
        let def = &self.m.fns[f.idx()];
        if self.scopes.len() > INLINE_DEPTH as usize {
            let at = def.at;
            let name = def.name.clone();
            // Only reachable by functions calling functions 64 deep.
            return Box::new(move |r| {
                r.fail(ExecErrorKind::OutOfRange, format!("functions call each other more than {INLINE_DEPTH} deep, through `{name}`"), at);
                T::fallback()
            });
        }
        let start = self.alloc(def.locals.max(args.len() as u16));
        let mut stored: Vec<(u16, ValF)> = Vec::new();
        let mut in_place = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if self.simple(*a) {
                in_place.push(Some(*a));
            } else {
                in_place.push(None);
                stored.push((start + i as u16, self.val(*a)));
            }
        }
        self.scopes.push(Scope { offset: start, args: in_place });
        let inner = body(self, def.body);
        self.scopes.pop();
        match stored.len() {
            0 => inner,
            1 => {
                let (slot, a) = stored.pop().map(|(s, a)| (s, a)).unwrap_or((start, Box::new(|_| Value::None)));
                Box::new(move |r| {
                    let v = a(r);
                    r.set_local(slot, v);
                    inner(r)
                })
            }
            _ => Box::new(move |r| {
                for (slot, a) in &stored {
                    let v = a(r);
                    r.set_local(*slot, v);
                }
                inner(r)
            }),
        }
    }

    /// The index of a per-player or per-piece var or counter.
    pub(crate) fn index(&mut self, idx: Option<ExprId>, per_piece: Option<KindId>) -> Index {
        match (idx, per_piece) {
            (None, _) => Index::None,
            (Some(i), None) => Index::Player(self.player_req(i)),
            (Some(i), Some(k)) => {
                let (first, n) = self.g.kind_range[k.idx()];
                Index::Piece(self.piece_req(i), k, first, n)
            }
        }
    }

    // ------------------------------------------------------------ numbers

    fn int_native(&mut self, e: ExprId) -> IntF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::Int(i) => Box::new(move |_| i),
            Expr::PlayerCount => {
                let n = i64::from(g.players);
                Box::new(move |_| n)
            }
            Expr::RoundNumber => Box::new(|r| i64::from(r.st.round)),
            Expr::Counter(c, idx) => {
                let base = g.counter_base[c.idx()];
                let index = self.index(idx, self.m.counters[c.idx()].per_piece);
                if let Index::None = index {
                    let s = base as usize;
                    return Box::new(move |r| r.st.counters.get(s).copied().unwrap_or(0));
                }
                Box::new(move |r| match slot_of(r, base, &index, at) {
                    Some(s) => r.st.counters.get(s).copied().unwrap_or(0),
                    None => 0,
                })
            }
            Expr::Attr(x, a) => {
                let v = self.val(x);
                let by_variant: Vec<Option<i64>> = self.m.variants.iter().map(|var| var.attrs.iter().find(|(n, _)| *n == a).map(|(_, x)| *x)).collect();
                let name = self.m.attrs.get(a as usize).cloned().unwrap_or_default();
                Box::new(move |r| {
                    let val = v(r);
                    let variant = match val {
                        Value::Piece(p) => r.g.inst_variant.get(p as usize).copied().flatten(),
                        Value::Variant(v) => Some(VariantId(v)),
                        _ => None,
                    };
                    match variant.and_then(|v| by_variant.get(v.idx()).copied().flatten()) {
                        Some(x) => x,
                        None => {
                            let msg = format!("{} has no attribute `{name}`", r.g.label(val));
                            r.fail(ExecErrorKind::Type, msg, at);
                            0
                        }
                    }
                })
            }
            Expr::Bin(op, a, b) => {
                let (fa, fb) = (self.int_req(a), self.int_req(b));
                if let Expr::Int(k) = self.m.expr(b).clone() {
                    if op == BinOp::Add {
                        return Box::new(move |r| {
                            let x = fa.get(r);
                            arith(r, BinOp::Add, x, k, at)
                        });
                    }
                }
                Box::new(move |r| {
                    let x = fa.get(r);
                    let y = fb.get(r);
                    arith(r, op, x, y, at)
                })
            }
            Expr::Neg(a) => {
                let f = self.int_req(a);
                Box::new(move |r| {
                    let x = f.get(r);
                    arith(r, BinOp::Sub, 0, x, at)
                })
            }
            Expr::Comp(q, slot, coll, body) => self.counting(q, slot, coll, body, at),
            Expr::Call(b, args) => {
                let arg = |i: usize| args.get(i).copied().unwrap_or(e);
                match b {
                    Builtin::Count => {
                        let z = self.zone_req(arg(0));
                        Box::new(move |r| {
                            let z = z.get(r);
                            r.st.len.get(z as usize).map(|n| i64::from(*n)).unwrap_or(0)
                        })
                    }
                    Builtin::Pos => {
                        let p = self.piece_req(arg(0));
                        Box::new(move |r| {
                            let p = p.get(r);
                            let z = r.st.loc.get(p as usize).copied().unwrap_or(NIL);
                            place_index(r.g, z)
                        })
                    }
                    Builtin::Index => {
                        let z = self.zone_req(arg(0));
                        Box::new(move |r| {
                            let z = z.get(r);
                            place_index(r.g, z)
                        })
                    }
                    Builtin::Abs => {
                        let x = self.int_req(arg(0));
                        Box::new(move |r| {
                            let v = x.get(r);
                            arith(r, BinOp::Sub, 0, v.min(0), at).max(v)
                        })
                    }
                    Builtin::Min | Builtin::Max => {
                        let (x, y) = (self.int_req(arg(0)), self.int_req(arg(1)));
                        let max = b == Builtin::Max;
                        Box::new(move |r| {
                            let (a, b) = (x.get(r), y.get(r));
                            if max {
                                a.max(b)
                            } else {
                                a.min(b)
                            }
                        })
                    }
                    _ => self.mismatch(e),
                }
            }
            Expr::CellRow(z) | Expr::CellCol(z) => {
                let row = matches!(self.m.expr(e), Expr::CellRow(_));
                let z = self.zone_req(z);
                Box::new(move |r| {
                    let z = z.get(r);
                    match r.g.geometry.grid_pos(z) {
                        Some((_, rr, cc)) => {
                            if row {
                                rr
                            } else {
                                cc
                            }
                        }
                        None => NONE_INT,
                    }
                })
            }
            Expr::InARow(slot, cell, cond) => {
                let (cell, cond, slot) = (self.zone_req(cell), self.bool(cond), self.slot(slot));
                Box::new(move |r| {
                    let z = cell.get(r);
                    if z == NIL {
                        return 0;
                    }
                    if r.g.geometry.grid_pos(z).is_none() {
                        let found = Value::Zone(z);
                        r.fail(ExecErrorKind::Type, format!("`in_a_row` needs a cell of a grid, found {}", r.g.label(found)), at);
                        return 0;
                    }
                    in_a_row(r, z, slot, &cond)
                })
            }
            _ => self.mismatch(e),
        }
    }

    /// `count`, `sum`, `max`, `min` over a collection.
    fn counting(&mut self, q: Quantifier, slot: u16, coll: ExprId, body: Option<ExprId>, at: Loc) -> IntF {
        let items = self.coll(coll);
        let slot = self.slot(slot);
        match q {
            Quantifier::Count | Quantifier::CountWhile => {
                let cond = body.map(|b| self.bool(b));
                let prefix = q == Quantifier::CountWhile;
                Box::new(move |r| {
                    let mut n = 0i64;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        let keep = cond.as_ref().is_none_or(|c| c(r));
                        n += i64::from(keep);
                        keep || !prefix
                    });
                    n
                })
            }
            _ => {
                let value = match body {
                    Some(b) => self.int_req(b),
                    None => IntOp::Const(0),
                };
                Box::new(move |r| {
                    let mut acc: Option<i64> = None;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        let v = value.get(r);
                        acc = Some(match (q, acc) {
                            (_, None) => v,
                            (Quantifier::Sum, Some(a)) => arith(r, BinOp::Add, a, v, at),
                            (Quantifier::Max, Some(a)) => a.max(v),
                            (_, Some(a)) => a.min(v),
                        });
                        true
                    });
                    match (q, acc) {
                        (Quantifier::Sum, None) => 0,
                        (_, None) => NONE_INT,
                        (_, Some(a)) => a,
                    }
                })
            }
        }
    }

    // ------------------------------------------------------------ truth values

    fn bool_native(&mut self, e: ExprId) -> BoolF {
        let at = self.at(e);
        match self.m.expr(e).clone() {
            Expr::Bool(b) => Box::new(move |_| b),
            Expr::Enabled(o) => {
                let on = self.g.options.get(o.idx()).copied().unwrap_or(false);
                Box::new(move |_| on)
            }
            Expr::Not(a) => {
                let f = self.bool(a);
                Box::new(move |r| !f(r))
            }
            Expr::Bin(op, a, b) => match op {
                BinOp::And | BinOp::Or => {
                    // Short-circuit, so that `x != none and pos(x) > 3` is safe.
                    let (fa, fb) = (self.bool(a), self.bool(b));
                    if op == BinOp::And {
                        Box::new(move |r| fa(r) && fb(r))
                    } else {
                        Box::new(move |r| fa(r) || fb(r))
                    }
                }
                BinOp::Eq => self.equal(a, b),
                BinOp::Ne => {
                    let f = self.equal(a, b);
                    Box::new(move |r| !f(r))
                }
                BinOp::In => {
                    let (x, items) = (self.val(a), self.coll(b));
                    Box::new(move |r| {
                        let v = x(r);
                        let mut found = false;
                        items(r, &mut |r, y| {
                            found = r.g.same(v, y);
                            !found
                        });
                        found
                    })
                }
                _ => {
                    let (fa, fb) = (self.int_req(a), self.int_req(b));
                    if let Expr::Int(k) = self.m.expr(b).clone() {
                        return match op {
                            BinOp::Lt => Box::new(move |r| fa.get(r) < k),
                            BinOp::Le => Box::new(move |r| fa.get(r) <= k),
                            BinOp::Gt => Box::new(move |r| fa.get(r) > k),
                            _ => Box::new(move |r| fa.get(r) >= k),
                        };
                    }
                    match op {
                        BinOp::Lt => Box::new(move |r| fa.get(r) < fb.get(r)),
                        BinOp::Le => Box::new(move |r| fa.get(r) <= fb.get(r)),
                        BinOp::Gt => Box::new(move |r| fa.get(r) > fb.get(r)),
                        _ => Box::new(move |r| fa.get(r) >= fb.get(r)),
                    }
                }
            },
            Expr::Comp(q, slot, coll, body) => {
                let items = self.coll(coll);
                let cond = body.map(|b| self.bool(b));
                let slot = self.slot(slot);
                let any = q == Quantifier::Any;
                Box::new(move |r| {
                    let mut hit = false;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        let holds = cond.as_ref().is_none_or(|c| c(r));
                        // `any` stops at the first that holds, `all` at the first that fails.
                        hit = holds == any;
                        !hit
                    });
                    hit == any
                })
            }
            Expr::Tagged(s, t) => {
                let z = self.zone_req(s);
                let bit = 1u64 << (t.0 % 64);
                Box::new(move |r| {
                    let z = z.get(r);
                    r.g.zone_tags.get(z as usize).is_some_and(|tags| tags & bit != 0)
                })
            }
            Expr::Is(p, v) => {
                let p = self.piece_req(p);
                Box::new(move |r| {
                    let p = p.get(r);
                    r.g.inst_variant.get(p as usize).copied().flatten() == Some(v)
                })
            }
            Expr::IsKind(p, k) => {
                let p = self.piece_req(p);
                Box::new(move |r| {
                    let p = p.get(r);
                    r.g.inst_kind.get(p as usize) == Some(&k)
                })
            }
            Expr::Linked(a, b, tag) => {
                let (a, b) = (self.zone_req(a), self.zone_req(b));
                Box::new(move |r| {
                    let (za, zb) = (a.get(r), b.get(r));
                    r.g.geometry.edge(za, zb).is_some_and(|mask| tag.is_none_or(|t| mask & (1u64 << (t.0 % 64)) != 0))
                })
            }
            _ => {
                let _ = at;
                self.mismatch(e)
            }
        }
    }

    /// A local of the frame that is not an inlined function's parameter
    /// standing for the caller's argument.
    fn plain_local(&self, e: ExprId) -> Option<u16> {
        match self.m.expr(e) {
            Expr::Local(s) if self.argument(e).is_none() => Some(self.slot(*s)),
            _ => None,
        }
    }

    /// `a == b`, on unboxed values when both sides have the same native
    /// form, or when one side is `none` or a local. Every shortcut gives what
    /// comparing the two values would: a piece equals its variant, and
    /// values of different types are different.
    fn equal(&mut self, a: ExprId, b: ExprId) -> BoolF {
        // `x == none`
        for (x, y) in [(a, b), (b, a)] {
            if matches!(self.m.expr(y), Expr::None) {
                let native = self.native(x);
                return match native {
                    Native::Int => {
                        let f = self.int(x);
                        Box::new(move |r| f(r) == NONE_INT)
                    }
                    Native::Zone | Native::Piece => {
                        let f = if native == Native::Zone { self.zone(x) } else { self.piece(x) };
                        Box::new(move |r| f(r) == NIL)
                    }
                    Native::Player => {
                        let f = self.player(x);
                        Box::new(move |r| f(r) == u16::from(NO_PLAYER))
                    }
                    _ => {
                        let f = self.val(x);
                        Box::new(move |r| f(r) == Value::None)
                    }
                };
            }
        }
        // A value compared with a local: read the local and match it.
        for (x, y) in [(a, b), (b, a)] {
            let Some(slot) = self.plain_local(y) else { continue };
            match self.native(x) {
                Native::Int => {
                    let f = self.int(x);
                    return Box::new(move |r| {
                        let i = f(r);
                        match r.local(slot) {
                            Value::Int(j) => i == j,
                            Value::None => i == NONE_INT,
                            _ => false,
                        }
                    });
                }
                Native::Zone => {
                    let f = self.zone(x);
                    return Box::new(move |r| {
                        let z = f(r);
                        match r.local(slot) {
                            Value::Zone(w) => z == w,
                            Value::None => z == NIL,
                            _ => false,
                        }
                    });
                }
                Native::Player => {
                    let f = self.player(x);
                    return Box::new(move |r| {
                        let p = f(r);
                        match r.local(slot) {
                            Value::Player(q) => p == u16::from(q),
                            Value::None => p == u16::from(NO_PLAYER),
                            _ => false,
                        }
                    });
                }
                Native::Piece => {
                    let f = self.piece(x);
                    return Box::new(move |r| {
                        let p = f(r);
                        match r.local(slot) {
                            Value::Piece(q) => p == q,
                            Value::None => p == NIL,
                            Value::Variant(v) => r.g.inst_variant.get(p as usize).copied().flatten() == Some(VariantId(v)),
                            _ => false,
                        }
                    });
                }
                _ => {}
            }
        }
        match (self.native(a), self.native(b)) {
            (Native::Int, Native::Int) => {
                let (fa, fb) = (self.int_op(a, false), self.int_op(b, false));
                match fb {
                    IntOp::Const(k) => Box::new(move |r| fa.get(r) == k),
                    fb => Box::new(move |r| fa.get(r) == fb.get(r)),
                }
            }
            (Native::Bool, Native::Bool) => {
                let (fa, fb) = (self.bool(a), self.bool(b));
                Box::new(move |r| fa(r) == fb(r))
            }
            (Native::Zone, Native::Zone) => {
                let (fa, fb) = (self.zone(a), self.zone(b));
                Box::new(move |r| fa(r) == fb(r))
            }
            (Native::Piece, Native::Piece) => {
                let (fa, fb) = (self.piece(a), self.piece(b));
                Box::new(move |r| fa(r) == fb(r))
            }
            (Native::Player, Native::Player) => {
                let (fa, fb) = (self.player(a), self.player(b));
                Box::new(move |r| fa(r) == fb(r))
            }
            _ => {
                let (fa, fb) = (self.val(a), self.val(b));
                Box::new(move |r| {
                    let x = fa(r);
                    let y = fb(r);
                    r.g.same(x, y)
                })
            }
        }
    }

    // ------------------------------------------------------------ zones, pieces, players

    fn zone_native(&mut self, e: ExprId) -> IdF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
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
                                    let msg = format!("a space of `{track}` was needed, found {}", r.g.label(Value::Zone(z)));
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
                let track = self.m.tracks[t.idx()].name.clone();
                Box::new(move |r| {
                    let i = i.get(r);
                    match r.g.geometry.along(t, i.saturating_sub(1)) {
                        Some(z) => z,
                        None => {
                            r.fail(ExecErrorKind::OutOfRange, format!("space {i} is off the track `{track}`"), at);
                            NIL
                        }
                    }
                })
            }
            Expr::Step(z, dr, dc) => {
                let (z, dr, dc) = (self.zone_req(z), self.int_req(dr), self.int_req(dc));
                Box::new(move |r| {
                    let z = z.get(r);
                    let (a, b) = (dr.get(r), dc.get(r));
                    if z == NIL {
                        return NIL;
                    }
                    if r.g.geometry.grid_pos(z).is_none() {
                        let msg = format!("`step` needs a cell of a grid, found {}", r.g.label(Value::Zone(z)));
                        r.fail(ExecErrorKind::Type, msg, at);
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

    fn piece_native(&mut self, e: ExprId) -> IdF {
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::PieceOf(k, None) => {
                let first = g.kind_range[k.idx()].0;
                Box::new(move |_| first)
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

    fn player_native(&mut self, e: ExprId) -> IdF {
        let at = self.at(e);
        match self.m.expr(e).clone() {
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
                                Value::Dir(d) => i64::from(d),
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

    fn val_native(&mut self, e: ExprId) -> ValF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
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
            Expr::Variant(v) => Box::new(move |_| Value::Variant(v.0)),
            Expr::Face(f) => Box::new(move |_| Value::Face(f.0)),
            Expr::Dir(d) => Box::new(move |_| Value::Dir(d)),
            Expr::Row(t, key) => {
                let key = self.int_req(key);
                let rows: Vec<(i64, i64)> = self.m.tables[t.idx()].rows.iter().map(|(lo, hi, _)| (*lo, *hi)).collect();
                let name = self.m.tables[t.idx()].name.clone();
                Box::new(move |r| {
                    let k = key.get(r);
                    match rows.iter().position(|(lo, hi)| (*lo..=*hi).contains(&k)) {
                        Some(row) => Value::Row(t.0, row as u16),
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
                    Value::Row(t, i) => r.g.table_cell(r, t, i, c),
                    other => {
                        r.wrong("a table row", other, at);
                        Value::None
                    }
                })
            }
            Expr::Comp(Quantifier::First, slot, coll, body) => {
                let items = self.coll(coll);
                let cond = body.map(|b| self.bool(b));
                let slot = self.slot(slot);
                Box::new(move |r| {
                    let mut found = Value::None;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        if cond.as_ref().is_none_or(|c| c(r)) {
                            found = item;
                            return false;
                        }
                        true
                    });
                    found
                })
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

    // ------------------------------------------------------------ collections

    fn coll_native(&mut self, e: ExprId) -> CollF {
        let at = self.at(e);
        let g = self.g;
        match self.m.expr(e).clone() {
            Expr::Players => {
                let n = g.players;
                Box::new(move |r, visit| (0..n).all(|p| r.going() && visit(r, Value::Player(p))))
            }
            Expr::Range(a, b) => {
                let (a, b) = (self.int_req(a), self.int_req(b));
                Box::new(move |r, visit| {
                    let (x, y) = (a.get(r), b.get(r));
                    if y.saturating_sub(x) > MAX_RANGE {
                        r.fail(ExecErrorKind::OutOfRange, format!("the range {x}..{y} is too long to walk (at most {MAX_RANGE} items)"), at);
                        return false;
                    }
                    (x..=y).all(|i| r.going() && visit(r, Value::Int(i)))
                })
            }
            Expr::List(items) => {
                let items: Vec<ValF> = items.iter().map(|i| self.val(*i)).collect();
                Box::new(move |r, visit| {
                    items.iter().all(|f| {
                        let v = f(r);
                        r.going() && visit(r, v)
                    })
                })
            }
            Expr::Spaces(t) => {
                let (base, len) = (g.track_base[t.idx()], self.m.tracks[t.idx()].spaces.len() as u16);
                Box::new(move |r, visit| (base..base + len).all(|z| r.going() && visit(r, Value::Zone(z))))
            }
            Expr::Pieces(k) => {
                let (first, n) = g.kind_range[k.idx()];
                Box::new(move |r, visit| (first..first + n).all(|p| r.going() && visit(r, Value::Piece(p))))
            }
            Expr::PiecesOf(k, p) => {
                let (first, n) = g.kind_range[k.idx()];
                let each = self.m.kinds[k.idx()].count;
                let p = self.player_req(p);
                Box::new(move |r, visit| {
                    let p = p.get(r);
                    if p == u16::from(NO_PLAYER) {
                        return true;
                    }
                    let from = first + p * each;
                    (from..(from + each).min(first + n)).all(|x| r.going() && visit(r, Value::Piece(x)))
                })
            }
            Expr::Contents(z) => {
                let z = self.zone_req(z);
                Box::new(move |r, visit| {
                    let z = z.get(r);
                    let mut p = r.st.head.get(z as usize).copied().unwrap_or(NIL);
                    while p != NIL {
                        let next = r.st.next.get(p as usize).copied().unwrap_or(NIL);
                        if !(r.going() && visit(r, Value::Piece(p))) {
                            return false;
                        }
                        p = next;
                    }
                    true
                })
            }
            Expr::Neighbors(z) => {
                let z = self.zone_req(z);
                Box::new(move |r, visit| {
                    let z = z.get(r);
                    let g = r.g;
                    match g.geometry.adjacent.get(z as usize) {
                        Some(list) => list.iter().all(|(x, _)| r.going() && visit(r, Value::Zone(*x))),
                        None => true,
                    }
                })
            }
            Expr::Line(z, dr, dc) => {
                let (z, dr, dc) = (self.zone_req(z), self.int_req(dr), self.int_req(dc));
                Box::new(move |r, visit| {
                    let mut at = z.get(r);
                    let (a, b) = (dr.get(r), dc.get(r));
                    if (a, b) == (0, 0) || at == NIL {
                        return true;
                    }
                    while let Some(x) = r.g.geometry.step(at, a, b) {
                        if !(r.going() && visit(r, Value::Zone(x))) {
                            return false;
                        }
                        at = x;
                    }
                    true
                })
            }
            Expr::Region(slot, start, cond) => {
                let (start, cond, slot) = (self.zone_req(start), self.bool(cond), self.slot(slot));
                Box::new(move |r, visit| {
                    let s = start.get(r);
                    if s == NIL {
                        return true;
                    }
                    let first = r.st.scratch.len();
                    region(r, slot, s, &cond);
                    let mut i = first;
                    let mut going = true;
                    while let Some(v) = r.st.scratch.get(i).copied() {
                        if !(r.going() && visit(r, v)) {
                            going = false;
                            break;
                        }
                        i += 1;
                    }
                    r.st.scratch.truncate(first);
                    going
                })
            }
            Expr::Comp(q @ (Quantifier::Filter | Quantifier::FilterWhile), slot, coll, body) => {
                let items = self.coll(coll);
                let cond = body.map(|b| self.bool(b));
                let slot = self.slot(slot);
                let prefix = q == Quantifier::FilterWhile;
                Box::new(move |r, visit: Visit| {
                    let mut going = true;
                    items(r, &mut |r, item| {
                        r.set_local(slot, item);
                        if cond.as_ref().is_none_or(|c| c(r)) {
                            going = visit(r, item);
                            going
                        } else {
                            !prefix
                        }
                    });
                    going
                })
            }
            _ => {
                Box::new(move |r, _| {
                    r.fail(ExecErrorKind::Type, "a collection was needed here".into(), at);
                    false
                })
            }
        }
    }

    /// An expression compiled by the wrong entry point: a bug of this
    /// compiler, reported as a rule error rather than a crash.
    fn mismatch<T: Fallback + 'static>(&self, e: ExprId) -> F<T> {
        let at = self.at(e);
        let what = format!("{:?}", self.m.expr(e));
        Box::new(move |r| {
            r.fail(ExecErrorKind::Type, format!("internal: the engine cannot evaluate {what} here"), at);
            T::fallback()
        })
    }
}

/// Longest range a collection may walk.
pub(crate) const MAX_RANGE: i64 = 100_000;

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
fn slot_of(r: &mut Run, base: u32, index: &Index, at: Loc) -> Option<usize> {
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
                let msg = format!("a `{}` was needed, found {}", r.g.model.kinds[k.idx()].name, r.g.label(Value::Piece(p)));
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
    let result = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        _ => {
            if y == 0 {
                r.fail(ExecErrorKind::OutOfRange, "division by zero".into(), at);
                return 0;
            }
            // Floor division, as the text's "arrondi à l'entier inférieur":
            // the remainder takes the divisor's sign.
            match (x.checked_div(y), x.checked_rem(y)) {
                (Some(q), Some(rem)) => {
                    let floor = rem != 0 && ((rem < 0) != (y < 0));
                    Some(match (op, floor) {
                        (BinOp::Div, true) => q - 1,
                        (BinOp::Div, false) => q,
                        (_, true) => rem + y,
                        (_, false) => rem,
                    })
                }
                _ => None,
            }
        }
    };
    match result {
        Some(v) if v != NONE_INT => v,
        _ => {
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

/// `index(space)` / `pos(piece)`: the space's number on its board, from 1.
fn place_index(g: &Game, z: u16) -> i64 {
    match g.geometry.place.get(z as usize).copied().flatten() {
        Some(p) => i64::from(p.index) + 1,
        None => NONE_INT,
    }
}

/// The first (`front`) or last piece of a kind in race order on a track:
/// the furthest space first, and on a space the earliest arrival first.
fn race_end(r: &Run, base: u16, len: u16, k: KindId, front: bool) -> u16 {
    let is_kind = |p: &u16| r.g.inst_kind.get(*p as usize) == Some(&k);
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

/// The longest straight run through cell `z` of cells where `cond` holds.
fn in_a_row(r: &mut Run, z: u16, slot: u16, cond: &BoolF) -> i64 {
    let holds = |r: &mut Run, x: u16| {
        r.set_local(slot, Value::Zone(x));
        cond(r)
    };
    if !holds(r, z) {
        return 0;
    }
    // The four axes as pairs of opposite directions in `DIRECTIONS`.
    const AXES: [(usize, usize); 4] = [(4, 3), (6, 1), (7, 0), (5, 2)];
    let mut best = 1;
    for (forward, back) in AXES {
        let mut run = 1;
        for d in [forward, back] {
            let mut at = z;
            loop {
                let next = r.g.geometry.around.get(at as usize).and_then(|a| a.get(d)).copied().unwrap_or(NIL);
                if next == NIL || !r.tick() || !holds(r, next) {
                    break;
                }
                run += 1;
                at = next;
            }
        }
        best = best.max(run);
    }
    let _ = DIRECTIONS;
    best
}

/// Flood fill from `start` through neighbours where `cond` holds, appended
/// to the scratch buffer.
fn region(r: &mut Run, slot: u16, start: u16, cond: &BoolF) {
    let holds = |r: &mut Run, z: u16| {
        r.set_local(slot, Value::Zone(z));
        cond(r)
    };
    let first = r.st.scratch.len();
    if !holds(r, start) {
        return;
    }
    r.st.scratch.push(Value::Zone(start));
    let mut next = first;
    while let Some(Value::Zone(z)) = r.st.scratch.get(next).copied() {
        next += 1;
        let g = r.g;
        let Some(around) = g.geometry.adjacent.get(z as usize) else { continue };
        for (n, _) in around {
            let v = Value::Zone(*n);
            if r.st.scratch.get(first..).is_some_and(|seen| seen.contains(&v)) {
                continue;
            }
            if !r.going() {
                return;
            }
            if holds(r, *n) {
                r.st.scratch.push(v);
            }
        }
    }
}
