//! What a player may see: two Grail Cup states that differ only in what a
//! player cannot see (the order of face-down piles, another player's hand)
//! give that player the same observation and the same choices.

use grimoire_interpreter::engine::{Game, State};
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn grail_cup(players: u8) -> Game {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules");
    let text = std::fs::read_to_string(path).expect("rulebook exists");
    let model = compile(&[Source { name: path.into(), text }]).expect("grail cup compiles");
    Game::new(Arc::new(model), players, &[]).expect("valid player count")
}

/// Reverse every zone `viewer` may not see: same pieces, different hidden order.
fn scramble_hidden(game: &Game, st: &State, viewer: u8) -> (State, usize) {
    let mut other = st.clone();
    let mut changed = 0;
    for z in 0..game.zones.len() as u16 {
        let mut pieces: Vec<u16> = st.zone_pieces(z).collect();
        if z != game.box_zone && !game.sees_zone(viewer, z) && pieces.len() > 1 {
            pieces.reverse();
            assert!(other.reorder_zone(z, &pieces));
            changed += 1;
        }
    }
    (other, changed)
}

#[test]
fn hidden_information_does_not_leak_into_observations_or_choices() {
    let mut compared = 0;
    for players in [3u8, 5, 8] {
        let game = grail_cup(players);
        for seed in 0..20u64 {
            let mut st = game.start(seed).expect("starts");
            let mut agent = RandomAgent::new(seed);
            for _ in 0..40 {
                let Some((who, options)) = game.choices(&st) else { break };
                let (other, changed) = scramble_hidden(&game, &st, who);
                if changed > 0 {
                    assert_eq!(game.observe(&st, who), game.observe(&other, who), "players {players} seed {seed}");
                    let labels = |s: &State| game.choices(s).map(|(p, o)| (p, o.iter().map(|x| game.option_label(x)).collect::<Vec<_>>()));
                    assert_eq!(labels(&st), labels(&other));
                    compared += 1;
                }
                let i = agent.pick(options.len());
                game.apply(&mut st, i).expect("no rule error");
            }
        }
    }
    assert!(compared > 100, "too few states had hidden information to compare ({compared})");
}

#[test]
fn a_player_sees_the_cards_in_his_own_hand_but_not_in_the_others() {
    let game = grail_cup(4);
    let mut st = game.start(1).expect("starts");
    // Play until someone holds cards while drafting.
    let mut agent = RandomAgent::new(1);
    for _ in 0..200 {
        let Some((who, options)) = game.choices(&st) else { break };
        let obs = game.observe(&st, who);
        let own = format!("hand[{}]", who + 1);
        if let Some(z) = obs.zones.iter().find(|z| z.zone == own) {
            assert!(z.pieces.is_some(), "the holder sees his hand");
            let other = (who + 1) % 4;
            let theirs = game.observe(&st, other);
            let z2 = theirs.zones.iter().find(|z| z.zone == own).expect("the zone is listed for everybody");
            assert!(z2.pieces.is_none(), "another player sees only how many cards");
            assert_eq!(z2.count, z.count);
            return;
        }
        let i = agent.pick(options.len());
        game.apply(&mut st, i).expect("no rule error");
    }
    panic!("no draft hand was ever observed");
}

/// Reverse, in every zone `viewer` may not see, the order of the pieces he
/// does not know (a `reveal` showed him the others, which stay in place).
fn scramble_unknown(game: &Game, st: &State, viewer: u8) -> (State, usize) {
    let mut other = st.clone();
    let mut changed = 0;
    for z in 0..game.zones.len() as u16 {
        if z == game.box_zone || game.sees_zone(viewer, z) {
            continue;
        }
        let mut pieces: Vec<u16> = st.zone_pieces(z).collect();
        let unknown: Vec<usize> = (0..pieces.len()).filter(|&i| !st.knows(viewer, pieces[i])).collect();
        if unknown.len() > 1 {
            let reversed: Vec<u16> = unknown.iter().rev().map(|&i| pieces[i]).collect();
            for (&i, p) in unknown.iter().zip(reversed) {
                pieces[i] = p;
            }
            assert!(other.reorder_zone(z, &pieces));
            changed += 1;
        }
    }
    (other, changed)
}

fn camelot(files: &[&str], players: u8) -> Game {
    let sources: Vec<Source> = files
        .iter()
        .map(|f| {
            let path = format!("{}/../rulebooks/camelot/{f}", env!("CARGO_MANIFEST_DIR"));
            Source { name: path.clone(), text: std::fs::read_to_string(&path).expect("rulebook exists") }
        })
        .collect();
    let model = compile(&sources).expect("camelot compiles");
    Game::new(Arc::new(model), players, &[]).expect("valid player count")
}

/// Issue 10: at three players, what `play` shows each player (it draws its
/// screen from `observe` and the zones a player sees) names the cards of
/// his own hand and none of another's, no allegiance card but one he was
/// shown, and does not change when what he cannot see is shuffled.
#[test]
fn camelot_at_three_players_shows_each_player_only_what_he_may_see() {
    for files in [&["camelot.rules"][..], &["camelot.rules", "compagnie-de-merlin.rules"][..]] {
        let game = camelot(files, 3);
        let (mut own_hands, mut scrambled) = (0, 0);
        for seed in 0..6u64 {
            let mut st = game.start(seed).expect("starts");
            let mut agent = RandomAgent::new(seed);
            for _ in 0..150 {
                let Some((who, options)) = game.choices(&st) else { break };
                for viewer in 0..3u8 {
                    let obs = game.observe(&st, viewer);
                    for z in &obs.zones {
                        let Some(owner) = z.zone.strip_prefix("hand[").or_else(|| z.zone.strip_prefix("allegiance_of[")).and_then(|r| r.strip_suffix(']')) else { continue };
                        let mine = owner == (viewer + 1).to_string();
                        let named = z.pieces.iter().flatten().filter(|p| p.as_str() != "?").count();
                        if z.zone.starts_with("hand[") && mine {
                            assert_eq!(named, z.count, "{files:?} seed {seed}: player {} sees his hand", viewer + 1);
                            own_hands += 1;
                        } else if !mine {
                            // Another's hand or allegiance: only what a `reveal` showed.
                            let zone = game.zones.iter().position(|info| info.name == z.zone).expect("a zone of the game") as u16;
                            let shown = st.zone_pieces(zone).filter(|&p| st.knows(viewer, p)).count();
                            assert_eq!(named, shown, "{files:?} seed {seed}: player {} sees {} of {}", viewer + 1, z.zone, owner);
                        }
                    }
                }
                let (other, changed) = scramble_unknown(&game, &st, who);
                if changed > 0 {
                    assert_eq!(game.observe(&st, who), game.observe(&other, who), "{files:?} seed {seed}");
                    scrambled += 1;
                }
                let i = agent.pick(options.len());
                if game.apply(&mut st, i).is_err() {
                    break;
                }
            }
        }
        assert!(own_hands > 100 && scrambled > 100, "{files:?}: too few states compared ({own_hands}, {scrambled})");
    }
}
