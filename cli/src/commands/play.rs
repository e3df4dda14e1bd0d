//! `grimoire play`: a game in the terminal, or random players with `--auto`.

use super::{game_for, names, reject, style, Ui, INVALID};
use grimoire_cli::render::{exec_error, exec_error_json};
use grimoire_interpreter::engine::{ExecError, Game};
use grimoire_interpreter::log::{outcome_text, random_playout, GameLog};
use serde_json::json;
use std::io::{BufRead as _, Write};
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
        grimoire_cli::output::check_file(path)?;
    }
    let (log, error, interrupted) = if auto {
        match random_playout(&game, &rulebook, seed, AUTO_DECISIONS) {
            Ok(p) => (p.log, p.error, false),
            Err(e) => (setup_failed(&game, &rulebook, seed, &e), Some(e), false),
        }
    } else {
        let input = Input::new(grimoire_cli::interrupt::catch("the game stops at this decision"));
        interactive(&game, &rulebook, seed, ui.format == grimoire_cli::render::ErrorFormat::Plain, &input)
    };
    if let Some(path) = log_path {
        // Its rulebook files named from the log's folder, with their hashes.
        grimoire_cli::logfile::write(&log, &sources, path)?;
    }
    // A log printed names its files from the working directory.
    let log = grimoire_cli::logfile::for_stdout(&log, &sources)?;
    let code = match (interrupted, &error) {
        (true, _) => grimoire_cli::interrupt::INTERRUPTED,
        (false, Some(_)) => INVALID,
        (false, None) => 0,
    };
    if interrupted {
        match log_path {
            Some(path) => grimoire_cli::say!("\ninterrupted (Ctrl-C) after {} decisions: the log is saved in {}", log.steps.len(), path.display()),
            None => grimoire_cli::say!("\ninterrupted (Ctrl-C) after {} decisions; the log was not kept (`--log FILE` keeps it)", log.steps.len()),
        }
    }
    if ui.json {
        let report = json!({
            "outcome": log.outcome,
            "decisions": log.steps.len(),
            "rule_error": error.as_ref().map(|e| exec_error_json(e, &sources)),
            "log": log,
        });
        return Ok(ui.emit_report(code, report));
    }
    if auto {
        if !ui.quiet {
            for (i, step) in log.steps.iter().enumerate() {
                grimoire_cli::say!("{:>5}. player {}: {}", i + 1, step.player, step.label);
            }
        }
        let ended = match &log.outcome {
            Some(o) => format!("{o} after {} decisions", log.steps.len()),
            None if error.is_some() && log.steps.is_empty() => "the rules failed before the first decision".to_string(),
            None if error.is_some() => format!("the game stopped after {} decisions", log.steps.len()),
            None => format!("the game did not end within {AUTO_DECISIONS} decisions"),
        };
        grimoire_cli::say!("{ended} (seed {seed})");
    }
    if let Some(e) = &error {
        grimoire_cli::eput!("{}", exec_error(e, &sources, style(ui)));
    }
    Ok(ExitCode::from(code))
}

/// The log, the rule that failed, and whether Ctrl-C stopped the game.
type Played = (GameLog, Option<ExecError>, bool);

/// What the player typed, a line at a time.
enum Typed {
    Line(String),
    /// Input is closed (end of file, or not readable).
    Closed,
    /// Ctrl-C.
    Interrupted,
}

/// The player's lines, read on a thread of their own so that Ctrl-C is
/// noticed while a prompt waits (the read itself is not interrupted).
struct Input {
    lines: std::sync::mpsc::Receiver<String>,
    stop: grimoire_interpreter::validate::Stop,
}

impl Input {
    fn new(stop: grimoire_interpreter::validate::Stop) -> Input {
        let (send, lines) = std::sync::mpsc::channel();
        // The thread ends with stdin, or with the process (it may be blocked in a read then).
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Input { lines, stop }
    }

