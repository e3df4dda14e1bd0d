//! `grimoire play`: a game in the terminal (`session.rs`: a hot seat,
//! the screen of `screen.rs`), or random players with `--auto`.

mod screen;
mod session;

use super::{game_for, names, reject, style, Ui, INVALID};
use grimoire_cli::render::{exec_error, exec_error_json};
use grimoire_cli::ui::plural;
use grimoire_interpreter::engine::{ExecError, Game, Rolled};
use grimoire_interpreter::log::{random_playout, GameLog};
use serde_json::json;
use session::{Display, End, Input};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Decisions after which `--auto` stops a game that does not end.
const AUTO_DECISIONS: u32 = 100_000;

/// Play one game. A rule that fails (in setup or during the game) is a
/// fault of the rulebook: exit 1, with the error and where it is.
pub fn play(files: &[PathBuf], players: u8, seed: u64, options: &[String], auto: bool, log_path: Option<&Path>, ui: &Ui) -> Result<ExitCode, String> {
    let (game, sources) = match game_for(files, players, options)? {
        Ok(g) => g,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    let rulebook = names(&sources);
    if let Some(path) = log_path {
        // The rulebook's files, and the source texts it cites: a game reads
        // none of those texts, but a log written over one would lose it.
        let main = files.first().cloned().unwrap_or_default();
        let cited = grimoire_cli::sources::lookup(&game.model, &sources, &main, &[]).read_from;
        let inputs: Vec<PathBuf> = sources.iter().map(|s| PathBuf::from(&s.name)).chain(cited).collect();
        grimoire_cli::output::check_file(path, &inputs)?;
    }
    // `--auto` prints the dice with the decisions.
    let mut rolls: Vec<Rolled> = Vec::new();
    let mut forced: Vec<grimoire_interpreter::engine::Forced> = Vec::new();
    let (log, error, end) = if auto {
        match random_playout(&game, &rulebook, seed, AUTO_DECISIONS) {
            Ok(p) => {
                rolls = p.rolls;
                forced = p.forced;
                (p.log, p.error, End::Over)
            }
            Err(e) => (setup_failed(&game, &rulebook, seed, &e), Some(e), End::Over),
        }
    } else {
        let input = Input::new(grimoire_cli::interrupt::catch("the game stops at this decision"));
        // A hot seat when people type at a terminal; a script's input gets the screens alone.
        let hot_seat = std::io::stdin().is_terminal();
        let display = Display { ascii: ui.format == grimoire_cli::render::ErrorFormat::Plain, hot_seat, clear: hot_seat && std::io::stdout().is_terminal() };
        session::interactive(&game, &rulebook, seed, &display, &input)
    };
    let interrupted = end == End::Interrupted;
    if let Some(path) = log_path {
        // Its rulebook files named from the log's folder, with their hashes.
        grimoire_cli::logfile::write(&log, &sources, path)?;
    }
    // A log printed names its files from the working directory.
    let log = grimoire_cli::logfile::for_stdout(&log, &sources)?;
    // Random players that reach the decision cap without an ending have
    // found a game that may not end: a fault, as for `simulate`.
    let unfinished = auto && error.is_none() && log.outcome.is_none();
    let code = match (interrupted, &error) {
        (true, _) => grimoire_cli::interrupt::INTERRUPTED,
        (false, Some(_)) => INVALID,
        (false, None) if unfinished => INVALID,
        (false, None) => 0,
    };
    let stopped = match end {
        End::Interrupted => Some("interrupted (Ctrl-C)"),
        End::Quit => Some("game stopped (quit)"),
        End::Over | End::InputClosed => None,
    };
    if let Some(why) = stopped {
        match log_path {
            Some(path) => grimoire_cli::say!("\n{why} after {}: the log is saved in {} (`{}` replays it)", plural(log.steps.len() as u64, "decision"), path.display(), super::counterexamples::replay_command(path, &sources)),
            None => grimoire_cli::say!("\n{why} after {}; the log was not kept (`--log FILE` keeps it, for `grimoire replay`)", plural(log.steps.len() as u64, "decision")),
        }
    }
    if ui.json {
        let report = json!({
            "outcome": log.outcome,
            "decisions": log.steps.len(),
            "rule_error": error.as_ref().map(|e| exec_error_json(e, &sources)),
            "log": log,
            "rolls": rolls.iter().map(|r| roll_json(&game, r, &sources)).collect::<Vec<_>>(),
        });
        return Ok(ui.emit_report(code, report));
    }
    if auto {
        if !ui.quiet {
            // Each roll and forced choice before the decision that follows
            // it, in the order they happened: a log records decisions only,
            // and without its forced moves a game can read as an illegal one.
            let between = in_order(&rolls, &forced);
            let mut between = between.iter().peekable();
            for (i, step) in log.steps.iter().enumerate() {
                while let Some(event) = between.next_if(|e| e.after_decisions() as usize <= i) {
                    grimoire_cli::say!("       {}", event.text(&game));
                }
                grimoire_cli::say!("{:>5}. player {}: {}", i + 1, step.player, step.label);
            }
            for event in between {
                grimoire_cli::say!("       {}", event.text(&game));
            }
        }
        let ended = match &log.outcome {
            Some(o) => format!("{o} after {}", plural(log.steps.len() as u64, "decision")),
            None if error.is_some() && log.steps.is_empty() => "the rules failed before the first decision".to_string(),
            None if error.is_some() => format!("the game stopped after {}", plural(log.steps.len() as u64, "decision")),
            None => format!("the game did not end within {AUTO_DECISIONS} decisions, the most `--auto` plays"),
        };
        grimoire_cli::say!("{ended} (seed {seed})");
    }
    if let (Some(path), None, false) = (log_path, stopped, ui.quiet) {
        grimoire_cli::say!("the log is saved in {} (`{}` replays it)", path.display(), super::counterexamples::replay_command(path, &sources));
    }
    if let Some(e) = &error {
        grimoire_cli::eput!("{}", exec_error(e, &sources, style(ui)));
    }
    Ok(ExitCode::from(code))
}

/// What `--auto` prints between two decisions.
enum Between<'a> {
    Roll(&'a Rolled),
    /// A forced choice: printed as a decision is, but unnumbered (it is
    /// no decision).
    Forced(&'a grimoire_interpreter::engine::Forced),
}

impl Between<'_> {
    fn after_decisions(&self) -> u32 {
        match self {
            Between::Roll(r) => r.after_decisions,
            Between::Forced(f) => f.after_decisions,
        }
    }

    fn text(&self, game: &grimoire_interpreter::engine::Game) -> String {
        match self {
            Between::Roll(r) => game.roll_text(r),
            Between::Forced(f) => format!("player {}: {} (forced: the only option)", f.player + 1, game.option_label(&f.option)),
        }
    }
}

/// The rolls and forced choices in the order they happened: a forced
/// choice after the rolls kept before it, before the next.
fn in_order<'a>(rolls: &'a [Rolled], forced: &'a [grimoire_interpreter::engine::Forced]) -> Vec<Between<'a>> {
    let mut keyed: Vec<(usize, Between)> = rolls.iter().enumerate().map(|(k, r)| (2 * k + 1, Between::Roll(r))).collect();
    keyed.extend(forced.iter().map(|f| (2 * f.rolls_before, Between::Forced(f))));
    keyed.sort_by_key(|(key, _)| *key);
    keyed.into_iter().map(|(_, e)| e).collect()
}

/// A roll of `--auto --json`: the die, what it showed, the rule and the
/// `roll` statement that rolled it, and how many decisions came before.
fn roll_json(game: &Game, r: &Rolled, sources: &[grimoire_interpreter::Source]) -> serde_json::Value {
    let die = game.model.dice.get(r.die.idx()).map(|d| d.name.as_str());
    let (file, line, column) = match sources.get(r.at.file.idx()) {
        Some(s) => {
            let (line, column) = grimoire_cli::ui::line_col(&s.text, r.at.span.start);
            (Some(s.name.as_str()), Some(line), Some(column))
        }
        None => (None, None, None),
    };
    // The number, or the face by its name (its label is for people).
    let value = match r.value {
        grimoire_interpreter::engine::Value::Face(f) => game.model.faces.get(f as usize).map_or_else(|| game.label(r.value), |face| face.name.clone()),
        other => game.label(other),
    };
    json!({
        "after_decisions": r.after_decisions, "die": die, "value": value,
        "rule": game.model.proc(r.rule).name, "file": file, "line": line, "column": column,
    })
}

/// The log of a game whose rules fail before its first decision.
pub(super) fn setup_failed(game: &Game, rulebook: &[String], seed: u64, e: &ExecError) -> GameLog {
    let (st, _) = game.begin(seed);
    let mut log = GameLog::begin(game, rulebook, seed);
    log.finish(&st, Some(e.message.clone()));
    log
}
