//! Exhaustive bounded exploration: every reachable state, breadth first, with
//! chance outcomes enumerated and states deduplicated by a 64-bit fingerprint.
//! The report says what was proven and within which bounds.

use super::invariants::{self, Baseline};
use super::{Finding, Severity};
use crate::engine::{Game, Outcome, State};
use crate::log::GameLog;
use serde::Serialize;
use std::collections::{HashSet, VecDeque};
use std::time::Instant;

/// Budget of an exploration.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop after this many distinct states.
    pub max_states: usize,
    /// Do not expand states deeper than this many decisions (chance included).
    pub max_depth: u32,
}

/// What an exploration found and proved.
#[derive(Debug, Clone, Serialize)]
pub struct ExploreReport {
    /// Player count.
    pub players: u8,
    /// States taken from the queue and expanded.
    pub expanded: usize,
    /// Distinct states seen (by fingerprint).
    pub distinct: usize,
    /// Finished games among them.
    pub terminal: usize,
    /// Deepest level reached.
    pub depth: u32,
    /// Every reachable state was visited within the budget.
    pub exhausted: bool,
    /// Some shuffle was too large to enumerate and was sampled.
    pub sampled_shuffles: bool,
    /// Wall time.
    pub seconds: f64,
    /// Distinct states per second.
    pub states_per_second: f64,
    /// Upper bound of the probability that two distinct states shared a
    /// fingerprint: n(n-1)/2 / 2^64.
    pub collision_bound: f64,
    /// Wins by seat over the terminal states.
    pub wins_by_seat: Vec<u32>,
    /// Terminal states without a single winner.
    pub other_endings: u32,
    /// Budget used.
    pub max_states: usize,
    /// Budget used.
    pub max_depth: u32,
    /// Violations found, each with the path that reaches it.
    pub findings: Vec<Finding>,
}

impl ExploreReport {
    /// One sentence on what was proven.
    pub fn verdict(&self) -> String {
        let invariants = "no deadlock, no component created or lost, no rule error, trigger chains and loops within fuel";
        if self.exhausted && self.findings.is_empty() {
            format!(
                "proven for {} players: all {} reachable states visited ({} finished games); {invariants}; every game ends (the state graph has no path longer than {} decisions){}",
                self.players,
                self.distinct,
                self.terminal,
                self.depth,
                if self.sampled_shuffles { "; shuffles were sampled, so this holds for the sampled orders only" } else { "" }
            )
        } else if self.findings.is_empty() {
            format!(
                "not exhausted: {} distinct states up to depth {} (budget {} states, depth {}) hold {invariants}; states beyond the budget were not visited",
                self.distinct, self.depth, self.max_states, self.max_depth
            )
        } else {
            format!("{} violation(s) found among {} states", self.findings.len(), self.distinct)
        }
    }
}

struct Node {
    parent: u32,
    choice: u32,
}

/// Explore every state reachable from the start of `game`.
pub fn explore(game: &Game, rulebook: &[String], budget: Budget) -> ExploreReport {
    let t0 = Instant::now();
    let mut report = ExploreReport {
        players: game.players,
        expanded: 0,
        distinct: 0,
        terminal: 0,
        depth: 0,
        exhausted: false,
        sampled_shuffles: false,
        seconds: 0.0,
        states_per_second: 0.0,
        collision_bound: 0.0,
        wins_by_seat: vec![0; game.players as usize],
        other_endings: 0,
        max_states: budget.max_states,
        max_depth: budget.max_depth,
        findings: Vec::new(),
    };
    let root = match game.start_exploring() {
        Ok(st) => st,
        Err(e) => {
            // The path to this failure is empty: the game fails before its first decision.
            let root = [Node { parent: u32::MAX, choice: 0 }];
            report.findings.push(finding(game, rulebook, &root, 0, e.kind.code(), e.message, e.at));
            return report;
        }
    };
    let base = Baseline::of(game, &root);
    let mut nodes = vec![Node { parent: u32::MAX, choice: 0 }];
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(root.fingerprint());
    let mut queue: VecDeque<(u32, u32, State)> = VecDeque::new();
    queue.push_back((0, 0, root));
    let mut cut = false;
    while let Some((id, depth, st)) = queue.pop_front() {
        report.expanded += 1;
        report.depth = report.depth.max(depth);
        report.sampled_shuffles |= st.sampled_shuffle;
        if let Some(v) = invariants::check(game, &st, &base) {
            report.findings.push(finding(game, rulebook, &nodes, id, v.code, v.message, None));
            continue;
        }
        let Some((_, options)) = game.choices(&st) else {
            report.terminal += 1;
            match st.outcome {
                Some(o @ (Outcome::Winner(_) | Outcome::Shared(_))) => o.winners().for_each(|w| report.wins_by_seat[w as usize] += 1),
                _ => report.other_endings += 1,
            }
            continue;
        };
        if depth >= budget.max_depth {
            cut = true;
            continue;
        }
        for i in 0..options.len() {
            let mut next = st.clone();
            if let Err(e) = game.apply(&mut next, i) {
                nodes.push(Node { parent: id, choice: i as u32 });
                let child = (nodes.len() - 1) as u32;
                report.findings.push(finding(game, rulebook, &nodes, child, e.kind.code(), e.message, e.at));
                continue;
            }
            if !seen.insert(next.fingerprint()) {
                continue;
            }
            if seen.len() > budget.max_states {
                cut = true;
                break;
            }
            nodes.push(Node { parent: id, choice: i as u32 });
            queue.push_back(((nodes.len() - 1) as u32, depth + 1, next));
        }
        if cut && seen.len() > budget.max_states {
            break;
        }
    }
    report.distinct = seen.len();
    report.exhausted = !cut && queue.is_empty();
    report.seconds = t0.elapsed().as_secs_f64();
    report.states_per_second = report.distinct as f64 / report.seconds.max(1e-9);
    let n = report.distinct as f64;
    report.collision_bound = n * (n - 1.0) / 2.0 / 2f64.powi(64);
    report
}

/// The path from the root to `id`, replayed to label each step.
fn finding(game: &Game, rulebook: &[String], nodes: &[Node], id: u32, code: &str, message: String, at: Option<crate::model::Loc>) -> Finding {
    let mut path = Vec::new();
    let mut cur = id;
    while let Some(n) = nodes.get(cur as usize) {
        if n.parent == u32::MAX {
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
    f.counterexample = Some(log);
    f
}
