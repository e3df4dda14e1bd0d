//! Game logs: the seed and the list of choices, from which `replay`
//! reproduces the exact same game; plus readable labels for people.

use crate::engine::{ExecError, Game, Outcome, Rolled, State};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// One decision of a logged game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogStep {
    /// Who decided (from 1).
    pub player: u16,
    /// Index of the option taken.
    pub choice: u32,
    /// The option, as the player saw it.
    pub label: String,
}

/// A whole game: enough to replay it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLog {
    /// The rulebook files, base first. In a log written to a file, each is
    /// relative to the folder of the log; in a log printed on the standard
    /// output, to the working directory.
    pub rulebook: Vec<String>,
    /// The SHA-256 of each file of `rulebook` (64 lowercase hex digits), in
    /// the same order: `grimoire replay` refuses a file that has changed
    /// since. Empty in the logs the interpreter makes; the command line fills
    /// it in when it writes or prints a log (it reads the files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sha256: Vec<String>,
    /// Number of players.
    pub players: u8,
    /// Options switched on.
    #[serde(default)]
    pub options: Vec<String>,
    /// Seed of the game's dice and shuffles.
    pub seed: u64,
    /// The decisions in order.
    pub steps: Vec<LogStep>,
    /// How the game ended, in words (absent if it did not end).
    pub outcome: Option<String>,
    /// Fingerprint of the final state, to check a replay.
    pub final_fingerprint: String,
    /// The run-time problem that stopped the game, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Dice and shuffles were chance decisions (player 0) rather than draws
    /// from the seed: a path found by `explore`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exploring: bool,
    /// A game that can go on forever: the steps from this one (counted from
    /// 0) to the last come back to the state they started from, which
    /// `replay` checks. The steps before it reach the loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_from: Option<usize>,
}

impl GameLog {
    /// An empty log of a game about to start.
    pub fn begin(game: &Game, rulebook: &[String], seed: u64) -> GameLog {
        GameLog {
            rulebook: rulebook.to_vec(),
            sha256: Vec::new(),
            players: game.players,
            options: enabled_options(game),
            seed,
            steps: Vec::new(),
            outcome: None,
            final_fingerprint: String::new(),
            error: None,
            exploring: false,
            loop_from: None,
        }
    }

    /// Record option `choice` of the decision pending in `st`, before it is applied.
    pub fn record(&mut self, game: &Game, st: &State, choice: usize) {
        if let Some((player, _)) = game.choices(st) {
            let label = game.option_label_at(st, choice);
            self.steps.push(LogStep { player: player_number(player), choice: choice as u32, label });
        }
    }

    /// Close the log on the final state, and the problem that stopped the game if any.
    pub fn finish(&mut self, st: &State, error: Option<String>) {
        self.outcome = outcome_text(st.outcome);
        self.final_fingerprint = format!("{:016x}", st.fingerprint());
        self.error = error;
    }
}

/// The number a log gives a decider: players from 1, chance 0.
pub fn player_number(p: u8) -> u16 {
    if p == crate::engine::CHANCE {
        0
    } else {
        u16::from(p) + 1
    }
}

/// How a game ended, in words.
pub fn outcome_text(o: Option<Outcome>) -> Option<String> {
    o.map(|o| match o {
        Outcome::Winner(p) => format!("player {} wins", u16::from(p) + 1),
        Outcome::Shared(_) => {
            let names: Vec<String> = o.winners().map(|p| (u16::from(p) + 1).to_string()).collect();
            format!("players {} share the victory", names.join(", "))
        }
        Outcome::Draw => "draw".to_string(),
        Outcome::Ended => "ended without a winner".to_string(),
    })
}

