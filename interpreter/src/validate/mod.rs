//! The validator: proves or tests what a good rulebook must satisfy.
//!
//! Static checks read the model (one file per check in `checks/`); the
//! simulation checks play seeded random games at every player count and
//! option, checking the invariants at every step (`invariants.rs`);
//! `explore.rs` walks every reachable state of a small configuration;
//! `trace.rs` checks citations against the source text and measures how much
//! of it the rulebook covers. Every finding has a stable code, the rulebook
//! span involved, and for a dynamic finding a replayable counterexample.

#![allow(clippy::indexing_slicing, reason = "arrays here are sized from the model and indexed by its ids")]

pub mod checks;
mod closest;
pub mod cycles;
pub mod explore;
pub mod forced;
mod expand;
mod explore_report;
mod frontier;
pub mod invariants;
mod negation;
mod normalise;
pub mod perft;
pub mod search;
pub mod simulate;
pub mod trace;

use crate::log::GameLog;
use crate::model::{Loc, Model, RecordKind};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// How bad a finding is: errors fail validation, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The rulebook is wrong or incomplete.
    Error,
    /// Worth a look; does not fail validation.
    Warning,
}

/// One thing the validator found.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// Stable code (`V201`, `R0001`, `T001`...).
    pub code: String,
    /// Error or warning.
    pub severity: Severity,
    /// Lowercase message naming rulebook names in backticks.
    pub message: String,
    /// Where in the rulebook.
    pub at: Option<Loc>,
    /// Other places involved.
    pub related: Vec<(Loc, String)>,
    /// How to fix it.
    pub help: Option<String>,
    /// Player count of a dynamic finding.
    pub players: Option<u8>,
    /// Options switched on for a dynamic finding.
    pub options: Vec<String>,
    /// Smallest failing seed of a dynamic finding.
    pub seed: Option<u64>,
    /// A replayable log that reaches the finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<GameLog>,
}

impl Finding {
    /// A static finding at a place.
    pub fn new(code: &str, severity: Severity, message: impl Into<String>, at: Option<Loc>) -> Self {
        Finding {
            code: code.to_string(),
            severity,
            message: message.into(),
            at,
            related: Vec::new(),
            help: None,
            players: None,
            options: Vec::new(),
            seed: None,
            counterexample: None,
        }
    }
    /// Add a hint.
    pub fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }
}

/// A source text the rulebook cites, as the caller read it.
#[derive(Debug, Clone)]
pub struct SourceText {
    /// The file name as rulebooks cite it (`001_422b920a2bae85f9.txt`).
    pub name: String,
    /// Its text; `None` if the file could not be found.
    pub text: Option<String>,
}

/// States the systematic search explores per configuration by default.
pub const DEFAULT_EXPLORE_STATES: usize = 20_000;

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Random playouts per player count and option set.
    pub games: u32,
    /// A game longer than this many decisions does not end.
    pub max_decisions: u32,
    /// The rulebook files, for counterexample logs.
    pub rulebook: Vec<String>,
    /// Threads to play the games on (1: the calling thread only). The
    /// report is the same whatever the number.
    pub jobs: usize,
    /// Only this set of options (else every set `simulate::option_sets` lists).
    pub options: Option<Vec<String>>,
    /// Only this player count (else every count the rulebook allows): the
    /// random games, the search and the guided games; the static checks
    /// always look at every count.
    pub players: Option<u8>,
    /// States the systematic search explores per configuration (0: none).
    pub explore_states: usize,
    /// Coverage-guided games per configuration (0: none).
    pub guided_games: u32,
    /// Told how far the work is, for a progress display (none by default).
    pub progress: OnProgress,
    /// Asked to stop early (Ctrl-C): polled between games and between
    /// slices of the search; the report then says it was interrupted.
    pub stop: Stop,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            games: 1000,
            max_decisions: 5000,
            rulebook: Vec::new(),
            jobs: 1,
            options: None,
            players: None,
            explore_states: DEFAULT_EXPLORE_STATES,
            guided_games: search::GUIDED_GAMES,
            progress: OnProgress::default(),
            stop: Stop::default(),
        }
    }
}

/// A request to stop a long run early, shared between the caller (who sets
/// it, say on Ctrl-C) and the threads doing the work (who poll it at their
/// next game or slice and leave what they have done). Never set by default.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Ask the work to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the work was asked to stop.
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How far the validator is, for a progress display: the validator never
/// prints, its caller decides what to show ([`Config::progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A phase begins, with `total` units of work over every configuration.
    Phase {
        /// Which phase.
        phase: Phase,
        /// Games (random or guided), or states for the search (its budget
        /// per configuration times the configurations).
        total: u64,
    },
    /// `n` more units of the current phase are done (sent from the threads
    /// that play the games, in any order).
    Done(u64),
}

