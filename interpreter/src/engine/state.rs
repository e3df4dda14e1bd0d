//! The mutable part of a game: where every piece is, counters and vars, the
//! frames of the rules being run, the pending decision and the RNG.
//!
//! Zones are doubly linked lists threaded through flat per-instance arrays
//! (`next`, `prev`, `loc`) with a head, a tail and a length per zone. A state
//! is therefore a few flat vectors whatever the game: cloning it is a handful
//! of copies, a move is O(1), and `count`, `top` and the front of a zone are
//! read without walking it.

use super::recorded::{Forced, Revealed, Rolled};
use super::value::Value;
use crate::model::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::hash::{Hash, Hasher};

/// "No piece" in the links and "empty" for a zone's head and tail.
pub(crate) const NIL: u16 = u16::MAX;

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// One player won.
    Winner(u8),
    /// Several players share the victory (bit i: player i).
    Shared(u16),
    /// Nobody won; a declared draw.
    Draw,
    /// The rules ended the game without a winner.
    Ended,
}

impl Outcome {
    /// The players who won.
    pub fn winners(self) -> impl Iterator<Item = u8> {
        let mask = match self {
            Outcome::Winner(p) => 1u16 << p,
            Outcome::Shared(m) => m,
            Outcome::Draw | Outcome::Ended => 0,
        };
        (0..16u8).filter(move |p| mask & (1 << p) != 0)
    }
}

/// Where the top-level driver is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Stage {
    /// Nothing has run yet.
    Start,
    /// The setup (and its exceptions) is running.
    Setup,
    /// Rounds follow each other.
    Rounds,
}

/// One procedure being run: which compiled procedure, where in it, where its
/// locals start on the value stack, and on whose behalf.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Frame {
    /// The procedure (its compiled code has the same index).
    pub(crate) proc: ProcId,
    /// Next operation to run.
    pub(crate) pc: u32,
    /// Its locals start here on the value stack.
    pub(crate) base: u32,
    /// Player on whose behalf it runs (`NO_ACTOR` if none).
    pub(crate) actor: u8,
    /// Depth of trigger nesting.
    pub(crate) depth: u8,
    /// A phase: end conditions are checked when it returns.
    pub(crate) phase: bool,
    /// The body of an end condition: it must end the game.
    pub(crate) end: bool,
}

impl Frame {
    /// A copy of a frame read one field at a time. The step machine reads
    /// the top frame just after a call pushed it or an operation wrote its
    /// `pc`, both written in parts: read as one 16-byte word, the read
    /// waited for those writes to land (a failed store forwarding). Read
    /// this way: Grail Cup 1.03x, Merlin 1.025x, connect four 1.02x in CPU
    /// time. `black_box` keeps the compiler from merging the field reads
    /// back into one.
    #[inline(always)]
    pub(crate) fn read_by_fields(f: &Frame) -> Frame {
        use std::hint::black_box;
        Frame {
            proc: *black_box(&f.proc),
            pc: *black_box(&f.pc),
            base: *black_box(&f.base),
            actor: *black_box(&f.actor),
            depth: *black_box(&f.depth),
            phase: *black_box(&f.phase),
            end: *black_box(&f.end),
        }
    }
}

pub(crate) const NO_ACTOR: u8 = u8::MAX;

/// A decision the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Pending {
    /// The player deciding, or `CHANCE`.
    pub(crate) player: u8,
    /// The locals of the procedure that asks start here on the stack.
    pub(crate) base: u32,
    /// The operation that asks (in the procedure of the top frame).
    pub(crate) pc: u32,
    /// For a chance node of a shuffle: the zone to shuffle.
    pub(crate) shuffle: Option<u16>,
}

/// The "player" of chance nodes when a state is explored.
pub const CHANCE: u8 = u8::MAX - 1;
/// A shuffle of more pieces than this many permutations is explored through
/// this many sampled orders.
pub const SHUFFLE_SAMPLES: u64 = 24;

