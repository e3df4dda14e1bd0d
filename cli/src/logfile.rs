//! Game logs as files: written with their rulebook files relative to the
//! log's folder and the SHA-256 of each, and opened again for `replay`
//! only when every file they name lies under the root and still has the
//! content the log recorded.

use crate::files::{self, Root};
use grimoire_interpreter::log::GameLog;
use grimoire_interpreter::Source;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The SHA-256 of a file's bytes, as 64 lowercase hex digits (what
/// `sha256sum` prints).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The log with its rulebook files named relative to the folder `dir` and
/// their hashes filled in. `sources` are the files the game was compiled
/// from (each log entry is one of their names).
pub fn stamped(log: &GameLog, sources: &[Source], dir: &Path) -> Result<GameLog, String> {
    let dir = std::fs::canonicalize(dir).map_err(|e| format!("cannot use the folder `{}`: {e}", dir.display()))?;
    let mut out = log.clone();
    out.rulebook.clear();
    out.sha256.clear();
    for name in &log.rulebook {
        let Some(src) = sources.iter().find(|s| s.name == *name) else { return Err(format!("the log names `{name}`, which is not one of the files loaded")) };
        let path = std::fs::canonicalize(&src.name).map_err(|e| format!("cannot find `{name}` again: {e}"))?;
        out.rulebook.push(files::relative(&dir, &path));
        out.sha256.push(sha256_hex(src.text.as_bytes()));
    }
    Ok(out)
}

/// The log as printed on the standard output: files relative to the
/// working directory.
pub fn for_stdout(log: &GameLog, sources: &[Source]) -> Result<GameLog, String> {
    stamped(log, sources, Path::new("."))
}

/// Fill in the hashes of every log in place, files relative to the working
/// directory (the logs inside a `--json` report); a log that cannot be
/// stamped is left as it was.
pub fn stamp_in_place<'a>(logs: impl Iterator<Item = &'a mut GameLog>, sources: &[Source]) {
    for log in logs {
        if let Ok(s) = for_stdout(log, sources) {
            *log = s;
        }
    }
}

/// Write the log to `path` (files relative to its folder).
pub fn write(log: &GameLog, sources: &[Source], path: &Path) -> Result<(), String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let log = stamped(log, sources, folder)?;
    let text = serde_json::to_string_pretty(&log).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

/// Why a log cannot be replayed.
#[derive(Debug)]
pub enum OpenError {
    /// The log cannot be used at all (unreadable, not a log, no hashes, a
    /// file outside the root): a tool failure.
    Unusable(String),
    /// A rulebook file is not the one the log was recorded with: the replay
    /// differs from the log.
    Changed(String),
}

/// A log and the rulebook files it names, checked.
pub struct Opened {
    /// The log.
    pub log: GameLog,
    /// Its rulebook files, in its order, each with the content it recorded.
    pub sources: Vec<Source>,
}

/// Read a log and the files it names. Each must lie under `root` (named
/// relative to the log's folder) and have the SHA-256 the log records,
/// checked before anything of it is parsed or shown.
pub fn open(path: &Path, root: &Root) -> Result<Opened, OpenError> {
    let unusable = OpenError::Unusable;
    let text = files::read_text(path).map_err(|e| unusable(format!("cannot read `{}`: {e}", path.display())))?;
    let log: GameLog = serde_json::from_str(&text).map_err(|e| unusable(format!("`{}` is not a game log: {e}", path.display())))?;
    // A fingerprint is 16 hexadecimal digits (none when setup failed):
    // anything else was never written by Grimoire.
    let fp = &log.final_fingerprint;
    let written = fp.is_empty() || (fp.len() == 16 && fp.bytes().all(|b| b.is_ascii_hexdigit()));
    if !written {
        return Err(unusable(format!("`{}` is not a game log: its `final_fingerprint` is not 16 hexadecimal digits", path.display())));
    }
    if log.rulebook.is_empty() {
        return Err(unusable(format!("`{}` names no rulebook file (its `rulebook` list is empty): a log names the rulebook and modules its game was played with", path.display())));
    }
    if log.sha256.is_empty() {
        // The command offered writes a new file: the old log may hold a
        // game played by hand, which a game of random players replaces.
        let again = path.with_file_name(format!("{}-again.json", path.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default()));
        return Err(unusable(format!(
            "`{}` records no SHA-256 of its rulebook files (an older Grimoire wrote none, before logs named their files relative to themselves; or they were taken out), so it cannot be checked. Record it again with this version: `grimoire play {} --players {}{} --seed {} --auto --log {}` for a game of random players, `grimoire validate` for a counterexample, `grimoire explore` for a lasso; a game played by hand is played again (its choices are the log's `steps`)",
            path.display(),
            log.rulebook.join(" "),
            log.players,
            log.options.iter().map(|o| format!(" --option {o}")).collect::<String>(),
            log.seed,
            again.display()
        )));
    }
    if log.sha256.len() != log.rulebook.len() {
        return Err(unusable(format!("`{}` names {} rulebook file(s) but records {} SHA-256 hash(es)", path.display(), log.rulebook.len(), log.sha256.len())));
    }
    let folder = std::fs::canonicalize(path).ok().and_then(|p| p.parent().map(Path::to_path_buf)).unwrap_or_else(|| PathBuf::from("."));
    let mut sources = Vec::new();
    let mut read: Vec<PathBuf> = Vec::new();
    for (name, hash) in log.rulebook.iter().zip(&log.sha256) {
        let real = root.admit(&folder, name).map_err(|why| {
            let hint = if why.is_outside() {
                format!(": a log may only name files under the root `{}` (the working directory when the log lies under it, else the log's folder); give a root that holds both the log and its rulebook with `--root DIR`", root.shown())
            } else {
                " (rulebook files are named relative to the log's folder)".to_string()
            };
            unusable(format!("`{}` names the rulebook file `{name}`, which is not read: {}{hint}", path.display(), why.reason(name)))
        })?;
        // Grimoire names each file of a game once: a list that repeats
        // one (by whatever path) was edited, and is no game's.
        if read.contains(&real) {
            return Err(unusable(format!("`{}` is not a game log: it names the rulebook file `{name}` twice (a log names each file of its game once)", path.display())));
        }
        read.push(real.clone());
        let bytes = files::read(&real).map_err(|e| unusable(format!("cannot read `{name}`, a rulebook file of `{}`: {e}", path.display())))?;
        if sha256_hex(&bytes) != hash.to_ascii_lowercase() {
            return Err(OpenError::Changed(format!("the rulebook file `{}` has changed since the log was recorded (its SHA-256 is not the one the log records)", files::shown(&real))));
        }
        let text = String::from_utf8(bytes).map_err(|_| unusable(format!("`{name}` is not UTF-8 text")))?;
        sources.push(Source { name: files::shown(&real), text });
    }
    Ok(Opened { log, sources })
}
