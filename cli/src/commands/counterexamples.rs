//! Counterexamples as files: `validate` and `explore` write the log of each
//! finding that has one into `--save DIR`, and say where beside the finding.

use super::{style, Ui};
use grimoire_cli::render::{finding, ErrorFormat};
use grimoire_interpreter::validate::Finding;
use grimoire_interpreter::Source;
use std::path::{Path, PathBuf};

/// How the files of a run's counterexamples begin: the rulebook's name,
/// then each module's joined with `+` (`pig+two_dice`), so that the
/// counterexamples of a base and of the base with a module do not replace
/// each other (an outside author's two runs did).
pub fn stem_of(rulebook: &str, modules: &[String]) -> String {
    std::iter::once(rulebook).chain(modules.iter().map(String::as_str)).collect::<Vec<_>>().join("+")
}

/// Write each finding's counterexample (its rulebook files named from the
/// log's folder, with their hashes: it replays from any working directory)
/// as `{rulebook}-{code}-{players}p-{run}.json` in `dir`, `run` naming the
/// run that found it (`seed3`, `explore`); a second finding of the same
/// name, or a name that is a file the run reads (`inputs`: a rulebook, or
/// a source text, named like a counterexample: it was written over), gets
/// `-2`, and so on. Gives each finding's index and its file.
pub fn save(findings: &[Finding], rulebook: &str, sources: &[Source], inputs: &[PathBuf], dir: &Path, run: impl Fn(&Finding) -> String) -> Result<Vec<(usize, PathBuf)>, String> {
    let mut saved: Vec<(usize, PathBuf)> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let Some(log) = &f.counterexample else { continue };
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        let stem = format!("{rulebook}-{}-{}p-{}", f.code, f.players.unwrap_or(0), run(f));
        let mut path = dir.join(format!("{stem}.json"));
        let mut n = 1;
        while saved.iter().any(|(_, p)| *p == path) || grimoire_cli::output::input_at(&path, inputs).is_some() {
            n += 1;
            path = dir.join(format!("{stem}-{n}.json"));
        }
        grimoire_cli::logfile::write(log, sources, &path)?;
        saved.push((i, path));
    }
    Ok(saved)
}

/// The command that replays the log saved at `log`, as it runs from here:
/// with `--root` when the log and its rulebook lie in folders side by side.
pub fn replay_command(log: &Path, sources: &[Source]) -> String {
    let files: Vec<&Path> = sources.iter().map(|s| Path::new(&s.name)).collect();
    let root = grimoire_cli::files::Root::for_replay(log, &files).map(|r| format!(" --root {}", r.display())).unwrap_or_default();
    format!("grimoire replay{root} {}", log.display())
}

/// A finding on stderr, with the file its counterexample was saved in.
pub fn print(f: &Finding, saved: Option<&Path>, sources: &[Source], ui: &Ui) {
    match (ui.format, saved) {
        (format, Some(p)) => {
            let replay = replay_command(p, sources);
            match format {
                ErrorFormat::Short => grimoire_cli::esay!("{}; counterexample: {replay}", finding(f, sources, style(ui)).trim_end()),
                _ => grimoire_cli::eput!("{}  counterexample: {replay}\n\n", finding(f, sources, style(ui))),
            }
        }
        (_, None) => grimoire_cli::eput!("{}", finding(f, sources, style(ui))),
    }
}
