//! Can the players alone keep a game going for ever, even though every
//! loop the cycle walk found goes through chance? A loop through a die
//! roll only repeats while chance repeats its outcomes (V506), unless the
//! players can bring the game back whatever the die shows: "move or not"
//! after a roll, and always "not". Then the game can last for ever by the
//! players' choices alone, which is V505.
//!
//! The question is a game against chance: the states from which chance can
//! force an ending are the *attractor* of the finished games, where a
//! player's state joins once every option leads into it and a chance state
//! as soon as one outcome does. A state outside it is one from which the
//! players, choosing together, can keep the game from ending whatever
//! chance gives; following them from such a state gives a lasso.
//!
//! The graph is that of the explored states (the explorer's `visited`):
//! a step to a state the explorer did not visit (at the edge of a budget)
//! counts as one that may end the game, so a lasso is only reported when
//! the explored states prove it.

use super::explore::Fingerprints;
use crate::engine::{Game, CHANCE};
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;

/// Most states the graph is built for: beyond, the question is left open
/// (the warning V506 stands).
pub const MAX_FORCED_STATES: usize = 2_000_000;

/// A state of the graph.
struct Node {
    /// Chance decides here.
    chance: bool,
    /// Its steps, as `(option, node)`; `ENDS` for a step that ends the game,
    /// fails, or leaves the explored states.
    first_edge: u32,
    edges: u32,
    /// How it was first reached: its parent and the option taken.
    parent: u32,
    via: u32,
}

impl Node {
    /// Its steps, out of all the graph's.
    fn steps<'e>(&self, edges: &'e [(u32, u32)]) -> &'e [(u32, u32)] {
        let first = self.first_edge as usize;
        edges.get(first..first + self.edges as usize).unwrap_or(&[])
    }
}

/// A step that may end the game.
const ENDS: u32 = u32::MAX;

/// What the analysis answered.
pub enum Forced {
    /// The players alone can keep the game going.
    Lasso {
        /// The options of a lasso, from the start.
        choices: Vec<u32>,
        /// The step its loop starts at.
        loop_from: usize,
    },
    /// Chance can always end the game sooner or later.
    No,
    /// The graph was too large to build (more than `MAX_FORCED_STATES`
    /// states, or more states inside `simultaneous` blocks than allowed).
    Unknown,
}

/// The answer for the explored states `visited`, going through at most
/// `max_joint_total` states inside `simultaneous` blocks.
pub fn players_can_go_on_forever<S: BuildHasher>(game: &Game, visited: &HashSet<u64, S>, max_joint_total: usize) -> Forced {
    let Some((nodes, edges)) = build(game, visited, max_joint_total) else { return Forced::Unknown };
    let in_attractor = attractor(&nodes, &edges);
    // A state the players can keep going from, reached first by the walk.
    let Some(start) = (0..nodes.len()).find(|n| !in_attractor[*n]) else { return Forced::No };
    // The stem: from the root to `start`, by the parents.
    let mut stem = Vec::new();
    let mut n = start as u32;
    while n != 0 {
        let node = &nodes[n as usize];
        stem.push(node.via);
        n = node.parent;
    }
    stem.reverse();
    // The loop: follow the players' choices that stay outside the
    // attractor (chance's first outcome: all of them stay) until a state
    // comes back.
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut choices = stem;
    let mut at = start as u32;
    loop {
        if let Some(k) = seen.get(&at) {
            return Forced::Lasso { choices, loop_from: *k };
        }
        seen.insert(at, choices.len());
        let node = &nodes[at as usize];
        let out = node.steps(&edges);
        let Some((option, next)) = out.iter().find(|(_, to)| *to != ENDS && !in_attractor[*to as usize]) else {
            // Cannot happen: a state outside the attractor has such a step.
            return Forced::No;
        };
        choices.push(*option);
        at = *next;
    }
}

