//! Golden tests of the real `grimoire` binary on the real rulebooks and the
//! fixtures: exit codes (0 ok, 1 invalid rulebook or failed check, 2 tool
//! failure, 130 interrupted), what the user reads on stderr, the JSON the
//! tools print (checked against the schemas of docs/schemas/), colour, the
//! error formats, `--quiet`, progress, and output to closed streams.

use grimoire_interpreter::log::{replay, GameLog};
use grimoire_interpreter::{compile, Source};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GRAIL_CUP: &str = "rulebooks/grail-cup/grail-cup.rules";
const TYPO: &str = "tests/fixtures/err/typo.rules";

use crate::binary::grimoire;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(grimoire()).args(args).current_dir(root()).env("NO_COLOR", "1").output().expect("grimoire runs")
}

/// `grimoire args` with `typed` as its input (a pipe, closed after it).
fn typing(args: &[&str], typed: impl AsRef<[u8]>) -> Output {
    use std::io::Write;
    let mut child = Command::new(grimoire())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("grimoire runs");
    child.stdin.take().expect("stdin").write_all(typed.as_ref()).expect("typed");
    child.wait_with_output().expect("ends when input closes")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A file under the system temp folder, unique to this process and test.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("grimoire-test-{}-{name}", std::process::id()))
}

