//! The canonical form of a state, for exploration: two states with the same
//! canonical form lead to the same games, so the explorer visits them once.
//! (docs/validate.md, "What a state is", says the same for rule authors.)
//!
//! What is left out, and why it is safe:
//! - which of several interchangeable pieces is where: pieces of one kind,
//!   variant and owner with the same per-piece values are told apart only by
//!   their instance numbers, which the rules can see only through
//!   `pieces(kind)`; for a kind the rules never list that way, a piece is its
//!   class, and a piece held in a local or var is written as the zone it is
//!   in and its place there (a listing by the setup's own statements or an
//!   initial value does not count when the setup takes no decision and
//!   draws nothing: no explored state is then in the setup);
//! - locals that no rule will read again (dead, by the liveness analysis of
//!   the compiled code);
//! - counters and vars that no expression reads and that are only ever set
//!   with `=` (a `+=` can overflow the bounds, so the old value matters);
//! - the round number, unless a rule reads `round_number` or the rounds are
//!   counted (`round NAME times N`);
//! - where the rules were when a game ended (its frames, locals and round,
//!   unless a declared invariant reads `round_number`: it is checked in
//!   finished games too): a finished game is its outcome and its position;
//! - what never decides the future: rule coverage, decision and ply counts,
//!   the random generator of a game whose chance is explored.
//!
//! What is kept: where every piece is (the order in a zone included, since
//! `top`, `first` and `for` can see it), the counters and vars that matter,
//! the frames of the rules being run with their live locals and the items of
//! their `for` loops, what the turns of a `simultaneous` block being run have
//! set, and the pending decision with its options.

use super::compile::Op;
use super::layout::Game;
use super::state::State;
use super::value::Value;
use crate::model::{Expr, KindId, LValue, Stmt};
use grimoire_grammar::ast::AssignOp;

/// What the canonical form keeps, worked out once per game.
#[derive(Debug, Clone, Default)]
pub(crate) struct Canon {
    /// Per instance: its class number if its kind is anonymous (never listed
    /// with `pieces`), else `None` (the instance itself is kept).
    class: Vec<Option<u32>>,
    /// Per instance: its code in the stream of positions when that is its
    /// class alone (an anonymous piece without per-piece values), else
    /// `SELF` (the code is worked out by `piece_code`). Read once per piece
    /// of every state fingerprinted: one load instead of four.
    plain_code: Vec<u16>,
    /// Per kind: the per-piece counter and var slots of its pieces
    /// (first slot of the declaration, first instance of the kind).
    per_piece: Vec<Vec<Slots>>,
    /// Counter and var declarations whose (non per-piece) value matters.
    counters: Vec<bool>,
    vars: Vec<bool>,
    /// The round number matters.
    round: bool,
    /// The round number matters when the game is over too: a declared
    /// invariant reads it, and is checked in finished states.
    round_at_end: bool,
    /// Kinds whose pieces are kept as themselves (the rules list them with
    /// `pieces`) though two of them or more are alike (same variant and
    /// owner): states that differ only in which of those is where are
    /// different states. Said in the explorer's report: a count of
    /// positions from a published table counts them as one.
    pub(crate) told_apart: Vec<KindId>,
    /// The words of the pieces' codes, where no code can change during a
    /// game (`zone_hash.rs`).
    pub(crate) zone_words: Option<super::zone_hash::ZoneWords>,
}

/// Per expression: whether it is read only while the game is set up: it
/// is in the setup's own statements (not in a rule or function they call:
/// those may run later too) or is a counter's or var's initial value.
fn setup_exprs(m: &crate::model::Model) -> Vec<bool> {
    let mut only = vec![false; m.exprs.len()];
    let mut mark = |e: crate::model::ExprId| {
        if let Some(x) = only.get_mut(e.0 as usize) {
            *x = true;
        }
    };
    if let Some(setup) = m.setup {
        m.walk_block(m.proc(setup).body, &mut |_| {}, &mut mark);
    }
    for init in m.counters.iter().map(|c| c.init).chain(m.vars.iter().map(|v| v.init)).flatten() {
        m.walk_expr(init, &mut mark);
    }
    only
}

#[derive(Debug, Clone, Copy)]
enum Slots {
    Counter(u32),
    Var(u32),
}

