//! Move-path counting ("perft"): how many sequences of `depth` plies a game
//! allows from its start. Chess and draughts programmers check move
//! generators against published perft numbers; we check rulebooks the same
//! way (connect four's perft(7) is 823,536).
//!
//! A ply is a decision of a player, forced or not. Chance outcomes are
//! branches but not plies: each outcome counts as a separate path. A game that
//! ends on its `depth`-th ply is a path of that length; one that ends before
//! contributes none.

use crate::engine::{ExecError, Game, State, CHANCE};

/// The number of move sequences of exactly `depth` plies from the start.
pub fn perft(game: &Game, depth: u32) -> Result<u64, ExecError> {
    let root = game.start_exploring()?;
    count(game, &root, depth)
}

fn count(game: &Game, st: &State, depth: u32) -> Result<u64, ExecError> {
    // A game that ends on the last ply counted is one path of that length;
    // one that ends earlier is none.
    let Some((player, options)) = game.choices(st) else { return Ok(u64::from(depth == 0)) };
    let ply = player != CHANCE;
    if ply && depth == 0 {
        return Ok(1);
    }
    let mut total = 0u64;
    for i in 0..options.len() {
        let mut next = st.clone();
        game.apply(&mut next, i)?;
        total += count(game, &next, if ply { depth - 1 } else { depth })?;
    }
    Ok(total)
}
