//! `grimoire play`: a game in the terminal, or random players with `--auto`.

use super::{game_for, names, INVALID};
use grimoire_cli::render::{exec_error, ErrorFormat};
use grimoire_interpreter::engine::Game;
use grimoire_interpreter::log::{outcome_text, random_playout, GameLog};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Play one game.
pub fn play(files: &[PathBuf], players: u8, seed: u64, options: &[String], auto: bool, log_path: Option<&Path>) -> Result<ExitCode, String> {
    let Some((game, sources)) = game_for(files, players, options)? else { return Ok(ExitCode::from(INVALID)) };
    let rulebook = names(&sources);
    let (log, error) = if auto {
        let p = random_playout(&game, &rulebook, seed, 100_000).map_err(|e| exec_error(&e, &sources, ErrorFormat::Human))?;
        grimoire_cli::say!("{}", serde_json::to_string_pretty(&p.log).map_err(|e| e.to_string())?);
        (p.log, p.error)
    } else {
        interactive(&game, &rulebook, seed).map_err(|e| exec_error(&e, &sources, ErrorFormat::Human))?
    };
    if let Some(path) = log_path {
        let text = serde_json::to_string_pretty(&log).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    }
    match error {
        Some(e) => {
            eprint!("{}", exec_error(&e, &sources, ErrorFormat::Human));
            Ok(ExitCode::from(INVALID))
        }
        None => Ok(ExitCode::SUCCESS),
    }
}

type Played = (GameLog, Option<grimoire_interpreter::engine::ExecError>);

fn interactive(game: &Game, rulebook: &[String], seed: u64) -> Result<Played, grimoire_interpreter::engine::ExecError> {
    let mut st = game.start(seed)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut log = GameLog::begin(game, rulebook, seed);
    let mut error = None;
    let out = std::io::stdout();
    while let Some((player, options)) = game.choices(&st) {
        let obs = game.observe(&st, player);
        let mut o = out.lock();
        let _ = writeln!(o, "\n── round {} ── player {} to decide ──", obs.round, u16::from(player) + 1);
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
            match lines.next() {
                Some(Ok(line)) => match line.trim().parse::<usize>() {
                    Ok(n) if (1..=labels.len()).contains(&n) => break Some(n - 1),
                    _ => {
                        let _ = writeln!(o, "type a number from 1 to {}", labels.len());
                    }
                },
                _ => break None,
            }
        };
        drop(o);
        let Some(i) = choice else {
            grimoire_cli::say!("\ninput closed: the game stops here");
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
    log.finish(&st, error.as_ref().map(|e: &grimoire_interpreter::engine::ExecError| e.message.clone()));
    Ok((log, error))
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
