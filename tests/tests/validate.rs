//! The validator on its fixtures: each broken rulebook in
//! `fixtures/validate/` names the findings it must produce
//! (`# finding[CODE]: message part`), each counterexample replays to the
//! failure, and the sound fixture passes and is proven by exploration.

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{replay, ReplayError};
use grimoire_interpreter::validate::explore::{explore, Budget};
use grimoire_interpreter::validate::{validate, Config, Report, Severity, SourceText};
use grimoire_interpreter::{compile, Source};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate")
}

fn load(name: &str) -> (Arc<grimoire_interpreter::Model>, String) {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    let model = compile(&[Source { name: format!("fixtures/validate/{name}"), text: text.clone() }]).unwrap_or_else(|d| panic!("{name} does not compile: {d:?}"));
    (Arc::new(model), text)
}

/// A rulebook written in a test, compiled (it must compile).
fn compiled(name: &str, text: &str) -> Arc<grimoire_interpreter::Model> {
    Arc::new(compile(&[Source { name: name.into(), text: text.into() }]).unwrap_or_else(|d| panic!("{name}: {d:?}")))
}

fn run(name: &str) -> (Report, String) {
    let (model, text) = load(name);
    let source = SourceText { name: "source.txt".into(), text: std::fs::read_to_string(dir().join("source.txt")).ok() };
    let cfg = Config { games: 40, max_decisions: 200, rulebook: vec![dir().join(name).display().to_string()], ..Config::default() };
    (validate(model, &[source], &cfg), text)
}

/// `# finding[CODE]: part of the message` lines.
fn expected(text: &str) -> Vec<(String, String)> {
    tagged(text, "finding")
}

/// `# TAG[CODE]: part` lines (`finding`, `help`), as (code, part).
fn tagged(text: &str, tag: &str) -> Vec<(String, String)> {
    let prefix = format!("# {tag}[");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .filter_map(|l| l.split_once("]:"))
        .map(|(code, msg)| (code.to_string(), msg.trim().to_string()))
        .collect()
}

fn broken_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("fixture folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".rules") && n != "sound.rules")
        .collect();
    names.sort();
    names
}

#[test]
fn every_broken_fixture_is_caught_with_its_code_and_only_that() {
    let names = broken_fixtures();
    assert!(names.len() >= 10, "expected the ten broken fixtures, found {names:?}");
    for name in names {
        let (report, text) = run(&name);
        let want = expected(&text);
        assert!(!want.is_empty(), "{name} names no expected finding");
        for (code, part) in &want {
            let hit = report.findings.iter().any(|f| &f.code == code && f.message.contains(part.as_str()));
            assert!(hit, "{name}: expected {code} containing {part:?}, got {:#?}", report.findings.iter().map(|f| (&f.code, &f.message)).collect::<Vec<_>>());
        }
        for f in report.findings.iter().filter(|f| f.severity == Severity::Error) {
            assert!(want.iter().any(|(c, _)| *c == f.code), "{name}: unexpected error {} {}", f.code, f.message);
        }
        // `# help[CODE]: part`: a finding of that code whose help says it.
        for (code, part) in tagged(&text, "help") {
            let hit = report.findings.iter().any(|f| f.code == code && f.help.as_deref().is_some_and(|h| h.contains(part.as_str())));
            assert!(hit, "{name}: expected the help of a {code} to contain {part:?}");
        }
        // `warn_*` fixtures plant what only deserves a warning: they pass.
        if name.starts_with("warn_") {
            assert_eq!(report.errors(), 0, "{name} must pass validation with its warnings");
            for f in report.findings.iter().filter(|f| f.severity == Severity::Warning) {
                assert!(want.iter().any(|(c, part)| *c == f.code && f.message.contains(part.as_str())), "{name}: unexpected warning {} {}", f.code, f.message);
            }
        } else {
            assert!(report.errors() > 0, "{name} must fail validation");
        }
    }
}

