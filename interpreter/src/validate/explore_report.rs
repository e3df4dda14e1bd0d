//! What an exploration is given (its budget) and what it reports: the
//! counts, the budget that stopped it, the findings, and the one sentence
//! that says what was proven. `explore.rs` does the walk.

use super::{Finding, Severity};
use crate::diagnostic::grouped;
use crate::engine::SHUFFLE_SAMPLES;
use serde::Serialize;

/// Budget of an exploration.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop after this many distinct states.
    pub max_states: usize,
    /// Do not expand states deeper than this many decisions (chance included).
    pub max_depth: u32,
    /// Stop before the explorer's memory (visited states and frontier)
    /// passes this many bytes.
    pub max_bytes: usize,
    /// Threads expanding each level.
    pub jobs: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_states: 10_000_000, max_depth: 10_000, max_bytes: DEFAULT_MAX_BYTES, jobs: 1 }
    }
}

/// The default memory budget of an exploration: 1 GiB.
pub const DEFAULT_MAX_BYTES: usize = 1 << 30;

/// What an exploration found and proved.
#[derive(Debug, Clone, Serialize)]
pub struct ExploreReport {
    /// Player count.
    pub players: u8,
    /// States taken from the frontier and expanded.
    pub expanded: usize,
    /// Distinct states seen (by canonical fingerprint).
    pub distinct: usize,
    /// Finished games among them.
    pub terminal: usize,
    /// Deepest level reached.
    pub depth: u32,
    /// The distinct states first reached at each depth, from the start
    /// (depth 0, the state before the first step) on: the positions after
    /// each number of steps that published tables count.
    pub by_depth: Vec<usize>,
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
    /// Budget used.
    pub max_bytes: usize,
    /// The most memory the explorer held: visited states and frontier.
    pub peak_bytes: usize,
    /// `peak_bytes` per distinct state.
    pub bytes_per_state: f64,
    /// Threads used.
    pub jobs: usize,
    /// Why the exploration stopped before exhausting the states, if it did.
    pub stopped_by: Option<String>,
    /// It was asked to stop ([`Stop`](super::Stop)) before it was done.
    pub interrupted: bool,
    /// How many times each branch site of the rules ran over the expanded
    /// states (`Game::sites`): 0 for a branch no visited state runs.
    pub branches: Vec<u32>,
    /// How many times each procedure ran over the expanded states (0 for a
    /// rule no visited state runs): the validator's V203 (not in the JSON).
    #[serde(skip)]
    pub fired: Vec<u32>,
    /// The longest game from the start, in steps (chance included), when
    /// the visited states hold no cycle.
    pub longest: Option<u32>,
    /// Kinds whose alike pieces (same variant and owner) the states tell
    /// apart, because the rules list them with `pieces(...)`: positions
    /// that differ only in which of them is where are counted apart.
    pub told_apart: Vec<String>,
    /// Violations found, each with the path that reaches it.
    pub findings: Vec<Finding>,
}

impl ExploreReport {
    /// One sentence on what was proven.
    pub fn verdict(&self) -> String {
        let invariants = "no deadlock, no component created or lost, no rule error, trigger chains and loops within fuel";
        let errors = self.findings.iter().filter(|f| f.severity == Severity::Error).count();
        let sampled = if self.sampled_shuffles { "; shuffles were sampled, so this holds for the sampled orders only" } else { "" };
        if self.exhausted && errors == 0 {
            let ends = match self.longest {
                Some(n) => format!("every game ends, under every choice and every chance outcome, within {} step{}", grouped(n), if n == 1 { "" } else { "s" }),
                None => "every game ends with probability 1 (a loop through chance outcomes can repeat: V506, a warning)".to_string(),
            };
            if self.sampled_shuffles {
                // Not a proof for the game: a shuffle's other orders lead to states never visited.
                return format!(
                    "proven for {} on sampled shuffles only (a shuffle of many pieces was explored through {SHUFFLE_SAMPLES} of its orders): all {} states reachable through them visited ({} finished games); {invariants}; {ends}",
                    crate::diagnostic::players(self.players), grouped(self.distinct as u64), grouped(self.terminal as u64)
                );
            }
            format!("proven for {}: all {} reachable states visited ({} finished games); {invariants}; {ends}", crate::diagnostic::players(self.players), grouped(self.distinct as u64), grouped(self.terminal as u64))
        } else {
            let cut = format!("stopped by {}; states beyond were not visited", self.stopped_by.as_deref().unwrap_or("the budget"));
            match (errors, self.exhausted) {
                (0, _) => format!("not exhausted: {} distinct states up to depth {} hold {invariants}; {cut}{sampled}", grouped(self.distinct as u64), grouped(self.depth)),
                (_, true) if self.sampled_shuffles => format!("{errors} violation(s) found among {} states (all states reachable through the sampled shuffles visited: a shuffle of many pieces was explored through {SHUFFLE_SAMPLES} of its orders)", grouped(self.distinct as u64)),
                (_, true) => format!("{errors} violation(s) found among {} states (all reachable states visited)", grouped(self.distinct as u64)),
                (_, false) => format!("{errors} violation(s) found among {} states; not exhausted: {cut}{sampled}", grouped(self.distinct as u64)),
            }
        }
    }
}