#[test]
fn check_accepts_grail_cup() {
    let out = run(&["check", GRAIL_CUP]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(root().join(GRAIL_CUP)).expect("rulebook exists");
    let model = compile(&[Source { name: GRAIL_CUP.into(), text }]).expect("compiles");
    let summary = stderr(&out);
    assert!(summary.contains(&format!("`{}` is valid", model.name)), "{summary}");
    assert!(summary.contains(&format!("for {}..{} players", model.min_players, model.max_players)), "{summary}");
    // The declared zones, and the boards whose spaces are zones too.
    assert!(summary.contains(&format!("{} zones, {} board,", model.zones.len(), model.tracks.len())) && model.tracks.len() == 1, "{summary}");
    let json = json_of(&run(&["check", GRAIL_CUP, "--json"]));
    assert_eq!((json["report"]["zones"].as_u64(), json["report"]["boards"].as_u64()), (Some(model.zones.len() as u64), Some(1)), "{json}");
}

#[test]
fn check_points_at_a_typo_and_exits_1() {
    let out = run(&["check", TYPO]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("E0101") && err.contains("unknown name `dragn`"), "{err}");
    assert!(err.contains("did you mean `dragon`?"), "{err}");
    assert!(err.contains("typo.rules"), "the file is named: {err}");
}

/// A diagnostic's second place far from its first is named in the help,
/// not shown in one excerpt with every line between; a near one is shown.
#[test]
fn a_far_second_place_is_named_not_shown() {
    let filler = "# c0, a line between the two places\n".repeat(30);
    let far = format!("rulebook far {{ players 2..2 }}\nzone hand\n{filler}round hand {{ win player(1) }}\n");
    let near = "rulebook near { players 2..2 }\nzone hand\nround hand { win player(1) }\n";
    let file = rulebook_folder("far_second_place", &[("far.rules", &far), ("near.rules", near)]);
    let err = stderr(&run(&["check", "--error-format", "plain", &file("far.rules")]));
    assert!(err.contains("`hand` is declared twice") && err.contains("first declared here: ") && err.contains("far.rules:2:6"), "{err}");
    assert!(err.matches("c0").count() <= 2, "the lines between are not shown (a line of context is): {err}");
    let err = stderr(&run(&["check", "--error-format", "plain", &file("near.rules")]));
    assert!(err.contains("first declared here") && !err.contains("first declared here: "), "shown in the excerpt: {err}");
}

#[test]
fn check_json_lists_the_code_and_the_place() {
    let out = run(&["check", "--error-format", "json", TYPO]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON on stdout");
    assert_eq!((&v["exit_code"], &v["report"], &v["error"]), (&serde_json::json!(1), &serde_json::Value::Null, &serde_json::Value::Null), "{v}");
    let items = v["diagnostics"].as_array().expect("an array of diagnostics");
    assert_eq!(items.len(), 1, "{v}");
    assert_eq!(items[0]["code"], "E0101");
    assert!(items[0]["message"].as_str().is_some_and(|m| m.contains("dragn")), "{v}");
    assert!(items[0]["help"].as_str().is_some_and(|h| h.contains("did you mean")), "{v}");
    // The place is where the typo is in the fixture.
    let text = std::fs::read_to_string(root().join(TYPO)).expect("fixture exists");
    let line = text.lines().position(|l| !l.starts_with('#') && l.contains("dragn")).expect("the typo is in the file") + 1;
    assert_eq!(items[0]["line"], line, "{v}");
    let start = items[0]["start"].as_u64().expect("start") as usize;
    assert_eq!(text.get(start..start + "dragn".len()), Some("dragn"));
}

/// The other places a diagnostic names (the first of two replacements) are
/// in its JSON too, as in the text a terminal shows.
#[test]
fn check_json_gives_the_related_places_of_a_diagnostic() {
    let base = work_file("twice.rules");
    std::fs::write(&base, "rulebook twice { players 2..2 }\ncounter score 0..9 = 0\nrule gain assume \"x\" { score += 1 }\nround turn assume \"x\" { do gain end }\n").expect("written");
    for (name, n) in [("twice_one.rules", 2), ("twice_two.rules", 3)] {
        std::fs::write(work_file(name), format!("module {} extends \"twice.rules\" {{ }}\nreplace rule gain assume \"x\" {{ score += {n} }}\n", name.trim_end_matches(".rules"))).expect("written");
    }
    let files = [base.clone(), work_file("twice_one.rules"), work_file("twice_two.rules")].map(|p| p.to_str().expect("utf-8").to_string());
    let out = run(&["check", "--json", &files[0], &files[1], &files[2]]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E0401", "{v}");
    assert_eq!(d["related"][0]["label"], "first replaced here", "{v}");
    assert!(d["related"][0]["file"].as_str().is_some_and(|f| f.ends_with("twice_one.rules")) && d["related"][0]["line"] == 2, "{v}");
}

/// A diagnostic's span ends with the expression: pest lets a rule take the
/// whitespace after an optional clause that did not match, which made the
/// underline run onto the next line.
#[test]
fn a_diagnostic_span_stops_at_the_end_of_its_expression() {
    let text = "rulebook span { players 2..2 }\ngraph g { node a node b edge a - b }\nround turn { choose n from [1, 2] by player(1)  win player(1) }\nscenario s {\n  expect first x in spaces(g) where a == a\n  expect true\n}\n";
    let book = work_file("span.rules");
    std::fs::write(&book, text).expect("written");
    let out = run(&["check", "--json", book.to_str().expect("utf-8")]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E0201", "{v}");
    let (start, end) = (d["start"].as_u64().expect("start") as usize, d["end"].as_u64().expect("end") as usize);
    assert_eq!(&text[start..end], "first x in spaces(g) where a == a", "{v}");
}

#[test]
fn check_json_of_a_valid_rulebook_has_no_diagnostics_and_a_report() {
    let out = run(&["check", "--json", GRAIL_CUP]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    assert_eq!(v["report"]["rulebook"], "grail_cup", "{v}");
    assert_eq!((v["report"]["min_players"].as_u64(), v["report"]["max_players"].as_u64()), (Some(3), Some(8)), "{v}");
    // `--error-format json` is the same document.
    let same = run(&["check", "--error-format", "json", GRAIL_CUP]);
    assert_eq!(same.stdout, out.stdout);
}

#[test]
fn check_loads_the_base_of_a_module() {
    // Only the module is named; its base comes with it and the module's
    // problem is reported in the module's file.
    let out = run(&["check", "tests/fixtures/err/module_missing/module.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("E0401") && err.contains("module.rules"), "{err}");
    let ok = run(&["check", "tests/fixtures/ok/module_house/module.rules"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    // The summary vouches for the rulebook with its module, and says so.
    assert!(stderr(&ok).contains("`base_game` with the module `house` is valid"), "{}", stderr(&ok));
    // So does the validator's report.
    let save = save_dir("module-validate");
    let validated = run(&["validate", "tests/fixtures/ok/module_house/module.rules", "-g", "5", "--explore-states", "100", "--guided-games", "0", "--save", &save]);
    assert!(stdout(&validated).starts_with("validation of `base_game` with the module `house`\n"), "{}", stdout(&validated));
    let _ = std::fs::remove_dir_all(&save);
}

#[test]
fn a_missing_file_is_a_tool_failure() {
    let out = run(&["check", "no/such/file.rules"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.rules"), "the message names the file: {}", stderr(&out));
    let replay = run(&["replay", "no/such/log.json"]);
    assert_eq!(replay.status.code(), Some(2));
}

#[test]
fn bad_arguments_are_a_tool_failure() {
    assert_eq!(run(&["play", GRAIL_CUP, "-p", "2", "--auto"]).status.code(), Some(2), "Grail Cup is for 3 to 8 players");
    assert_eq!(run(&["simulate", GRAIL_CUP, "-p", "3", "--option", "no_such_option"]).status.code(), Some(2));
}

/// Random players that reach `--auto`'s decision cap have found a game that
/// may not end: exit 1, saying so, as `simulate` does.
#[test]
fn play_auto_fails_on_a_game_that_does_not_end() {
    let out = run(&["play", "tests/fixtures/validate/endless.rules", "-p", "2", "--auto", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("did not end within 100000 decisions"), "{}", stdout(&out));
}

#[test]
fn play_auto_prints_a_log_that_replays() {
    let file = work_file("play-auto.json");
    let out = run(&["play", GRAIL_CUP, "-p", "4", "-s", "3", "--auto", "--json", "--log", file.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let printed: GameLog = serde_json::from_value(json_of(&out)["report"]["log"].clone()).expect("a JSON game log");
    let log: GameLog = serde_json::from_str(&std::fs::read_to_string(&file).expect("log written")).expect("a JSON game log");
    assert_eq!((&printed.steps, &printed.outcome, &printed.final_fingerprint), (&log.steps, &log.outcome, &log.final_fingerprint));
    assert_eq!((log.players, log.seed), (4, 3));
    assert!(!log.steps.is_empty());
    assert!(log.outcome.as_deref().is_some_and(|o| o.ends_with(" wins")), "{:?}", log.outcome);
    assert!(log.error.is_none(), "{:?}", log.error);

    let ok = run(&["replay", file.to_str().expect("utf-8 path")]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let said = String::from_utf8_lossy(&ok.stdout);
    assert!(said.contains(&format!("replayed {} decisions", log.steps.len())) && said.contains("matches the log"), "{said}");

    // The library agrees, and a log whose choice was changed does not replay.
    let text = std::fs::read_to_string(root().join(GRAIL_CUP)).expect("rulebook exists");
    let model = std::sync::Arc::new(compile(&[Source { name: GRAIL_CUP.into(), text }]).expect("compiles"));
    let game = grimoire_interpreter::engine::Game::new(model, 4, &[]).expect("4 players");
    assert!(replay(&game, &log).is_ok());
    let mut tampered = log.clone();
    let step = tampered.steps.iter().position(|s| s.choice > 0).expect("some decision took a later option");
    tampered.steps[step].choice = 0;
    std::fs::write(&file, serde_json::to_string(&tampered).expect("serializes")).expect("temp file");
    let bad = run(&["replay", file.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(bad.status.code(), Some(1), "{}", stderr(&bad));
    assert!(stderr(&bad).contains(&format!("step {}", step + 1)), "{}", stderr(&bad));
}

#[test]
fn play_with_a_log_file_writes_the_same_log() {
    let file = temp_file("play-log.json");
    let out = run(&["play", GRAIL_CUP, "-p", "5", "-s", "9", "--auto", "--log", file.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = std::fs::read_to_string(&file).expect("log written");
    let saved: GameLog = serde_json::from_str(&written).expect("JSON");
    // Without --json, the moves and the outcome, for people.
    let said = stdout(&out);
    let mut tail = said.lines().rev();
    let (last, outcome) = (tail.next().unwrap_or(""), tail.next().unwrap_or(""));
    assert_eq!(outcome, format!("{} after {} decisions (seed 9)", saved.outcome.as_deref().unwrap_or("?"), saved.steps.len()), "{said}");
    // Then where the log is, and the command that replays it from here.
    let shown = file.to_str().expect("utf-8 path");
    assert!(last.starts_with(&format!("the log is saved in {shown} (`grimoire replay")) && last.ends_with(&format!(" {shown}` replays it)")), "{said}");
    // The log lies in the temporary folder, the rulebook in the repository:
    // unless the temporary folder holds the repository (as on CI), the
    // command names a root that holds both; either way it runs.
    let command: Vec<&str> = last.split('`').nth(1).unwrap_or("").split(' ').skip(1).collect();
    let canonical = |p: &std::path::Path| std::fs::canonicalize(p).expect("exists");
    let log_folder = canonical(file.parent().expect("a folder"));
    assert_eq!(command.contains(&"--root"), !canonical(&root()).starts_with(&log_folder), "{last}");
    let replayed = run(&command);
    assert_eq!(replayed.status.code(), Some(0), "{last}: {}", stderr(&replayed));
    let _ = std::fs::remove_file(&file);
    let moves = said.lines().filter(|l| l.trim_start().split_once(". player ").is_some_and(|(n, _)| n.parse::<usize>().is_ok()));
    assert_eq!(moves.count(), saved.steps.len(), "one line per move: {said}");
    let rolls = said.lines().filter(|l| l.starts_with("       `") && l.contains("` rolled "));
    let forced = said.lines().filter(|l| l.starts_with("       player ") && l.ends_with(" (forced: the only option)"));
    assert_eq!(rolls.count() + forced.count() + saved.steps.len() + 2, said.lines().count(), "the dice rolled, the forced moves, the moves, the outcome, the log: {said}");
    let json = run(&["play", GRAIL_CUP, "-p", "5", "-s", "9", "--auto", "--json"]);
    let printed: GameLog = serde_json::from_value(json_of(&json)["report"]["log"].clone()).expect("JSON");
    assert_eq!((printed.steps, printed.final_fingerprint, printed.outcome), (saved.steps, saved.final_fingerprint, saved.outcome));
}

/// In `ok/luck.rules` each player rolls a d6 into a local, which no screen
/// shows, then decides whether to bank it.
const LUCK: &str = "tests/fixtures/ok/luck.rules";

#[test]
fn play_auto_prints_each_roll_before_the_decision_that_follows_it() {
    let out = run(&["play", LUCK, "-p", "2", "-s", "4", "--auto"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = stdout(&out);
    let lines: Vec<&str> = said.lines().collect();
    let (last, moves) = lines.split_last().expect("some lines");
    assert!(last.ends_with("(seed 4)"), "{said}");
    // Roll, decision, roll, decision...: each player rolls before deciding.
    assert!(moves.len() >= 4 && moves.len() % 2 == 0, "{said}");
    for (i, pair) in moves.chunks(2).enumerate() {
        let value = pair[0].strip_prefix("       `d6` rolled ").and_then(|r| r.strip_suffix(" (rule `turn`)")).and_then(|n| n.parse::<u8>().ok());
        assert!(value.is_some_and(|n| (1..=6).contains(&n)), "a roll in words: {}", pair[0]);
        assert!(pair[1].starts_with(&format!("{:>5}. player {}: ", i + 1, i % 2 + 1)), "then the decision: {}", pair[1]);
    }
    // With --json, the same rolls, each with its place and when it came.
    let json = json_of(&run(&["play", LUCK, "-p", "2", "-s", "4", "--auto", "--json"]));
    let rolls = json["report"]["rolls"].as_array().expect("rolls");
    assert_eq!(rolls.len(), moves.len() / 2);
    for (i, (roll, pair)) in rolls.iter().zip(moves.chunks(2)).enumerate() {
        assert_eq!(roll["after_decisions"], i, "{roll}");
        assert_eq!((&roll["die"], &roll["rule"], &roll["file"], &roll["line"], &roll["column"]), (&serde_json::json!("d6"), &serde_json::json!("turn"), &serde_json::json!(LUCK), &serde_json::json!(8), &serde_json::json!(5)), "{roll}");
        assert_eq!(pair[0], format!("       `d6` rolled {} (rule `turn`)", roll["value"].as_str().expect("a string")));
    }
    // A face is given by its name in JSON (its label is for people).
    let faced = work_file("faces.rules");
    std::fs::write(&faced, "rulebook faces { players 1..1 }\ndie village 3 { seal \"Sceau\" x1 thief \"Voleur\" x2 }\nround turn { roll r = village\n choose k from [1, 2] by player(1)\n win player(1) }\n").expect("written");
    let json = json_of(&run(&["play", faced.to_str().expect("utf-8"), "-p", "1", "--auto", "--json"]));
    let value = json["report"]["rolls"][0]["value"].as_str().unwrap_or("").to_string();
    assert!(value == "seal" || value == "thief", "{json}");
    // `-q` prints neither the moves nor the rolls.
    let quiet = run(&["play", LUCK, "-p", "2", "-s", "4", "--auto", "-q"]);
    assert_eq!(stdout(&quiet).lines().collect::<Vec<_>>(), vec![*last]);
}

#[test]
fn play_shows_each_player_the_dice_rolled_since_his_last_decision() {
    // Player 1 banks, player 2 does not, player 1 banks; then the input ends.
    let text = stdout(&typing(&["play", LUCK, "-p", "2", "-s", "4"], "1\n2\n1\n"));
    let auto = stdout(&run(&["play", LUCK, "-p", "2", "-s", "4", "--auto"]));
    let rolls: Vec<&str> = auto.lines().filter(|l| l.contains(" rolled ")).map(str::trim).collect();
    let screens: Vec<&str> = text.split(" to decide ").skip(1).collect();
    assert!(screens.len() >= 4 && rolls.len() >= 4, "{text}");
    // Player 1 sees his roll; player 2 his own and player 1's; player 1,
    // at his second decision, player 2's and his new one.
    assert_eq!(rolls_shown(screens[0]), vec![rolls[0]], "{}", screens[0]);
    assert_eq!(rolls_shown(screens[1]), vec![rolls[0], rolls[1]], "{}", screens[1]);
    assert_eq!(rolls_shown(screens[2]), vec![rolls[1], rolls[2]], "{}", screens[2]);
    assert_eq!(rolls_shown(screens[3]), vec![rolls[2], rolls[3]], "{}", screens[3]);
    // The end shows everybody the rolls after the last decision: in a race
    // that dice alone decide (no decision at all), every roll.
    let race = "tests/fixtures/ok/race.rules";
    let text = stdout(&typing(&["play", race, "-p", "2", "-s", "1"], ""));
    let auto = stdout(&run(&["play", race, "-p", "2", "-s", "1", "--auto"]));
    let rolled: Vec<&str> = auto.lines().filter(|l| l.contains(" rolled ")).map(str::trim).collect();
    let (_, end) = text.split_once("Dice rolled since the last decision:\n").unwrap_or_else(|| panic!("{text}"));
    let at_the_end: Vec<&str> = end.lines().take_while(|l| l.starts_with("  `")).map(str::trim).collect();
    assert!(!rolled.is_empty() && at_the_end == rolled, "{text}");
    assert!(end.contains(" wins"), "{text}");
    // Then the final table, as everybody sees it, before the outcome.
    let (_, table) = end.split_once("── the game is over ──\n").unwrap_or_else(|| panic!("{text}"));
    let winner = table.lines().position(|l| l.contains(" wins")).unwrap_or_else(|| panic!("{text}"));
    assert!(table.lines().take(winner).any(|l| l.starts_with("On the table")), "{text}");
    // An undo at player 1's second decision takes him back to his first:
    // the screen shows again what was rolled before it, and player 2's
    // what was rolled since player 2 last decided (never, now).
    let text = stdout(&typing(&["play", LUCK, "-p", "2", "-s", "4"], "1\n2\nundo\n1\n"));
    let screens: Vec<&str> = text.split(" to decide ").skip(1).collect();
    assert!(screens.len() >= 5, "{text}");
    assert!(screens[3].contains("(undone: your decision"), "{}", screens[3]);
    assert_eq!(rolls_shown(screens[3]), vec![rolls[0]], "{}", screens[3]);
    assert_eq!(rolls_shown(screens[4]), vec![rolls[0], rolls[1]], "{}", screens[4]);
}

/// The rolls a `play` screen lists under "Dice rolled since your last
/// decision".
fn rolls_shown(screen: &str) -> Vec<String> {
    let Some((_, after)) = screen.split_once("Dice rolled since your last decision:\n") else { return Vec::new() };
    after.lines().take_while(|l| l.starts_with("  `")).map(|l| l.trim().to_string()).collect()
}

#[test]
fn a_roll_to_some_players_is_shown_to_them_only() {
    // Each player rolls under his cup (`to p`), then both decide; one die
    // is rolled for all to see.
    let cups = temp_rulebook("cups.rules", "rulebook cups { players 2..2 }\ndie d6 6\nsetup { for p in players { roll a = d6 to p } roll c = d6 }\nround turn { for p in players { choose k from [1, 2] by p } end }\n".as_bytes());
    let file = cups.as_str();
    let auto = stdout(&run(&["play", file, "-p", "2", "-s", "3", "--auto"]));
    let rolls: Vec<&str> = auto.lines().filter(|l| l.contains(" rolled ")).map(str::trim).collect();
    assert_eq!(rolls.len(), 3, "--auto shows every roll: {auto}");
    let text = stdout(&typing(&["play", file, "-p", "2", "-s", "3"], "1\n1\n"));
    let screens: Vec<&str> = text.split(" to decide ").skip(1).collect();
    assert_eq!(screens.len(), 2, "{text}");
    assert_eq!(rolls_shown(screens[0]), vec![rolls[0], rolls[2]], "player 1 sees his own roll and the public one: {}", screens[0]);
    assert_eq!(rolls_shown(screens[1]), vec![rolls[1], rolls[2]], "player 2 sees his own roll and the public one: {}", screens[1]);
}

/// A hand looked at is listed to the looker on his next screen, though it
/// went back into the deck before then (his screen showed it nowhere), to
/// him only; a hand revealed to everybody shows on the final table.
#[test]
fn what_a_reveal_showed_is_listed_to_its_players_and_the_end_shows_what_all_saw() {
    let look = temp_rulebook(
        "look.rules",
        "rulebook look { players 2..2 }\ncard slip 2 { low \"Low\" x1 high \"High\" x1 }\nzone deck of slip hidden\nzone hand per_player of slip owner\n\
         setup { move all of box to deck\n for p in players { move top of deck to hand[p] } }\n\
         round turn {\n choose a from [1, 2] by player(1)\n reveal all of hand[player(2)] to player(1)\n choose b from [1, 2] by player(2)\n move all of hand[player(2)] to deck\n shuffle deck\n move top of deck to hand[player(2)]\n\
          choose c from [1, 2] by player(1)\n for q in players { reveal all of hand[q] to players }\n choose d from [1, 2] by player(2)\n win player(1)\n}\n"
            .as_bytes(),
    );
    let text = stdout(&typing(&["play", &look, "-p", "2", "-s", "3"], "1\n1\n1\n1\n"));
    let screens: Vec<&str> = text.split(" to decide ").skip(1).collect();
    assert_eq!(screens.len(), 4, "{text}");
    let shown = |screen: &str| -> Vec<String> { screen.split_once("Shown to you since your last decision:\n").map(|(_, after)| after.lines().take_while(|l| l.starts_with("  ")).map(|l| l.trim().to_string()).collect()).unwrap_or_default() };
    assert!(shown(screens[0]).is_empty() && shown(screens[1]).is_empty(), "nothing shown to player 2: {text}");
    let looked = shown(screens[2]);
    assert_eq!(looked.len(), 1, "player 1 is told what he saw: {}", screens[2]);
    assert!(looked[0].ends_with("in hand[2] (rule `turn`)"), "{looked:?}");
    // At the end, both hands were shown to everybody.
    let end = text.split("the game is over").nth(1).unwrap_or_else(|| panic!("{text}"));
    assert!(!end.contains("hidden"), "the final table shows the hands revealed to all: {end}");
    assert!(end.contains("(shown to all)"), "marked as shown, not face up: {end}");
}

/// A reveal made during setup is listed where the piece was when it was
/// shown, with its rule, as one made during the rounds (it was listed in
/// the zone the piece was moved to afterwards, with no rule: an outside
/// tester's finding), whether setup draws from the generator or not.
#[test]
fn a_reveal_made_during_setup_is_listed_where_it_was_shown() {
    for shuffled in ["", "\n shuffle pile"] {
        let peek = temp_rulebook(
            "peek.rules",
            format!(
                "rulebook peek {{ players 2..2 }}\ncard c 3 {{ baron guard maid }}\nzone hand per_player of c owner\nzone deck of c hidden\nzone pile of c hidden\n\
                 rule priest() {{ reveal top of hand[player(2)] to player(1) }}\n\
                 setup {{ move all of box to hand[player(2)]\n do priest()\n move top(hand[player(2)]) to deck{shuffled} }}\n\
                 round turn {{ choose x from [1, 2] by player(1) }}\n"
            )
            .as_bytes(),
        );
        let text = stdout(&typing(&["play", &peek, "-p", "2", "-s", "1"], "quit\n"));
        let listed = text.split_once("Shown to you since your last decision:\n").map(|(_, after)| after.lines().next().unwrap_or("").trim().to_string()).unwrap_or_default();
        assert!(listed.ends_with("in hand[2] (rule `priest`)"), "shuffled: {shuffled:?}: {text}");
    }
}

/// An undo note names the decision undone as its player read it: a card
/// drawn blind and buried face down stays "a hidden piece" (the note gave
/// its name from the log).
#[test]
fn an_undo_note_tells_no_more_than_the_screen_did() {
    let bury = temp_rulebook("bury.rules", "rulebook bury { players 2..2 }\ncard cd 4 { ace x1 two x1 three x1 four x1 }\nzone hand per_player of cd owner\nzone grave of cd hidden\nsetup { for p in players { move 2 of cd from box to hand[p] } }\nround turn {\n choose c from hand[player(2)] by player(1)\n move c to grave\n choose ok from [true, false] by player(1)\n end\n}\n".as_bytes());
    let text = stdout(&typing(&["play", &bury, "-p", "2", "-s", "1"], "2\nundo\n"));
    let note = text.lines().find(|l| l.contains("undone: your decision")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(note, "(undone: your decision « a hidden piece of hand[2] (2nd from the front) »)", "{text}");
}

/// A per-piece value is shown with its piece: a card's value in one's own
/// hand among what only he sees (it was printed "On the table"), and
/// nowhere on the other player's screen.
#[test]
fn play_shows_a_piece_value_beside_the_hand_that_holds_it() {
    let strength = temp_rulebook("strength.rules", "rulebook strength { players 2..2 }\ncard cd 2 { sun x1 moon x1 }\ncounter power per_piece cd 0..9 = 4\nzone hand per_player of cd owner\nsetup { move 1 of cd from box to hand[player(1)]\n move 1 of cd from box to hand[player(2)] }\nround turn { for p in players { choose k from [1, 2] by p } end }\n".as_bytes());
    let text = stdout(&typing(&["play", &strength, "-p", "2", "-s", "1"], "1\n1\n"));
    let screens: Vec<&str> = text.split(" to decide ").skip(1).collect();
    assert_eq!(screens.len(), 2, "{text}");
    for screen in screens {
        let lines: Vec<&str> = screen.lines().collect();
        let apart = lines.iter().position(|l| l.trim() == "Only you see:").unwrap_or_else(|| panic!("{screen}"));
        let power: Vec<usize> = lines.iter().enumerate().filter(|(_, l)| l.trim_start().starts_with("power of")).map(|(i, _)| i).collect();
        assert_eq!(power.len(), 1, "his own card's value only: {screen}");
        assert!(power[0] > apart && !screen.contains("On the table"), "{screen}");
    }
    // A piece's value in a shared zone is on the table with the zone,
    // whoever owns the piece (it was under its owner: an outside newcomer's
    // finding, the README saying "else on the table").
    let pile = temp_rulebook("pile.rules", "rulebook pile { players 2..2 }
piece chip per_player 1
zone pile of chip
counter mark per_piece chip 0..9 = 7
setup { for p in players { move chip[p] to pile } }
round turn { for p in players { choose x from [1, 2] by p
 win p } }
".as_bytes());
    let text = stdout(&typing(&["play", &pile, "-p", "2", "-s", "1"], "1
"));
    let screen = text.split(" to decide ").nth(1).unwrap_or_else(|| panic!("{text}"));
    let table: Vec<&str> = screen.lines().skip_while(|l| l.trim() != "On the table").take_while(|l| !l.starts_with("You")).collect();
    assert_eq!(table.iter().filter(|l| l.trim_start().starts_with("mark of chip")).count(), 2, "both marks on the table: {screen}");
}

/// A counter's visibility is a var's: a `hidden` counter is on no screen,
/// an `owner` one on its owner's alone, among what only he sees (both were
/// shown to every player: an outside tester's finding).
#[test]
fn play_shows_hidden_and_owner_counters_as_it_shows_vars() {
    let secrets = temp_rulebook("secrets.rules", "rulebook secrets { players 2..2 }\ncounter tally 0..10 = 3 hidden\ncounter pile per_player 0..10 = 4 hidden\ncounter purse per_player 0..10 = 5 owner\ncounter score per_player 0..10 = 6\nround turn { for p in players { choose k from [1, 2] by p\n purse[p] += k } end }\n".as_bytes());
    let text = stdout(&typing(&["play", &secrets, "-p", "2", "-s", "1"], "1\n2\n"));
    let screens: Vec<&str> = text.split(" to decide ").skip(1).map(|s| s.split("Choose:").next().unwrap_or(s)).collect();
    assert_eq!(screens.len(), 2, "{text}");
    for (screen, purse) in screens.iter().zip(["purse: 5", "purse: 5"]) {
        assert!(!screen.contains("tally") && !screen.contains("pile"), "hidden counters: {screen}");
        assert_eq!(screen.matches("purse").count(), 1, "his own purse only: {screen}");
        let apart = screen.split_once("Only you see:").map_or("", |(_, after)| after);
        assert!(apart.contains(purse), "{screen}");
        assert_eq!(screen.matches("score: 6").count(), 2, "public counters of both players: {screen}");
    }
}

/// The values of alike pieces are one line, `×N`, with no number of its
/// own for each piece (which would let a player follow one of them), and a
/// per-piece var not set yet is not shown (a card tester's hand of ten
/// cards showed ten lines "played by of 10 of clubs #4: none").
#[test]
fn play_shows_alike_pieces_values_once_and_no_unset_var() {
    let alike = temp_rulebook("alike.rules", "rulebook alike { players 2..2 }\ncard cd 3 { sun x2 moon x1 }\ncounter power per_piece cd 0..9 = 4\nvar played_by per_piece cd : player\nzone hand per_player of cd owner\nsetup { move 3 of cd from box to hand[player(1)] }\nround turn { for p in players { choose k from [1, 2] by p } end }\n".as_bytes());
    let text = stdout(&typing(&["play", &alike, "-p", "2", "-s", "1"], "1\n1\n"));
    let screen = text.split(" to decide ").nth(1).unwrap_or_else(|| panic!("{text}"));
    assert!(screen.contains("power of sun ×2: 4") && screen.contains("power of moon: 4"), "{screen}");
    assert!(!screen.contains('#') && !screen.contains("played by") && !screen.contains("played_by"), "{screen}");
}

/// Two pieces alike but for a per-piece value: their values are listed in
/// the order of the options that offer them, the zone front first (they
/// were listed by instance, the second option's first: an outside tester
/// picked option 1 for the value read first, and played the other card).
#[test]
fn play_lists_piece_values_in_the_order_of_the_options() {
    let lab = temp_rulebook("lab.rules", "rulebook lab { players 2..2 }\ncard court 4 { king x2 guard x2 }\nzone hand per_player of court owner\nzone played of court public\ncounter power per_piece court 0..9 = 1\nsetup { move 2 of court from box to hand[player(1)]\n move 2 of court from box to hand[player(2)] }\nround turn {\n power[top(hand[player(1)])] = 5\n choose c from hand[player(1)] by player(1)\n move c to played\n win player(1) }\n".as_bytes());
    let text = stdout(&typing(&["play", &lab, "-p", "2", "-s", "1"], "1\n"));
    let (screen, end) = text.split_once("the game is over").unwrap_or_else(|| panic!("{text}"));
    let powers: Vec<&str> = screen.lines().map(str::trim).filter(|l| l.starts_with("power of")).collect();
    // The front guard (option 1) keeps 1; the top one (option 2) was set to 5.
    assert_eq!(powers, ["power of guard: 1", "power of guard: 5"], "{screen}");
    assert!(end.contains("played: guard\n  power of guard: 1"), "option 1 was the card of power 1: {text}");
}

/// A byte order mark is no column: a diagnostic on the first line of a
/// file saved "UTF-8 with BOM" points where an editor shows the text (it
/// pointed one column too far, in both formats: an outside tester's).
#[test]
fn a_byte_order_mark_is_no_column() {
    let with = temp_rulebook("bom.rules", "\u{feff}rulebook r { players 2..2 bogus }\n".as_bytes());
    let short = run(&["check", &with, "--error-format", "short"]);
    assert!(stdout(&short).contains("bom.rules:1:27: E0001") || stderr(&short).contains("bom.rules:1:27: E0001"), "{}{}", stdout(&short), stderr(&short));
    let drawn = run(&["check", &with]);
    let text = format!("{}{}", stdout(&drawn), stderr(&drawn));
    assert!(text.contains("bom.rules:1:27]"), "{text}");
    assert!(!text.contains('\u{feff}'), "the mark is not drawn: {text}");
}

/// A module that extends `""` is told its base's path is empty (it was
/// told the base is a folder, the module's own: an outside tester's).
#[test]
fn a_module_extending_an_empty_path_is_told_so() {
    let module = temp_rulebook("empty-base.rules", b"module empty_base extends \"\" { }\n");
    let out = run(&["check", &module]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(said.contains("E0402") && said.contains("the base's path is empty") && !said.contains("folder, not"), "{said}");
}

#[test]
fn play_reads_choices_from_the_terminal() {
    let out = typing(&["play", GRAIL_CUP, "--players", "3", "--seed", "1"], "1\n99\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("player 1 to decide") || text.contains("to decide"), "{text}");
    assert!(text.contains("Choose your ally for this turn"), "the rulebook's prompt is shown: {text}");
    assert!(text.contains("type a number from 1 to"), "a choice out of range is refused: {text}");
}

/// A line that is not UTF-8 is refused as any other word is; the input
/// goes on (it read as the end of the input, and the game stopped).
#[test]
fn play_refuses_a_line_that_is_not_text_and_reads_on() {
    let out = typing(&["play", TIC_TAC_TOE, "--players", "2"], b"\xff\xfe\n1\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("type a number from 1 to 9"), "{text}");
    assert!(text.contains("player 2 to decide") && text.contains("board 1,1: mark of player 1"), "the next line is read: {text}");
}

/// `--error-format plain` prints the tool's own symbols in ASCII (the
/// rulebook's letters stay as written): the counts of a screen, explore's
/// bound.
#[test]
fn plain_prints_the_tools_symbols_in_ascii() {
    let out = typing(&["play", "tests/fixtures/ok/labels.rules", "--players", "2", "--error-format", "plain"], "2\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Banque: pièce d'or x4") && !text.contains('×'), "{text}");
    let out = run(&["explore", TIC_TAC_TOE, "-p", "2", "--error-format", "plain"]);
    assert!(stdout(&out).contains("collision probability <= ") && stdout(&out).is_ascii(), "{}", stdout(&out));
    let unicode = run(&["explore", TIC_TAC_TOE, "-p", "2"]);
    assert!(stdout(&unicode).contains("collision probability ≤ "), "{}", stdout(&unicode));
}

#[test]
fn play_names_what_the_rulebook_labels_with_its_labels() {
    // tests/fixtures/ok/labels.rules labels its coin, zones, counter and var.
    let out = typing(&["play", "tests/fixtures/ok/labels.rules", "--players", "2"], "2\n");
    let text = String::from_utf8_lossy(&out.stdout);
    for shown in ["Banque: pièce d'or ×4", "Or: 0", "Mot secret: none"] {
        assert!(text.contains(shown), "`{shown}` on the screen: {text}");
    }
    // Player 2, after player 1 took a coin, sees how many are in his purse, not which.
    assert!(text.contains("Bourse: 1 hidden"), "{text}");
    // The declared names are not shown where a label is given.
    for name in ["bank", "gold", "purse", "coin", "    secret:"] {
        assert!(!text.contains(name), "`{name}` on the screen: {text}");
    }
}

/// A graph node's label names the node on the table, and a zone of each
/// space at a labelled node; the options keep the node's name (logs and
/// scenarios match them).
#[test]
fn play_names_a_labelled_node_with_its_label_on_the_table() {
    let file = work_file("nodes.rules");
    let text = "rulebook nodes { players 2..2 }
graph land {
  node north \"Nordheim\"
  node mill_pond
  edge north - mill_pond
}
piece pawn per_player 1
zone camp per_space land of pawn
setup { for p in players { move first x in pieces(pawn, p) where true to camp[north] } }
round turn {
  for p in players {
    choose z from spaces(land) by p
    move first x in pieces(pawn, p) where zone_of(x) != z to z
  }
  if round_number == 2 { end }
}
";
    std::fs::write(&file, text).expect("written");
    let out = typing(&["play", file.to_str().expect("utf-8"), "--players", "2"], "1\n2\n");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("camp at Nordheim: pawn of player 1, pawn of player 2"), "{screen}");
    assert!(screen.contains("Nordheim: pawn of player 1"), "{screen}");
    assert!(screen.contains("mill pond: pawn of player 2"), "{screen}");
    assert!(screen.contains("1) north") && screen.contains("2) mill_pond"), "{screen}");
}

#[test]
fn simulate_json_reports_every_game() {
    let out = run(&["simulate", GRAIL_CUP, "-p", "3", "-g", "50", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = report_of(&out);
    assert_eq!(v["games"], 50);
    assert_eq!(v["players"], 3);
    assert_eq!(v["failures"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["unfinished"], 0, "{v}");
    let seats = v["wins_by_seat"].as_array().expect("wins by seat");
    assert_eq!(seats.len(), 3);
    let wins: u64 = seats.iter().filter_map(serde_json::Value::as_u64).sum();
    assert_eq!(wins, 50, "every Grail Cup game has exactly one winner: {v}");
    // Grail Cup ends by its end condition `grail_reached`: counted like a rule.
    let rules = v["rules"].as_array().expect("rules fired");
    let grail = rules.iter().find(|r| r["rule"] == "grail_reached").expect("the end condition is listed");
    assert_eq!((grail["fired"].as_u64(), grail["games"].as_u64()), (Some(50), Some(50)), "{grail}");
    let (lo, med, hi) = (v["decisions_min"].as_u64(), v["decisions_median"].as_u64(), v["decisions_max"].as_u64());
    assert!(lo <= med && med <= hi && lo > Some(0), "{v}");
}

/// An end condition that ends every game is counted once per game, in the
/// JSON report and in the table: its body was counted twice (once as the
/// procedure it is, once as the end), 20 times in 10 games.
#[test]
fn simulate_counts_an_end_condition_once_per_game() {
    let file = work_file("nim-end.rules");
    let text = "rulebook nim { players 2..2 }
token stone 10
zone pile of stone
zone taken per_player of stone
var last_taker : player
setup { move 10 of stone from box to pile }
end empty when count(pile) == 0 { win last_taker }
round turn {
  for p in players {
    choose n from 1..3 where n <= count(pile) by p
    last_taker = p
    move n of stone from pile to taken[p]
  }
}
";
    std::fs::write(&file, text).expect("written");
    let path = file.to_str().expect("utf-8");
    let out = run(&["simulate", path, "-p", "2", "-g", "10", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = report_of(&out);
    let rules = v["rules"].as_array().expect("rules fired");
    let end = rules.iter().find(|r| r["rule"] == "empty").expect("the end condition is listed");
    assert_eq!((end["fired"].as_u64(), end["games"].as_u64()), (Some(10), Some(10)), "{end}");
    let out = run(&["simulate", path, "-p", "2", "-g", "10"]);
    let table = String::from_utf8_lossy(&out.stdout);
    let row = table.lines().find(|l| l.split_whitespace().next() == Some("empty")).unwrap_or_else(|| panic!("{table}"));
    assert_eq!(row.split_whitespace().collect::<Vec<_>>(), ["empty", "10", "10"], "{table}");
}

/// A JSON report without the fields that measure time, which differ from one
/// run to the next.
fn without_timings(mut v: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        if let Some(o) = v.as_object_mut() {
            o.remove("seconds");
            o.remove("games_per_second");
        }
    }
    strip(&mut v);
    if let Some(runs) = v.get_mut("runs").and_then(serde_json::Value::as_array_mut) {
        runs.iter_mut().for_each(strip);
    }
    v
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {}{}", String::from_utf8_lossy(&out.stdout), stderr(out)))
}

/// The `report` of a command's JSON document.
fn report_of(out: &Output) -> serde_json::Value {
    let v = json_of(out);
    assert!(v["report"].is_object(), "a report: {v}");
    v["report"].clone()
}

/// stderr without the one-line summary a long run prints when its
/// progress bar is hidden (it holds the time taken).
fn without_summary(text: &str) -> String {
    text.lines().filter(|l| !["simulated ", "validated ", "explored "].iter().any(|s| l.starts_with(s))).map(|l| format!("{l}\n")).collect()
}

#[test]
fn simulate_gives_the_same_report_on_one_thread_and_on_three() {
    let args = ["simulate", GRAIL_CUP, "-p", "4", "-g", "300", "-s", "5", "--json"];
    let one = run(&[&args[..], &["--jobs", "1"]].concat());
    let three = run(&[&args[..], &["--jobs", "3"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(three.status.code(), Some(0), "{}", stderr(&three));
    let (one, three) = (report_of(&one), report_of(&three));
    assert!(one["seconds"].is_f64() && one["games_per_second"].is_f64(), "the timings are there: {one}");
    let wins: u64 = one["wins_by_seat"].as_array().expect("wins by seat").iter().filter_map(serde_json::Value::as_u64).sum();
    assert_eq!((one["games"].as_u64(), one["first_seed"].as_u64(), wins), (Some(300), Some(5), 300), "{one}");
    assert_eq!(without_timings(one), without_timings(three));

    // A rulebook whose games fail (two exceptions in conflict, not on every
    // seed) and a score: the failures come in seed order, the first one is
    // the one printed, the score spreads are the same.
    let conflict = ["simulate", "tests/fixtures/validate/conflict.rules", "-p", "2", "-g", "200", "--score", "score"];
    let one = run(&[&conflict[..], &["--jobs", "1", "--json"]].concat());
    let three = run(&[&conflict[..], &["--jobs", "3", "--json"]].concat());
    assert_eq!(one.status.code(), Some(1), "a game failed: {}", stderr(&one));
    assert_eq!(three.status.code(), Some(1), "a game failed: {}", stderr(&three));
    let (one, three) = (report_of(&one), report_of(&three));
    let seeds: Vec<u64> = one["failures"].as_array().expect("failures").iter().filter_map(|f| f["seed"].as_u64()).collect();
    assert!(seeds.len() > 100 && seeds.len() < 200, "most games fail, not all: {seeds:?}");
    assert!(seeds.windows(2).all(|w| w[0] < w[1]), "failures in seed order: {seeds:?}");
    assert!(one["score"]["by_seat"].as_array().is_some_and(|s| s.len() == 2), "{one}");
    // A spread's standard deviation is 0 when every game gave one value,
    // else above 0 and at most half the range.
    for spread in one["score"]["by_seat"].as_array().expect("seats").iter().chain([&one["score"]["winners"]]) {
        let (sd, range) = (spread["sd"].as_f64().expect("sd"), (spread["max"].as_i64().expect("max") - spread["min"].as_i64().expect("min")) as f64);
        assert!((sd == 0.0) == (range == 0.0) && sd <= range / 2.0, "{spread}");
    }
    assert_eq!(without_timings(one.clone()), without_timings(three));
    let one_text = run(&[&conflict[..], &["--jobs", "1"]].concat());
    // The text shows the mean and the spread to 4 decimals, as the JSON
    // has them (to one, a 0/1 score's 0.5078 read 0.5: an outside
    // author could not see the first player's edge).
    let seat_one = &one["score"]["by_seat"][0];
    let shown = format!("{:.4}, {:.4}", seat_one["mean"].as_f64().expect("mean"), seat_one["sd"].as_f64().expect("sd"));
    let said = String::from_utf8_lossy(&one_text.stdout).into_owned();
    let line = said.lines().find(|l| l.trim_start().starts_with("seat 1:")).unwrap_or_default();
    assert!(line.ends_with(&shown), "`{shown}` at the end of `{line}`");
    let one = one_text;
    let three = run(&[&conflict[..], &["--jobs", "3"]].concat());
    assert!(stderr(&one).contains("R0009"), "the first failure is shown: {}", stderr(&one));
    assert_eq!(without_summary(&stderr(&one)), without_summary(&stderr(&three)), "the same first failure is shown");
    let said = String::from_utf8_lossy(&three.stdout);
    assert!(said.contains("on 3 threads"), "{said}");
}

#[test]
fn simulate_reports_plies_next_to_decisions() {
    let out = run(&["simulate", GRAIL_CUP, "-p", "4", "-g", "200", "-s", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = report_of(&out);
    let field = |name: &str| v[name].as_u64().unwrap_or_else(|| panic!("`{name}` is a count: {v}"));
    let decisions = [field("decisions_min"), field("decisions_median"), field("decisions_max")];
    let plies = [field("plies_min"), field("plies_median"), field("plies_max")];
    let mean = v["plies_mean"].as_f64().expect("`plies_mean` is a number");
    assert!(plies[0] > 0 && plies[0] <= plies[1] && plies[1] <= plies[2], "{plies:?}");
    assert!(plies.iter().zip(&decisions).all(|(p, d)| p >= d), "a decision is a ply: plies {plies:?}, decisions {decisions:?}");
    assert!(plies.iter().zip(&decisions).any(|(p, d)| p > d), "Grail Cup has forced moves, which are plies and not decisions: plies {plies:?}, decisions {decisions:?}");
    assert!(plies[0] as f64 <= mean && mean <= plies[2] as f64, "mean {mean} within {plies:?}");
    assert!(mean.fract() != 0.0, "a mean over 200 games, not a rounded count: {mean}");
    // The mean of decisions is that of the games `play --auto` plays with
    // the same seeds (game i of the run has seed 1 + i).
    let decisions_mean = v["decisions_mean"].as_f64().expect("`decisions_mean` is a number");
    let few = report_of(&run(&["simulate", GRAIL_CUP, "-p", "4", "-g", "3", "-s", "1", "--json"]));
    let played: Vec<u64> = (1..=3).map(|s| json_of(&run(&["play", GRAIL_CUP, "-p", "4", "-s", &s.to_string(), "--auto", "--json"]))["report"]["decisions"].as_u64().expect("a count")).collect();
    assert_eq!(few["decisions_mean"].as_f64(), Some(played.iter().sum::<u64>() as f64 / 3.0), "{few} {played:?}");
    assert!(decisions[0] as f64 <= decisions_mean && decisions_mean <= decisions[2] as f64 && decisions_mean < mean, "{v}");

    let human = run(&["simulate", GRAIL_CUP, "-p", "4", "-g", "200", "-s", "1"]);
    assert_eq!(human.status.code(), Some(0), "{}", stderr(&human));
    let said = String::from_utf8_lossy(&human.stdout);
    let line = format!("plies per game: min {}, median {}, max {}, mean {mean:.4}", plies[0], plies[1], plies[2]);
    assert!(said.contains(&line), "expected `{line}` in:\n{said}");
    let rounds_mean = v["rounds_mean"].as_f64().expect("`rounds_mean` is a number");
    assert!(said.contains(&format!(", mean {decisions_mean:.4}; rounds: median {}, mean {rounds_mean:.4}", v["rounds_median"])), "{said}");
    assert!(rounds_mean > 1.0 && rounds_mean < decisions_mean, "{v}");
}

/// A rule that never fired because an `instead` exception replaced it
/// every time is reached: simulate's list says which exception ran instead,
/// where a rule that no game reaches is listed alone.
#[test]
fn simulate_says_which_exception_replaced_a_rule_that_never_fired() {
    let out = run(&["simulate", "tests/fixtures/validate/warn_replaced_rule.rules", "-p", "2", "-g", "20"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("never fired: advance (its `instead` exception `leap` ran in its place every time)\n"), "{said}");
    let json = report_of(&run(&["simulate", "tests/fixtures/validate/warn_replaced_rule.rules", "-p", "2", "-g", "20", "--json"]));
    assert_eq!(json["never_fired"], serde_json::json!(["advance"]), "the JSON lists the names");
}

/// A module that changes its base's setup, which has no name to
/// `replace`, does it with an `instead` exception: one that always holds
/// (`when true`) replaces the setup by design, so `validate` does not warn
/// that the setup's own body never ran (V203), and its coverage says what
/// replaced it; an exception whose condition merely held every time is
/// still reported.
#[test]
fn validate_does_not_warn_about_a_setup_a_module_always_replaces() {
    let dir = temp_file("replaced-setup");
    std::fs::create_dir_all(&dir).expect("temp folder");
    std::fs::write(dir.join("source.txt"), "Chaque joueur prend deux jetons.\n\nLe premier joueur gagne.\n\nVariante : trois jetons.\n").expect("written");
    std::fs::write(
        dir.join("base.rules"),
        "rulebook base_game { source \"source.txt\" players 2..2 cite \"Le premier joueur gagne.\" }\n\
         token chip 3 cite \"Chaque joueur prend deux jetons.\"\n\
         zone pile of chip cite \"Chaque joueur prend deux jetons.\"\n\
         setup cite \"Chaque joueur prend deux jetons.\" { move 2 of chip from box to pile }\n\
         round turn cite \"Le premier joueur gagne.\" { choose n from [1, 2] by player(1)\n win player(1) }\n",
    )
    .expect("written");
    let findings = |when: &str| {
        let module = format!("module house extends \"base.rules\" {{ source \"source.txt\" }}\nexception three to setup when {when} instead cite \"Variante : trois jetons.\" {{ move 3 of chip from box to pile }}\n");
        std::fs::write(dir.join("house.rules"), module).expect("written");
        let (base, house) = (dir.join("base.rules"), dir.join("house.rules"));
        let args = ["validate", base.to_str().expect("utf-8"), house.to_str().expect("utf-8"), "-g", "50"];
        let said = String::from_utf8_lossy(&run(&args).stdout).into_owned();
        let json = report_of(&run(&[&args[..], &["--json"]].concat()));
        let setup = json["coverage"].as_array().expect("coverage").iter().find(|c| c["kind"] == "setup").expect("the setup's coverage").clone();
        let v203: Vec<String> = json["findings"].as_array().expect("findings").iter().filter(|f| f["code"] == "V203").map(|f| f["message"].to_string()).collect();
        (said, setup, v203)
    };
    let (said, setup, v203) = findings("true");
    assert!(v203.is_empty(), "{v203:?}");
    assert_eq!((setup["fired"].as_u64(), setup["replaced_by"].as_str()), (Some(0), Some("three")), "{setup}");
    assert!(said.contains("replaced by a module's exception that always holds: setup (`three`)"), "{said}");
    assert!(!said.contains("never:"), "{said}");
    let (said, setup, v203) = findings("count(pile) >= 0");
    assert!(v203.len() == 1 && v203[0].contains("its `instead` exception `three`"), "{v203:?}");
    assert!(setup.get("replaced_by").is_none() && said.contains("never: setup"), "{setup} {said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Whether the source text Grail Cup cites can be found. It is not in the
/// repository: `validate` looks for it in `shared/seeds/` above the
/// checkout (see `grimoire_cli::sources`), as CI lays it out.
fn grail_cup_source_is_available() -> bool {
    let path = root().join(GRAIL_CUP);
    let text = std::fs::read_to_string(&path).expect("rulebook exists");
    let model = compile(&[Source { name: GRAIL_CUP.into(), text }]).expect("compiles");
    grimoire_cli::sources::find_sources(&model, &path, &[]).iter().all(|s| s.text.is_some())
}

/// Without its source text, `validate` must fail and say so, not pass.
fn assert_missing_source_is_reported(out: &Output) {
    assert_eq!(out.status.code(), Some(1), "{}", stderr(out));
    let said = format!("{}{}", stderr(out), String::from_utf8_lossy(&out.stdout));
    assert!(said.contains("cannot be found"), "{said}");
    eprintln!("the Grail Cup source text is not in shared/seeds/ above the checkout: only its absence was checked");
}

#[test]
fn validate_passes_grail_cup_and_fails_a_broken_fixture() {
    let save = temp_file("counterexamples");
    let save = save.to_str().expect("utf-8 path");
    let bad = run(&["validate", "tests/fixtures/validate/empty_deck.rules", "--games", "10", "--save", save]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("R0005"), "{}", stderr(&bad));
    let ok = run(&["validate", GRAIL_CUP, "--games", "20", "--explore-states", "2000", "--guided-games", "2", "--json", "--save", save]);
    let _ = std::fs::remove_dir_all(save);
    if !grail_cup_source_is_available() {
        return assert_missing_source_is_reported(&ok);
    }
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let v = report_of(&ok);
    assert_eq!(v["trace"]["not_found"], 0, "every citation is found in the source");
}

/// `validate -p N` plays, searches and guides games at that count only
/// (an outside tester wrote `-p 2`, and clap's tip sent him to `-- -p`); a
/// count the rulebook does not allow is a bad argument (exit 2).
#[test]
fn validate_at_one_player_count() {
    let save = temp_file("counterexamples-players");
    let save = save.to_str().expect("utf-8 path");
    let at_four = run(&["validate", GRAIL_CUP, "-p", "4", "--games", "5", "--explore-states", "50", "--guided-games", "1", "--json", "--save", save]);
    let every = run(&["validate", GRAIL_CUP, "--games", "5", "--explore-states", "50", "--guided-games", "1", "--json", "--save", save]);
    let too_many = run(&["validate", GRAIL_CUP, "--players", "9", "--save", save]);
    let _ = std::fs::remove_dir_all(save);
    let counts = |out: &Output| -> Vec<u64> { report_of(out)["runs"].as_array().expect("runs").iter().map(|r| r["players"].as_u64().expect("a count")).collect() };
    assert_eq!(counts(&at_four), vec![4], "{}", stderr(&at_four));
    assert_eq!(counts(&every), (3..=8).collect::<Vec<u64>>());
    assert_eq!(too_many.status.code(), Some(2));
    assert!(stderr(&too_many).contains("3 to 8 players, not 9"), "{}", stderr(&too_many));
}

/// The search's line counts configurations, not states, and says when a
/// shuffle was searched through sampled orders (an outside tester read
/// "2000 states ..., 0 of them exhausted" as states, and the JSON alone
/// said the orders were sampled); the termination line says whether the
/// search proved that every game ends (another tester's draughts without a
/// draw rule passed with no word that it had not).
#[test]
fn validate_says_what_the_search_exhausted_and_what_it_sampled() {
    let save = temp_file("counterexamples-search-line");
    let save = save.to_str().expect("utf-8 path");
    let line = |args: &[&str]| {
        let out = run(args);
        let text = stdout(&out);
        let find = |what: &str| text.lines().find(|l| l.contains(what)).map(str::to_string).unwrap_or_default();
        (find("exhaustive search:"), find("termination:"))
    };
    let (grail, grail_ends) = line(&["validate", GRAIL_CUP, "-p", "3", "--games", "2", "--explore-states", "500", "--guided-games", "0", "--save", save]);
    let (ttt, ttt_ends) = line(&["validate", "rulebooks/classic/tic-tac-toe.rules", "--games", "2", "--guided-games", "0", "--save", save]);
    let (_, unsearched) = line(&["validate", "rulebooks/classic/tic-tac-toe.rules", "--games", "2", "--explore-states", "0", "--guided-games", "0", "--save", save]);
    let (_, endless) = line(&["validate", "tests/fixtures/validate/endless.rules", "--games", "2", "--guided-games", "0", "--save", save]);
    let (_, looping) = line(&["validate", "tests/fixtures/validate/stale_loop.rules", "--games", "2", "--guided-games", "0", "--save", save]);
    let _ = std::fs::remove_dir_all(save);
    // Termination: proven, not proven (the search stopped at its budget),
    // not searched, refuted.
    assert!(ttt_ends.contains("termination: proven in every configuration searched (1)"), "{ttt_ends}");
    assert!(grail_ends.contains("termination: not proven in 1 of the 1 configuration(s): their search was stopped by the state budget (500 states)"), "{grail_ends}");
    assert!(grail_ends.contains("a larger `--explore-states` may prove it"), "{grail_ends}");
    assert!(unsearched.contains("termination: not searched"), "{unsearched}");
    assert!(endless.contains("termination: refuted") && endless.contains("V505"), "{endless}");
    assert!(looping.contains("termination: refuted") && looping.contains("R0002"), "{looping}");
    assert!(grail.contains("500 states in 1 configuration(s); exhausted (every choice and chance outcome visited) in 0 of the 1"), "{grail}");
    assert!(grail.contains("searched through sampled orders, not every order, in 1 of the 1"), "{grail}");
    assert!(ttt.contains("exhausted (every choice and chance outcome visited) in 1 of the 1") && !ttt.contains("sampled"), "{ttt}");
}

/// The termination line names what stopped a search that is not the state
/// budget (a `simultaneous` step's combinations had read as the budget).
#[test]
fn the_termination_line_names_what_stopped_the_search() {
    let bids = "rulebook bids { players 4..4 }\nvar bid per_player : int\nround r {\n  simultaneous p in players {\n    choose b from 1..20 by p\n    bid[p] = b\n  }\n  win first q in players where bid[q] == (max x in players of bid[x])\n}\n";
    let file = rulebook_folder("termination_stop", &[("bids.rules", bids)]);
    let save = &save_dir("termination_stop_saved");
    let out = run(&["validate", &file("bids.rules"), "--games", "2", "--guided-games", "0", "--save", save]);
    let text = stdout(&out);
    let line = text.lines().find(|l| l.contains("termination:")).unwrap_or_default();
    assert!(line.contains("stopped by a `simultaneous` step with more than"), "{text}");
    assert!(!line.contains("--explore-states"), "a larger state budget would not help: {line}");
}

/// `simulate` lists each cause of failure once, at its first seed, with
/// how many other games failed so: the first five seeds alone showed only
/// the commonest cause (an outside tester's division by zero and counter
/// overflow never appeared among thirty failures).
#[test]
fn simulate_lists_every_cause_of_failure() {
    let file = temp_file("three-failures.rules");
    std::fs::write(
        &file,
        "rulebook r { players 2..2 }\ncounter c 0..10 = 0\nvar big : int = 4611686018427387904\nround turn { for p in players { choose n from 0..2 by p\n  if n == 0 { c += 20 } else if n == 1 { let z = 10 / (n - 1) } else { big = big * 4 }\n  win p } }\n",
    )
    .expect("a temporary file");
    let out = run(&["simulate", file.to_str().expect("utf-8 path"), "-p", "2", "-g", "30", "--seed", "1"]);
    let _ = std::fs::remove_file(&file);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("failures: 30"), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("seed ")).collect();
    assert_eq!(lines.len(), 3, "one line per cause: {lines:?}");
    for cause in ["does not fit in a number", "division by zero", "outside 0..10"] {
        assert!(lines.iter().any(|l| l.contains(cause)), "{cause} in {lines:?}");
    }
    let others: usize = lines.iter().filter_map(|l| l.split("; and ").nth(1)?.split(' ').next()?.parse::<usize>().ok()).sum();
    assert_eq!(others + lines.len(), 30, "{lines:?}");
}

#[test]
fn validate_gives_the_same_findings_on_one_thread_and_on_two() {
    // leak: a chip goes back to the box in most games, not all; conflict:
    // two exceptions apply, and rules no game reaches (coverage warnings).
    for fixture in ["tests/fixtures/validate/leak.rules", "tests/fixtures/validate/conflict.rules"] {
        let mut reports = Vec::new();
        let mut saved = Vec::new();
        for jobs in ["1", "2"] {
            let dir = temp_file(&format!("counterexamples-jobs{jobs}"));
            let _ = std::fs::remove_dir_all(&dir);
            let out = run(&["validate", fixture, "--games", "300", "--json", "--jobs", jobs, "--save", dir.to_str().expect("utf-8 path")]);
            assert_eq!(out.status.code(), Some(1), "{fixture} is broken: {}", stderr(&out));
            reports.push(report_of(&out));
            let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
                .map(|d| d.filter_map(Result::ok).map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap_or_default())).collect())
                .unwrap_or_default();
            files.sort();
            let _ = std::fs::remove_dir_all(&dir);
            saved.push(files);
        }
        let seeds: Vec<(String, u64)> = reports[0]["findings"].as_array().expect("findings").iter().filter_map(|f| Some((f["code"].as_str()?.to_string(), f["seed"].as_u64()?))).collect();
        assert!(!seeds.is_empty(), "{fixture}: a finding with a counterexample seed: {}", reports[0]);
        let runs = reports[0]["runs"].as_array().expect("runs");
        assert!(runs.iter().all(|r| r["games"] == 300 && r["failed"].as_u64().is_some_and(|f| f > 0 && f < 300)), "{fixture}: some games fail, not all: {runs:?}");
        assert!(!saved[0].is_empty() && saved[0].len() == seeds.len(), "{fixture}: one counterexample per finding with a seed: {:?}", saved[0].iter().map(|f| &f.0).collect::<Vec<_>>());
        let two = reports.pop().expect("two reports");
        let one = reports.pop().expect("two reports");
        assert_eq!(without_timings(one), without_timings(two), "{fixture}: the same findings, seeds, runs and coverage");
        assert_eq!(saved[0], saved[1], "{fixture}: the same counterexample files");
    }
}

#[test]
fn validate_writes_the_side_by_side_page() {
    let page = temp_file("side-by-side.html");
    let save = temp_file("counterexamples-html");
    let out = run(&["validate", GRAIL_CUP, "--games", "5", "--explore-states", "1000", "--guided-games", "1", "--save", save.to_str().expect("utf-8"), "--html", page.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_dir_all(&save);
    if !grail_cup_source_is_available() {
        let _ = std::fs::remove_file(&page);
        return assert_missing_source_is_reported(&out);
    }
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).expect("page written");
    let _ = std::fs::remove_file(&page);
    // "N of N paragraphs covered": every paragraph of the source is covered.
    let (before, _) = html.split_once(" paragraphs covered").expect("a coverage line");
    let words: Vec<&str> = before.rsplit(' ').take(3).collect();
    assert!(
        words.len() == 3 && words[1] == "of" && words[0].parse::<u32>().is_ok() && words[2] == words[0],
        "full coverage, \"N of N paragraphs covered\", got {words:?}"
    );
    assert!(html.contains("Dès qu&#39;un") || html.contains("Dès qu'un Chevalier atteint la Ligne d'arrivée"), "the source text is shown");
    assert!(html.contains("trigger grail_reached"), "next to the rule that encodes it");
}

/// A folder under target/ holding `files` (name, text): a base and its
/// modules. Gives the path of a file of it, as the commands take it.
fn rulebook_folder(folder: &str, files: &[(&str, &str)]) -> impl Fn(&str) -> String {
    let dir = work_file(folder);
    std::fs::create_dir_all(&dir).expect("a folder");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("written");
    }
    move |name: &str| dir.join(name).display().to_string()
}

/// `check` checks each scenario on the files it runs on: a module's
/// scenario with a typo is found even when another module is given too.
#[test]
fn check_finds_an_error_in_a_scenario_that_runs_on_fewer_files() {
    let file = rulebook_folder(
        "scenario-files",
        &[
            ("base.rules", "rulebook base { players 1..1 }\ncounter s 0..9 = 0\nround turn { choose k from [1, 2] by player(1)\n win player(1) }\n"),
            ("other.rules", "module other extends \"base.rules\" { }\ncounter t 0..9 = 0\n"),
            ("typo.rules", "module typo extends \"base.rules\" { }\nscenario typo { play 1\n expect sss == 0 }\n"),
        ],
    );
    let out = run(&["check", &file("base.rules"), &file("other.rules"), &file("typo.rules"), "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("typo.rules:3:9: E0101 unknown name `sss`"), "{}", stderr(&out));
    let fine = run(&["check", &file("base.rules"), &file("other.rules")]);
    assert_eq!(fine.status.code(), Some(0), "{}", stderr(&fine));
}

/// A module that extends a module builds on it: its scenarios run on both
/// (and on the base), as does a scenario of the base `with` the top one.
#[test]
fn a_scenario_of_a_module_of_a_module_runs_on_the_module_it_extends() {
    let file = rulebook_folder(
        "scenario-chain",
        &[
            ("base.rules", "rulebook base { players 1..1 }
round turn { choose k from [1, 2] by player(1)
 win player(1) }
scenario both with top { expect bonus == 2 }
"),
            ("mid.rules", "module mid extends \"base.rules\" { }\ncounter bonus 0..9 = 2 assume \"x\"\n"),
            ("top.rules", "module top extends \"mid.rules\" { }\nscenario uses_mid { expect bonus == 2 }\n"),
        ],
    );
    let checked = run(&["check", &file("top.rules")]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    let tested = run(&["test", &file("top.rules")]);
    assert_eq!(tested.status.code(), Some(0), "{}{}", stdout(&tested), stderr(&tested));
    assert!(stdout(&tested).contains("test uses_mid ... ok") && stdout(&tested).contains("test both ... ok"), "{}", stdout(&tested));
}

/// A scenario that needs a module not given is not compiled: `check`
/// says so rather than let "valid" vouch for its names.
#[test]
fn check_names_the_scenarios_it_could_not_check() {
    let file = rulebook_folder(
        "scenario-unchecked",
        &[
            ("base.rules", "rulebook base { players 1..1 }\nround turn { choose k from [1, 2] by player(1)\n win player(1) }\nscenario later with extra { expect nothing_here == 0 }\nscenario now { expect not over }\n"),
            ("extras.rules", "module extras extends \"base.rules\" { }\n"),
        ],
    );
    let out = run(&["check", &file("base.rules")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes, ["note: scenario `later` was not checked: module `extra` was not given"]);
    let report = report_of(&run(&["check", &file("base.rules"), "--json"]));
    assert_eq!(report["unchecked_scenarios"], serde_json::json!([{ "name": "later", "needs": ["extra"] }]));
    // A note is not a result: `--quiet` leaves it out.
    let quiet = run(&["-q", "check", &file("base.rules")]);
    assert!(!stderr(&quiet).contains("note:"), "{}", stderr(&quiet));
    // A module given one typo away is named.
    let typo = run(&["check", &file("base.rules"), &file("extras.rules")]);
    assert!(stderr(&typo).contains("module `extra` (did you mean `extras`?) was not given"), "{}", stderr(&typo));
}

/// A finding of a game of one player says "1 player".
#[test]
fn a_finding_counts_one_player_in_the_singular() {
    let file = rulebook_folder("one-player", &[("solo.rules", "rulebook solo { players 1..1 }\nround turn { choose k from [1, 2] by player(1) }\n")]);
    let save = temp_file("one-player-saved");
    let out = run(&["validate", &file("solo.rules"), "--games", "2", "--max-decisions", "10", "--explore-states", "0", "--guided-games", "0", "--error-format", "short", "--save", save.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_dir_all(&save);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("V503 the game did not end within 10 decisions (1 player, seed 0)"), "{}", stderr(&out));
}

/// Two modules that do not extend one another are read in the order of
/// their paths, whatever the order of the files on the command line: their
/// `after` exceptions to one rule compose the same way (doubled, then three
/// added: 5; the other way round would give 8).
#[test]
fn the_order_of_the_files_given_does_not_change_the_game() {
    let file = rulebook_folder(
        "module-order",
        &[
            ("base.rules", "rulebook base { players 1..1 }\ncounter score 0..100 = 1\nrule bump assume \"x\" { score += 0 }\nsetup assume \"x\" { do bump }\nround turn assume \"x\" { end }\n"),
            ("b_adds.rules", "module b_adds extends \"base.rules\" { }\nexception add_three to bump when true after assume \"x\" { score += 3 }\nscenario doubled_first with a_doubles { expect score == 5 }\n"),
            ("a_doubles.rules", "module a_doubles extends \"base.rules\" { }\nexception double to bump when true after assume \"x\" { score = score * 2 }\n"),
        ],
    );
    for order in [["a_doubles.rules", "b_adds.rules"], ["b_adds.rules", "a_doubles.rules"]] {
        let out = run(&["test", &file(order[0]), &file(order[1])]);
        assert_eq!(out.status.code(), Some(0), "{order:?}: {}{}", stdout(&out), stderr(&out));
        assert!(stdout(&out).contains("1 passed"), "{order:?}: {}", stdout(&out));
        let checked = run(&["check", &file(order[0]), &file(order[1])]);
        assert!(stderr(&checked).contains("`base` with the modules `a_doubles` and `b_adds` is valid"), "{order:?}: {}", stderr(&checked));
    }
}

/// validate's JSON lists the files a place's `file` indexes, as they were
/// read (base first, then the modules by path), whatever the order given
/// (an outside user could not tell which module a finding was in).
#[test]
fn validate_json_lists_the_files_its_places_index() {
    let file = rulebook_folder(
        "file-index",
        &[
            ("base.rules", "rulebook base { players 2..2 assume \"x\" }\nround turn assume \"x\" { win player(1) }\n"),
            ("z.rules", "module z extends \"base.rules\" { }\nzone z_spare assume \"x\"\n"),
            ("a.rules", "module a extends \"base.rules\" { }\nzone a_spare assume \"x\"\n"),
        ],
    );
    let out = run(&["validate", &file("z.rules"), &file("a.rules"), "--json", "--games", "2", "--explore-states", "10", "--guided-games", "0"]);
    let report = report_of(&out);
    let files: Vec<String> = report["files"].as_array().expect("a list").iter().map(|f| f.as_str().expect("a name").to_string()).collect();
    let names: Vec<&str> = files.iter().map(|f| f.rsplit('/').next().unwrap_or(f)).collect();
    assert_eq!(names, ["base.rules", "a.rules", "z.rules"], "{report}");
    for (zone, module) in [("z_spare", "z.rules"), ("a_spare", "a.rules")] {
        let finding = report["findings"].as_array().expect("findings").iter().find(|f| f["message"].as_str().is_some_and(|m| m.contains(zone))).unwrap_or_else(|| panic!("V202 for {zone}: {report}"));
        let index = finding["at"]["file"].as_u64().expect("a file index") as usize;
        assert!(files[index].ends_with(module), "{zone} is in {module}: {finding}");
    }
}

/// `simulate --score` of a counter of the whole game says what it is and
/// which counters `--score` takes; an unknown `--option` lists the options
/// (as validate did): an outside rule author's balance sweep.
#[test]
fn simulate_names_what_score_and_option_take() {
    let file = rulebook_folder(
        "score-kinds",
        &[("base.rules", "rulebook base { players 2..2 assume \"x\" }\ncounter moves 0..9 = 0 assume \"x\"\ncounter gold per_player 0..9 = 0 assume \"x\"\ntoken t 2 assume \"x\"\ncounter marks per_piece t 0..9 = 0 assume \"x\"\nvar bid per_player : int = 0 assume \"x\"\noption quick assume \"x\"\nround turn assume \"x\" { if enabled(quick) { moves += 1\n for x in pieces(t) { marks[x] += 1 }\n bid[player(1)] = 1 } win player(1) }\n")],
    );
    // What the name is, when it is no per-player counter (a hostile
    // tester's per-piece counter was called one of the whole game).
    for (name, what) in [("moves", "a counter of the whole game"), ("marks", "a counter of each piece"), ("bid", "a var")] {
        let out = run(&["simulate", &file("base.rules"), "-p", "2", "-g", "2", "--score", name]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(&format!("`{name}` is {what}, not a per-player counter: --score takes a per-player counter (its per-player counters are: gold)")), "{}", stderr(&out));
    }
    let out = run(&["simulate", &file("base.rules"), "-p", "2", "-g", "2", "--option", "quik"]);
    assert!(stderr(&out).contains("the rulebook has no option `quik`; its options are: quick"), "{}", stderr(&out));
}

/// `--perft` says "1 ply", not "1 plies" (an outside game author's
/// finding): here setup ends the game, so no game lasts 1 ply.
#[test]
fn perft_counts_one_ply_in_the_singular() {
    let file = rulebook_folder(
        "one-ply",
        &[("base.rules", "rulebook base { players 1..1 assume \"x\" }\nsetup assume \"x\" { end }\nround turn assume \"x\" { choose k from [1, 2] by player(1) }\n")],
    );
    let out = run(&["explore", &file("base.rules"), "-p", "1", "--perft", "3"]);
    assert!(stdout(&out).contains("(no game lasts 1 ply)"), "{}{}", stdout(&out), stderr(&out));
}

/// A module whose base is misspelt is offered the rulebook of its folder
/// with the nearest name (an outside rule author got only "No such file").
#[test]
fn a_misspelt_base_is_offered_the_nearest_rulebook_of_the_folder() {
    let file = rulebook_folder(
        "misspelt-base",
        &[
            ("grail-cup.rules", "rulebook g { players 2..2 }\nround turn { end }\n"),
            ("house.rules", "module house extends \"grailcup.rules\" { }\n"),
        ],
    );
    let out = run(&["check", &file("house.rules")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("which holds `grail-cup.rules`"), "{}", stderr(&out));
    // Never the module itself, however near its name (an outside author
    // was offered `mod.rules` for `mud.rules`, in `mod.rules`).
    let file = rulebook_folder("self-base", &[("base.rules", "rulebook g { players 2..2 }\nround turn { end }\n"), ("mod.rules", "module m extends \"mud.rules\" { }\n")]);
    let out = run(&["check", &file("mod.rules")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!stderr(&out).contains("`mod.rules`"), "{}", stderr(&out));
}

/// simulate counts the games won by several players together, which each
/// winner's seat counts too (the seats' wins added up to more than the
/// games, with no word of why: an outside rule author's finding).
#[test]
fn simulate_counts_the_games_won_together() {
    let file = rulebook_folder(
        "shared-wins",
        &[("base.rules", "rulebook base { players 2..2 assume \"x\" }\nround turn assume \"x\" { choose k from [1, 2] by player(1)\n if k == 1 { win players } else { win player(2) } }\n")],
    );
    let report = report_of(&run(&["simulate", &file("base.rules"), "-p", "2", "-g", "200", "-s", "0", "--json"]));
    let wins: u64 = report["wins_by_seat"].as_array().expect("seats").iter().filter_map(serde_json::Value::as_u64).sum();
    let shared = report["shared_wins"].as_u64().expect("a count");
    assert!(shared > 0 && shared < 200, "{report}");
    assert_eq!(wins, 200 + shared, "a game won by both counts for each seat: {report}");
    let text = stdout(&run(&["simulate", &file("base.rules"), "-p", "2", "-g", "200", "-s", "0"]));
    assert!(text.contains(&format!("games won by several players together: {shared}")), "{text}");
}

/// An option given twice is switched on once (it read `x,x` in the report:
/// an outside adversary's finding).
#[test]
fn an_option_given_twice_is_one_option() {
    let file = rulebook_folder(
        "option-twice",
        &[("base.rules", "rulebook base { players 2..2 assume \"x\" }\noption quick assume \"x\"\ncounter n 0..9 = 0 assume \"x\"\nround turn assume \"x\" { if enabled(quick) { n = 1 } choose k from [1, 2] by player(1)\n win player(1) }\n")],
    );
    let report = report_of(&run(&["validate", &file("base.rules"), "--option", "quick", "--option", "quick", "--games", "2", "--explore-states", "10", "--guided-games", "0", "--json"]));
    assert_eq!(report["runs"][0]["options"], serde_json::json!(["quick"]), "{report}");
}

/// A scenario whose `with` names a module that is not given is skipped;
/// when a module given has a name one typo away (not the scenario's own),
/// the skip says so.
#[test]
fn a_scenario_that_needs_a_misspelt_module_names_the_one_given() {
    let file = rulebook_folder(
        "with-typo",
        &[
            ("base.rules", "rulebook base { players 1..1 }\ncounter score 0..100 = 1\nround turn assume \"x\" { end }\n"),
            ("extra.rules", "module extra_rules extends \"base.rules\" { }\ncounter more 0..9 = 0\n"),
            ("house.rules", "module house extends \"base.rules\" { }\nscenario with_extra with extra_rule { expect more == 0 }\nscenario with_itself with hous { expect score == 1 }\n"),
        ],
    );
    let out = run(&["test", &file("house.rules"), &file("extra.rules")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("skipped (needs `extra_rule`, not given: did you mean `extra_rules`, which is given?)"), "{}", stdout(&out));
    // The scenario's own module is not what a `with` means: not suggested.
    assert!(stdout(&out).contains("with_itself ... skipped (needs `hous`)\n"), "{}", stdout(&out));
    let alone = run(&["test", &file("house.rules")]);
    assert!(stdout(&alone).contains("skipped (needs `extra_rule`)"), "{}", stdout(&alone));
}

/// The side-by-side page shows, next to each paragraph, every quote that
/// reaches it (one that runs over two paragraphs in both), each row can be
/// linked to, and the paragraphs nothing cites are listed as links.
#[test]
fn the_side_by_side_page_shows_every_quote_that_reaches_a_paragraph() {
    let source = work_file("split.txt");
    std::fs::write(&source, "Le jeu se joue à deux joueurs autour\nd'une table.\n\nLe joueur qui prend la dernière allumette\n\na perdu la partie.\n\nUn paragraphe que rien ne cite.\n").expect("written");
    let book = work_file("split.rules");
    std::fs::write(
        &book,
        "rulebook split { source \"split.txt\" players 2..2 cite \"Le jeu se joue à deux joueurs autour d'une table.\" }\n\
         round turn cite \"Le joueur qui prend la dernière allumette a perdu la partie.\" { win player(1) }\n",
    )
    .expect("written");
    let html = side_by_side_page(&book, "split");
    let row = |line: u32| page_row(&html, "split.txt", line);
    for line in [4, 6] {
        assert!(row(line).contains("cite &quot;Le joueur qui prend la dernière allumette a perdu la partie.&quot;"), "line {line}: {}", row(line));
    }
    assert!(html.contains("Not cited (line): <a href=\"#split.txt-8\">8</a>"), "{html}");
}

/// A quote not found is listed with its help on the page, which gives the
/// nearest sentence of the source, as the terminal does.
#[test]
fn the_side_by_side_page_gives_the_help_of_a_finding() {
    let book = with_source(
        "near.txt",
        "Le pion avance d'une case à chaque tour.\n",
        "near.rules",
        "rulebook near { source \"near.txt\" players 2..2 cite \"Le pion avance de deux cases à chaque tour.\" }\nround turn assume \"a test\" { win player(1) }\n",
    );
    let html = side_by_side_page(&book, "near");
    let finding = html.split("<code>T001</code>").nth(1).unwrap_or_else(|| panic!("a T001 finding: {html}"));
    let finding = &finding[..finding.find("</li>").unwrap_or(finding.len())];
    assert!(finding.contains("help: ") && finding.contains("the nearest sentence, line 1"), "{finding}");
}

/// A source whose file name holds a space or `#` still gives rows that can
/// be linked to: ids without spaces, links whose fragment is the whole id.
#[test]
fn the_side_by_side_page_links_rows_of_a_source_with_spaces_in_its_name() {
    let book = with_source(
        "règles du jeu#1.txt",
        "Le pion avance d'une case à chaque tour.\n\nUn paragraphe que rien ne cite.\n",
        "spaced.rules",
        "rulebook spaced { source \"règles du jeu#1.txt\" players 2..2 cite \"Le pion avance d'une case à chaque tour.\" }\nround turn assume \"a test\" { win player(1) }\n",
    );
    let html = side_by_side_page(&book, "spaced");
    assert!(html.contains("id=\"règles_du_jeu_1.txt-1\"") && html.contains("<a href=\"#règles_du_jeu_1.txt-3\">3</a>"), "{html}");
    assert!(!html.contains("id=\"règles du"), "{html}");
}

/// The side-by-side page `validate --html` writes for the rulebook `book`,
/// in a work file named after `name`.
fn side_by_side_page(book: &Path, name: &str) -> String {
    let page = work_file(&format!("{name}.html"));
    let out = run(&["validate", book.to_str().expect("utf-8"), "--games", "2", "--explore-states", "100", "--guided-games", "0", "--html", page.to_str().expect("utf-8")]);
    assert!(out.status.code().is_some(), "{}", stderr(&out));
    std::fs::read_to_string(&page).expect("page written")
}

/// A source text and a rulebook that cites it, written side by side in
/// the work folder: the rulebook's path.
fn with_source(source: &str, text: &str, book: &str, rules: &str) -> PathBuf {
    std::fs::write(work_file(source), text).expect("source written");
    let path = work_file(book);
    std::fs::write(&path, rules).expect("rulebook written");
    path
}

/// The row of the page for the paragraph of `source` that starts at `line`.
fn page_row<'a>(html: &'a str, source: &str, line: u32) -> &'a str {
    let start = html.find(&format!("id=\"{source}-{line}\"")).unwrap_or_else(|| panic!("a row for line {line}: {html}"));
    let rest = &html[start..];
    &rest[..rest.find("</tr>").unwrap_or(rest.len())]
}

/// Next to a paragraph, a declaration shows only its quotes that reach
/// that paragraph (a discrepancy quotes two), and a block is shown by its
/// line (`if ...`), its quote on that line not written again.
#[test]
fn the_side_by_side_page_shows_each_quote_next_to_its_own_paragraph() {
    let source = work_file("two.txt");
    std::fs::write(&source, "Le pion avance d'une case.\n\nUn pion qui sort du plateau s'arrête au bord.\n\nUn pion qui sort du plateau revient au départ.\n\nUn \u{1b}[2J texte \u{202e}piégé.\n").expect("written");
    let book = work_file("two.rules");
    std::fs::write(
        &book,
        "rulebook two { source \"two.txt\" players 2..2 cite \"Le pion avance d'une case.\" }\n\
         counter at 0..3 = 0\n\
         round turn assume \"a test\" {\n  at += 1\n  if at > 2 cite \"Un pion qui sort du plateau s'arrête au bord.\" { at = 2 }\n  win player(1)\n}\n\
         discrepancy off_board {\n  cite \"Un pion qui sort du plateau s'arrête au bord.\"\n  cite \"Un pion qui sort du plateau revient au départ.\"\n  chosen \"it stops\"\n  because \"a test\"\n}\n",
    )
    .expect("written");
    let html = side_by_side_page(&book, "two");
    let row = |line: u32| page_row(&html, "two.txt", line);
    let (stops, back) = ("sort du plateau s'arrête au bord.&quot;", "sort du plateau revient au départ.&quot;");
    assert!(row(3).contains(stops) && !row(3).contains(back), "line 3: {}", row(3));
    assert!(row(5).contains(back) && !row(5).contains(stops), "line 5: {}", row(5));
    assert!(row(3).contains("<pre>if at &gt; 2 cite"), "the block by its line: {}", row(3));
    assert_eq!(row(3).matches(stops).count(), 2, "once for the discrepancy, once on the `if` line: {}", row(3));
    // What a source text holds that a terminal would obey is shown as `?`.
    assert!(row(7).contains("Un ?[2J texte ?piégé.") && !html.contains(['\u{1b}', '\u{202e}']), "{}", row(7));
}

/// A declaration that reaches a paragraph only by a short quote (a name
/// the paragraph mentions) is marked so beside it, where a translator
/// took it for the paragraph's encoding (an outside translator's finding).
#[test]
fn the_side_by_side_page_marks_a_short_quote_as_not_counted() {
    let book = with_source(
        "named.txt",
        "Le pion avance d'une case.\n\nMerlin rejoue une fois par tour.\n",
        "named.rules",
        "rulebook named { source \"named.txt\" players 2..2 cite \"Le pion avance d'une case.\" }\n\
         round turn cite \"Merlin rejoue une fois par tour.\" { win player(1) }\n\
         counter wizard 0..1 = 0 cite \"Merlin\"\n",
    );
    let html = side_by_side_page(&book, "named");
    let row = page_row(&html, "named.txt", 3);
    let (full, short) = (row.find("<b>turn</b>").expect("the round cites the paragraph"), row.find("<b>wizard</b>").expect("the counter reaches it"));
    let note = "short quote (fewer than 4 of the paragraph's words): not counted";
    assert!(row[short..].starts_with(&format!("<b>wizard</b> <i class=\"short-q\">{note}")), "{row}");
    assert!(!row[full..short].contains(note), "the full quote is not marked: {row}");
}

/// A narrative rule never runs, so a reviewer must be able to read every
/// one of them: the report lists them with their place, as it lists the
/// assumptions and discrepancies.
#[test]
fn validate_lists_the_narrative_rules_with_their_places() {
    let book = with_source(
        "told.txt",
        "Le pion avance d'une case.\n\nOn raconte une histoire du royaume.\n",
        "told.rules",
        "rulebook told { source \"told.txt\" players 2..2 cite \"Le pion avance d'une case.\" }\n\
         round turn assume \"a test\" { win player(1) }\n\
         narrative story \"flavour only\" cite \"On raconte une histoire du royaume.\"\n",
    );
    let path = book.to_str().expect("utf-8");
    let budget = ["--games", "2", "--explore-states", "100", "--guided-games", "0"];
    let human = run(&[&["validate", path][..], &budget].concat());
    let text = stdout(&human);
    assert!(text.contains("narrative rules (1):") && text.contains("- story (") && text.contains("told.rules:3:1): flavour only"), "{text}");
    let report = report_of(&run(&[&["validate", path, "--json"][..], &budget].concat()));
    assert_eq!(report["narratives"][0]["name"], "story", "{report}");
    assert_eq!(report["narratives"][0]["text"], "flavour only", "{report}");
    let html = side_by_side_page(&book, "told");
    assert!(html.contains("<h2>Narrative rules (1)</h2><ul><li><b>story</b>: flavour only</li>"), "{html}");
}

#[test]
fn simulate_checks_declared_invariants_unless_told_not_to() {
    let drift = "tests/fixtures/validate/drift.rules";
    let checked = report_of(&run(&["simulate", drift, "-p", "2", "-g", "30", "-s", "0", "--json"]));
    let failures = checked["failures"].as_array().expect("a list");
    assert!(!failures.is_empty(), "the drifting score must be caught: {checked}");
    assert!(failures.iter().all(|f| f["message"].as_str().is_some_and(|m| m.contains("`score_is_chips` does not hold"))), "{checked}");
    // Each failure says what stopped it and where (it gave the seed and the
    // message only: an outside rule author's finding).
    assert!(failures.iter().all(|f| f["code"] == "V504" && f["file"].as_str().is_some_and(|p| p.ends_with("drift.rules")) && f["line"].as_u64().is_some()), "{checked}");
    let unchecked = report_of(&run(&["simulate", drift, "-p", "2", "-g", "30", "-s", "0", "--json", "--unchecked"]));
    assert_eq!(unchecked["failures"].as_array().map(Vec::len), Some(0), "{unchecked}");
}

// ---------------------------------------------------------------- grimoire test

const SCEN_PASS: &str = "tests/fixtures/scenarios/pass.rules";
const SCEN_FAIL: &str = "tests/fixtures/scenarios/fail.rules";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn test_passes_every_scenario_of_a_rulebook() {
    let out = run(&["test", SCEN_PASS]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let golden = "
running 3 scenario(s) of `coins` (tests/fixtures/scenarios/pass.rules)
test first_move ... ok
test last_coin_wins ... ok
test random_to_the_end ... ok

test result: ok. 3 passed; 0 failed; 0 skipped

";
    assert_eq!(stdout(&out), golden);
}

#[test]
fn test_reports_a_failing_scenario_with_its_step_and_the_position() {
    let out = run(&["test", SCEN_PASS, SCEN_FAIL]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let golden = r#"
running 6 scenario(s) of `coins` (tests/fixtures/scenarios/pass.rules, tests/fixtures/scenarios/fail.rules)
test first_move ... ok
test last_coin_wins ... ok
test random_to_the_end ... ok
test three_coins_at_once ... FAILED
test second_player_moves ... ok
test with_a_house_rule ... skipped (needs `house_rule`)

failures:

---- three_coins_at_once (tests/fixtures/scenarios/fail.rules:8; 2 players, seed 0; on tests/fixtures/scenarios/pass.rules + tests/fixtures/scenarios/fail.rules) ----
  the scenario checks: « prend 1 ou 2 pièces »
  step 3, tests/fixtures/scenarios/fail.rules:11: expect options contain "3" cite "prend 1 ou 2 pièces"
  the step checks: « prend 1 ou 2 pièces »
  expected: the options to contain "3"
  found:    the options are "1", "2"
  pending: player 2 must decide at tests/fixtures/scenarios/pass.rules:19 "How many coins?" (after 1 decision(s))
  options: "1", "2"
  that rule encodes: « prend 1 ou 2 pièces »
  position, as player 2 sees it (round 1):
    pot: coin ×5
    purse[1]: coin ×2
    taken[1] = 2; taken[2] = 0; last = player 1

failures:
    three_coins_at_once

test result: FAILED. 4 passed; 1 failed; 1 skipped

"#;
    assert_eq!(stdout(&out), golden);
    assert_eq!(stderr(&out), "tests/fixtures/scenarios/fail.rules:15:45: warning: S002 the scenario `second_player_moves` cites « prend 3 pièces », which is not in `coins.txt`\n");
}

#[test]
fn test_json_gives_each_scenario_its_status_and_the_failure() {
    let out = run(&["test", SCEN_FAIL, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v = report_of(&out);
    assert_eq!((v["passed"].as_u64(), v["failed"].as_u64(), v["skipped"].as_u64()), (Some(4), Some(1), Some(1)), "{v}");
    let scenarios = v["scenarios"].as_array().expect("a list");
    let names: Vec<&str> = scenarios.iter().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["first_move", "last_coin_wins", "random_to_the_end", "three_coins_at_once", "second_player_moves", "with_a_house_rule"]);
    let failed = scenarios.iter().find(|s| s["status"] == "failed").expect("one failed");
    assert_eq!(failed["name"], "three_coins_at_once");
    let f = &failed["failure"];
    assert_eq!((f["step"].as_u64(), f["at"]["line"].as_u64()), (Some(3), Some(11)), "{f}");
    assert_eq!(f["at"]["file"], SCEN_FAIL);
    assert_eq!(f["found"], "the options are \"1\", \"2\"");
    assert_eq!(f["pending_at"]["line"].as_u64(), Some(19), "the `choose` of pass.rules: {f}");
    assert_eq!(f["pending_cites"], "prend 1 ou 2 pièces");
    assert_eq!(f["decider"].as_u64(), Some(2));
    // Players are numbered from 1 throughout: the position is the decider's.
    assert_eq!(f["position"]["player"].as_u64(), Some(2), "{f}");
    assert!(f["position"]["zones"].as_array().is_some_and(|z| z.iter().any(|z| z["zone"] == "pot" && z["count"] == 5)), "{f}");
    // A base scenario runs on the base alone, a module's on the base and the module.
    assert_eq!(scenarios[0]["files"], serde_json::json!([SCEN_PASS]));
    assert_eq!(scenarios[3]["files"], serde_json::json!([SCEN_PASS, SCEN_FAIL]));
    let skipped = scenarios.iter().find(|s| s["status"] == "skipped").expect("one skipped");
    assert_eq!(skipped["reason"], "needs `house_rule`");
    // Listed as written: its options come from the module not given.
    assert_eq!(skipped["options"], serde_json::json!(["house_on"]));
    assert_eq!(v["unfound_cites"], serde_json::json!([{ "scenario": "second_player_moves", "quote": "prend 3 pièces", "source": "coins.txt" }]));
}

#[test]
fn test_filter_runs_only_the_scenarios_named() {
    let out = run(&["test", SCEN_FAIL, "--filter", "coin"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("running 2 scenario(s)") && text.contains("test last_coin_wins ... ok") && text.contains("test three_coins_at_once ... FAILED"), "{text}");
    let out = run(&["test", SCEN_FAIL, "--filter", "second"]);
    assert_eq!(out.status.code(), Some(0), "only a passing one: {}", stdout(&out));
}

#[test]
fn test_reports_a_scenario_that_does_not_resolve_and_exits_1() {
    let path = temp_file("bad-scenario.rules");
    let text = std::fs::read_to_string(root().join(SCEN_PASS)).expect("fixture") + "\nscenario typo players 2 {\n  expect takem[player(1)] == 0\n}\n";
    std::fs::write(&path, text).expect("temp file");
    let out = run(&["test", path.to_str().expect("utf-8")]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("E0101") && err.contains("unknown name `takem`") && err.contains("did you mean `taken`?"), "{err}");
}

#[test]
fn test_of_a_missing_file_is_a_tool_failure() {
    let out = run(&["test", "no/such/rulebook.rules"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn test_passes_the_scenarios_of_the_real_rulebooks() {
    let merlin = ["rulebooks/merlin/merlin.rules", "rulebooks/merlin/faveur-du-roi.rules", "rulebooks/merlin/chevaliers.rules"];
    for files in [vec![GRAIL_CUP], merlin.to_vec()] {
        let mut args = vec!["test", "--json"];
        args.extend(files.iter().copied());
        let out = run(&args);
        let v = report_of(&out);
        assert_eq!(out.status.code(), Some(0), "{files:?}: {v}");
        assert_eq!((v["failed"].as_u64(), v["skipped"].as_u64()), (Some(0), Some(0)), "{v}");
        assert!(v["passed"].as_u64().is_some_and(|n| n >= 6), "{files:?}: {v}");
    }
    // Without La Faveur du Roi, the scenario that needs it is skipped, not failed.
    let v = report_of(&run(&["test", "--json", merlin[0], merlin[2]]));
    assert_eq!((v["failed"].as_u64(), v["skipped"].as_u64()), (Some(0), Some(1)), "{v}");
}

#[test]
fn replay_refuses_a_log_whose_option_does_not_exist() {
    // R0011 is the engine's answer to an option that does not exist, or to a
    // move after the end; no rulebook can give it. A hand-edited log is the
    // only way to ask for one from the command line, and `grimoire replay`
    // compares each step's label first: such a log stops there, as a
    // mismatch at its step, before the engine is asked.
    const LOG: &str = "tests/fixtures/logs/bad_option.json";
    let out = run(&["replay", LOG]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("the replay differs from the log: step 2: the log takes option 7 (counted from 0), but player 2 has only 2 option(s)"), "{}", stderr(&out));

    // Asked directly, the engine says R0011, and leaves the game as it was.
    let log: GameLog = serde_json::from_str(&std::fs::read_to_string(root().join(LOG)).expect("log exists")).expect("a game log");
    let file = log.rulebook.first().expect("the log names its rulebook").clone();
    // Named from the log's folder.
    let text = std::fs::read_to_string(root().join("tests/fixtures/logs").join(&file)).expect("rulebook exists");
    let model = std::sync::Arc::new(compile(&[Source { name: file, text }]).expect("compiles"));
    let game = grimoire_interpreter::engine::Game::new(model, log.players, &log.options).expect("valid player count");
    let mut st = game.start(log.seed).expect("starts");
    game.apply(&mut st, 0).expect("the first step is legal");
    let e = game.apply(&mut st, 7).expect_err("there is no option 7");
    assert_eq!((e.kind.code(), e.message.as_str()), ("R0011", "option 7 does not exist; there are 2"));
    game.apply(&mut st, 0).expect("the game goes on as before");
    assert!(st.is_over(), "sound.rules at seed 1 ends after two decisions");
    assert_eq!(game.apply(&mut st, 0).expect_err("the game is over").kind.code(), "R0011");
}

// ------------------------------------------------- conventions of the command line

const EMPTY_DECK: &str = "tests/fixtures/validate/empty_deck.rules";
const SETUP_SHORT: &str = "tests/fixtures/validate/setup_short.rules";
const CONFLICT: &str = "tests/fixtures/validate/conflict.rules";
const TIC_TAC_TOE: &str = "rulebooks/classic/tic-tac-toe.rules";
/// Small budgets, so that `validate` runs in a moment.
const SMALL: [&str; 6] = ["--games", "20", "--explore-states", "500", "--guided-games", "1"];

/// `args` with the environment changed by `env`: `(name, Some(value))` sets,
/// `(name, None)` removes (`run` sets `NO_COLOR`).
fn run_env(args: &[&str], env: &[(&str, Option<&str>)]) -> Output {
    let mut cmd = Command::new(grimoire());
    cmd.args(args).current_dir(root()).env("NO_COLOR", "1");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    cmd.output().expect("grimoire runs")
}

/// A path of this test's own under the working directory the binary runs
/// in (`target/cli-tests-PID/`): a log there may name the rulebooks of the
/// repository (a log may only name files under its root).
fn work_file(name: &str) -> PathBuf {
    let dir = root().join("target").join(format!("cli-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder under target/");
    dir.join(name)
}

/// A counterexample directory of its own for a test.
fn save_dir(name: &str) -> String {
    let dir = work_file(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir.to_str().expect("utf-8 path").to_string()
}

/// The text without its ANSI colour sequences.
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == ESC {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `validate FILE` with small budgets, saving counterexamples in `save`.
fn validate_args<'a>(file: &'a str, save: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["validate", file, "--save", save];
    args.extend(SMALL);
    args.extend(more);
    args
}

/// What `grimoire args` writes on a terminal (stdout and stderr together,
/// lines ending in `\r\n`), through `script` (util-linux), which gives it a
/// pseudo-terminal; `None` when `script` cannot be run here.
fn on_a_terminal(args: &[&str], env: &[(&str, Option<&str>)]) -> Option<String> {
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let line: Vec<String> = std::iter::once(grimoire().to_str().expect("utf-8 path")).chain(args.iter().copied()).map(quote).collect();
    let mut cmd = Command::new("script");
    cmd.args(["-qec", &line.join(" "), "/dev/null"]).current_dir(root()).stdin(std::process::Stdio::null()).env_remove("NO_COLOR");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    match cmd.output() {
        Ok(out) if out.status.code().is_some() => Some(String::from_utf8_lossy(&out.stdout).into_owned()),
        _ => {
            eprintln!("`script` cannot run here: what grimoire does on a terminal was not checked");
            None
        }
    }
}

const ESC: char = '\u{1b}';

#[test]
fn colour_only_on_a_terminal_unless_no_color_or_the_flag_says_otherwise() {
    // Into a pipe: no colour by default, even without NO_COLOR.
    let piped = run_env(&["check", TYPO], &[("NO_COLOR", None)]);
    assert_eq!(piped.status.code(), Some(1));
    assert!(!stderr(&piped).contains(ESC), "no colour into a pipe: {:?}", stderr(&piped));
    // --color always wins over the pipe, and over NO_COLOR (a flag given for
    // this run overrides the environment: no-color.org).
    for env in [None, Some("1")] {
        let always = run_env(&["check", TYPO, "--color", "always"], &[("NO_COLOR", env)]);
        assert!(stderr(&always).contains(ESC), "--color always, NO_COLOR={env:?}: {:?}", stderr(&always));
    }
    // The validate report and the simulate error follow the flag too.
    let save = save_dir("colour");
    let report = run(&validate_args(EMPTY_DECK, &save, &["--color", "always"]));
    assert!(stdout(&report).contains("\u{1b}[1;31m1 error(s)"), "the result line in red: {:?}", stdout(&report));
    assert!(stderr(&report).contains(ESC), "{:?}", stderr(&report));
    let report = run(&validate_args(EMPTY_DECK, &save, &["--color", "never"]));
    let _ = std::fs::remove_dir_all(&save);
    assert!(!stdout(&report).contains(ESC) && !stderr(&report).contains(ESC));
    let sim = run(&["simulate", CONFLICT, "-p", "2", "-g", "5", "--color", "always"]);
    assert!(stderr(&sim).contains(ESC), "{:?}", stderr(&sim));

    // On a terminal: colour, unless NO_COLOR is set to something (an empty
    // NO_COLOR does not count) or --color never.
    let Some(tty) = on_a_terminal(&["check", TYPO], &[]) else { return };
    assert!(tty.contains(ESC), "colour on a terminal: {tty:?}");
    let no_color = on_a_terminal(&["check", TYPO], &[("NO_COLOR", Some("1"))]).unwrap_or_default();
    assert!(!no_color.contains(ESC) && no_color.contains("E0101"), "NO_COLOR=1 on a terminal: {no_color:?}");
    let empty = on_a_terminal(&["check", TYPO], &[("NO_COLOR", Some(""))]).unwrap_or_default();
    assert!(empty.contains(ESC), "an empty NO_COLOR is not set: {empty:?}");
    let never = on_a_terminal(&["check", TYPO, "--color", "never"], &[]).unwrap_or_default();
    assert!(!never.contains(ESC) && never.contains("E0101"), "{never:?}");
}

/// The characters of boxes and their corners (U+2500–U+259F), and the
/// error cross of the human format.
fn has_box_drawing(text: &str) -> bool {
    text.chars().any(|c| ('\u{2500}'..='\u{259f}').contains(&c) || c == '×')
}

#[test]
fn plain_draws_no_unicode_boxes_and_human_does() {
    let save = save_dir("plain");
    let runs: [Vec<&str>; 5] = [
        vec!["check", TYPO],
        validate_args(EMPTY_DECK, &save, &[]),
        vec!["simulate", CONFLICT, "-p", "2", "-g", "5"],
        vec!["explore", EMPTY_DECK, "-p", "2", "--save", &save],
        vec!["play", SETUP_SHORT, "-p", "4", "--auto"],
    ];
    for args in &runs {
        let human = run(args);
        assert!(has_box_drawing(&stderr(&human)), "human draws boxes: {args:?}: {}", stderr(&human));
        let plain = run(&[&args[..], &["--error-format", "plain", "--color", "always"]].concat());
        let text = stderr(&plain);
        assert!(!has_box_drawing(&text), "{args:?} --error-format plain: {text}");
        let shown = strip_ansi(&text);
        assert!(shown.contains("^^") && shown.contains(",-[") && text.contains(ESC), "the rulebook's text is still shown, in ASCII, in colour: {args:?}: {text}");
        assert_eq!(human.status.code(), plain.status.code(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&save);
    // The position of an interactive game too.
    let play = |more: &[&str]| {
        use std::io::Write;
        let mut child = Command::new(grimoire())
            .args([&["play", GRAIL_CUP, "-p", "3"][..], more].concat())
            .current_dir(root())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("grimoire runs");
        child.stdin.take().expect("stdin").write_all(b"1\n").expect("write");
        stdout(&child.wait_with_output().expect("ends when input closes"))
    };
    assert!(has_box_drawing(&play(&[])), "the human format rules off each decision");
    let plain = play(&["--error-format", "plain"]);
    let boxes = |t: &str| t.chars().any(|c| ('\u{2500}'..='\u{259f}').contains(&c));
    assert!(!boxes(&plain) && plain.contains("-- round 1 -- player 1 to decide --"), "{plain}");
}

// ------------------------------------------------------- play for a person

/// What `grimoire args` writes on a pseudo-terminal (through `script`, as
/// `on_a_terminal`) while `typed` is typed at it, a line at a time; `None`
/// when `script` cannot be run here.
fn typing_at_a_terminal(args: &[&str], typed: &str) -> Option<String> {
    use std::io::Write;
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let line: Vec<String> = std::iter::once(grimoire().to_str().expect("utf-8 path")).chain(args.iter().copied()).map(quote).collect();
    let child = Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("`script` cannot run here: play on a terminal was not checked");
        return None;
    };
    child.stdin.take().expect("stdin").write_all(typed.as_bytes()).expect("typed");
    let out = child.wait_with_output().expect("script ends");
    Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

/// Erase the screen and what scrolled off it.
const CLEAR: &str = "\u{1b}[H\u{1b}[2J\u{1b}[3J";

#[test]
fn play_on_a_terminal_is_a_hot_seat_that_hides_each_players_secrets() {
    // Player 1 takes an ally and passes his cards on; then player 2 is asked
    // for the keyboard, takes an ally, and quits at player 3's turn.
    let Some(text) = typing_at_a_terminal(&["play", GRAIL_CUP, "-p", "3", "-s", "1"], "\n1\n1\n\n1\nquit\n") else { return };
    let pass = |n: u32| format!("Player {n}'s turn: pass the keyboard to player {n}, then press Enter");
    let at = |what: &str| text.find(what).unwrap_or_else(|| panic!("`{what}` is shown: {text}"));
    let (to_1, to_2, to_3) = (at(&pass(1)), at(&pass(2)), at(&pass(3)));
    assert!(to_1 < to_2 && to_2 < to_3, "one pass per player's turn, in order");
    // Player 1 sees his own chosen ally, in words, apart from the rest.
    let first = &text[to_1..to_2];
    assert!(first.contains("You, player 1\n") && first.contains("  Only you see:\n") && first.contains("    chosen allies: La Forgeronne"), "{first}");
    // Before player 2's pass, the screen is cleared; after it too, and
    // player 2 sees player 1's chosen ally face down.
    assert!(text[..to_2].trim_end_matches(['\n', ' ']).ends_with(CLEAR), "cleared before the pass: {:?}", &text[to_2.saturating_sub(80)..to_2]);
    let second = &text[to_2..to_3];
    assert!(second.contains(CLEAR), "cleared after the pass");
    assert!(!second.contains("La Forgeronne") && second.contains("Player 1\n") && second.contains("  chosen allies: 1 hidden"), "player 1's secret is hidden from player 2: {second}");
    assert!(second.contains("You, player 2\n"), "{second}");
    assert!(!second.contains("hand[") && !second.contains("chosen_allies"), "names in words, not the engine's: {second}");
    // quit at the pass: stopped, and how to keep a log.
    assert!(text[to_3..].contains("game stopped (quit) after 3 decisions; the log was not kept (`--log FILE` keeps it"), "{}", &text[to_3..]);
}

#[test]
fn play_has_help_undo_and_quit_and_quit_saves_the_log() {
    let log = work_file("undo.json");
    let path = log.to_str().expect("utf-8 path");
    // Player 1 takes an ally and passes clockwise; player 2 has nothing to
    // undo yet, takes an ally, and so does player 3; player 1, at his
    // second ally, undoes back to his direction (and the two allies taken
    // since), passes counterclockwise instead, and player 3 quits.
    let out = typing(&["play", GRAIL_CUP, "-p", "3", "-s", "1", "--log", path], "1\nhelp\n1\nundo\n1\n1\nundo\n2\nquit\n");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "quit is not a failure: {}", stderr(&out));
    assert!(!text.contains("pass the keyboard") && !text.contains(CLEAR), "no hot seat for a pipe");
    assert!(text.contains("  undo   go back to your previous decision"), "help: {text}");
    assert!(text.contains("nothing to undo: you have not decided yet"), "player 2 has nothing to undo: {text}");
    assert!(text.contains("(undone: your decision « clockwise » and the 2 decisions taken since)"), "{text}");
    let deciders: Vec<&str> = text.lines().filter(|l| l.contains(" to decide ")).collect();
    assert_eq!(deciders.iter().filter(|l| l.contains("player 1 to decide")).count(), 4, "player 1: ally, direction, ally, direction again: {deciders:#?}");
    assert!(text.contains(&format!("game stopped (quit) after 2 decisions: the log is saved in {path}")), "{text}");
    let saved: GameLog = serde_json::from_str(&std::fs::read_to_string(&log).expect("saved")).expect("a log");
    let taken: Vec<(u16, &str)> = saved.steps.iter().map(|s| (s.player, s.label.as_str())).collect();
    assert_eq!(taken, vec![(1, "forgeronne (La Forgeronne)"), (1, "counterclockwise")], "the log holds what the undo kept");
    let replayed = run(&["replay", path]);
    let _ = std::fs::remove_file(&log);
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
}

/// A line of `--error-format short`: `file:line:col: CODE message`, or
/// `file: CODE message` for a finding without a place. Gives the place and
/// the code.
fn short_line(line: &str) -> Option<(String, String)> {
    let (place, rest) = line.split_once(": ")?;
    let code = rest.split(' ').next()?;
    let code_ok = code.len() >= 4 && code.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && code.chars().skip(1).all(|c| c.is_ascii_digit());
    let parts: Vec<&str> = place.rsplitn(3, ':').collect();
    let place_ok = match parts.as_slice() {
        [col, line, file] => col.parse::<u32>().is_ok_and(|c| c >= 1) && line.parse::<u32>().is_ok_and(|l| l >= 1) && file.ends_with(".rules"),
        _ => place.ends_with(".rules"),
    };
    (code_ok && place_ok).then(|| (place.to_string(), code.to_string()))
}

/// A misspelt statement keyword is reported at the misspelt word (the
/// parse fails at the word after it), with the keyword named.
#[test]
fn a_misspelt_keyword_is_pointed_at() {
    let out = run(&["check", "tests/fixtures/err/misspelt_keyword.rules", "--error-format", "short"]);
    assert!(stderr(&out).starts_with("tests/fixtures/err/misspelt_keyword.rules:12:5: E0001 "), "{}", stderr(&out));
    let out = run(&["check", "tests/fixtures/err/misspelt_keyword.rules", "--error-format", "plain"]);
    assert!(stderr(&out).contains("did you mean `choose`?"), "{}", stderr(&out));
}

/// Citations of a source text that cannot be read are counted apart
/// (`unread`): "0 not found" alone read as if every quote had been checked.
#[test]
fn citations_of_a_missing_source_are_said_to_be_unchecked() {
    let file = rulebook_folder(
        "unread-source",
        &[("lost.rules", "rulebook lost { source \"lost.txt\" players 2..2 cite \"two players\" }\nround turn cite \"the first player wins\" { choose n from [1] by player(1)\n  win player(1) }\n")],
    );
    let (lost, save) = (file("lost.rules"), save_dir("unread-source-save"));
    let args = ["validate", lost.as_str(), "--games", "2", "--explore-states", "10", "--guided-games", "0", "--save", save.as_str()];
    let human = run(&args);
    let json = run(&[&args[..], &["--json"]].concat());
    assert!(stdout(&human).contains("(2 citations, 0 not found; 2 not checked: their source text could not be read (T002))"), "{}", stdout(&human));
    let trace = &report_of(&json)["trace"];
    assert_eq!((trace["citations"].as_u64(), trace["not_found"].as_u64(), trace["unread"].as_u64()), (Some(2), Some(0), Some(2)), "{trace}");
}

/// A base rulebook's scenario runs on the base alone, and its steps'
/// quotes are checked there whatever modules are given (given a module,
/// only the header's quote was checked: an outside tester's bad quote on a
/// step went unreported).
#[test]
fn a_base_scenarios_quotes_are_checked_with_a_module_given() {
    let file = rulebook_folder(
        "scenario-quotes",
        &[
            ("src.txt", "Each player takes a chip.\n"),
            (
                "base.rules",
                "rulebook base { source \"src.txt\" players 2..2 }\ntoken chip 2\nzone pile of chip\nsetup { move 2 of chip from box to pile }\nround turn { choose n from [1, 2] by player(1)\n  win player(1) }\nscenario starts players 2 cite \"not a header quote\" {\n  expect count(pile) == 2 cite \"not a step quote\"\n}\n",
            ),
            ("house.rules", "module house extends \"base.rules\" { title \"house\" }\n"),
        ],
    );
    let (base, house) = (file("base.rules"), file("house.rules"));
    let alone = run(&["test", &base, "--error-format", "short"]);
    let with_module = run(&["test", &base, &house, "--error-format", "short"]);
    for out in [&alone, &with_module] {
        let err = stderr(out);
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(err.contains("« not a header quote »") && err.contains("« not a step quote »"), "{err}");
        assert!(err.contains("base.rules:7:") && err.contains("base.rules:8:"), "the places are in the base: {err}");
    }
}

#[test]
fn short_prints_one_line_per_problem() {
    let out = run(&["check", TYPO, "--error-format", "short"]);
    assert_eq!(stderr(&out), "tests/fixtures/err/typo.rules:6:14: E0101 unknown name `dragn`\n1 problem found\n");
    assert_eq!(out.status.code(), Some(1));

    let save = save_dir("short");
    let out = run(&validate_args(EMPTY_DECK, &save, &["--error-format", "short"]));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("validated ")).collect();
    assert!(lines.len() >= 2 && lines.iter().all(|l| short_line(l).is_some()), "one line per finding: {lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("tests/fixtures/validate/empty_deck.rules:11:5: R0005 ") && l.contains("(2 players, seed 0); counterexample: ")), "{lines:#?}");

    let out = run(&["test", SCEN_FAIL, "--error-format", "short"]);
    assert!(stdout(&out).contains("\ntests/fixtures/scenarios/fail.rules:11:3: S001 scenario `three_coins_at_once` failed at step 3: expected the options to contain \"3\"; found the options are \"1\", \"2\"\n"), "{}", stdout(&out));
    assert_eq!(stderr(&out), "tests/fixtures/scenarios/fail.rules:15:45: S002 the scenario `second_player_moves` cites « prend 3 pièces », which is not in `coins.txt`\n");

    for (args, want) in [
        (vec!["simulate", CONFLICT, "-p", "2", "-g", "5"], "tests/fixtures/validate/conflict.rules:14:11: R0009 "),
        (vec!["explore", EMPTY_DECK, "-p", "2", "--save", &save], "tests/fixtures/validate/empty_deck.rules:11:5: R0005 "),
        (vec!["play", SETUP_SHORT, "-p", "4", "--auto"], "tests/fixtures/validate/setup_short.rules:9:22: R0005 "),
    ] {
        let out = run(&[&args[..], &["--error-format", "short"]].concat());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = without_summary(&stderr(&out));
        assert!(err.lines().all(|l| short_line(l).is_some()) && err.lines().any(|l| l.starts_with(want)), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&save);
}

#[test]
fn quiet_prints_errors_and_the_result_lines_only() {
    let out = run(&["-q", "check", GRAIL_CUP]);
    assert_eq!((stdout(&out).as_str(), stderr(&out).lines().count()), ("", 1), "{}", stderr(&out));

    let out = run(&["simulate", GRAIL_CUP, "-p", "3", "-g", "30", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "30 games of `rulebooks/grail-cup/grail-cup.rules` at 3 players: 0 failed, 0 unfinished\n");
    assert_eq!(stderr(&out), "", "no progress and no summary");
    // Modules and options are named with the base.
    let base = "tests/fixtures/ok/module_house/base.rules";
    let module = "tests/fixtures/ok/module_house/module.rules";
    let out = run(&["simulate", base, module, "-p", "2", "-g", "5", "-q"]);
    assert!(stdout(&out).starts_with(&format!("5 games of `{base}` + `{module}` at 2 players")), "{}", stdout(&out));
    let out = run(&["simulate", "tests/fixtures/ok/exceptions.rules", "-p", "2", "-g", "5", "-q", "--option", "double_gain"]);
    assert!(stdout(&out).contains("` with option `double_gain` at 2 players"), "{}", stdout(&out));

    let save = save_dir("quiet");
    let out = run(&validate_args(EMPTY_DECK, &save, &["--quiet"]));
    let _ = std::fs::remove_dir_all(&save);
    assert_eq!(out.status.code(), Some(1));
    let said = stdout(&out);
    assert!(said.lines().count() == 1 && said.starts_with("1 error(s), ") && said.ends_with(" warning(s)\n"), "{said}");
    let err = stderr(&out);
    assert!(err.contains("R0005") && !err.contains("V204") && !err.contains("T010") && !err.contains("validated "), "errors only: {err}");

    let out = run(&["test", SCEN_FAIL, "-q"]);
    let said = stdout(&out);
    assert!(!said.contains("... ok") && said.contains("---- three_coins_at_once") && said.contains("test result: FAILED. 4 passed; 1 failed; 1 skipped"), "{said}");
    assert_eq!(stderr(&out), "", "the warning is not an error");

    let out = run(&["explore", TIC_TAC_TOE, "-p", "2", "-q"]);
    assert!(stdout(&out).lines().count() == 1 && stdout(&out).starts_with("proven for 2 players"), "{}", stdout(&out));
    assert_eq!(stderr(&out), "");

    let out = run(&["play", GRAIL_CUP, "-p", "3", "-s", "1", "--auto", "-q"]);
    assert!(stdout(&out).lines().count() == 1 && stdout(&out).contains(" wins after "), "{}", stdout(&out));
}

#[test]
fn long_runs_show_progress_on_a_terminal_and_a_summary_line_elsewhere() {
    let save = save_dir("progress");
    // Not a terminal: no bar, one summary line on stderr.
    let out = run(&validate_args(EMPTY_DECK, &save, &[]));
    let err = stderr(&out);
    let summary: Vec<&str> = err.lines().filter(|l| l.starts_with("validated ")).collect();
    assert_eq!(summary.len(), 1, "{}", stderr(&out));
    assert!(summary[0].starts_with("validated 1 configuration: 20 random games, 4 states searched, 1 guided game in ") && summary[0].ends_with(" s"), "{summary:?}");
    assert!(!stderr(&out).contains("random games ["), "no bar: {}", stderr(&out));
    let out = run(&["simulate", GRAIL_CUP, "-p", "3", "-g", "30"]);
    assert!(stderr(&out).lines().any(|l| l.starts_with("simulated 30 games in ")), "{}", stderr(&out));
    let out = run(&["explore", TIC_TAC_TOE, "-p", "2"]);
    assert!(stderr(&out).lines().any(|l| l.starts_with("explored 5,478 states to depth 9 in ")), "{}", stderr(&out));

    // On a terminal: a bar while it runs (cleared at the end), no summary.
    let args = ["validate", "tests/fixtures/validate/leak.rules", "--save", &save, "--games", "3000", "--explore-states", "500", "--guided-games", "1", "--color", "never"];
    let Some(tty) = on_a_terminal(&args, &[]) else { return };
    assert!(tty.contains("random games") && tty.contains("/3,000 ("), "the bar: {tty:?}");
    assert!(!tty.contains("validated 1 configuration"), "no summary under the bar: {tty:?}");
    let quiet = on_a_terminal(&[&args[..], &["-q"]].concat(), &[]).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&save);
    assert!(!quiet.contains("random games") && quiet.contains("error(s)"), "no bar with --quiet: {quiet:?}");
    let sim = on_a_terminal(&["simulate", GRAIL_CUP, "-p", "3", "-g", "2000"], &[]).unwrap_or_default();
    assert!(sim.contains("simulating") && sim.contains("/2,000 games"), "{sim:?}");
    let explore = on_a_terminal(&["explore", TIC_TAC_TOE, "-p", "2"], &[]).unwrap_or_default();
    assert!(explore.contains("exploring") && explore.contains(" states ("), "{explore:?}");
}

/// A rulebook file of the test's own.
fn temp_rulebook(name: &str, bytes: &[u8]) -> String {
    let path = temp_file(name);
    std::fs::write(&path, bytes).expect("temp file");
    path.to_str().expect("utf-8 path").to_string()
}

#[test]
fn exit_codes_follow_the_table() {
    // 1: the rulebook is at fault, also when it fails in setup, in every command.
    let play = run(&["play", SETUP_SHORT, "-p", "4", "--auto"]);
    assert_eq!(play.status.code(), Some(1), "a rule error in setup: {}", stderr(&play));
    assert!(stderr(&play).contains("R0005") && stderr(&play).contains("setup_short.rules:9:22"), "with its place: {}", stderr(&play));
    assert_eq!(run(&["simulate", SETUP_SHORT, "-p", "4", "-g", "3"]).status.code(), Some(1));
    let save = save_dir("exit-codes");
    assert_eq!(run(&["explore", SETUP_SHORT, "-p", "4", "--save", &save]).status.code(), Some(1));
    let perft = run(&["explore", EMPTY_DECK, "-p", "2", "--perft", "5"]);
    assert_eq!(perft.status.code(), Some(1), "the rules fail while counting: {}", stderr(&perft));
    assert!(stderr(&perft).contains("R0005"), "{}", stderr(&perft));
    // A warning alone does not fail.
    assert_eq!(run(&["explore", "tests/fixtures/validate/warn_chance_loop.rules", "-p", "2", "--save", &save]).status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&save);

    // A file that is not UTF-8, modules in a circle, a missing base: a
    // diagnostic with its place, exit 1.
    let bad = temp_rulebook("not-utf8.rules", b"rulebook bad { players 2..2 }\npiece p 1 assume \"\xff\"\n");
    let out = run(&["check", &bad, "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with(&format!("{bad}:2:19: E0001 `{bad}` is not UTF-8 text")), "{}", stderr(&out));
    let dir = temp_file("circle");
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("a.rules"), "module a extends \"b.rules\" { title \"A\" }\n").expect("write");
    std::fs::write(dir.join("b.rules"), "module b extends \"a.rules\" { title \"B\" }\n").expect("write");
    std::fs::write(dir.join("m.rules"), "module m extends \"missing.rules\" { title \"M\" }\n").expect("write");
    let a = dir.join("a.rules").display().to_string();
    let out = run(&["check", &a, "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("b.rules:1:18: E0402 ") && stderr(&out).contains("extend each other in a circle"), "{}", stderr(&out));
    // A circle of three is named whole; a module that extends itself says so.
    std::fs::write(dir.join("b.rules"), "module b extends \"c.rules\" { title \"B\" }\n").expect("write");
    std::fs::write(dir.join("c.rules"), "module c extends \"a.rules\" { title \"C\" }\n").expect("write");
    std::fs::write(dir.join("s.rules"), "module s extends \"s.rules\" { title \"S\" }\n").expect("write");
    let err = stderr(&run(&["check", &a, "--error-format", "short"]));
    assert!(err.contains("E0402 modules extend each other in a circle: `") && err.contains("a.rules` extends `") && err.contains("c.rules` extends `") && err.matches(" extends `").count() == 3, "{err}");
    let err = stderr(&run(&["check", &dir.join("s.rules").display().to_string(), "--error-format", "short"]));
    assert!(err.contains("s.rules` extends itself"), "{err}");
    let m = dir.join("m.rules").display().to_string();
    let out = run(&["check", &m, "--error-format", "short"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("m.rules:1:18: E0402 cannot read the base"), "{}", stderr(&out));

    // 2: the tool fails (and a panic would be 101: never seen here).
    assert_eq!(run(&["check", "no/such/file.rules"]).status.code(), Some(2));
    assert_eq!(run(&["validate", GRAIL_CUP, "--option", "no_such_option"]).status.code(), Some(2));
    assert_eq!(run(&["simulate", GRAIL_CUP, "-p", "3", "--score", "no_such_counter"]).status.code(), Some(2));
    assert_eq!(run(&["explore", GRAIL_CUP, "-p", "9"]).status.code(), Some(2));
    assert_eq!(run(&["play", GRAIL_CUP, "-p", "3", "--json"]).status.code(), Some(2), "--json needs --auto");
    assert_eq!(run(&["--help"]).status.code(), Some(0));
}

/// Runs `grimoire args` with its stdin a pipe kept open (a player who has
/// not typed yet), sends it SIGINT once it catches the signal and has worked
/// `after` longer, and gives what it printed and how long it took to end.
/// A watchdog kills it after 60 s, so that a hang fails instead of blocking.
#[cfg(unix)]
fn interrupted(args: &[&str], after: std::time::Duration) -> (Output, std::time::Duration) {
    interrupted_by(args, after, &["-INT"])
}

/// [`interrupted`], with these signals sent one right after the other.
#[cfg(unix)]
fn interrupted_by(args: &[&str], after: std::time::Duration, signals: &[&str]) -> (Output, std::time::Duration) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(grimoire()).args(args).current_dir(root()).env("NO_COLOR", "1").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("grimoire runs");
    let pid = child.id().to_string();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    // Held open until it has ended (`wait` would close it first).
    let stdin = child.stdin.take();
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    // Linux says when a process catches SIGINT (bit 1 of SigCgt): sent
    // before, the signal would end it before its handler is set.
    let status = format!("/proc/{pid}/status");
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(30) {
        match std::fs::read_to_string(&status) {
            Ok(text) => {
                let caught = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).and_then(|m| u64::from_str_radix(m.trim(), 16).ok());
                if caught.is_some_and(|m| m & 2 != 0) {
                    break;
                }
            }
            // No /proc here: give it time to set its handler.
            Err(_) if start.elapsed() > std::time::Duration::from_secs(3) => break,
            Err(_) => {}
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(after);
    let sent = std::time::Instant::now();
    for signal in signals {
        assert!(Command::new("kill").args([signal, pid.as_str()]).status().expect("kill runs").success());
    }
    let watchdog = {
        let pid = pid.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(60));
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
        })
    };
    let status = child.wait().expect("it ends");
    let took = sent.elapsed();
    drop((watchdog, stdin));
    (Output { status, stdout: out.join().expect("stdout read"), stderr: err.join().expect("stderr read") }, took)
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_simulate_between_games_with_what_was_played_and_exit_130() {
    let asked = "4000000000";
    let (out, took) = interrupted(&["simulate", GRAIL_CUP, "-p", "3", "-g", asked, "--json"], std::time::Duration::from_millis(300));
    assert_eq!(out.status.code(), Some(130), "exit 130, not a death by the signal: {:?} {}", out.status, stderr(&out));
    assert!(took < std::time::Duration::from_secs(20), "it stops at the next game: {took:?}");
    let doc = json_of(&out);
    assert_eq!(doc["exit_code"], 130);
    assert_eq!(doc["report"]["interrupted"], true, "{doc}");
    let played = doc["report"]["games"].as_u64().expect("games played");
    assert!(played > 0 && played < 4_000_000_000, "the games played: {played}");
    let seats: u64 = doc["report"]["wins_by_seat"].as_array().expect("wins").iter().filter_map(serde_json::Value::as_u64).sum();
    assert!(seats + doc["report"]["draws"].as_u64().unwrap_or(0) <= played && seats > 0, "the figures are those of the games played");
    assert_eq!(Schemas::load().check("simulate.json", &doc), Vec::<String>::new());
    assert!(stderr(&out).contains("interrupted: finishing the games under way"), "{}", stderr(&out));
}

/// `timeout` sends SIGTERM to the process and then to its group: the same
/// request twice, which must not count as the second Ctrl-C that quits at
/// once (the JSON report was lost).
#[cfg(unix)]
#[test]
fn two_sigterms_at_once_still_print_what_was_played() {
    let (out, _) = interrupted_by(&["simulate", GRAIL_CUP, "-p", "3", "-g", "4000000000", "--json"], std::time::Duration::from_millis(300), &["-TERM", "-TERM"]);
    assert_eq!(out.status.code(), Some(130), "{:?} {}", out.status, stderr(&out));
    let doc = json_of(&out);
    assert_eq!(doc["report"]["interrupted"], true, "{doc}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_validate_and_saves_the_counterexamples_found() {
    let save = save_dir("sigint-validate");
    let (out, _) = interrupted(&["validate", EMPTY_DECK, "--games", "4000000000", "--save", &save], std::time::Duration::from_millis(500));
    let saved: Vec<PathBuf> = std::fs::read_dir(&save).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&save);
    assert_eq!(out.status.code(), Some(130), "{:?} {}", out.status, stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("interrupted (Ctrl-C): the report holds what was done"), "{text}");
    assert!(text.contains("validation of `"), "the partial report: {text}");
    assert!(!saved.is_empty(), "the counterexample of the empty deck is saved");
    assert!(stderr(&out).contains("R0005") && stderr(&out).contains("counterexample: grimoire replay"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("V203"), "no claim about rules that never fired in a run cut short: {}", stderr(&out));
    // JSON says so too, and its schema accepts it.
    let save = save_dir("sigint-validate-json");
    let (out, _) = interrupted(&["validate", EMPTY_DECK, "--games", "4000000000", "--save", &save, "--json"], std::time::Duration::from_millis(500));
    let _ = std::fs::remove_dir_all(&save);
    let doc = json_of(&out);
    assert_eq!((doc["exit_code"].as_u64(), doc["report"]["interrupted"].as_bool()), (Some(130), Some(true)), "{doc}");
    assert_eq!(Schemas::load().check("validate.json", &doc), Vec::<String>::new());
}

/// An exploration that found errors says too whether it visited every
/// state or which budget stopped it (it said neither).
#[test]
fn explore_with_findings_says_whether_it_was_exhausted() {
    let cut = stdout(&run(&["explore", "tests/fixtures/validate/below_zero.rules", "-p", "2", "--max-states", "30"]));
    assert!(cut.contains("violation(s) found among 30 states; not exhausted: stopped by the state budget (30 states)"), "{cut}");
    let whole = stdout(&run(&["explore", "tests/fixtures/validate/box_swap.rules", "-p", "2"]));
    assert!(whole.contains("violation(s) found among") && whole.contains("(all reachable states visited)"), "{whole}");
}

/// Once no game lasts d plies, every deeper count is 0: perft says so in
/// one line instead of counting the whole tree again at each depth (2,000
/// depths of tic-tac-toe would take minutes).
#[test]
fn perft_past_the_longest_game_fills_in_zeros() {
    let ttt = "rulebooks/classic/tic-tac-toe.rules";
    let out = run(&["explore", ttt, "-p", "2", "--perft", "2000", "--max-depth", "2000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("perft(9) = 127872\nperft(10) = 0\nperft(11) to perft(2000) = 0 (no game lasts 10 plies)"), "{}", stdout(&out));
    let out = run(&["explore", ttt, "-p", "2", "--perft", "2000", "--max-depth", "2000", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let counts = report["report"]["perft"].as_array().expect("counts");
    assert_eq!(counts.len(), 2000, "a count for every depth asked");
    assert!(counts[9..].iter().all(|n| n == 0) && counts[8] == 127872);
}

/// A deep perft count stops at Ctrl-C and keeps the depths it finished
/// (connect four's perft(14) would take hours).
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_perft_count_and_keeps_the_finished_depths() {
    let four = "rulebooks/classic/connect-four.rules";
    let (out, took) = interrupted(&["explore", four, "-p", "2", "--perft", "14", "--json"], std::time::Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130), "{:?} {}", out.status, stderr(&out));
    assert!(took < std::time::Duration::from_secs(20), "it stops within a few thousand moves: {took:?}");
    let doc = json_of(&out);
    let report = &doc["report"];
    assert_eq!(report["interrupted"].as_bool(), Some(true), "{doc}");
    let counts = report["perft"].as_array().expect("the finished depths");
    assert!(counts.len() < 14 && counts.first().and_then(|n| n.as_u64()) == Some(7), "{doc}");
    assert_eq!(Schemas::load().check("explore.json", &doc), Vec::<String>::new());
    let (out, _) = interrupted(&["explore", four, "-p", "2", "--perft", "14"], std::time::Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130));
    assert!(stdout(&out).contains("perft(1) = 7") && stdout(&out).contains("was not finished; the counts above are complete"), "{}", stdout(&out));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_explore_between_slices() {
    let (out, took) = interrupted(&["explore", GRAIL_CUP, "-p", "3", "--json"], std::time::Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130), "{:?} {}", out.status, stderr(&out));
    assert!(took < std::time::Duration::from_secs(20), "it stops at the next slice: {took:?}");
    let doc = json_of(&out);
    let report = &doc["report"];
    assert_eq!((report["interrupted"].as_bool(), report["exhausted"].as_bool()), (Some(true), Some(false)), "{doc}");
    assert_eq!(report["stopped_by"], "an interruption");
    assert!(report["distinct"].as_u64().is_some_and(|n| n > 1), "the states visited: {doc}");
    assert_eq!(Schemas::load().check("explore.json", &doc), Vec::<String>::new());
    let (out, _) = interrupted(&["explore", GRAIL_CUP, "-p", "3"], std::time::Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(130));
    assert!(stdout(&out).contains("stopped by an interruption"), "{}", stdout(&out));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_play_at_its_prompt_and_saves_the_log() {
    let log = work_file("sigint-play.json");
    let _ = std::fs::remove_file(&log);
    let path = log.to_str().expect("utf-8 path");
    let (out, took) = interrupted(&["play", GRAIL_CUP, "-p", "3", "--log", path], std::time::Duration::from_millis(200));
    assert_eq!(out.status.code(), Some(130), "{:?} {}", out.status, stderr(&out));
    assert!(took < std::time::Duration::from_secs(5), "a prompt that waits notices Ctrl-C: {took:?}");
    assert!(stdout(&out).contains(&format!("interrupted (Ctrl-C) after 0 decisions: the log is saved in {path}")), "{}", stdout(&out));
    let saved: GameLog = serde_json::from_str(&std::fs::read_to_string(&log).expect("the log is saved")).expect("a game log");
    assert_eq!((saved.players, saved.steps.len(), saved.outcome.is_none()), (3, 0, true));
    let replayed = run(&["replay", path]);
    let _ = std::fs::remove_file(&log);
    assert_eq!(replayed.status.code(), Some(0), "an unfinished game replays: {}", stderr(&replayed));
    // Without --log, it says how to keep one.
    let (out, _) = interrupted(&["play", GRAIL_CUP, "-p", "3"], std::time::Duration::from_millis(200));
    assert_eq!(out.status.code(), Some(130));
    assert!(stdout(&out).contains("`--log FILE` keeps it"), "{}", stdout(&out));
}

#[test]
fn a_deep_chain_of_modules_is_not_a_circle_and_names_the_limit() {
    // base.rules, then m1 extends base, m2 extends m1, ... m18 extends m17.
    let dir = temp_file("module-chain");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(root().join("tests/fixtures/ok/actor_triggers.rules"), dir.join("base.rules")).expect("a base rulebook");
    let mut base = "base.rules".to_string();
    for i in 1..=18 {
        std::fs::write(dir.join(format!("m{i}.rules")), format!("module m{i} extends \"{base}\" {{ title \"M{i}\" }}\n")).expect("write");
        base = format!("m{i}.rules");
    }
    let check = |i: u32| run(&["check", dir.join(format!("m{i}.rules")).to_str().expect("utf-8 path"), "--error-format", "short"]);
    let at_the_limit = check(16);
    let over = check(18);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(at_the_limit.status.code(), Some(0), "16 modules down to the base are allowed: {}", stderr(&at_the_limit));
    assert_eq!(over.status.code(), Some(1), "{}", stderr(&over));
    let err = stderr(&over);
    assert!(!err.contains("circle"), "no circle here: {err}");
    // The 16th module from m18 is m3: its base m2 would be the 17th.
    assert!(err.contains("m3.rules:1:19: E0402 modules extend one another more than 16 deep: `"), "{err}");
    assert!(err.contains("is the 16th module from the file given, and its base `m2.rules` is a module too"), "{err}");
}

#[test]
fn a_count_that_makes_a_run_meaningless_is_refused_with_its_range() {
    // `validate -g 0` used to pass having played no game.
    let cases: [(&[&str], &str, &str); 13] = [
        (&["validate", TIC_TAC_TOE], "--games", "1..=4294967295"),
        (&["validate", TIC_TAC_TOE], "--max-decisions", "1..=4294967295"),
        (&["validate", TIC_TAC_TOE], "--jobs", "1..=1024"),
        (&["simulate", TIC_TAC_TOE, "-p", "2"], "--games", "1..=4294967295"),
        (&["simulate", TIC_TAC_TOE, "-p", "2"], "--max-decisions", "1..=4294967295"),
        (&["simulate", TIC_TAC_TOE], "--players", "1..=16"),
        (&["explore", TIC_TAC_TOE, "-p", "2"], "--max-states", "1..=18446744073709551615"),
        (&["explore", TIC_TAC_TOE, "-p", "2"], "--max-depth", "1..=4294967295"),
        (&["explore", TIC_TAC_TOE, "-p", "2"], "--max-bytes", "1..=18446744073709551615"),
        (&["explore", TIC_TAC_TOE, "-p", "2"], "--perft", "1..=4294967295"),
        (&["explore", TIC_TAC_TOE, "-p", "2"], "--jobs", "1..=1024"),
        (&["explore", TIC_TAC_TOE], "--players", "1..=16"),
        (&["play", TIC_TAC_TOE, "--auto"], "--players", "1..=16"),
    ];
    for (args, flag, range) in cases {
        let args: Vec<&str> = args.iter().copied().chain([flag, "0"]).collect();
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(&format!("invalid value '0' for '{flag} <")) && stderr(&out).contains(&format!("0 is not in {range}")), "{args:?}: {}", stderr(&out));
    }
    assert!(stderr(&run(&["play", TIC_TAC_TOE, "-p", "17"])).contains("17 is not in 1..=16"));
    // More threads than a machine can start is refused, not a panic.
    assert!(stderr(&run(&["simulate", TIC_TAC_TOE, "-p", "2", "--jobs", "100000"])).contains("100000 is not in 1..=1024"));
    // With --json, the message is the document's error.
    let doc = json_of(&run(&["validate", TIC_TAC_TOE, "-g", "0", "--json"]));
    assert_eq!(doc["exit_code"], 2);
    assert!(doc["error"].as_str().is_some_and(|e| e.contains("0 is not in 1..=4294967295")), "{doc}");
    // The message alone: not clap's terminal words around it.
    assert!(doc["error"].as_str().is_some_and(|e| e.starts_with("invalid value") && !e.contains("--help")), "{doc}");
    // 0 keeps its documented meaning where it has one: no search, no guided games.
    assert_eq!(run(&["validate", TIC_TAC_TOE, "-g", "5", "--explore-states", "0", "--guided-games", "0", "-q"]).status.code(), Some(0));
}

#[test]
fn explore_writes_the_counterexamples_it_points_at() {
    let save = save_dir("explore-save");
    let out = run(&["explore", EMPTY_DECK, "-p", "2", "--save", &save]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let pointed: Vec<&str> = err.lines().filter_map(|l| l.trim().strip_prefix("counterexample: grimoire replay ")).map(str::trim).collect();
    assert_eq!(pointed.len(), 1, "one finding, one file: {}", stderr(&out));
    assert!(pointed[0].starts_with(&save) && pointed[0].ends_with("-R0005-2p-explore.json"), "{pointed:?}");
    let replayed = run(&["replay", pointed[0]]);
    assert_eq!(replayed.status.code(), Some(1), "it replays to its failing step: {}", stderr(&replayed));
    assert!(stdout(&replayed).contains("the game stops at step") || stderr(&replayed).contains("the game stops at step"), "{}{}", stdout(&replayed), stderr(&replayed));
    // A lasso too (the warning of a game that ends with probability 1).
    let out = run(&["explore", "tests/fixtures/validate/warn_chance_loop.rules", "-p", "2", "--save", &save, "--error-format", "short"]);
    // The short format names the command that replays it, as the others do.
    let lasso = stderr(&out).lines().find_map(|l| l.split_once("; counterexample: grimoire replay ").map(|(_, p)| p.to_string())).expect("the lasso's replay is named");
    assert!(std::path::Path::new(&lasso).is_file(), "{lasso}");
    let log: GameLog = serde_json::from_str(&std::fs::read_to_string(&lasso).expect("written")).expect("a log");
    assert!(log.loop_from.is_some(), "a lasso: {lasso}");
    // Its replay says the loop goes through chance, not that players can
    // make the game go on forever, and counts steps, not decisions.
    let replayed = run(&["replay", &lasso]);
    assert_eq!(replayed.status.code(), Some(1), "{}", stderr(&replayed));
    let said = stdout(&replayed);
    let from = log.loop_from.unwrap_or_default();
    assert!(said.contains(&format!("after {from} step(s), the {} step(s) that follow come back", log.steps.len() - from)), "{said}");
    assert!(said.contains("through chance outcomes: it comes round again each time chance gives them again") && !said.contains("forever") && said.contains(&format!("replayed {} step{}", log.steps.len(), if log.steps.len() == 1 { "" } else { "s" })), "{said}");
    // Its steps are listed, who took each and what, and the loop's first is marked.
    for (i, step) in log.steps.iter().enumerate() {
        let who = if step.player == 0 { "chance".to_string() } else { format!("player {}", step.player) };
        let mark = if i == from { "   <- the loop starts here" } else { "" };
        assert!(said.lines().any(|l| l == format!("  {:>4}. {who}: {}{mark}", i + 1, step.label)), "step {}: {said}", i + 1);
    }
    // A loop of decisions alone says that the players can.
    let out = run(&["explore", "tests/fixtures/validate/endless.rules", "-p", "2", "--save", &save, "--error-format", "short"]);
    let lasso = stderr(&out).lines().find_map(|l| l.split_once("V505").and_then(|(_, rest)| rest.split_once("; counterexample: grimoire replay ")).map(|(_, p)| p.to_string())).expect("the lasso's replay is named");
    let said = stdout(&run(&["replay", &lasso]));
    assert!(said.contains("by the players' decisions alone: the game can go on forever"), "{said}");
    let _ = std::fs::remove_dir_all(&save);
}

#[test]
fn an_unwritable_output_is_refused_before_the_run() {
    // Under a regular file nothing can be written, not even by root.
    let blocker = work_file("not-a-folder");
    std::fs::write(&blocker, "a file").expect("a file");
    let under = |name: &str| blocker.join(name).to_str().expect("utf-8 path").to_string();
    let (html, save, log) = (under("page.html"), under("counterexamples"), under("game.json"));
    let ok_save = save_dir("unwritable-ok");
    let start = std::time::Instant::now();
    // Runs that would take hours: refused at once.
    let runs: [(Vec<&str>, &str); 4] = [
        (vec!["validate", GRAIL_CUP, "--games", "4000000000", "--save", &ok_save, "--html", &html], &html),
        (vec!["validate", GRAIL_CUP, "--games", "4000000000", "--save", &save], &save),
        (vec!["explore", GRAIL_CUP, "-p", "4", "--save", &save], &save),
        (vec!["play", GRAIL_CUP, "-p", "3", "--log", &log], &log),
    ];
    for (args, path) in &runs {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(&format!("`{path}`")) && stderr(&out).contains("(checked before the run)"), "{args:?}: {}", stderr(&out));
        assert!(!stdout(&out).contains("round"), "play shows no board before refusing: {}", stdout(&out));
    }
    let json = json_of(&run(&["validate", GRAIL_CUP, "--games", "4000000000", "--save", &save, "--json"]));
    assert!(json["error"].as_str().is_some_and(|e| e.contains("cannot write in")), "{json}");
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "refused before the games: {:?}", start.elapsed());
    assert!(!Path::new(&ok_save).exists(), "the check leaves no folder behind");
    let _ = std::fs::remove_file(&blocker);
}

#[test]
fn a_long_line_is_shown_cut_around_the_problem() {
    // The whole rulebook on one line of 40,000 characters and more.
    let text = format!("rulebook big {{ players 2..2 }} piece dragon 1 assume \"a fixture\" zone lair of dragon setup {{{}move dragn to lair }}\n", " ".repeat(40_000));
    let file = temp_rulebook("long-line.rules", text.as_bytes());
    let column = text.find("dragn").expect("the typo") + 1;
    for (format, mark) in [("human", "…"), ("plain", "...")] {
        let out = run(&["check", &file, "--error-format", format]);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.len() < 1_500, "{format}: {} bytes shown", err.len());
        assert!(err.contains(&format!("{file}:1:{column}]")), "{format}: the real column: {err}");
        let shown = err.lines().find(|l| l.contains("move dragn to lair")).unwrap_or_else(|| panic!("{format}: the span is shown: {err}"));
        assert!(shown.contains(&format!(" {mark} ")) || shown.contains(&format!("{mark}  ")), "{format}: the cut is marked: {shown}");
        // The underline is under the name, not elsewhere.
        let under = err.lines().skip_while(|l| !l.contains("move dragn")).nth(1).unwrap_or("");
        let at = shown.find("dragn").map(|b| shown[..b].chars().count());
        let marks = under.char_indices().find(|(_, c)| matches!(c, '─' | '^')).map(|(b, _)| under[..b].chars().count());
        assert_eq!(at, marks, "{format}: underlined at the name:\n{shown}\n{under}");
    }
    // The short format and JSON show no source text: unchanged.
    let short = run(&["check", &file, "--error-format", "short"]);
    assert!(stderr(&short).starts_with(&format!("{file}:1:{column}: E0101 unknown name `dragn`")), "{}", stderr(&short));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn no_output_panics_on_a_closed_stream() {
    let save = save_dir("closed");
    let runs: [(Vec<&str>, i32); 8] = [
        (vec!["check", TYPO], 1),
        (vec!["check", "no/such/file.rules"], 2),
        (validate_args(EMPTY_DECK, &save, &[]), 1),
        (vec!["simulate", CONFLICT, "-p", "2", "-g", "300"], 1),
        (vec!["explore", EMPTY_DECK, "-p", "2", "--save", &save], 1),
        (vec!["play", SETUP_SHORT, "-p", "4", "--auto"], 1),
        (vec!["test", SCEN_FAIL], 1),
        (vec!["play", GRAIL_CUP, "-p", "4", "--auto"], 0),
    ];
    for (args, code) in &runs {
        for closed in ["stderr", "stdout", "both"] {
            // A pipe whose reader has gone: every write to it fails (EPIPE).
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            let mut cmd = Command::new(grimoire());
            cmd.args(args).current_dir(root()).env("NO_COLOR", "1").stdin(std::process::Stdio::null());
            match closed {
                "stderr" => cmd.stderr(writer).stdout(std::process::Stdio::null()),
                "stdout" => cmd.stdout(writer).stderr(std::process::Stdio::null()),
                _ => cmd.stdout(writer.try_clone().expect("clone")).stderr(writer),
            };
            let status = cmd.status().expect("grimoire runs");
            assert_eq!(status.code(), Some(*code), "{args:?} with {closed} closed (101 is a panic)");
        }
    }
    let _ = std::fs::remove_dir_all(&save);
}

#[test]
fn at_most_50_diagnostics_are_shown_and_json_has_them_all() {
    let mut text = String::from("rulebook many { players 2..2 }\npiece dragon 1 assume \"a fixture\"\nzone lair of dragon\nsetup {\n");
    for i in 0..60 {
        text.push_str(&format!("  move dragn{i} to lair\n"));
    }
    text.push_str("}\n");
    let path = temp_rulebook("many.rules", text.as_bytes());
    let short = run(&["check", &path, "--error-format", "short"]);
    let human = run(&["check", &path]);
    let json = run(&["check", &path, "--json"]);
    let _ = std::fs::remove_file(&path);
    let err = stderr(&short);
    assert_eq!(err.lines().filter(|l| l.contains(": E0101 ")).count(), 50, "{err}");
    assert!(err.ends_with("... and 10 more (every one of them with --json)\n60 problems found\n"), "{err}");
    assert_eq!(stderr(&human).matches("unknown name `dragn").count(), 50);
    assert!(stderr(&human).contains("... and 10 more"));
    assert_eq!(json_of(&json)["diagnostics"].as_array().map(Vec::len), Some(60));
}

// --------------------------------------------------------------- JSON schemas

/// A checker of the part of JSON Schema (draft 2020-12) that docs/schemas/
/// uses: `type`, `const`, `enum`, `properties`, `required`,
/// `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`,
/// `minimum`, `allOf`, `oneOf` and `$ref` (to `#/...` or `file.json#/...`).
/// Any other keyword is an error, so that a schema cannot rely on one this
/// checker would ignore.
struct Schemas {
    files: std::collections::HashMap<String, serde_json::Value>,
}

impl Schemas {
    fn load() -> Schemas {
        let dir = root().join("docs/schemas");
        let mut files = std::collections::HashMap::new();
        for entry in std::fs::read_dir(&dir).expect("docs/schemas exists") {
            let path = entry.expect("entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).expect("a name").to_string();
            let text = std::fs::read_to_string(&path).expect("readable");
            files.insert(name.clone(), serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}")));
        }
        Schemas { files }
    }

    /// The errors of `value` against the schema file `file`.
    fn check(&self, file: &str, value: &serde_json::Value) -> Vec<String> {
        let mut errors = Vec::new();
        let schema = self.files.get(file).unwrap_or_else(|| panic!("no schema {file}"));
        self.at(file, schema, value, "$", &mut errors);
        errors
    }

    fn at(&self, file: &str, schema: &serde_json::Value, v: &serde_json::Value, path: &str, errors: &mut Vec<String>) {
        use serde_json::Value;
        let Some(s) = schema.as_object() else {
            errors.push(format!("{path}: the schema is not an object: {schema}"));
            return;
        };
        for (key, want) in s {
            match key.as_str() {
                "$schema" | "$id" | "title" | "description" | "$defs" => {}
                "$ref" => {
                    let reference = want.as_str().unwrap_or("");
                    let (target, pointer) = reference.split_once('#').unwrap_or((reference, ""));
                    let target = if target.is_empty() { file } else { target };
                    match self.files.get(target).and_then(|d| d.pointer(pointer)) {
                        Some(sub) => self.at(target, sub, v, path, errors),
                        None => errors.push(format!("{path}: unresolved $ref {reference} in {file}")),
                    }
                }
                "type" => {
                    let types: Vec<&str> = match want {
                        Value::String(t) => vec![t.as_str()],
                        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                        _ => vec![],
                    };
                    let is = |t: &str| match t {
                        "null" => v.is_null(),
                        "boolean" => v.is_boolean(),
                        "string" => v.is_string(),
                        "integer" => v.is_i64() || v.is_u64(),
                        "number" => v.is_number(),
                        "array" => v.is_array(),
                        "object" => v.is_object(),
                        _ => false,
                    };
                    if !types.iter().any(|t| is(t)) {
                        errors.push(format!("{path}: {v} is not of type {want}"));
                    }
                }
                "const" if v != want => errors.push(format!("{path}: {v} is not {want}")),
                "const" => {}
                "enum" if !want.as_array().is_some_and(|a| a.contains(v)) => errors.push(format!("{path}: {v} is not one of {want}")),
                "enum" => {}
                "minimum" => {
                    if let (Some(x), Some(min)) = (v.as_f64(), want.as_f64()) {
                        if x < min {
                            errors.push(format!("{path}: {x} < {min}"));
                        }
                    }
                }
                "properties" => {
                    if let (Some(o), Some(props)) = (v.as_object(), want.as_object()) {
                        for (name, sub) in props {
                            if let Some(field) = o.get(name) {
                                self.at(file, sub, field, &format!("{path}.{name}"), errors);
                            }
                        }
                    }
                }
                "required" => {
                    if let Some(o) = v.as_object() {
                        for name in want.as_array().into_iter().flatten().filter_map(Value::as_str) {
                            if !o.contains_key(name) {
                                errors.push(format!("{path}: the field `{name}` is missing"));
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(o) = v.as_object() {
                        let known = s.get("properties").and_then(Value::as_object);
                        for (name, field) in o {
                            if known.is_some_and(|k| k.contains_key(name)) {
                                continue;
                            }
                            match want {
                                Value::Bool(false) => errors.push(format!("{path}: the field `{name}` is not in the schema")),
                                Value::Bool(true) => {}
                                sub => self.at(file, sub, field, &format!("{path}.{name}"), errors),
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(a) = v.as_array() {
                        let skip = s.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
                        for (i, item) in a.iter().enumerate().skip(skip) {
                            self.at(file, want, item, &format!("{path}[{i}]"), errors);
                        }
                    }
                }
                "prefixItems" => {
                    if let Some(a) = v.as_array() {
                        for (i, (item, sub)) in a.iter().zip(want.as_array().into_iter().flatten()).enumerate() {
                            self.at(file, sub, item, &format!("{path}[{i}]"), errors);
                        }
                    }
                }
                "minItems" | "maxItems" => {
                    if let (Some(a), Some(n)) = (v.as_array(), want.as_u64()) {
                        let len = a.len() as u64;
                        if (key == "minItems" && len < n) || (key == "maxItems" && len > n) {
                            errors.push(format!("{path}: {len} items, {key} {n}"));
                        }
                    }
                }
                "allOf" => {
                    for sub in want.as_array().into_iter().flatten() {
                        self.at(file, sub, v, path, errors);
                    }
                }
                "oneOf" => {
                    let subs: Vec<&Value> = want.as_array().into_iter().flatten().collect();
                    let mut why = Vec::new();
                    let matching = subs
                        .iter()
                        .filter(|sub| {
                            let mut e = Vec::new();
                            self.at(file, sub, v, path, &mut e);
                            why.extend(e.iter().cloned());
                            e.is_empty()
                        })
                        .count();
                    if matching != 1 {
                        errors.push(format!("{path}: {matching} of the oneOf schemas match, not 1: {}", why.join("; ")));
                    }
                }
                other => errors.push(format!("{path}: the checker does not know the keyword `{other}` (in {file})")),
            }
        }
    }
}

/// Runs each command in each of its outcomes with `--json`: the document
/// must be the only thing on stdout, say the exit code the process gave,
/// and match the command's schema.
#[test]
fn every_command_prints_json_its_schema_accepts() {
    let schemas = Schemas::load();
    let save = save_dir("schemas");
    let log = work_file("schemas-log.json").to_str().expect("utf-8 path").to_string();
    let tampered = work_file("schemas-tampered.json").to_str().expect("utf-8 path").to_string();
    // A log to replay, a counterexample that stops, a log that differs.
    assert_eq!(run(&["play", GRAIL_CUP, "-p", "3", "-s", "2", "--auto", "--log", &log]).status.code(), Some(0));
    let mut changed: GameLog = serde_json::from_str(&std::fs::read_to_string(&log).expect("log written")).expect("a log");
    let step = changed.steps.iter().position(|s| s.choice > 0).expect("a later option taken");
    changed.steps[step].choice = 0;
    std::fs::write(&tampered, serde_json::to_string(&changed).expect("serializes")).expect("write");
    assert_eq!(run(&validate_args(EMPTY_DECK, &save, &[])).status.code(), Some(1));
    let counterexample = std::fs::read_dir(&save).expect("saved").filter_map(Result::ok).map(|e| e.path().display().to_string()).next().expect("a counterexample");

    let v = |args: &[&str], more: &[&str]| -> Vec<String> { [args, more].concat().iter().map(|s| s.to_string()).collect() };
    let s = SMALL.as_slice();
    let cases: Vec<(&str, Vec<String>, i32)> = vec![
        ("check", v(&["check", GRAIL_CUP], &[]), 0),
        ("check", v(&["check", TYPO], &[]), 1),
        ("check", v(&["check", SCEN_FAIL], &[]), 0),
        ("check", v(&["check", "no/such/file.rules"], &[]), 2),
        ("check", v(&["check", "--no-such-flag", GRAIL_CUP], &[]), 2),
        ("play", v(&["play", GRAIL_CUP, "-p", "3", "--auto"], &[]), 0),
        ("play", v(&["play", LUCK, "-p", "2", "--auto"], &[]), 0),
        ("play", v(&["play", SETUP_SHORT, "-p", "4", "--auto"], &[]), 1),
        ("play", v(&["play", TYPO, "-p", "2", "--auto"], &[]), 1),
        ("play", v(&["play", GRAIL_CUP, "-p", "2", "--auto"], &[]), 2),
        ("simulate", v(&["simulate", SCEN_PASS, "-p", "2", "-g", "20", "--score", "taken"], &[]), 0),
        ("simulate", v(&["simulate", CONFLICT, "-p", "2", "-g", "20"], &[]), 1),
        ("simulate", v(&["simulate", TYPO, "-p", "2"], &[]), 1),
        ("simulate", v(&["simulate", GRAIL_CUP, "-p", "3", "--score", "nothing"], &[]), 2),
        ("validate", v(&["validate", TIC_TAC_TOE, "--save", &save], s), 0),
        ("validate", v(&["validate", EMPTY_DECK, "--save", &save], s), 1),
        ("validate", v(&["validate", TYPO, "--save", &save], s), 1),
        ("validate", v(&["validate", GRAIL_CUP, "--option", "nothing"], s), 2),
        ("explore", v(&["explore", TIC_TAC_TOE, "-p", "2"], &[]), 0),
        ("explore", v(&["explore", EMPTY_DECK, "-p", "2", "--save", &save], &[]), 1),
        ("explore", v(&["explore", TIC_TAC_TOE, "-p", "2", "--perft", "3"], &[]), 0),
        ("explore", v(&["explore", EMPTY_DECK, "-p", "2", "--perft", "5"], &[]), 1),
        ("explore", v(&["explore", "tests/fixtures/validate/warn_chance_loop.rules", "-p", "2", "--perft", "2"], &[]), 1),
        ("explore", v(&["explore", TYPO, "-p", "2"], &[]), 1),
        ("explore", v(&["explore", GRAIL_CUP, "-p", "9"], &[]), 2),
        ("replay", v(&["replay", &log], &[]), 0),
        ("replay", v(&["replay", &counterexample], &[]), 1),
        ("replay", v(&["replay", &tampered], &[]), 1),
        ("replay", v(&["replay", "no/such/log.json"], &[]), 2),
        ("test", v(&["test", SCEN_PASS], &[]), 0),
        ("test", v(&["test", SCEN_FAIL], &[]), 1),
        ("test", v(&["test", TYPO], &[]), 1),
        ("test", v(&["test", "no/such/file.rules"], &[]), 2),
    ];
    let mut problems = Vec::new();
    for (command, args, code) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).chain(["--json"]).collect();
        let out = run(&args);
        let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else {
            problems.push(format!("{args:?}: stdout is not one JSON document: {}{}", stdout(&out), stderr(&out)));
            continue;
        };
        if out.status.code() != Some(*code) || doc["exit_code"] != *code {
            problems.push(format!("{args:?}: exit {:?}, exit_code {}, expected {code}: {}", out.status.code(), doc["exit_code"], stderr(&out)));
        }
        if *code == 2 && !doc["error"].is_string() {
            problems.push(format!("{args:?}: a tool failure without an error: {doc}"));
        }
        if doc["report"].is_null() != (*code == 2 || doc["diagnostics"].as_array().is_some_and(|d| !d.is_empty())) {
            problems.push(format!("{args:?}: a report exactly when the command ran: {doc}"));
        }
        for e in schemas.check(&format!("{command}.json"), &doc) {
            problems.push(format!("{args:?}: {e}"));
        }
    }
    let _ = std::fs::remove_dir_all(&save);
    for f in [&log, &tampered] {
        let _ = std::fs::remove_file(f);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_schema_checker_rejects_what_the_schemas_forbid() {
    let schemas = Schemas::load();
    let ok = json_of(&run(&["check", GRAIL_CUP, "--json"]));
    assert_eq!(schemas.check("check.json", &ok), Vec::<String>::new());
    let mut changes: Vec<(&str, serde_json::Value)> = Vec::new();
    let mut extra = ok.clone();
    extra["report"]["surprise"] = serde_json::json!(1);
    changes.push(("a field the schema does not name", extra));
    let mut missing = ok.clone();
    missing["report"].as_object_mut().expect("an object").remove("zones");
    changes.push(("a missing field", missing));
    let mut wrong = ok.clone();
    wrong["exit_code"] = serde_json::json!(3);
    changes.push(("an exit code not in the table", wrong));
    let mut version = ok.clone();
    version["schema_version"] = serde_json::json!(2);
    changes.push(("another version", version));
    let mut typed = ok.clone();
    typed["report"]["kinds"] = serde_json::json!("six");
    changes.push(("a string for a count", typed));
    let mut other = ok.clone();
    other["command"] = serde_json::json!("validate");
    changes.push(("another command's document", other));
    for (what, doc) in changes {
        assert!(!schemas.check("check.json", &doc).is_empty(), "{what} must be rejected");
    }
}

/// Every field name of docs/schemas/ is named in docs/json.md.
#[test]
fn docs_json_names_every_field_of_the_schemas() {
    fn names(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(o) => {
                if let Some(props) = o.get("properties").and_then(serde_json::Value::as_object) {
                    out.extend(props.keys().cloned());
                }
                o.values().for_each(|x| names(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| names(x, out)),
            _ => {}
        }
    }
    let docs = std::fs::read_to_string(root().join("docs/json.md")).expect("docs/json.md");
    let mut all = std::collections::BTreeSet::new();
    for (_, schema) in Schemas::load().files {
        names(&schema, &mut all);
    }
    let missing: Vec<&String> = all.iter().filter(|n| !docs.contains(&format!("`{n}`")) && !docs.contains(&format!("\"{n}\""))).collect();
    assert!(missing.is_empty(), "fields of docs/schemas/ that docs/json.md does not name: {missing:?}");
    for command in ["check", "play", "simulate", "validate", "explore", "replay", "test"] {
        assert!(Schemas::load().files.contains_key(&format!("{command}.json")), "a schema for {command}");
    }
}

// ----------------------------------------------------------- help and README

/// The long options of `grimoire [COMMAND] --help`.
fn flags_of(args: &[&str]) -> Vec<String> {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0));
    let mut flags: Vec<String> = stdout(&out)
        .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == '=')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()).to_string())
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// Whether `text` names `--flag` (not just a longer flag it begins).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(i, _)| !text[i + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'))
}

#[test]
fn help_and_the_readme_table_name_every_flag() {
    let help = stdout(&run(&["--help"]));
    for text in ["--color <WHEN>", "--error-format <FORMAT>", "-q, --quiet", "Exit codes:", "130", "docs/json.md"] {
        assert!(help.contains(text), "`grimoire --help` says {text}: {help}");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let global = flags_of(&["--help"]);
    for command in ["check", "play", "simulate", "replay", "test", "validate", "explore"] {
        let row = readme.lines().find(|l| l.starts_with(&format!("| `grimoire {command} "))).unwrap_or_else(|| panic!("a README row for {command}"));
        for flag in flags_of(&[command, "--help"]) {
            if global.contains(&flag) || flag == "--help" {
                continue;
            }
            assert!(names_flag(row, &flag), "the README row of `{command}` names {flag}: {row}");
        }
        if command != "play" {
            assert!(row.contains("`--json`"), "{command}: {row}");
        }
    }
    for flag in &global {
        if flag != "--help" && flag != "--version" {
            assert!(names_flag(&readme, flag), "the README names the global {flag}");
        }
    }
    for code in ["| 0 |", "| 1 |", "| 2 |", "| 130 |"] {
        assert!(readme.contains(code), "the README's exit-code table has {code}");
    }
}

/// The replay command printed beside a finding runs as printed from the
/// same folder, also when the counterexamples are saved beside the
/// rulebook's folder rather than under it (it then needs `--root`).
#[test]
fn the_printed_replay_command_runs_as_printed() {
    let base = work_file("side-by-side");
    let (book, saved) = (base.join("book"), base.join("saved"));
    std::fs::create_dir_all(&book).expect("a folder for the rulebook");
    std::fs::copy(root().join("tests/fixtures/validate/leak.rules"), book.join("leak.rules")).expect("copied");
    std::fs::copy(root().join("tests/fixtures/validate/source.txt"), book.join("source.txt")).expect("copied");
    let in_book = |args: &[&str]| Command::new(grimoire()).args(args).current_dir(&book).env("NO_COLOR", "1").output().expect("grimoire runs");
    let out = in_book(&["validate", "leak.rules", "--games", "20", "--explore-states", "500", "--guided-games", "1", "--save", "../saved"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let printed = stderr(&out);
    let command = printed.lines().find_map(|l| l.trim().strip_prefix("counterexample: grimoire ")).unwrap_or_else(|| panic!("no replay command in {printed}"));
    assert!(command.starts_with("replay --root .. ../saved/"), "{command}");
    let replayed = in_book(&command.split(' ').collect::<Vec<_>>());
    // Exit 1: the replayed game breaks the invariant, as the log records.
    assert_eq!(replayed.status.code(), Some(1), "{command}: {}", stderr(&replayed));
    let said = format!("{}{}", stdout(&replayed), stderr(&replayed));
    assert!(said.contains("as the log records"), "{command}: {said}");
    assert!(saved.is_dir());
}

/// A citation in a file whose header names no source, and without `in`:
/// validate says so at the citation (it reported an empty file name as a
/// path "that goes up with `..`").
#[test]
fn a_citation_without_any_source_is_reported_at_the_citation() {
    let file = work_file("sourceless.rules");
    std::fs::write(&file, "rulebook sourceless { players 2..2 cite \"two players\" }\nround turn cite line 3 { win player(1) }\n").expect("written");
    let out = run(&["validate", file.to_str().expect("utf-8 path"), "--games", "5", "--explore-states", "50", "--guided-games", "0", "--error-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    // Each such citation, not only the first.
    assert!(said.contains("sourceless.rules:1:41: T002 this citation names no source text"), "{said}");
    assert!(said.contains("sourceless.rules:2:22: T002 this citation names no source text"), "{said}");
    // A finding of the trace check, as a missing source is: the games ran.
    assert!(said.contains("random games"), "{said}");
}

/// A game that fails in its first round, before any decision, stops
/// "before its first decision", not "during setup" (the log has no step).
#[test]
fn a_replay_that_stops_before_any_decision_does_not_blame_setup() {
    let file = rulebook_folder("stop-at-once", &[("once.rules", "rulebook once { players 1..1 }\nround turn { choose x from 8..9 where x < 3 by player(1)\n win player(1) }\n")]);
    let save = save_dir("stop-at-once-saved");
    assert_eq!(run(&["validate", &file("once.rules"), "-g", "2", "--guided-games", "0", "--save", &save]).status.code(), Some(1));
    let path = std::fs::read_dir(&save).expect("saved").filter_map(Result::ok).map(|e| e.path()).next().expect("a counterexample");
    let out = run(&["replay", path.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_dir_all(&save);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("the game stops before its first decision, as the log records:") && stderr(&out).contains("R0001"), "{}", stderr(&out));
}

/// A counterexample replays as its log records, stop included: the JSON
/// says it matches, with the outcome and final state the log records
/// (`matches` was false and the fingerprint null, against the text report).
#[test]
fn a_counterexample_replayed_as_json_matches_its_log() {
    let save = save_dir("matching-counterexample");
    assert_eq!(run(&validate_args(EMPTY_DECK, &save, &[])).status.code(), Some(1));
    let path = std::fs::read_dir(&save).expect("saved").filter_map(Result::ok).map(|e| e.path()).next().expect("a counterexample");
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("a log");
    let out = run(&["replay", path.to_str().expect("utf-8 path"), "--json"]);
    assert_eq!(out.status.code(), Some(1), "a counterexample shows a fault");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    let report = &doc["report"];
    assert_eq!(report["matches"], true, "{report}");
    assert!(report["stopped"].is_object() && report["mismatch"].is_null(), "{report}");
    assert_eq!(report["final_fingerprint"], log["final_fingerprint"], "{report}");
    assert_eq!(report["outcome"], log["outcome"], "{report}");
}

/// A source text in another encoding than UTF-8 is refused with the way to
/// convert it, not with where texts are looked for (it was found).
#[test]
fn a_source_text_that_is_not_utf8_gets_the_help_to_convert_it() {
    let source = work_file("latin.txt");
    std::fs::write(&source, b"Le pion avance d'une case, c'est d\xe9j\xe0 \xe7a.\n").expect("written");
    let book = work_file("latin.rules");
    std::fs::write(&book, "rulebook latin { source \"latin.txt\" players 2..2 cite \"Le pion avance d'une case\" }\nround turn assume \"a test\" { win player(1) }\n").expect("written");
    let out = run(&["validate", book.to_str().expect("utf-8"), "--games", "2", "--explore-states", "10", "--guided-games", "0"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(text.contains("E0501") && text.contains("not UTF-8") && text.contains("convert the file"), "{text}");
}

/// A `--sources` folder that is not there is the user's mistake, said at
/// once (it was skipped, and the texts reported missing).
#[test]
fn a_sources_folder_that_is_not_there_is_a_tool_failure() {
    let out = run(&["validate", TIC_TAC_TOE, "--sources", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`--sources no/such/folder`: there is no folder there"), "{}", stderr(&out));
    // A file where a folder was wanted is named as a file.
    let out = run(&["validate", TIC_TAC_TOE, "--sources", TIC_TAC_TOE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("this is a file, not a folder"), "{}", stderr(&out));
}

/// `test --sources DIR` finds the texts the scenarios quote elsewhere than
/// beside the rulebook, as `validate` does: the wrong quote is then found.
#[test]
fn test_looks_for_quoted_texts_in_the_sources_folders() {
    let alone = work_file("scenarios-alone");
    std::fs::create_dir_all(&alone).expect("a folder");
    std::fs::copy(root().join(SCEN_FAIL), alone.join("fail.rules")).expect("copied");
    std::fs::copy(root().join(SCEN_PASS), alone.join("pass.rules")).expect("its base, copied");
    let file = alone.join("fail.rules");
    let file = file.to_str().expect("utf-8 path");
    let without = run(&["test", file]);
    // coins.txt is not beside the copy: the quotes cannot be checked, said once.
    assert!(!stderr(&without).contains("S002 the scenario"), "{}", stderr(&without));
    assert_eq!(stderr(&without).matches("S002 the source text `coins.txt` cannot be found or may not be read, so the scenarios'").count(), 1, "{}", stderr(&without));
    let json = json_of(&run(&["test", file, "--json"]));
    assert_eq!(json["report"]["unchecked_sources"], serde_json::json!(["coins.txt"]), "{json}");
    let with = run(&["test", file, "--sources", "tests/fixtures/scenarios"]);
    assert!(stderr(&with).contains("S002 the scenario `second_player_moves` cites « prend 3 pièces »"), "{}", stderr(&with));
    assert!(!stderr(&with).contains("cannot be found"), "{}", stderr(&with));
    // A text that only a scenario quotes (no rule cites it) is looked for
    // in the folders given too.
    let texts = alone.join("texts");
    std::fs::create_dir_all(&texts).expect("a folder");
    std::fs::write(texts.join("notes.txt"), "Le pot commence plein.\n").expect("written");
    let module = alone.join("notes.rules");
    std::fs::write(&module, "module notes extends \"pass.rules\" { }\nscenario noted players 2 cite \"Le pot commence vide.\" in \"notes.txt\" { expect count(pot) == 7 }\n").expect("written");
    let module = module.to_str().expect("utf-8 path");
    let lost = run(&["test", module]);
    assert!(stderr(&lost).contains("S002 the source text `notes.txt` cannot be found"), "{}", stderr(&lost));
    let found = run(&["test", module, "--sources", texts.to_str().expect("utf-8 path")]);
    assert!(stderr(&found).contains("S002 the scenario `noted` cites « Le pot commence vide. »"), "{}", stderr(&found));
    assert!(!stderr(&found).contains("`notes.txt` cannot be found"), "{}", stderr(&found));
}

/// The translator's page shows each finding with where it points and the
/// text there: a misquote can be found by its words (the list gave only
/// "this quote is not in `source.txt`").
#[test]
fn the_html_page_locates_each_finding() {
    let page = work_file("misquote.html");
    let save = save_dir("misquote-html");
    let out = run(&["validate", "tests/fixtures/validate/misquote.rules", "--games", "5", "--explore-states", "50", "--guided-games", "0", "--save", &save, "--html", page.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).expect("the page is written");
    let findings = html.split("<h2>Findings</h2>").nth(1).expect("a findings list");
    assert!(findings.contains("<code>T001</code> this quote is not in <code>source.txt</code><br><small>tests/fixtures/validate/misquote.rules:3:19</small> <q>&quot;Chaque joueur prend trois jetons.&quot;</q>"), "{findings}");
}

/// An output path that is one of the run's own inputs (the rulebook, a
/// module, a source text it cites, by whatever path) is refused before the
/// run, and the file is left as it was: `--html` over the rulebook had
/// replaced it with the page, and `play --log` over the source text with
/// the log.
#[test]
fn no_output_may_replace_a_file_the_run_reads() {
    let rules = "rulebook r { source \"text.txt\" players 2..2 cite \"Deux joueurs jouent.\" }\nround turn cite \"Deux joueurs jouent.\" { choose k from [1, 2] by player(1)\n win player(1) }\n";
    let file = rulebook_folder("inputs-kept", &[("r.rules", rules), ("text.txt", "Deux joueurs jouent.\n")]);
    let (book, text) = (file("r.rules"), file("text.txt"));
    let roundabout = |f: &str| Path::new(f).parent().expect("a folder").join("..").join("inputs-kept").join(Path::new(f).file_name().expect("a name")).display().to_string();
    for (args, target) in [
        (vec!["validate", &book, "--games", "2", "--html", &book], &book),
        (vec!["validate", &book, "--games", "2", "--html", &roundabout(&text)], &text),
        (vec!["play", &book, "--players", "2", "--auto", "--log", &roundabout(&book)], &book),
        // `play` reads no source text, but a log written over the one the
        // rulebook cites would lose it all the same.
        (vec!["play", &book, "--players", "2", "--auto", "--log", &roundabout(&text)], &text),
    ] {
        let before = std::fs::read_to_string(target).expect("readable");
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("a file this run reads"), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read_to_string(target).expect("still there"), before, "{args:?} left {target} as it was");
    }
}

/// validate's summary says how many paragraphs are covered and lists every
/// paragraph that is not: those nothing cites and those only short quotes
/// reach.
#[test]
fn the_summary_lists_every_paragraph_not_covered() {
    let file = rulebook_folder(
        "not-covered",
        &[
            ("r.rules", "rulebook r { source \"t.txt\" players 2..2 cite \"Deux joueurs jouent ensemble.\" }\nround turn cite \"le premier\" { choose k from [1, 2] by player(1)\n win player(1) }\n"),
            ("t.txt", "Deux joueurs jouent ensemble.\n\nLe premier qui joue gagne.\n\nBonne partie.\n"),
        ],
    );
    let out = run(&["validate", &file("r.rules"), "--games", "2", "--explore-states", "100", "--guided-games", "0"]);
    let text = stdout(&out);
    assert!(text.contains("t.txt: 1 of 3 paragraphs covered (33.3 %)"), "{text}");
    assert!(text.contains("uncited, line 5: Bonne partie."), "{text}");
    assert!(text.contains("only short quotes, line 3: Le premier qui joue gagne."), "{text}");
}

/// A filter that matches no scenario (a typo) is said, with the names.
#[test]
fn a_filter_that_matches_no_scenario_says_so() {
    let out = run(&["test", SCEN_FAIL, "--filter", "zzz"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("note: no scenario's name contains `zzz`: its scenarios are first_move, last_coin_wins,"), "{}", stderr(&out));
    let some = run(&["test", SCEN_FAIL, "--filter", "first"]);
    assert!(!stderr(&some).contains("no scenario's name"), "{}", stderr(&some));
}

/// A module given by another spelling of its folder than the module it
/// extends (one path from the working directory, the other absolute, or
/// through a linked folder) still extends it: an outside author's pair
/// `a.rules ../d/b.rules` was refused as two modules replacing one rule.
#[test]
fn a_module_extends_its_base_module_however_their_paths_are_written() {
    let file = rulebook_folder(
        "two-spellings",
        &[
            ("base.rules", "rulebook base { players 2..2 }\nrule r assume \"x\" { pass }\nround t assume \"x\" { do r end }\n"),
            ("a.rules", "module a extends \"base.rules\" { }\nreplace rule r assume \"a\" { pass }\n"),
            ("b.rules", "module b extends \"a.rules\" { }\nreplace rule r assume \"b\" { pass }\n"),
        ],
    );
    let absolute = file("b.rules");
    let from_here = Path::new(&file("a.rules")).strip_prefix(std::fs::canonicalize(root()).expect("the root")).expect("under the root").display().to_string();
    let out = run(&["check", &from_here, &absolute]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    #[cfg(unix)]
    {
        let link = work_file("two-spellings-link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(Path::new(&absolute).parent().expect("its folder"), &link).expect("a linked folder");
        let out = run(&["check", &file("a.rules"), &link.join("b.rules").display().to_string()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}

/// A file to write that is one the run reads is refused however it is
/// named, a hard link included (an outside tester's `--log` through a
/// hard link wrote the log over the rulebook), and a counterexample saved
/// where a rulebook of the run has its name takes the next name instead of
/// writing over it.
#[cfg(unix)]
#[test]
fn no_output_is_written_over_a_file_the_run_reads() {
    let file = rulebook_folder("hard-link", &[("t.rules", &std::fs::read_to_string(root().join("rulebooks/classic/tic-tac-toe.rules")).expect("the rulebook"))]);
    let (rules, hard) = (file("t.rules"), file("t-hard.rules"));
    let _ = std::fs::remove_file(&hard);
    std::fs::hard_link(&rules, &hard).expect("a hard link");
    let before = std::fs::read(&rules).expect("readable");
    let out = run(&["play", &rules, "-p", "2", "--auto", "--seed", "1", "--log", &hard]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a file this run reads"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&rules).expect("readable"), before, "the rulebook is untouched");

    let looping = "rulebook lp { players 2..2 }\ncounter c 0..3\nround turn { for p in players { choose x from [1, 2] by p\n if x == 1 { c = 0 } else { c = 1 } } }\n";
    let named = rulebook_folder("named-like-a-log", &[("lp-V505-2p-explore.json", looping)]);
    let dir = Path::new(&named("lp-V505-2p-explore.json")).parent().expect("its folder").display().to_string();
    let out = run(&["explore", &named("lp-V505-2p-explore.json"), "-p", "2", "-j", "1", "--save", &dir]);
    assert_eq!(out.status.code(), Some(1), "a V505: {}", stderr(&out));
    assert_eq!(std::fs::read_to_string(named("lp-V505-2p-explore.json")).expect("readable"), looping, "the rulebook is untouched");
    assert!(Path::new(&named("lp-V505-2p-explore-2.json")).exists(), "the counterexample takes the next name");

    // Nor over a source text `validate` read (a hostile tester's rulebook
    // cited a text named like its counterexample, and `--save .` wrote over it).
    let cited = "rulebook lp { source \"lp-V505-2p-explore.json\" players 2..2 cite \"Bid.\" }\ncounter c 0..3 cite \"Bid.\"\nround turn cite \"Bid.\" { for p in players { choose x from [1, 2] by p\n if x == 1 { c = 0 } else { c = 1 } } }\n";
    let text = "Bid.\n";
    let named = rulebook_folder("source-named-like-a-log", &[("lp.rules", cited), ("lp-V505-2p-explore.json", text)]);
    let dir = Path::new(&named("lp.rules")).parent().expect("its folder").display().to_string();
    let out = run(&["validate", &named("lp.rules"), "-g", "20", "--save", &dir]);
    assert_eq!(out.status.code(), Some(1), "a V505: {}", stderr(&out));
    assert_eq!(std::fs::read_to_string(named("lp-V505-2p-explore.json")).expect("readable"), text, "the source text is untouched");
    assert!(Path::new(&named("lp-V505-2p-explore-2.json")).exists(), "the counterexample takes the next name");
}

/// The counterexamples of a rulebook and of the same rulebook with a module
/// are named apart (`lp-…` and `lp+house-…`), so that validating one and
/// then the other keeps both (an outside author's second run replaced the
/// first's).
#[test]
fn counterexamples_with_modules_are_named_apart() {
    let looping = "rulebook lp { players 2..2 }\ncounter c 0..3\nround turn { for p in players { choose x from [1, 2] by p\n if x == 1 { c = 0 } else { c = 1 } } }\n";
    let module = "module house extends \"lp.rules\" { }\ncounter spare 0..3 = 0\n";
    let named = rulebook_folder("cx-modules", &[("lp.rules", looping), ("house.rules", module)]);
    let dir = Path::new(&named("lp.rules")).parent().expect("its folder").join("cx");
    let save = dir.display().to_string();
    for files in [vec![named("lp.rules")], vec![named("lp.rules"), named("house.rules")]] {
        let mut args = vec!["explore".to_string()];
        args.extend(files);
        args.extend(["-p", "2", "-j", "1", "--save", &save].map(String::from));
        let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(1), "a V505: {}", stderr(&out));
    }
    for name in ["lp-V505-2p-explore.json", "lp+house-V505-2p-explore.json"] {
        assert!(dir.join(name).exists(), "{name} in {:?}", std::fs::read_dir(&dir).map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>()));
    }
}

/// The first rulebook of docs/language.md works as written: its source
/// text and rulebook, saved side by side, validate with no finding, and
/// explore visits the 60 positions the docs give.
#[test]
fn the_first_rulebook_of_the_docs_works_as_written() {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).expect("the docs");
    let section = doc.split("## A first rulebook").nth(1).and_then(|s| s.split("\n## ").next()).expect("the section");
    let blocks: Vec<&str> = section.split("```").skip(1).step_by(2).collect();
    let text = blocks.first().and_then(|b| b.strip_prefix("text\n")).expect("the source text");
    let rules = blocks.get(1).and_then(|b| b.strip_prefix('\n')).expect("the rulebook");
    let file = rulebook_folder("first-rulebook", &[("nim.txt", text), ("nim.rules", rules)]);
    let dir = Path::new(&file("nim.rules")).parent().expect("its folder").to_path_buf();
    let here = |args: &[&str]| Command::new(grimoire()).args(args).current_dir(&dir).env("NO_COLOR", "1").output().expect("grimoire runs");
    let out = here(&["validate", "nim.rules", "--games", "200"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert!(stdout(&out).contains("0 error(s), 0 warning(s)"), "{}", stdout(&out));
    let out = here(&["explore", "nim.rules", "--players", "2"]);
    assert!(stdout(&out).contains("all 60 reachable states visited") && stdout(&out).contains("within 10 steps"), "{}", stdout(&out));
}

/// `play --auto` prints the forced moves too, unnumbered, where they
/// happened between the decisions and the dice: without them a game read
/// as an illegal one (an outside newcomer's Liar's Dice: a bid lower than
/// the one before it, the forced challenge between them missing).
#[test]
fn play_auto_prints_the_forced_moves_in_their_place() {
    let forced = temp_rulebook("forced.rules", "rulebook forced { players 2..2 }\ndie d6 6\ncounter n 0..99\nround r { for p in players {\n  choose k from [n + 1, n + 2] by p\n  n = k\n  roll x = d6\n  choose lie from [true] by next_player(p, clockwise)\n  if n >= 3 { win p } } }\n".as_bytes());
    let out = run(&["play", &forced, "-p", "2", "-s", "0", "--auto"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let first = lines.iter().position(|l| l.starts_with("1. player 1:")).unwrap_or_else(|| panic!("{text}"));
    assert!(lines.get(first + 1).is_some_and(|l| l.starts_with("`d6` rolled")), "the roll after the first decision: {text}");
    assert_eq!(lines.get(first + 2), Some(&"player 2: yes (forced: the only option)"), "then the forced move: {text}");
    assert!(lines.get(first + 3).is_some_and(|l| l.starts_with("2. player 2:")), "then the second decision: {text}");
}