/// A player that picks uniformly at random, from its own seeded RNG.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// An agent whose picks depend only on `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15) }
    }
    /// Pick one of `n` options.
    pub fn pick(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

/// The result of a random playout.
pub struct Playout {
    /// Final (or failing) state.
    pub state: State,
    /// The log.
    pub log: GameLog,
    /// The error that stopped the game, if any.
    pub error: Option<ExecError>,
    /// The dice rolled, in order (`play --auto` prints them with the
    /// decisions).
    pub rolls: Vec<Rolled>,
    /// The forced choices taken, in order (printed with the decisions too).
    pub forced: Vec<crate::engine::Forced>,
}

/// A game played out: its final state, and the problem that stopped it.
pub type QuickPlayout = (State, Option<ExecError>);

/// Play a game with random agents up to `max_decisions`, with its log; the
/// rulebook's declared invariants are checked after every step.
pub fn random_playout(game: &Game, rulebook: &[String], seed: u64, max_decisions: u32) -> Result<Playout, ExecError> {
    let (mut st, started) = game.begin_recording(seed);
    started?;
    let mut agent = RandomAgent::new(seed);
    let mut log = GameLog::begin(game, rulebook, seed);
    let mut error = game.broken_invariant(&mut st).map(|b| b.error());
    while let (None, Some((_, options))) = (&error, game.choices(&st)) {
        if st.decisions >= max_decisions {
            break;
        }
        let i = agent.pick(options.len());
        log.record(game, &st, i);
        if let Err(e) = game.apply(&mut st, i) {
            error = Some(e);
            break;
        }
        error = game.broken_invariant(&mut st).map(|b| b.error());
    }
    log.finish(&st, error.as_ref().map(|e: &ExecError| e.message.clone()));
    let rolls = st.take_rolls();
    let forced = st.take_forced();
    Ok(Playout { state: st, log, error, rolls, forced })
}

/// Play a game with random agents up to `max_decisions`, keeping no log
/// (`simulate`): the final state, and the problem that stopped the game.
/// With `checked`, the rulebook's declared invariants are checked after
/// every step. A game whose rules fail in its setup never started (`Err`,
/// with the state it stopped in: the rules it ran still count as fired);
/// one that fails after it, even before its first decision, is a game
/// played up to its failure.
pub fn quick_playout(game: &Game, seed: u64, max_decisions: u32, checked: bool) -> Result<QuickPlayout, Box<(State, ExecError)>> {
    let (mut st, started) = game.begin(seed);
    if let Err(e) = started {
        return if st.round == 0 { Err(Box::new((st, e))) } else { Ok((st, Some(e))) };
    }
    let error = play_on(game, &mut st, seed, max_decisions, checked);
    Ok((st, error))
}

/// [`quick_playout`] in a state that already exists (the last game's),
/// reusing its memory: the problem that stopped the game, and `Err` for a
/// setup that failed (the state is where it stopped). A state allocated
/// for every game cost `simulate` on two threads a third of its speed on
/// short games (connect four: 1.33 times one thread's games per second).
pub fn quick_playout_in(game: &Game, st: &mut State, seed: u64, max_decisions: u32, checked: bool) -> Result<Option<ExecError>, ExecError> {
    if let Err(e) = game.restart(st, seed) {
        return if st.round == 0 { Err(e) } else { Ok(Some(e)) };
    }
    Ok(play_on(game, st, seed, max_decisions, checked))
}

/// The random decisions of a started game, from `seed`'s agent.
fn play_on(game: &Game, st: &mut State, seed: u64, max_decisions: u32, checked: bool) -> Option<ExecError> {
    let mut agent = RandomAgent::new(seed);
    let check = |st: &mut State| if checked { game.broken_invariant(st).map(|b| b.error()) } else { None };
    let mut error = check(st);
    while let (None, Some((_, options))) = (&error, game.choices(st)) {
        if st.decisions >= max_decisions {
            break;
        }
        let i = agent.pick(options.len());
        if let Err(e) = game.apply(st, i) {
            error = Some(e);
            break;
        }
        error = check(st);
    }
    error
}

/// Names of the options switched on.
pub fn enabled_options(game: &Game) -> Vec<String> {
    game.model.options.iter().zip(&game.options).filter(|(_, on)| **on).map(|(n, _)| n.clone()).collect()
}

/// Why a replay stops, or differs from its log.
///
/// `Exec` and `Invariant` mean that the replay stopped where the log says
/// the game stopped, with the error the log records: the log's fault is
/// reproduced. Everything else that differs is a `Mismatch`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The rules failed at a step, as the log records.
    #[error("step {step}: {error}")]
    Exec {
        /// Step index (from 1; 0: during setup).
        step: usize,
        /// What failed.
        error: ExecError,
    },
    /// An invariant breaks after a step, as the log records.
    #[error("step {step}: {code}: {message}")]
    Invariant {
        /// The steps played before it broke.
        step: usize,
        /// Stable code.
        code: &'static str,
        /// What broke.
        message: String,
        /// Where the rulebook says what broke (a declared invariant, or
        /// the move into the box for V501), when known.
        at: Option<crate::model::Loc>,
    },
    /// The game differs from the log.
    #[error("{}{message}", if *step == 0 { String::new() } else { format!("step {step}: ") })]
    Mismatch {
        /// Step index (from 1; 0: before the first step, or the log as a whole).
        step: usize,
        /// What differs, in words.
        message: String,
    },
}

/// Who a log's player number is, in words: "chance" or "player N".
pub fn decider(player: u16) -> String {
    if player == 0 {
        "chance".to_string()
    } else {
        format!("player {player}")
    }
}

