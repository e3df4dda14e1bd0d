//! The validator's systematic search: after the random games, every
//! configuration (player count and option set) is explored breadth first —
//! every choice and every chance outcome — within a budget of states. A
//! fault reachable within the budget is found whatever its probability (a
//! die face in a thousand, two options at once, one order of moves among
//! millions), and the branches of the rules the search reached are marked.
//! The report says, per configuration, what was searched.

use super::explore::{explore, Budget};
use super::simulate::{option_sets, BranchCoverage};
use super::{Config, Finding, Severity};
use crate::engine::Game;
use crate::model::Model;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::Arc;

/// Code: a branch of the rules never ran.
pub const DEAD_BRANCH: &str = "V204";

/// What the search covered in one configuration.
#[derive(Debug, Clone, Serialize)]
pub struct SearchSummary {
    /// Player count.
    pub players: u8,
    /// Options on.
    pub options: Vec<String>,
    /// Distinct states visited.
    pub states: usize,
    /// Deepest level reached (decisions and chance outcomes).
    pub depth: u32,
    /// Every reachable state was visited.
    pub exhausted: bool,
    /// Why it stopped short, if it did.
    pub stopped_by: Option<String>,
}

/// Explore every configuration within `cfg.explore_states` states; add the
/// findings not already found (same code, same place), and mark the
/// branches the exploration ran.
pub fn run(model: &Arc<Model>, cfg: &Config, findings: &mut Vec<Finding>, branches: &mut [BranchCoverage]) -> Vec<SearchSummary> {
    let mut summaries = Vec::new();
    if cfg.explore_states == 0 {
        return summaries;
    }
    // A fault the random games found already is the same fault when the
    // search meets it with the same code at the same place of the rulebook
    // (the random games name a setup that runs short V101: it is R0005).
    let key = |f: &Finding| {
        let code = if f.code == super::simulate::SETUP { "R0005".to_string() } else { f.code.clone() };
        (code, f.at.map(|l| (l.file.0, l.span.start, l.span.end)))
    };
    let mut seen: HashSet<_> = findings.iter().map(key).collect();
    for players in model.min_players..=model.max_players {
        for options in option_sets(model, cfg.options.as_deref()) {
            let Ok(game) = Game::new(model.clone(), players, &options) else { continue };
            let budget = Budget { max_states: cfg.explore_states, jobs: cfg.jobs, ..Budget::default() };
            let report = explore(&game, &cfg.rulebook, budget);
            for (b, n) in branches.iter_mut().zip(&report.branches) {
                b.explored |= *n > 0;
            }
            for mut f in report.findings {
                if seen.insert(key(&f)) {
                    f.options = options.clone();
                    f.help = Some(format!(
                        "found by the exhaustive search (every choice and chance outcome); {}",
                        f.help.unwrap_or_default()
                    ));
                    findings.push(f);
                }
            }
            summaries.push(SearchSummary { players, options, states: report.distinct, depth: report.depth, exhausted: report.exhausted, stopped_by: report.stopped_by });
        }
    }
    summaries
}

/// A branch that ran in no random game and in no explored state.
pub fn dead_branches(cfg: &Config, branches: &[BranchCoverage], fired_rules: &HashSet<String>, summaries: &[SearchSummary]) -> Vec<Finding> {
    let all_exhausted = !summaries.is_empty() && summaries.iter().all(|s| s.exhausted);
    let searched = if summaries.is_empty() {
        String::new()
    } else if all_exhausted {
        ", nor in any reachable state (the exhaustive search visited them all)".to_string()
    } else {
        ", nor in the states the exhaustive search visited within its budget".to_string()
    };
    branches
        .iter()
        .filter(|b| b.runs == 0 && !b.explored && fired_rules.contains(&b.rule))
        .map(|b| {
            Finding::new(DEAD_BRANCH, Severity::Warning, format!("{} in `{}` never ran in {} random games per configuration{searched}", b.what, b.rule, cfg.games), Some(b.at)).help(if all_exhausted {
                "no game can reach it: its condition may be impossible, or the rule it encodes misread"
            } else {
                "a branch no game reaches may be dead, or need more games (`--games`), a larger search (`--explore-states`) or an option"
            })
        })
        .collect()
}
