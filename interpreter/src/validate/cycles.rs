//! Does every game end? After the explorer's breadth-first walk, a
//! depth-first walk over the same states looks for a cycle: a state from
//! which the game can come back to itself without ending, so that play can
//! go on forever. Without one, the explored graph is acyclic, and when it is
//! also exhausted, every game ends under every choice and every chance
//! outcome, within the longest path it measures.
//!
//! A cycle is saved as a *lasso*: the moves that reach it, then the moves of
//! the loop, which `replay` checks come back to where they started. A cycle
//! made only of players' choices means the players can make the game last
//! forever (V505); so does a cycle through chance that the players can
//! repeat whatever chance gives (forced.rs); any other cycle needs chance to
//! repeat its outcomes, and the game ends only with probability 1 (V506).
//!
//! The states in the middle of a `simultaneous` block are not the
//! explorer's (a block is one step there): the walk goes through them, and
//! a path counts the block as one step.

use super::{Finding, Severity};
use crate::engine::{Game, State, CHANCE};
use crate::log::GameLog;
use super::explore::Fingerprints;
use super::forced::{self, Forced};
use std::collections::HashSet;
use std::hash::BuildHasher;

/// Code: the players can make the game go on forever.
pub const ENDLESS: &str = "V505";
/// Code: the game ends only with probability 1.
pub const CHANCE_LOOP: &str = "V506";

/// What the walk found.
pub struct CycleReport {
    /// The longest game (in steps, chance included) from the start, when the
    /// explored graph has no cycle.
    pub longest: Option<u32>,
    /// A cycle made of players' choices only, as a lasso.
    pub endless: Option<Finding>,
    /// A cycle through chance outcomes, as a lasso.
    pub chance: Option<Finding>,
    /// The walk met more states inside `simultaneous` blocks than it may
    /// (`max_joint`) and stopped: it proves nothing, finds no more.
    pub gave_up: bool,
    /// The walk was asked to stop (Ctrl-C) and did: it proves nothing.
    pub interrupted: bool,
}

/// A state on the walk's path: its bytes (`State::pack`) start at `at` in
/// the path's byte buffer, and run to the next step's. A path can be as
/// long as the game has states (a race whose snakes loop back everywhere:
/// 900,000 levels), and a whole `State` a level held 1.2 GB there.
struct Step {
    at: usize,
    fp: u64,
    /// The next option to try.
    next: usize,
    /// Its options, and whether chance decides them.
    options: usize,
    chance: bool,
    /// How many states of the path up to it, itself included, chance
    /// decides: whether a loop back to a state of the path goes through
    /// chance is a subtraction, not a walk of the path.
    chances: u32,
    /// The option of its parent that led here.
    via: u32,
    /// The longest path below it found so far.
    height: u32,
    /// In the middle of a `simultaneous` block: the step into it is part of
    /// the block's one step.
    joint: bool,
    /// For a state where a block begins: the states inside the block its
    /// joint step entered so far.
    joint_entered: usize,
}

/// Colour of a state: on the path now, or done with the longest path below.
const ON_PATH: u32 = u32::MAX;

