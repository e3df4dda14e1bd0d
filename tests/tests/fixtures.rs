//! One harness for the fixture rulebooks. A file (or a folder holding
//! `base.rules` and `module.rules`) under `fixtures/ok` must compile with no
//! diagnostic and play random games at every player count without a rule
//! error; one under `fixtures/err` must produce exactly the diagnostics its
//! comments list, as `# error[CODE]: part of the message`.

use grimoire_cli::load::load;
use grimoire_interpreter::engine::Game;
use grimoire_interpreter::validate::simulate::play_checked;
use grimoire_interpreter::{compile, Diagnostic, Source};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn cases(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(kind);
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .map(|p| if p.is_dir() { p.join("module.rules") } else { p })
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    out.sort();
    out
}

fn sources(path: &Path) -> Vec<Source> {
    load(&[path.to_path_buf()]).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn expected(sources: &[Source]) -> Vec<(String, String)> {
    sources
        .iter()
        .flat_map(|s| s.text.lines())
        .filter_map(|l| l.trim().strip_prefix("# error["))
        .filter_map(|l| l.split_once("]:"))
        .map(|(c, m)| (c.to_string(), m.trim().to_string()))
        .collect()
}

#[test]
fn ok_fixtures_compile_and_play() {
    let all = cases("ok");
    assert!(all.len() >= 5, "{all:?}");
    for path in all {
        let srcs = sources(&path);
        let model = compile(&srcs).unwrap_or_else(|d| panic!("{}: {d:#?}", path.display()));
        let model = Arc::new(model);
        for players in model.min_players..=model.max_players {
            let game = Game::new(model.clone(), players, &[]).expect("allowed count");
            for seed in 0..20 {
                let c = play_checked(&game, &[], seed, 2000);
                assert!(c.problem.is_none(), "{} at {players} players, seed {seed}: {:?}", path.display(), c.problem);
                assert!(c.state.is_some_and(|s| s.is_over()), "{} must end", path.display());
            }
        }
    }
}

#[test]
fn err_fixtures_produce_exactly_their_diagnostics() {
    let all = cases("err");
    assert!(all.len() >= 12, "{all:?}");
    for path in all {
        let srcs = sources(&path);
        let want = expected(&srcs);
        assert!(!want.is_empty(), "{} lists no expected error", path.display());
        let got: Vec<Diagnostic> = match compile(&srcs) {
            Ok(_) => panic!("{} compiled, expected {want:?}", path.display()),
            Err(d) => d,
        };
        let mut codes_got: Vec<&str> = got.iter().map(|d| d.code).collect();
        let mut codes_want: Vec<&str> = want.iter().map(|(c, _)| c.as_str()).collect();
        codes_got.sort_unstable();
        codes_want.sort_unstable();
        assert_eq!(codes_got, codes_want, "{}: {got:#?}", path.display());
        for (code, part) in &want {
            assert!(
                got.iter().any(|d| d.code == code && d.message.contains(part.as_str())),
                "{}: no {code} containing {part:?} in {:#?}",
                path.display(),
                got.iter().map(|d| &d.message).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn a_typo_gets_a_did_you_mean_pointing_at_it() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/err/typo.rules");
    let srcs = sources(&path);
    let d = compile(&srcs).expect_err("typo").remove(0);
    let text = &srcs[0].text;
    assert_eq!(&text[d.at.span.start..d.at.span.end], "dragn");
    assert_eq!(d.help.as_deref(), Some("did you mean `dragon`?"));
}

#[test]
fn diagnostics_are_collected_in_one_pass() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/err/many.rules");
    let d = compile(&sources(&path)).expect_err("three problems");
    assert_eq!(d.len(), 3, "{d:#?}");
}
