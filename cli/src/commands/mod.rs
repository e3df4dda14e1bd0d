//! One file per subcommand.

mod check;
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

use grimoire_cli::load::load;
use grimoire_cli::render::{self, ErrorFormat};
use grimoire_interpreter::engine::Game;
use grimoire_interpreter::{compile, Model, Source};
use std::path::PathBuf;
use std::sync::Arc;

/// Exit code: the rulebook is invalid, or a game hit a rule problem.
pub const INVALID: u8 = 1;

/// A compiled rulebook and the files it came from.
pub type Compiled = (Arc<Model>, Vec<Source>);

/// Load and compile, printing diagnostics; `Ok(None)` means invalid.
pub fn compile_files(files: &[PathBuf], format: ErrorFormat) -> Result<Option<Compiled>, String> {
    let sources = load(files).map_err(|e| e.to_string())?;
    match compile(&sources) {
        Ok(model) => Ok(Some((Arc::new(model), sources))),
        Err(diags) => {
            match format {
                ErrorFormat::Json => grimoire_cli::say!("{}", render::json(&diags, &sources)),
                _ => eprint!("{}", render::human(&diags, &sources, format)),
            }
            eprintln!("{} problem(s) found", diags.len());
            Ok(None)
        }
    }
}

/// Compile and lay out a game for a player count.
pub fn game_for(files: &[PathBuf], players: u8, options: &[String]) -> Result<Option<(Game, Vec<Source>)>, String> {
    let Some((model, sources)) = compile_files(files, ErrorFormat::Human)? else { return Ok(None) };
    let game = Game::new(model, players, options).map_err(|e| e.to_string())?;
    Ok(Some((game, sources)))
}

/// The number of threads `simulate` and `validate` play on by default: the
/// cores this process may use (1 if that cannot be known).
pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
}

/// The file names as written, for logs.
pub fn names(sources: &[Source]) -> Vec<String> {
    sources.iter().map(|s| s.name.clone()).collect()
}