/// Walk the states `visited` holds (the explorer's), depth first from the
/// start, the `unexpanded` ones (which a budget kept the explorer from
/// expanding) as leaves, going through at most `max_joint` states inside the
/// `simultaneous` block of one step, and `max_joint_total` in all (their
/// combinations multiply; the explorer kept none of them, and the states
/// it did not expand, at the edge of a budget, begin blocks it never
/// tried: the walk spends there no more than the explorer did).
#[allow(clippy::too_many_arguments, reason = "the explorer's sets and budgets, and its stop request")]
pub fn find<S: BuildHasher>(game: &Game, rulebook: &[String], visited: &HashSet<u64, S>, unexpanded: &HashSet<u64, S>, max_joint: usize, max_joint_total: usize, stop: &super::Stop) -> CycleReport {
    let mut report = CycleReport { longest: None, endless: None, chance: None, gave_up: false, interrupted: false };
    let mut joint_total = 0usize;
    let Ok(root) = game.start_exploring() else { return report };
    // The top of the path unpacked (stale after a pop, until it is read
    // again), and the state each option is tried in.
    let (mut top_state, mut top_fresh, mut child) = (root.clone(), true, root.clone());
    let mut bytes = Vec::new();
    root.pack(&mut bytes);
    let mut done: Fingerprints<u32> = Fingerprints::default();
    // The place on the path of each state on it: a loop found is then its
    // start at once (looking along the path for it made a game whose
    // snakes loop back everywhere take minutes: each of millions of loops
    // walked a path hundreds of thousands of states long).
    let mut on_path: Fingerprints<usize> = Fingerprints::default();
    let fp = game.canonical_fingerprint(&root);
    let mut path = vec![step(game, &root, 0, fp, 0, false, 0)];
    done.insert(fp, ON_PATH);
    on_path.insert(fp, 0);
    let mut acyclic = true;
    let mut steps = 0u32;
    while let Some(top) = path.last_mut() {
        // Polled every few thousand steps: the walk of a large graph takes
        // seconds, and Ctrl-C (or SIGTERM) must stop it too.
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) && stop.requested() {
            // A loop found so far is a real one; the longest game is unknown.
            report.interrupted = true;
            report.longest = None;
            return report;
        }
        if top.next >= top.options {
            let Some(finished) = path.pop() else { break };
            bytes.truncate(finished.at);
            top_fresh = false;
            done.insert(finished.fp, finished.height);
            on_path.remove(&finished.fp);
            if let Some(parent) = path.last_mut() {
                parent.height = parent.height.max(finished.height.saturating_add(u32::from(!finished.joint)));
            } else {
                report.longest = acyclic.then_some(finished.height);
            }
            continue;
        }
        let choice = top.next;
        top.next += 1;
        if !top_fresh {
            if game.unpack_explored(&mut top_state, bytes.get(top.at..).unwrap_or_default()).is_none() {
                // Cannot happen (the bytes are the walk's own): the state
                // is left out, as a rule error would be.
                top.next = top.options;
                continue;
            }
            top_fresh = true;
        }
        let applied = game.apply_copy(&top_state, &mut child, choice);
        if applied.is_err() {
            // A rule error is the explorer's finding, not a cycle.
            continue;
        }
        let fp = game.canonical_fingerprint(&child);
        let joint = child.inside_joint_decision();
        if !joint && !visited.contains(&fp) {
            continue;
        }
        match done.get(&fp).copied() {
            None if !joint && unexpanded.contains(&fp) => {
                // Its moves were never tried: a leaf here, as for the explorer.
                done.insert(fp, 0);
                if let Some(top) = path.last_mut() {
                    top.height = top.height.max(1);
                }
            }
            None => {
                if joint {
                    // The step began at the last state of the path outside a block.
                    let begun = path.iter_mut().rev().find(|s| !s.joint).map(|s| {
                        s.joint_entered += 1;
                        s.joint_entered
                    });
                    joint_total += 1;
                    if begun.unwrap_or(0) > max_joint || joint_total > max_joint_total {
                        report.gave_up = true;
                        report.longest = None;
                        return report;
                    }
                }
                done.insert(fp, ON_PATH);
                on_path.insert(fp, path.len());
                let before = path.last().map_or(0, |s| s.chances);
                let at = bytes.len();
                child.pack(&mut bytes);
                path.push(step(game, &child, at, fp, choice as u32, joint, before));
                // The child is the new top: the old top's state becomes the spare.
                std::mem::swap(&mut top_state, &mut child);
            }
            Some(ON_PATH) => {
                acyclic = false;
                let Some(start) = on_path.get(&fp).copied() else { continue };
                // The loop: from the state met again, the options taken down
                // the path, then this one.
                let chances_before = path.get(start).map_or(0, |s| s.chances - u32::from(s.chance));
                let through_chance = path.last().map_or(0, |s| s.chances) > chances_before;
                let (slot, kind) = if through_chance { (&mut report.chance, Loop::Chance) } else { (&mut report.endless, Loop::Players) };
                if slot.is_none() {
                    let choices: Vec<u32> = path.iter().skip(1).map(|s| s.via).chain([choice as u32]).collect();
                    *slot = Some(lasso(game, rulebook, &choices, start, kind));
                }
                if report.endless.is_some() {
                    break;
                }
            }
            Some(height) => {
                if let Some(top) = path.last_mut() {
                    top.height = top.height.max(height.saturating_add(u32::from(!joint)));
                }
            }
        }
    }
    if report.endless.is_some() {
        // The players can make the game go on forever: that it ends with
        // probability 1 (a loop through chance met before) is not so.
        report.chance = None;
    } else if report.chance.is_some() && !stop.requested() {
        // Every loop found goes through chance: can the players repeat one
        // whatever chance gives?
        match forced::players_can_go_on_forever(game, visited, max_joint_total) {
            Forced::Lasso { choices, loop_from } => {
                report.endless = Some(lasso(game, rulebook, &choices, loop_from, Loop::Forced));
                report.chance = None;
            }
            Forced::No => {}
            Forced::Unknown => {
                if let Some(f) = &mut report.chance {
                    f.message.push_str(&format!(
                        " (whether the players alone can repeat it whatever chance gives was not checked: more than {} states, or too many inside `simultaneous` blocks)",
                        forced::MAX_FORCED_STATES
                    ));
                }
            }
        }
    }
    report
}