#[test]
fn dynamic_findings_point_at_the_rulebook_and_replay_to_the_failure() {
    for name in broken_fixtures() {
        let (report, _) = run(&name);
        let (model, _) = load(&name);
        for f in report.findings.iter().filter(|f| f.counterexample.is_some()) {
            let log = f.counterexample.as_ref().expect("checked");
            let game = Game::new(model.clone(), log.players, &log.options).expect("log's player count is valid");
            let replayed = replay(&game, log);
            match f.code.as_str() {
                // A game that does not end is a game that is still running at the bound.
                "V503" => {
                    let st = replayed.expect("an endless game replays without error");
                    assert!(!st.is_over(), "{name}: the endless counterexample must not be over");
                    assert_eq!(st.decisions as usize, log.steps.len());
                }
                // A lasso replays to its end and comes back where its loop began.
                "V505" | "V506" => {
                    assert!(log.loop_from.is_some_and(|l| l < log.steps.len()), "{name}: a lasso has a loop");
                    let st = replayed.unwrap_or_else(|e| panic!("{name}: the lasso must replay: {e}"));
                    assert!(!st.is_over(), "{name}: a loop does not end the game");
                }
                // Replayed, it says where, as the finding did.
                "V501" | "V504" => assert!(matches!(&replayed, Err(ReplayError::Invariant { code, at, .. }) if *code == f.code && at.is_some() && *at == f.at), "{name}: {replayed:?} / {:?}", f.at),
                code => match replayed {
                    Err(ReplayError::Exec { error, .. }) => {
                        let expected_code = if code == "V101" { "R0005" } else { code };
                        assert_eq!(error.kind.code(), expected_code, "{name}");
                        assert!(error.at.is_some(), "{name}: the failure must point at the rulebook");
                    }
                    other => panic!("{name}: {code} counterexample should stop with an error, got {other:?}"),
                },
            }
        }
    }
}

#[test]
fn the_sound_fixture_passes_and_is_proven_by_exploration() {
    let (report, _) = run("sound.rules");
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert_eq!(report.trace.not_found, 0);
    assert!(report.trace.sources.iter().all(|s| s.uncited.is_empty()));
    let (model, _) = load("sound.rules");
    for players in 2..=3 {
        let game = Game::new(model.clone(), players, &[]).expect("valid count");
        let r = explore(&game, &[], Budget { max_states: 100_000, max_depth: 1000, ..Budget::default() });
        assert!(r.exhausted, "{players} players: {}", r.verdict());
        assert!(r.findings.is_empty());
        assert!(r.terminal > 0);
        assert_eq!(r.terminal as u32, r.wins_by_seat.iter().sum::<u32>() + r.other_endings);
    }
}

#[test]
fn exploration_finds_the_planted_deadlock_with_a_replayable_path() {
    let (model, _) = load("deadlock.rules");
    let game = Game::new(model, 2, &[]).expect("valid count");
    let r = explore(&game, &[], Budget { max_states: 10_000, max_depth: 100, ..Budget::default() });
    let f = r.findings.iter().find(|f| f.code == "R0001").expect("the deadlock is found");
    let log = f.counterexample.as_ref().expect("with a path");
    assert!(log.exploring);
    assert!(matches!(replay(&game, log), Err(ReplayError::Exec { .. })));
}

#[test]
fn a_budget_too_small_is_reported_as_not_exhausted() {
    let (model, _) = load("sound.rules");
    let game = Game::new(model, 3, &[]).expect("valid count");
    let r = explore(&game, &[], Budget { max_states: 10, max_depth: 1000, ..Budget::default() });
    assert!(!r.exhausted);
    assert!(r.verdict().starts_with("not exhausted"), "{}", r.verdict());
}

