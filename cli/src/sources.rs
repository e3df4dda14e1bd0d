//! Finding the source texts a rulebook cites.
//!
//! A source is named by a plain relative path (`001_422b920a2bae85f9.txt`,
//! `sources/reversi.txt`): no absolute path, no `..`. It is looked up, in
//! this order, in
//!
//! 1. the `--sources` folders given on the command line;
//! 2. the folder of the rulebook (the first file given);
//! 3. `seeds/` and `shared/seeds/` of that folder and of every folder above
//!    it.
//!
//! A folder under the root ([`Root`]) may hold links, but a text found
//! there must resolve (links followed) to a file under the root. Above the
//! root only the *seed stores* are searched — a `seeds` folder, directly or
//! in a `shared` folder: the user's own stores of source texts (CI links
//! `shared/` beside the checkout). A store must be a folder, not a link to
//! one (its `shared` parent may be a link), and a text found in it must
//! resolve to a file inside it. The working directory and the folders above
//! the rulebook are not searched themselves. Every text is read with the
//! limits of [`crate::files::read`].

use crate::files::{self, Root};
use grimoire_interpreter::model::{Citation, FileId, Loc};
use grimoire_interpreter::validate::SourceText;
use grimoire_interpreter::{Diagnostic, Model, Source};
use std::path::{Path, PathBuf};

/// The source texts found, and the problems of those that may not be read.
pub struct Lookup {
    /// Every source the rulebook cites or declares, with its text when found.
    pub texts: Vec<SourceText>,
    /// A source named by an absolute path or with `..`, a link that leads
    /// out of the folder it was found in, a file too large or not a regular
    /// file: each is an error at the first place that names it (its text is
    /// `None` in `texts`). (A source that is not there, or citations that
    /// name none, are findings of the trace check, T002.)
    pub refused: Vec<Diagnostic>,
    /// Where the texts found were read (their real paths): files that a
    /// run must not write over.
    pub read_from: Vec<PathBuf>,
}

/// One folder to look in, and the folder the texts found there must lie in
/// once their links are resolved.
struct Place {
    dir: PathBuf,
    guard: PathBuf,
}

/// The `--sources` folders named on the command line, which are read as
/// asked: one that is not there is the user's mistake (a tool failure),
/// not a source text that is missing.
pub fn check_folders(extra: &[PathBuf]) -> Result<(), String> {
    match extra.iter().find(|d| !d.is_dir()) {
        Some(bad) if bad.exists() => Err(format!("`--sources {}`: this is a file, not a folder: name the folder that holds the source texts", bad.display())),
        Some(bad) => Err(format!("`--sources {}`: there is no folder there", bad.display())),
        None => Ok(()),
    }
}

/// Look each cited source up (see the module's documentation); `sources`
/// are the rulebook files, for the places of the diagnostics.
pub fn lookup(model: &Model, sources: &[Source], rulebook: &Path, extra: &[PathBuf]) -> Lookup {
    let mut names: Vec<String> = model.records.iter().flat_map(|r| r.cites.iter()).map(|c| source_of(c).to_string()).collect();
    names.extend(model.source.clone());
    let mut found = look_up(model, sources, names, rulebook, extra);
    // A source only the scenarios quote is refused on the same terms (an
    // absolute path is one in a scenario too), but its text is not one of
    // the rulebook's: the trace never covers it.
    let only_scenarios: Vec<String> = scenario_cites(model).map(|c| source_of(c).to_string()).filter(|n| !found.texts.iter().any(|t| t.name == *n)).collect();
    found.refused.extend(look_up(model, sources, only_scenarios, rulebook, extra).refused);
    found
}

/// The citations of the scenarios and of their steps.
fn scenario_cites(model: &Model) -> impl Iterator<Item = &Citation> {
    model.scenarios.iter().flat_map(|d| d.cites.iter().chain(d.steps.iter().flat_map(|s| s.cites.iter())))
}

/// The texts of the sources the scenarios cite (those of the rules are
/// [`lookup`]'s): a text only a scenario quotes is found in the same
/// places, `--sources` first.
pub fn find_scenario_sources(model: &Model, rulebook: &Path, extra: &[PathBuf]) -> Vec<SourceText> {
    let names = scenario_cites(model).map(|c| source_of(c).to_string()).collect();
    look_up(model, &[], names, rulebook, extra).texts
}

/// Look the sources `names` up, each once.
fn look_up(model: &Model, sources: &[Source], mut names: Vec<String>, rulebook: &Path, extra: &[PathBuf]) -> Lookup {
    names.sort();
    names.dedup();
    let places = places(rulebook, extra);
    let mut texts = Vec::new();
    let mut refused = Vec::new();
    let mut read_from = Vec::new();
    for name in names {
        if name.is_empty() {
            // Citations without `in "FILE"` in a file whose header names
            // no default source: the trace check says so (T002).
            texts.push(SourceText { name, text: None });
            continue;
        }
        match find(&name, &places) {
            Ok(found) => {
                let text = found.map(|(text, real)| {
                    read_from.push(real);
                    text
                });
                texts.push(SourceText { name, text });
            }
            Err(why) => {
                refused.push(diagnostic(model, sources, &name, why));
                texts.push(SourceText { name, text: None });
            }
        }
    }
    Lookup { texts, refused, read_from }
}

