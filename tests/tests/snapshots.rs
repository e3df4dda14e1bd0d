//! Snapshots of what a user reads: rendered diagnostics of broken rulebooks,
//! and the start of a fixed-seed Grail Cup game.

use grimoire_cli::render::{human, ErrorFormat};
use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::random_playout;
use grimoire_interpreter::{compile, Source};
use std::path::Path;
use std::sync::Arc;

fn rendered(fixture: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/err").join(fixture);
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    // A relative name keeps the snapshot the same on every machine.
    let sources = vec![Source { name: format!("fixtures/err/{fixture}"), text }];
    let diags = compile(&sources).expect_err("a broken fixture");
    // The default format (without colour: `human` never colours).
    human(&diags, &sources, ErrorFormat::Human)
}

#[test]
fn typo_with_did_you_mean() {
    insta::assert_snapshot!(rendered("typo.rules"));
}

#[test]
fn total_that_does_not_add_up() {
    insta::assert_snapshot!(rendered("total.rules"));
}

#[test]
fn three_problems_in_one_pass() {
    insta::assert_snapshot!(rendered("many.rules"));
}

#[test]
fn syntax_error_says_what_was_expected() {
    insta::assert_snapshot!(rendered("syntax.rules"));
}

#[test]
fn grail_cup_fixed_seed_game() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules");
    let text = std::fs::read_to_string(path).expect("rulebook exists");
    let model = compile(&[Source { name: path.into(), text }]).expect("compiles");
    let game = Game::new(Arc::new(model), 3, &[]).expect("3 players");
    let p = random_playout(&game, &[], 7, 1000).expect("starts");
    let mut out = String::new();
    for (i, s) in p.log.steps.iter().take(25).enumerate() {
        out.push_str(&format!("{:>2}. player {}: {}\n", i + 1, s.player, s.label));
    }
    out.push_str(&format!("... {} decisions in all; {}\n", p.log.steps.len(), p.log.outcome.as_deref().unwrap_or("not over")));
    insta::assert_snapshot!(out);
}
