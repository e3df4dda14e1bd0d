//! Exhaustive bounded exploration: every reachable state, breadth first, with
//! chance outcomes enumerated, states deduplicated by the fingerprint of
//! their canonical form (see `engine/canonical.rs`, and docs/validate.md,
//! "What a state is"). The report says what was proven and within which
//! bounds.
//!
//! Memory: a visited state costs its 64-bit fingerprint in a set and its
//! parent and option in a table (to rebuild a counterexample's path); the
//! states waiting in the frontier are packed into bytes, each stored as
//! its difference with the one before (`frontier.rs`). Each level is
//! expanded on `jobs` threads in chunks, and the chunks are merged in order,
//! so states are numbered (and findings reported) the same on any number of
//! threads. How one state is expanded into a chunk is `expand.rs`.

use super::expand::{add, expand, Chunk, Room};
pub use super::expand::MAX_JOINT_TRIES;
use super::frontier::{Frontier, Reader};
use super::invariants::Baseline;
pub use super::explore_report::{Budget, ExploreReport, DEFAULT_MAX_BYTES};
use super::{Finding, Severity, Stop};
use crate::diagnostic::grouped;
use crate::engine::{Game, State};
use crate::log::GameLog;
use crate::parallel::in_chunks;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// Fingerprints are already uniform hashes: the set uses them as they are.
#[derive(Default)]
pub(crate) struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

pub(super) type Visited = HashSet<u64, BuildHasherDefault<Identity>>;

/// A map keyed by fingerprints, which are already uniform hashes.
pub(crate) type Fingerprints<V> = std::collections::HashMap<u64, V, BuildHasherDefault<Identity>>;

/// How each state was reached: its parent's number and the option taken.
/// Through a `simultaneous` block, the states between its decisions are
/// nodes too (so that a path can be read back), but never states of a
/// level: the block is one step.
#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    choice: u32,
}

const ROOT: u32 = u32::MAX;

/// The message of V900 when a state of the frontier cannot be read back.
pub(super) const UNREADABLE: &str = "internal: a packed state could not be read back";

/// The states of one level, packed, in order.
#[derive(Default)]
pub(super) struct Level {
    pub(super) states: Frontier,
    /// Each state's number.
    pub(super) ids: Vec<u32>,
}

impl Level {
    fn bytes_held(&self) -> usize {
        self.states.bytes_held() + self.ids.capacity() * 4
    }
}

/// A finding's code and place (file, span): one finding per pair.
type ProblemKey = (String, Option<(u16, usize, usize)>);

/// Explore every state reachable from the start of `game`.
pub fn explore(game: &Game, rulebook: &[String], budget: Budget) -> ExploreReport {
    explore_observed(game, rulebook, budget, &|_| {})
}

/// [`explore`], telling `level_done` the distinct states visited so far
/// after each level (for a progress display; the explorer never prints).
pub fn explore_observed(game: &Game, rulebook: &[String], budget: Budget, level_done: &dyn Fn(usize)) -> ExploreReport {
    explore_until(game, rulebook, budget, level_done, &Stop::default())
}

/// What a [`Stop`] request makes an exploration's `stopped_by`.
pub const INTERRUPTED: &str = "an interruption";

/// The `stopped_by` of an exploration whose game fails before its first
/// decision: there is no state to explore.
pub const START_FAILED: &str = "a rule error before the first decision (its finding says which)";

