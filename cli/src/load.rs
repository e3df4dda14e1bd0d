//! Reading rulebook files: a module pulls in the base it `extends`.

use grimoire_grammar::ast::HeaderKind;
use grimoire_interpreter::engine::ordinal;
use grimoire_interpreter::Source;
use crate::files::Root;
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
    /// The `--root` folder cannot be used.
    #[error("{0}")]
    Root(String),
    /// The rulebook is at fault, at a place: a file that is not UTF-8, a
    /// module whose base cannot be read, modules that extend each other in
    /// a circle or more than [`MAX_MODULE_DEPTH`] deep. `sources` holds the
    /// file the diagnostic points into.
    #[error("{}", diagnostic.message)]
    Invalid {
        /// The files the diagnostic's place indexes.
        sources: Vec<Source>,
        /// What is wrong, and where.
        diagnostic: Box<grimoire_interpreter::Diagnostic>,
    },
}

/// Modules extending modules, from a module given down to the base
/// rulebook: at most this many modules in one chain (docs/language.md,
/// Limits). It bounds the files a chain reads and the depth of the loader.
pub const MAX_MODULE_DEPTH: usize = 16;

/// Read the given files, adding the base of any module that is not given,
/// and order them base first: the files given are taken in the order of
/// their paths, each after the bases it extends, so the order they are
/// written in on the command line never changes the game (exceptions
/// `before` and `after` a rule compose in declaration order).
///
/// The files given are read as they are; a module's base must lie under the
/// root (`--root`, else the folder of the first file given): see
/// [`crate::files`].
pub fn load(paths: &[PathBuf]) -> Result<Vec<Source>, LoadError> {
    let mut out: Vec<(PathBuf, Source)> = Vec::new();
    // Without a root (the first file cannot be found), reading it fails first.
    let root = match (paths.first(), crate::files::root_flag()) {
        (_, Some(dir)) => Some(Root::at(dir).map_err(LoadError::Root)?),
        (Some(first), None) => Root::of(first).ok(),
        (None, None) => None,
    };
    let mut in_order: Vec<&PathBuf> = paths.iter().collect();
    in_order.sort_by_cached_key(|p| canonical(p));
    for p in in_order {
        add_with_bases(p, None, root.as_ref(), &mut out, &mut Vec::new())?;
    }
    Ok(out.into_iter().map(|(_, s)| s).collect())
}