impl Canon {
    /// What the canonical form of `g`'s states keeps. `setup_behind`: no
    /// explored state is in the setup (it takes no decision and draws
    /// nothing, so that exploring starts after it).
    pub(crate) fn new(g: &Game, setup_behind: bool) -> Canon {
        let m = &*g.model;
        let mut listed = vec![false; m.kinds.len()];
        let (mut counter_read, mut var_read) = (vec![false; m.counters.len()], vec![false; m.vars.len()]);
        let mut round_read = false;
        // A kind listed only where the game is set up (by the setup's own
        // statements, the usual way to put a player's pieces on a shared
        // board, or by an initial value) is listed in no state the
        // explorer visits, when none is in the setup: no rule still to run
        // can tell its alike pieces apart.
        let set_up_only = if setup_behind { setup_exprs(m) } else { Vec::new() };
        for (i, e) in m.exprs.iter().enumerate() {
            match e {
                Expr::Pieces(k) | Expr::PiecesOf(k, _) if !set_up_only.get(i).copied().unwrap_or(false) => listed[k.idx()] = true,
                Expr::Counter(c, _) => counter_read[c.idx()] = true,
                Expr::Var(v, _) => var_read[v.idx()] = true,
                Expr::RoundNumber => round_read = true,
                _ => {}
            }
        }
        let round = round_read || m.round.is_some_and(|(_, times)| times.is_some());
        // An invariant is checked when the game ends: when it may read the
        // round (itself or through a function: any expression that reads it
        // is taken to), the round must tell finished games apart (two
        // draws, one in a round the invariant forbids, are not one state).
        let round_at_end = round_read && !m.invariants.is_empty();
        // A `+=` or `-=` makes the old value matter (bounds, `none`).
        for s in &m.stmts {
            if let Stmt::Assign(lv, op, _) = &s.stmt {
                if *op != AssignOp::Set {
                    match lv {
                        LValue::Counter(c, _) => counter_read[c.idx()] = true,
                        LValue::Var(v, _) => var_read[v.idx()] = true,
                        LValue::Local(_) => {}
                    }
                }
            }
        }
        // Classes of anonymous pieces: kind, variant and owner.
        let mut classes: Vec<(KindId, Option<crate::model::VariantId>, Option<u8>)> = Vec::new();
        let class: Vec<Option<u32>> = (0..g.inst_kind.len())
            .map(|p| {
                let k = g.inst_kind[p];
                if listed[k.idx()] {
                    return None;
                }
                let key = (k, g.inst_variant[p], g.inst_owner[p]);
                let n = classes.iter().position(|c| *c == key).unwrap_or_else(|| {
                    classes.push(key);
                    classes.len() - 1
                });
                // Class numbers are codes below `WIDE` (a game has at most
                // 65,535 instances, so they always are).
                (n < usize::from(WIDE)).then_some(n as u32)
            })
            .collect();
        let mut per_piece = vec![Vec::new(); m.kinds.len()];
        for (c, def) in m.counters.iter().enumerate() {
            if let Some(k) = def.per_piece {
                if counter_read[c] {
                    per_piece[k.idx()].push(Slots::Counter(g.counter_base[c]));
                }
            }
        }
        for (v, def) in m.vars.iter().enumerate() {
            if let Some(k) = def.per_piece {
                if var_read[v] {
                    per_piece[k.idx()].push(Slots::Var(g.var_base[v]));
                }
            }
        }
        let counters = m.counters.iter().enumerate().map(|(c, d)| d.per_piece.is_none() && counter_read[c]).collect();
        let vars = m.vars.iter().enumerate().map(|(v, d)| d.per_piece.is_none() && var_read[v]).collect();
        let plain_code = class
            .iter()
            .zip(&g.inst_kind)
            .map(|(class, k)| match class {
                Some(n) if per_piece[k.idx()].is_empty() => *n as u16,
                _ => SELF,
            })
            .collect();
        let told_apart = (0..m.kinds.len())
            .filter(|&k| listed[k])
            .filter(|&k| {
                let (first, n) = g.kind_range[k];
                let alike = |p: u16| (g.inst_variant[p as usize], g.inst_owner[p as usize]);
                (first..first + n).any(|p| (p + 1..first + n).any(|q| alike(p) == alike(q)))
            })
            .map(|k| KindId(k as u16))
            .collect();
        // A piece's code is its class, or itself: it changes during a game
        // only for an interchangeable piece with values of its own.
        let codes: Vec<Option<u64>> = class
            .iter()
            .zip(&g.inst_kind)
            .enumerate()
            .map(|(p, (class, k))| match class {
                None => Some(1 << 32 | p as u64),
                Some(n) => per_piece[k.idx()].is_empty().then_some(u64::from(*n)),
            })
            .collect();
        let zone_words = super::zone_hash::ZoneWords::new(&codes);
        Canon { class, plain_code, per_piece, counters, vars, round, round_at_end, told_apart, zone_words }
    }
}