/// Everything about a game in progress that can change.
#[derive(Debug)]
pub struct State {
    /// First piece (front, first arrived, bottom of a deck) of each zone.
    pub(crate) head: Vec<u16>,
    /// Last piece (back, top) of each zone.
    pub(crate) tail: Vec<u16>,
    /// Pieces in each zone.
    pub(crate) len: Vec<u16>,
    /// The piece behind each piece in its zone.
    pub(crate) next: Vec<u16>,
    /// The piece in front of each piece in its zone.
    pub(crate) prev: Vec<u16>,
    /// Zone of each instance.
    pub loc: Vec<u16>,
    /// Players (bit i: player i) who know which piece each instance is,
    /// whether or not they see its zone: set by `reveal`, forgotten when
    /// its zone is shuffled. Only observations read it: no rule can, so
    /// fingerprints, canonical forms and packed states leave it out.
    pub(crate) known: Vec<u16>,
    /// Counter slots.
    pub counters: Vec<i64>,
    /// Var slots.
    pub vars: Vec<Value>,
    /// Locals of the procedures being run, and the items of their `for` loops.
    pub(crate) stack: Vec<Value>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) pending: Option<Pending>,
    /// The options of the pending decision, `arity` values each.
    pub(crate) options: Vec<Value>,
    pub(crate) arity: u8,
    /// Work space of the evaluator (regions); always empty between two calls.
    pub(crate) scratch: Vec<Value>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
    pub(crate) rng: ChaCha8Rng,
    /// Current round, from 1 (0 during setup).
    pub round: u32,
    pub(crate) stage: Stage,
    /// Decisions taken so far (choices among two options or more).
    pub decisions: u32,
    /// Moves made by players so far: every `choose ... by`, forced or not.
    pub plies: u32,
    /// A `choose` with a single option waits for a decision instead of
    /// taking it (exploration and move counting see every ply).
    pub forced_decisions: bool,
    /// How many times each procedure ran (rule coverage).
    pub fired: Vec<u32>,
    /// How many times each end condition fired.
    pub ends_fired: Vec<u32>,
    /// How many times each branch site ran (coverage; `Game::sites`).
    pub branches: Vec<u32>,
    /// Dice and shuffles are chance nodes to enumerate, not RNG draws.
    pub exploring: bool,
    /// A shuffle was explored through sampled orders only.
    pub sampled_shuffle: bool,
    /// Pieces left in the box when setup ended: during play the box neither
    /// gives nor takes (the conservation invariant).
    pub box_after_setup: Option<u32>,
    /// The statement that last moved a piece into or out of the box after
    /// setup: where the conservation finding (V501) points. No rule reads
    /// it, so fingerprints and canonical forms leave it out.
    pub box_moved_at: Option<Loc>,
    /// The `simultaneous` block being run, if any.
    pub(crate) sim: Option<Box<super::simultaneous::Simultaneous>>,
    /// The dice rolled and not yet taken (`take_rolls`), when they are
    /// kept: `None` in random playouts and explorations, which keep none.
    pub(crate) rolled: Option<Vec<Rolled>>,
    /// The pieces shown by `reveal` and not yet taken (`take_reveals`),
    /// kept when the rolls are.
    pub(crate) revealed: Option<Vec<Revealed>>,
    /// The forced choices taken and not yet taken back (`take_forced`),
    /// kept when the rolls are.
    pub(crate) forced: Option<Vec<Forced>>,
    /// `Some(actor)`: the end conditions were checked for `actor` and none
    /// held, and nothing they can read (where the pieces are, counters,
    /// vars, the round) has changed since, so checking them again for the
    /// same actor (at the end of a round whose last statement was a move)
    /// would give the same answer. Set by `check_ends`, cleared by every
    /// write of those (`link`, `set_counter`, `set_var`, the round's start).
    /// Not part of any fingerprint or packed state (unpacking clears it).
    pub(crate) ends_checked_for: Option<u8>,
    /// The zones' hashes, kept while the game is explored (`zone_hash.rs`).
    /// Boxed: in the state itself, it moved the fields around and connect
    /// four's playouts, which never keep hashes, took 4 % longer.
    pub(crate) zone_hash: Box<super::zone_hash::ZoneHashes>,
}

