//! Golden tests of the real `grimoire` binary on the real rulebooks and the
//! fixtures: exit codes (0 ok, 1 invalid rulebook, 2 tool failure), what the
//! user reads on stderr, and the JSON the tools print.

use grimoire_interpreter::log::{replay, GameLog};
use grimoire_interpreter::{compile, Source};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const GRAIL_CUP: &str = "rulebooks/grail-cup/grail-cup.rules";
const TYPO: &str = "tests/fixtures/err/typo.rules";

/// The `grimoire` binary, built for this test run.
///
/// `cargo test` builds a package's binaries only for that package's own
/// integration tests, and `grimoire-cli` has none: the binary next to this
/// test (`target/debug/grimoire`) may be missing on a clean checkout, or
/// older than the sources after an edit to `cli/`. So the tests ask cargo to
/// build it (a no-op when it is up to date), in the same target folder and
/// profile as this test, and take the path cargo reports.
fn grimoire() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(build_grimoire)
}

fn build_grimoire() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    // <target>/<profile>/deps/<this test>
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
    let sibling = profile_dir.join(format!("grimoire{}", std::env::consts::EXE_SUFFIX));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-p", "grimoire-cli", "--bin", "grimoire", "--message-format=json-render-diagnostics"]).current_dir(root());
    match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => {}
        Some("release") => {
            cmd.arg("--release");
        }
        Some(other) => {
            cmd.args(["--profile", other]);
        }
        None => {}
    }
    if let Some(target_dir) = profile_dir.parent() {
        cmd.arg("--target-dir").arg(target_dir);
    }
    let out = cmd.output().expect("cargo runs");
    let built = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "grimoire")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from));
    match built {
        Some(path) if out.status.success() => path,
        // Cargo could not build it here (offline, read-only target): use the
        // binary the workspace build left, if any.
        _ if sibling.exists() => sibling,
        _ => panic!("building grimoire failed:\n{}", String::from_utf8_lossy(&out.stderr)),
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(grimoire()).args(args).current_dir(root()).env("NO_COLOR", "1").output().expect("grimoire runs")
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

#[test]
fn check_json_lists_the_code_and_the_place() {
    let out = run(&["check", "--error-format", "json", TYPO]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON on stdout");
    let items = v.as_array().expect("an array of diagnostics");
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

#[test]
fn check_json_is_an_empty_list_for_a_valid_rulebook() {
    let out = run(&["check", "--error-format", "json", GRAIL_CUP]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v, serde_json::json!([]));
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

#[test]
fn play_auto_prints_a_log_that_replays() {
    let out = run(&["play", GRAIL_CUP, "-p", "4", "-s", "3", "--auto"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let log: GameLog = serde_json::from_slice(&out.stdout).expect("a JSON game log");
    assert_eq!((log.players, log.seed), (4, 3));
    assert!(!log.steps.is_empty());
    assert!(log.outcome.as_deref().is_some_and(|o| o.ends_with(" wins")), "{:?}", log.outcome);
    assert!(log.error.is_none(), "{:?}", log.error);

    let file = temp_file("play-auto.json");
    std::fs::write(&file, &out.stdout).expect("temp file");
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
    let _ = std::fs::remove_file(&file);
    let printed: GameLog = serde_json::from_slice(&out.stdout).expect("JSON");
    let saved: GameLog = serde_json::from_str(&written).expect("JSON");
    assert_eq!(printed, saved);
}

#[test]
fn play_reads_choices_from_the_terminal() {
    use std::io::Write;
    let mut child = Command::new(grimoire())
        .args(["play", GRAIL_CUP, "--players", "3", "--seed", "1"])
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("grimoire runs");
    child.stdin.take().expect("stdin").write_all(b"1\n99\n").expect("write");
    let out = child.wait_with_output().expect("ends when input closes");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("player 1 to decide") || text.contains("to decide"), "{text}");
    assert!(text.contains("Choose your ally for this turn"), "the rulebook's prompt is shown: {text}");
    assert!(text.contains("type a number from 1 to"), "a choice out of range is refused: {text}");
}

#[test]
fn simulate_json_reports_every_game() {
    let out = run(&["simulate", GRAIL_CUP, "-p", "3", "-g", "50", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["games"], 50);
    assert_eq!(v["players"], 3);
    assert_eq!(v["failures"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["unfinished"], 0, "{v}");
    let seats = v["wins_by_seat"].as_array().expect("wins by seat");
    assert_eq!(seats.len(), 3);
    let wins: u64 = seats.iter().filter_map(serde_json::Value::as_u64).sum();
    assert_eq!(wins, 50, "every Grail Cup game has exactly one winner: {v}");
    let (lo, med, hi) = (v["decisions_min"].as_u64(), v["decisions_median"].as_u64(), v["decisions_max"].as_u64());
    assert!(lo <= med && med <= hi && lo > Some(0), "{v}");
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

#[test]
fn simulate_gives_the_same_report_on_one_thread_and_on_three() {
    let args = ["simulate", GRAIL_CUP, "-p", "4", "-g", "300", "-s", "5", "--json"];
    let one = run(&[&args[..], &["--jobs", "1"]].concat());
    let three = run(&[&args[..], &["--jobs", "3"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(three.status.code(), Some(0), "{}", stderr(&three));
    let (one, three) = (json_of(&one), json_of(&three));
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
    let (one, three) = (json_of(&one), json_of(&three));
    let seeds: Vec<u64> = one["failures"].as_array().expect("failures").iter().filter_map(|f| f["seed"].as_u64()).collect();
    assert!(seeds.len() > 100 && seeds.len() < 200, "most games fail, not all: {seeds:?}");
    assert!(seeds.windows(2).all(|w| w[0] < w[1]), "failures in seed order: {seeds:?}");
    assert!(one["score"]["by_seat"].as_array().is_some_and(|s| s.len() == 2), "{one}");
    assert_eq!(without_timings(one), without_timings(three));
    let one = run(&[&conflict[..], &["--jobs", "1"]].concat());
    let three = run(&[&conflict[..], &["--jobs", "3"]].concat());
    assert!(stderr(&one).contains("R0009"), "the first failure is shown: {}", stderr(&one));
    assert_eq!(stderr(&one), stderr(&three), "the same first failure is shown");
    let said = String::from_utf8_lossy(&three.stdout);
    assert!(said.contains("on 3 threads"), "{said}");
}

#[test]
fn simulate_reports_plies_next_to_decisions() {
    let out = run(&["simulate", GRAIL_CUP, "-p", "4", "-g", "200", "-s", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json_of(&out);
    let field = |name: &str| v[name].as_u64().unwrap_or_else(|| panic!("`{name}` is a count: {v}"));
    let decisions = [field("decisions_min"), field("decisions_median"), field("decisions_max")];
    let plies = [field("plies_min"), field("plies_median"), field("plies_max")];
    let mean = v["plies_mean"].as_f64().expect("`plies_mean` is a number");
    assert!(plies[0] > 0 && plies[0] <= plies[1] && plies[1] <= plies[2], "{plies:?}");
    assert!(plies.iter().zip(&decisions).all(|(p, d)| p >= d), "a decision is a ply: plies {plies:?}, decisions {decisions:?}");
    assert!(plies.iter().zip(&decisions).any(|(p, d)| p > d), "Grail Cup has forced moves, which are plies and not decisions: plies {plies:?}, decisions {decisions:?}");
    assert!(plies[0] as f64 <= mean && mean <= plies[2] as f64, "mean {mean} within {plies:?}");
    assert!(mean.fract() != 0.0, "a mean over 200 games, not a rounded count: {mean}");

    let human = run(&["simulate", GRAIL_CUP, "-p", "4", "-g", "200", "-s", "1"]);
    assert_eq!(human.status.code(), Some(0), "{}", stderr(&human));
    let said = String::from_utf8_lossy(&human.stdout);
    let line = format!("plies per game: min {}, median {}, max {}, mean {mean:.4}", plies[0], plies[1], plies[2]);
    assert!(said.contains(&line), "expected `{line}` in:\n{said}");
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
    let v: serde_json::Value = serde_json::from_slice(&ok.stdout).expect("JSON");
    assert_eq!(v["trace"]["not_found"], 0, "every citation is found in the source");
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
            reports.push(json_of(&out));
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
    // "N of N paragraphs cited": every paragraph of the source is cited.
    let (before, _) = html.split_once(" paragraphs cited").expect("a coverage line");
    let words: Vec<&str> = before.rsplit(' ').take(3).collect();
    assert!(
        words.len() == 3 && words[1] == "of" && words[0].parse::<u32>().is_ok() && words[2] == words[0],
        "full coverage, \"N of N paragraphs cited\", got {words:?}"
    );
    assert!(html.contains("Dès qu&#39;un") || html.contains("Dès qu'un Chevalier atteint la Ligne d'arrivée"), "the source text is shown");
    assert!(html.contains("trigger grail_reached"), "next to the rule that encodes it");
}

#[test]
fn simulate_checks_declared_invariants_unless_told_not_to() {
    let drift = "tests/fixtures/validate/drift.rules";
    let checked = json_of(&run(&["simulate", drift, "-p", "2", "-g", "30", "-s", "0", "--json"]));
    let failures = checked["failures"].as_array().expect("a list");
    assert!(!failures.is_empty(), "the drifting score must be caught: {checked}");
    assert!(failures.iter().all(|f| f["message"].as_str().is_some_and(|m| m.contains("`score_is_chips` does not hold"))), "{checked}");
    let unchecked = json_of(&run(&["simulate", drift, "-p", "2", "-g", "30", "-s", "0", "--json", "--unchecked"]));
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
    assert_eq!(stderr(&out), "warning: the scenario `second_player_moves` cites « prend 3 pièces », which is not in `coins.txt`\n");
}

#[test]
fn test_json_gives_each_scenario_its_status_and_the_failure() {
    let out = run(&["test", SCEN_FAIL, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v = json_of(&out);
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
    assert!(f["position"]["zones"].as_array().is_some_and(|z| z.iter().any(|z| z["zone"] == "pot" && z["count"] == 5)), "{f}");
    // A base scenario runs on the base alone, a module's on the base and the module.
    assert_eq!(scenarios[0]["files"], serde_json::json!([SCEN_PASS]));
    assert_eq!(scenarios[3]["files"], serde_json::json!([SCEN_PASS, SCEN_FAIL]));
    let skipped = scenarios.iter().find(|s| s["status"] == "skipped").expect("one skipped");
    assert_eq!(skipped["reason"], "needs `house_rule`");
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
        let v = json_of(&out);
        assert_eq!(out.status.code(), Some(0), "{files:?}: {v}");
        assert_eq!((v["failed"].as_u64(), v["skipped"].as_u64()), (Some(0), Some(0)), "{v}");
        assert!(v["passed"].as_u64().is_some_and(|n| n >= 6), "{files:?}: {v}");
    }
    // Without La Faveur du Roi, the scenario that needs it is skipped, not failed.
    let v = json_of(&run(&["test", "--json", merlin[0], merlin[2]]));
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
    assert!(stderr(&out).contains("the replay differs from the log: step 2: option 7"), "{}", stderr(&out));

    // Asked directly, the engine says R0011, and leaves the game as it was.
    let log: GameLog = serde_json::from_str(&std::fs::read_to_string(root().join(LOG)).expect("log exists")).expect("a game log");
    let file = log.rulebook.first().expect("the log names its rulebook").clone();
    let text = std::fs::read_to_string(root().join(&file)).expect("rulebook exists");
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
