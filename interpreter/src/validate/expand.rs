//! The expansion of one state of a level: each option applied to a copy,
//! the child fingerprinted and, when it is new, checked (the declared
//! invariants) and packed into its chunk's frontier; the decisions of a
//! `simultaneous` block tried jointly. `explore.rs` merges the chunks.

use super::explore::{Level, Visited, UNREADABLE};
use super::frontier::{Frontier, Reader};
use super::invariants::{self, Baseline};
use crate::diagnostic::grouped;
use crate::engine::{Game, Outcome, State};

/// Add branch counts.
pub(super) fn add(total: &mut [u32], more: &[u32]) {
    for (t, m) in total.iter_mut().zip(more) {
        *t = t.saturating_add(*m);
    }
}

/// A problem met while expanding: at a state (`path` empty), or on the
/// options taken from it (more than one inside a joint decision).
pub(super) struct Problem {
    pub(super) node: u32,
    pub(super) path: Vec<u32>,
    pub(super) code: String,
    pub(super) message: String,
    pub(super) at: Option<crate::model::Loc>,
}

/// What one chunk of a level gave.
pub(super) struct Chunk {
    /// Reused buffers.
    pub(super) state: State,
    pub(super) child: State,
    pub(super) expanded: usize,
    pub(super) terminal: usize,
    pub(super) wins: Vec<u32>,
    pub(super) other_endings: u32,
    pub(super) sampled: bool,
    pub(super) cut: bool,
    /// New-looking children: parent, end of its options in `paths` (they
    /// start where the previous child's end), fingerprint; their states are
    /// in `waiting`, in the same order.
    pub(super) children: Vec<(u32, u32, u64)>,
    /// The options that lead to each child: one, or one per decision of a
    /// `simultaneous` block.
    pub(super) paths: Vec<u32>,
    /// Why one state went past a budget in the middle of its options, if
    /// one did (a `simultaneous` block multiplies the options of its
    /// players; a state's children alone may pass the memory budget), and
    /// the index of its first child. The children from that index on are
    /// not kept, nor those of the states after it: the chunk stops there,
    /// and a chunk after it (on another thread) is dropped whole, so that
    /// where it stops does not depend on the threads or on the slicing.
    pub(super) over_budget: Option<(usize, String)>,
    /// Combinations of decisions tried in the current state's joint step.
    pub(super) joint_tries: usize,
    /// Combinations tried in all the joint steps of this chunk.
    pub(super) joint_total: usize,
    pub(super) waiting: Frontier,
    /// Reads the level's states (in order, as a chunk is a range of them).
    pub(super) reading: Reader,
    /// A child's packed state before it is stored.
    pub(super) packed: Vec<u8>,
    /// Fingerprints of the children that were visited already: each is a
    /// step to a state of the level being built (fine) or of an earlier
    /// one (the levels do not prove the absence of loops).
    pub(super) hits: Vec<u64>,
    /// Fingerprints of the children of the current block kept so far: a
    /// child met again in the same block (siblings' moves in another
    /// order) is not packed a second time. Blocks do not depend on the
    /// number of threads, so neither do the children kept. Not counted in
    /// the memory budget: at most a block's children, freed block by block.
    pub(super) in_block: Visited,
    /// Buffers for the states inside a `simultaneous` block, reused.
    pub(super) spare: Vec<State>,
    pub(super) problems: Vec<Problem>,
    /// A stop was requested in the middle of a state's options: the chunk
    /// stopped there.
    pub(super) interrupted: bool,
    /// Branch runs of the options applied.
    pub(super) branches: Vec<u32>,
    /// Procedure runs of the options applied.
    pub(super) fired: Vec<u32>,
}

impl Chunk {
    /// An empty chunk, its buffers shaped as `root`.
    pub(super) fn new(game: &Game, root: &State) -> Chunk {
        Chunk {
            state: root.clone(),
            child: root.clone(),
            expanded: 0,
            terminal: 0,
            wins: vec![0; game.players as usize],
            other_endings: 0,
            sampled: false,
            cut: false,
            children: Vec::new(),
            paths: Vec::new(),
            over_budget: None,
            joint_tries: 0,
            joint_total: 0,
            waiting: Frontier::default(),
            reading: Reader::default(),
            packed: Vec::new(),
            hits: Vec::new(),
            in_block: Visited::default(),
            spare: Vec::new(),
            problems: Vec::new(),
            interrupted: false,
            branches: vec![0; game.sites().len()],
            fired: vec![0; game.model.procs.len()],
        }
    }