/// The error a counterexample of a game that does not end records: the
/// game was still going after this many decisions (V503).
pub fn unfinished_message(decisions: u32) -> String {
    format!("the game did not end within {decisions} decisions")
}

/// Why the replayed game stopped early.
enum Stop {
    Exec(usize, ExecError),
    Invariant(usize, &'static str, String, Option<crate::model::Loc>),
}

impl Stop {
    fn message(&self) -> &str {
        match self {
            Stop::Exec(_, e) => &e.message,
            Stop::Invariant(_, _, m, _) => m,
        }
    }
    /// Where it stopped, in words.
    fn place(&self) -> String {
        match self {
            Stop::Exec(0, _) => "during setup".to_string(),
            Stop::Exec(step, _) => format!("at step {step}"),
            Stop::Invariant(0, _, _, _) => "after setup".to_string(),
            Stop::Invariant(step, _, _, _) => format!("after step {step}"),
        }
    }
    fn what(&self) -> String {
        match self {
            Stop::Exec(_, e) => format!("{}: {}", e.kind.code(), e.message),
            Stop::Invariant(_, code, m, _) => format!("{code}: {m}"),
        }
    }
    fn into_error(self) -> ReplayError {
        match self {
            Stop::Exec(step, error) => ReplayError::Exec { step, error },
            Stop::Invariant(step, code, message, at) => ReplayError::Invariant { step, code, message, at },
        }
    }
}

fn mismatch(step: usize, message: String) -> ReplayError {
    ReplayError::Mismatch { step, message }
}

/// Replay a log and check every fact it records against the game: the
/// player count and options (against `game`), who decides at each step and
/// the label of the option taken, where the game stops and with which error
/// (an error the log does not record, or one it records that the replay
/// does not meet, is a mismatch), the outcome, the final state's
/// fingerprint, and for a lasso that its loop comes back to where it began.
/// (The files and their hashes are the command line's to check.)
///
/// Returns the final state when the game played every step without
/// stopping (a log may still record that it did not end within its
/// decisions: [`unfinished_message`], checked here); `Exec` or `Invariant`
/// when it stopped where and as the log says.
pub fn replay(game: &Game, log: &GameLog) -> Result<State, ReplayError> {
    if game.players != log.players {
        return Err(mismatch(0, format!("the game was laid out for {} players, the log records {}", game.players, log.players)));
    }
    let mut on = enabled_options(game);
    let mut recorded = log.options.clone();
    on.sort();
    recorded.sort();
    recorded.dedup();
    if on != recorded {
        let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
        return Err(mismatch(0, format!("the game has the options {} switched on, the log records {}", list(&on), list(&recorded))));
    }
    if let Some(from) = log.loop_from {
        if from >= log.steps.len() {
            return Err(mismatch(0, match log.steps.len() {
                0 => format!("the log's `loop_from` is {from}, but the log has no step"),
                n => format!("the log's `loop_from` is {from}, but its steps, counted from 0 there, end at {}", n - 1),
            }));
        }
    }
    let (st, stop) = play_log(game, log)?;
    let Some(st) = st else {
        // Setup failed while exploring: there is no state to compare, and a
        // log of it records none.
        if let Some(stop) = stop {
            check_stop(log, &stop)?;
            if !log.final_fingerprint.is_empty() {
                return Err(mismatch(0, format!("the game fails during setup, with no state to compare, but the log records a final state {}", log.final_fingerprint)));
            }
            return Err(stop.into_error());
        }
        return Err(mismatch(0, "the game could not be started".to_string()));
    };
    match &stop {
        Some(stop) => check_stop(log, stop)?,
        None => {
            if let Some(error) = &log.error {
                let unfinished = unfinished_message(st.decisions);
                if st.is_over() || *error != unfinished {
                    return Err(mismatch(log.steps.len(), format!("the log records the error « {error} », but the replay plays its {} step(s) without it", log.steps.len())));
                }
            }
        }
    }
    let outcome = outcome_text(st.outcome);
    if outcome != log.outcome {
        let n = log.steps.len();
        let message = match (&outcome, &log.outcome) {
            // The log stops short of its own end.
            (None, Some(said)) => format!("after the log's {n} step(s) the game is not over, but the log says it ended as \u{201c}{said}\u{201d}: steps are missing from the log, or were changed"),
            (Some(ends), None) => format!("the game ends as \u{201c}{ends}\u{201d} after the log's {n} step(s), but the log says it was not finished"),
            (ends, said) => {
                let words = |o: &Option<String>| o.clone().unwrap_or_else(|| "not finished".to_string());
                format!("the game ends as \u{201c}{}\u{201d}, the log says \u{201c}{}\u{201d}", words(ends), words(said))
            }
        };
        // Steps missing: the first one missing is where the replay differs.
        let at = if outcome.is_none() { n + 1 } else { n };
        return Err(mismatch(at, message));
    }
    let fp = format!("{:016x}", st.fingerprint());
    // A game that fails during setup has no final state of its own: its
    // log may record none.
    let setup_failed = matches!(stop, Some(Stop::Exec(0, _)));
    if fp != log.final_fingerprint && !(setup_failed && log.final_fingerprint.is_empty()) {
        return Err(mismatch(log.steps.len(), format!("the final state's fingerprint is {fp}, the log records {}", if log.final_fingerprint.is_empty() { "none".to_string() } else { log.final_fingerprint.clone() })));
    }
    match stop {
        Some(stop) => Err(stop.into_error()),
        None => Ok(st),
    }
}

/// The replay stopped: the log must record that very stop, at its end.
fn check_stop(log: &GameLog, stop: &Stop) -> Result<(), ReplayError> {
    let at = match stop {
        Stop::Exec(step, _) | Stop::Invariant(step, _, _, _) => *step,
    };
    if at < log.steps.len() {
        return Err(mismatch(at, format!("the replay stops {} ({}), but the log goes on to step {}", stop.place(), stop.what(), log.steps.len())));
    }
    match &log.error {
        None => Err(mismatch(at, format!("the replay stops {} ({}), an error the log does not record", stop.place(), stop.what()))),
        Some(e) if e != stop.message() => Err(mismatch(at, format!("the replay stops {} ({}), the log records another error: \u{201c}{e}\u{201d}", stop.place(), stop.what()))),
        Some(_) => Ok(()),
    }
}

/// Play the log's steps, checking who decides and what each option is
/// called; the state reached (absent when an exploring setup failed) and
/// why the game stopped before the end of the log, if it did.
fn play_log(game: &Game, log: &GameLog) -> Result<(Option<State>, Option<Stop>), ReplayError> {
    let mut st = if log.exploring {
        match game.start_exploring() {
            Ok(st) => st,
            Err(e) => return Ok((None, Some(Stop::Exec(0, e)))),
        }
    } else {
        let (st, started) = game.begin(log.seed);
        if let Err(e) = started {
            return Ok((Some(st), Some(Stop::Exec(0, e))));
        }
        st
    };
    let base = crate::validate::invariants::Baseline::of(game, &st);
    let mut loop_start = None;
    for (i, step) in log.steps.iter().enumerate() {
        if log.loop_from == Some(i) {
            loop_start = Some(game.canonical_fingerprint(&st));
        }
        if let Some(v) = crate::validate::invariants::check(game, &mut st, &base) {
            return Ok((Some(st), Some(Stop::Invariant(i, v.code, v.message, v.at))));
        }
        let Some((player, options)) = game.choices(&st) else {
            return Err(mismatch(i + 1, format!("the game is already over ({}), but the log has {} more step(s)", outcome_text(st.outcome).unwrap_or_else(|| "no decision is pending".into()), log.steps.len() - i)));
        };
        if player_number(player) != step.player {
            return Err(mismatch(i + 1, format!("{} must decide, the log says {}", decider(player_number(player)), decider(step.player))));
        }
        let Some(option) = options.get(step.choice as usize) else {
            return Err(mismatch(i + 1, format!("the log takes option {} (counted from 0), but {} has only {} option(s)", step.choice, decider(step.player), options.len())));
        };
        // A log written before options that read alike were told apart by
        // their pieces' zones has the plain label: it replays too.
        let label = game.option_label_at(&st, step.choice as usize);
        if label != step.label && game.option_label(option) != step.label {
            return Err(mismatch(i + 1, format!("option {} (counted from 0) is \u{201c}{label}\u{201d}, the log says \u{201c}{}\u{201d}", step.choice, step.label)));
        }
        if let Err(e) = game.apply(&mut st, step.choice as usize) {
            return Ok((Some(st), Some(Stop::Exec(i + 1, e))));
        }
    }
    if let Some(v) = crate::validate::invariants::check(game, &mut st, &base) {
        return Ok((Some(st), Some(Stop::Invariant(log.steps.len(), v.code, v.message, v.at))));
    }
    if let Some(start) = loop_start {
        if game.canonical_fingerprint(&st) != start {
            let from = log.loop_from.unwrap_or(0);
            return Err(mismatch(log.steps.len(), format!("the loop from `loop_from` {from} (step {} counted from 1) does not come back to the state it started from", from + 1)));
        }
    }
    Ok((Some(st), None))
}
