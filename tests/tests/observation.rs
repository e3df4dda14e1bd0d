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

/// `play` shows the dice: a game played for people keeps its rolls, each
/// with how many decisions came before it. In `ok/luck.rules` each player
/// rolls and then decides whether to bank the roll, so the roll kept just
/// before a decision is the one that decision banks: the banked rolls add
/// up to the final scores.
#[test]
fn a_recorded_game_keeps_each_roll_before_the_decision_it_leads_to() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ok/luck.rules");
    let text = std::fs::read_to_string(path).expect("fixture exists");
    let model = compile(&[Source { name: path.into(), text }]).expect("compiles");
    let game = Game::new(Arc::new(model), 2, &[]).expect("two players");
    for seed in 0..40 {
        let p = grimoire_interpreter::log::random_playout(&game, &[], seed, 1000).expect("starts");
        assert!(p.error.is_none(), "{:?}", p.error);
        assert_eq!(p.rolls.len(), p.log.steps.len(), "one roll per decision (seed {seed})");
        let mut banked = [0i64; 2];
        for (i, (roll, step)) in p.rolls.iter().zip(&p.log.steps).enumerate() {
            assert_eq!(roll.after_decisions as usize, i, "rolled after the decisions before it (seed {seed})");
            let grimoire_interpreter::engine::Value::Int(n) = roll.value else { panic!("a d6 shows a number: {:?}", roll.value) };
            assert!((1..=6).contains(&n));
            assert_eq!(game.roll_text(roll), format!("`d6` rolled {n} (rule `turn`)"));
            if step.label == "yes" {
                banked[usize::from(step.player - 1)] += n;
            }
        }
        assert_eq!(p.state.counters[..2], banked, "the banked rolls are the scores (seed {seed})");
        // A game played without keeping its rolls keeps none.
        let mut st = game.start(seed).expect("starts");
        assert!(st.take_rolls().is_empty());
    }
}

/// A counter may be hidden from the players, or shown to its owner only,
/// as a var may: `play` showed every counter, bookkeeping included (an
/// outside game author's finding). The rules read it all the same.
#[test]
fn counters_are_shown_as_their_visibility_says() {
    let text = "rulebook t { players 2..2 }\ncounter shown per_player 0..9 = 1\ncounter secret per_player 0..9 = 2 owner\ncounter tally 0..9 = 3 hidden\nround turn { if tally == 3 and secret[player(2)] == 2 { win player(1) } }\n";
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:#?}"));
    let game = Game::new(Arc::new(model), 2, &[]).expect("two players");
    let st = game.start(0).expect("starts");
    assert_eq!(st.outcome, Some(grimoire_interpreter::engine::Outcome::Winner(0)), "the rules read the hidden counters");
    let values = |p: u8| game.observe(&st, p).values;
    assert_eq!(values(0), ["shown[1] = 1", "shown[2] = 1", "secret[1] = 2"]);
    assert_eq!(values(1), ["shown[1] = 1", "shown[2] = 1", "secret[2] = 2"]);
}

/// The label a log records for one option is the one `option_labels` gives
/// it among all the options, where labels read alike (alike pieces in
/// different zones, repeated numbers) as elsewhere: checked at every
/// decision of random games of Grail Cup and of a game whose options
/// repeat and whose pieces are alike.
#[test]
fn the_label_of_one_option_is_its_label_among_all() {
    let alike = "rulebook alike { players 2..2 }
card cd 4 { sun x2 moon x2 }
zone hand per_player of cd
zone pile of cd
setup { repeat 2 { for p in players { move 1 of cd from box to hand[p] } } }
round turn { for p in players {
  choose n from [1, 1, 2] by p
  choose c from [x in pieces(cd) where zone_of(x) != pile] by p
  move c to pile
  if count(pile) == 4 { win p }
} }
";
    let model = compile(&[Source { name: "alike.rules".into(), text: alike.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let games = [grail_cup(3), Game::new(Arc::new(model), 2, &[]).expect("two players")];
    let mut checked = 0;
    for g in &games {
        for seed in 0..20 {
            let mut st = g.start(seed).expect("starts");
            let mut agent = RandomAgent::new(seed);
            while let Some((_, options)) = g.choices(&st) {
                let all = g.option_labels(&st);
                for (i, label) in all.iter().enumerate() {
                    assert_eq!(&g.option_label_at(&st, i), label, "option {i} of {all:?}");
                    checked += 1;
                }
                let i = agent.pick(options.len());
                g.apply(&mut st, i).expect("plays");
            }
        }
    }
    assert!(checked > 1000, "{checked} labels checked");
}
