//! Move-path counting ("perft"): how many sequences of `depth` plies a game
//! allows from its start. Chess and draughts programmers check move
//! generators against published perft numbers; we check rulebooks the same
//! way (connect four's perft(7) is 823,536).
//!
//! A ply is a decision of a player, forced or not. Chance outcomes are
//! branches but not plies: each outcome counts as a separate path, up to the
//! `depth`-th ply (what chance draws after it is no part of the path). A game
//! that ends on its `depth`-th ply is a path of that length; one that ends
//! before contributes none.
//!
//! The last ply is counted from the options offered, without playing it,
//! as perft programs do ("bulk counting"): playing it could only end the
//! sequence, which counts one either way. So a rule that fails while the
//! last ply is played is not found here (exploring plays every move).
//!
//! When chance can come back to a state it was in with no ply in between (a
//! roll of 1 that passes the turn to the roller again), the paths are
//! endlessly many: each turn around that loop is another one. Perft then has
//! no count, and says so ([`PerftError::Endless`]) as soon as the walk
//! meets the loop, instead of walking it for ever.

use super::Stop;
use crate::engine::{ExecError, ExecErrorKind, Game, State, CHANCE};

/// The count looks whether it was asked to stop once per this many moves
/// played (a few milliseconds).
const MOVES_BETWEEN_STOP_CHECKS: u32 = 4096;

/// What perft counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Perft {
    /// The move sequences of exactly `depth` plies.
    pub paths: u64,
    /// A shuffle of more orders than the explorer enumerates was met: its
    /// outcomes were a sample of its orders, so `paths` counts those only.
    pub sampled_shuffle: bool,
}

/// Why perft has no count.
#[derive(Debug, Clone)]
pub enum PerftError {
    /// A rule failed on the way.
    Rule(ExecError),
    /// Chance comes back to a state it was in with no ply in between:
    /// endlessly many paths.
    Endless {
        /// The chance outcomes that make the loop.
        chance_steps: usize,
        /// The plies taken before it.
        plies: u32,
    },
    /// The caller asked the count to stop (Ctrl-C) before it was done.
    Interrupted,
}

impl From<ExecError> for PerftError {
    fn from(e: ExecError) -> Self {
        PerftError::Rule(e)
    }
}

/// The number of move sequences of exactly `depth` plies from the start.
///
/// Depth first, with a stack of its own rather than the thread's: a game
/// can last thousands of plies (one state per level is kept either way).
pub fn perft(game: &Game, depth: u32) -> Result<Perft, PerftError> {
    perft_until(game, depth, &Stop::default())
}

/// [`perft`], stopping with [`PerftError::Interrupted`] soon after `stop`
/// is requested: a deep count can take hours.
pub fn perft_until(game: &Game, depth: u32, stop: &Stop) -> Result<Perft, PerftError> {
    let root = game.start_exploring()?;
    let mut sampled_shuffle = root.sampled_shuffle;
    if let Some(n) = done(game, &root, depth) {
        return Ok(Perft { paths: n, sampled_shuffle });
    }
    let mut total = 0u64;
    let root = Level::of(game, root, depth);
    if let Some(n) = root.last_ply() {
        return Ok(Perft { paths: n, sampled_shuffle });
    }
    let mut stack = vec![root];
    let mut until_check = MOVES_BETWEEN_STOP_CHECKS;
    while let Some(top) = stack.last_mut() {
        if top.next >= top.options {
            stack.pop();
            continue;
        }
        until_check -= 1;
        if until_check == 0 {
            if stop.requested() {
                return Err(PerftError::Interrupted);
            }
            until_check = MOVES_BETWEEN_STOP_CHECKS;
        }
        let i = top.next;
        top.next += 1;
        let (next, applied) = game.after(&top.state, i);
        applied?;
        sampled_shuffle |= next.sampled_shuffle;
        let left = if top.ply { top.depth - 1 } else { top.depth };
        match done(game, &next, left) {
            Some(n) => {
                total = total.checked_add(n).ok_or_else(|| ExecError::new(ExecErrorKind::OutOfRange, format!("more than {} move sequences of {depth} plies", u64::MAX), None))?;
            }
            None => {
                let level = Level::of(game, next, left);
                if let Some(n) = level.last_ply() {
                    total = total.checked_add(n).ok_or_else(|| ExecError::new(ExecErrorKind::OutOfRange, format!("more than {} move sequences of {depth} plies", u64::MAX), None))?;
                    continue;
                }
                if let Some(fp) = level.chance {
                    // The chance outcomes drawn since the last ply, most
                    // recent first: one that led to this very state closes
                    // a loop.
                    let since_ply = stack.iter().rev().take_while(|l| l.chance.is_some());
                    if let Some(k) = since_ply.clone().position(|l| l.chance == Some(fp)) {
                        let plies = depth - left;
                        return Err(PerftError::Endless { chance_steps: k + 1, plies });
                    }
                }
                stack.push(level);
            }
        }
    }
    Ok(Perft { paths: total, sampled_shuffle })
}

/// The count of a state without going further: the sequence is complete
/// once its plies are all taken (whatever chance would draw next, and
/// whether or not the game goes on), and none when the game ended before.
fn done(game: &Game, st: &State, depth: u32) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    game.choices(st).is_none().then_some(0)
}

/// A state being expanded: its options, the next one to try, and the plies
/// still to count below it.
struct Level {
    state: State,
    depth: u32,
    next: usize,
    options: usize,
    /// A player decides here (a ply), not chance.
    ply: bool,
    /// At a chance node, the state's canonical fingerprint: what a loop of
    /// chance outcomes would come back to.
    chance: Option<u64>,
}

impl Level {
    fn of(game: &Game, state: State, depth: u32) -> Level {
        let (options, ply) = game.choices(&state).map_or((0, false), |(who, o)| (o.len(), who != CHANCE));
        let chance = (options > 0 && !ply).then(|| game.canonical_fingerprint(&state));
        Level { state, depth, next: 0, options, ply, chance }
    }

    /// When a player decides the last ply here: the sequences it completes,
    /// one per option.
    fn last_ply(&self) -> Option<u64> {
        (self.ply && self.depth == 1).then_some(self.options as u64)
    }
}