/// The source texts only (one that may not be read counts as not found).
pub fn find_sources(model: &Model, rulebook: &Path, extra: &[PathBuf]) -> Vec<SourceText> {
    lookup(model, &[], rulebook, extra).texts
}

fn source_of(c: &Citation) -> &str {
    match c {
        Citation::Quote { source, .. } | Citation::Lines { source, .. } => source,
    }
}

fn places(rulebook: &Path, extra: &[PathBuf]) -> Vec<Place> {
    let mut out: Vec<Place> = extra.iter().filter_map(|d| std::fs::canonicalize(d).ok()).map(|d| Place { dir: d.clone(), guard: d }).collect();
    let Ok(file) = std::fs::canonicalize(rulebook) else { return out };
    let Some(folder) = file.parent() else { return out };
    let root = Root::of(rulebook).map(|r| r.dir().to_path_buf()).unwrap_or_else(|_| folder.to_path_buf());
    let inside = |dir: &Path| if dir.starts_with(&root) { root.clone() } else { folder.to_path_buf() };
    out.push(Place { dir: folder.to_path_buf(), guard: inside(folder) });
    for above in folder.ancestors() {
        for store in [above.join("seeds"), above.join("shared").join("seeds")] {
            if above.starts_with(&root) {
                out.push(Place { guard: root.clone(), dir: store });
            } else if std::fs::symlink_metadata(&store).is_ok_and(|m| m.is_dir()) {
                // A store above the root: a real folder, and what is found
                // in it stays in it.
                if let Ok(guard) = std::fs::canonicalize(&store) {
                    out.push(Place { dir: store, guard });
                }
            }
        }
    }
    out
}

/// The text of `name` from the first place that has it, with the file's
/// real path (`None`: none has); `Err` when it may not be read, with why.
fn find(name: &str, places: &[Place]) -> Result<Option<(String, PathBuf)>, String> {
    if !files::is_plain_relative(name) {
        let what = if Path::new(name).has_root() || Path::new(name).is_absolute() { "an absolute path" } else { "a path that goes up with `..`" };
        return Err(format!("the source text `{name}` is named by {what}: a source is named by its path inside a folder of source texts"));
    }
    for p in places {
        let candidate = p.dir.join(name);
        let Ok(real) = std::fs::canonicalize(&candidate) else { continue };
        if !real.starts_with(&p.guard) {
            return Err(format!("the source text `{name}` found at `{}` is a link that leads out of `{}`", candidate.display(), files::shown(&p.guard)));
        }
        return match files::read_text(&real) {
            Ok(text) => Ok(Some((text, real))),
            Err(e) => Err(format!("cannot read the source text `{name}` (`{}`): {e}", candidate.display())),
        };
    }
    Ok(None)
}

/// The refusal of `name`, at the first citation that names it, else at the
/// `source` of a header that declares it.
fn diagnostic(model: &Model, sources: &[Source], name: &str, why: String) -> Diagnostic {
    let cite = first_citation(model, name).map(|at| named_after(sources, at, name).unwrap_or(at));
    let header = || {
        sources.iter().enumerate().find_map(|(i, s)| {
            let tree = grimoire_grammar::parse(&s.text).ok()?;
            let src = tree.header.source.filter(|n| n.value == name)?;
            Some(Loc { file: FileId(u16::try_from(i).ok()?), span: src.span })
        })
    };
    let at = header().or(cite).unwrap_or(NOWHERE);
    // A text in another encoding was found where it should be: converting
    // it is the fix, not looking elsewhere.
    let help = if why.contains("not UTF-8") {
        "source texts are read as UTF-8: convert the file (`iconv -f latin1 -t utf-8 OLD > NEW`, or save it as UTF-8 from an editor)".to_string()
    } else {
        format!("{} (README, \"Files Grimoire reads\")", grimoire_interpreter::validate::trace::WHERE_SOURCES_ARE)
    };
    Diagnostic::new(files::REFUSED, why, at, "this source text may not be read").help(help)
}

/// The `in "NAME"` that follows a citation at `at` (`cite "..." in
/// "NAME"`, `cite line 3 in "NAME"`): where the name of the source is
/// written, which the refusal is about, rather than the quote.
fn named_after(sources: &[Source], at: Loc, name: &str) -> Option<Loc> {
    let text = &sources.get(at.file.idx())?.text;
    let rest = text.get(at.span.end..)?;
    let after_in = rest.trim_start().strip_prefix("in")?;
    let literal = after_in.trim_start();
    let start = text.len() - literal.len();
    let written = format!("\"{name}\"");
    literal.starts_with(&written).then(|| Loc { file: at.file, span: grimoire_grammar::ast::Span { start, end: start + written.len() } })
}

/// The start of the first file, for a diagnostic with no better place.
const NOWHERE: Loc = Loc { file: FileId(0), span: grimoire_grammar::ast::Span { start: 0, end: 0 } };

/// Where the first citation of source `name` is.
fn first_citation(model: &Model, name: &str) -> Option<Loc> {
    citations_of(model, name).next()
}

/// Where the citations of source `name` are, in the order of the records,
/// then the scenarios'.
fn citations_of<'a>(model: &'a Model, name: &'a str) -> impl Iterator<Item = Loc> + 'a {
    model.records.iter().flat_map(|r| r.cites.iter()).chain(scenario_cites(model)).filter(move |c| source_of(c) == name).map(|c| match c {
        Citation::Quote { at, .. } | Citation::Lines { at, .. } => *at,
    })
}