    /// What the children waiting in this chunk hold, by length (which does
    /// not depend on how a slice was cut up between threads).
    pub(super) fn bytes_waiting(&self) -> usize {
        self.waiting.bytes_used() + self.children.len() * std::mem::size_of::<(u32, u32, u64)>() + self.paths.len() * 4 + self.hits.len() * 8
    }
}

/// Expand state `i` of a level into the chunk.
#[allow(clippy::too_many_arguments, reason = "the expansion of one state reads the whole exploration context")]
pub(super) fn expand(game: &Game, base: &Baseline, visited: &Visited, level: &Level, i: usize, expand_children: bool, room: Room, stop: &super::Stop, c: &mut Chunk) {
    let Some(&id) = level.ids.get(i) else { return };
    let unpacked = match c.reading.get(&level.states, i) {
        // With its zone hashes: its children's fingerprints then need no
        // walk of every zone.
        Some(bytes) => game.unpack_explored(&mut c.state, bytes).is_some(),
        None => false,
    };
    if !unpacked {
        c.problems.push(Problem { node: id, path: Vec::new(), code: "V900".into(), message: UNREADABLE.into(), at: None });
        return;
    }
    c.expanded += 1;
    // Its children are stored as a group: their bytes do not depend on
    // which chunk the state fell in (the memory budget counts them).
    c.waiting.start_group();
    let bytes_before = c.waiting.bytes_used();
    c.sampled |= c.state.sampled_shuffle;
    // Every other state was checked when it was reached (`keep`), so that
    // one the budget leaves unexpanded is checked too.
    if id == 0 {
        if let Some(v) = invariants::check(game, &mut c.state, base) {
            c.problems.push(Problem { node: id, path: Vec::new(), code: v.code.into(), message: v.message, at: v.at });
            return;
        }
    }
    let Some((_, options)) = game.choices(&c.state) else {
        c.terminal += 1;
        match c.state.outcome {
            Some(o @ (Outcome::Winner(_) | Outcome::Shared(_))) => o.winners().for_each(|w| {
                if let Some(x) = c.wins.get_mut(w as usize) {
                    *x += 1;
                }
            }),
            _ => c.other_endings += 1,
        }
        return;
    };
    if !expand_children {
        c.cut = true;
        return;
    }
    let room = Room { first: c.children.len(), ..room };
    c.joint_tries = 0;
    for choice in 0..options.len() {
        // A state of many options, each child with as many, takes minutes:
        // a stop request is heard within it, and its children alone may
        // not pass the memory budget (a hostile tester's 10,000 options a
        // decision grew past 4 GB and ignored SIGTERM).
        if choice % 256 == 255 {
            if stop.requested() {
                c.interrupted = true;
                return;
            }
            if c.waiting.bytes_used() - bytes_before > room.max_bytes {
                c.over_budget = Some((room.first, format!("the memory budget ({} bytes), which the children of one state pass alone", grouped(room.max_bytes as u64))));
                return;
            }
        }
        let applied = game.apply_copy(&c.state, &mut c.child, choice);
        add(&mut c.branches, &c.child.branches);
        add(&mut c.fired, &c.child.fired);
        if let Err(e) = applied {
            c.problems.push(Problem { node: id, path: vec![choice as u32], code: e.kind.code().into(), message: e.message, at: e.at });
            continue;
        }
        if c.child.inside_joint_decision() {
            // The first decision of a `simultaneous` block: the step goes on
            // until every player has decided.
            joint(game, base, visited, id, &mut vec![choice as u32], room, c);
            continue;
        }
        keep(game, base, visited, id, &[choice as u32], room, c);
    }
}

/// The most combinations of decisions one joint step may try (fewer when
/// the state budget is smaller). Each is a run of the rules and a
/// fingerprint: a million took minutes on a 6-player Excalibur, for a
/// step the explorer could never exhaust anyway.
pub const MAX_JOINT_TRIES: usize = 100_000;

