//! One file per subcommand.

mod check;
pub mod counterexamples;
mod explore;
mod play;
mod replay;
mod simulate;
pub mod test;
pub mod validate;

pub use check::check;
pub use explore::explore;
pub use play::play;
pub use replay::replay;
pub use simulate::{simulate, SimArgs};

use grimoire_cli::load::{load, LoadError};
use grimoire_cli::render;
pub use grimoire_cli::ui::{Ui, INVALID};
use grimoire_interpreter::engine::{Game, SetupError};
use grimoire_interpreter::{compile, Diagnostic, Model, Source};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// A compiled rulebook and the files it came from.
pub type Compiled = (Arc<Model>, Vec<Source>);

/// A rulebook that does not compile (or cannot be read as text): its
/// diagnostics and the files their places index.
pub struct Invalid {
    /// What is wrong.
    pub diags: Vec<Diagnostic>,
    /// The files.
    pub sources: Vec<Source>,
}

/// Read the files (and the bases of modules). A file given on the command
/// line that cannot be read is a tool failure (`Err`); a fault of the
/// rulebook (not UTF-8, a module's base missing, modules in a circle) is a
/// diagnostic with its place (`Ok(Err)`).
pub fn load_files(files: &[PathBuf]) -> Result<Result<Vec<Source>, Invalid>, String> {
    match load(files) {
        Ok(sources) => Ok(Ok(sources)),
        Err(LoadError::Invalid { sources, diagnostic }) => Ok(Err(Invalid { diags: vec![*diagnostic], sources })),
        Err(e) => Err(e.to_string()),
    }
}

/// Load and compile.
pub fn compile_files(files: &[PathBuf]) -> Result<Result<Compiled, Invalid>, String> {
    let sources = match load_files(files)? {
        Ok(s) => s,
        Err(invalid) => return Ok(Err(invalid)),
    };
    Ok(match compile(&sources) {
        Ok(model) => Ok((Arc::new(model), sources)),
        Err(diags) => Err(Invalid { diags, sources }),
    })
}

/// Say why the rulebook is invalid (the diagnostics, or the JSON document
/// with them) and give exit code 1.
pub fn reject(ui: &Ui, invalid: &Invalid) -> ExitCode {
    if ui.json {
        return ui.emit(INVALID, None, render::json_value(&invalid.diags, &invalid.sources), serde_json::Value::Null);
    }
    grimoire_cli::eput!("{}", render::diagnostics(&invalid.diags, &invalid.sources, style(ui)));
    grimoire_cli::esay!("{}", problems(invalid.diags.len()));
    ExitCode::from(INVALID)
}

/// "1 problem found", "3 problems found".
pub fn problems(n: usize) -> String {
    format!("{} found", grimoire_cli::ui::plural(n as u64, "problem"))
}

/// How diagnostics are drawn on stderr.
pub fn style(ui: &Ui) -> render::Style {
    render::Style { format: ui.format, color: ui.color_err }
}

/// Compile and lay out a game for a player count. A player count or an
/// option the rulebook does not have is a bad argument (`Err`).
pub fn game_for(files: &[PathBuf], players: u8, options: &[String]) -> Result<Result<(Game, Vec<Source>), Invalid>, String> {
    let (model, sources) = match compile_files(files)? {
        Ok(c) => c,
        Err(invalid) => return Ok(Err(invalid)),
    };
    let game = Game::new(model, players, options).map_err(|e: SetupError| e.to_string())?;
    Ok(Ok((game, sources)))
}

/// The number of threads `simulate` and `validate` play on by default: the
/// cores this process may use (1 if that cannot be known).
pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX)).min(1024)
}

/// " with the module `a`", " with the modules `a` and `b`": the modules
/// merged into the rulebook that a summary or a report vouches for.
pub fn with_modules(modules: &[String]) -> String {
    let quoted: Vec<String> = modules.iter().map(|m| format!("`{m}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => format!(" with the module {one}"),
        [first @ .., last] => format!(" with the modules {} and {last}", first.join(", ")),
    }
}

/// The file names as written, for logs.
pub fn names(sources: &[Source]) -> Vec<String> {
    sources.iter().map(|s| s.name.clone()).collect()
}
