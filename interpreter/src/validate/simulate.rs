//! Simulation checks: seeded random playouts at every player count and
//! option set, with the invariants checked after every step. The games of a
//! configuration run on several threads (`Config::jobs`) in chunks of
//! consecutive seeds, merged in seed order, so the first failing seed of each
//! finding is the smallest, as if seeds were tried in order; its log is the
//! counterexample.

use super::invariants::{self, Baseline};
use super::{Config, Finding, Phase, Progress, Severity};
use crate::engine::{ExecErrorKind, Game, State};
use crate::histogram::Histogram;
use crate::log::{GameLog, RandomAgent};
use crate::model::{Expr, Loc, Model, ProcKind};
use crate::parallel::in_chunks_cut;
use serde::Serialize;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

/// Code: a game did not end within the decision bound.
pub const NO_END: &str = "V503";
/// Code: setup fails at a player count.
pub const SETUP: &str = "V101";
/// Code: a rule never fired in any simulation.
pub const NEVER_FIRED: &str = "V203";

/// One simulated configuration.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// Player count.
    pub players: u8,
    /// Options on.
    pub options: Vec<String>,
    /// Games played (fewer than asked when the run was interrupted).
    pub games: u32,
    /// Games that hit a finding.
    pub failed: u32,
    /// Wall time.
    pub seconds: f64,
    /// Decisions per game.
    pub median_decisions: u32,
    /// Longest game.
    pub max_decisions: u32,
}

/// How often a procedure ran.
#[derive(Debug, Clone, Serialize)]
pub struct RuleCoverage {
    /// Name.
    pub rule: String,
    /// Phase, rule, trigger, exception or end condition.
    pub kind: String,
    /// Times it ran, over all games.
    pub fired: u64,
    /// Games in which it ran.
    pub games: u32,
    /// Declaration.
    pub at: Loc,
    /// The `instead` exception of another file (a module's) that always
    /// holds (`when true`) and ran in the rule's place: its body never
    /// runs, by design (a module that replaces the setup, which has no name
    /// to `replace`), so no finding says it never ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<String>,
    /// The exhaustive search or the guided games ran it (set by
    /// `validate`; `simulate` runs neither).
    pub explored: bool,
}

/// How often a branch of the rules ran: an arm of an `if`, an `else`, the
/// body of a `while`, an arm of a `match`, a `choose` or its `else`.
#[derive(Debug, Clone, Serialize)]
pub struct BranchCoverage {
    /// The procedure it is in.
    pub rule: String,
    /// Which branch, in words.
    pub what: String,
    /// Where.
    pub at: Loc,
    /// Runs over all random games.
    pub runs: u64,
    /// Random games in which it ran.
    pub games: u32,
    /// A state of the bounded exhaustive exploration ran it.
    pub explored: bool,
}

/// What the simulation checks found.
pub struct SimOutcome {
    /// Findings.
    pub findings: Vec<Finding>,
    /// One per configuration.
    pub runs: Vec<RunSummary>,
    /// Per procedure.
    pub coverage: Vec<RuleCoverage>,
    /// Per branch site.
    pub branches: Vec<BranchCoverage>,
}

/// A game played with the invariants checked at every step.
pub struct Checked {
    /// Final state (absent if setup itself failed).
    pub state: Option<State>,
    /// The log of a game that went wrong, up to the problem: the
    /// counterexample. (A game that went well keeps only its seed and
    /// outcome: labelling every step would cost more than playing it.)
    pub log: GameLog,
    /// The first problem: code, message, place, rule.
    pub problem: Option<Problem>,
}

/// The first thing that went wrong in a checked game.
#[derive(Debug, Clone)]
pub struct Problem {
    /// Stable code.
    pub code: String,
    /// What went wrong.
    pub message: String,
    /// Where in the rulebook.
    pub at: Option<Loc>,
    /// The procedure that was running.
    pub rule: Option<String>,
    /// During setup (before the first round).
    pub in_setup: bool,
}

/// Play one random game from `seed`, checking invariants after every step.
pub fn play_checked(game: &Game, rulebook: &[String], seed: u64, max_decisions: u32) -> Checked {
    let (mut st, started) = game.begin(seed);
    match check_game(game, rulebook, &mut st, started, seed, max_decisions) {
        Some((problem, log)) => Checked { state: Some(st), log, problem: Some(problem) },
        None => {
            let mut log = GameLog::begin(game, rulebook, seed);
            log.finish(&st, None);
            Checked { state: Some(st), log, problem: None }
        }
    }
}

