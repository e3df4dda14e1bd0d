//! The validator and the explorer tell their progress to the caller (they
//! never print): every phase announces its total, the steps done add up to
//! it, whatever the number of threads, and the report is the same as without
//! a callback.

use grimoire_interpreter::engine::Game;
use grimoire_interpreter::validate::explore::{explore, explore_observed, Budget};
use grimoire_interpreter::validate::{configurations, validate, Config, OnProgress, Phase, Progress};
use grimoire_interpreter::{compile, Model, Source};
use std::path::Path;
use std::sync::{Arc, Mutex};

fn model(rel: &str) -> Arc<Model> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    Arc::new(compile(&[Source { name: rel.into(), text }]).unwrap_or_else(|d| panic!("{rel}: {d:?}")))
}

/// Each phase as announced, with the sum of the steps reported in it.
fn phases(seen: &[Progress]) -> Vec<(Phase, u64, u64)> {
    let mut out: Vec<(Phase, u64, u64)> = Vec::new();
    for p in seen {
        match *p {
            Progress::Phase { phase, total } => out.push((phase, total, 0)),
            Progress::Done(n) => out.last_mut().expect("a phase is announced before its steps").2 += n,
        }
    }
    out
}

#[test]
fn the_validator_reports_every_phase_and_its_steps_add_up() {
    // Two options: four option sets, at 2 and 3 players.
    let m = model("../rulebooks/merlin/merlin.rules");
    for jobs in [1, 3] {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let cfg = Config { games: 7, max_decisions: 300, jobs, explore_states: 300, guided_games: 2, progress: OnProgress::new(move |p| log.lock().expect("lock").push(p)), ..Config::default() };
        let configs = configurations(&m, &cfg);
        assert!(configs >= 3, "{configs} configurations");
        let with = validate(m.clone(), &[], &cfg);
        let seen = seen.lock().expect("lock").clone();
        assert_eq!(
            phases(&seen),
            vec![(Phase::Games, configs * 7, configs * 7), (Phase::Search, configs * 300, configs * 300), (Phase::Guided, configs * 2, configs * 2)],
            "jobs = {jobs}"
        );
        assert_eq!(with.runs.len() as u64, configs);
        let without = validate(m.clone(), &[], &Config { progress: OnProgress::default(), ..cfg });
        assert_eq!(format!("{:?}", with.findings), format!("{:?}", without.findings), "a callback changes nothing");
    }
}

#[test]
fn the_explorer_tells_the_states_after_each_level() {
    let m = model("../rulebooks/classic/tic-tac-toe.rules");
    let game = Game::new(m, 2, &[]).expect("2 players");
    let levels = Mutex::new(Vec::new());
    let report = explore_observed(&game, &[], Budget::default(), &|n| levels.lock().expect("lock").push(n));
    let levels = levels.into_inner().expect("lock");
    assert_eq!(levels.len(), 10, "the start and 9 moves: {levels:?}");
    assert!(levels.windows(2).all(|w| w[0] <= w[1]), "never fewer: {levels:?}");
    assert_eq!(levels.last().copied(), Some(5478));
    assert_eq!(report.distinct, explore(&game, &[], Budget::default()).distinct);
}
