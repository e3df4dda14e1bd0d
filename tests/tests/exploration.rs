//! The explorer: states are counted by their canonical form (docs/validate.md,
//! "What a state is"), which must merge only states that lead to the same
//! games; tic-tac-toe has its published number of positions; the report does
//! not depend on the number of threads.

use grimoire_interpreter::engine::{Game, State};
use grimoire_interpreter::validate::cycles;
use grimoire_interpreter::validate::explore::{explore, Budget};
use grimoire_interpreter::validate::Stop;
use grimoire_interpreter::{compile, Source};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

fn game(files: &[&str], players: u8) -> Game {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let sources: Vec<Source> = files.iter().map(|f| Source { name: (*f).into(), text: std::fs::read_to_string(root.join(f)).expect("readable") }).collect();
    let model = compile(&sources).unwrap_or_else(|d| panic!("{files:?}: {d:?}"));
    Game::new(Arc::new(model), players, &[]).expect("valid player count")
}

#[test]
fn tic_tac_toe_has_5478_positions_of_which_958_are_final() {
    let g = game(&["rulebooks/classic/tic-tac-toe.rules"], 2);
    let r = explore(&g, &[], Budget::default());
    assert!(r.exhausted && r.findings.is_empty(), "{}", r.verdict());
    assert_eq!((r.distinct, r.terminal), (5478, 958));
    // Published: crosses win 626 final positions, noughts 316, 16 are drawn.
    assert_eq!(r.wins_by_seat, [626, 316]);
    assert_eq!(r.other_endings, 16);
    assert_eq!(r.depth, 9);
    // Published: the positions after each number of moves, which add up
    // to the 5,478.
    assert_eq!(r.by_depth, [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]);
}