impl State {
    /// End the game. The rules waiting below the one that ended it and not yet
    /// begun (an `after` exception, the body a `before` exception came first
    /// to, a trigger after the one that won) never run: they were counted as
    /// fired when they were pushed, and are not any more. A begun frame is
    /// never at its first operation (its next one is written before it runs;
    /// only a `while` at the start jumps back there, and then runs it at once).
    pub(crate) fn end_game(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        for f in &self.frames {
            if f.pc == 0 {
                if let Some(n) = self.fired.get_mut(f.proc.idx()) {
                    *n = n.saturating_sub(1);
                }
            }
        }
    }
}

impl Clone for State {
    fn clone(&self) -> Self {
        let mut copy = self.clone_but_options();
        copy.options.clone_from(&self.options);
        copy
    }

    /// Reuses this state's buffers: restarting a game allocates nothing.
    fn clone_from(&mut self, o: &Self) {
        self.copy_but_options(o);
        self.options.clone_from(&o.options);
    }
}

impl State {
    /// A copy with no options (the caller sets them).
    fn clone_but_options(&self) -> Self {
        State {
            head: self.head.clone(),
            tail: self.tail.clone(),
            len: self.len.clone(),
            next: self.next.clone(),
            prev: self.prev.clone(),
            loc: self.loc.clone(),
            known: self.known.clone(),
            counters: self.counters.clone(),
            vars: self.vars.clone(),
            stack: self.stack.clone(),
            frames: self.frames.clone(),
            pending: self.pending,
            options: Vec::new(),
            arity: self.arity,
            scratch: Vec::new(),
            outcome: self.outcome,
            rng: self.rng.clone(),
            round: self.round,
            stage: self.stage,
            decisions: self.decisions,
            plies: self.plies,
            forced_decisions: self.forced_decisions,
            fired: self.fired.clone(),
            ends_fired: self.ends_fired.clone(),
            branches: self.branches.clone(),
            exploring: self.exploring,
            sampled_shuffle: self.sampled_shuffle,
            box_after_setup: self.box_after_setup,
            box_moved_at: self.box_moved_at,
            sim: self.sim.clone(),
            rolled: self.rolled.clone(),
            revealed: self.revealed.clone(),
            forced: self.forced.clone(),
            ends_checked_for: self.ends_checked_for,
            zone_hash: self.zone_hash.clone(),
        }
    }

    /// The values of option `index` of the pending decision, if there is
    /// one.
    fn option_tuple(&self, index: usize) -> Option<&[Value]> {
        self.pending?;
        let arity = self.arity.max(1) as usize;
        index.checked_mul(arity).and_then(|first| self.options.get(first..first.checked_add(arity)?))
    }

    /// A copy with only option `index` of the pending decision (see
    /// [`State::copy_with_option`]); `None` when there is no such option.
    pub(crate) fn clone_with_option(&self, index: usize) -> Option<State> {
        let tuple = self.option_tuple(index)?;
        let mut copy = self.clone_but_options();
        copy.options.extend_from_slice(tuple);
        Some(copy)
    }

    /// `o` with only option `index` of its pending decision, for the tools
    /// that try each option of a state in turn (`Game::apply_copy`): a copy
    /// of every option per option made a decision with 160,000 options take
    /// minutes. `false` (and nothing copied) when there is no such option.
    pub(crate) fn copy_with_option(&mut self, o: &Self, index: usize) -> bool {
        let Some(tuple) = o.option_tuple(index) else { return false };
        self.copy_but_options(o);
        self.options.clear();
        self.options.extend_from_slice(tuple);
        true
    }