/// [`explore_observed`], stopping before the next slice of a level once
/// `stop` is requested: the report holds the states visited until then.
pub fn explore_until(game: &Game, rulebook: &[String], budget: Budget, level_done: &dyn Fn(usize), stop: &Stop) -> ExploreReport {
    let t0 = Instant::now();
    let jobs = budget.jobs.max(1);
    let mut report = ExploreReport {
        players: game.players,
        expanded: 0,
        distinct: 0,
        terminal: 0,
        depth: 0,
        by_depth: Vec::new(),
        exhausted: false,
        sampled_shuffles: false,
        seconds: 0.0,
        states_per_second: 0.0,
        collision_bound: 0.0,
        wins_by_seat: vec![0; game.players as usize],
        other_endings: 0,
        max_states: budget.max_states,
        max_depth: budget.max_depth,
        max_bytes: budget.max_bytes,
        peak_bytes: 0,
        bytes_per_state: 0.0,
        jobs,
        stopped_by: None,
        interrupted: false,
        branches: vec![0; game.sites().len()],
        fired: vec![0; game.model.procs.len()],
        longest: None,
        told_apart: game.pieces_told_apart(),
        findings: Vec::new(),
    };
    let root = match game.start_exploring() {
        Ok(st) => st,
        Err(e) => {
            // The path to this failure is empty: the game fails before its
            // first decision (its replay for the log reads the start the
            // `Game` kept: the setup does not run again).
            report.findings.push(finding(game, rulebook, &[], ROOT, &[], e.kind.code(), e.message, e.at));
            report.stopped_by = Some(START_FAILED.to_string());
            // The run to the first decision may have taken long (a loop
            // that used up its fuel).
            report.seconds = t0.elapsed().as_secs_f64();
            return report;
        }
    };
    let base = Baseline::of(game, &root);
    // The branches setup ran on the way to the first decision.
    add(&mut report.branches, &root.branches);
    add(&mut report.fired, &root.fired);
    let mut nodes: Vec<Node> = vec![Node { parent: ROOT, choice: 0 }];
    let mut visited = Visited::default();
    visited.insert(game.canonical_fingerprint(&root));
    let mut level = Level::default();
    let mut packed = Vec::new();
    root.pack(&mut packed);
    level.states.push(&packed);
    level.ids.push(0);
    report.by_depth.push(1);
    // One finding per code and rulebook place.
    let mut seen_problems: HashSet<ProblemKey> = HashSet::new();
    let mut depth = 0u32;
    let mut cut = false;
    // Combinations of decisions tried in joint steps: what the walk that
    // looks for endless games may spend inside blocks.
    let mut joint_work = 0usize;
    // Every step taken so far went from a level to the next: then the
    // explored graph has no loop, and its longest path ends at the deepest
    // level, so the depth-first walk that looks for loops is not needed.
    // Tracked with the fingerprints of the level being built (counted in
    // the memory budget), dropped once a step goes elsewhere.
    let mut layered = true;
    let mut next_fps = Visited::default();
    let mut deepest = 0u32;
    // The states visited but not expanded (at the edge of a budget), for
    // the walk that looks for loops: found only when that walk is needed.
    let mut unexpanded = Visited::default();
    while !level.ids.is_empty() {
        report.depth = depth;
        let expand_children = depth < budget.max_depth;
        let mut next = Level::default();
        // The level is expanded a slice at a time: the children of a slice
        // wait, packed, in the chunks until they are merged, and a whole
        // level of them (duplicates included) would be the largest thing in
        // memory, uncounted. The slices are merged in order, so the states
        // found and where a budget stops do not depend on the slicing.
        let mut slice_start = 0usize;
        // How many states a slice expands: all their children are held
        // until the slice is merged, so where states have many children
        // (each with many options) fewer are expanded at once, from what
        // the slice before gave a state (as many on any number of threads).
        let mut slice_states = SLICE;
        while slice_start < level.ids.len() && report.stopped_by.is_none() {
            if stop.requested() {
                report.interrupted = true;
                report.stopped_by = Some(INTERRUPTED.to_string());
                break;
            }
            let slice_len = (level.ids.len() - slice_start).min(slice_states);
            // The children one state may add before the budget is full.
            let room = Room { new: budget.max_states.saturating_sub(visited.len()).saturating_add(1), tries: budget.max_states.min(MAX_JOINT_TRIES), budget: budget.max_states, max_bytes: budget.max_bytes, first: 0 };
            let blocks = u32::try_from(slice_len.div_ceil(BLOCK)).unwrap_or(u32::MAX);
            let mut chunks = in_chunks(
                blocks,
                jobs,
                || Chunk::new(game, &root),
                |c, b| {
                    c.in_block.clear();
                    let first = slice_start + b as usize * BLOCK;
                    for i in first..(first + BLOCK).min(slice_start + slice_len) {
                        if c.interrupted || c.over_budget.is_some() {
                            break;
                        }
                        expand(game, &base, &visited, &level, i, expand_children, room, stop, c);
                    }
                },
            );
            slice_start += slice_len;
            // A chunk that stopped at a budget in the middle of a state is
            // the last one merged (see `Chunk::over_budget`).
            let last = chunks.iter().position(|c| c.over_budget.is_some()).map_or(chunks.len(), |i| i + 1);
            chunks.truncate(last);
            // The children of the whole slice count until the slice is
            // merged: more than is held once a chunk is freed, but the same
            // on any number of threads, so that the memory budget stops at
            // the same state whatever the chunks were.
            let waiting: usize = chunks.iter().map(Chunk::bytes_waiting).sum();
            let expanded: usize = chunks.iter().map(|c| c.expanded).sum();
            // The next slice: its children within a quarter of the memory
            // budget and within the states the budget has left, at the
            // rate of this one's.
            let children: usize = chunks.iter().map(|c| c.children.len()).sum();
            let by_bytes = budget.max_bytes / 4 / (waiting / expanded.max(1)).max(1);
            let by_states = budget.max_states.saturating_sub(visited.len()) / (children / expanded.max(1)).max(1);
            slice_states = by_bytes.min(by_states).clamp(1, SLICE);
            if chunks.iter().any(|c| c.interrupted) {
                report.interrupted = true;
                report.stopped_by = Some(INTERRUPTED.to_string());
            }
            for c in chunks {
                report.expanded += c.expanded;
                report.terminal += c.terminal;
                report.other_endings += c.other_endings;
                report.sampled_shuffles |= c.sampled;
                cut |= c.cut;
                add(&mut report.branches, &c.branches);
                add(&mut report.fired, &c.fired);
                joint_work = joint_work.saturating_add(c.joint_total);
                for (w, x) in report.wins_by_seat.iter_mut().zip(&c.wins) {
                    *w += x;
                }
                for p in c.problems {
                    let key = (p.code.clone(), p.at.map(|l| (l.file.0, l.span.start, l.span.end)));
                    if seen_problems.insert(key) {
                        report.findings.push(finding(game, rulebook, &nodes, p.node, &p.path, &p.code, p.message, p.at));
                    }
                }
                let kept_children = c.over_budget.as_ref().map_or(c.children.len(), |(from, _)| *from);
                if layered && !c.hits.iter().all(|fp| next_fps.contains(fp)) {
                    layered = false;
                    next_fps = Visited::default();
                }
                let mut path_start = 0;
                let mut reading = Reader::default();
                // The chunk's child stored last in the next level.
                let mut last_stored: Option<usize> = None;
                for (child, (parent, path_end, fp)) in c.children.into_iter().enumerate().take(kept_children) {
                    let path = c.paths.get(path_start as usize..path_end as usize).unwrap_or(&[]);
                    path_start = path_end;
                    if report.stopped_by.is_some() {
                        continue;
                    }
                    if !visited.insert(fp) {
                        if layered && !next_fps.contains(&fp) {
                            layered = false;
                            next_fps = Visited::default();
                        }
                        continue;
                    }
                    if layered {
                        next_fps.insert(fp);
                    }
                    if visited.len() > budget.max_states {
                        // A state past the budget: it shows the search is
                        // not exhausted, but it is not visited.
                        visited.remove(&fp);
                        report.stopped_by = Some(format!("the state budget ({} states)", grouped(budget.max_states as u64)));
                        continue;
                    }
                    deepest = depth + 1;
                    // The states between the decisions of a joint step, then the child.
                    let mut parent = parent;
                    for &choice in path {
                        nodes.push(Node { parent, choice });
                        parent = (nodes.len() - 1) as u32;
                    }
                    let Some((bytes, record)) = reading.get_with_record(&c.waiting, child) else {
                        report.findings.push(finding(game, rulebook, &nodes, parent, &[], "V900", UNREADABLE.into(), None));
                        continue;
                    };
                    if last_stored.is_some_and(|last| last + 1 == child) {
                        next.states.push_after_same(bytes, record);
                    } else {
                        next.states.push(bytes);
                    }
                    last_stored = Some(child);
                    next.ids.push((nodes.len() - 1) as u32);
                    // Checked at every state, so that where the budget stops the
                    // exploration does not depend on how the level was cut up.
                    let held = memory(&visited, nodes.capacity()) + next_fps.capacity() * 9 + level.bytes_held() + next.bytes_held() + waiting;
                    report.peak_bytes = report.peak_bytes.max(held);
                    if held > budget.max_bytes {
                        report.stopped_by = Some(format!("the memory budget ({} bytes)", grouped(budget.max_bytes as u64)));
                    }
                }
                if let Some((_, why)) = c.over_budget {
                    report.stopped_by.get_or_insert(why);
                }
            }
        }
        level_done(visited.len().min(nodes.len()));
        if !next.ids.is_empty() {
            report.by_depth.push(next.ids.len());
        }
        let walk_needed = !layered && !report.interrupted;
        if report.stopped_by.is_some() {
            if walk_needed {
                // The slices not begun, and every child found.
                add_fingerprints(game, &root, &level.states, slice_start, &mut unexpanded);
                add_fingerprints(game, &root, &next.states, 0, &mut unexpanded);
            }
            break;
        }
        if !expand_children && walk_needed {
            // At the depth budget: every state of this level is a leaf.
            add_fingerprints(game, &root, &level.states, 0, &mut unexpanded);
        }
        level = next;
        next_fps.clear();
        depth += 1;
    }
    if cut && report.stopped_by.is_none() {
        report.stopped_by = Some(format!("the depth budget ({} steps)", grouped(budget.max_depth as u64)));
    }
    report.distinct = visited.len().min(nodes.len());
    // A budget that stops a level being expanded has seen some of the next.
    report.depth = report.depth.max(deepest);
    report.exhausted = report.stopped_by.is_none();
    // Does every game end? When every step went one level down, the levels
    // prove it; otherwise a depth-first walk of the same states looks for a
    // loop (as long as the walk that found them: not after an interruption).
    if layered && !report.interrupted {
        report.longest = Some(deepest);
    } else if !report.interrupted {
        let cycles = super::cycles::find(game, rulebook, &visited, &unexpanded, budget.max_states.min(MAX_JOINT_TRIES), joint_work.saturating_add(visited.len()), stop);
        report.longest = cycles.longest;
        if cycles.interrupted {
            report.interrupted = true;
            report.stopped_by.get_or_insert_with(|| INTERRUPTED.to_string());
            report.exhausted = false;
        }
        if cycles.gave_up && report.stopped_by.is_none() {
            // The walk could not go through every joint step: nothing is proven.
            report.stopped_by = Some("the walk that looks for endless games, which may go through no more states inside `simultaneous` blocks than the exploration tried".to_string());
            report.exhausted = false;
        }
        report.findings.extend(cycles.endless);
        if let Some(mut f) = cycles.chance {
            if !report.exhausted {
                // Only the states visited were read: a loop the players can
                // keep going may lie beyond the budget.
                f.message = format!("among the states visited, {} (the exploration stopped at its budget: a loop the players can keep going may lie beyond it)", f.message);
            }
            report.findings.push(f);
        }
    }
    // A loop found in part of the states is a real one, but the longest
    // game is known only once every state was visited.
    if !report.exhausted {
        report.longest = None;
    }
    report.seconds = t0.elapsed().as_secs_f64();
    report.states_per_second = report.distinct as f64 / report.seconds.max(1e-9);
    report.bytes_per_state = report.peak_bytes as f64 / report.distinct.max(1) as f64;
    let n = report.distinct as f64;
    report.collision_bound = n * (n - 1.0) / 2.0 / 2f64.powi(64);
    report
}

