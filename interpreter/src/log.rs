//! Game logs: the seed and the list of choices, from which `replay`
//! reproduces the exact same game; plus readable labels for people.

use crate::engine::{ExecError, Game, Outcome, State};
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
    /// The rulebook files, base first, as given on the command line.
    pub rulebook: Vec<String>,
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
        if let Some((player, options)) = game.choices(st) {
            let label = options.get(choice).map(|o| game.option_label(o)).unwrap_or_default();
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
}

/// Play a game with random agents up to `max_decisions`, with its log; the
/// rulebook's declared invariants are checked after every step.
pub fn random_playout(game: &Game, rulebook: &[String], seed: u64, max_decisions: u32) -> Result<Playout, ExecError> {
    let mut st = game.start(seed)?;
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
    Ok(Playout { state: st, log, error })
}

/// Play a game with random agents up to `max_decisions`, keeping no log
/// (`simulate`): the final state, and the problem that stopped the game.
/// With `checked`, the rulebook's declared invariants are checked after
/// every step.
pub fn quick_playout(game: &Game, seed: u64, max_decisions: u32, checked: bool) -> Result<(State, Option<ExecError>), ExecError> {
    let mut st = game.start(seed)?;
    let mut agent = RandomAgent::new(seed);
    let check = |st: &mut State| if checked { game.broken_invariant(st).map(|b| b.error()) } else { None };
    let mut error = check(&mut st);
    while let (None, Some((_, options))) = (&error, game.choices(&st)) {
        if st.decisions >= max_decisions {
            break;
        }
        let i = agent.pick(options.len());
        if let Err(e) = game.apply(&mut st, i) {
            error = Some(e);
            break;
        }
        error = check(&mut st);
    }
    Ok((st, error))
}

/// Names of the options switched on.
pub fn enabled_options(game: &Game) -> Vec<String> {
    game.model.options.iter().zip(&game.options).filter(|(_, on)| **on).map(|(n, _)| n.clone()).collect()
}

/// Why a replay differs from its log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The rules failed at a step.
    #[error("step {step}: {error}")]
    Exec {
        /// Step index (from 1).
        step: usize,
        /// What failed.
        error: ExecError,
    },
    /// An invariant breaks at a step.
    #[error("step {step}: {code}: {message}")]
    Invariant {
        /// Step index (from 1).
        step: usize,
        /// Stable code.
        code: &'static str,
        /// What broke.
        message: String,
    },
    /// The log asks for a choice the game does not offer.
    #[error("step {step}: {message}")]
    Mismatch {
        /// Step index (from 1).
        step: usize,
        /// What differs.
        message: String,
    },
}

/// Replay a log; returns the final state, checked against the log.
pub fn replay(game: &Game, log: &GameLog) -> Result<State, ReplayError> {
    let started = if log.exploring { game.start_exploring() } else { game.start(log.seed) };
    let mut st = started.map_err(|error| ReplayError::Exec { step: 0, error })?;
    let base = crate::validate::invariants::Baseline::of(game, &st);
    let mut loop_start = None;
    for (i, step) in log.steps.iter().enumerate() {
        if log.loop_from == Some(i) {
            loop_start = Some(game.canonical_fingerprint(&st));
        }
        if let Some(v) = crate::validate::invariants::check(game, &mut st, &base) {
            return Err(ReplayError::Invariant { step: i, code: v.code, message: v.message });
        }
        let Some((player, options)) = game.choices(&st) else {
            return Err(ReplayError::Mismatch { step: i + 1, message: "the game is already over".into() });
        };
        if player_number(player) != step.player {
            return Err(ReplayError::Mismatch { step: i + 1, message: format!("player {} must decide, the log says player {}", player_number(player), step.player) });
        }
        let label = options.get(step.choice as usize).map(|o| game.option_label(o));
        if label.as_deref() != Some(step.label.as_str()) {
            return Err(ReplayError::Mismatch { step: i + 1, message: format!("option {} is {:?}, the log says {:?}", step.choice, label, step.label) });
        }
        game.apply(&mut st, step.choice as usize).map_err(|error| ReplayError::Exec { step: i + 1, error })?;
    }
    if let Some(v) = crate::validate::invariants::check(game, &mut st, &base) {
        return Err(ReplayError::Invariant { step: log.steps.len(), code: v.code, message: v.message });
    }
    if let Some(start) = loop_start {
        if game.canonical_fingerprint(&st) != start {
            let from = log.loop_from.unwrap_or(0);
            return Err(ReplayError::Mismatch { step: log.steps.len(), message: format!("the loop from step {} does not come back to the state it started from", from + 1) });
        }
    }
    let fp = format!("{:016x}", st.fingerprint());
    if fp != log.final_fingerprint && log.error.is_none() {
        return Err(ReplayError::Mismatch { step: log.steps.len(), message: format!("final state {fp} differs from the log's {}", log.final_fingerprint) });
    }
    Ok(st)
}
