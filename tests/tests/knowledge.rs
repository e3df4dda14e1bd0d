//! `reveal WHAT to PLAYERS` (docs/language.md, "What players know"): a piece
//! shown to a player stays known to him wherever it goes, and to nobody
//! else, until its zone is shuffled; it never changes the game itself.

use grimoire_interpreter::engine::{Game, State};
use grimoire_interpreter::log::RandomAgent;
use grimoire_interpreter::{compile, Source};
use std::sync::Arc;

fn game(text: &str, players: u8) -> Game {
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:#?}"));
    Game::new(Arc::new(model), players, &[]).expect("valid player count")
}

/// The pieces of a zone as `player` is shown them (`None`: only a count).
fn shown(g: &Game, st: &State, player: u8, zone: &str) -> Option<Vec<String>> {
    g.observe(st, player).zones.into_iter().find(|z| z.zone == zone).and_then(|z| z.pieces)
}

const LOOK: &str = r#"rulebook look { players 3..3 }
card note 3 assume "t" { a x1  b x1  c x1 }
zone deck of note hidden ordered
zone pile of note hidden
setup {
  move 3 of note from box to deck
  reveal top of deck to player(1)
  move top of deck to pile
  reveal top of deck to [q in players where q != player(1)]
  choose x from [1, 2] by player(1)
  shuffle pile
  choose y from [1, 2] by player(1)
  move all of deck to pile
  shuffle pile
  reveal all of pile to players
  choose z from [1, 2] by player(1)
}
round turn { end }"#;

#[test]
fn a_revealed_piece_is_known_to_its_audience_only_and_follows_its_moves() {
    let g = game(LOOK, 3);
    let st = g.start(0).expect("starts");
    // The box gives its top-most first: the deck is c, b, a (a on top); a goes to the pile, then b is on top.
    assert_eq!(shown(&g, &st, 0, "pile"), Some(vec!["a".to_string()]), "player 1 saw a before it moved");
    assert_eq!(shown(&g, &st, 0, "deck"), None, "player 1 was not shown the new top");
    assert_eq!(shown(&g, &st, 1, "deck"), Some(vec!["?".to_string(), "b".to_string()]), "players 2 and 3 know the top only");
    assert_eq!(shown(&g, &st, 2, "pile"), None);
}

#[test]
fn a_shuffle_makes_everybody_forget_and_reveal_to_players_shows_all() {
    let g = game(LOOK, 3);
    let mut st = g.start(0).expect("starts");
    g.apply(&mut st, 0).expect("plays");
    assert_eq!(shown(&g, &st, 0, "pile"), None, "the pile was shuffled");
    assert_eq!(shown(&g, &st, 1, "deck"), Some(vec!["?".to_string(), "b".to_string()]), "the deck was not");
    g.apply(&mut st, 0).expect("plays");
    for p in 0..3 {
        assert_eq!(shown(&g, &st, p, "pile").map(|v| v.len()), Some(3), "player {} was shown the whole pile", p + 1);
    }
}

#[test]
fn what_players_know_changes_no_game() {
    // The same rulebook without its `reveal` statements plays the same games.
    let fixture = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/ok/reveal.rules")).expect("fixture");
    let without: String = fixture.lines().filter(|l| !l.trim_start().starts_with("reveal")).collect::<Vec<_>>().join("\n");
    for players in 2..=4u8 {
        let (a, b) = (game(&fixture, players), game(&without, players));
        for seed in 0..20u64 {
            let (mut sa, mut sb) = (a.start(seed).expect("starts"), b.start(seed).expect("starts"));
            let mut agent = RandomAgent::new(seed);
            while let (Some((pa, oa)), Some((pb, ob))) = (a.choices(&sa), b.choices(&sb)) {
                assert_eq!((pa, oa.len()), (pb, ob.len()));
                let i = agent.pick(oa.len());
                a.apply(&mut sa, i).expect("plays");
                b.apply(&mut sb, i).expect("plays");
            }
            assert_eq!(sa.outcome, sb.outcome);
            assert_eq!(sa.loc, sb.loc, "every piece in the same place");
        }
    }
}

