//! `grimoire`: check, play, simulate and replay rulebooks.
//!
//! Exit codes: 0 success, 1 the rulebook is invalid (or a game found a rule
//! problem), 2 the tool failed (unreadable file, bad arguments).

mod commands;

use clap::{Parser, Subcommand};
use grimoire_cli::render::ErrorFormat;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "grimoire", version, about = "Turn tabletop rulebooks into data a computer can run and check")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, resolve and check a rulebook (and its modules).
    Check {
        /// The rulebook, then any modules (a module's base is loaded by itself).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// How to print problems.
        #[arg(long, value_enum, default_value = "human")]
        error_format: ErrorFormat,
    },
    /// Play a game in the terminal, or with random players (`--auto`).
    Play {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of players.
        #[arg(long, short)]
        players: u8,
        /// Seed of dice and shuffles.
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// Random players play to the end; the log is printed as JSON.
        #[arg(long)]
        auto: bool,
        /// Also write the log to this file.
        #[arg(long)]
        log: Option<PathBuf>,
    },
    /// Random playouts: speed, game length, wins by seat, rules fired.
    Simulate {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of players.
        #[arg(long, short)]
        players: u8,
        /// Number of games.
        #[arg(long, short, default_value_t = 1000)]
        games: u32,
        /// First seed; game i uses seed + i.
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// A game longer than this many decisions counts as not ending.
        #[arg(long, default_value_t = 5000)]
        max_decisions: u32,
        /// A per-player counter (a score) whose final values to report by seat.
        #[arg(long)]
        score: Option<String>,
        /// Print a JSON report.
        #[arg(long)]
        json: bool,
        /// Threads to play the games on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = clap::value_parser!(u32).range(1..))]
        jobs: u32,
        /// Do not check the rulebook's declared invariants after every step.
        #[arg(long)]
        unchecked: bool,
    },
    /// Check everything a good rulebook must satisfy: static checks, random
    /// games at every player count and option, citations and source coverage.
    Validate {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Random games per player count and option set.
        #[arg(long, short, default_value_t = 1000)]
        games: u32,
        /// A game longer than this many decisions counts as not ending.
        #[arg(long, default_value_t = 5000)]
        max_decisions: u32,
        /// Folders holding the source texts (also searched: next to the rulebook, `seeds/`, `shared/seeds/` above it).
        #[arg(long)]
        sources: Vec<PathBuf>,
        /// Where counterexample logs are written.
        #[arg(long, default_value = "counterexamples")]
        save: PathBuf,
        /// Print the report as JSON (schema: docs/validate.md).
        #[arg(long)]
        json: bool,
        /// Write the source and the rulebook side by side as an HTML page.
        #[arg(long)]
        html: Option<PathBuf>,
        /// How to print findings.
        #[arg(long, value_enum, default_value = "human")]
        error_format: ErrorFormat,
        /// Threads to play the games on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = clap::value_parser!(u32).range(1..))]
        jobs: u32,
        /// Play only with these options on (repeat the flag); by default every
        /// combination of options (every pair beyond six options).
        #[arg(long = "option")]
        options: Vec<String>,
        /// States the exhaustive search explores per configuration, after the
        /// random games (0: no search).
        #[arg(long, default_value_t = grimoire_interpreter::validate::DEFAULT_EXPLORE_STATES)]
        explore_states: usize,
        /// Coverage-guided games per configuration, after the search (0: none).
        #[arg(long, default_value_t = grimoire_interpreter::validate::search::GUIDED_GAMES)]
        guided_games: u32,
    },
    /// Visit every reachable state of a game, breadth first, within a budget.
    Explore {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of players.
        #[arg(long, short)]
        players: u8,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// Stop after this many distinct states.
        #[arg(long, default_value_t = 10_000_000)]
        max_states: usize,
        /// Do not go deeper than this many decisions.
        #[arg(long, default_value_t = 10_000)]
        max_depth: u32,
        /// Stop before the explorer holds more than this many bytes (visited
        /// states and frontier).
        #[arg(long, default_value_t = grimoire_interpreter::validate::explore::DEFAULT_MAX_BYTES)]
        max_bytes: usize,
        /// Count the move sequences of 1 to N plies instead ("perft").
        #[arg(long)]
        perft: Option<u32>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Threads to expand each level on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = clap::value_parser!(u32).range(1..))]
        jobs: u32,
    },
    /// Replay a game log and check that it gives the same game.
    Replay {
        /// A log written by `play --auto` or `play --log`.
        log: PathBuf,
    },
    /// Run the scenarios of a rulebook and its modules.
    Test {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only the scenarios whose name contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files, error_format } => commands::check(&files, error_format),
        Command::Play { files, players, seed, options, auto, log } => commands::play(&files, players, seed, &options, auto, log.as_deref()),
        Command::Simulate { files, players, games, seed, options, max_decisions, score, json, jobs, unchecked } => {
            commands::simulate(commands::SimArgs { files: &files, players, games, seed, options: &options, max_decisions, score: score.as_deref(), json, jobs: jobs as usize, unchecked })
        }
        Command::Replay { log } => commands::replay(&log),
        Command::Test { files, filter, json } => commands::test::test(commands::test::Args { files: &files, filter: filter.as_deref(), json }),
        Command::Validate { files, games, max_decisions, sources, save, json, html, error_format, jobs, options, explore_states, guided_games } => {
            commands::validate::validate(commands::validate::Args { files: &files, games, max_decisions, sources: &sources, json, save: &save, format: error_format, html: html.as_deref(), jobs: jobs as usize, options: &options, explore_states, guided_games })
        }
        Command::Explore { files, players, options, max_states, max_depth, max_bytes, perft, json, jobs } => {
            let budget = grimoire_interpreter::validate::explore::Budget { max_states, max_depth, max_bytes, jobs: jobs as usize };
            commands::explore(&files, players, &options, budget, perft, json)
        }
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
