//! `grimoire`: check, play, simulate and replay rulebooks.
//!
//! Exit codes: 0 success, 1 the rulebook is invalid or a check failed (a
//! game broke a rule, a scenario failed, a replay differs), 2 the tool
//! failed (bad arguments, an unreadable file, an internal error), 130
//! interrupted (see `grimoire_cli::ui`).

mod commands;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use grimoire_cli::render::ErrorFormat;
use grimoire_cli::ui::{ColorChoice, Ui, TOOL};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_CODES: &str = "Exit codes:
  0    success
  1    the rulebook is invalid, or a check failed (a game broke a rule, a
       scenario failed, a replay differs from its log)
  2    the tool failed (bad arguments, a file given that cannot be read, an
       internal error); with --json, a JSON document with an \"error\" field
  130  interrupted (Ctrl-C): simulate, validate, explore and play stop at
       the next game (or slice, or decision) and print and save what was
       done; a second Ctrl-C quits at once

With --json, every command prints one JSON document on stdout (docs/json.md).";

#[derive(Parser)]
#[command(name = "grimoire", version, about = "Turn tabletop rulebooks into data a computer can run and check", after_help = EXIT_CODES)]
struct Cli {
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is
    /// set), always, never.
    #[arg(long, value_enum, global = true, default_value = "auto", value_name = "WHEN")]
    color: ColorChoice,
    /// How to print problems: human (the rulebook's text with boxes and
    /// arrows), plain (the same in ASCII only), short (one line each:
    /// `file:line:col: CODE message`), json (the same as --json). At most 50
    /// are shown, then how many more (--json lists them all).
    #[arg(long, value_enum, global = true, default_value = "human", value_name = "FORMAT")]
    error_format: ErrorFormat,
    /// Print only errors and the final result line(s): no progress, no
    /// summary tables, no warnings.
    #[arg(long, short, global = true)]
    quiet: bool,
    /// The folder under which every file a rulebook or a log names must lie
    /// (a module's base, the rulebook files of a log; source texts are also
    /// looked up in it). Default: the folder of the first file given; for
    /// `replay`, the working directory when the log lies under it, else the
    /// log's folder. See the README, "Files Grimoire reads".
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
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
        /// Print the result as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal, or with random players (`--auto`).
    Play {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of players (the rulebook says which it allows).
        #[arg(long, short, value_parser = players())]
        players: u8,
        /// Seed of dice and shuffles.
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// Random players play to the end; every move and the outcome are
        /// printed. A game still running after 100,000 decisions stops
        /// there and exits 1.
        #[arg(long)]
        auto: bool,
        /// Write the game's log to this file (for `grimoire replay`).
        #[arg(long)]
        log: Option<PathBuf>,
        /// With --auto: print the result, with the game's log, as JSON (docs/json.md).
        #[arg(long, requires = "auto")]
        json: bool,
    },
    /// Random playouts: speed, game length, wins by seat, rules fired.
    Simulate {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of players (the rulebook says which it allows).
        #[arg(long, short, value_parser = players())]
        players: u8,
        /// Number of games.
        #[arg(long, short, default_value_t = 1000, value_parser = at_least_one_u32())]
        games: u32,
        /// First seed; game i uses seed + i.
        #[arg(long, short, default_value_t = 0)]
        seed: u64,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// A game longer than this many decisions counts as not ending.
        #[arg(long, default_value_t = 5000, value_parser = at_least_one_u32())]
        max_decisions: u32,
        /// A per-player counter (a score) whose final values to report by seat.
        #[arg(long)]
        score: Option<String>,
        /// Print the report as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
        /// Threads to play the games on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = jobs_range())]
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
        #[arg(long, short, default_value_t = 1000, value_parser = at_least_one_u32())]
        games: u32,
        /// A game longer than this many decisions counts as not ending.
        #[arg(long, default_value_t = 5000, value_parser = at_least_one_u32())]
        max_decisions: u32,
        /// Folders holding the source texts (also searched: next to the rulebook, `seeds/`, `shared/seeds/` above it); each must exist.
        #[arg(long)]
        sources: Vec<PathBuf>,
        /// Where counterexample logs are written.
        #[arg(long, default_value = "counterexamples")]
        save: PathBuf,
        /// Print the report as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
        /// Write the source and the rulebook side by side as an HTML page.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Threads to play the games on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = jobs_range())]
        jobs: u32,
        /// Play only with these options on (repeat the flag); by default every
        /// combination of options (every pair beyond six options).
        #[arg(long = "option")]
        options: Vec<String>,
        /// Play, search and guide games at this player count only; by default
        /// every count the rulebook allows (the static checks look at every count).
        #[arg(long, short, value_parser = players())]
        players: Option<u8>,
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
        /// Number of players (the rulebook says which it allows).
        #[arg(long, short, value_parser = players())]
        players: u8,
        /// Options of the rulebook to switch on.
        #[arg(long = "option")]
        options: Vec<String>,
        /// Visit at most this many distinct states (finding one more stops
        /// the search, not exhausted).
        #[arg(long, default_value_t = 10_000_000, value_parser = at_least_one_usize())]
        max_states: usize,
        /// Do not expand states deeper than this many steps (decisions, forced plies and chance outcomes); with --perft, the most plies it may count.
        #[arg(long, default_value_t = 10_000, value_parser = at_least_one_u32())]
        max_depth: u32,
        /// Stop as soon as the explorer holds more than this many bytes
        /// (visited states and frontier).
        #[arg(long, default_value_t = grimoire_interpreter::validate::explore::DEFAULT_MAX_BYTES, value_parser = at_least_one_usize())]
        max_bytes: usize,
        /// Count the move sequences of 1 to N plies instead ("perft"); N may not pass --max-depth, and the other budgets do not apply.
        #[arg(long, value_parser = at_least_one_u32())]
        perft: Option<u32>,
        /// Where counterexample logs (and lassos) are written.
        #[arg(long, default_value = "counterexamples")]
        save: PathBuf,
        /// Print the report as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
        /// Threads to expand each level on (the report does not depend on it).
        #[arg(long, short, default_value_t = commands::cores(), value_parser = jobs_range())]
        jobs: u32,
    },
    /// Replay a game log and check that it gives the same game.
    Replay {
        /// A log written by `play --log` or `validate` (a counterexample).
        log: PathBuf,
        /// Print the result as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Run the scenarios of a rulebook and its modules.
    Test {
        /// The rulebook, then any modules.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Only the scenarios whose name contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Folders holding the source texts the scenarios quote, as for `validate`; each must exist.
        #[arg(long)]
        sources: Vec<PathBuf>,
        /// Print the results as JSON (docs/json.md).
        #[arg(long)]
        json: bool,
    },
}

/// The most players a rulebook may have (docs/language.md, Limits).
const MOST_PLAYERS: i64 = 16;

/// `--players`: 1 to [`MOST_PLAYERS`]; clap's message gives the range.
fn players() -> clap::builder::RangedI64ValueParser<u8> {
    clap::value_parser!(u8).range(1..=MOST_PLAYERS)
}

/// A count of games, decisions, plies or threads: 0 would make the run
/// meaningless (a validation of no game passes), so clap refuses it and
/// says the range.
fn at_least_one_u32() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..)
}

