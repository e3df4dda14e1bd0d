//! Lowering the typed model into code that runs without interpretive
//! overhead, once per [`Game`](super::Game):
//!
//! - every expression becomes a closure of the type it produces: an `i64`, a
//!   `bool`, a zone, a piece, a player, or a general [`Value`] where the type
//!   is not fixed. No run-time type tag is built or checked where the shape of
//!   the expression already says what it gives; errors go to a cold slot of
//!   the [`Run`] instead of through a `Result` on every node;
//! - collections become closures that walk their items in place and call a
//!   visitor, which can stop early (`any`, `all`, `first`, `count ... while`);
//! - functions are inlined at every call, with their locals in the caller's
//!   frame (they cannot recurse);
//! - constants are folded (`player_count`, `enabled(option)`, fixed zones,
//!   arithmetic on literals such as `-1` or `2 * 3`);
//! - statements become a flat list of operations per procedure with jumps, so
//!   "where we are in the rules" is a procedure and an operation index.
//!
//! Why closures and not a bytecode: each node is one indirect call that
//! returns an unboxed value in a register, the types are checked by the Rust
//! compiler instead of a verifier, and specialised shapes (a local compared
//! with a constant, a counter of a player) are just other closures.

mod collections;
mod cond_tests;
mod compiler;
pub(crate) mod hoist;
pub(crate) mod conds;
mod items;
mod line_keep;
mod liveness;
mod logic;
mod numbers;
mod operands;
mod stmt;
mod things;
mod top_owner;

use super::run::Run;
use super::tuples::Staged;
use super::value::Value;
use crate::model::{DieId, KindId, Loc, MatchKey, ProcId, StmtId};
use grimoire_grammar::ast::AssignOp;

pub(crate) use compiler::Compiler;
pub(crate) use conds::{with_cond, Cond};
pub(crate) use items::Items;
pub(crate) use collections::MAX_RANGE;
pub(crate) use operands::{arith, resolve_slot, IdOp, IntOp, ValOp};
pub(crate) use stmt::compile_program;

/// Integer `none` (an empty `max`, the position of a piece off the board).
pub(crate) const NONE_INT: i64 = i64::MIN;
/// Player `none`.
pub(crate) const NO_PLAYER: u8 = u8::MAX;

/// An expression giving a number (`NONE_INT` for none).
pub(crate) type IntF = Box<dyn Fn(&mut Run) -> i64 + Send + Sync>;
/// An expression giving a truth value.
pub(crate) type BoolF = Box<dyn Fn(&mut Run) -> bool + Send + Sync>;
/// An expression giving a zone, a piece (`NIL` for none) or a player
/// (`NO_PLAYER` for none).
pub(crate) type IdF = Box<dyn Fn(&mut Run) -> u16 + Send + Sync>;
/// An expression whose values are not of one fixed type.
pub(crate) type ValF = Box<dyn Fn(&mut Run) -> Value + Send + Sync>;
/// What a collection calls for each item; `false` stops the walk.
pub(crate) type Visit<'v> = &'v mut dyn FnMut(&mut Run, Value) -> bool;
/// A collection: walks its items in order, calling the visitor; returns
/// `false` when the visitor stopped the walk.
pub(crate) type CollF = Box<dyn Fn(&mut Run, Visit) -> bool + Send + Sync>;

/// A branch of the rules whose runs are counted (coverage): an arm of an
/// `if`, an `else`, the body of a `while`, an arm of a `match`, a `choose`
/// and its `else`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The procedure it is in.
    pub proc: ProcId,
    /// The statement or condition it belongs to.
    pub at: Loc,
    /// Which branch, in words ("its block", "its `else`", "the arm `x`").
    pub what: String,
}

/// No branch site.
pub(crate) const NO_SITE: u32 = u32::MAX;

/// The compiled rulebook, laid out for one player count and option set.
/// A table cell as the engine reads it.
pub(crate) enum TableCell {
    /// A number written out (most cells are): read as it is, without the
    /// window a worked-out cell is evaluated in, which was a sixth of an
    /// outside tester's Nine Men's Morris (its mills a table of points,
    /// read at every move).
    Known(super::value::Value),
    /// Anything else, evaluated in a window of `table_locals` fresh slots.
    Worked(ValF),
}

