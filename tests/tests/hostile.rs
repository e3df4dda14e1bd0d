//! A hostile rulebook, module or log must not make the real `grimoire`
//! binary read and show files outside its root, read without end, or
//! replay a log whose facts were edited (README, "Files Grimoire reads";
//! docs/validate.md, the log format).
//!
//! Each test plants a secret outside a project folder (a line that must
//! never be printed) and tries to reach it the ways a tester did:
//! `extends` by an absolute path, by `..`, through a link, `/proc`,
//! `/dev/zero`, a pipe, a source named `etc/hostname` or by an absolute
//! path, `validate --html`, a game log naming a file outside its root, and
//! logs whose outcome, error, steps or files were edited.

use grimoire_interpreter::log::GameLog;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::binary::grimoire;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("the repository")
}

/// Run `grimoire` in `cwd`, with a time limit: a tool that reads forever fails the test.
fn run_in(cwd: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(grimoire())
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("grimoire runs");
    let start = std::time::Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("grimoire {args:?} did not finish within two minutes");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A fresh folder for one test: `<tmp>/grimoire-hostile-<pid>-<name>`, with
/// `secret.txt` in it and an empty `project/` below it.
struct Sandbox {
    dir: PathBuf,
}

/// What the secret file holds; no output may contain it.
const SECRET: &str = "TOP-SECRET-a8f3e1 do not show";

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = std::env::temp_dir().join(format!("grimoire-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("project")).expect("temp folder");
        let dir = dir.canonicalize().expect("canonical");
        std::fs::write(dir.join("secret.txt"), format!("{SECRET}\nsecond line {SECRET}\n")).expect("secret");
        Sandbox { dir }
    }
    fn project(&self) -> PathBuf {
        self.dir.join("project")
    }
    fn secret(&self) -> PathBuf {
        self.dir.join("secret.txt")
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.dir.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("folder");
        }
        std::fs::write(&p, text).expect("write");
        p
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

fn assert_hidden(out: &Output, what: &str) {
    let text = said(out);
    assert!(!text.contains("TOP-SECRET"), "{what}: the secret was shown:\n{text}");
}

/// Refused with E0501, at the `extends` string, with the `--root` hint.
fn assert_refused_extends(sb: &Sandbox, file: &str, target: &str) {
    let module = sb.write(&format!("project/{file}"), &format!("module evil extends \"{target}\" {{ title \"x\" }}\n"));
    let out = run_in(&sb.project(), &["check", file]);
    assert_hidden(&out, target);
    assert_eq!(out.status.code(), Some(1), "{target}: {}", said(&out));
    let text = said(&out);
    assert!(text.contains("E0501") && text.contains("outside the root") && text.contains("--root"), "{target}: {text}");
    // The place is the string after `extends`, as for every diagnostic.
    let json = run_in(&sb.project(), &["check", file, "--error-format", "json"]);
    assert_hidden(&json, target);
    let body = String::from_utf8_lossy(&json.stdout);
    let source = std::fs::read_to_string(&module).expect("module");
    let start = source.find('"').expect("a string");
    assert!(body.contains("\"E0501\"") && body.contains(&format!("\"start\": {start}")), "{target}: {body}");
}

#[test]
fn a_module_cannot_extend_a_file_outside_its_root() {
    let sb = Sandbox::new("extends");
    let secret = sb.secret();
    assert_refused_extends(&sb, "absolute.rules", secret.to_str().expect("utf-8"));
    assert_refused_extends(&sb, "passwd.rules", "/etc/passwd");
    assert_refused_extends(&sb, "up.rules", "../secret.txt");
    assert_refused_extends(&sb, "deep.rules", "sub/../../secret.txt");
    assert_refused_extends(&sb, "environ.rules", "../../../../../../../../proc/self/environ");
    #[cfg(unix)]
    {
        symlink(&secret, &sb.project().join("link.rules"));
        assert_refused_extends(&sb, "via_link.rules", "link.rules");
        std::fs::create_dir_all(sb.project().join("inner")).expect("folder");
        symlink(&sb.dir, &sb.project().join("inner/up"));
        assert_refused_extends(&sb, "via_folder_link.rules", "inner/up/secret.txt");
        symlink(Path::new("/dev/zero"), &sb.project().join("zero.rules"));
        assert_refused_extends(&sb, "zero.rules.module", "zero.rules");
    }
    // The root is where the user says: with `--root` above the secret, the
    // same module reads it (and its syntax error shows its first line), so
    // the refusal above is what kept it hidden.
    let wide = run_in(&sb.project(), &["check", "up.rules", "--root", sb.dir.to_str().expect("utf-8")]);
    assert_eq!(wide.status.code(), Some(1), "{}", said(&wide));
    assert!(said(&wide).contains("TOP-SECRET"), "with --root the base is read: {}", said(&wide));
    // A base inside the root is read as before.
    sb.write("project/base.rules", "rulebook base { players 2..2 }\n");
    sb.write("project/house.rules", "module house extends \"base.rules\" { title \"House\" }\n");
    let ok = run_in(&sb.project(), &["check", "house.rules"]);
    assert_eq!(ok.status.code(), Some(0), "{}", said(&ok));
}

#[test]
fn the_repository_modules_load_their_bases_under_the_root() {
    // The first file's folder is the root: a module of the repository that
    // names its base in another folder needs `--root`.
    let module = "tests/fixtures/explore/grail-cup-short-track.rules";
    let narrow = run_in(&repo(), &["check", module]);
    assert_eq!(narrow.status.code(), Some(1), "{}", said(&narrow));
    assert!(said(&narrow).contains("E0501"), "{}", said(&narrow));
    let wide = run_in(&repo(), &["check", module, "--root", "."]);
    assert_eq!(wide.status.code(), Some(0), "{}", said(&wide));
    let both = run_in(&repo(), &["check", "rulebooks/grail-cup/grail-cup.rules", module, "--root", "."]);
    assert_eq!(both.status.code(), Some(0), "{}", said(&both));
}

#[test]
#[cfg(unix)]
fn devices_pipes_and_large_files_are_refused() {
    let sb = Sandbox::new("sizes");
    let zero = run_in(&sb.project(), &["check", "/dev/zero"]);
    assert_eq!(zero.status.code(), Some(2), "{}", said(&zero));
    assert!(said(&zero).contains("a device, not a regular file"), "{}", said(&zero));
    let fifo = sb.project().join("fifo.rules");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let out = run_in(&sb.project(), &["check", "fifo.rules"]);
        assert_eq!(out.status.code(), Some(2), "{}", said(&out));
        assert!(said(&out).contains("a pipe, not a regular file"), "{}", said(&out));
    }
    // 8 MiB and one byte of comment: too large, wherever it is named from.
    let big = "#".repeat(8 * 1024 * 1024 + 1);
    sb.write("project/big.rules", &big);
    let out = run_in(&sb.project(), &["check", "big.rules"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("larger than 8 MiB"), "{}", said(&out));
    sb.write("project/uses_big.rules", "module m extends \"big.rules\" { title \"x\" }\n");
    let out = run_in(&sb.project(), &["check", "uses_big.rules"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("E0501") && said(&out).contains("larger than 8 MiB"), "refused at the `extends`: {}", said(&out));
    // A base that is a folder is refused the same way; one that is not
    // there cannot be read (E0402).
    std::fs::create_dir_all(sb.project().join("folder.rules")).expect("a folder");
    sb.write("project/uses_folder.rules", "module m extends \"folder.rules\" { title \"x\" }\n");
    let out = run_in(&sb.project(), &["check", "uses_folder.rules"]);
    assert!(said(&out).contains("E0501") && said(&out).contains("a folder, not a regular"), "{}", said(&out));
    sb.write("project/uses_nothing.rules", "module m extends \"nothing.rules\" { title \"x\" }\n");
    let out = run_in(&sb.project(), &["check", "uses_nothing.rules"]);
    assert!(said(&out).contains("E0402"), "{}", said(&out));
    // A source text too: refused at the `source` that names it.
    sb.write("project/huge.txt", &big);
    sb.write("project/huge.rules", &book("huge.txt", None));
    let out = validate_in(&sb.project(), "huge.rules", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("E0501") && said(&out).contains("larger than 8 MiB"), "{}", said(&out));
    // And a log.
    sb.write("project/huge.json", &big);
    let out = run_in(&sb.project(), &["replay", "huge.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("larger than 8 MiB"), "{}", said(&out));
}

/// A small rulebook that passes validation with its source `source.txt`,
/// whose header and one citation name the sources given.
fn book(header_source: &str, cite_in: Option<&str>) -> String {
    let sound = std::fs::read_to_string(repo().join("tests/fixtures/validate/sound.rules")).expect("fixture");
    let mut text = sound.replace("source \"source.txt\"", &format!("source \"{header_source}\""));
    if let Some(other) = cite_in {
        text = text.replace("die d3 3 cite \"lance le dé\"", &format!("die d3 3 cite \"lance le dé\" in \"{other}\""));
    }
    text
}

fn validate_in(dir: &Path, file: &str, extra: &[&str]) -> Output {
    let mut args = vec!["validate", file, "--games", "3", "--explore-states", "50", "--guided-games", "0", "--save", "ce"];
    args.extend_from_slice(extra);
    run_in(dir, &args)
}

#[test]
fn source_texts_are_found_only_in_their_folders() {
    let sb = Sandbox::new("sources");
    let source = std::fs::read_to_string(repo().join("tests/fixtures/validate/source.txt")).expect("fixture source");
    // `etc/hostname` was found in `/` when every folder up to `/` was searched.
    let hostname = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    sb.write("project/host.rules", &book("etc/hostname", None));
    let out = validate_in(&sb.project(), "host.rules", &["--html", "page.html"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("T002") && said(&out).contains("cannot be found"), "{}", said(&out));
    let page = std::fs::read_to_string(sb.project().join("page.html")).unwrap_or_default();
    if hostname.trim().len() > 3 {
        assert!(!page.contains(hostname.trim()), "the page shows /etc/hostname");
    }
    // Absolute and `..` names: refused at the `source` or the `cite ... in`, shown nowhere, no page.
    let secret = sb.secret();
    for (file, text) in [
        ("abs.rules", book(secret.to_str().expect("utf-8"), None)),
        ("up.rules", book("../secret.txt", None)),
        ("cite_in.rules", book("source.txt", Some("../secret.txt"))),
        ("passwd.rules", book("/etc/passwd", None)),
        // A scenario's citation is refused on the same terms as a rule's.
        ("scenario.rules", book("source.txt", None) + "\nscenario peek cite \"root\" in \"/etc/passwd\" { }\n"),
    ] {
        sb.write(&format!("project/{file}"), &text);
        sb.write("project/source.txt", &source);
        let out = validate_in(&sb.project(), file, &["--html", "bad.html"]);
        assert_hidden(&out, file);
        assert_eq!(out.status.code(), Some(1), "{file}: {}", said(&out));
        assert!(said(&out).contains("E0501"), "{file}: {}", said(&out));
        assert!(!sb.project().join("bad.html").exists(), "{file}: no page is written");
        // `check` refuses it as `validate` does: it said the rulebook was valid.
        let out = run_in(&sb.project(), &["check", file]);
        assert_hidden(&out, file);
        assert_eq!(out.status.code(), Some(1), "check {file}: {}", said(&out));
        assert!(said(&out).contains("E0501"), "check {file}: {}", said(&out));
    }
    // `cite ... in "../secret.txt"` is refused where the path is written,
    // not at the quote before it.
    let text = book("source.txt", Some("../secret.txt"));
    let (line, col) = text.lines().enumerate().find_map(|(i, l)| l.find("\"../secret.txt\"").map(|c| (i + 1, l[..c].chars().count() + 1))).expect("the path");
    let out = run_in(&sb.project(), &["check", "cite_in.rules", "--error-format", "short"]);
    assert!(said(&out).contains(&format!("cite_in.rules:{line}:{col}: E0501 ")), "{line}:{col} {}", said(&out));
    // A source that is not UTF-8: the byte and its offset, as a rulebook's.
    std::fs::write(sb.project().join("bin.txt"), [0x11u8, 0xfd, b'a']).expect("written");
    sb.write("project/bin.rules", &book("bin.txt", None));
    let out = run_in(&sb.project(), &["check", "bin.rules"]);
    assert!(said(&out).contains("E0501") && said(&out).contains("not UTF-8 text: byte 0xfd, at offset 1, cannot start a character there"), "{}", said(&out));
    // A link inside the project that leads out of it.
    #[cfg(unix)]
    {
        symlink(&secret, &sb.project().join("linked.txt"));
        sb.write("project/linked.rules", &book("linked.txt", None));
        let out = validate_in(&sb.project(), "linked.rules", &["--html", "bad.html"]);
        assert_hidden(&out, "linked.rules");
        assert_eq!(out.status.code(), Some(1), "{}", said(&out));
        assert!(said(&out).contains("E0501") && said(&out).contains("a link that leads out"), "{}", said(&out));
        // `seeds` above the root that is a link is not a store.
        let outside = sb.write("elsewhere/stolen.txt", SECRET);
        symlink(outside.parent().expect("folder"), &sb.dir.join("seeds"));
        sb.write("project/stolen.rules", &book("stolen.txt", None));
        let out = validate_in(&sb.project(), "stolen.rules", &["--html", "bad.html"]);
        assert_hidden(&out, "stolen.rules");
        assert!(said(&out).contains("T002"), "{}", said(&out));
        std::fs::remove_file(sb.dir.join("seeds")).expect("unlink");
    }
    // The seed stores above the root are searched (how CI finds the real
    // rulebooks' sources in ../shared/seeds): a real `shared/seeds` folder
    // holding the text, reached through a `shared` link as CI lays it out.
    let store = sb.write("store/seeds/kept.txt", &source);
    #[cfg(unix)]
    symlink(store.parent().and_then(Path::parent).expect("store"), &sb.dir.join("shared"));
    #[cfg(not(unix))]
    sb.write("shared/seeds/kept.txt", &source);
    std::fs::create_dir_all(sb.project().join("game")).expect("folder");
    sb.write("project/game/kept.rules", &book("kept.txt", None));
    let out = validate_in(&sb.project(), "game/kept.rules", &["--html", "kept.html"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let page = std::fs::read_to_string(sb.project().join("kept.html")).expect("page written");
    assert!(page.contains("Chaque joueur prend deux jetons"), "the source is shown next to the rules");
}

// ------------------------------------------------------------------ logs

/// A log of a game of `sound.rules` played by random players, written by
/// `play --log` in `dir` (with the rulebook copied there).
fn played_log(dir: &Path) -> (PathBuf, GameLog) {
    std::fs::copy(repo().join("tests/fixtures/validate/sound.rules"), dir.join("sound.rules")).expect("copy");
    let out = run_in(dir, &["play", "sound.rules", "-p", "2", "-s", "4", "--auto", "--log", "game.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let path = dir.join("game.json");
    let log: GameLog = serde_json::from_str(&std::fs::read_to_string(&path).expect("log written")).expect("a game log");
    (path, log)
}

fn replay_edited(dir: &Path, log: &GameLog, edit: impl FnOnce(&mut GameLog)) -> Output {
    let mut edited = log.clone();
    edit(&mut edited);
    std::fs::write(dir.join("edited.json"), serde_json::to_string_pretty(&edited).expect("json")).expect("write");
    run_in(dir, &["replay", "edited.json"])
}

fn assert_differs(out: &Output, what: &str, words: &str) {
    let text = said(out);
    assert_eq!(out.status.code(), Some(1), "{what}: {text}");
    assert!(text.contains("differs from the log") && text.contains(words), "{what}: expected `{words}` in: {text}");
    assert!(!text.contains("Some(") && !text.contains("None"), "{what}: Rust debug text in: {text}");
}

#[test]
fn a_log_names_its_files_from_its_folder_with_their_hashes_and_replays_from_anywhere() {
    let sb = Sandbox::new("logs");
    let (path, log) = played_log(&sb.project());
    assert_eq!(log.rulebook, ["sound.rules"], "relative to the log's folder");
    assert_eq!(log.sha256.len(), 1);
    let text = std::fs::read(sb.project().join("sound.rules")).expect("rulebook");
    let sum = Command::new("sha256sum").arg(sb.project().join("sound.rules")).output();
    if let Ok(sum) = sum {
        assert!(String::from_utf8_lossy(&sum.stdout).starts_with(&log.sha256[0]), "the hash is the file's SHA-256");
    }
    assert!(!text.is_empty());
    // From the log's folder, from above it and from elsewhere.
    for cwd in [sb.project(), sb.dir.clone(), repo()] {
        let out = run_in(&cwd, &["replay", path.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(0), "from {}: {}", cwd.display(), said(&out));
        assert!(said(&out).contains("matches the log"), "{}", said(&out));
    }
    // A log in a subfolder names `../sound.rules`, and replays from the project.
    std::fs::create_dir_all(sb.project().join("logs")).expect("folder");
    let out = run_in(&sb.project(), &["play", "sound.rules", "-p", "2", "-s", "4", "--auto", "--log", "logs/game.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let sub: GameLog = serde_json::from_str(&std::fs::read_to_string(sb.project().join("logs/game.json")).expect("log")).expect("log");
    assert_eq!(sub.rulebook, ["../sound.rules"]);
    assert_eq!(run_in(&sb.project(), &["replay", "logs/game.json"]).status.code(), Some(0));
    // From elsewhere, the log's folder is the root: `../` needs `--root`.
    let far = run_in(&repo(), &["replay", sb.project().join("logs/game.json").to_str().expect("utf-8")]);
    assert_eq!(far.status.code(), Some(2), "{}", said(&far));
    assert!(said(&far).contains("--root"), "{}", said(&far));
    let rooted = run_in(&repo(), &["replay", sb.project().join("logs/game.json").to_str().expect("utf-8"), "--root", sb.project().to_str().expect("utf-8")]);
    assert_eq!(rooted.status.code(), Some(0), "{}", said(&rooted));

    // A changed rulebook is named.
    std::fs::write(sb.project().join("sound.rules"), format!("{}\n# edited\n", String::from_utf8_lossy(&text))).expect("edit");
    let out = run_in(&sb.project(), &["replay", "game.json"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("`sound.rules` has changed since the log was recorded"), "{}", said(&out));
    std::fs::write(sb.project().join("sound.rules"), &text).expect("restore");
    // An old log without hashes is refused, with how to record it again,
    // into another file: the command must not write a game of random
    // players over a log that may hold a game played by hand.
    let out = replay_edited(&sb.project(), &log, |l| l.sha256.clear());
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("records no SHA-256") && said(&out).contains("grimoire play sound.rules --players 2 --seed 4 --auto --log edited-again.json"), "{}", said(&out));
    assert!(said(&out).contains("a game played by hand is played again"), "{}", said(&out));
}

/// A log whose list of rulebook files is empty says so, not that an older
/// version wrote it (with a command to play no file again).
#[test]
fn a_log_that_names_no_rulebook_says_so() {
    let sb = Sandbox::new("log-no-rulebook");
    let (_, log) = played_log(&sb.project());
    let out = replay_edited(&sb.project(), &log, |l| {
        l.rulebook.clear();
        l.sha256.clear();
    });
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("names no rulebook file") && !said(&out).contains("older Grimoire"), "{}", said(&out));
}

/// A log that names one rulebook file twice (by the same path or another)
/// is not a game log (exit 2): Grimoire never writes one.
#[test]
fn a_log_that_names_a_file_twice_is_not_a_game_log() {
    let sb = Sandbox::new("log-twice");
    let (_, log) = played_log(&sb.project());
    for other in ["sound.rules", "./sound.rules"] {
        let out = replay_edited(&sb.project(), &log, |l| {
            l.rulebook.push(other.into());
            l.sha256.push(l.sha256[0].clone());
        });
        assert_eq!(out.status.code(), Some(2), "{other}: {}", said(&out));
        assert!(said(&out).contains("names the rulebook file") && said(&out).contains("twice"), "{other}: {}", said(&out));
    }
}

#[test]
fn a_log_cannot_name_a_file_outside_its_root() {
    let sb = Sandbox::new("log-root");
    let (_, log) = played_log(&sb.project());
    let secret = sb.secret();
    let hash = log.sha256[0].clone();
    for name in [secret.to_str().expect("utf-8").to_string(), "/etc/passwd".into(), "../secret.txt".into(), "../../../../../../../proc/self/environ".into()] {
        let out = replay_edited(&sb.project(), &log, |l| l.rulebook = vec![name.clone()]);
        assert_hidden(&out, &name);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", said(&out));
        assert!(said(&out).contains("not read") && said(&out).contains("--root"), "{name}: {}", said(&out));
        assert!(!said(&out).contains("root:x:0"), "{name}: {}", said(&out));
    }
    // Under a wide root, a file whose hash the log does not know is not parsed nor shown.
    let out = replay_edited(&sb.project(), &log, |l| {
        l.rulebook = vec!["../secret.txt".into()];
        l.sha256 = vec![hash];
    });
    let out2 = run_in(&sb.project(), &["replay", "edited.json", "--root", sb.dir.to_str().expect("utf-8")]);
    assert_hidden(&out, "wide");
    assert_hidden(&out2, "wide");
    assert_eq!(out2.status.code(), Some(1), "{}", said(&out2));
    assert!(said(&out2).contains("has changed since the log was recorded"), "{}", said(&out2));
    // A module the log does not list is never read: the log lists every file.
    #[cfg(unix)]
    {
        symlink(&secret, &sb.project().join("linked.rules"));
        let out = replay_edited(&sb.project(), &log, |l| l.rulebook = vec!["linked.rules".into()]);
        assert_hidden(&out, "link");
        assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    }
}

#[test]
fn replay_checks_every_fact_the_log_records() {
    let sb = Sandbox::new("facts");
    let dir = sb.project();
    let (_, log) = played_log(&dir);
    assert!(log.outcome.is_some() && log.error.is_none(), "{log:?}");
    assert_differs(&replay_edited(&dir, &log, |l| l.outcome = Some("player 1 wins and player 2 wins".into())), "outcome", "the game ends as");
    assert_differs(&replay_edited(&dir, &log, |l| l.outcome = None), "no outcome", "not finished");
    // The first step missing is where they differ (it said the last one
    // left, an outside tester's).
    let cut = log.steps.len();
    assert_differs(&replay_edited(&dir, &log, |l| drop(l.steps.pop())), "last step cut", &format!("step {cut}: after the log's {} step(s) the game is not over", cut - 1));
    assert_differs(&replay_edited(&dir, &log, |l| l.error = Some("an invented error".into())), "invented error", "records the error");
    assert_differs(&replay_edited(&dir, &log, |l| l.final_fingerprint = "0123456789abcdef".into()), "fingerprint", "fingerprint");
    assert_differs(&replay_edited(&dir, &log, |l| l.seed += 1), "seed", "step");
    assert_differs(&replay_edited(&dir, &log, |l| l.steps[0].label = "a label no option has".into()), "label", "the log says");
    assert_differs(&replay_edited(&dir, &log, |l| l.steps[0].player = 2), "player", "player 1 must decide, the log says player 2");
    assert_differs(&replay_edited(&dir, &log, |l| l.steps[0].choice = 999), "choice", "the log takes option 999");
    assert_differs(&replay_edited(&dir, &log, |l| l.loop_from = Some(0)), "invented loop", "loop");
    assert_differs(&replay_edited(&dir, &log, |l| l.loop_from = Some(10_000)), "loop past the end", "from the log: the log's `loop_from` is 10000, but its steps, counted from 0 there, end at");
    // A fingerprint Grimoire never writes: not a game log (exit 2).
    let out = replay_edited(&dir, &log, |l| l.final_fingerprint = "zz".into());
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("`final_fingerprint` is not 16 hexadecimal digits"), "{}", said(&out));
    let out = replay_edited(&dir, &log, |l| l.options = vec!["no_such_option".into()]);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("no_such_option"), "{}", said(&out));
    let out = replay_edited(&dir, &log, |l| l.players = 9);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert_differs(
        &replay_edited(&dir, &log, |l| {
            let last = l.steps.last().cloned().expect("a step");
            l.steps.push(last);
        }),
        "a step after the end",
        "the game is already over",
    );
    if log.steps.len() > 1 {
        assert_differs(&replay_edited(&dir, &log, |l| l.steps.truncate(1)), "steps cut", "");
    }
    // Unedited, it replays.
    let out = replay_edited(&dir, &log, |_| {});
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
}

#[test]
fn counterexamples_replay_to_the_error_they_record_and_no_other() {
    let sb = Sandbox::new("counterexamples");
    let save = sb.dir.join("ce");
    let fixtures = ["empty_deck", "leak", "drift", "endless", "deadlock", "setup_short", "end_in_setup", "no_winner", "warn_chance_loop"];
    let mut replayed = 0;
    for name in fixtures {
        let file = format!("tests/fixtures/validate/{name}.rules");
        let _ = std::fs::remove_dir_all(&save);
        let out = run_in(&repo(), &["validate", &file, "--games", "40", "--explore-states", "2000", "--guided-games", "2", "--save", save.to_str().expect("utf-8"), "--root", "/"]);
        assert!(out.status.code().is_some_and(|c| c <= 1), "{name}: {}", said(&out));
        let logs: Vec<PathBuf> = std::fs::read_dir(&save).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
        assert!(!logs.is_empty(), "{name}: a counterexample is saved");
        for path in logs {
            let p = path.to_str().expect("utf-8");
            let out = run_in(&sb.dir, &["replay", p, "--root", "/"]);
            let text = said(&out);
            assert_eq!(out.status.code(), Some(1), "{name} {p}: {text}");
            assert!(text.contains("as the log records") || text.contains("come back to the state they started from"), "{name} {p}: {text}");
            assert!(!text.contains("differs"), "{name} {p}: {text}");
            // The same log without its error, or with another one, differs.
            let log: GameLog = serde_json::from_str(&std::fs::read_to_string(&path).expect("log")).expect("a log");
            if let Some(recorded) = &log.error {
                // A game cut at its decision bound without its error is an
                // unfinished game, which a log may record: only another
                // error differs there.
                let unfinished = recorded.starts_with("the game did not end within");
                let edits = if unfinished { vec![Some("another error".to_string())] } else { vec![None, Some("another error".to_string())] };
                for error in edits {
                    let mut edited = log.clone();
                    edited.error = error;
                    std::fs::write(&path, serde_json::to_string(&edited).expect("json")).expect("write");
                    let out = run_in(&sb.dir, &["replay", p, "--root", "/"]);
                    assert_differs(&out, &format!("{name} {p} with its error edited"), "");
                }
            }
            replayed += 1;
        }
    }
    assert!(replayed >= fixtures.len(), "{replayed}");
}

/// A rulebook with a character a terminal obeys (an escape sequence that
/// retitles or clears it, a bidirectional override that makes a line read
/// otherwise than it parses) is refused at that character, E0001, and the
/// snippet that shows it prints a stand-in, never the character itself.
#[test]
fn control_characters_and_bidi_overrides_are_refused_and_never_echoed() {
    let dir = std::env::temp_dir().join(format!("grimoire-hostile-{}-controls", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let cases = [
        ("esc.rules", "rulebook o { players 1..1 }\nzone z \"\u{1b}]0;pwned\u{7}\u{1b}[2J\"\nround turn { win player(1) }\n", "a control character (U+001B)", "2:9"),
        ("bidi.rules", "rulebook o { players 1..1 }\n# \u{202e} looks like a comment\nround turn { win player(1) }\n", "a bidirectional override (U+202E)", "2:3"),
        // A lone carriage return in a comment would show the code after it
        // as live while the comment swallows it (CR LF stays a line end).
        ("cr.rules", "rulebook o { players 1..1 }\r\ncounter x 0..1 = 0 # note\rsetup { x = 1 }\nround turn { win player(1) }\n", "a carriage return that is not followed by a line", "2:26"),
        // So would a line separator in an editor (a hostile tester's).
        ("ls.rules", "rulebook o { players 1..1 }\ncounter x 0..1 = 0 # note\u{2028}setup { x = 1 }\nround turn { win player(1) }\n", "a line or paragraph separator (U+2028)", "2:26"),
    ];
    for (name, text, what, place) in cases {
        std::fs::write(dir.join(name), text).expect("written");
        let out = run_in(&dir, &["check", name]);
        assert_eq!(out.status.code(), Some(1), "{}", said(&out));
        let shown = said(&out);
        assert!(shown.contains("E0001") && shown.contains(what) && shown.contains(&format!("{name}:{place}")), "{shown}");
        assert!(!shown.contains('\u{1b}') && !shown.contains('\u{202e}') && !shown.contains('\u{7}') && !shown.contains('\u{2028}'), "echoed raw: {shown:?}");
    }
}

/// Text the parser never saw reaches messages: a paragraph of a source
/// text (the uncited-paragraph finding quotes it), a label or an option
/// name read from a log. What a terminal would obey is shown as `?`.
#[test]
fn control_characters_of_source_texts_and_logs_are_never_echoed() {
    let sb = Sandbox::new("echo");
    let dir = sb.project();
    std::fs::write(dir.join("sound.rules"), book("source.txt", None)).expect("rulebook");
    let source = std::fs::read_to_string(repo().join("tests/fixtures/validate/source.txt")).expect("source");
    std::fs::write(dir.join("source.txt"), format!("{source}\nUn paragraphe \u{1b}]0;pwned\u{7} jamais cit\u{e9}\u{c}.\n")).expect("source");
    let out = validate_in(&dir, "sound.rules", &[]);
    let shown = said(&out);
    assert!(shown.contains("Un paragraphe ?]0;pwned? jamais cité?."), "the paragraph quoted: {shown}");
    let short = validate_in(&dir, "sound.rules", &["--error-format", "short"]);
    let (_, log) = played_log(&dir);
    let label = replay_edited(&dir, &log, |l| l.steps[0].label = "\u{1b}[2J".into());
    let option = replay_edited(&dir, &log, |l| l.options = vec!["\u{1b}[2J".into()]);
    assert!(said(&label).contains("the log says") && said(&option).contains("no option `?[2J`"), "{}{}", said(&label), said(&option));
    for out in [&out, &short, &label, &option] {
        let text = said(out);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}') && !text.contains('\u{c}'), "echoed raw: {text:?}");
    }
}