    fn copy_but_options(&mut self, o: &Self) {
        self.head.clone_from(&o.head);
        self.tail.clone_from(&o.tail);
        self.len.clone_from(&o.len);
        self.next.clone_from(&o.next);
        self.prev.clone_from(&o.prev);
        self.loc.clone_from(&o.loc);
        self.known.clone_from(&o.known);
        self.counters.clone_from(&o.counters);
        self.vars.clone_from(&o.vars);
        self.stack.clone_from(&o.stack);
        self.frames.clone_from(&o.frames);
        self.pending = o.pending;
        self.arity = o.arity;
        self.scratch.clear();
        self.outcome = o.outcome;
        // An exploring game never draws from its RNG (chance is a decision
        // there, and packed states leave the RNG out): the explorer clones
        // a state per child, and this copy was the largest part of it.
        if !o.exploring {
            self.rng.clone_from(&o.rng);
        }
        self.round = o.round;
        self.stage = o.stage;
        self.decisions = o.decisions;
        self.plies = o.plies;
        self.forced_decisions = o.forced_decisions;
        self.fired.clone_from(&o.fired);
        self.ends_fired.clone_from(&o.ends_fired);
        self.branches.clone_from(&o.branches);
        self.exploring = o.exploring;
        self.sampled_shuffle = o.sampled_shuffle;
        self.box_after_setup = o.box_after_setup;
        self.box_moved_at = o.box_moved_at;
        self.sim.clone_from(&o.sim);
        self.rolled.clone_from(&o.rolled);
        self.revealed.clone_from(&o.revealed);
        self.forced.clone_from(&o.forced);
        self.ends_checked_for = o.ends_checked_for;
        if o.zone_hash.kept {
            self.zone_hash.clone_from(&o.zone_hash);
        } else {
            self.zone_hash.kept = false;
        }
    }
}

/// The pieces of one zone, front to back.
pub struct ZoneIter<'s> {
    next: &'s [u16],
    at: u16,
}

impl Iterator for ZoneIter<'_> {
    type Item = u16;
    fn next(&mut self) -> Option<u16> {
        let p = self.at;
        if p == NIL {
            return None;
        }
        self.at = self.next.get(p as usize).copied().unwrap_or(NIL);
        Some(p)
    }
}

#[allow(clippy::indexing_slicing, reason = "zones and instances are numbered by Game::new, which sizes these arrays")]
impl State {
    /// Every instance in the box (zone `box_zone`), nothing else set up.
    pub(crate) fn empty(g: &super::Game) -> State {
        let (zones, instances, box_zone) = (g.zones.len(), g.instance_count(), g.box_zone);
        let (counters, vars) = (g.counter_slots as usize, g.var_slots as usize);
        let (procs, ends, sites) = (g.model.procs.len(), g.model.ends.len(), g.sites().len());
        let n = instances as u16;
        let mut st = State {
            head: vec![NIL; zones],
            tail: vec![NIL; zones],
            len: vec![0; zones],
            next: (1..=n).map(|i| if i == n { NIL } else { i }).collect(),
            prev: (0..n).map(|i| if i == 0 { NIL } else { i - 1 }).collect(),
            loc: vec![box_zone; instances],
            known: vec![0; instances],
            counters: vec![0; counters],
            vars: vec![Value::None; vars],
            stack: Vec::with_capacity(64),
            frames: Vec::with_capacity(16),
            pending: None,
            options: Vec::with_capacity(16),
            arity: 1,
            scratch: Vec::new(),
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(0),
            round: 0,
            stage: Stage::Start,
            decisions: 0,
            plies: 0,
            forced_decisions: false,
            fired: vec![0; procs],
            ends_fired: vec![0; ends],
            branches: vec![0; sites],
            exploring: false,
            sampled_shuffle: false,
            box_after_setup: None,
            box_moved_at: None,
            sim: None,
            rolled: None,
            revealed: None,
            forced: None,
            ends_checked_for: None,
            zone_hash: Box::default(),
        };
        if n > 0 {
            let b = box_zone as usize;
            st.head[b] = 0;
            st.tail[b] = n - 1;
            st.len[b] = n;
        }
        st
    }

