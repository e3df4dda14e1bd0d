//! What every command shares about output: colour (`--color`, `NO_COLOR`),
//! `--quiet`, the error format, progress on stderr, the JSON envelope and
//! exit codes.
//!
//! Exit codes (the README's table): 0 success, 1 the rulebook is invalid or
//! a check failed (a game broke a rule, a scenario failed, a replay
//! differs), 2 the tool failed (bad arguments, an unreadable file given on
//! the command line, an internal error), 130 interrupted (Ctrl-C: see
//! `crate::interrupt`).

use crate::render::ErrorFormat;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value as Json};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

/// Exit code: success.
pub const OK: u8 = 0;
/// Exit code: the rulebook is invalid, or a check failed.
pub const INVALID: u8 = 1;
/// Exit code: the tool failed.
pub const TOOL: u8 = 2;

/// Version of the JSON every command prints with `--json`.
pub const SCHEMA_VERSION: u32 = 1;

/// Diagnostics and findings shown in text formats; `--json` lists them all.
pub const MAX_SHOWN: usize = 50;

/// When to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set to a non-empty value.
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (`tty`) or is not a terminal.
    pub fn colors(self, tty: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}

/// How a command prints, from the global flags.
#[derive(Debug, Clone)]
pub struct Ui {
    /// The subcommand, as the JSON's `command` names it.
    pub command: &'static str,
    /// How diagnostics and findings are printed.
    pub format: ErrorFormat,
    /// Print the result as one JSON document on stdout.
    pub json: bool,
    /// Only errors and the final result line(s).
    pub quiet: bool,
    /// Colour on stderr.
    pub color_err: bool,
    /// Colour on stdout.
    pub color_out: bool,
}

impl Ui {
    /// From the flags; colour is decided once, per stream.
    pub fn new(command: &'static str, format: ErrorFormat, json: bool, quiet: bool, color: ColorChoice) -> Ui {
        let json = json || format == ErrorFormat::Json;
        crate::ascii::set(format == ErrorFormat::Plain && !json);
        Ui { command, format, json, quiet, color_err: color.colors(std::io::stderr().is_terminal()), color_out: color.colors(std::io::stdout().is_terminal()) }
    }

    /// For tests and tools: no colour, human format, not quiet.
    pub fn plain(command: &'static str) -> Ui {
        Ui { command, format: ErrorFormat::Plain, json: false, quiet: false, color_err: false, color_out: false }
    }

    /// The JSON document of a command: the same top-level keys whatever
    /// happened (docs/json.md). `report` is null when the command could not
    /// run (an invalid rulebook, a tool failure).
    pub fn envelope(&self, code: u8, error: Option<&str>, diagnostics: Json, report: Json) -> Json {
        json!({
            "schema_version": SCHEMA_VERSION,
            "command": self.command,
            "exit_code": code,
            "error": error,
            "diagnostics": diagnostics,
            "report": report,
        })
    }