#[test]
fn reveal_is_not_a_reserved_word() {
    let g = game(
        r#"rulebook r { players 2..2 }
counter reveal 0..9 = 0
setup { reveal = 3  reveal += 1 }
round turn { if reveal == 4 { draw } else { end } }"#,
        2,
    );
    let st = g.start(0).expect("starts");
    assert_eq!(format!("{:?}", st.outcome), "Some(Draw)");
}

const BLIND: &str = r#"rulebook blind { players 2..2 }
card c 6 assume "t" { ace x1  king x1  queen x1  jack x1  ten x1  nine x1 }
zone hand per_player of c owner
zone middle of c
setup { for p in players { move 2 of c from box to hand[p] }  move 2 of c from box to middle }
round r {
  choose stolen from hand[player(2)] by player(1)
  move stolen to hand[player(1)]
  choose shown from hand[player(1)] by player(1)
  move shown to hand[player(2)]
  choose seen from middle by player(2)
  end
}"#;

#[test]
fn a_blind_draw_from_another_hand_shows_places_not_pieces() {
    let g = game(BLIND, 2);
    let mut st = g.start(0).expect("starts");
    let full = g.option_labels(&st);
    let seen = g.observe(&st, 0).options.expect("player 1 decides");
    assert_eq!(seen, vec!["a hidden piece of hand[2] (1st from the front)".to_string(), "a hidden piece of hand[2] (2nd from the front)".to_string()]);
    assert!(full.iter().all(|l| !l.contains("hidden")), "logs and scenarios keep the pieces' names: {full:?}");
    let (indices, labels): (Vec<usize>, Vec<String>) = g.options_seen_by(&st, 0).into_iter().unzip();
    assert_eq!(labels, seen, "play shows what observe shows");
    assert_eq!(indices.len(), 2);
    // His own hand he sees: the labels are the pieces'.
    g.apply(&mut st, 0).expect("plays");
    assert_eq!(g.observe(&st, 0).options, Some(g.option_labels(&st)));
    // A public zone shows its pieces to the other player too.
    g.apply(&mut st, 0).expect("plays");
    assert_eq!(g.observe(&st, 1).options, Some(g.option_labels(&st)));
    assert!(g.option_labels(&st).iter().all(|l| !l.contains("hidden")));
}

/// Options over hidden pieces taken in the order of their identities
/// (`pieces(c)`) are shown sorted by place, and each shown option still
/// leads to the engine's option of the piece at that place.
#[test]
fn hidden_options_are_shown_by_place_and_keep_their_engine_index() {
    let text = BLIND.replace("choose stolen from hand[player(2)] by player(1)", "shuffle hand[player(2)]\n  choose stolen from pieces(c) where zone_of(stolen) == hand[player(2)] by player(1)");
    let g = game(&text, 2);
    for seed in 0..8 {
        let st = g.start(seed).expect("starts");
        let Some((_, options)) = g.choices(&st) else { panic!("player 1 decides") };
        let seen = g.options_seen_by(&st, 0);
        let labels: Vec<&str> = seen.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["a hidden piece of hand[2] (1st from the front)", "a hidden piece of hand[2] (2nd from the front)"], "seed {seed}");
        for (place, (index, _)) in seen.iter().enumerate() {
            let option = options.iter().nth(*index).expect("an engine option");
            let Some(grimoire_interpreter::engine::Value::Piece(p)) = option.first().copied() else { panic!("a piece") };
            let zone = st.loc[p as usize];
            assert_eq!(st.zone_pieces(zone).position(|q| u64::from(q) == p), Some(place), "seed {seed}");
        }
    }
}

/// A per-piece value is read where its piece can be told: the strength of
/// the cards in one's own hand, not of those in another's (their index
/// names the card).
#[test]
fn per_piece_values_show_only_with_their_pieces() {
    let text = r#"rulebook strength { players 2..2 }
card c 4 assume "t" { ace x1  king x1  queen x1  jack x1 }
counter strength per_piece c 0..9 = 3
zone hand per_player of c owner
setup { for p in players { move 2 of c from box to hand[p] } }
round r { choose k from [1, 2] by player(1)  end }"#;
    let g = game(text, 2);
    let st = g.start(0).expect("starts");
    for p in 0..2u8 {
        let mine = g.observe(&st, p).values.into_iter().filter(|v| v.starts_with("strength[")).count();
        assert_eq!(mine, 2, "player {} reads the strength of his own two cards only", p + 1);
    }
}

