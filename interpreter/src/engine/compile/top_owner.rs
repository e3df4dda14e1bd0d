//! "Is the piece in front in this space `p`'s?" in one closure.
//!
//! A board game asks it of every cell it walks, and the language makes the
//! guard part of the question, since `top` of an empty zone is `none`:
//! `count(s) > 0 and owner(top(s)) == p`, often as a function
//! (`fn mine(s, p) = ...`) and under a `not` (`where not mine(c, p) and not
//! mine(c, q)`: an empty cell). As a tree of closures (`not`, `and`, the
//! count, the comparison) it cost four calls per test; an outside tester's
//! Hex choosing its cell that way played 2.8 to 3.5 times slower than with
//! `count(c) == 0`.
//!
//! Recognised: a guard `count(Z) > 0`, `count(Z) >= 1` or `count(Z) != 0`,
//! then `owner(top(Z)) == P` or `!= P` (either side first), `Z` one local
//! zone (or a function's parameter standing for one), wherever the two
//! are one `and` compiled whole: a function's body, the inside of a `not`
//! (also a `not` of a call of such a function), a condition as a whole.
//! A walk's `where` split into parts reads the guard in place already
//! (`conds.rs`) and the comparison as its one closure.
//! What it answers, and the errors it reports, are those of the closures it
//! replaces (`tests/tests/fast_paths.rs` compares them).

use super::compiler::Compiler;
use super::operands::{bad_id, IdKind, IdOp};
use super::{BoolF, NO_PLAYER};
use crate::engine::state::NIL;
use crate::engine::value::Value;
use crate::model::*;
use grimoire_grammar::ast::BinOp;

/// The player the front piece's owner is compared with.
enum Whose {
    /// A local (read in place: `none` is equal only to no owner).
    Local(u16),
    /// Any other player expression.
    Op(IdOp),
}

impl Compiler<'_> {
    /// `not e`, when `e` is the question (or a call of a function that
    /// asks it), in one closure.
    pub(crate) fn not_top_owned(&mut self, e: ExprId) -> Option<BoolF> {
        match self.m.expr(e).clone() {
            Expr::Bin(BinOp::And, guard, test) => self.top_owned(guard, test, true, false),
            // Looked at before the call is inlined: only what needs no slot
            // of its own (the player a local), as `peek_inline` asks.
            Expr::CallFn(f, args) => self.peek_inline(f, &args, |c, body| match c.m.expr(body).clone() {
                Expr::Bin(BinOp::And, guard, test) => c.top_owned(guard, test, true, true),
                _ => None,
            }),
            _ => None,
        }
    }

    /// `guard and test` as the question, if it is; `negate` for its `not`.
    /// `peeking`: inside [`Compiler::peek_inline`], where nothing may be
    /// compiled that takes a slot.
    pub(crate) fn top_owned(&mut self, guard: ExprId, test: ExprId, negate: bool, peeking: bool) -> Option<BoolF> {
        let zone = self.nonempty_guard(guard)?;
        let (zone_slot, zone_at) = self.local_at(zone)?;
        let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) = self.m.expr(test).clone() else { return None };
        let other = if self.owner_of_top_of(a) == Some(zone_slot) {
            b
        } else if self.owner_of_top_of(b) == Some(zone_slot) {
            a
        } else {
            return None;
        };
        let whose = match self.local_at(other) {
            Some((slot, _)) => Whose::Local(slot),
            None if peeking => return None,
            None => Whose::Op(self.player_op(other)),
        };
        // What the test gives when the owner is the player.
        let when_same = op == BinOp::Eq;
        Some(Box::new(move |r| {
            let z = match r.local(zone_slot) {
                Value::Zone(z) => z as u16,
                other => {
                    bad_id(r, other, IdKind::Zone, &zone_at);
                    return false;
                }
            };
            let front = r.st.tail.get(z as usize).copied().unwrap_or(NIL);
            if front == NIL {
                // The guard does not hold: `and` is false.
                return negate;
            }
            let owner = r.g.inst_owner.get(front as usize).copied().flatten().map_or(u16::from(NO_PLAYER), u16::from);
            let same = match &whose {
                Whose::Local(slot) => match r.local(*slot) {
                    Value::Player(q) => u64::from(owner) == q,
                    Value::None => owner == u16::from(NO_PLAYER),
                    _ => false,
                },
                Whose::Op(f) => f.get(r) == owner,
            };
            (same == when_same) != negate
        }))
    }

    /// The zone `Z` of `count(Z) > 0`, `count(Z) >= 1` or `count(Z) != 0`.
    fn nonempty_guard(&self, e: ExprId) -> Option<ExprId> {
        let Expr::Bin(op, a, b) = self.m.expr(e) else { return None };
        let Expr::Call(Builtin::Count, args) = self.m.expr(*a) else { return None };
        let [zone] = args[..] else { return None };
        match (op, self.m.expr(*b)) {
            (BinOp::Gt, Expr::Int(0)) | (BinOp::Ge, Expr::Int(1)) | (BinOp::Ne, Expr::Int(0)) => Some(zone),
            _ => None,
        }
    }

    /// The local slot of `Z` when `e` is `owner(top(Z))`.
    fn owner_of_top_of(&mut self, e: ExprId) -> Option<u16> {
        let Expr::Call(Builtin::Owner, args) = self.m.expr(e).clone() else { return None };
        let [x] = args[..] else { return None };
        let Expr::Call(Builtin::Top, zone) = self.m.expr(x).clone() else { return None };
        let [z] = zone[..] else { return None };
        self.local_at(z).map(|(slot, _)| slot)
    }
}