/// The phases of [`validate`] that take time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The seeded random games.
    Games,
    /// The exhaustive search of every configuration.
    Search,
    /// The coverage-guided games.
    Guided,
}

/// A function told of [`Progress`], shared by the threads; none by default.
#[derive(Clone, Default)]
pub struct OnProgress(Option<Arc<dyn Fn(Progress) + Send + Sync>>);

impl OnProgress {
    /// Call `f` with every step of progress.
    pub fn new(f: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        OnProgress(Some(Arc::new(f)))
    }

    /// Tell the function, if there is one.
    pub fn report(&self, p: Progress) {
        if let Some(f) = &self.0 {
            f(p);
        }
    }
}

impl std::fmt::Debug for OnProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "OnProgress(Some(..))" } else { "OnProgress(None)" })
    }
}

/// The configurations (player count, option set) the validator plays.
pub fn configurations(model: &Model, cfg: &Config) -> u64 {
    player_counts(model, cfg).count() as u64 * simulate::option_sets(model, cfg.options.as_deref()).len() as u64
}

/// A configuration the validator plays (a player count and the options
/// on), with its game laid out once for the random games, the search and
/// the guided games: laying a game out runs its start (once for every
/// game when it draws no randomness), and a setup that loops spent its
/// whole fuel there in each phase.
pub(crate) struct Configuration {
    pub(crate) players: u8,
    pub(crate) options: Vec<String>,
    /// `None` when the game cannot be laid out (the static checks say why).
    pub(crate) game: Option<crate::engine::Game>,
    /// How long laying it out took: counted with its random games.
    pub(crate) laid_out_in: f64,
}

/// Every configuration the validator plays, laid out, in the order the
/// phases report them; none once a stop is requested.
pub(crate) fn lay_out(model: &Arc<Model>, cfg: &Config) -> Vec<Configuration> {
    let mut out = Vec::new();
    for players in player_counts(model, cfg) {
        for options in simulate::option_sets(model, cfg.options.as_deref()) {
            if cfg.stop.requested() {
                return out;
            }
            let t = std::time::Instant::now();
            let game = crate::engine::Game::new(model.clone(), players, &options).ok();
            out.push(Configuration { players, options, game, laid_out_in: t.elapsed().as_secs_f64() });
        }
    }
    out
}

/// The player counts the validator plays: `Config::players`, else every
/// count the rulebook allows.
pub(crate) fn player_counts(model: &Model, cfg: &Config) -> std::ops::RangeInclusive<u8> {
    match cfg.players {
        Some(p) => p..=p,
        None => model.min_players..=model.max_players,
    }
}

/// An assumption or discrepancy, for the translator's list.
#[derive(Debug, Clone, Serialize)]
pub struct Note {
    /// The declaration's name.
    pub name: String,
    /// Its reason or chosen reading.
    pub text: String,
    /// Where.
    pub at: Loc,
}

/// Everything the validator learned.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Rulebook name.
    pub rulebook: String,
    /// The rulebook files as they were read (base first, then the modules
    /// in the order of their paths): a place's `file` is an index in it.
    pub files: Vec<String>,
    /// Findings, errors first.
    pub findings: Vec<Finding>,
    /// One line per simulated configuration.
    pub runs: Vec<simulate::RunSummary>,
    /// How often each procedure ran over all simulations.
    pub coverage: Vec<simulate::RuleCoverage>,
    /// How often each branch of the rules ran, and whether the search reached it.
    pub branches: Vec<simulate::BranchCoverage>,
    /// What the systematic search explored, per configuration.
    pub searched: Vec<search::SearchSummary>,
    /// Source traceability.
    pub trace: trace::TraceReport,
    /// Assumptions (declared and inline).
    pub assumptions: Vec<Note>,
    /// Discrepancies.
    pub discrepancies: Vec<Note>,
    /// Narrative rules: sentences of the source kept as text, not run (a
    /// reviewer reads them to see that none hides a rule with an effect).
    pub narratives: Vec<Note>,
    /// The run was asked to stop ([`Config::stop`]) before it was done: the
    /// games, searches and guided games not begun are missing, and the
    /// findings that need a whole run (V203, V204) are not given.
    pub interrupted: bool,
}