#[derive(Default)]
pub(crate) struct Program {
    /// The code of each procedure, by `ProcId`.
    pub(crate) procs: Vec<Code>,
    /// The condition of each exception, evaluated in the locals of its body.
    pub(crate) exception_when: Vec<BoolF>,
    /// The condition of each trigger, evaluated in its own frame.
    pub(crate) trigger_when: Vec<Option<BoolF>>,
    /// The condition of each end, evaluated in the locals of its body.
    pub(crate) end_when: Vec<BoolF>,
    /// Initial values of counters and vars, evaluated in a window of
    /// `init_locals` slots.
    pub(crate) counter_init: Vec<Option<IntOp>>,
    pub(crate) var_init: Vec<Option<ValF>>,
    pub(crate) init_locals: u16,
    /// The fixed number of rounds, if any (evaluated like the initial values).
    pub(crate) round_times: Option<IntOp>,
    /// The declared invariants: when they apply, what must hold, and the
    /// window they are evaluated in.
    pub(crate) invariants: Vec<(Option<BoolF>, BoolF, u16)>,
    /// Every branch site of every procedure.
    pub(crate) sites: Vec<Site>,
    /// Every cell of every table (table, row, column).
    pub(crate) table_cells: Vec<Vec<Vec<TableCell>>>,
    /// The fresh slots a worked-out cell is evaluated in.
    pub(crate) table_locals: u16,
    /// Some operation reveals pieces: what players know must follow the
    /// moves (without one, nobody ever knows a piece he cannot see).
    pub(crate) reveals: bool,
}

/// The code of one procedure.
pub(crate) struct Code {
    /// Operations, run in order unless one jumps.
    pub(crate) ops: Vec<Op>,
    /// Where each operation is written.
    pub(crate) at: Vec<Loc>,
    /// Size of its frame: the rulebook's locals, the hidden ones of loops and
    /// `as`, and those of inlined functions.
    pub(crate) locals: u16,
    /// The locals live before each operation (and after the last), as bit
    /// sets: what exploration keeps of a frame.
    pub(crate) live: Vec<Vec<u64>>,
}

/// Which slot of a per-player or per-piece var or counter.
pub(crate) enum Index {
    /// A single slot.
    None,
    /// One slot per player.
    Player(IdOp),
    /// One slot per piece of a kind: the first instance and how many.
    Piece(IdOp, KindId, u16, u16),
}

/// A decision (or chance's pick when `by` is absent) over the tuples of
/// the bindings; `otherwise` is where to go when there is none. The
/// condition is `tested` as each item is tried when there is one binding,
/// else `cond` once all are bound. The walk holds `caches` caches of what
/// its condition computes once (hoist.rs).
pub(crate) struct ChooseOp {
    pub(crate) binds: Vec<(u16, Items)>,
    pub(crate) cond: Staged,
    pub(crate) tested: Option<Cond>,
    pub(crate) by: Option<IdOp>,
    pub(crate) otherwise: Option<u32>,
    pub(crate) stmt: StmtId,
    pub(crate) sites: [u32; 2],
    pub(crate) caches: u16,
}

/// What an assignment writes.
pub(crate) enum Target {
    /// A local of the frame.
    Local(u16),
    /// A var: its first slot and which one.
    Var(u32, Index),
    /// A counter: its first slot, which one, and its bounds.
    Counter(u32, Index, i64, i64, crate::model::CounterId),
}

/// What a `reveal` shows.
pub(crate) enum RevealOp {
    /// One piece.
    Piece(IdOp),
    /// The top piece of a zone.
    Top(IdOp),
    /// Every piece of a zone.
    All(IdOp),
}

/// Who a `reveal` shows pieces to, or a `roll ... to` its roll.
pub(crate) enum Audience {
    /// One player.
    One(IdOp),
    /// Every player of a collection.
    Many(CollF),
}

