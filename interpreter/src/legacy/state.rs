//! The mutable part of a game: where every piece is, counters and vars, the
//! frames of the rules being run, the pending decision and the RNG.

use super::error::ExecError;
use super::layout::Game;
use super::value::Value;
use crate::model::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::hash::{Hash, Hasher};

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

/// What a frame of the rules is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum FrameKind {
    /// A plain block.
    Seq,
    /// A `while` loop: re-test at the end of the block.
    While(ExprId),
    /// A `repeat`: runs left after this one.
    Repeat(i64),
    /// A `for`: items live on the value stack at `start..start+len`.
    For { slot: u16, start: u32, len: u32, next: u32 },
    /// A procedure body: its locals start at `base`; `end` marks an end
    /// condition's body, `phase` a phase after which end conditions are checked.
    Proc { proc: ProcId, phase: bool, end: bool },
}

/// One level of the rules being run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Frame {
    pub(crate) kind: FrameKind,
    pub(crate) block: BlockId,
    pub(crate) pc: u32,
    /// Locals of the enclosing procedure start here on the value stack.
    pub(crate) base: u32,
    /// The stack is cut back to this when the frame ends.
    pub(crate) mark: u32,
    /// Player on whose behalf it runs (`NO_ACTOR` if none).
    pub(crate) actor: u8,
    /// Depth of trigger nesting.
    pub(crate) depth: u8,
}

pub(crate) const NO_ACTOR: u8 = u8::MAX;

/// A decision the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Pending {
    /// The player deciding, or `CHANCE`.
    pub(crate) player: u8,
    /// Stack slot receiving a roll; for a `choose`, where the locals of its
    /// procedure start (its bindings say which slots receive the tuple).
    pub(crate) slot: u32,
    pub(crate) stmt: StmtId,
    /// For a chance node of a shuffle: the zone to shuffle.
    pub(crate) shuffle: Option<u16>,
}

/// The "player" of chance nodes when a state is explored.
pub const CHANCE: u8 = u8::MAX - 1;
/// A shuffle of more pieces than this many permutations is explored through
/// this many sampled orders.
pub const SHUFFLE_SAMPLES: u64 = 24;

/// Everything about a game in progress that can change.
#[derive(Debug, Clone)]
pub struct State {
    /// Pieces in each runtime zone, front (first arrived / bottom) first.
    pub zones: Vec<Vec<u16>>,
    /// Zone of each instance.
    pub loc: Vec<u16>,
    /// Counter slots.
    pub counters: Vec<i64>,
    /// Var slots.
    pub vars: Vec<Value>,
    pub(crate) stack: Vec<Value>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) pending: Option<Pending>,
    pub(crate) options: Vec<Value>,
    /// Values per option (the number of bindings of the pending `choose`).
    pub(crate) arity: u8,
    /// Work space of the evaluator; always empty between two calls.
    pub(crate) scratch: Vec<Value>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
    pub(crate) rng: ChaCha8Rng,
    /// Current round, from 1 (0 during setup).
    pub round: u32,
    pub(crate) stage: Stage,
    /// Decisions taken so far.
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
    /// Dice and shuffles are chance nodes to enumerate, not RNG draws.
    pub exploring: bool,
    /// A shuffle was explored through sampled orders only.
    pub sampled_shuffle: bool,
    /// Pieces left in the box when setup ended: during play the box neither
    /// gives nor takes (the conservation invariant).
    pub box_after_setup: Option<u32>,
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

impl State {
    pub(crate) fn new(g: &Game, seed: u64) -> State {
        let n = g.instance_count();
        let mut zones = vec![Vec::new(); g.zones.len()];
        zones[g.box_zone as usize] = (0..n as u16).collect();
        let counters = vec![0; g.counter_slots as usize];
        let vars = vec![Value::None; g.var_slots as usize];
        State {
            zones,
            loc: vec![g.box_zone; n],
            counters,
            vars,
            stack: Vec::with_capacity(64),
            frames: Vec::with_capacity(16),
            pending: None,
            options: Vec::with_capacity(16),
            arity: 1,
            scratch: Vec::with_capacity(64),
            outcome: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            round: 0,
            stage: Stage::Start,
            decisions: 0,
            plies: 0,
            forced_decisions: false,
            fired: vec![0; g.model.procs.len()],
            ends_fired: vec![0; g.model.ends.len()],
            exploring: false,
            sampled_shuffle: false,
            box_after_setup: None,
        }
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

    /// A 64-bit fingerprint of everything that decides the game's future
    /// (coverage counters excluded).
    pub fn fingerprint(&self) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        self.zones.hash(&mut h);
        self.counters.hash(&mut h);
        self.vars.hash(&mut h);
        self.stack.hash(&mut h);
        self.frames.hash(&mut h);
        self.pending.hash(&mut h);
        self.options.hash(&mut h);
        self.outcome.hash(&mut h);
        self.round.hash(&mut h);
        self.stage.hash(&mut h);
        if !self.exploring {
            self.rng.get_word_pos().hash(&mut h);
        }
        h.finish()
    }

    /// Counts of instances of each kind across all zones (conservation check).
    pub fn kind_counts(&self, g: &Game) -> Vec<u32> {
        let mut counts = vec![0u32; g.model.kinds.len()];
        for zone in &self.zones {
            for &i in zone {
                if let Some(k) = g.inst_kind.get(i as usize) {
                    if let Some(c) = counts.get_mut(k.idx()) {
                        *c += 1;
                    }
                }
            }
        }
        counts
    }

    pub(crate) fn init_values(&mut self, g: &Game) -> Result<(), ExecError> {
        for (c, def) in g.model.counters.iter().enumerate() {
            let v = match def.init {
                Some(e) => g.eval_const_int(self, e)?,
                None => def.lo.max(0).min(def.hi),
            };
            if v < def.lo || v > def.hi {
                return Err(ExecError::new(
                    super::error::ExecErrorKind::CounterBounds,
                    format!("the counter `{}` would start at {v}, outside {}..{}", def.name, def.lo, def.hi),
                    Some(def.at),
                ));
            }
            let base = g.counter_base[c] as usize;
            let n = g.counter_base.get(c + 1).copied().unwrap_or(g.counter_slots) as usize - base;
            for s in &mut self.counters[base..base + n] {
                *s = v;
            }
        }
        for (i, def) in g.model.vars.iter().enumerate() {
            let v = match def.init {
                Some(e) => g.eval_const(self, e)?,
                None => Value::None,
            };
            let base = g.var_base[i] as usize;
            let n = g.var_base.get(i + 1).copied().unwrap_or(g.var_slots) as usize - base;
            for s in &mut self.vars[base..base + n] {
                *s = v;
            }
        }
        Ok(())
    }
}
