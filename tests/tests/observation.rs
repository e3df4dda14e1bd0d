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