/// [`play_checked`] as the validator plays its games: in a state that
/// already exists (the last game's, reused), with a log only for a game
/// that goes wrong: its first problem and that log, or `None`.
pub fn play_checked_in(game: &Game, rulebook: &[String], st: &mut State, seed: u64, max_decisions: u32) -> Option<(Problem, GameLog)> {
    let started = game.restart(st, seed);
    check_game(game, rulebook, st, started, seed, max_decisions)
}

/// The random game of `seed`, started in `st` (`started`: how its setup
/// went), played with the invariants checked after every step: the first
/// problem with its log (the counterexample), or `None` for a game that
/// went well, which leaves no log (the validator's games reuse one state
/// and make no log for the games that go well: both cost as much as a
/// short game).
fn check_game(game: &Game, rulebook: &[String], st: &mut State, started: Result<(), crate::engine::ExecError>, seed: u64, max_decisions: u32) -> Option<(Problem, GameLog)> {
    if let Err(e) = started {
        // The log of a game that never started records no final state.
        let mut log = GameLog::begin(game, rulebook, seed);
        log.error = Some(e.message.clone());
        return Some((Problem { code: e.kind.code().into(), message: e.message, at: e.at, rule: e.rule, in_setup: st.round == 0 }, log));
    }
    let base = Baseline::of(game, st);
    let mut agent = RandomAgent::new(seed);
    // Only the options taken are kept while playing: the labelled log is
    // written again, from the seed, for a game that goes wrong.
    let mut choices: Vec<u32> = Vec::new();
    let problem = loop {
        if let Some(v) = invariants::check(game, st, &base) {
            break Problem { code: v.code.into(), message: v.message, at: v.at, rule: None, in_setup: st.round == 0 };
        }
        let (_, options) = game.choices(st)?;
        if st.decisions >= max_decisions {
            break Problem {
                code: NO_END.into(),
                message: format!("the game did not end within {max_decisions} decisions"),
                at: game.pending_at(st),
                rule: None,
                in_setup: false,
            };
        }
        let i = agent.pick(options.len());
        choices.push(i as u32);
        if let Err(e) = game.apply(st, i) {
            break Problem { code: e.kind.code().into(), message: e.message.clone(), at: e.at, rule: e.rule, in_setup: st.round == 0 };
        }
    };
    let mut log = GameLog::begin(game, rulebook, seed);
    if let Ok(mut again) = game.start(seed) {
        for c in &choices {
            log.record(game, &again, *c as usize);
            if game.apply(&mut again, *c as usize).is_err() {
                break;
            }
        }
    }
    log.finish(st, Some(problem.message.clone()));
    Some((problem, log))
}

/// How many random games a "never ran" finding speaks of: the games asked
/// for in each configuration, or, when a loop (R0002) cut a configuration's
/// games short, the games played in all.
pub fn games_played(cfg: &Config, runs: &[RunSummary]) -> String {
    if runs.iter().all(|r| r.games == cfg.games) {
        format!("{} random games per configuration", crate::diagnostic::grouped(cfg.games))
    } else {
        let played: u64 = runs.iter().map(|r| u64::from(r.games)).sum();
        format!("the {} random games played (of {} per configuration: a configuration's games stop at the first whose rules loop)", crate::diagnostic::grouped(played), crate::diagnostic::grouped(cfg.games))
    }
}

/// Every combination of options is tried when a rulebook has this many or
/// fewer (2^6 = 64 sets).
pub const ALL_COMBINATIONS_UP_TO: usize = 6;

/// The option sets to try: the one given, else every combination of the
/// rulebook's options when there are at most [`ALL_COMBINATIONS_UP_TO`],
/// else none, each alone, each pair alone and all together.
pub fn option_sets(model: &Model, chosen: Option<&[String]>) -> Vec<Vec<String>> {
    if let Some(set) = chosen {
        return vec![set.to_vec()];
    }
    let names = &model.options;
    let n = names.len();
    let pick = |mask: u64| -> Vec<String> { names.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, o)| o.clone()).collect() };
    if n <= ALL_COMBINATIONS_UP_TO {
        // Every combination, by number of options switched on, then in
        // declaration order: none, each alone, each pair, ..., all.
        let mut masks: Vec<u64> = (0..1u64 << n).collect();
        masks.sort_by_key(|m| (m.count_ones(), m.reverse_bits()));
        return masks.into_iter().map(pick).collect();
    }
    // Beyond, every pair of options is seen in each of its four states: none
    // (both off), each alone (one on), each pair alone (both on, the rest
    // off), and all (both on with the rest).
    let mut sets = vec![Vec::new()];
    sets.extend((0..n).map(|i| pick(1 << i)));
    for i in 0..n {
        for j in i + 1..n {
            sets.push(pick((1 << i) | (1 << j)));
        }
    }
    sets.push(names.clone());
    sets
}