    /// The dice rolled since the last call, oldest first (none when the
    /// game keeps no rolls: see [`Game::begin_recording`]).
    ///
    /// [`Game::begin_recording`]: super::Game::begin_recording
    pub fn take_rolls(&mut self) -> Vec<Rolled> {
        self.rolled.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The pieces shown by `reveal` since the last call, oldest first
    /// (none when the game keeps no rolls).
    pub fn take_reveals(&mut self) -> Vec<Revealed> {
        self.revealed.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The forced choices taken since the last call, oldest first (none
    /// when the game keeps no rolls).
    pub fn take_forced(&mut self) -> Vec<Forced> {
        self.forced.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Reseed the dice and shuffles.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Whether a die, a shuffle or a random pick has drawn from the RNG.
    pub(crate) fn drew_randomness(&self) -> bool {
        self.rng.get_word_pos() != 0
    }

    /// Uniform integer in `0..n` from the state's RNG.
    pub(crate) fn random_below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        // Rejection sampling keeps the draw exactly uniform.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// The game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Number of pieces in zone `z`.
    pub fn zone_len(&self, z: u16) -> usize {
        self.len.get(z as usize).map(|n| *n as usize).unwrap_or(0)
    }

    /// The pieces of zone `z`, front (first arrived, bottom) to back (top).
    pub fn zone_pieces(&self, z: u16) -> ZoneIter<'_> {
        ZoneIter { next: &self.next, at: self.head.get(z as usize).copied().unwrap_or(NIL) }
    }

    /// The back (top) piece of zone `z`.
    pub fn zone_top(&self, z: u16) -> Option<u16> {
        self.tail.get(z as usize).copied().filter(|p| *p != NIL)
    }

    /// Put the pieces of zone `z` in the given order, front first; `false`
    /// (and nothing changed) unless `order` holds exactly the zone's pieces.
    /// For tools and tests that build a position by hand.
    pub fn reorder_zone(&mut self, z: u16, order: &[u16]) -> bool {
        let mut now: Vec<u16> = self.zone_pieces(z).collect();
        let mut asked = order.to_vec();
        now.sort_unstable();
        asked.sort_unstable();
        if now != asked {
            return false;
        }
        let order: Vec<Value> = order.iter().map(|p| Value::piece(*p)).collect();
        self.relink(z, &order);
        self.zone_hash.kept = false;
        true
    }

    /// Whether player `player` knows which piece `p` is through a `reveal`
    /// (seeing its zone aside).
    pub fn knows(&self, player: u8, p: u16) -> bool {
        self.known.get(p as usize).is_some_and(|k| player < 16 && k & (1 << player) != 0)
    }

    /// Everybody forgets which pieces of zone `z` are which (a shuffle).
    pub(crate) fn forget_zone(&mut self, z: u16) {
        let mut p = self.head.get(z as usize).copied().unwrap_or(NIL);
        while p != NIL {
            self.known[p as usize] = 0;
            p = self.next[p as usize];
        }
    }

    /// Move piece `p` to the back of zone `z`, or to its front, for tools
    /// that build a position: the zone hashes are no longer kept (the
    /// engine moves pieces with `Game::relocate`, which keeps them).
    pub(crate) fn put(&mut self, p: u16, z: u16, front: bool) {
        self.unlink(p);
        self.link(p, z, front);
        self.zone_hash.kept = false;
    }

    /// Take piece `p` out of its zone (it must be put somewhere at once).
    /// Leaves the zone hashes as they were: see `Game::relocate`.
    pub(super) fn unlink(&mut self, p: u16) {
        let (z, pi) = (self.loc[p as usize] as usize, p as usize);
        let (before, after) = (self.prev[pi], self.next[pi]);
        if before == NIL {
            self.head[z] = after;
        } else {
            self.next[before as usize] = after;
        }
        if after == NIL {
            self.tail[z] = before;
        } else {
            self.prev[after as usize] = before;
        }
        self.len[z] -= 1;
    }

    /// Put piece `p` (just unlinked) at the back of zone `z`, or at the front.
    pub(super) fn link(&mut self, p: u16, z: u16, front: bool) {
        let (zi, pi) = (z as usize, p as usize);
        if front {
            let h = self.head[zi];
            self.prev[pi] = NIL;
            self.next[pi] = h;
            if h == NIL {
                self.tail[zi] = p;
            } else {
                self.prev[h as usize] = p;
            }
            self.head[zi] = p;
        } else {
            let t = self.tail[zi];
            self.next[pi] = NIL;
            self.prev[pi] = t;
            if t == NIL {
                self.head[zi] = p;
            } else {
                self.next[t as usize] = p;
            }
            self.tail[zi] = p;
        }
        self.len[zi] += 1;
        self.loc[pi] = z;
        self.ends_checked_for = None;
    }

    /// Write a counter slot. Like every write here, it forgets that the end
    /// conditions were found not to hold (the engine, which knows what they
    /// read, keeps that answer back after a write they cannot see).
    pub(crate) fn set_counter(&mut self, slot: usize, n: i64) {
        if let Some(x) = self.counters.get_mut(slot) {
            *x = n;
            self.ends_checked_for = None;
        }
    }

    /// Write a var slot.
    pub(crate) fn set_var(&mut self, slot: usize, v: Value) {
        if let Some(x) = self.vars.get_mut(slot) {
            *x = v;
            self.ends_checked_for = None;
        }
    }

    /// Rebuild zone `z` to hold exactly `order`, front first (after a
    /// shuffle). Leaves the zone hashes as they were: see `Game::relink`.
    pub(super) fn relink(&mut self, z: u16, order: &[Value]) {
        let zi = z as usize;
        self.head[zi] = NIL;
        self.tail[zi] = NIL;
        self.len[zi] = 0;
        for v in order {
            if let Value::Piece(p) = v {
                self.link(*p as u16, z, false);
            }
        }
    }

    /// A 64-bit fingerprint of everything that decides the game's future,
    /// coverage counters excluded: same fingerprint, same game from here
    /// (up to hash collisions). Exploration uses a canonical form instead.
    pub fn fingerprint(&self) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        self.head.hash(&mut h);
        self.next.hash(&mut h);
        self.counters.hash(&mut h);
        self.vars.hash(&mut h);
        self.stack.hash(&mut h);
        self.frames.hash(&mut h);
        self.pending.hash(&mut h);
        self.options.hash(&mut h);
        self.outcome.hash(&mut h);
        self.round.hash(&mut h);
        self.stage.hash(&mut h);
        // Only inside a block, so that the fingerprints of games without
        // one (those recorded in logs) stay what they were.
        if let Some(sim) = &self.sim {
            sim.hash(&mut h);
        }
        if !self.exploring {
            self.rng.get_word_pos().hash(&mut h);
        }
        h.finish()
    }

    /// Instances of each kind found by walking every zone: the conservation
    /// check compares it with the start of the game.
    pub fn kind_counts(&self, g: &super::Game) -> Vec<u32> {
        let mut counts = vec![0u32; g.model.kinds.len()];
        for z in 0..self.head.len() {
            for p in self.zone_pieces(z as u16).take(self.loc.len()) {
                if let Some(c) = g.inst_kind.get(p as usize).and_then(|k| counts.get_mut(k.idx())) {
                    *c += 1;
                }
            }
        }
        counts
    }
}