/// Threads: at least one, and no more than a machine can start (a
/// hundred thousand made the system refuse threads).
fn jobs_range() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=MAX_JOBS)
}

/// The most threads `--jobs` may ask for.
const MAX_JOBS: i64 = 1024;

/// A budget of states or bytes: 0 would explore nothing.
fn at_least_one_usize() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=usize::MAX as u64)
}

impl Command {
    /// The subcommand's name, and whether it was asked for JSON.
    fn name_and_json(&self) -> (&'static str, bool) {
        match self {
            Command::Check { json, .. } => ("check", *json),
            Command::Play { json, .. } => ("play", *json),
            Command::Simulate { json, .. } => ("simulate", *json),
            Command::Validate { json, .. } => ("validate", *json),
            Command::Explore { json, .. } => ("explore", *json),
            Command::Replay { json, .. } => ("replay", *json),
            Command::Test { json, .. } => ("test", *json),
        }
    }
}

/// The subcommands that print JSON, as named on the command line.
const COMMANDS: [&str; 7] = ["check", "play", "simulate", "validate", "explore", "replay", "test"];

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let clap_color = match flag_value(&args, "--color").as_deref() {
        Some("always") => clap::ColorChoice::Always,
        Some("never") => clap::ColorChoice::Never,
        _ => clap::ColorChoice::Auto,
    };
    let parsed = Cli::command().color(clap_color).try_get_matches_from(&args).and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args),
    };
    if let Some(root) = &cli.root {
        grimoire_cli::files::set_root_flag(root.clone());
    }
    let (name, json) = cli.command.name_and_json();
    let ui = Ui::new(name, cli.error_format, json, cli.quiet, cli.color);
    // A bug that panics is a tool failure too (exit 2, and a JSON document
    // with --json); the panic message is on stderr.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli.command, &ui))) {
        Ok(Ok(code)) => code,
        Ok(Err(message)) => tool_failure(&ui, &message),
        Err(_) => tool_failure(&ui, "internal error: grimoire panicked (a bug of grimoire; the message is above)"),
    }
}