/// One operation of a procedure.
#[repr(u8)]
pub(crate) enum Op {
    /// `let` or `x = e` on a local.
    Let(u16, ValOp),
    /// Assignment to a var or counter (or `+=` on a local).
    Assign(Target, AssignOp, ValOp),
    /// Move one piece to the back of a zone, or the front.
    MovePiece { piece: IdOp, to: IdOp, bottom: bool },
    /// Move the top piece of a zone.
    MoveTop { from: IdOp, to: IdOp, bottom: bool },
    /// `move all of FROM to TO` starts: the two zones into the hidden
    /// slots `zones` and `zones + 1`; to `exit` when there is nothing to
    /// move (an empty zone, or a zone moved to itself).
    MoveAllStart { from: IdOp, to: IdOp, zones: u16, exit: u32 },
    /// Move the front pieces of the zone in `zones` to the one in
    /// `zones + 1`, to `exit` once the zone is empty; when an arrival fires
    /// a trigger or an end condition, it stops there and comes back to
    /// itself after them, so that they run before the next piece moves, as
    /// after a `move`. (Pausing only then keeps a deal of cards without
    /// triggers one operation: Grail Cup 1.03x against a step per piece.)
    MoveAllNext { zones: u16, bottom: bool, exit: u32 },
    /// `move N of KIND from FROM to TO` starts: checks that FROM holds N of
    /// them, and keeps the two zones and how many are left to move in the
    /// hidden slots `state..state + 3`; to `exit` when N is 0 or less.
    MoveCountStart { n: Box<IntOp>, kind: KindId, from: IdOp, to: IdOp, state: u16, exit: u32 },
    /// Move the top-most pieces of the kind, to `exit` once N have moved,
    /// pausing after an arrival that fires something, as `MoveAllNext`.
    MoveCountNext { kind: KindId, state: u16, bottom: bool, exit: u32 },
    /// Random order.
    Shuffle(IdOp),
    /// Players learn which pieces these are.
    Reveal { what: RevealOp, to: Audience },
    /// Roll a die into a local.
    Roll(u16, DieId),
    /// `roll ... to PLAYERS`, right after its `Roll`: the roll just kept
    /// for the screens is shown to those players only.
    RollSeenBy(Audience),
    /// A decision (or chance's pick when `by` is absent): boxed, the
    /// largest operation by far, so that the others stay small.
    Choose(Box<ChooseOp>),
    /// Go to an operation.
    Jump(u32),
    /// Go to an operation unless the condition holds; the branch sites
    /// counted when it holds and when it does not (`NO_SITE`: none).
    JumpUnless(BoolF, u32, [u32; 2]),
    /// Start a `for`: lay its items on the stack past the locals; the three
    /// hidden slots from `state` keep where they start, how many, and the
    /// next one. Jumps to `exit` when there is none.
    ForStart { slot: u16, items: Box<Items>, state: u16, exit: u32 },
    /// End of a `for` body: the next item and back to `body`, or leave.
    ForNext { slot: u16, state: u16, body: u32 },
    /// A `simultaneous` block starts (engine/simultaneous.rs).
    SimBegin,
    /// The turn of the player in this local starts.
    SimTurn(u16),
    /// The turn ends: what it set is sealed away, the old values put back.
    SimSeal,
    /// The block ends: what every turn set is written.
    SimReveal,
    /// Start a `repeat`: the hidden slot `left` counts down.
    RepeatStart { n: IntOp, left: u16, exit: u32 },
    /// End of a `repeat` body.
    RepeatNext { left: u16, body: u32 },
    /// `match`: the first arm one of whose keys matches, else `default`;
    /// the branch site of each arm, then of the default.
    Match { value: ValOp, arms: Vec<(Vec<MatchKey>, u32)>, default: u32, sites: Vec<u32> },
    /// Run a rule or phase, with its exceptions.
    Call(ProcId, Vec<ValOp>),
    /// Run the rule an exception changes, as written.
    Proceed(ProcId),
    /// Start an `as` block: save the actor in a hidden slot and set it.
    SetActor { player: IdOp, save: u16 },
    /// End of an `as` block.
    RestoreActor(u16),
    /// One player wins.
    Win(IdOp),
    /// Every player of a collection shares the victory.
    WinAll(CollF),
    /// A declared draw.
    Draw,
    /// The game ends without a winner.
    End,
    /// Nothing.
    Pass,
}