/// One finding per code and rulebook place: (code, file, span start, span end).
type FindingKey = (String, Option<(u16, usize, usize)>);

/// What a chunk of consecutive seeds of one configuration found.
struct Chunk {
    /// Runs of each procedure, and in how many games.
    fired: Vec<(u64, u32)>,
    /// Firings of each end condition, and in how many games.
    ends: Vec<(u64, u32)>,
    /// Runs of each branch site, and in how many games.
    branches: Vec<(u64, u32)>,
    /// Decisions of the games that started.
    lengths: Histogram,
    /// Games played (all of the chunk's, unless the run was interrupted).
    played: u32,
    /// Games that hit a problem.
    failed: u32,
    /// The first game of the chunk to hit each key, in seed order.
    first: Vec<(FindingKey, u64, Problem, GameLog)>,
    /// The state each game of the chunk is played in, reused.
    state: Option<State>,
}

impl Chunk {
    fn new(model: &Model, sites: usize) -> Chunk {
        Chunk { fired: vec![(0, 0); model.procs.len()], ends: vec![(0, 0); model.ends.len()], branches: vec![(0, 0); sites], lengths: Histogram::default(), played: 0, failed: 0, first: Vec::new(), state: None }
    }

    /// Play one game; true when its rules looped (R0002), the cut of the
    /// configuration's games.
    fn play(&mut self, game: &Game, cfg: &Config, seed: u64) -> bool {
        // The chunk's first game makes the state the others are played in.
        let mut st = self.state.take().unwrap_or_else(|| game.begin(seed).0);
        let problem = play_checked_in(game, &cfg.rulebook, &mut st, seed, cfg.max_decisions);
        self.count(&st);
        self.state = Some(st);
        self.played += 1;
        let Some((p, log)) = problem else { return false };
        self.failed += 1;
        let looped = p.code == crate::engine::ExecErrorKind::Fuel.code();
        // A game that does not end (V503) stops wherever its last decision
        // happened to be: one finding for all such games, not one per
        // decision they stopped at.
        let place = if p.code == NO_END { None } else { p.at.map(|l| (l.file.0, l.span.start, l.span.end)) };
        let key = (p.code.clone(), place);
        if !self.first.iter().any(|(k, ..)| *k == key) {
            self.first.push((key, seed, p, log));
        }
        looped
    }

    /// Count what a game's state says it ran.
    fn count(&mut self, st: &State) {
        for (f, n) in self.fired.iter_mut().zip(&st.fired) {
            f.0 += u64::from(*n);
            f.1 += u32::from(*n > 0);
        }
        for (e, n) in self.ends.iter_mut().zip(&st.ends_fired) {
            e.0 += u64::from(*n);
            e.1 += u32::from(*n > 0);
        }
        for (b, n) in self.branches.iter_mut().zip(&st.branches) {
            b.0 += u64::from(*n);
            b.1 += u32::from(*n > 0);
        }
        self.lengths.add(i64::from(st.decisions));
    }
}