impl Report {
    /// Number of error findings.
    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Error).count()
    }
}

/// Run every check.
pub fn validate(model: Arc<Model>, sources: &[SourceText], cfg: &Config) -> Report {
    let mut findings = checks::run_all(&model);
    let configurations = lay_out(&model, cfg);
    let mut sim = simulate::run(&model, cfg, &configurations);
    findings.append(&mut sim.findings);
    let mut reached = vec![false; model.procs.len()];
    let searched = search::run(&model, cfg, &configurations, &mut findings, &mut sim.branches, &mut reached);
    let mut fired: std::collections::HashSet<String> = sim.coverage.iter().filter(|c| c.fired > 0).map(|c| c.rule.clone()).collect();
    if cfg.guided_games > 0 {
        let runs: Vec<u64> = model.procs.iter().map(|p| sim.coverage.iter().find(|c| c.rule == p.name).map_or(0, |c| c.fired)).collect();
        let guided = search::guided_in(&model, cfg, &configurations, &findings, &sim.branches, &runs);
        findings.extend(guided.findings);
        for (b, n) in sim.branches.iter_mut().zip(&guided.branches) {
            b.explored |= *n > b.runs;
        }
        for ((r, n), before) in reached.iter_mut().zip(&guided.procs).zip(&runs) {
            *r |= n > before;
        }
    }
    // A rule the exhaustive search or the guided games ran is not one no
    // game reaches, rule errors in the random games or not (they may have
    // met one first).
    for (p, _) in model.procs.iter().zip(&reached).filter(|(_, r)| **r) {
        // An end condition's body is a procedure of the end's name.
        for c in sim.coverage.iter_mut().filter(|c| c.rule == p.name) {
            c.explored = true;
        }
        if fired.insert(p.name.clone()) {
            findings.retain(|f| !(f.code == simulate::NEVER_FIRED && f.message.contains(&format!("`{}`", p.name))));
        }
    }
    // A rule error ends the games that meet it: what lies after it cannot run.
    // What stops the games that meet it: a rule error, or a broken
    // invariant (components that appear or vanish, a stuck game, a declared
    // invariant).
    let stops_games = |code: &str| code.starts_with('R') || [invariants::LEAK, invariants::STUCK, invariants::DECLARED].contains(&code);
    let cut_short = findings.iter().any(|f| f.severity == Severity::Error && stops_games(&f.code));
    findings.extend(search::dead_branches(cfg, &sim.runs, &sim.branches, &fired, &searched, cut_short));
    one_loop_per_rule(&model, &mut findings);
    let (trace, trace_findings) = trace::check(&model, sources);
    findings.extend(trace_findings);
    // Errors first, by code, then in the order of the rulebook's text.
    findings.sort_by_key(|f| (f.severity == Severity::Warning, f.code.clone(), f.at.map(|a| (a.file.0, a.span.start))));
    let mut assumptions = Vec::new();
    let mut discrepancies = Vec::new();
    let mut narratives = Vec::new();
    for r in &model.records {
        let list = match r.kind {
            RecordKind::Assumption => Some(&mut assumptions),
            RecordKind::Discrepancy => Some(&mut discrepancies),
            RecordKind::Narrative => Some(&mut narratives),
            _ => None,
        };
        if let Some(list) = list {
            list.push(Note { name: r.name.clone(), text: r.text.clone().unwrap_or_default(), at: r.at });
        }
        for a in &r.assumes {
            assumptions.push(Note { name: r.name.clone(), text: a.clone(), at: r.at });
        }
    }
    Report { rulebook: model.name.clone(), files: cfg.rulebook.clone(), findings, runs: sim.runs, coverage: sim.coverage, branches: sim.branches, searched, trace, assumptions, discrepancies, narratives, interrupted: cfg.stop.requested() }
}

/// A loop without decisions (R0002) is reported where the fuel ran out,
/// which depends on the game (the condition of a `while` in one, its body
/// in another): one finding for each rule that loops, the first found
/// (the random games' smallest seed, else the search's).
fn one_loop_per_rule(model: &Model, findings: &mut Vec<Finding>) {
    let rule_of = |at: Option<Loc>| {
        let at = at?;
        model.procs.iter().position(|p| p.at.file == at.file && p.at.span.start <= at.span.start && at.span.end <= p.at.span.end)
    };
    let mut seen = std::collections::HashSet::new();
    findings.retain(|f| f.code != crate::engine::ExecErrorKind::Fuel.code() || rule_of(f.at).is_none_or(|r| seen.insert(r)));
}