    fn next(&self) -> Typed {
        use std::sync::mpsc::RecvTimeoutError;
        loop {
            if self.stop.requested() {
                return Typed::Interrupted;
            }
            match self.lines.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(line) => return Typed::Line(line),
                Err(RecvTimeoutError::Timeout) => {}
                // Ctrl-C may close the input too (a terminal's does not).
                Err(RecvTimeoutError::Disconnected) if self.stop.requested() => return Typed::Interrupted,
                Err(RecvTimeoutError::Disconnected) => return Typed::Closed,
            }
        }
    }
}

/// The log of a game whose rules fail before its first decision.
fn setup_failed(game: &Game, rulebook: &[String], seed: u64, e: &ExecError) -> GameLog {
    let (st, _) = game.begin(seed);
    let mut log = GameLog::begin(game, rulebook, seed);
    log.finish(&st, Some(e.message.clone()));
    log
}

/// `ascii`: `--error-format plain`, no box-drawing characters.
fn interactive(game: &Game, rulebook: &[String], seed: u64, ascii: bool, input: &Input) -> Played {
    let mut st = match game.start(seed) {
        Ok(st) => st,
        Err(e) => return (setup_failed(game, rulebook, seed, &e), Some(e), false),
    };
    let mut interrupted = false;
    let mut log = GameLog::begin(game, rulebook, seed);
    let mut error = None;
    let out = std::io::stdout();
    while let Some((player, options)) = game.choices(&st) {
        let obs = game.observe(&st, player);
        let mut o = out.lock();
        let rule = if ascii { "--" } else { "──" };
        let _ = writeln!(o, "\n{rule} round {} {rule} player {} to decide {rule}", obs.round, u16::from(player) + 1);
        for z in &obs.zones {
            match &z.pieces {
                Some(p) => {
                    let _ = writeln!(o, "  {}: {}", z.zone, grouped(p));
                }
                None => {
                    let _ = writeln!(o, "  {}: {} hidden", z.zone, z.count);
                }
            }
        }
        for v in &obs.values {
            let _ = writeln!(o, "  {v}");
        }
        let _ = writeln!(o, "{}", game.prompt(&st).unwrap_or("Choose:"));
        let labels: Vec<String> = options.iter().map(|o| game.option_label(o)).collect();
        for (i, l) in labels.iter().enumerate() {
            let _ = writeln!(o, "  {}) {l}", i + 1);
        }
        let choice = loop {
            let _ = write!(o, "> ");
            let _ = o.flush();
            match input.next() {
                Typed::Line(line) => match line.trim().parse::<usize>() {
                    Ok(n) if (1..=labels.len()).contains(&n) => break Some(n - 1),
                    _ => {
                        let _ = writeln!(o, "type a number from 1 to {}", labels.len());
                    }
                },
                Typed::Closed => break None,
                Typed::Interrupted => {
                    interrupted = true;
                    break None;
                }
            }
        };
        drop(o);
        let Some(i) = choice else {
            if !interrupted {
                grimoire_cli::say!("\ninput closed: the game stops here");
            }
            break;
        };
        log.record(game, &st, i);
        if let Err(e) = game.apply(&mut st, i) {
            error = Some(e);
            break;
        }
        // A rule that breaks a declared invariant is a fault of the rulebook: stop there.
        if let Some(b) = game.broken_invariant(&mut st) {
            error = Some(b.error());
            break;
        }
    }
    if let Some(text) = outcome_text(st.outcome) {
        grimoire_cli::say!("\n{text}");
    }
    log.finish(&st, error.as_ref().map(|e: &ExecError| e.message.clone()));
    (log, error, interrupted)
}

/// `lance, lance, lance` reads better as `lance ×3`; order is kept otherwise.
fn grouped(labels: &[String]) -> String {
    let mut out: Vec<(String, usize)> = Vec::new();
    for l in labels {
        match out.last_mut() {
            Some((last, n)) if last == l => *n += 1,
            _ => out.push((l.clone(), 1)),
        }
    }
    out.into_iter().map(|(l, n)| if n > 1 { format!("{l} ×{n}") } else { l }).collect::<Vec<_>>().join(", ")
}