    /// The same, its keys in the documented order.
    fn envelope_text(&self, code: u8, error: Option<&str>, diagnostics: Json, report: Json) -> Result<String, serde_json::Error> {
        #[derive(serde::Serialize)]
        struct Envelope<'a> {
            schema_version: u32,
            command: &'a str,
            exit_code: u8,
            error: Option<&'a str>,
            diagnostics: Json,
            report: Json,
        }
        serde_json::to_string_pretty(&Envelope { schema_version: SCHEMA_VERSION, command: self.command, exit_code: code, error, diagnostics, report })
    }

    /// Print the JSON document and give the exit code.
    pub fn emit(&self, code: u8, error: Option<&str>, diagnostics: Json, report: Json) -> ExitCode {
        match self.envelope_text(code, error, diagnostics, report) {
            Ok(text) => {
                crate::say!("{text}");
                ExitCode::from(code)
            }
            Err(e) => {
                crate::say!("{}", self.envelope(TOOL, Some(&format!("the report could not be written as JSON: {e}")), json!([]), Json::Null));
                ExitCode::from(TOOL)
            }
        }
    }

    /// The JSON of a command's result: no error, no diagnostics.
    pub fn emit_report(&self, code: u8, report: Json) -> ExitCode {
        self.emit(code, None, json!([]), report)
    }

    /// `text` in bold and `color` (an ANSI colour number) when stdout has colour.
    pub fn paint_out(&self, text: &str, color: u8) -> String {
        paint(self.color_out, text, color)
    }

    /// `text` in bold and `color` when stderr has colour.
    pub fn paint_err(&self, text: &str, color: u8) -> String {
        paint(self.color_err, text, color)
    }

    /// A progress display on stderr for `len` units (or a count when
    /// unknown): drawn only on a terminal and never with `--quiet`.
    pub fn meter(&self, len: Option<u64>, unit: &str) -> Meter {
        let visible = !self.quiet && std::io::stderr().is_terminal();
        let target = if visible { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(len, target);
        let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
        let template = match (len.is_some(), self.color_err) {
            (true, true) => format!("{{msg}} {{bar:30.cyan/blue}} {{human_pos}}/{{human_len}}{unit} ({{elapsed}}, eta {{eta}})"),
            (true, false) => format!("{{msg}} {{bar:30}} {{human_pos}}/{{human_len}}{unit} ({{elapsed}}, eta {{eta}})"),
            (false, true) => format!("{{spinner:.cyan}} {{msg}} {{human_pos}}{unit} ({{elapsed}})"),
            (false, false) => format!("{{spinner}} {{msg}} {{human_pos}}{unit} ({{elapsed}})"),
        };
        let style = ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
        // Plain ASCII unless the terminal has colour (a `--color never` user
        // may have a terminal without Unicode).
        let style = if self.color_err { style } else { style.progress_chars("#>-").tick_chars("|/-\\ ") };
        bar.set_style(style);
        Meter { bar, visible, quiet: self.quiet, start: Instant::now() }
    }
}

fn paint(on: bool, text: &str, color: u8) -> String {
    if on {
        format!("\x1b[1;{}m{text}\x1b[0m", 30 + color)
    } else {
        text.to_string()
    }
}

/// ANSI colour numbers for [`Ui::paint_out`].
pub mod colors {
    /// Errors, failures.
    pub const RED: u8 = 1;
    /// Success.
    pub const GREEN: u8 = 2;
    /// Warnings.
    pub const YELLOW: u8 = 3;
    /// Headings.
    pub const CYAN: u8 = 6;
}

/// A progress bar on stderr, or, when it is not drawn (stderr is not a
/// terminal), one summary line printed when the work is done.
pub struct Meter {
    bar: ProgressBar,
    visible: bool,
    quiet: bool,
    start: Instant,
}

impl Meter {
    /// The bar, to advance (it may be cloned into threads).
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// Clear the bar; when it was not drawn (and not `--quiet`), print the
    /// summary line `summary(seconds)` on stderr instead.
    pub fn finish(self, summary: impl FnOnce(f64) -> String) {
        self.bar.finish_and_clear();
        if !self.visible && !self.quiet {
            crate::esay!("{}", summary(self.start.elapsed().as_secs_f64()));
        }
    }
}

/// `12,345`: the interpreter's messages and the CLI's lines write counts
/// alike.
pub fn count(n: u64) -> String {
    grimoire_interpreter::diagnostic::grouped(n)
}

/// `n thing` or `n things`, the number with thousands separators.
pub fn plural(n: u64, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{} {thing}s", count(n))
    }
}

/// Where a byte offset of `text` is: line and column, from 1 (the column in
/// characters), as the parser's hints count them.
pub use grimoire_grammar::line_col;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_separators() {
        assert_eq!(plural(6000, "game"), "6,000 games");
        assert_eq!(plural(1, "game"), "1 game");
    }
}