/// Run the simulation checks, the games of each configuration on `cfg.jobs`
/// threads; the result does not depend on the number of threads.
pub(crate) fn run(model: &Arc<Model>, cfg: &Config, configurations: &[super::Configuration]) -> SimOutcome {
    let procs = model.procs.len();
    let mut fired = vec![0u64; procs];
    let mut fired_games = vec![0u32; procs];
    let mut ends = vec![(0u64, 0u32); model.ends.len()];
    let mut branches: Vec<(u64, u32)> = Vec::new();
    let mut sites: Vec<crate::engine::Site> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    // Loc compares spans loosely (spans are ignored by equality), so key by offsets.
    let mut seen: HashSet<FindingKey> = HashSet::new();
    let mut runs = Vec::new();
    let games = u64::from(cfg.games);
    cfg.progress.report(Progress::Phase { phase: Phase::Games, total: super::configurations(model, cfg) * games });
    for super::Configuration { players, options, game, laid_out_in } in configurations {
        let (players, options) = (*players, options.clone());
        if cfg.stop.requested() {
            break;
        }
        let start = Instant::now();
        let Some(game) = game else {
            cfg.progress.report(Progress::Done(games));
            continue;
        };
        if sites.is_empty() {
            // The same rules compile to the same sites in every configuration.
            sites = game.sites().to_vec();
            branches = vec![(0, 0); sites.len()];
        }
        // Once stopped, the games not begun are skipped: each thread
        // stops at its next game, and what was played is reported. A
        // game whose rules loop (R0002) is the last one played: each
        // such game burns the whole fuel of a decision, and a loop that
        // random games reach once they reach again and again (an hour
        // of a thousand games, for the same finding). The games kept
        // are those up to it, whatever the number of threads.
        let stepped = std::sync::atomic::AtomicU64::new(0);
        let chunks = in_chunks_cut(cfg.games, cfg.jobs, || Chunk::new(model, sites.len()), |chunk, i| {
            let looped = chunk.play(game, cfg, u64::from(i));
            stepped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            cfg.progress.report(Progress::Done(1));
            looped
        }, &|| cfg.stop.requested());
        // The games a loop cut off count as done for the progress.
        if !cfg.stop.requested() {
            cfg.progress.report(Progress::Done(games.saturating_sub(stepped.load(std::sync::atomic::Ordering::Relaxed))));
        }
        // Counts of each length, not one entry per game: 4 billion
        // games (`--games` takes a u32) would otherwise take 16 GB.
        let mut lengths = Histogram::default();
        let mut failed = 0;
        let mut played = 0;
        // Chunks in seed order, each one's first problems in seed order:
        // the first game to hit a key is the smallest failing seed.
        for chunk in chunks {
            for (j, (n, g)) in chunk.fired.into_iter().enumerate() {
                fired[j] += n;
                fired_games[j] += g;
            }
            for (total, (n, g)) in ends.iter_mut().zip(chunk.ends) {
                total.0 += n;
                total.1 += g;
            }
            for (total, (n, g)) in branches.iter_mut().zip(chunk.branches) {
                total.0 += n;
                total.1 += g;
            }
            lengths.merge(chunk.lengths);
            failed += chunk.failed;
            played += chunk.played;
            for (key, seed, p, log) in chunk.first {
                if seen.insert(key) {
                    findings.push(to_finding(model, p, players, &options, seed, log));
                }
            }
        }
        runs.push(RunSummary {
            players,
            options,
            games: played,
            failed,
            // Laying the game out runs its start once when that draws
            // no randomness: timed with the games (see the CLI's simulate).
            seconds: laid_out_in + start.elapsed().as_secs_f64(),
            // Decisions are counted in a u32.
            median_decisions: u32::try_from(lengths.median()).unwrap_or(u32::MAX),
            max_decisions: u32::try_from(lengths.max()).unwrap_or(u32::MAX),
        });
    }
    let mut coverage: Vec<RuleCoverage> = model
        .procs
        .iter()
        .enumerate()
        .map(|(j, p)| RuleCoverage {
            rule: p.name.clone(),
            kind: match p.kind {
                // The round and setup are called like phases, but named as themselves.
                ProcKind::Phase if model.round.is_some_and(|(r, _)| r.idx() == j) => "round",
                ProcKind::Phase if model.setup.is_some_and(|s| s.idx() == j) => "setup",
                ProcKind::Phase => "phase",
                // An exception's body is a rule of its own: named as what it is.
                ProcKind::Rule if model.exceptions.iter().any(|e| e.body.idx() == j) => "exception",
                ProcKind::Rule => "rule",
                ProcKind::Trigger => "trigger",
            }
            .into(),
            fired: fired[j],
            games: fired_games[j],
            at: p.at,
            replaced_by: None,
            explored: false,
        })
        .collect();
    for (j, e) in model.ends.iter().enumerate() {
        let at = model.proc(e.body).at;
        coverage.push(RuleCoverage { rule: e.name.clone(), kind: "end".into(), fired: ends[j].0, games: ends[j].1, at, replaced_by: None, explored: false });
    }
    // End bodies are counted through `ends`; their procedure entries are internal.
    let end_bodies: Vec<String> = model.ends.iter().map(|e| e.name.clone()).collect();
    coverage.retain(|c| c.kind == "end" || !end_bodies.contains(&c.rule));
    // A rule unfired in an interrupted run may only have lacked the games.
    if cfg.games > 0 && !cfg.stop.requested() {
        // Games cut short by a rule error (two exceptions in conflict, a
        // deadlock...) never reach what lies after it, however live.
        let cut_short = findings.iter().any(|f| f.code.starts_with('R'));
        let games = games_played(cfg, &runs);
        for c in &mut coverage {
            if c.fired != 0 {
                continue;
            }
            // Called, but replaced each time by an `instead` exception: the
            // rule is not dead, its own body is.
            let ran_instead: Vec<_> = match c.kind.as_str() {
                "end" => Vec::new(),
                _ => model.ran_instead_of(&c.rule, |p| fired.get(p.idx()).copied().unwrap_or(0)).collect(),
            };
            // By one that always holds, from another file (a module's
            // change of its base): replaced by design, nothing to say. In
            // the rule's own file, a body that can never run is still
            // worth a word.
            if let Some((always, _)) = ran_instead.iter().find(|(x, _)| matches!(model.expr(x.when), Expr::Bool(true)) && x.at.file != c.at.file) {
                c.replaced_by = Some(always.name.clone());
                continue;
            }
            let replaced_by: Vec<String> = ran_instead.iter().map(|(x, n)| format!("`{}` ({n} times)", x.name)).collect();
            let finding = if replaced_by.is_empty() {
                Finding::new(NEVER_FIRED, Severity::Warning, format!("the {} `{}` never fired in {games}", c.kind, c.rule), Some(c.at)).help(if cut_short {
                    "games stopped at rule errors (the R findings): a rule that such an error comes before, or is, never got to run; fix those first"
                } else {
                    "a rule no game reaches may be dead, or need more games (`--games`) or an option to reach"
                })
            } else {
                Finding::new(
                    NEVER_FIRED,
                    Severity::Warning,
                    format!("the {} `{}` never ran its own body in {games}: its `instead` exception {} ran in its place every time", c.kind, c.rule, replaced_by.join(", ")),
                    Some(c.at),
                )
                .help("the rule is reached; if its own body should sometimes run, check the exception's `when`")
            };
            findings.push(finding);
        }
    }
    let branches = sites
        .into_iter()
        .zip(branches)
        .map(|(site, (runs, games))| BranchCoverage { rule: model.proc(site.proc).name.clone(), what: site.what, at: site.at, runs, games, explored: false })
        .collect();
    SimOutcome { findings, runs, coverage, branches }
}