#[test]
fn validator_reports_read_well() {
    let mut out = String::new();
    for name in broken_fixtures() {
        let (report, _) = run(&name);
        out.push_str(&format!("{name}\n"));
        for f in report.findings.iter().filter(|f| f.severity == Severity::Error) {
            let players = f.players.map(|p| format!(" [{p} players, seed {}]", f.seed.unwrap_or(0))).unwrap_or_default();
            out.push_str(&format!("  {} {}{players}\n", f.code, f.message));
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn a_module_can_replace_the_board_of_a_real_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = root.join("../rulebooks/grail-cup/grail-cup.rules");
    let module = root.join("fixtures/explore/grail-cup-short-track.rules");
    let sources: Vec<Source> = [base, module]
        .iter()
        .map(|p| Source { name: p.display().to_string(), text: std::fs::read_to_string(p).expect("file exists") })
        .collect();
    let model = Arc::new(compile(&sources).unwrap_or_else(|d| panic!("{d:?}")));
    let track = model.tracks.iter().find(|t| t.name == "path").expect("the track is still called path");
    assert_eq!(track.spaces.len(), 12, "the module's track replaced the base's");
    let game = Game::new(model, 3, &[]).expect("valid count");
    for seed in 0..50 {
        let c = grimoire_interpreter::validate::simulate::play_checked(&game, &[], seed, 1000);
        assert!(c.problem.is_none(), "seed {seed}: {:?}", c.problem);
        let st = c.state.expect("played");
        assert!(st.is_over());
        assert!(st.round <= 4, "on 12 spaces a game lasts a few turns, not {}", st.round);
    }
}

#[test]
fn every_combination_of_a_few_options_is_played_and_pairs_beyond() {
    use grimoire_interpreter::validate::simulate::option_sets;
    let (model, _) = load("two_options.rules");
    let sets = option_sets(&model, None);
    assert_eq!(sets.len(), 8, "three options: every combination");
    assert!(sets.contains(&vec!["fast".to_string(), "slow".to_string()]), "{sets:?}");
    assert_eq!(option_sets(&model, Some(&["calm".to_string()])), vec![vec!["calm".to_string()]]);
    let (report, _) = run("two_options.rules");
    let f = report.findings.iter().find(|f| f.code == "R0001").expect("the fault that needs two options is found");
    assert_eq!(f.options, ["fast", "slow"]);
    // Seven options: none, 7 alone, 21 pairs, all.
    let mut m = (*model).clone();
    m.options = (0..7).map(|i| format!("o{i}")).collect();
    let sets = option_sets(&m, None);
    assert_eq!(sets.len(), 30);
    for i in 0..7 {
        for j in 0..7 {
            if i != j {
                let (a, b) = (format!("o{i}"), format!("o{j}"));
                assert!(sets.iter().any(|s| s.contains(&a) && !s.contains(&b)), "{a} on, {b} off");
                assert!(sets.iter().any(|s| s.contains(&a) && s.contains(&b) && s.len() == 2), "{a} and {b} alone");
            }
        }
    }
}

#[test]
fn coverage_guided_games_reach_a_fault_behind_five_unlikely_rolls() {
    // Five sixes in a row, each behind the last: 1 chance in 7,776 per game.
    let text = r#"rulebook nested { players 2..2 }
die d6 6 assume "x"
token chip 2 assume "x"
zone pile of chip assume "x"
zone spent of chip assume "x"
setup assume "x" { move 2 of chip from box to pile }
round turn assume "x" {
  roll a = d6
  if a == 6 { roll b = d6
    if b == 6 { roll c = d6
      if c == 6 { roll d = d6
        if d == 6 { roll e = d6
          if e == 6 { move 3 of chip from pile to spent } } } } }
  win player(1)
}"#;
    let model = Arc::new(compile(&[Source { name: "nested.rules".into(), text: text.into() }]).expect("compiles"));
    let run = |guided_games| validate(model.clone(), &[], &Config { games: 40, max_decisions: 200, explore_states: 0, guided_games, ..Config::default() });
    assert!(run(0).findings.iter().all(|f| f.code != "R0005"), "40 random games should not meet five sixes");
    let report = run(3);
    let f = report.findings.iter().find(|f| f.code == "R0005").expect("the guided games steer the dice to the fault");
    let log = f.counterexample.as_ref().expect("with a path");
    let game = Game::new(model.clone(), 2, &[]).expect("valid");
    assert!(matches!(replay(&game, log), Err(ReplayError::Exec { .. })), "the path replays to the fault");
}

/// Steered toward the rarest branch, chance could hold a loop going for as
/// long as the loop's body stayed rarer than the way out: here a reshuffle
/// that turns the marked card up again, while every other branch looks
/// run a million times. A branch draws the steering 16 times in one game
/// at most; after that chance is random, and leaves the loop in a few
/// shuffles (3 in 4 orders do).
#[test]
fn guided_games_do_not_hold_a_loop_of_chance_going() {
    use grimoire_interpreter::validate::search::{guided, GUIDED_REPEATS};
    let text = r#"rulebook reshuffle { players 2..2 }
piece tile 4 assume "x"
var marked per_piece tile : bool = false assume "x"
zone deck of tile ordered assume "x"
counter turns 0..100 = 0 assume "x"
setup assume "x" {
  move 4 of tile from box to deck
  marked[top(deck)] = true
  shuffle deck
  while marked[top(deck)] { shuffle deck }
}
round turn assume "x" {
  for p in players {
    turns += 1
    if turns >= 6 { win p }
  }
}"#;
    let model = Arc::new(compile(&[Source { name: "reshuffle.rules".into(), text: text.into() }]).expect("compiles"));
    let cfg = Config { games: 1, max_decisions: 100_000, explore_states: 0, guided_games: 4, ..Config::default() };
    let mut branches = validate(model.clone(), &[], &Config { guided_games: 0, ..cfg.clone() }).branches;
    let body = branches.iter().position(|b| b.what.contains("while")).expect("the loop's body is a branch");
    for (i, b) in branches.iter_mut().enumerate() {
        b.runs = if i == body { 0 } else { 1_000_000 };
    }
    let fired = vec![1_000_000; model.procs.len()];
    let after = guided(&model, &cfg, &[], &branches, &fired);
    let loops = after.branches[body];
    assert!(loops >= u64::from(GUIDED_REPEATS), "the steering goes for the rare body: {loops}");
    assert!(loops < 4 * u64::from(GUIDED_REPEATS) + 200, "4 games ran the loop's body {loops} times");
}

/// A component that vanishes into the box is reported at the statement that
/// moved it there, by the random games and by the exploration alike.
#[test]
fn a_leak_points_at_the_move_into_the_box() {
    let (report, text) = run("leak.rules");
    let line_of = |f: &grimoire_interpreter::validate::Finding| f.at.map(|at| text[..at.span.start].lines().count());
    let leaks: Vec<_> = report.findings.iter().filter(|f| f.code == "V501").collect();
    assert!(!leaks.is_empty(), "{:#?}", report.findings);
    for f in leaks {
        assert_eq!(line_of(f), Some(9), "`move top of pile to box` is on line 9: {f:?}");
    }
}

/// A branch that only rule errors keep from running is not called
/// unreachable: the games stopped before it.
#[test]
fn a_branch_after_a_rule_error_is_not_called_unreachable() {
    // After a rule error, and after a broken invariant: both stop the games.
    for fixture in ["branch_after_error.rules", "branch_after_invariant.rules"] {
        let (report, _) = run(fixture);
        let dead: Vec<_> = report.findings.iter().filter(|f| f.code == "V204").collect();
        assert_eq!(dead.len(), 1, "{fixture}: {:#?}", report.findings);
        assert!(dead[0].message.contains("rule errors and broken invariants found above stop the games"), "{fixture}: {}", dead[0].message);
        assert!(!dead[0].help.as_deref().unwrap_or("").contains("no game can reach it"), "{fixture}: {:?}", dead[0].help);
    }
}

/// Two exceptions in conflict stop every game that calls them both (R0009):
/// V203 says they never fired, and its help says why they may not have.
#[test]
fn a_rule_cut_off_by_rule_errors_is_not_called_dead() {
    let (report, _) = run("conflict.rules");
    let unfired: Vec<_> = report.findings.iter().filter(|f| f.code == "V203").collect();
    assert!(!unfired.is_empty(), "{:#?}", report.findings);
    for f in unfired {
        // `double` and `halve` are exceptions, and are named so.
        assert!(f.message.starts_with("the exception `"), "{}", f.message);
        let help = f.help.as_deref().unwrap_or("");
        assert!(help.contains("games stopped at rule errors") && !help.contains("may be dead"), "{help}");
    }
}

/// A search through the sampled orders of a shuffle too large to enumerate
/// is no proof that a branch is unreachable: V204 says what was searched,
/// and the report marks the configuration (four different cards, 24
/// orders, are all searched; five, 120 orders, are sampled).
#[test]
fn a_branch_unseen_in_sampled_shuffles_is_not_called_unreachable() {
    for (cards, sampled) in [("{ v1 v2 v3 v4 }", false), ("{ v1 v2 v3 v4 v5 }", true)] {
        let n = if sampled { 5 } else { 4 };
        let text = format!(
            "rulebook s {{ players 1..1 }}\ncard c {n} {cards}\nzone deck of c hidden ordered\nsetup {{ move {n} of c from box to deck\n shuffle deck }}\nround turn {{ choose x from [1, 2] by player(1)\n if count(deck) == 9 {{ win player(1) }}\n end }}"
        );
        let model = compile(&[Source { name: "s.rules".into(), text }]).unwrap_or_else(|d| panic!("{d:?}"));
        let report = validate(Arc::new(model), &[], &Config { games: 5, guided_games: 0, ..Config::default() });
        assert_eq!(report.searched.iter().map(|s| (s.exhausted, s.sampled_shuffles)).collect::<Vec<_>>(), [(true, sampled)], "{cards}");
        let dead: Vec<_> = report.findings.iter().filter(|f| f.code == "V204").collect();
        assert_eq!(dead.len(), 1, "{cards}: {:#?}", report.findings);
        assert_eq!(dead[0].message.contains("visited them all"), !sampled, "{cards}: {}", dead[0].message);
        assert_eq!(dead[0].message.contains("through the orders it sampled"), sampled, "{cards}: {}", dead[0].message);
    }
}

/// A game that fails before its first decision has no state to search:
/// the search says why it stopped, and V204 names the rule error.
#[test]
fn a_search_of_a_game_that_fails_at_once_says_why_it_stopped() {
    let text = "rulebook s { players 1..1 }\nround turn { choose x from 8..9 where x < 3 by player(1)\n if x == 8 { win player(1) }\n end }";
    let model = compile(&[Source { name: "s.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let report = validate(Arc::new(model), &[], &Config { games: 5, guided_games: 0, ..Config::default() });
    let searched = &report.searched[0];
    assert!(!searched.exhausted && searched.stopped_by.as_deref().is_some_and(|s| s.starts_with("a rule error before the first decision")), "{searched:?}");
    let dead: Vec<_> = report.findings.iter().filter(|f| f.code == "V204").collect();
    assert!(!dead.is_empty() && dead.iter().all(|f| f.message.contains("rule errors and broken invariants found above stop the games")), "{:#?}", report.findings);
    // `explore` says the same, and counts the time the run to the failure took.
    let model = compile(&[Source { name: "s.rules".into(), text: text.into() }]).unwrap_or_else(|d| panic!("{d:?}"));
    let g = Game::new(Arc::new(model), 1, &[]).expect("one player");
    let explored = explore(&g, &[], Budget { jobs: 1, ..Budget::default() });
    assert!(explored.stopped_by.is_some() && !explored.exhausted && explored.seconds > 0.0, "{:?} {}", explored.stopped_by, explored.seconds);
}

/// A source text that holds nothing (an extraction gone wrong) covers
/// "100 %" of its no paragraphs: T012 says so instead of letting it pass
/// for complete.
#[test]
fn an_empty_source_text_is_a_finding_not_full_coverage() {
    use grimoire_interpreter::validate::trace;
    let (model, _) = load("warn_constant.rules");
    for blank in ["", "\n  \n\t\n"] {
        let (report, findings) = trace::check(&model, &[SourceText { name: "source.txt".into(), text: Some(blank.into()) }]);
        assert_eq!(report.sources.first().map(|s| s.paragraphs), Some(0));
        let empty: Vec<_> = findings.iter().filter(|f| f.code == "T012").collect();
        assert_eq!(empty.len(), 1, "{findings:#?}");
        assert!(empty[0].message.contains("`source.txt` holds no paragraph") && empty[0].severity == Severity::Warning);
    }
    let (_, findings) = trace::check(&model, &[SourceText { name: "source.txt".into(), text: Some("Petit jeu de test\n".into()) }]);
    assert!(findings.iter().all(|f| f.code != "T012"));
}

/// An invariant is checked where a player decides and when the game ends,
/// never in the middle of a rule: a six rolled again by a `while` is not a
/// broken "never a six", though the exhaustive search stops at the roll
/// (chance decides there) before the `while` rolls again. Random games
/// and the search must agree (an outside rule author's finding: the
/// search reported V504, 20,000 random games nothing). A six that stays
/// until the player decides is still caught.
#[test]
fn an_invariant_is_not_checked_where_chance_decides_in_the_middle_of_a_rule() {
    let book = |again: &str| {
        format!(
            "rulebook reroll {{ players 2..2 assume \"test\" }}\n\
             die d6 6\n\
             counter shown per_player 0..6 = 0 assume \"the die kept in front of the player\"\n\
             invariant never_a_six per_player p: shown[p] != 6 assume \"a six is always rolled again\"\n\
             round turn times 3 assume \"test\" {{\n\
               for p in players {{\n\
                 let again = true\n\
                 while again {{\n\
                   roll r = d6\n\
                   shown[p] = r\n\
                   again = {again}\n\
                 }}\n\
                 choose k from [1, 2] by p prompt \"keep going?\"\n\
               }}\n\
               if round_number == 3 {{ win player(1) }}\n\
             }}\n"
        )
    };
    let explore_finds = |again: &str| {
        let model = compiled("reroll.rules", &book(again));
        let game = Game::new(model, 2, &[]).expect("two players");
        let report = explore(&game, &[], Budget { max_states: 20_000, jobs: 1, ..Budget::default() });
        report.findings.iter().map(|f| f.code.clone()).collect::<Vec<_>>()
    };
    // (A six rolled again may come back forever: V506, rightly.)
    let rerolled = explore_finds("r == 6");
    assert!(!rerolled.iter().any(|c| c == "V504"), "a six rolled again breaks nothing: {rerolled:?}");
    assert!(explore_finds("false").iter().any(|c| c == "V504"), "a six kept until the decision is caught");
}

/// Nor at a forced move (one option), which the exploring game stops at
/// and the random games do not (an outside game author's finding).
#[test]
fn an_invariant_is_not_checked_at_a_forced_move() {
    let book = |forced: &str| {
        format!(
            "rulebook inv_forced {{ players 1..1 assume \"x\" }}\n\
             counter a 0..10 = 0 assume \"x\"\ncounter b 0..10 = 0 assume \"x\"\n\
             invariant same: a == b assume \"x\"\n\
             round turn assume \"x\" {{\n  a += 1\n  choose y from {forced} by player(1)\n  b += 1\n  choose x from [1, 2] by player(1)\n  if a == 3 {{ end }}\n}}\n"
        )
    };
    let found = |forced: &str| {
        let model = compiled("f.rules", &book(forced));
        let game = Game::new(model, 1, &[]).expect("one player");
        explore(&game, &[], Budget { max_states: 1000, jobs: 1, ..Budget::default() }).findings.iter().map(|f| f.code.clone()).collect::<Vec<_>>()
    };
    assert!(!found("[7]").iter().any(|c| c == "V504"), "one option: not a decision");
    assert!(found("[7, 8]").iter().any(|c| c == "V504"), "two options: a decision, where the invariant is broken");
}

/// `space(BOARD, i)` past the board names the board as it is declared: a
/// graph has nodes and a grid cells (it said "off the track" of a graph,
/// an outside tester's finding), with the numbers it does have.
#[test]
fn a_space_past_the_board_is_named_as_its_board() {
    let first_error = |board: &str, name: &str| {
        let text = format!("rulebook b {{ players 1..1 }}\n{board}\ncounter n 0..99 = 0\nsetup {{ n = index(space({name}, 5)) }}\nround turn {{ end }}\n");
        let model = compiled("b.rules", &text);
        let game = Game::new(model, 1, &[]).expect("one player");
        game.start(0).expect_err("space 5 is past the board").message
    };
    let graph = first_error("graph land {\n  node north\n  node mill\n  edge north - mill\n}", "land");
    assert_eq!(graph, "the graph `land` has no node 5 (its nodes are numbered 1 to 2)");
    let grid = first_error("grid board 2 x 2", "board");
    assert_eq!(grid, "the grid `board` has no cell 5 (its cells are numbered 1 to 4, row by row)");
    let track = first_error("track lane linear { 1..3: plain }\nspacetype plain", "lane");
    assert_eq!(track, "space 5 is off the track `lane` (its spaces are numbered 1 to 3)");
}

/// The random games of a configuration stop at the first whose rules loop
/// (R0002): each burns the whole fuel of a decision, and a thousand of them
/// took an outside rule author's validation over an hour for one finding.
/// The games kept are those up to the first loop, whatever the threads,
/// and the findings that count games say how many were played.
#[test]
fn the_games_of_a_configuration_stop_at_the_first_loop() {
    // Player 1 loops when his roll is a 6; the others play on.
    let text = "rulebook spin { players 2..2 step_fuel 1000 assume \"test\" }\n\
        die d6 6 assume \"test\"\n\
        round turn assume \"test\" {\n\
          roll r = d6\n\
          while r == 6 { pass }\n\
          choose k from [1, 2] by player(1)\n\
          if k == 2 { win player(2) } else { win player(1) }\n\
        }\n\
        rule spare assume \"test\" { pass }\n";
    let model = compiled("spin.rules", text);
    let runs = |jobs: usize| {
        let cfg = Config { games: 200, max_decisions: 50, explore_states: 0, guided_games: 0, jobs, rulebook: vec!["spin.rules".into()], ..Config::default() };
        validate(model.clone(), &[], &cfg)
    };
    let (one, two) = (runs(1), runs(2));
    let played = |r: &Report| r.runs.iter().map(|x| (x.games, x.failed)).collect::<Vec<_>>();
    assert_eq!(played(&one), played(&two), "the same games on any number of threads");
    let (games, failed) = played(&one)[0];
    assert!(games < 200 && failed == 1, "the games stop at the first loop: {games} played, {failed} failed");
    let seed = one.findings.iter().find(|f| f.code == "R0002").and_then(|f| f.seed).expect("R0002 with its seed");
    assert_eq!(u64::from(games), seed + 1, "every game up to the looping one is played");
    let never = one.findings.iter().find(|f| f.code == "V203").expect("`spare` never fires");
    assert!(never.message.contains(&format!("the {games} random games played (of 200 per configuration")), "{}", never.message);
}

/// Games that do not end are one V503, wherever each stopped (each game
/// stopped at whichever decision its last one was, and an outside rule
/// author got eleven findings for one fault).
#[test]
fn games_that_do_not_end_are_one_finding() {
    let text = "rulebook loop { players 2..3 assume \"test\" }\n\
        round turn assume \"test\" {\n\
          choose a from [1, 2] by player(1)\n\
          if a == 1 { choose b from [1, 2, 3] by player(2) }\n\
        }\n";
    let model = compiled("loop.rules", text);
    let cfg = Config { games: 20, max_decisions: 7, explore_states: 0, guided_games: 0, jobs: 1, rulebook: vec!["loop.rules".into()], ..Config::default() };
    let report = validate(model, &[], &cfg);
    let endless: Vec<_> = report.findings.iter().filter(|f| f.code == "V503").collect();
    assert_eq!(endless.len(), 1, "{endless:#?}");
    assert_eq!(endless[0].seed, Some(0), "the smallest seed's");
}

/// An invariant is checked when the game ends, so finished games it tells
/// apart are not one state: a draw in round 3, which `round_number <= 2`
/// forbids, was merged with the draw of round 1 (the round of a finished
/// game was left out of its state) and the explorer said the game proven
/// (an outside adversary's finding).
#[test]
fn finished_games_an_invariant_tells_apart_are_not_merged() {
    let text = "rulebook end_merge { players 1..1 assume \"t\" }\n\
        invariant early: round_number <= 2 assume \"t\"\n\
        round turn assume \"t\" {\n\
          if round_number == 1 {\n\
            choose k from [1, 2] by player(1)\n\
            if k == 1 { draw }\n\
          } else {\n\
            choose f from [1, 2] by player(1)\n\
            if round_number == 3 { draw }\n\
          }\n\
        }\n";
    let model = compiled("e.rules", text);
    let game = Game::new(model, 1, &[]).expect("one player");
    let report = explore(&game, &[], Budget { max_states: 1000, jobs: 1, ..Budget::default() });
    assert!(report.findings.iter().any(|f| f.code == "V504"), "{:?}", report.findings);
}

/// A rule the exhaustive search ran is not reported as never fired, even
/// when the random games met a rule error (V203 said "never fired" though
/// the search had run it: an outside adversary's finding).
#[test]
fn a_rule_the_search_ran_is_not_never_fired() {
    let text = "rulebook v203_err { players 2..2 assume \"t\" }\n\
        die d 1000 assume \"t\"\n\
        counter n 0..10 assume \"t\"\n\
        rule rare(p: player) assume \"t\" { n = 1 }\n\
        round turn assume \"t\" {\n\
          for p in players {\n\
            choose k from [1, 2] by p assume \"t\"\n\
            roll a = d assume \"t\"\n\
            if a <= 20 assume \"t\" { n = 10  n += 1 }\n\
            if a == 500 assume \"t\" { roll b = d assume \"t\"  if b == 3 assume \"t\" { do rare(p) } }\n\
            if round_number >= 2 assume \"t\" { draw }\n\
          }\n\
        }\n";
    let model = compiled("v.rules", text);
    let cfg = Config { games: 40, max_decisions: 50, explore_states: 20_000, guided_games: 0, jobs: 1, rulebook: vec!["v.rules".into()], ..Config::default() };
    let report = validate(model, &[], &cfg);
    assert!(report.findings.iter().any(|f| f.code == "R0004"), "the rule error is found: {:?}", report.findings.iter().map(|f| &f.code).collect::<Vec<_>>());
    assert!(!report.findings.iter().any(|f| f.code == "V203" && f.message.contains("`rare`")), "{:#?}", report.findings);
}

/// The same for an end condition: one that only the exhaustive search
/// saw hold is not reported as never fired (an outside tester's: the
/// search counted the rules it ran, not the end conditions).
#[test]
fn an_end_condition_the_search_saw_fire_is_not_never_fired() {
    let text = "rulebook rare_end { players 2..2 assume \"t\" }\n\
        counter k 0..10 = 0 assume \"t\"\n\
        round turn assume \"t\" {\n\
          choose z from 1..50 by player(1) assume \"t\"\n\
          if z == 50 { k += 1 } else { draw }\n\
        }\n\
        end e when k >= 3 assume \"t\" { win player(1) }\n";
    let model = compiled("e.rules", text);
    let searched = |explore_states: usize| {
        let cfg = Config { games: 20, max_decisions: 50, explore_states, guided_games: 0, jobs: 1, rulebook: vec!["e.rules".into()], ..Config::default() };
        let report = validate(model.clone(), &[], &cfg);
        let e = report.coverage.iter().find(|c| c.rule == "e").expect("the end's coverage");
        (report.findings.iter().any(|f| f.code == "V203" && f.message.contains("`e`")), e.fired, e.explored)
    };
    assert_eq!(searched(0), (true, 0, false), "20 random games never make `e` hold: without the search, V203");
    assert_eq!(searched(1000), (false, 0, true), "the search reaches the state where `e` holds");
}

/// A finding of `explore` names the options its game was played with, in
/// its JSON and its message, as one of `validate` does (its counterexample
/// had them, the finding not: an outside adversary's finding).
#[test]
fn an_exploration_finding_names_its_options() {
    let text = "rulebook o { players 2..2 assume \"t\" }\n\
        token t 2 assume \"t\"\nzone a of t assume \"t\"\n\
        option harsh assume \"t\"\n\
        setup assume \"t\" { move 2 of t from box to a }\n\
        round turn assume \"t\" {\n\
          for p in players {\n\
            choose k from [1, 2] by p assume \"t\"\n\
            if enabled(harsh) and k == 2 { move top(a) to box }\n\
            if round_number >= 3 assume \"t\" { draw }\n\
          }\n\
        }\n";
    let model = compiled("o.rules", text);
    let game = Game::new(model, 2, &["harsh".to_string()]).expect("two players");
    let report = explore(&game, &[], Budget { max_states: 1000, jobs: 1, ..Budget::default() });
    let leak = report.findings.iter().find(|f| f.code == "V501").expect("the box takes a token");
    assert_eq!(leak.options, ["harsh"]);
}

/// V204 says what its "never" covers: with `--option`, the games and states
/// of the options given only (it said no game could reach a branch another
/// option set reaches); without a search, after rule errors, that the branch
/// may lie beyond one (as it says with a search). An outside adversary's
/// findings.
#[test]
fn a_dead_branch_says_what_was_searched() {
    let options = "rulebook opt_rule { players 2..2 assume \"t\" }\n\
        option variant_a assume \"t\"\noption variant_b assume \"t\"\n\
        counter s per_player 0..100 assume \"t\"\n\
        round turn assume \"t\" {\n\
          for p in players {\n\
            choose k from [1, 2] by p assume \"t\"\n\
            if enabled(variant_a) and enabled(variant_b) and k == 2 assume \"t\" { s[p] += 2 }\n\
            if round_number >= 2 assume \"t\" { draw }\n\
          }\n\
        }\n";
    let model = compiled("o.rules", options);
    let cfg = Config { games: 20, max_decisions: 50, explore_states: 10_000, guided_games: 0, jobs: 1, options: Some(vec!["variant_a".into()]), rulebook: vec!["o.rules".into()], ..Config::default() };
    let report = validate(model, &[], &cfg);
    let dead = report.findings.iter().find(|f| f.code == "V204").expect("the branch needs variant_b");
    assert!(dead.message.contains("nor in any state reachable with the options given"), "{}", dead.message);
    let looping = "rulebook spin { players 2..2 step_fuel 1000 assume \"t\" }\n\
        die d 6 assume \"t\"\n\
        round turn assume \"t\" {\n\
          roll r = d\n\
          while r == 6 { pass }\n\
          choose k from [1, 2] by player(1)\n\
          if k == 3 { win player(1) }\n\
          draw\n\
        }\n";
    let model = compiled("l.rules", looping);
    let cfg = Config { games: 50, max_decisions: 50, explore_states: 0, guided_games: 0, jobs: 1, rulebook: vec!["l.rules".into()], ..Config::default() };
    let report = validate(model, &[], &cfg);
    let dead = report.findings.iter().find(|f| f.code == "V204").expect("k is never 3");
    assert!(dead.message.contains("it may lie beyond one"), "{}", dead.message);
}

/// One loop is one R0002, wherever the fuel ran out in it (the search and
/// the random games found the same `while` at its condition and at its
/// body: an outside adversary's finding).
#[test]
fn one_loop_is_one_finding() {
    let text = "rulebook setup_fuel { players 2..2 assume \"t\" step_fuel 1000 }\n\
        die d 100 assume \"t\"\n\
        counter n 0..10 assume \"t\"\n\
        setup assume \"t\" { roll a = d  if a == 42 assume \"t\" { while true assume \"t\" { n = n } } }\n\
        round turn assume \"t\" { for p in players { choose k from [1, 2] by p assume \"t\"  if round_number >= 2 assume \"t\" { draw } } }\n";
    let cfg = Config { games: 300, max_decisions: 50, explore_states: 20_000, guided_games: 0, jobs: 1, rulebook: vec!["s.rules".into()], ..Config::default() };
    let report = validate(compiled("s.rules", text), &[], &cfg);
    assert_eq!(report.findings.iter().filter(|f| f.code == "R0002").count(), 1, "{:#?}", report.findings);
}
