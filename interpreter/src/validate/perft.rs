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

use crate::engine::{ExecError, ExecErrorKind, Game, State, CHANCE};

/// The number of move sequences of exactly `depth` plies from the start.
///
/// Depth first, with a stack of its own rather than the thread's: a game
/// can last thousands of plies (one state per level is kept either way).
pub fn perft(game: &Game, depth: u32) -> Result<u64, ExecError> {
    let root = game.start_exploring()?;
    if let Some(n) = done(game, &root, depth) {
        return Ok(n);
    }
    let mut total = 0u64;
    let mut stack = vec![Level::of(game, root, depth)];
    while let Some(top) = stack.last_mut() {
        if top.next >= top.options {
            stack.pop();
            continue;
        }
        let i = top.next;
        top.next += 1;
        let mut next = top.state.clone();
        game.apply(&mut next, i)?;
        let left = if top.ply { top.depth - 1 } else { top.depth };
        match done(game, &next, left) {
            Some(n) => {
                total = total.checked_add(n).ok_or_else(|| ExecError::new(ExecErrorKind::OutOfRange, format!("more than {} move sequences of {depth} plies", u64::MAX), None))?;
            }
            None => stack.push(Level::of(game, next, left)),
        }
    }
    Ok(total)
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
}

impl Level {
    fn of(game: &Game, state: State, depth: u32) -> Level {
        let (options, ply) = game.choices(&state).map_or((0, false), |(who, o)| (o.len(), who != CHANCE));
        Level { state, depth, next: 0, options, ply }
    }
}
