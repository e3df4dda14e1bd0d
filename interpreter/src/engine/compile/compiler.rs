//! The compiler of expressions: its scopes (inlined functions), the entry
//! point for each form of value, and the conversions between forms. Each
//! family of constructs is compiled in a file of its own: `numbers.rs`,
//! `logic.rs`, `things.rs` (zones, pieces, players and other values) and
//! `collections.rs`; `operands.rs` holds the operands read in place.

use super::operands::{int_value, piece_value, player_value, zone_value, Fallback, IdKind, IdOp, IntOp, ValOp};
use super::{BoolF, CollF, IdF, Index, IntF, ValF, NONE_INT};
use crate::engine::error::ExecErrorKind;
use crate::engine::layout::Game;
use crate::engine::run::Run;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::{BinOp, Quantifier};

/// What an expression gives without conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Native {
    Int,
    Bool,
    Zone,
    Piece,
    Player,
    Val,
    Coll,
}

/// Functions may call functions this deep (they are inlined); the resolver
/// rejects deeper chains, so the guard below only protects hand-built models.
pub(crate) const INLINE_DEPTH: u32 = crate::model::MAX_CALL_DEPTH as u32;

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
    /// While the condition of a walk (a `choose`, a comprehension) is
    /// compiled: what may be computed once per walk (hoist.rs).
    pub(crate) hoist: Option<super::hoist::Hoist>,
    /// While the condition of a `choose` over tuples is read as tests of
    /// its last binding (tuples.rs): the earlier bindings that walk a range
    /// of constants, as (slot, first, last). A test may name a cell by them
    /// (`count(cell(board, r, k)) == 0`): they hold a number of that range
    /// whenever it is tested.
    pub(crate) walked_numbers: Vec<(u16, i64, i64)>,
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
pub(crate) type F<T> = Box<dyn Fn(&mut Run) -> T + Send + Sync>;