/// How far the joint step of one state may go before the exploration stops
/// at its state budget.
#[derive(Clone, Copy)]
pub(super) struct Room {
    /// Where the state's children start in the chunk.
    pub(super) first: usize,
    /// How many new children it may add.
    pub(super) new: usize,
    /// How many combinations of decisions it may try.
    pub(super) tries: usize,
    /// The state budget, for the message.
    pub(super) budget: usize,
    /// The memory budget: one state's children may not pass it.
    pub(super) max_bytes: usize,
}

/// `c.child`, reached from state `id` by `path`, as a child of the level,
/// unless it is known already. A new state is checked here, when it is
/// reached, not when it is expanded: a state the budget leaves waiting in
/// the last level is inside what the verdict speaks of.
#[allow(clippy::too_many_arguments, reason = "a step of the expansion, with its context")]
fn keep(game: &Game, base: &Baseline, visited: &Visited, id: u32, path: &[u32], room: Room, c: &mut Chunk) {
    if path.len() > 1 {
        c.joint_tries += 1;
        c.joint_total += 1;
        if c.joint_tries > room.tries {
            c.over_budget = Some((room.first, format!("a `simultaneous` step with more than {} combinations of decisions from one state", grouped(room.tries as u64))));
            return;
        }
    }
    let fp = game.canonical_fingerprint(&c.child);
    if visited.contains(&fp) {
        c.hits.push(fp);
        return;
    }
    if c.in_block.contains(&fp) {
        // A child of this level already: merging would drop it.
        return;
    }
    if let Some(v) = invariants::check(game, &mut c.child, base) {
        // Found once: the same state reached again is not checked again.
        c.in_block.insert(fp);
        c.problems.push(Problem { node: id, path: path.to_vec(), code: v.code.into(), message: v.message, at: v.at });
        return;
    }
    if path.len() > 1 && c.children.len() - room.first >= room.new {
        c.over_budget = Some((room.first, format!("the state budget ({} states), in a `simultaneous` step", grouped(room.budget as u64))));
        return;
    }
    c.packed.clear();
    c.child.pack(&mut c.packed);
    c.waiting.push(&c.packed);
    c.paths.extend_from_slice(path);
    c.children.push((id, c.paths.len() as u32, fp));
    c.in_block.insert(fp);
}

/// The rest of a joint step, from the state in `c.child` (reached from state `id` by
/// `path`, in the middle of a `simultaneous` block): every way the players
/// still to decide can decide, each way one child. The states in between
/// are checked (invariants, rule errors) but never kept.
#[allow(clippy::too_many_arguments, reason = "a step of the expansion, with its context")]
fn joint(game: &Game, base: &Baseline, visited: &Visited, id: u32, path: &mut Vec<u32>, room: Room, c: &mut Chunk) {
    // `c.child` is the state inside the block: copied into a spare buffer
    // (one per decision of the block still being tried), since `c.child`
    // is where each option is applied next.
    let mut here = c.spare.pop().unwrap_or_else(|| c.child.clone());
    here.clone_from(&c.child);
    joint_from(game, base, visited, id, path, &mut here, room, c);
    c.spare.push(here);
}

/// [`joint`], from the state `here`.
#[allow(clippy::too_many_arguments, reason = "a step of the expansion, with its context")]
fn joint_from(game: &Game, base: &Baseline, visited: &Visited, id: u32, path: &mut Vec<u32>, here: &mut State, room: Room, c: &mut Chunk) {
    if let Some(v) = invariants::check(game, here, base) {
        c.problems.push(Problem { node: id, path: path.clone(), code: v.code.into(), message: v.message, at: v.at });
        return;
    }
    let Some((_, options)) = game.choices(here) else { return };
    for choice in 0..options.len() {
        if c.over_budget.is_some() {
            return;
        }
        let applied = game.apply_copy(here, &mut c.child, choice);
        add(&mut c.branches, &c.child.branches);
        add(&mut c.fired, &c.child.fired);
        path.push(choice as u32);
        match applied {
            Err(e) => c.problems.push(Problem { node: id, path: path.clone(), code: e.kind.code().into(), message: e.message, at: e.at }),
            Ok(_) if c.child.inside_joint_decision() => joint(game, base, visited, id, path, room, c),
            Ok(_) => keep(game, base, visited, id, path, room, c),
        }
        path.pop();
    }
}