/// The sentence of the source that the innermost cited declaration or
/// statement around `at` encodes, so that a finding can say what the text says.
pub fn citation_around(model: &Model, at: Loc) -> Option<String> {
    model
        .records
        .iter()
        .filter(|r| r.at.file == at.file && r.at.span.start <= at.span.start && at.span.end <= r.at.span.end)
        .filter_map(|r| {
            let quote = r.cites.iter().find_map(|c| match c {
                crate::model::Citation::Quote { quote, .. } => Some(quote.clone()),
                crate::model::Citation::Lines { .. } => None,
            })?;
            Some((r.at.span.len(), quote))
        })
        .min_by_key(|(len, _)| *len)
        .map(|(_, q)| q)
}

fn to_finding(model: &Model, p: Problem, players: u8, options: &[String], seed: u64, log: GameLog) -> Finding {
    let cited = p.at.and_then(|at| citation_around(model, at));
    let setup_failed = p.in_setup && p.code == ExecErrorKind::Underflow.code();
    let (code, message) = if setup_failed {
        (SETUP.to_string(), format!("the setup cannot be done with {players} players: {}", p.message))
    } else {
        (p.code.clone(), p.message.clone())
    };
    let mut f = Finding::new(&code, Severity::Error, message, p.at);
    f.players = Some(players);
    f.options = options.to_vec();
    f.seed = Some(seed);
    f.help = Some(match &p.rule {
        Some(r) => format!("while running `{r}`; replay the counterexample to see the game up to this step"),
        None => "replay the counterexample to see the game up to this step".into(),
    });
    if p.code == ExecErrorKind::Underflow.code() && !setup_failed {
        f.help = Some(format!(
            "{}; the rule takes from a zone that can be empty and the text does not say what happens then: guard it with `if count(zone) > 0` and record an `assume`, or cite the sentence that covers it",
            f.help.unwrap_or_default()
        ));
    }
    if let Some(q) = cited {
        f.help = Some(format!("{}\nthe rule encodes: « {q} »", f.help.unwrap_or_default()));
    }
    f.counterexample = Some(log);
    f
}