/// Whether the file at `real` is a module (its header parses as one); a
/// file that cannot be read or parsed is not, and is reported when loaded.
fn is_module(real: &Path) -> bool {
    let Ok(bytes) = crate::files::read(real) else { return false };
    let Ok(text) = String::from_utf8(bytes) else { return false };
    grimoire_grammar::parse(&text).is_ok_and(|tree| matches!(tree.header.kind, HeaderKind::Module { .. }))
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A diagnostic at `span` of the one file `name`.
fn invalid(name: &Path, text: String, code: &'static str, message: String, span: grimoire_grammar::ast::Span, label: &str, help: &str) -> LoadError {
    let at = grimoire_interpreter::model::Loc { file: grimoire_interpreter::model::FileId(0), span };
    let diagnostic = grimoire_interpreter::Diagnostic::new(code, message, at, label).help(help);
    LoadError::Invalid { sources: vec![Source { name: name.display().to_string(), text }], diagnostic: Box::new(diagnostic) }
}

/// `given`: the file as given or as its module names it (shown by
/// [`shown_name`]); `real`: its canonical path, for a base the
/// root admitted (it is read there, not at `path`); `chain`: the files
/// whose bases are being loaded, to tell a circle.
fn add_with_bases(given: &Path, real: Option<&Path>, root: Option<&Root>, out: &mut Vec<(PathBuf, Source)>, chain: &mut Vec<(PathBuf, String)>) -> Result<(), LoadError> {
    let key = real.map_or_else(|| canonical(given), Path::to_path_buf);
    if out.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    let shown = shown_name(given, &key);
    let path = shown.as_path();
    let bytes = crate::files::read(real.unwrap_or(given)).map_err(|err| LoadError::Read { path: path.display().to_string(), err })?;
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            // Shown with the bad bytes replaced; the text before them is the same.
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let byte = e.as_bytes().get(at).copied().unwrap_or(0);
            let span = grimoire_grammar::ast::Span { start: at, end: at + '\u{fffd}'.len_utf8() };
            let message = format!("`{}` is not UTF-8 text: byte 0x{byte:02x} cannot start a character here", path.display());
            return Err(invalid(path, lossy, grimoire_interpreter::diagnostic::codes::SYNTAX, message, span, "not UTF-8", "rulebooks are UTF-8 text: save the file as UTF-8"));
        }
    };
    // The header tells whether this is a module; a file that does not parse is
    // passed on as it is, and `compile` reports its syntax error.
    if let Ok(tree) = grimoire_grammar::parse(&text) {
        if let HeaderKind::Module { extends } = &tree.header.kind {
            let folder = match key.parent() {
                Some(p) => p.to_path_buf(),
                None => PathBuf::from("/"),
            };
            // The base as shown: next to the module as it was named, its `..` taken as written.
            let shown_folder = path.parent().unwrap_or(Path::new(""));
            let base = crate::files::lexical_join(shown_folder, &extends.value).unwrap_or_else(|_| shown_folder.join(&extends.value));
            let module = grimoire_interpreter::diagnostic::codes::MODULE;
            let Some(root) = root else { return Err(LoadError::Root("no root to read the base of a module under".into())) };
            if extends.value.trim().is_empty() {
                // It named the module's own folder, "a folder": say what is wrong.
                let message = "this module extends `\"\"`: the base's path is empty".to_string();
                return Err(invalid(path, text, module, message, extends.span, "an empty path", "name the base rulebook's file, relative to the module's folder: `extends \"base.rules\"`"));
            }
            let real = match root.admit(&folder, &extends.value) {
                Ok(real) => real,
                Err(why) if why.is_outside() => {
                    let message = format!("this module extends a file outside the root: {}", why.reason(&extends.value));
                    let help = format!(
                        "a rulebook may only name files under the root `{}` (the folder of the first file given, or `--root DIR`): name the base relative to the module's folder, or give a root that holds it with `--root DIR` (README, \"Files Grimoire reads\")",
                        root.shown()
                    );
                    return Err(invalid(path, text, crate::files::REFUSED, message, extends.span, "outside the root: not read", &help));
                }
                Err(why) => {
                    let err = match why {
                        crate::files::Refusal::Missing(e) => e.to_string(),
                        other => other.reason(&extends.value),
                    };
                    let message = format!("cannot read the base `{}` that this module extends: {err}", extends.value);
                    let own = key.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    let help = match nearest_rulebook(&folder, &extends.value, own) {
                        Some(name) => format!("the path is relative to the module's folder, which holds `{name}`: did you mean it?"),
                        None => "the path is relative to the module's folder".to_string(),
                    };
                    return Err(invalid(path, text, module, message, extends.span, "this file", &help));
                }
            };
            if real == key {
                let message = format!("`{}` extends itself", path.display());
                return Err(invalid(path, text, module, message, extends.span, "this very file", "a module extends a base rulebook, which extends nothing"));
            }
            if let Some(from) = chain.iter().position(|(k, _)| *k == real) {
                // The circle, from the file this one extends back to it.
                let circle: Vec<&str> = chain.get(from..).unwrap_or_default().iter().map(|(_, n)| n.as_str()).chain([path.to_str().unwrap_or("?")]).collect();
                let message = match circle.as_slice() {
                    [other, _] => format!("`{}` extends `{other}`, which extends it back: modules extend each other in a circle", path.display()),
                    _ => format!("modules extend each other in a circle: {}", circle.iter().chain(circle.first()).map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" extends ")),
                };
                return Err(invalid(path, text, module, message, extends.span, "extends a file that extends this one", "a module extends a base rulebook, which extends nothing"));
            }
            if chain.len() + 1 >= MAX_MODULE_DEPTH && is_module(&real) {
                // Its base is a module too: one more than the limit.
                let names: Vec<&str> = chain.iter().map(|(_, n)| n.as_str()).chain([path.to_str().unwrap_or("?"), extends.value.as_str()]).collect();
                let message = format!(
                    "modules extend one another more than {MAX_MODULE_DEPTH} deep: `{}` is the {} module from the file given, and its base `{}` is a module too",
                    path.display(),
                    ordinal(chain.len() + 1),
                    extends.value
                );
                let help = format!(
                    "at most {MAX_MODULE_DEPTH} modules may extend one another down to the base rulebook (docs/language.md, Limits); the chain, from the file given: {}; make a module extend the base rulebook, or a module nearer to it",
                    names.join(" extends ")
                );
                return Err(invalid(path, text, module, message, extends.span, &format!("a {} module", ordinal(chain.len() + 2)), &help));
            }
            chain.push((key.clone(), path.display().to_string()));
            let loaded = add_with_bases(&base, Some(&real), Some(root), out, chain);
            chain.pop();
            match loaded {
                Err(LoadError::Read { err, .. }) => {
                    let message = format!("cannot read the base `{}` that this module extends: {err}", extends.value);
                    // There, but not a file Grimoire reads (too large, not a
                    // regular file): refused, as a source would be (E0501).
                    let refused = matches!(err.kind(), std::io::ErrorKind::InvalidData | std::io::ErrorKind::InvalidInput);
                    let (code, help) = if refused {
                        (crate::files::REFUSED, "Grimoire reads regular files of at most 8 MiB (docs/language.md, Limits)")
                    } else {
                        (module, "the path is relative to the module's folder")
                    };
                    return Err(invalid(path, text, code, message, extends.span, "this file", help));
                }
                other => other?,
            }
        }
    }
    if out.iter().any(|(k, _)| *k == key) {
        return Ok(());
    }
    out.push((key, Source { name: path.display().to_string(), text }));
    Ok(())
}

/// How a file is named to the rules and in diagnostics: its path from the
/// working directory when it lies under it, else as it was given. A file
/// has one name however it was reached (`b.rules`, `../d/b.rules`, through
/// a linked folder), so that a module's base, named relative to the
/// module's own name, is the file loaded: an outside author's module given
/// as `../d/b.rules` was no longer seen to extend `a.rules`.
fn shown_name(given: &Path, key: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir().and_then(std::fs::canonicalize) else { return given.to_path_buf() };
    match key.strip_prefix(&cwd) {
        Ok(below) if !below.as_os_str().is_empty() => below.to_path_buf(),
        _ => given.to_path_buf(),
    }
}

/// The `.rules` file of the module's folder whose name is nearest the base
/// it names, when that base is a plain file name (`grailcup.rules` for
/// `grail-cup.rules`), other than the module's own file `own` (a module
/// cannot extend itself): only names are listed, nothing is read.
fn nearest_rulebook(folder: &Path, named: &str, own: &str) -> Option<String> {
    if named.contains(['/', '\\']) {
        return None;
    }
    let names: Vec<String> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rules") && n != own)
        .collect();
    grimoire_interpreter::diagnostic::did_you_mean(named, names.iter().map(String::as_str)).map(str::to_string)
}