/// The graph of the explored states, depth first from the start (node 0),
/// with the states inside `simultaneous` blocks (which the explorer does
/// not keep) as nodes of their own.
#[allow(clippy::type_complexity, reason = "nodes and their edges")]
fn build<S: BuildHasher>(game: &Game, visited: &HashSet<u64, S>, max_joint_total: usize) -> Option<(Vec<Node>, Vec<(u32, u32)>)> {
    let root = game.start_exploring().ok()?;
    let mut index: Fingerprints<u32> = Fingerprints::default();
    let mut nodes: Vec<Node> = Vec::new();
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut joint_total = 0usize;
    index.insert(game.canonical_fingerprint(&root), 0);
    nodes.push(Node { chance: false, first_edge: 0, edges: 0, parent: 0, via: 0 });
    // States to expand, each with its node, packed one after the other in
    // `waiting` (where each starts): a stack of whole states took a state's
    // clone per child (an eighth of the time in allocation) and could hold
    // most of the graph at once.
    let mut waiting: Vec<u8> = Vec::new();
    root.pack(&mut waiting);
    let mut todo: Vec<(usize, u32)> = vec![(0, 0)];
    let (mut state, mut child) = (root.clone(), root);
    while let Some((at, id)) = todo.pop() {
        let read = game.unpack_explored(&mut state, waiting.get(at..).unwrap_or_default());
        waiting.truncate(at);
        if read.is_none() {
            continue;
        }
        let Some((who, options)) = game.choices(&state) else { continue };
        let count = options.len();
        let first_edge = edges.len() as u32;
        for choice in 0..count {
            let applied = game.apply_copy(&state, &mut child, choice);
            if applied.is_err() || child.is_over() {
                edges.push((choice as u32, ENDS));
                continue;
            }
            let fp = game.canonical_fingerprint(&child);
            let joint = child.inside_joint_decision();
            if !joint && !visited.contains(&fp) {
                edges.push((choice as u32, ENDS));
                continue;
            }
            let to = match index.get(&fp) {
                Some(to) => *to,
                None => {
                    if joint {
                        joint_total += 1;
                        if joint_total > max_joint_total {
                            return None;
                        }
                    }
                    if nodes.len() >= MAX_FORCED_STATES {
                        return None;
                    }
                    let to = nodes.len() as u32;
                    index.insert(fp, to);
                    nodes.push(Node { chance: false, first_edge: 0, edges: 0, parent: id, via: choice as u32 });
                    todo.push((waiting.len(), to));
                    child.pack(&mut waiting);
                    to
                }
            };
            edges.push((choice as u32, to));
        }
        let node = &mut nodes[id as usize];
        node.chance = who == CHANCE;
        node.first_edge = first_edge;
        node.edges = count as u32;
    }
    Some((nodes, edges))
}

/// The states from which chance can force the game to end: a finished
/// game's step is in it; a player's state once all its steps lead into it,
/// a chance state once one does.
fn attractor(nodes: &[Node], edges: &[(u32, u32)]) -> Vec<bool> {
    // Who steps into each node, for the worklist.
    let mut into_count = vec![0u32; nodes.len() + 1];
    for (_, to) in edges {
        if *to != ENDS {
            into_count[*to as usize + 1] += 1;
        }
    }
    for i in 1..into_count.len() {
        into_count[i] += into_count[i - 1];
    }
    let mut fill = into_count.clone();
    let mut from = vec![0u32; into_count[nodes.len()] as usize];
    for (n, node) in nodes.iter().enumerate() {
        for (_, to) in node.steps(edges) {
            if *to != ENDS {
                from[fill[*to as usize] as usize] = n as u32;
                fill[*to as usize] += 1;
            }
        }
    }
    let mut inside = vec![false; nodes.len()];
    // A player's state: the steps not yet known to lead into the attractor.
    let mut open: Vec<u32> = nodes.iter().map(|n| n.edges).collect();
    let mut work: Vec<u32> = Vec::new();
    for (n, node) in nodes.iter().enumerate() {
        let ends = node.steps(edges).iter().filter(|(_, to)| *to == ENDS).count() as u32;
        open[n] -= ends;
        // A state without a step (a finished game is never a node, but a
        // decision with no option left is) or whose steps all end, and a
        // chance state one of whose outcomes may end the game.
        if open[n] == 0 || (node.chance && ends > 0) {
            inside[n] = true;
            work.push(n as u32);
        }
    }
    while let Some(n) = work.pop() {
        for &p in &from[into_count[n as usize] as usize..into_count[n as usize + 1] as usize] {
            let p = p as usize;
            if inside[p] {
                continue;
            }
            open[p] -= 1;
            if nodes[p].chance || open[p] == 0 {
                inside[p] = true;
                work.push(p as u32);
            }
        }
    }
    inside
}