/// Add to `into` the fingerprints of the states of `states` from `from` on.
fn add_fingerprints(game: &Game, root: &State, states: &Frontier, from: usize, into: &mut Visited) {
    let mut reading = Reader::default();
    let mut st = root.clone();
    for i in from..states.len() {
        if let Some(bytes) = reading.get(states, i) {
            if st.unpack(bytes).is_some() {
                into.insert(game.canonical_fingerprint(&st));
            }
        }
    }
}

/// States of a level expanded together (on `jobs` threads) before their
/// children are merged: bounds the memory the waiting children take. 1024
/// rather than 4096 took tic-tac-toe from 102 to 83 bytes per state (its
/// levels are a few thousand states, all waiting at once) with no change
/// in the states per second of connect four, on one thread or two.
const SLICE: usize = 1024;

/// States of a slice expanded as one unit by one thread: the children met
/// twice within a block are packed once. 64 consecutive states of a level
/// are mostly cousins, whose children meet when moves are played in
/// another order.
const BLOCK: usize = 64;

/// The bytes the visited set and the table of parents hold.
fn memory(visited: &Visited, nodes: usize) -> usize {
    // A set of u64 keeps one control byte per slot beside the key.
    visited.capacity() * 9 + nodes * std::mem::size_of::<Node>()
}