/// The code of a piece in the stream of positions: its class, its class
/// mixed with its per-piece values, or the instance itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PieceCode {
    Class(u16),
    Wide(u64),
    Itself(u16),
}

/// Codes that announce a piece written as a 64-bit word, or as itself.
const WIDE: u16 = u16::MAX - 1;
const SELF: u16 = u16::MAX;

/// 16-bit codes gathered four to a word before they are hashed into `h`.
struct Codes {
    h: Fingerprint,
    word: u64,
    held: u8,
}

impl Codes {
    #[inline]
    fn push(&mut self, code: u16) {
        self.word = self.word << 16 | u64::from(code);
        self.held += 1;
        if self.held == 4 {
            self.h.word(self.word);
            (self.word, self.held) = (0, 0);
        }
    }
    fn finish(mut self) -> Fingerprint {
        self.h.word(self.word);
        self.h.word(u64::from(self.held));
        self.h
    }
}

/// A 64-bit hash of a sequence of words: each word is folded in with a full
/// 64x64->128 multiply (the core of wyhash), so that structured inputs
/// (small numbers, repeated patterns) still spread over all 64 bits.
struct Fingerprint(u64);

impl Fingerprint {
    const K: u64 = 0xa076_1d64_78bd_642f;
    #[inline]
    fn word(&mut self, w: u64) {
        let m = u128::from(self.0 ^ w ^ Self::K) * u128::from(w.wrapping_add(0xe703_7ed1_a0b4_28db) | 1);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
    fn finish(self) -> u64 {
        // splitmix64's finaliser.
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[allow(clippy::indexing_slicing, reason = "instances, zones and slots are numbered by Game::new, which sizes these arrays")]
/// A counter or var slot set in a `simultaneous` block, as one word.
fn sim_slot_word(slot: super::simultaneous::SimSlot) -> u64 {
    match slot {
        super::simultaneous::SimSlot::Counter(c) => u64::from(c) << 1,
        super::simultaneous::SimSlot::Var(v) => u64::from(v) << 1 | 1,
    }
}

impl Game {
    /// The kinds whose alike pieces a state tells apart (`Canon::told_apart`).
    pub fn pieces_told_apart(&self) -> Vec<String> {
        self.canon.told_apart.iter().map(|k| self.model.kinds[k.idx()].name.clone()).collect()
    }

    /// The fingerprint of a state's canonical form (see the module doc):
    /// equal for states that lead to the same games.
    pub fn canonical_fingerprint(&self, st: &State) -> u64 {
        let c = &*self.canon;
        let mut h = Fingerprint(0);
        // A finished game is its outcome and its position: where the rules
        // were when it ended, the round and the dead locals are not kept.
        let over = st.outcome.map(|o| match o {
            super::Outcome::Winner(p) => u64::from(p),
            super::Outcome::Shared(mask) => 0x1_0000 | u64::from(mask),
            super::Outcome::Draw => 0x2_0000,
            super::Outcome::Ended => 0x3_0000,
        });
        match over {
            Some(o) => {
                h.word(0xf1_0000_0000 | o);
                if c.round_at_end {
                    h.word(u64::from(st.round));
                }
            }
            None => {
                h.word(st.stage as u64);
                if c.round {
                    h.word(u64::from(st.round));
                }
            }
        }
        // The pieces as a stream of 16-bit codes, four to a word: for each
        // non-empty zone its number + 1 and its length, then each piece as
        // its class (below `WIDE`), or `WIDE` and its 64-bit word (an
        // anonymous piece with per-piece values), or `SELF` and its
        // instance number; a 0 ends the zones. Every stream reads back one
        // way only, so equal streams are equal positions.
        match self.pieces_word(st) {
            Some(w) => h.word(w),
            None => self.piece_stream(st, &mut h),
        }
        for (k, slots) in c.per_piece.iter().enumerate() {
            // Anonymous pieces carry theirs in their class.
            let (first, n) = self.kind_range[k];
            if slots.is_empty() || c.class.get(first as usize).copied().flatten().is_some() {
                continue;
            }
            for p in first..first + n {
                self.per_piece_words(st, &mut h, slots, p, first);
            }
        }
        for (i, keep) in c.counters.iter().enumerate() {
            if *keep {
                let end = self.counter_base.get(i + 1).copied().unwrap_or(self.counter_slots);
                for s in self.counter_base[i]..end {
                    h.word(st.counters[s as usize] as u64);
                }
            }
        }
        for (i, keep) in c.vars.iter().enumerate() {
            if *keep {
                let end = self.var_base.get(i + 1).copied().unwrap_or(self.var_slots);
                for s in self.var_base[i]..end {
                    self.value_words(st, &mut h, st.vars[s as usize]);
                }
            }
        }
        if over.is_some() {
            return h.finish();
        }
        self.frame_words(st, &mut h);
        if let Some(sim) = &st.sim {
            // Inside a `simultaneous` block: whose turn, and what the turns
            // so far set (sealed away, or to be put back).
            h.word(0x5101_0000 | sim.player.map_or(0, |p| u64::from(p) + 1) | u64::from(sim.decisions) << 32);
            h.word(u64::from(sim.had_turn));
            for (slot, v, p) in &sim.sealed {
                h.word(sim_slot_word(*slot) | u64::from(*p) << 40);
                self.value_words(st, &mut h, *v);
            }
            h.word(0x5102_0000);
            for (slot, v) in &sim.undo {
                h.word(sim_slot_word(*slot));
                self.value_words(st, &mut h, *v);
            }
        }
        if let Some(p) = st.pending {
            h.word(0xdec1_0000 | u64::from(p.player));
            h.word(p.shuffle.map(u64::from).unwrap_or(u64::MAX));
            h.word(u64::from(st.arity));
            for v in &st.options {
                self.value_words(st, &mut h, *v);
            }
        }
        h.finish()
    }

    /// The stream of pieces of [`Game::canonical_fingerprint`], folded
    /// into `h`. Most of a fingerprint's time: the hash, the word being
    /// filled and the tables are locals here, so that the loop over the
    /// pieces keeps them in registers (as fields behind `&mut` they were
    /// stored and reloaded at every piece).
    fn piece_stream(&self, st: &State, h: &mut Fingerprint) {
        let (plain, next) = (self.canon.plain_code.as_slice(), st.next.as_slice());
        let mut codes = Codes { h: Fingerprint(h.0), word: 0, held: 0 };
        for (z, (&len, &head)) in st.len.iter().zip(&st.head).enumerate() {
            if len == 0 {
                continue;
            }
            codes.push((z as u16).wrapping_add(1));
            codes.push(len);
            // The zone's list, front first, `len` links long.
            let mut p = head;
            for _ in 0..len {
                let i = usize::from(p);
                let (Some(&code), Some(&after)) = (plain.get(i), next.get(i)) else { break };
                if code != SELF {
                    codes.push(code);
                } else {
                    // Out of line, and returning its code rather than
                    // pushing it: `codes` must not escape, or it leaves
                    // the registers.
                    match self.piece_code(st, p) {
                        PieceCode::Class(k) => codes.push(k),
                        PieceCode::Wide(w) => {
                            codes.push(WIDE);
                            for i in (0..4).rev() {
                                codes.push((w >> (16 * i)) as u16);
                            }
                        }
                        PieceCode::Itself(p) => {
                            codes.push(SELF);
                            codes.push(p);
                        }
                    }
                }
                p = after;
            }
        }
        codes.push(0);
        *h = codes.finish();
    }

    /// The codes of a zone's pieces, front first: pieces of one code are
    /// interchangeable, and orders that differ only by them are one
    /// position (a shuffle explores the orders it can tell apart).
    pub(super) fn piece_codes(&self, st: &State, z: u16) -> Vec<PieceCode> {
        st.zone_pieces(z).map(|p| self.piece_code(st, p)).collect()
    }

    /// How a piece is written in the stream of positions.
    #[inline(never)]
    fn piece_code(&self, st: &State, p: u16) -> PieceCode {
        let c = &*self.canon;
        match c.class[p as usize] {
            None => PieceCode::Itself(p),
            Some(class) => {
                let k = self.inst_kind[p as usize].idx();
                let slots = &c.per_piece[k];
                if slots.is_empty() {
                    return PieceCode::Class(class as u16);
                }
                let mut h = Fingerprint(u64::from(class));
                self.per_piece_words(st, &mut h, slots, p, self.kind_range[k].0);
                PieceCode::Wide(h.finish())
            }
        }
    }

    fn per_piece_words(&self, st: &State, h: &mut Fingerprint, slots: &[Slots], p: u16, first: u16) {
        let i = u32::from(p - first);
        for s in slots {
            match s {
                Slots::Counter(base) => h.word(st.counters[(base + i) as usize] as u64),
                Slots::Var(base) => self.value_words(st, h, st.vars[(base + i) as usize]),
            }
        }
    }

    /// A value, with an anonymous piece written as where it is. The values
    /// options and locals hold most (numbers, spaces, players) are written
    /// here, inline; the others by [`Game::other_value_words`].
    #[inline]
    fn value_words(&self, st: &State, h: &mut Fingerprint, v: Value) {
        match v {
            Value::Int(i) if (i << 8) >> 8 == i => h.word(10 | (i as u64) << 8),
            Value::Zone(z) => h.word(5 | (z << 8)),
            Value::Player(p) => h.word(3 | (p << 8)),
            _ => self.other_value_words(st, h, v),
        }
    }

    /// [`Game::value_words`] of any value.
    #[inline(never)]
    fn other_value_words(&self, st: &State, h: &mut Fingerprint, v: Value) {
        match v {
            Value::Piece(p) if self.canon.class.get(p as usize).copied().flatten().is_some() => {
                let z = st.loc[p as usize];
                let place = st.zone_pieces(z).position(|x| u64::from(x) == p).unwrap_or(0);
                h.word(0x7000_0000 | u64::from(z));
                h.word(place as u64);
            }
            Value::None => h.word(0),
            // A number of 56 bits or less (all but the rarest) in one word,
            // tag 10; any other in two, tag 1 then the number.
            Value::Int(i) if (i << 8) >> 8 == i => h.word(10 | (i as u64) << 8),
            Value::Int(i) => {
                h.word(1);
                h.word(i as u64);
            }
            Value::False => h.word(2),
            Value::True => h.word(2 | 1 << 8),
            Value::Player(p) => h.word(3 | (p << 8)),
            Value::Piece(p) => h.word(4 | (p << 8)),
            Value::Zone(z) => h.word(5 | (z << 8)),
            Value::Face(f) => h.word(6 | (f << 8)),
            Value::Variant(x) => h.word(7 | (x << 8)),
            Value::Dir(d) => h.word(8 | ((d as u8 as u64) << 8)),
            Value::Row(packed) => {
                let (t, r) = Value::row_parts(packed);
                h.word(9 | (u64::from(t) << 8) | (u64::from(r) << 24))
            }
        }
    }

    /// The frames of the rules being run, with their live locals and the
    /// items of their `for` loops.
    fn frame_words(&self, st: &State, h: &mut Fingerprint) {
        let top = st.frames.len().wrapping_sub(1);
        for (i, f) in st.frames.iter().enumerate() {
            h.word(u64::from(f.proc.0) | (u64::from(f.pc) << 16) | (u64::from(f.actor) << 48) | (u64::from(f.depth) << 56));
            h.word(u64::from(f.phase) | (u64::from(f.end) << 1));
            let code = &self.program.procs[f.proc.idx()];
            let live = code.live.get(f.pc as usize);
            // At the pending decision, what it is about to write is not live yet.
            let pending = if i == top { st.pending.and_then(|p| code.ops.get(p.pc as usize)) } else { None };
            let written = |slot: u16| match pending {
                Some(Op::Choose(c)) => c.binds.iter().any(|(s, _)| *s == slot),
                Some(Op::Roll(s, _)) => *s == slot,
                _ => false,
            };
            let base = f.base as usize;
            for slot in 0..code.locals {
                let is_live = live.and_then(|words| words.get(slot as usize / 64)).is_some_and(|w| w & (1u64 << (slot % 64)) != 0);
                if is_live && !written(slot) {
                    h.word(0x5107_0000 | u64::from(slot));
                    self.value_words(st, h, st.stack.get(base + slot as usize).copied().unwrap_or_default());
                }
            }
            // `for` items laid past the locals, up to the next frame.
            let end = st.frames.get(i + 1).map(|n| n.base as usize).unwrap_or(st.stack.len());
            for v in st.stack.get(base + code.locals as usize..end).unwrap_or(&[]) {
                self.value_words(st, h, *v);
            }
        }
    }
}