/// What makes a loop repeat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Loop {
    /// The players' decisions alone.
    Players,
    /// The players' decisions, whatever chance gives on the way.
    Forced,
    /// Chance repeating its outcomes.
    Chance,
}

/// A state put on the path, after `chances_before` states chance decides.
fn step(game: &Game, state: &State, at: usize, fp: u64, via: u32, joint: bool, chances_before: u32) -> Step {
    let (options, chance) = match game.choices(state) {
        Some((who, o)) => (o.len(), who == CHANCE),
        None => (0, false),
    };
    Step { at, fp, next: 0, options, chance, chances: chances_before + u32::from(chance), via, height: 0, joint, joint_entered: 0 }
}

/// The finding of a cycle, with its lasso as a replayable log.
fn lasso(game: &Game, rulebook: &[String], choices: &[u32], loop_from: usize, kind: Loop) -> Finding {
    let mut log = GameLog::begin(game, rulebook, 0);
    log.exploring = true;
    log.loop_from = Some(loop_from);
    // The finding points at the decision the loop starts from.
    let mut at = None;
    if let Ok(mut st) = game.start_exploring() {
        for (i, c) in choices.iter().enumerate() {
            if i == loop_from {
                at = game.pending_at(&st);
            }
            log.record(game, &st, *c as usize);
            if game.apply(&mut st, *c as usize).is_err() {
                break;
            }
        }
        log.finish(&st, None);
    }
    let moves = choices.len() - loop_from;
    let replay = "replay the lasso: `grimoire replay FILE` checks that the loop comes back to where it started";
    let endless_help = format!("{replay}; encode what the text says ends the game (a limit on moves or repetitions); if the text sets none, say so with an `assume` or a `discrepancy` on the rule that loops (the finding stays: such a game may never finish)");
    let mut f = match kind {
        Loop::Chance => Finding::new(
            CHANCE_LOOP,
            Severity::Warning,
            format!("the game ends only with probability 1: after {loop_from} step(s), a loop of {moves} step(s) through chance outcomes comes back to the same state, and can repeat for as long as chance repeats them"),
            at,
        )
        .help(format!("{replay}; if the rules bound the game (a round count, a deck that runs out), encode that bound; if the text sets none (\"re-roll ties\", \"until a six\"), the rulebook is right as it is: say so with an `assume` on the rule that loops (the warning stays, a reminder that such a game has no longest length)")),
        Loop::Players => Finding::new(
            ENDLESS,
            Severity::Error,
            format!("the game can go on forever: after {loop_from} step(s), a loop of {moves} player decision(s) comes back to the same state without ending the game"),
            at,
        )
        .help(endless_help),
        Loop::Forced => Finding::new(
            ENDLESS,
            Severity::Error,
            format!("the game can go on forever: after {loop_from} step(s), the players can keep it from ending whatever chance gives (this loop of {moves} step(s), through chance outcomes, is one way)"),
            at,
        )
        .help(endless_help),
    };
    f.players = Some(game.players);
    f.options = crate::log::enabled_options(game);
    f.counterexample = Some(log);
    f
}