impl<'c> Compiler<'c> {
    pub(crate) fn new(g: &'c Game, locals: u16) -> Self {
        Compiler { g, m: &g.model, scopes: vec![Scope { offset: 0, args: Vec::new() }], frame: locals, hoist: None, walked_numbers: Vec::new() }
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
    pub(crate) fn argument(&self, e: ExprId) -> Option<ExprId> {
        let Expr::Local(s) = self.m.expr(e) else { return None };
        self.scopes.last()?.args.get(*s as usize).copied().flatten()
    }

    /// The value of a number made of literals only (`-1`, `2 * 3`,
    /// `player_count - 1`), worked out here once instead of at every run;
    /// `None` when it reads anything else, or when its arithmetic fails
    /// (that error is then reported where the rules run it).
    pub(crate) fn const_int(&self, e: ExprId) -> Option<i64> {
        self.const_int_in(self.scopes.len().checked_sub(1)?, e)
    }

    /// [`Compiler::const_int`] in scope `depth` (a parameter stands for its
    /// caller's argument, one scope down).
    fn const_int_in(&self, depth: usize, e: ExprId) -> Option<i64> {
        match self.m.expr(e) {
            Expr::Int(i) => Some(*i).filter(|i| *i != NONE_INT),
            Expr::PlayerCount => Some(i64::from(self.g.players)),
            Expr::Neg(a) => super::operands::arith_checked(BinOp::Sub, 0, self.const_int_in(depth, *a)?),
            Expr::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem), a, b) => {
                let (x, y) = (self.const_int_in(depth, *a)?, self.const_int_in(depth, *b)?);
                super::operands::arith_checked(*op, x, y)
            }
            Expr::Local(s) => {
                let arg = self.scopes.get(depth)?.args.get(*s as usize).copied().flatten()?;
                self.const_int_in(depth.checked_sub(1)?, arg)
            }
            _ => None,
        }
    }

    /// The frame slot of a local, or of the caller's local that a
    /// parameter of an inlined function stands for, with where that local
    /// is written.
    pub(crate) fn local_at(&mut self, e: ExprId) -> Option<(u16, Loc)> {
        match self.argument(e) {
            Some(arg) => self.in_caller(arg, |c, a| c.local_at(a)),
            None => match self.m.expr(e) {
                Expr::Local(s) => Some((self.slot(*s), self.at(e))),
                _ => None,
            },
        }
    }

    /// Compile an argument expression in the caller's scope.
    pub(crate) fn in_caller<T>(&mut self, arg: ExprId, compile: impl FnOnce(&mut Self, ExprId) -> T) -> T {
        let inner = self.scopes.pop();
        let out = compile(self, arg);
        if let Some(sc) = inner {
            self.scopes.push(sc);
        }
        out
    }

    /// Arguments cheap and pure enough to be evaluated where the parameter
    /// is read instead of once into a slot.
    pub(crate) fn simple(&self, e: ExprId) -> bool {
        matches!(
            self.m.expr(e),
            Expr::Local(_)
                | Expr::Int(_)
                | Expr::Bool(_)
                | Expr::None
                | Expr::Variant(_)
                | Expr::Face(_)
                | Expr::Dir(_)
                | Expr::PlayerCount
                | Expr::Box
                | Expr::Node(..)
                | Expr::Actor
                | Expr::Enabled(_)
                | Expr::Zone(_, None)
                | Expr::Var(_, None)
                | Expr::Counter(_, None)
                | Expr::PieceOf(_, None)
                | Expr::PieceOfVariant(_)
        )
    }

    pub(crate) fn at(&self, e: ExprId) -> Loc {
        self.m.expr_at.get(e.0 as usize).copied().unwrap_or(Loc { file: FileId(0), span: grimoire_grammar::ast::Span::new(0, 0) })
    }

    pub(crate) fn native(&self, e: ExprId) -> Native {
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
                Builtin::Count | Builtin::Pos | Builtin::Index | Builtin::Abs | Builtin::Min | Builtin::Max | Builtin::Seat => Native::Int,
                Builtin::ZoneOf => Native::Zone,
                Builtin::Top => Native::Piece,
                Builtin::Owner | Builtin::Holder | Builtin::NextPlayer | Builtin::PlayerNo => Native::Player,
                Builtin::Opposite => Native::Val,
            },
            Expr::Bool(_) | Expr::Not(_) | Expr::Tagged(..) | Expr::Enabled(_) | Expr::Is(..) | Expr::IsKind(..) | Expr::Linked(..) | Expr::Sees(..) | Expr::Won(_) => Native::Bool,
            Expr::Zone(..) | Expr::Box | Expr::Node(..) | Expr::Cell(..) | Expr::Space(..) | Expr::Step(..) => Native::Zone,
            Expr::PieceOf(..) | Expr::PieceOfVariant(_) | Expr::Leader(..) | Expr::Rearmost(..) => Native::Piece,
            Expr::Actor => Native::Player,
            Expr::None | Expr::Local(_) | Expr::Var(..) | Expr::Variant(_) | Expr::Face(_) | Expr::Dir(_) | Expr::Row(..) | Expr::Column(..) | Expr::CallFn(..) => Native::Val,
            Expr::Players | Expr::Range(..) | Expr::List(_) | Expr::Spaces(_) | Expr::Pieces(_) | Expr::PiecesOf(..) | Expr::Contents(_) | Expr::Neighbors(_) | Expr::Line(..) | Expr::Region(..) => Native::Coll,
            // Of its branches' form when they agree (the resolver refuses
            // collections in branches).
            Expr::If(_, a, b) => match (self.native(*a), self.native(*b)) {
                (x, y) if x == y && x != Native::Coll => x,
                _ => Native::Val,
            },
        }
    }

    /// `if c { a } else { b }`, each branch compiled by `branch` (`int`,
    /// `zone`, ...): only the branch the condition picks runs.
    pub(crate) fn conditional<T: 'static>(&mut self, c: ExprId, a: ExprId, b: ExprId, branch: impl Fn(&mut Self, ExprId) -> F<T>) -> F<T> {
        let c = self.bool(c);
        let (a, b) = (branch(self, a), branch(self, b));
        Box::new(move |r| if c(r) { a(r) } else { b(r) })
    }

    // ------------------------------------------------------------ entry points

    /// A number (`NONE_INT` for none).
    pub(crate) fn int(&mut self, e: ExprId) -> IntF {
        if let Some(f) = self.hoisted_int(e) {
            return f;
        }
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
        if let Some(k) = self.const_int(e) {
            return IntOp::Const(k);
        }
        match self.m.expr(e) {
            Expr::Local(s) => return IntOp::Local { slot: self.slot(*s), at: self.at(e), req },
            Expr::Call(Builtin::Count, args) if args.len() == 1 => {
                let z = args[0];
                return IntOp::Count(self.zone_req(z));
            }
            _ => {}
        }
        if let Some(op) = self.int_leaf(e, req) {
            return op;
        }
        let (f, at) = (self.int(e), self.at(e));
        if !req {
            return IntOp::Dyn(f);
        }
        IntOp::DynReq(f, at)
    }

    /// A truth value.
    pub(crate) fn bool(&mut self, e: ExprId) -> BoolF {
        if let Some(f) = self.hoisted_bool(e) {
            return f;
        }
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

    /// A zone where `none` is allowed (it comes back as `NIL`): the cell
    /// that `step` and `line` start from, which lead nowhere from `none`.
    pub(crate) fn zone_or_none(&mut self, e: ExprId) -> IdOp {
        match self.zone_req(e) {
            IdOp::Zone(slot, at) => IdOp::ZoneOrNone(slot, at),
            IdOp::DynReq(f, _, _) => IdOp::Dyn(f),
            IdOp::Cell(mut c) => {
                c.req = None;
                IdOp::Cell(c)
            }
            op => op,
        }
    }

    /// A piece that must not be `none`.
    pub(crate) fn piece_req(&mut self, e: ExprId) -> IdOp {
        self.id_op(e, IdKind::Piece)
    }

    /// A player that must not be `none`.
    pub(crate) fn player_req(&mut self, e: ExprId) -> IdOp {
        self.id_op(e, IdKind::Player)
    }

    /// A player, `none` allowed, as an operand.
    pub(crate) fn player_op(&mut self, e: ExprId) -> IdOp {
        if let Expr::Call(Builtin::Owner, args) = self.m.expr(e).clone() {
            let Some(&x) = args.first() else { return IdOp::Dyn(self.player(e)) };
            if let Some(slot) = self.plain_local(x) {
                // `owner(x)` gives `none` for a piece of nobody: that is not an error here.
                let at = self.at(e);
                return IdOp::OwnerOrNoneOfLocal(slot, at);
            }
            // `owner(top(z))` for a local zone `z`: whose piece is in front
            // there, the usual question of a board game, read in place.
            if let Expr::Call(Builtin::Top, zone) = self.m.expr(x).clone() {
                if let Some((slot, zone_at)) = zone.first().and_then(|z| self.local_at(*z)) {
                    return IdOp::OwnerOfTopOfLocal { slot, zone_at, top_at: self.at(x) };
                }
            }
        }
        IdOp::Dyn(self.player(e))
    }

    /// A zone, piece or player that must not be `none`, as an operand: a
    /// constant or a local is read in place.
    pub(crate) fn id_op(&mut self, e: ExprId, kind: IdKind) -> IdOp {
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
            (Expr::PieceOfVariant(v), IdKind::Piece) => return IdOp::Const(g.piece_of_variant(*v)),
            (Expr::Call(Builtin::ZoneOf, args), IdKind::Zone) if args.len() == 1 && self.argument(args[0]).is_some() => {
                // `zone_of(m)` in a function, `m` standing for the caller's
                // local: read in place, any error reported at the caller's
                // argument as its own code would.
                if let Some((slot, at)) = self.local_at(args[0]) {
                    return IdOp::ZoneOfLocal(slot, at);
                }
            }
            (Expr::Call(b @ (Builtin::ZoneOf | Builtin::Owner), args), _) if args.len() == 1 => {
                let x = args[0];
                if let (Some(slot), Builtin::ZoneOf, IdKind::Zone) | (Some(slot), Builtin::Owner, IdKind::Player) = (self.plain_local(x), *b, kind) {
                    let at = self.at(x);
                    return if *b == Builtin::ZoneOf { IdOp::ZoneOfLocal(slot, at) } else { IdOp::OwnerOfLocal(slot, at) };
                }
            }
            _ => {}
        }
        if let (Expr::Cell(t, row, col), IdKind::Zone) = (self.m.expr(e).clone(), kind) {
            if let Some(op) = self.cell_op(t, row, col, self.at(e)) {
                return op;
            }
        }
        let (f, at) = match kind {
            IdKind::Zone => (self.zone(e), self.at(e)),
            IdKind::Piece => (self.piece(e), self.at(e)),
            IdKind::Player => (self.player(e), self.at(e)),
        };
        IdOp::DynReq(f, kind, at)
    }

    /// `cell(t, row, col)` of a grid as a zone that must exist: the cell
    /// itself when the row and column are constants that name one, else
    /// read in place ([`IdOp::Cell`]); `None` when `t` is no grid.
    fn cell_op(&mut self, t: TrackId, row: ExprId, col: ExprId, at: Loc) -> Option<IdOp> {
        let grid = self.g.geometry.grid(t)?;
        if let Some(z) = self.const_int(row).zip(self.const_int(col)).and_then(|(r, c)| grid.cell(r, c)) {
            return Some(IdOp::Const(z));
        }
        let (row, col) = (self.int_req(row), self.int_req(col));
        Some(IdOp::Cell(Box::new(super::operands::CellAt { grid, row, col, req: Some(at) })))
    }

    /// Any value.
    pub(crate) fn val(&mut self, e: ExprId) -> ValF {
        if let Some(f) = self.hoisted_val(e) {
            return f;
        }
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.val(a));
        }
        if let Expr::CallFn(f, args) = self.m.expr(e) {
            return self.inline(*f, args, |c, body| c.val(body));
        }
        match self.native(e) {
            Native::Int => {
                let f = self.int_native(e);
                Box::new(move |r| int_value(f(r)))
            }
            Native::Bool => {
                let f = self.bool_native(e);
                Box::new(move |r| Value::bool(f(r)))
            }
            Native::Zone => {
                let f = self.zone_native(e);
                Box::new(move |r| zone_value(f(r)))
            }
            Native::Piece => {
                let f = self.piece_native(e);
                Box::new(move |r| piece_value(f(r)))
            }
            Native::Player => {
                let f = self.player_native(e);
                Box::new(move |r| player_value(f(r)))
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

    /// Any value, as an operand: what [`Compiler::val`] gives, without the
    /// closure that turns a typed result into a value.
    pub(crate) fn val_op(&mut self, e: ExprId) -> ValOp {
        if let Some(f) = self.hoisted_val(e) {
            return ValOp::Dyn(f);
        }
        if let Some(arg) = self.argument(e) {
            return self.in_caller(arg, |c, a| c.val_op(a));
        }
        if let Some(k) = self.const_int(e) {
            return ValOp::Const(Value::Int(k));
        }
        match self.m.expr(e) {
            Expr::Local(s) => return ValOp::Local(self.slot(*s)),
            Expr::None => return ValOp::Const(Value::None),
            Expr::Bool(b) => return ValOp::Const(Value::bool(*b)),
            Expr::Variant(v) => return ValOp::Const(Value::variant(v.0)),
            Expr::Face(f) => return ValOp::Const(Value::face(f.0)),
            Expr::Dir(d) => return ValOp::Const(Value::dir(*d)),
            Expr::CallFn(..) => return ValOp::Dyn(self.val(e)),
            _ => {}
        }
        match self.native(e) {
            Native::Int => ValOp::Int(self.int_native(e)),
            Native::Bool => ValOp::Bool(self.bool_native(e)),
            Native::Zone => ValOp::Zone(self.zone_native(e)),
            Native::Piece => ValOp::Piece(self.piece_native(e)),
            Native::Player => ValOp::Player(self.player_native(e)),
            Native::Val | Native::Coll => ValOp::Dyn(self.val(e)),
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
    pub(crate) fn inline<T: Fallback + 'static>(&mut self, f: FnId, args: &[ExprId], body: impl FnOnce(&mut Self, ExprId) -> F<T>) -> F<T> {
        let def = &self.m.fns[f.idx()];
        if self.scopes.len() > INLINE_DEPTH as usize {
            let at = def.at;
            let name = def.name.clone();
            return Box::new(move |r| {
                r.fail(ExecErrorKind::OutOfRange, format!("functions call each other more than {INLINE_DEPTH} deep, through `{name}`"), at);
                T::fallback()
            });
        }
        let start = self.alloc(def.locals.max(args.len() as u16));
        let mut stored: Vec<(u16, ValOp)> = Vec::new();
        let mut in_place = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if self.simple(*a) {
                in_place.push(Some(*a));
            } else {
                in_place.push(None);
                stored.push((start + i as u16, self.val_op(*a)));
            }
        }
        self.scopes.push(Scope { offset: start, args: in_place });
        let inner = body(self, def.body);
        self.scopes.pop();
        if stored.is_empty() {
            return inner;
        }
        Box::new(move |r| {
            for (slot, a) in &stored {
                let v = a.get(r);
                r.set_local(*slot, v);
            }
            inner(r)
        })
    }

    /// Look at the body of a function call whose arguments are all simple,
    /// in the function's scope, before anything is compiled: when `look`
    /// gives something, the function's slots are allocated as
    /// [`Compiler::inline`] would have (so the frame is laid out the same),
    /// and it is returned. `look` must not allocate slots.
    pub(crate) fn peek_inline<T>(&mut self, f: FnId, args: &[ExprId], look: impl FnOnce(&mut Self, ExprId) -> Option<T>) -> Option<T> {
        if self.scopes.len() > INLINE_DEPTH as usize || !args.iter().all(|a| self.simple(*a)) {
            return None;
        }
        let def = &self.m.fns[f.idx()];
        let (body, n) = (def.body, def.locals.max(args.len() as u16));
        self.scopes.push(Scope { offset: self.frame, args: args.iter().map(|a| Some(*a)).collect() });
        let out = look(self, body);
        self.scopes.pop();
        if out.is_some() {
            self.alloc(n);
        }
        out
    }

    /// Run `inside` in the scope of a call of `f` whose arguments are all
    /// simple, laid out as [`Compiler::inline`] lays it (the function's
    /// slots allocated first, each parameter read in place as its
    /// argument); `None` when the call cannot be opened so (an argument
    /// that must be stored, or calls nested too deep).
    pub(crate) fn within_call<T>(&mut self, f: FnId, args: &[ExprId], inside: impl FnOnce(&mut Self, ExprId) -> T) -> Option<T> {
        if self.scopes.len() >= INLINE_DEPTH as usize || !args.iter().all(|a| self.simple(*a)) {
            return None;
        }
        let def = &self.m.fns[f.idx()];
        let (body, n) = (def.body, def.locals.max(args.len() as u16));
        let start = self.alloc(n);
        self.scopes.push(Scope { offset: start, args: args.iter().map(|a| Some(*a)).collect() });
        let out = inside(self, body);
        self.scopes.pop();
        Some(out)
    }

    /// The slots of the frame an expression reads, where a parameter of a
    /// function being inlined reads what its caller's argument reads.
    pub(crate) fn frame_reads(&self, e: ExprId) -> Vec<u16> {
        let mut out = Vec::new();
        let depth = self.scopes.len();
        self.m.walk_expr(e, &mut |x| {
            if let Expr::Local(s) = self.m.expr(x) {
                self.local_reads(depth, *s, &mut out);
            }
        });
        out
    }

    /// [`Compiler::frame_reads`] of local `s` of the scope `depth` (0: the
    /// procedure's own).
    fn local_reads(&self, depth: usize, s: u16, out: &mut Vec<u16>) {
        let Some(scope) = depth.checked_sub(1).and_then(|d| self.scopes.get(d)) else {
            out.push(s);
            return;
        };
        match scope.args.get(s as usize).copied().flatten() {
            // A constant argument reads nothing.
            Some(arg) => {
                if let Expr::Local(t) = self.m.expr(arg) {
                    self.local_reads(depth - 1, *t, out);
                }
            }
            None => out.push(scope.offset.saturating_add(s)),
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

    /// An expression compiled by the wrong entry point: a bug of this
    /// compiler, reported as a rule error rather than a crash.
    pub(crate) fn mismatch<T: Fallback + 'static>(&self, e: ExprId) -> F<T> {
        let at = self.at(e);
        let what = format!("{:?}", self.m.expr(e));
        Box::new(move |r| {
            r.fail(ExecErrorKind::Type, format!("internal: the engine cannot evaluate {what} here"), at);
            T::fallback()
        })
    }
}