/// A var that holds a piece shows it as the table does: by name to who can
/// tell it, as `?` to the others, even when the var is public.
#[test]
fn a_var_holding_a_piece_shows_it_only_to_who_can_tell_it() {
    let text = r#"rulebook secret_play { players 2..2 }
card c 4 assume "t" { ace x1  king x1  queen x1  jack x1 }
zone hand per_player of c owner
var kept : piece
setup { for p in players { move 2 of c from box to hand[p] }  kept = top(hand[player(1)]) }
round r { choose k from [1, 2] by player(1)  end }"#;
    let g = game(text, 2);
    let st = g.start(0).expect("starts");
    let kept = |p: u8| g.observe(&st, p).values.into_iter().find(|v| v.starts_with("kept = ")).expect("a public var");
    assert_ne!(kept(0), "kept = ?", "its holder sees it");
    assert_eq!(kept(1), "kept = ?", "the other player cannot tell the card in another's hand");
}

/// Two alike cards in a hand, one known to the other player: whichever
/// of the two is played, he cannot tell which stays, so he knows neither
/// (knowledge followed the physical card, and the choice between two
/// identical options told him what had been drawn). With three guards the
/// engine looks through the hand for alike cards, with two through the
/// guards themselves (the fewer): both ways forget.
#[test]
fn playing_one_of_two_alike_pieces_leaves_the_other_unknown() {
    for cards in ["card cd 4 assume \"t\" { guard x3  king x1 }", "card cd 3 assume \"t\" { guard x2  king x1 }"] {
        two_alike_in_a_hand(cards);
    }
}

/// And the card played does not tell either: laid face down, the card he
/// knew is not shown to him as that card (he cannot tell whether it or the
/// one he never saw was played), so both choices look the same to him (a
/// hostile tester's: the known one showed by name, the other as hidden).
#[test]
fn a_known_piece_played_face_down_among_alike_ones_is_not_followed() {
    let text = r#"rulebook twins { players 2..2 }
card cd 3 assume "t" { guard x2  king x1 }
zone deck of cd hidden ordered
zone hand per_player of cd owner
zone down of cd hidden
setup {
  move first x in pieces(cd) where is(x, guard) to hand[player(1)]
  reveal all of hand[player(1)] to players
  move first x in pieces(cd) where is(x, guard) and zone_of(x) == box to hand[player(1)]
  move all of box to deck
}
round turn {
  choose c from hand[player(1)] by player(1)
  move c to down
  choose x from [1, 2] by player(2)
  draw
}"#;
    let g = game(text, 2);
    let mut seen = Vec::new();
    for option in 0..2 {
        let mut st = g.start(0).expect("starts");
        assert_eq!(shown(&g, &st, 1, "hand[1]").map(|v| v.len()), Some(2), "player 2 knows one card of the hand");
        g.apply(&mut st, option).expect("plays");
        seen.push((shown(&g, &st, 1, "down"), shown(&g, &st, 1, "hand[1]")));
    }
    assert_eq!(seen[0], seen[1], "either card played looks the same to player 2");
    assert_eq!(seen[0], (None, None), "he knows neither card");
}

fn two_alike_in_a_hand(cards: &str) {
    let text = r#"rulebook twins { players 2..2 }
CARDS
zone deck of cd hidden ordered
zone hand per_player of cd owner
zone discard of cd
setup {
  move all of box to deck
  move first x in pieces(cd) where is(x, king) to hand[player(2)]
  move top of deck to hand[player(1)]
  reveal all of hand[player(1)] to players
}
round turn {
  move top of deck to hand[player(1)]
  choose c from hand[player(1)] by player(1)
  move c to discard
  choose x from [1, 2] by player(2)
  draw
}"#
    .replace("CARDS", cards);
    let g = game(&text, 2);
    for option in 0..2 {
        let mut st = g.start(0).expect("starts");
        assert_eq!(shown(&g, &st, 1, "hand[1]").map(|v| v.len()), Some(2), "{cards}: player 2 knows one card of the hand: {:?}", shown(&g, &st, 1, "hand[1]"));
        g.apply(&mut st, option).expect("plays");
        assert_eq!(shown(&g, &st, 1, "hand[1]"), None, "{cards}, option {option}: the card left is not known");
    }
}