/// The report names the kinds whose alike pieces the states tell apart
/// (listed with `pieces`): breakthrough lists its pawns; tic-tac-toe and
/// connect four never list theirs (their counts are positions); a kind
/// listed with one piece of each owner has no alike pair to tell apart.
#[test]
fn the_report_names_the_pieces_states_tell_apart() {
    let budget = Budget { max_states: 100, ..Budget::default() };
    let told = |files: &[&str]| explore(&game(files, 2), &[], budget).told_apart;
    assert_eq!(told(&["rulebooks/classic/breakthrough.rules"]), ["pawn"]);
    assert!(told(&["rulebooks/classic/tic-tac-toe.rules"]).is_empty());
    assert!(told(&["rulebooks/classic/connect-four.rules"]).is_empty());
    let text = "rulebook k { players 2..2 }\npiece king per_player 1 assume \"x\"\npiece man per_player 2 assume \"x\"\nzone board of king, man assume \"x\"\nsetup assume \"x\" { move all of box to board }\nround turn assume \"x\" { for p in players { choose k from pieces(king, p), m from pieces(man, p) by p\n if k == none { win p } } }\n";
    let model = compile(&[Source { name: "k.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    assert_eq!(explore(&g, &[], budget).told_apart, ["man"], "one king each: no two alike");
}

/// A kind the setup alone lists (`move first m in pieces(man, p) where
/// zone_of(m) == box to ...`, the way docs/language.md puts a player's
/// pieces on a shared board) is not told apart when no explored state is
/// in the setup: the game explores as the same game set up through a
/// reserve zone, which never lists them. Listed in a round, or with a
/// setup that draws (an explored state is then in the setup), it is.
#[test]
fn pieces_listed_only_by_a_setup_behind_every_state_are_not_told_apart() {
    let file = "tests/fixtures/explore/placed_by_owner.rules";
    let text = std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(file)).expect("fixture");
    let run = |text: &str| {
        let model = compile(&[Source { name: "placed.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
        explore(&Game::new(Arc::new(model), 2, &[]).expect("two players"), &[], Budget::default())
    };
    let by_owner = run(&text);
    assert!(by_owner.exhausted && by_owner.findings.is_empty(), "{}", by_owner.verdict());
    assert!(by_owner.told_apart.is_empty(), "{:?}", by_owner.told_apart);
    let reserve = text
        .replace("piece man per_player 2 assume \"x\"", "piece man per_player 2 assume \"x\"\nzone reserve per_player of man assume \"x\"")
        .replace("setup assume \"x\" {", "setup assume \"x\" {\n  for p in players { move 2 of man from box to reserve[p] }")
        .replace("move first m in pieces(man, player(1)) where zone_of(m) == box to", "move top(reserve[player(1)]) to")
        .replace("move first m in pieces(man, player(2)) where zone_of(m) == box to", "move top(reserve[player(2)]) to");
    assert!(!reserve.contains("pieces("), "{reserve}");
    let reserve = run(&reserve);
    assert_eq!((by_owner.distinct, by_owner.terminal, &by_owner.by_depth), (reserve.distinct, reserve.terminal, &reserve.by_depth));
    // Listed in a round too: told apart, and more states.
    let in_round = run(&text.replace("if row(d) == 2 + ahead(p) { win p }", "if row(d) == 2 + ahead(p) { win p }\n    if count(pieces(man, p)) == 0 { draw }"));
    assert_eq!(in_round.told_apart, ["man"]);
    assert!(in_round.distinct > by_owner.distinct, "{} states", in_round.distinct);
    // A setup that draws: the explored game starts inside it.
    let drawing = run(&text.replace("setup assume \"x\" {", "die coin 2 assume \"x\"\nsetup assume \"x\" {\n  roll toss = coin"));
    assert_eq!(drawing.told_apart, ["man"]);
}

/// Connect four's positions after each number of moves, as published
/// (John Tromp's table: 1, 7, 49, 238, 1120, 4263, 16422, 54859), the
/// depths a budget of states leaves complete; the counts add up to the
/// states visited.
#[test]
fn connect_four_has_its_published_positions_by_depth() {
    let g = game(&["rulebooks/classic/connect-four.rules"], 2);
    let r = explore(&g, &[], Budget { max_states: 100_000, jobs: 1, ..Budget::default() });
    assert!(!r.exhausted);
    assert_eq!(r.by_depth[..8], [1, 7, 49, 238, 1120, 4263, 16422, 54859]);
    // The depth it stopped in, partial.
    assert_eq!(r.by_depth.iter().sum::<usize>(), r.distinct);
}

/// The issue's memory target, an exact count (not a timing): the frontier
/// stores each waiting state as its difference with the one before.
#[test]
fn tic_tac_toe_is_explored_in_at_most_100_bytes_a_state() {
    let g = game(&["rulebooks/classic/tic-tac-toe.rules"], 2);
    let r = explore(&g, &[], Budget { jobs: 1, ..Budget::default() });
    assert!(r.exhausted);
    assert!(r.bytes_per_state <= 100.0, "{} bytes per state", r.bytes_per_state);
}

/// A memory budget stops the exploration at the same state on any number
/// of threads, and says so.
#[test]
fn a_memory_budget_stops_at_the_same_state_on_one_thread_and_on_two() {
    let g = game(&["rulebooks/classic/connect-four.rules"], 2);
    let budget = Budget { max_bytes: 2_000_000, ..Budget::default() };
    let one = explore(&g, &[], Budget { jobs: 1, ..budget });
    let two = explore(&g, &[], Budget { jobs: 2, ..budget });
    assert!(one.stopped_by.as_deref().is_some_and(|s| s.contains("memory")), "{:?}", one.stopped_by);
    assert_eq!((one.distinct, one.expanded, one.peak_bytes), (two.distinct, two.expanded, two.peak_bytes));
    assert!(one.peak_bytes > 2_000_000, "the budget was passed when it stopped");
}

#[test]
fn the_report_is_the_same_on_one_thread_and_on_three() {
    for (files, players, max_states) in [
        (vec!["rulebooks/classic/connect-four.rules"], 2, 20_000),
        (vec!["rulebooks/grail-cup/grail-cup.rules", "tests/fixtures/explore/grail-cup-short-track.rules"], 3, 5_000),
        (vec!["tests/fixtures/validate/deadlock.rules"], 2, 10_000),
    ] {
        let g = game(&files, players);
        let budget = Budget { max_states, ..Budget::default() };
        let one = explore(&g, &[], Budget { jobs: 1, ..budget });
        let three = explore(&g, &[], Budget { jobs: 3, ..budget });
        let key = |r: &grimoire_interpreter::validate::explore::ExploreReport| {
            let findings: Vec<_> = r.findings.iter().map(|f| (f.code.clone(), f.message.clone(), serde_json::to_string(&f.counterexample).unwrap_or_default())).collect();
            // peak_bytes too: the memory budget must stop at the same state.
            (r.distinct, r.expanded, r.terminal, r.depth, r.exhausted, r.wins_by_seat.clone(), r.stopped_by.clone(), r.peak_bytes, r.longest, findings)
        };
        assert_eq!(key(&one), key(&three), "{files:?}");
    }
}

/// Who decides, the options and where each leads, or how the game ended.
type Future = (Option<u8>, Vec<(String, u64)>, String);

/// Everything that decides a state's future as the player sees it: who
/// decides, the options (labels), and where each option leads (canonically).
fn future(g: &Game, st: &State) -> Future {
    let Some((who, options)) = g.choices(st) else { return (None, Vec::new(), format!("{:?}", st.outcome)) };
    let mut next = Vec::new();
    for (i, o) in options.iter().enumerate() {
        let mut child = st.clone();
        let after = match g.apply(&mut child, i) {
            Ok(()) => g.canonical_fingerprint(&child),
            Err(e) => u64::from(e.kind.code().bytes().map(u32::from).sum::<u32>()),
        };
        next.push((g.option_label(o), after));
    }
    next.sort();
    (Some(who), next, String::new())
}

/// Walk the states breadth first; every time a state is met again by another
/// path (same canonical fingerprint), its future must be the first one's.
fn merged_states_have_the_same_future(g: &Game, budget: usize) -> usize {
    let root = g.start_exploring().expect("starts");
    let mut first: HashMap<u64, Future> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([root]);
    let mut merges = 0;
    while let Some(st) = queue.pop_front() {
        let fp = g.canonical_fingerprint(&st);
        let fut = future(g, &st);
        match first.get(&fp) {
            Some(known) => {
                merges += 1;
                assert_eq!(known, &fut, "two states with fingerprint {fp:016x} lead to different games");
                continue;
            }
            None => {
                first.insert(fp, fut);
            }
        }
        if first.len() >= budget {
            break;
        }
        if let Some((_, options)) = g.choices(&st) {
            for i in 0..options.len() {
                let mut child = st.clone();
                if g.apply(&mut child, i).is_ok() {
                    queue.push_back(child);
                }
            }
        }
    }
    merges
}

#[test]
fn states_merged_by_their_canonical_form_lead_to_the_same_games() {
    let cases: &[(&[&str], u8, usize)] = &[
        (&["rulebooks/classic/tic-tac-toe.rules"], 2, 6_000),
        (&["rulebooks/classic/connect-four.rules"], 2, 3_000),
        (&["rulebooks/classic/breakthrough.rules"], 2, 3_000),
        (&["rulebooks/classic/reversi.rules"], 2, 3_000),
        (&["tests/fixtures/validate/sound.rules"], 3, 5_000),
        (&["tests/fixtures/explore/placed_by_owner.rules"], 2, 1_000),
    ];
    for (files, players, budget) in cases {
        let g = game(files, *players);
        let merges = merged_states_have_the_same_future(&g, *budget);
        assert!(merges > 0, "{files:?}: the test met no state twice, so it checked nothing");
    }
}

/// A race where a pawn steps 1 or 2: the same position is reached after
/// different numbers of moves, so the explorer's levels do not prove that
/// every game ends, and the longest game (9 moves, every step a 1) is
/// longer than the deepest level.
const RACE_OF_ONES_AND_TWOS: &str = r#"
rulebook steps { players 2..2 }
piece pawn per_player 1
spacetype plain
track lane { 1..6: plain }
setup { for p in players { move pawn[p] to space(lane, 1) } }
round turn {
  for p in players {
    choose step from [1, 2] by p
    move pawn[p] to space(lane, min(6, pos(pawn[p]) + step))
  }
}
trigger arrival on arrive(k: pawn, s) when index(s) == 6 { win owner(k) }
"#;

/// Every state reachable from the start, by canonical fingerprint.
fn all_states(g: &Game) -> HashSet<u64> {
    let root = g.start_exploring().expect("starts");
    let mut seen = HashSet::from([g.canonical_fingerprint(&root)]);
    let mut queue = std::collections::VecDeque::from([root]);
    while let Some(st) = queue.pop_front() {
        let Some((_, options)) = g.choices(&st) else { continue };
        for i in 0..options.len() {
            let mut child = st.clone();
            if g.apply(&mut child, i).is_ok() && seen.insert(g.canonical_fingerprint(&child)) {
                queue.push_back(child);
            }
        }
    }
    seen
}

/// When every step leads one level down the explorer takes the deepest level
/// as the longest game instead of walking the states again: it must be what
/// the depth-first walk finds, and the walk must still run when a step
/// skips a level.
#[test]
fn the_longest_game_is_the_depth_first_walks_whether_or_not_the_levels_prove_it() {
    let race = compile(&[Source { name: "steps.rules".into(), text: RACE_OF_ONES_AND_TWOS.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let race = Game::new(Arc::new(race), 2, &[]).expect("two players");
    for (name, g, longest) in [("tic-tac-toe", game(&["rulebooks/classic/tic-tac-toe.rules"], 2), 9), ("the race", race, 9)] {
        let r = explore(&g, &[], Budget::default());
        assert!(r.exhausted && r.findings.is_empty(), "{name}: {}", r.verdict());
        let walked = cycles::find(&g, &[], &all_states(&g), &HashSet::new(), 100_000, usize::MAX, &Stop::default());
        assert_eq!((walked.longest, walked.interrupted), (Some(longest), false), "{name}");
        assert_eq!(r.longest, walked.longest, "{name}");
        if name == "the race" {
            assert!(r.depth < longest, "the race's levels ({}) must not already show its longest game", r.depth);
        }
    }
    // Asked to stop, the walk stops within a few thousand steps (tic-tac-
    // toe's walk takes more) and proves nothing.
    let g = game(&["rulebooks/classic/tic-tac-toe.rules"], 2);
    let stop = Stop::default();
    stop.request();
    let walked = cycles::find(&g, &[], &all_states(&g), &HashSet::new(), 100_000, usize::MAX, &stop);
    assert!(walked.interrupted && walked.longest.is_none(), "interrupted: {}, longest {:?}", walked.interrupted, walked.longest);
}

/// A search stopped by its budget walks the moves of the states it
/// expanded, the others being leaves: a loop among the first (both players
/// wait, and the game is back where it began) is found, with its lasso,
/// however far the budget stopped; a loop that needs the moves of a state
/// the budget left unexpanded is not.
#[test]
fn a_search_stopped_by_its_budget_finds_the_loops_among_the_states_it_expanded() {
    let text = "rulebook waiting { players 2..2 }
counter steps 0..30 = 0
round turn {
  for p in players {
    choose go from [0, 1] by p
    steps += go
    if steps == 30 { win p }
  }
}";
    let model = compile(&[Source { name: "waiting.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    for (budget, loop_found) in [(2, false), (3, true), (20, true), (60, true)] {
        let r = explore(&g, &[], Budget { max_states: budget, jobs: 1, ..Budget::default() });
        assert!(!r.exhausted, "{budget}: {}", r.verdict());
        // The depth is that of the deepest state visited, also when the
        // budget stopped the expansion of the level above it.
        assert!(r.depth >= 1, "budget {budget}: depth {}", r.depth);
        let endless = r.findings.iter().find(|f| f.code == "V505");
        assert_eq!(endless.is_some(), loop_found, "budget {budget}: {:?}", r.findings.iter().map(|f| &f.code).collect::<Vec<_>>());
        if let Some(f) = endless {
            let log = f.counterexample.as_ref().expect("a lasso");
            assert_eq!((log.loop_from, log.steps.len()), (Some(0), 2), "budget {budget}");
        }
    }
}

/// Perft counts its last ply from the options offered, without playing it:
/// a rule that fails once the second ply is played does not stop
/// perft(2), which counts the second ply's options, and stops perft(3).
#[test]
fn perft_counts_the_last_ply_without_playing_it() {
    let text = "rulebook failing { players 2..2 }
token chip 1
zone pile of chip
round turn {
  for p in players {
    choose n from [1, 2, 3] by p
    if p == player(2) { move top of pile to box }
  }
}";
    let model = compile(&[Source { name: "failing.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    let count = |d| grimoire_interpreter::validate::perft::perft(&g, d);
    assert_eq!(count(1).map(|p| p.paths).ok(), Some(3));
    assert_eq!(count(2).map(|p| p.paths).ok(), Some(9));
    match count(3) {
        Err(grimoire_interpreter::validate::perft::PerftError::Rule(e)) => assert_eq!(e.kind.code(), "R0005", "{}", e.message),
        other => panic!("perft(3) plays the second ply, whose rule fails: {other:?}"),
    }
}

/// A game whose players can keep it going (at the left end, nobody has to
/// move) and which also loops through dice elsewhere: exhausted, it is
/// V505 and not V506 (the game does not end with probability 1); stopped
/// by a budget before the players' loop, V506 says it holds among the
/// states visited.
#[test]
fn a_chance_loop_is_no_finding_when_the_players_can_go_on_forever() {
    let text = "rulebook mixed { players 2..2 }
spacetype plain
track lane linear { 1..8: plain }
piece flag 1
die d3 3
setup { move flag to space(lane, 4) }
round turn {
  for p in players {
    if pos(flag) == 1 {
      choose d from [0, 1] by p
      if d == 1 { move flag to space(lane, 8) }
    } else {
      roll r = d3
      if r == 3 {
        move flag to space(lane, max(1, pos(flag) - 1))
      } else {
        choose d from [1, 2] by p
        move flag to space(lane, min(8, pos(flag) + d))
      }
    }
    if pos(flag) == 8 { win p }
  }
}";
    let model = compile(&[Source { name: "mixed.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    let codes = |r: &grimoire_interpreter::validate::explore::ExploreReport| r.findings.iter().map(|f| f.code.clone()).collect::<Vec<_>>();
    let whole = explore(&g, &[], Budget { jobs: 1, ..Budget::default() });
    assert!(whole.exhausted, "{}", whole.verdict());
    assert_eq!(codes(&whole), ["V505"]);
    let part = explore(&g, &[], Budget { max_states: 8, jobs: 1, ..Budget::default() });
    assert!(!part.exhausted);
    assert_eq!(codes(&part), ["V506"]);
    assert!(part.findings[0].message.starts_with("among the states visited, the game ends only with probability 1"), "{}", part.findings[0].message);
}

/// A state budget of S visits exactly S states; the one found past it only
/// shows that the search is not exhausted, and the longest game is then
/// unknown (connect four's levels would otherwise "prove" one).
#[test]
fn a_search_stopped_by_its_state_budget_visits_that_many_and_claims_no_longest_game() {
    let g = game(&["rulebooks/classic/connect-four.rules"], 2);
    let r = explore(&g, &[], Budget { max_states: 1000, jobs: 1, ..Budget::default() });
    assert!(!r.exhausted && r.stopped_by.as_deref().is_some_and(|s| s.contains("state budget")), "{:?}", r.stopped_by);
    assert_eq!(r.distinct, 1000);
    assert_eq!(r.longest, None);
}

/// A search cut by its budget says, like a finished one, that its shuffles
/// were sampled (Grail Cup shuffles a deck too large to enumerate).
#[test]
fn a_cut_search_says_its_shuffles_were_sampled() {
    let g = game(&["rulebooks/grail-cup/grail-cup.rules"], 3);
    let r = explore(&g, &[], Budget { max_states: 200, jobs: 1, ..Budget::default() });
    assert!(!r.exhausted && r.sampled_shuffles);
    assert!(r.verdict().contains("not exhausted") && r.verdict().contains("sampled orders only"), "{}", r.verdict());
}

/// An exhausted search through sampled shuffles claims no proof for the
/// game: its verdict says, before anything else, that it holds on the
/// sampled orders only.
#[test]
fn an_exhausted_search_through_sampled_shuffles_says_so_first() {
    let text = "rulebook s { players 1..1 }\ncard c 5 { a x1 b x1 c2 x1 d x1 e x1 }\nzone deck of c hidden ordered\nsetup { move 5 of c from box to deck\n shuffle deck }\nround turn { choose x from [1, 2] by player(1)\n win player(1) }";
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 1, &[]).expect("one player");
    let r = explore(&g, &[], Budget { jobs: 1, ..Budget::default() });
    assert!(r.exhausted && r.sampled_shuffles);
    assert!(r.verdict().starts_with("proven for 1 player on sampled shuffles only"), "{}", r.verdict());
    assert!(!r.verdict().contains("all 5 reachable") && r.verdict().contains("states reachable through them"), "{}", r.verdict());
    // The 24 sampled orders are 24 positions (orders drawn at random
    // repeated one, and the report counted it twice): each leads to its own
    // finished game, as the choice does not matter.
    assert_eq!(r.terminal, 24, "{}", r.verdict());
    // With a violation found, the verdict no longer claimed that every
    // reachable state was visited (an outside author's finding).
    let broken = text.replace("win player(1) }", "if x == 2 { choose y from [z in 1..3 where z > 5] by player(1) }\n win player(1) }");
    let model = compile(&[Source { name: "t.rules".into(), text: broken }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 1, &[]).expect("one player");
    let r = explore(&g, &[], Budget { jobs: 1, ..Budget::default() });
    assert!(r.exhausted && r.sampled_shuffles && !r.findings.is_empty(), "{}", r.verdict());
    assert!(!r.verdict().contains("(all reachable states visited)") && r.verdict().contains("through the sampled shuffles"), "{}", r.verdict());
}

/// Perft counts sequences of plies: chance drawn after the last ply counted
/// is no part of them (each turn rolls a d3, then the player picks 1 to the
/// roll: one ply has 1 + 2 + 3 = 6 sequences, two have 36).
#[test]
fn perft_counts_no_chance_after_its_last_ply() {
    use grimoire_interpreter::validate::perft::perft;
    let text = r#"rulebook dice_add { players 2..2 }
die d3 3
counter score per_player 0..20 = 0
round turn { for p in players { roll r = d3 choose x from 1..r by p score[p] += x if score[p] >= 4 { win p } } }
"#;
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    assert_eq!((perft(&g, 1).expect("counts").paths, perft(&g, 2).expect("counts").paths), (6, 36));
}

/// A game thousands of plies long is counted without overflowing the stack
/// (a coin decides when a player wins; each turn is one forced ply).
#[test]
fn perft_goes_thousands_of_plies_deep() {
    use grimoire_interpreter::validate::perft::perft;
    let text = r#"rulebook coin { players 2..2 }
die coin 2
round turn { for p in players { choose x from [1] by p roll r = coin if r == 2 { win p } } }
"#;
    let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    // One way to reach the 5,000th ply: every coin between two plies comes up 1.
    assert_eq!(perft(&g, 5000).expect("counts").paths, 1);
}

/// When chance can come back to a state with no ply in between (a roll of
/// 1 passes the turn back to the roller), the sequences of one ply are
/// endlessly many: perft says so at the loop instead of walking it for
/// ever. Where every loop has a ply in it, the count is finite.
#[test]
fn perft_has_no_count_when_chance_loops_without_a_ply() {
    use grimoire_interpreter::validate::perft::{perft, PerftError};
    let game = |text: &str| {
        let model = compile(&[Source { name: "t.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
        Game::new(Arc::new(model), 1, &[]).expect("one player")
    };
    let looping = game("rulebook l { players 1..1 }\ndie coin 2\nround turn { for p in players { roll r = coin if r == 2 { choose x from [1, 2] by p win p } } }");
    match perft(&looping, 1) {
        Err(PerftError::Endless { chance_steps, plies }) => assert_eq!((chance_steps, plies), (1, 0)),
        other => panic!("endless, not {other:?}"),
    }
    // The same coin, with the player's choice before it: each loop has a
    // ply. Three plies: two options each, and the coin must come up 1
    // twice in between (a 2 ends the game first).
    let with_ply = game("rulebook l { players 1..1 }\ndie coin 2\nround turn { for p in players { choose x from [1, 2] by p roll r = coin if r == 2 { win p } } }");
    assert_eq!(perft(&with_ply, 3).expect("counts").paths, 2 * 2 * 2);
}

/// A shuffle of more distinct orders than the explorer enumerates is
/// counted through a sample of its orders, and perft says so; alike cards
/// in any order are one position, so their shuffle has fewer orders.
#[test]
fn perft_says_when_it_counted_sampled_shuffles() {
    use grimoire_interpreter::validate::perft::perft;
    let game = |cards: u32, variants: &str| {
        let text = format!("rulebook s {{ players 1..1 }}\ncard c {cards} {variants}\nzone deck of c hidden ordered\nsetup {{ move {cards} of c from box to deck\n shuffle deck }}\nround turn {{ choose x from [1, 2] by player(1)\n win player(1) }}");
        let model = compile(&[Source { name: "t.rules".into(), text }]).unwrap_or_else(|d| panic!("{d:?}"));
        Game::new(Arc::new(model), 1, &[]).expect("one player")
    };
    // 4 different cards: 24 orders, all enumerated.
    assert!(!perft(&game(4, "{ v1 v2 v3 v4 }"), 1).expect("counts").sampled_shuffle);
    // 5 different cards: 120 orders, more than the 24 the explorer enumerates.
    assert!(perft(&game(5, "{ v1 v2 v3 v4 v5 }"), 1).expect("counts").sampled_shuffle);
    // 5 alike cards lie in one order; 3 kings and 2 queens in 10: all
    // enumerated, each one state after the shuffle, then one finished
    // game (both options win in the same position): 1 + 1 states, or the
    // chance node's state + 10 + 10 (the 120 orders made 24 samples).
    for (variants, states) in [("", 2), ("{ king x3 queen x2 }", 1 + 10 + 10)] {
        let g = game(5, variants);
        assert!(!perft(&g, 1).expect("counts").sampled_shuffle, "{variants}");
        let report = explore(&g, &[], Budget::default());
        assert!(!report.sampled_shuffles && report.exhausted, "{variants}");
        assert_eq!(report.distinct, states, "{variants}");
    }
}

/// The tools that try every option copy a state with only the option taken
/// (`Game::after`, `Game::apply_copy`): the state each option leads to is
/// the one `apply` on a whole copy gives, for one binding and for tuples,
/// and an option that does not exist is the same error.
#[test]
fn taking_an_option_from_a_copy_without_the_others_gives_the_same_state() {
    for (file, players) in [("rulebooks/classic/tic-tac-toe.rules", 2), ("rulebooks/classic/breakthrough.rules", 2), ("rulebooks/grail-cup/grail-cup.rules", 3)] {
        let g = game(&[file], players);
        let mut st = g.start(7).expect("starts");
        let mut into = st.clone();
        for _ in 0..12 {
            let Some((_, options)) = g.choices(&st) else { break };
            let n = options.len();
            for i in 0..n {
                let mut whole = st.clone();
                let expected = g.apply(&mut whole, i).map_err(|e| e.message);
                let (after, result) = g.after(&st, i);
                assert_eq!(result.map_err(|e| e.message), expected, "{file}: option {i}");
                assert_eq!(after.fingerprint(), whole.fingerprint(), "{file}: option {i} of {n}");
                let copied = g.apply_copy(&st, &mut into, i).map_err(|e| e.message);
                assert_eq!(copied, expected, "{file}: option {i}");
                assert_eq!(into.fingerprint(), whole.fingerprint(), "{file}: option {i} of {n}, into a used state");
            }
            let (_, missing) = g.after(&st, n);
            assert!(missing.is_err_and(|e| e.message.contains("does not exist")), "{file}: option {n} of {n}");
            g.apply(&mut st, n / 2).expect("a legal option");
        }
    }
}

/// A state the budget leaves waiting in the last level, unexpanded, is
/// still inside what the verdict speaks of: its invariants are checked when
/// it is reached (a chip lost at depth 3 of a level of 1,000 was missed
/// with a budget that reached it, while the verdict said no component was
/// lost).
#[test]
fn a_broken_invariant_in_a_state_left_unexpanded_is_found() {
    let text = "rulebook digits { players 1..1 }\ntoken chip 2\nzone pool of chip\ncounter code 0..999 = 0\ncounter turns 0..9 = 0\n\
                setup { move 2 of chip from box to pool }\n\
                round turn { choose x from 0..9 by player(1)\n code = (code * 10 + x) % 1000\n turns += 1\n if code == 739 { move 1 of chip from pool to box }\n if turns == 4 { win player(1) } }\n";
    let model = compile(&[Source { name: "digits.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 1, &[]).expect("one player");
    // 1 + 10 + 100 states reach depth 2; 1,000 more are at depth 3, where
    // the chip is lost: a budget of 1,200 reaches them all and expands
    // none of them.
    let r = explore(&g, &[], Budget { max_states: 1_200, jobs: 1, ..Budget::default() });
    assert!(!r.exhausted, "the budget stops it");
    assert!(r.findings.iter().any(|f| f.code == "V501"), "{:#?}", r.findings);
}

/// A state of 30,000 options whose children have as many (each child's
/// options are computed, packed and fingerprinted: billions of steps) is
/// stopped in the middle of its expansion when asked, not when it is done:
/// a hostile tester's 10,000 options a decision ignored SIGTERM for minutes
/// and grew past 4 GB. Nothing of the unfinished state is kept.
#[test]
fn a_stop_request_is_heard_in_the_middle_of_a_wide_state() {
    let text = "rulebook wide { players 2..2 }
counter s per_player 0..1000000000 = 0
round turn { for p in players { choose n from 1..30000 by p
 s[p] += n } }
";
    let model = compile(&[Source { name: "wide.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 2, &[]).expect("two players");
    let stop = Stop::default();
    let asker = stop.clone();
    let timer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        asker.request();
    });
    let r = grimoire_interpreter::validate::explore::explore_until(&g, &[], Budget::default(), &|_| {}, &stop);
    timer.join().expect("the timer thread");
    assert!(r.interrupted, "{}", r.verdict());
    assert_eq!(r.distinct, 1, "the start only: its expansion was cut short");
}

/// A deck of three suits: a player draws its top card, puts a card of
/// their hand under the deck, or shuffles it (a chance decision when
/// exploring), so pieces leave a zone from its back and from its middle
/// and arrive at its back and at its front.
const SHUFFLED_DECK: &str = r#"
rulebook deck { players 2..2 }
piece red 3
piece blue 3
piece green 2
zone pile
zone hand per_player
setup { move all of box to pile }
round turn {
  for p in players {
    choose what from [1, 2, 3] by p
    if what == 1 and count(pile) > 0 { move top(pile) to hand[p] }
    else if what == 2 and count(hand[p]) > 0 {
      choose c from hand[p] by p
      move c to pile bottom
    } else { shuffle pile }
  }
}
"#;

/// An explored state keeps the hashes of its zones move by move (a piece
/// put at the back or the front, taken from either end or from the middle,
/// a shuffle as a chance decision): its fingerprint must be the one worked
/// out from its zones, which a state read back from its packed bytes gets,
/// and the one of the state the explorer reads back (hashes kept again).
#[test]
fn a_fingerprint_kept_move_by_move_is_the_one_worked_out_from_the_zones() {
    let cases: &[(&[&str], u8)] = &[
        (&["rulebooks/classic/connect-four.rules"], 2),
        (&["rulebooks/classic/breakthrough.rules"], 2),
        (&["rulebooks/classic/reversi.rules"], 2),
        (&["rulebooks/grail-cup/grail-cup.rules"], 3),
        (&["rulebooks/merlin/merlin.rules"], 4),
        (&["rulebooks/camelot/camelot.rules"], 3),
        (&["rulebooks/camelot/camelot.rules", "rulebooks/camelot/compagnie-de-merlin.rules"], 4),
    ];
    let deck = compile(&[Source { name: "deck.rules".into(), text: SHUFFLED_DECK.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let deck = Game::new(Arc::new(deck), 2, &[]).expect("two players");
    let games = cases.iter().map(|(files, players)| (format!("{files:?}"), game(files, *players))).chain([("the deck".to_string(), deck)]);
    for (files, g) in games {
        let mut compared = 0;
        for seed in 0..6u64 {
            let mut st = g.start_exploring().expect("starts");
            let (mut read_back, mut read_keeping) = (st.clone(), st.clone());
            let mut bytes = Vec::new();
            let mut pick = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            for _ in 0..400 {
                bytes.clear();
                st.pack(&mut bytes);
                read_back.unpack(&bytes).expect("a state of this game");
                g.unpack_explored(&mut read_keeping, &bytes).expect("a state of this game");
                let fp = g.canonical_fingerprint(&st);
                assert_eq!(fp, g.canonical_fingerprint(&read_back), "{files:?}, seed {seed}, after {} plies", st.plies);
                assert_eq!(fp, g.canonical_fingerprint(&read_keeping), "{files:?}, seed {seed}, after {} plies, read back by the explorer", st.plies);
                compared += 1;
                let Some((_, options)) = g.choices(&st) else { break };
                pick ^= pick << 13;
                pick ^= pick >> 7;
                pick ^= pick << 17;
                let choice = (pick % options.len() as u64) as usize;
                if g.apply(&mut st, choice).is_err() {
                    break;
                }
            }
        }
        assert!(compared > 100, "{files:?}: {compared} states compared");
    }
}