/// Exit 2 with the message, as a JSON document with --json.
fn tool_failure(ui: &Ui, message: &str) -> ExitCode {
    if ui.json {
        return ui.emit(TOOL, Some(message), serde_json::json!([]), serde_json::Value::Null);
    }
    // The message may quote what a log or a path holds: a terminal must not obey it.
    grimoire_cli::esay!("{}: {}", ui.paint_err("error", grimoire_cli::ui::colors::RED), grimoire_cli::render::printable_words(message));
    ExitCode::from(TOOL)
}

/// Bad arguments: clap's message and exit 2 (0 for --help and --version),
/// or with --json (or --error-format json) after a known subcommand, the
/// command's JSON document with the message as its error.
fn usage_error(e: &clap::Error, args: &[OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let command = words.iter().find_map(|w| COMMANDS.iter().find(|c| **c == *w).copied());
    let json = words.contains(&"--json") || flag_value(args, "--error-format").as_deref() == Some("json");
    let shown = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand);
    match command {
        Some(command) if json && !shown => {
            let ui = Ui::plain(command);
            let message = json_usage_message(&e.render().to_string());
            ui.emit(TOOL, Some(&message), serde_json::json!([]), serde_json::Value::Null)
        }
        _ => {
            let _ = e.print();
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(TOOL))
        }
    }
}

/// Clap's message for a terminal, as the `error` of a JSON document: the
/// message and its usage line, without the `error: ` its first line starts
/// with (the field says it is one) or the closing tip to try `--help`.
fn json_usage_message(rendered: &str) -> String {
    let message = rendered.trim_end();
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let message = match message.rfind("\n\nFor more information") {
        Some(tip) => &message[..tip],
        None => message,
    };
    message.trim_end().to_string()
}

/// The value of `--flag VALUE` or `--flag=VALUE`, the last one given.
fn flag_value(args: &[OsString], flag: &str) -> Option<String> {
    let words: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    let mut found = None;
    for (i, w) in words.iter().enumerate() {
        if *w == flag {
            found = words.get(i + 1).map(|v| v.to_string());
        } else if let Some(v) = w.strip_prefix(flag).and_then(|rest| rest.strip_prefix('=')) {
            found = Some(v.to_string());
        }
    }
    found
}

/// The options switched on, each once: `--option x --option x` is `x`
/// (it showed as `x,x` in reports and counterexamples).
fn once(mut options: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    options.retain(|o| seen.insert(o.clone()));
    options
}

fn run(command: Command, ui: &Ui) -> Result<ExitCode, String> {
    match command {
        Command::Check { files, json: _ } => commands::check(&files, ui),
        Command::Play { files, players, seed, options, auto, log, json: _ } => commands::play(&files, players, seed, &once(options), auto, log.as_deref(), ui),
        Command::Simulate { files, players, games, seed, options, max_decisions, score, json: _, jobs, unchecked } => {
            commands::simulate(commands::SimArgs { files: &files, players, games, seed, options: &once(options), max_decisions, score: score.as_deref(), jobs: jobs as usize, unchecked }, ui)
        }
        Command::Replay { log, json: _ } => commands::replay(&log, ui),
        Command::Test { files, filter, sources, json: _ } => commands::test::test(commands::test::Args { files: &files, filter: filter.as_deref(), sources: &sources }, ui),
        Command::Validate { files, games, max_decisions, sources, save, json: _, html, jobs, options, players, explore_states, guided_games } => commands::validate::validate(
            commands::validate::Args { files: &files, games, max_decisions, sources: &sources, save: &save, html: html.as_deref(), jobs: jobs as usize, options: &once(options), players, explore_states, guided_games },
            ui,
        ),
        Command::Explore { files, players, options, max_states, max_depth, max_bytes, perft, save, json: _, jobs } => {
            let budget = grimoire_interpreter::validate::explore::Budget { max_states, max_depth, max_bytes, jobs: jobs as usize };
            commands::explore(&files, players, &once(options), budget, perft, &save, ui)
        }
    }
}
