//! Reading rulebook files: a module pulls in the base it `extends`.

use grimoire_grammar::ast::HeaderKind;
use grimoire_interpreter::Source;
use std::path::{Path, PathBuf};

/// Why files could not be read (a tool failure, not a rulebook problem).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file could not be read.
    #[error("cannot read `{path}`: {err}")]
    Read {
        /// The path.
        path: String,
        /// The OS error.
        err: std::io::Error,
    },
    /// Modules extend each other in a circle.
    #[error("`{0}` extends itself through its bases")]
    Cycle(String),
}

/// Read the given files, adding the base of any module that is not given,
/// and order them base first.
pub fn load(paths: &[PathBuf]) -> Result<Vec<Source>, LoadError> {
    let mut out: Vec<(PathBuf, Source)> = Vec::new();
    for p in paths {
        add_with_bases(p, &mut out, 0)?;
    }
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

fn add_with_bases(path: &Path, out: &mut Vec<(PathBuf, Source)>, depth: usize) -> Result<(), LoadError> {
    if depth > 16 {
        return Err(LoadError::Cycle(path.display().to_string()));
    }
    let key = canonical(path);
    if out.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    let text = std::fs::read_to_string(path).map_err(|err| LoadError::Read { path: path.display().to_string(), err })?;
    // The header tells whether this is a module; a file that does not parse is
    // passed on as it is, and `compile` reports its syntax error.
    if let Ok(tree) = grimoire_grammar::parse(&text) {
        if let HeaderKind::Module { extends } = &tree.header.kind {
            let base = path.parent().unwrap_or(Path::new(".")).join(&extends.value);
            add_with_bases(&base, out, depth + 1)?;
        }
    }
    if out.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    out.push((key, Source { name: path.display().to_string(), text }));
    Ok(())
}
