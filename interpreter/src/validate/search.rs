//! The validator's systematic search: after the random games, every
//! configuration (player count and option set) is explored breadth first —
//! every choice and every chance outcome — within a budget of states. A
//! fault reachable within the budget is found whatever its probability (a
//! die face in a thousand, two options at once, one order of moves among
//! millions), and the branches of the rules the search reached are marked.
//! The report says, per configuration, what was searched.

use super::explore::{explore_until, Budget};
use super::simulate::BranchCoverage;
use super::{Config, Finding, Phase, Progress, Severity};
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
    /// Every reachable state was visited (through the sampled orders of a
    /// shuffle too large to enumerate, when `sampled_shuffles`).
    pub exhausted: bool,
    /// A shuffle was searched through sampled orders: what "exhausted"
    /// covers is the states reachable through them.
    pub sampled_shuffles: bool,
    /// Why it stopped short, if it did.
    pub stopped_by: Option<String>,
}

/// Explore every configuration within `cfg.explore_states` states; add the
/// findings not already found (same code, same place), and mark the
/// branches the exploration ran.
pub(crate) fn run(model: &Arc<Model>, cfg: &Config, configurations: &[super::Configuration], findings: &mut Vec<Finding>, branches: &mut [BranchCoverage], reached: &mut [bool]) -> Vec<SearchSummary> {
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
    let per_config = cfg.explore_states as u64;
    cfg.progress.report(Progress::Phase { phase: Phase::Search, total: super::configurations(model, cfg) * per_config });
    for super::Configuration { players, options, game, .. } in configurations {
        let (players, options) = (*players, options.clone());
        if cfg.stop.requested() {
            return summaries;
        }
        let Some(game) = game else {
            cfg.progress.report(Progress::Done(per_config));
            continue;
        };
        let budget = Budget { max_states: cfg.explore_states, jobs: cfg.jobs, ..Budget::default() };
        // Progress in states visited, then the rest of this
        // configuration's budget when it is exhausted early.
        let told = std::cell::Cell::new(0u64);
        let report = explore_until(game, &cfg.rulebook, budget, &|states| {
            let now = (states as u64).min(per_config);
            cfg.progress.report(Progress::Done(now.saturating_sub(told.replace(now))));
        }, &cfg.stop);
        cfg.progress.report(Progress::Done(per_config.saturating_sub(told.get())));
        for (b, n) in branches.iter_mut().zip(&report.branches) {
            b.explored |= *n > 0;
        }
        for (r, n) in reached.iter_mut().zip(&report.fired) {
            *r |= *n > 0;
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
        summaries.push(SearchSummary {
            players,
            options,
            states: report.distinct,
            depth: report.depth,
            exhausted: report.exhausted,
            sampled_shuffles: report.sampled_shuffles,
            stopped_by: report.stopped_by,
        });
    }
    summaries
}

/// V204's help when what was searched shows nothing either way.
const MAY_NEED_MORE: &str = "a branch no game reaches may be dead, or need more games (`--games`), a larger search (`--explore-states`) or an option";

/// A branch that ran in no random game and in no explored state (none
/// when the run was interrupted: the games and states it lacked may run it).
/// When rule errors or broken invariants cut games short (`cut_short`), a search that visited
/// every state it could does not show that no game reaches the branch.
pub fn dead_branches(cfg: &Config, runs: &[super::simulate::RunSummary], branches: &[BranchCoverage], fired_rules: &HashSet<String>, summaries: &[SearchSummary], cut_short: bool) -> Vec<Finding> {
    if cfg.stop.requested() {
        return Vec::new();
    }
    let all_exhausted = !summaries.is_empty() && summaries.iter().all(|s| s.exhausted);
    let sampled = summaries.iter().any(|s| s.sampled_shuffles);
    // What the search says of the branch, and what to do about it: only a
    // search that visited every state, through every order of every
    // shuffle, on games no rule error stopped, shows that no game reaches it.
    // With `--option`, the other option sets were neither played nor
    // searched: "no game" is only the games of the options given.
    let only_given = cfg.options.is_some();
    let (searched, help) = if summaries.is_empty() && cut_short {
        (
            " (the rule errors and broken invariants found above stop the games that meet them: it may lie beyond one)",
            "fix the rule errors and broken invariants first: a branch after one cannot run",
        )
    } else if summaries.is_empty() {
        ("", MAY_NEED_MORE)
    } else if cut_short {
        (
            ", nor in the states the exhaustive search reached (the rule errors and broken invariants found above stop the games that meet them: it may lie beyond one)",
            "fix the rule errors and broken invariants first: a branch after one cannot run",
        )
    } else if all_exhausted && sampled {
        (
            ", nor in the states the exhaustive search reached through the orders it sampled of a shuffle too large to enumerate (it may lie beyond another order)",
            "the search sampled a shuffle's orders: the branch may need another order of the shuffled pieces (more random games, `--games`, try more), or its condition may be impossible",
        )
    } else if all_exhausted && only_given {
        (
            ", nor in any state reachable with the options given (the exhaustive search visited them all)",
            "no game with these options can reach it: another set of options may (validate without `--option` tries them), or its condition may be impossible",
        )
    } else if all_exhausted {
        (", nor in any reachable state (the exhaustive search visited them all)", "no game can reach it: its condition may be impossible, or the rule it encodes misread")
    } else {
        (
            ", nor in the states the exhaustive search visited within its budget",
            MAY_NEED_MORE,
        )
    };
    let games = super::simulate::games_played(cfg, runs);
    branches
        .iter()
        .filter(|b| b.runs == 0 && !b.explored && fired_rules.contains(&b.rule))
        .map(|b| Finding::new(DEAD_BRANCH, Severity::Warning, format!("{} in `{}` never ran in {games}{searched}", b.what, b.rule), Some(b.at)).help(help))
        .collect()
}

/// Games played by the coverage-guided phase, per configuration.
pub const GUIDED_GAMES: u32 = 20;

/// What the guided games reached and found.
pub struct Guided {
    /// Findings not already known.
    pub findings: Vec<Finding>,
    /// Runs of each branch site: the random games', then the guided games'.
    pub branches: Vec<u64>,
    /// Runs of each procedure, the same way.
    pub procs: Vec<u64>,
}

/// The coverage-guided phase: games in which chance is a decision too, and
/// every decision looks one step ahead and takes the option that runs the
/// rarest branch or rule so far (counting the random games and the guided
/// games before), or one at random when no option runs any. It steers toward
/// rare outcomes the exhaustive search was too small to reach: the sixth
/// face on the tenth roll, the branch behind five unlikely events.
pub fn guided(model: &Arc<Model>, cfg: &Config, known: &[Finding], branches: &[BranchCoverage], fired: &[u64]) -> Guided {
    guided_in(model, cfg, &super::lay_out(model, cfg), known, branches, fired)
}

/// [`guided`] in configurations already laid out (by `validate`, for
/// every phase).
pub(crate) fn guided_in(model: &Arc<Model>, cfg: &Config, configurations: &[super::Configuration], known: &[Finding], branches: &[BranchCoverage], fired: &[u64]) -> Guided {
    let mut out = Guided { findings: Vec::new(), branches: branches.iter().map(|b| b.runs + u64::from(b.explored)).collect(), procs: fired.to_vec() };
    let key = |f: &Finding| (f.code.clone(), f.at.map(|l| (l.file.0, l.span.start, l.span.end)));
    let mut seen: HashSet<_> = known.iter().map(key).collect();
    let games = u64::from(cfg.guided_games);
    cfg.progress.report(Progress::Phase { phase: Phase::Guided, total: super::configurations(model, cfg) * games });
    for super::Configuration { options, game, .. } in configurations {
        let Some(game) = game else {
            cfg.progress.report(Progress::Done(games));
            continue;
        };
        // With chance as a decision the run to the first decision is
        // the same in every guided game: run once. When it fails (its
        // finding is the random games'), no guided game can start; each
        // had run it again to fail again, and a setup that loops burnt
        // its whole fuel each time (20 games of an outside tester's
        // `step_fuel 1000000000` took minutes).
        let Ok(start) = game.start_exploring() else {
            cfg.progress.report(Progress::Done(games));
            continue;
        };
        for seed in 0..u64::from(cfg.guided_games) {
            if cfg.stop.requested() {
                return out;
            }
            let mut looped = false;
            if let Some(mut f) = guided_game(game, &start, cfg, seed, &mut out) {
                // As the random games: the configuration's guided games
                // stop at the first whose rules loop (each would burn
                // the whole fuel of a decision again: an outside
                // tester's rulebook of ten lines took 7.5 s).
                looped = f.code == crate::engine::ExecErrorKind::Fuel.code();
                if seen.insert(key(&f)) {
                    f.options = options.clone();
                    out.findings.push(f);
                }
            }
            cfg.progress.report(Progress::Done(1));
            if looped {
                cfg.progress.report(Progress::Done(games - seed - 1));
                break;
            }
        }
    }
    out
}

/// How many times one guided game may be steered back into a branch or
/// rule it already ran: enough for a streak (three doubles in a row),
/// few enough that a loop the steering keeps going (a reshuffle that turns
/// up an eight again) is left to chance after that.
pub const GUIDED_REPEATS: u32 = 16;

/// How rare what a step ran is: the fewest runs so far among the branch
/// sites and procedures it ran that this game has run fewer than
/// [`GUIDED_REPEATS`] times (`u64::MAX`: none).
fn rarity(after: &crate::engine::State, before: &crate::engine::State, counts: &Guided) -> u64 {
    let fresh = |(a, b): (&u32, &u32)| a > b && *b < GUIDED_REPEATS;
    let sites = after.branches.iter().zip(&before.branches).zip(&counts.branches).filter(|(ab, _)| fresh(*ab)).map(|(_, n)| *n);
    let procs = after.fired.iter().zip(&before.fired).zip(&counts.procs).filter(|(ab, _)| fresh(*ab)).map(|(_, n)| *n);
    sites.chain(procs).min().unwrap_or(u64::MAX)
}

/// One guided game from `start` (the game's start, chance a decision);
/// the first problem it meets, as a finding.
fn guided_game(game: &Game, start: &crate::engine::State, cfg: &Config, seed: u64, counts: &mut Guided) -> Option<Finding> {
    use crate::log::{GameLog, RandomAgent};
    let mut st = start.clone();
    let base = super::invariants::Baseline::of(game, &st);
    let mut agent = RandomAgent::new(seed ^ 0x6a09_e667_f3bc_c908);
    let mut path: Vec<u32> = Vec::new();
    let mut problem: Option<(String, String, Option<crate::model::Loc>)> = None;
    let mut child = st.clone();
    let mut best: Vec<usize> = Vec::new();
    // Every step counts, a chance outcome too: steered toward the rarest
    // branch, chance can hold a loop going for as long as its branch stays
    // the rarest (an eight turned up again and again under a reshuffle
    // ran 300,000 chance steps in a game of 64 decisions, and more after
    // more random games had made the way out look common).
    let mut steps = 0u32;
    loop {
        if let Some(v) = super::invariants::check(game, &mut st, &base) {
            problem = Some((v.code.into(), v.message, v.at));
            break;
        }
        let Some((_, options)) = game.choices(&st) else { break };
        if st.plies >= cfg.max_decisions || steps >= cfg.max_decisions {
            break;
        }
        steps += 1;
        // Look one step ahead: the options that run the rarest thing.
        let n = options.len();
        let mut rarest = u64::MAX;
        best.clear();
        for i in 0..n {
            if let Err(e) = game.apply_copy(&st, &mut child, i) {
                path.push(i as u32);
                problem = Some((e.kind.code().into(), e.message, e.at));
                break;
            }
            let r = rarity(&child, &st, counts);
            if r < rarest {
                rarest = r;
                best.clear();
            }
            if r == rarest {
                best.push(i);
            }
        }
        if problem.is_some() {
            break;
        }
        let i = if rarest == u64::MAX { agent.pick(n) } else { best.get(agent.pick(best.len())).copied().unwrap_or(0) };
        child.clone_from(&st);
        path.push(i as u32);
        if let Err(e) = game.apply(&mut st, i) {
            problem = Some((e.kind.code().into(), e.message, e.at));
            break;
        }
        for ((c, after), b) in counts.branches.iter_mut().zip(&st.branches).zip(&child.branches) {
            *c += u64::from(after.saturating_sub(*b));
        }
        for ((c, after), b) in counts.procs.iter_mut().zip(&st.fired).zip(&child.fired) {
            *c += u64::from(after.saturating_sub(*b));
        }
    }
    let (code, message, at) = problem?;
    let mut log = GameLog::begin(game, &cfg.rulebook, seed);
    log.exploring = true;
    if let Ok(mut again) = game.start_exploring() {
        for c in &path {
            log.record(game, &again, *c as usize);
            if game.apply(&mut again, *c as usize).is_err() {
                break;
            }
        }
        log.finish(&again, Some(message.clone()));
    }
    let mut f = Finding::new(&code, Severity::Error, message, at).help("found by a coverage-guided game (chance and choices steered toward what had run least); replay the counterexample: `grimoire replay FILE`");
    f.players = Some(game.players);
    f.counterexample = Some(log);
    Some(f)
}
