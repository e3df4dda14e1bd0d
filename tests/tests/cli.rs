//! Golden tests of the real `grimoire` binary on the real rulebooks.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The binary next to this test's own executable (`target/debug/grimoire`),
/// built once if `cargo test` was not run for the whole workspace.
fn grimoire() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("test executable");
        let dir = exe.parent().and_then(Path::parent).expect("target/debug");
        let bin = dir.join(format!("grimoire{}", std::env::consts::EXE_SUFFIX));
        if !bin.exists() {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo).args(["build", "-q", "-p", "grimoire-cli"]).status().expect("cargo runs");
            assert!(status.success(), "building grimoire failed");
        }
        bin
    })
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str]) -> Output {
    Command::new(grimoire()).args(args).current_dir(root()).env("NO_COLOR", "1").output().expect("grimoire runs")
}

#[test]
fn check_accepts_grail_cup() {
    let out = run(&["check", "rulebooks/grail-cup/grail-cup.rules"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn check_points_at_a_typo_and_exits_1() {
    let out = run(&["check", "tests/fixtures/err/typo.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("dragn") && err.contains("did you mean `dragon`?"), "{err}");
}

#[test]
fn check_json_lists_the_code() {
    let out = run(&["check", "--error-format", "json", "tests/fixtures/err/typo.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v[0]["code"], "E0101");
    assert_eq!(v[0]["line"], 5);
}

#[test]
fn a_missing_file_is_a_tool_failure() {
    let out = run(&["check", "no/such/file.rules"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_auto_prints_a_log_that_replays() {
    let out = run(&["play", "rulebooks/grail-cup/grail-cup.rules", "--players", "4", "--seed", "3", "--auto"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON log");
    assert!(log["outcome"].as_str().is_some_and(|o| o.ends_with("wins")), "{log}");
    let file = std::env::temp_dir().join(format!("grimoire-cli-test-{}.json", std::process::id()));
    std::fs::write(&file, &out.stdout).expect("temp file");
    let replay = run(&["replay", file.to_str().expect("utf-8 path")]);
    let _ = std::fs::remove_file(&file);
    assert_eq!(replay.status.code(), Some(0), "{}", String::from_utf8_lossy(&replay.stderr));
    assert!(String::from_utf8_lossy(&replay.stdout).contains("matches the log"));
}

#[test]
fn play_reads_choices_from_the_terminal() {
    use std::io::Write;
    let mut child = Command::new(grimoire())
        .args(["play", "rulebooks/grail-cup/grail-cup.rules", "--players", "3", "--seed", "1"])
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("grimoire runs");
    child.stdin.take().expect("stdin").write_all(b"1\n9\n").expect("write");
    let out = child.wait_with_output().expect("ends when input closes");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("player 1 to decide") || text.contains("to decide"), "{text}");
    assert!(text.contains("Choose your ally for this turn"), "{text}");
    assert!(text.contains("type a number from 1 to"), "a choice out of range is refused: {text}");
}

#[test]
fn simulate_json_reports_every_game() {
    let out = run(&["simulate", "rulebooks/grail-cup/grail-cup.rules", "--players", "3", "--games", "50", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["games"], 50);
    assert_eq!(v["failures"].as_array().map(Vec::len), Some(0));
    let wins: u64 = v["wins_by_seat"].as_array().expect("wins").iter().filter_map(|w| w.as_u64()).sum();
    assert_eq!(wins, 50, "Grail Cup always has one winner");
}

#[test]
fn validate_passes_grail_cup_and_fails_a_broken_fixture() {
    let ok = run(&["validate", "rulebooks/grail-cup/grail-cup.rules", "--games", "20", "--json", "--save", "target/test-counterexamples"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let v: serde_json::Value = serde_json::from_slice(&ok.stdout).expect("JSON");
    assert_eq!(v["trace"]["not_found"], 0);
    let bad = run(&["validate", "tests/fixtures/validate/empty_deck.rules", "--games", "10", "--save", "target/test-counterexamples"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("R0005"));
}

#[test]
fn validate_writes_the_side_by_side_page() {
    let page = std::env::temp_dir().join(format!("grimoire-side-by-side-{}.html", std::process::id()));
    let out = run(&["validate", "rulebooks/grail-cup/grail-cup.rules", "--games", "5", "--save", "target/test-counterexamples", "--html", page.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("page written");
    let _ = std::fs::remove_file(&page);
    assert!(html.contains("128 of 128 paragraphs cited"), "coverage in the title");
    assert!(html.contains("Dès qu&#39;un") || html.contains("Dès qu'un Chevalier atteint la Ligne d'arrivée"), "the source text is shown");
    assert!(html.contains("trigger grail_reached"), "next to the rule that encodes it");
}