/// The path from the root to `id` (then the options `tail`), replayed to
/// label each step.
#[allow(clippy::too_many_arguments, reason = "a finding carries its place, its code and its path")]
fn finding(game: &Game, rulebook: &[String], nodes: &[Node], id: u32, tail: &[u32], code: &str, message: String, at: Option<crate::model::Loc>) -> Finding {
    let mut path: Vec<u32> = tail.iter().rev().copied().collect();
    let mut cur = id;
    while let Some(n) = nodes.get(cur as usize) {
        if n.parent == ROOT {
            break;
        }
        path.push(n.choice);
        cur = n.parent;
    }
    path.reverse();
    let mut log = GameLog::begin(game, rulebook, 0);
    log.exploring = true;
    log.error = Some(message.clone());
    if let Ok(mut st) = game.start_exploring() {
        for c in path {
            log.record(game, &st, c as usize);
            if game.apply(&mut st, c as usize).is_err() {
                break;
            }
        }
        log.finish(&st, Some(message.clone()));
    }
    let mut f = Finding::new(code, Severity::Error, message, at).help("replay the counterexample: `grimoire replay FILE` stops at the failing step");
    f.players = Some(game.players);
    f.options = crate::log::enabled_options(game);
    f.counterexample = Some(log);
    f
}
