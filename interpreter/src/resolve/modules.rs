//! How modules change their base: `replace` and `remove` applied to the
//! declarations of the files given, base first, with the conflicts between
//! modules (two changes to one declaration, neither module extending the
//! other) and the mistakes of one module (a change of what it declares
//! itself, of nothing, of another sort) reported where they are written.

use super::{declaration_word, item_name, Parsed, Placed, Resolver, DECLARATION_WORDS};
use crate::diagnostic::{codes, did_you_mean, Diagnostic};
use crate::model::*;
use grimoire_grammar::ast::{self, HeaderKind, ItemKind};

impl Resolver {
    /// Apply the modules' `replace` and `remove` to the base's declarations.
    pub(super) fn merge<'a>(&mut self, files: &'a [Parsed]) -> Vec<Placed<'a>> {
        let mut items: Vec<Placed<'a>> = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let file = FileId(i as u16);
            self.file = file;
            for item in &f.file.items {
                match &item.kind {
                    ItemKind::Replace(inner) => {
                        let name = item_name(&inner.kind);
                        let in_module = matches!(f.file.header.kind, HeaderKind::Module { .. });
                        if let (Some(n), false) = (name, in_module) {
                            // Even where the name is declared: the file would
                            // change itself, and the first declaration would
                            // silently stop counting.
                            let at = self.loc(inner.span);
                            self.error(Diagnostic::new(codes::MODULE_TARGET, format!("`replace` of `{}` in a rulebook that is not a module", n.name), at, "no base here").help(NOT_A_MODULE_HELP));
                            continue;
                        }
                        let pos = name.and_then(|n| items.iter().position(|p| item_name(&p.item.kind).map(|m| &m.name) == Some(&n.name)));
                        match pos {
                            Some(pos) if items.get(pos).map(|p| declaration_word(&p.item.kind)) != Some(declaration_word(&inner.kind)) => {
                                let found = items.get(pos).map(|p| declaration_word(&p.item.kind)).unwrap_or("?");
                                let (shown, new) = (name.map(|n| n.name.as_str()).unwrap_or("?"), declaration_word(&inner.kind));
                                let at = self.loc(inner.span);
                                self.error(
                                    Diagnostic::new(codes::MODULE_TARGET, format!("`{shown}` is a {found}, and `replace` would make it a {new}"), at, "another sort")
                                        .help(format!("`replace` keeps the sort of what it replaces: write `replace {found} {shown} ...`, or `remove {found} {shown}` and declare the {new} under another name")),
                                );
                            }
                            Some(pos) if items.get(pos).is_some_and(|p| p.file == file) => {
                                let span = items.get(pos).map_or(inner.span, |p| p.item.span);
                                let d = self.changed_in_own_file(name, "replace", inner.span, self.loc(span), false);
                                self.error(d);
                            }
                            Some(pos) => {
                                let earlier = items.get(pos).map(|p| (p.file, p.item));
                                if let Some((by, placed)) = earlier.filter(|(by, _)| unrelated_modules(files, i, *by)) {
                                    // A plain declaration of that module, or its own replacement.
                                    let declared = files.get(by.idx()).is_some_and(|f| f.file.items.iter().any(|it| std::ptr::eq(it, placed)));
                                    let other = files.get(by.idx()).map_or("another module", |f| f.name.as_str());
                                    self.replaced_from_unrelated_module(name, inner.span, other, Loc { file: by, span: placed.span }, declared);
                                }
                                if let Some(slot) = items.get_mut(pos) {
                                    *slot = Placed { file, item: inner };
                                }
                            }
                            None => {
                                let at = self.loc(inner.span);
                                let d = match name {
                                    // `replace setup { ... }`, `replace round ...`: no name to find.
                                    None => Diagnostic::new(codes::MODULE_TARGET, "`replace` needs a declaration with a name, and this one has none", at, "nothing named").help("the setup has no name: a module changes it by an exception to it, `exception NAME to setup when COND instead { ... }` (the round is replaced by its name: `replace round NAME ...`)"),
                                    Some(n) => match self.removed.get(&n.name).and_then(|by| by.first()) {
                                        Some((_, removed_at)) if removed_at.file == file => self.changed_in_own_file(Some(n), "replace", inner.span, *removed_at, true),
                                        // This module is built on the one that removed it:
                                        // there is nothing left to replace, but it may be
                                        // declared again.
                                        Some((by, removed_at)) if extends_file(files, i, removed_at.file.idx()) => Diagnostic::new(codes::MODULE_TARGET, format!("`replace` names `{}`, which the module `{by}` this one extends removes", n.name), at, "removed by its base")
                                            .related(*removed_at, "removed here")
                                            .help(format!("in the game this module extends, `{}` no longer exists: declare it anew, without `replace`", n.name)),
                                        Some((by, removed_at)) => Diagnostic::new(codes::MODULE_TARGET, format!("`replace` names `{}`, which the module `{by}` removes", n.name), at, "removed by another module")
                                            .related(*removed_at, "removed here")
                                            .help(CHANGED_BY_TWO_MODULES),
                                        None => {
                                            let d = Diagnostic::new(codes::MODULE_TARGET, format!("`replace` names `{}`, which the base rulebook `{}` does not declare", n.name, base_name(files)), at, "nothing to replace");
                                            let word = declaration_word(&inner.kind);
                                            match (nearest_declared(&items, &n.name, word), nearest_of_any_sort(&items, &n.name)) {
                                                (Some(s), _) => d.help(format!("did you mean `{s}`? To add something new, use a plain declaration")),
                                                (None, Some((s, other))) => d.help(format!("did you mean the {other} `{s}`? `replace` keeps the sort of what it replaces: `replace {other} {s} ...`")),
                                                (None, None) => d.help("use a plain declaration to add something new"),
                                            }
                                        }
                                    },
                                };
                                self.error(d);
                            }
                        }
                    }
                    ItemKind::Remove { what, name } => {
                        let Some(name) = name else {
                            let at = self.loc(what.span);
                            let help = match what.name.as_str() {
                                "setup" => "the setup has no name: a module changes it by an exception to it, `exception NAME to setup when COND instead { ... }`".to_string(),
                                word => format!("write the name of what to remove: `remove {word} NAME`"),
                            };
                            self.error(Diagnostic::new(codes::MODULE_TARGET, format!("`remove {}` names nothing to remove", what.name), at, "no name").help(help));
                            continue;
                        };
                        if !matches!(f.file.header.kind, HeaderKind::Module { .. }) {
                            let at = self.loc(name.span);
                            self.error(Diagnostic::new(codes::MODULE_TARGET, format!("`remove` of `{}` in a rulebook that is not a module", name.name), at, "no base here").help(NOT_A_MODULE_HELP));
                            continue;
                        }
                        if !DECLARATION_WORDS.contains(&what.name.as_str()) {
                            let at = self.loc(what.span);
                            let mut d = Diagnostic::new(codes::MODULE_TARGET, format!("`{}` is not a sort of declaration", what.name), at, "unknown").help("write `remove rule NAME`, `remove trigger NAME`, `remove zone NAME`...");
                            if let Some(s) = did_you_mean(&what.name, DECLARATION_WORDS.iter().copied()) {
                                d = d.help(format!("did you mean `{s}`?"));
                            }
                            self.error(d);
                            continue;
                        }
                        let pos = items.iter().position(|p| item_name(&p.item.kind).map(|m| &m.name) == Some(&name.name));
                        match pos {
                            Some(pos) if items.get(pos).map(|p| declaration_word(&p.item.kind)) != Some(what.name.as_str()) => {
                                let found = items.get(pos).map(|p| declaration_word(&p.item.kind)).unwrap_or("?");
                                let at = self.loc(name.span);
                                self.error(Diagnostic::new(codes::MODULE_TARGET, format!("`{}` is a {found}, not a {}", name.name, what.name), at, "another sort").help(format!("write `remove {found} {}`", name.name)));
                            }
                            Some(pos) if items.get(pos).is_some_and(|p| p.file == file) => {
                                let span = items.get(pos).map_or(name.span, |p| p.item.span);
                                let d = self.changed_in_own_file(Some(name), "remove", name.span, self.loc(span), false);
                                self.error(d);
                            }
                            Some(pos) => {
                                let changed_by = items.get(pos).map(|p| (p.file, p.item)).filter(|(by, _)| unrelated_modules(files, i, *by));
                                if let Some((by, placed)) = changed_by {
                                    // One module replaces it (or declares it anew
                                    // after its own base removed it), another
                                    // removes it: which one counts would depend on
                                    // how their files are named, as for two
                                    // replacements. The declaration is kept, so
                                    // that its uses are not reported as unknown
                                    // names besides.
                                    let at = self.loc(name.span);
                                    let other = files.get(by.idx()).map_or("another module", |f| f.name.as_str());
                                    let declared = files.get(by.idx()).is_some_and(|f| f.file.items.iter().any(|it| std::ptr::eq(it, placed)));
                                    let (did, there) = if declared { ("declared anew", "declared here") } else { ("replaced", "replaced here") };
                                    self.error(
                                        Diagnostic::new(codes::MODULE_TARGET, format!("`{}` is {did} by the module `{other}` and removed by this one, and neither extends the other: only one change can count", name.name), at, "removed here")
                                            .related(Loc { file: by, span: placed.span }, there)
                                            .help(CHANGED_BY_TWO_MODULES),
                                    );
                                    continue;
                                }
                                items.remove(pos);
                                let removed_at = self.loc(name.span);
                                self.removed.entry(name.name.clone()).or_default().push((f.name.clone(), removed_at));
                                self.record_removal(what, name, item);
                            }
                            // Removed already, by another module or the one this
                            // one extends: both mean the same, and the
                            // declaration is gone once whatever the order.
                            None if self.removed.get(&name.name).is_some_and(|by| by.iter().any(|(_, removed_at)| removed_at.file == file)) => {
                                let earlier = self.removed.get(&name.name).and_then(|by| by.iter().find(|(_, removed_at)| removed_at.file == file)).map_or(self.loc(name.span), |(_, removed_at)| *removed_at);
                                let d = self.changed_in_own_file(Some(name), "remove", name.span, earlier, true);
                                self.error(d);
                            }
                            None if self.removed.contains_key(&name.name) => {
                                let removed_at = self.loc(name.span);
                                self.removed.entry(name.name.clone()).or_default().push((f.name.clone(), removed_at));
                                self.record_removal(what, name, item);
                            }
                            None => {
                                let at = self.loc(name.span);
                                let mut d = Diagnostic::new(codes::MODULE_TARGET, format!("`remove {} {}` names nothing the base rulebook `{}` declares", what.name, name.name, base_name(files)), at, "unknown");
                                if let Some(s) = nearest_declared(&items, &name.name, &what.name) {
                                    d = d.help(format!("did you mean `{s}`?"));
                                } else if let Some((s, other)) = nearest_of_any_sort(&items, &name.name) {
                                    d = d.help(format!("did you mean the {other} `{s}`? write `remove {other} {s}`"));
                                }
                                self.error(d);
                            }
                        }
                    }
                    _ => {
                        self.declared_anew_after_unrelated_removal(files, i, item);
                        items.push(Placed { file, item });
                    }
                }
            }
        }
        items
    }

    /// A plain declaration in file `i` of a name that a module unrelated to
    /// it removed (the other order of "removed by one module, declared
    /// anew by another": which counts would depend on the order of the
    /// files). A module built on the one that removed it may declare it.
    fn declared_anew_after_unrelated_removal(&mut self, files: &[Parsed], i: usize, item: &ast::Item) {
        let Some(name) = item_name(&item.kind) else { return };
        let unrelated = self.removed.get(&name.name).and_then(|by| by.iter().find(|(_, removed_at)| unrelated_modules(files, i, removed_at.file)));
        let Some((by, removed_at)) = unrelated.cloned() else { return };
        let at = self.loc(name.span);
        self.error(
            Diagnostic::new(codes::MODULE_TARGET, format!("`{}` is removed by the module `{by}` and declared anew by this one, and neither extends the other: only one change can count", name.name), at, "declared here")
                .related(removed_at, "removed here")
                .help(CHANGED_BY_TWO_MODULES),
        );
    }

    /// Why a module removes a declaration (a house rule, a text that drops
    /// it), when it says: traced like a declaration's provenance.
    fn record_removal(&mut self, what: &ast::Ident, name: &ast::Ident, item: &ast::Item) {
        if !item.provenance.is_empty() {
            let at = self.loc(item.span);
            self.record(RecordKind::Encoded, format!("remove {} {}", what.name, name.name), None, &item.provenance, at);
        }
    }

    /// A `replace` (at `span`) of what the module `other`, which this one
    /// does not extend, declares (`declared`) or replaces, at `earlier`:
    /// which one counts would depend on how their files are named (they
    /// are read in the order of their paths).
    fn replaced_from_unrelated_module(&mut self, name: Option<&ast::Ident>, span: ast::Span, other: &str, earlier: Loc, declared: bool) {
        let at = self.loc(span);
        let shown = name.map_or("?", |n| n.name.as_str());
        let d = if declared {
            Diagnostic::new(codes::MODULE_TARGET, format!("`{shown}` is declared by the module `{other}`, which this one does not extend: `replace` changes what a module's base declares"), at, "replaced here")
                .related(earlier, "declared here")
                .help(format!("make this module extend `{other}` (directly or through other modules), or declare yours under another name, without `replace`"))
        } else {
            Diagnostic::new(codes::MODULE_TARGET, format!("`{shown}` is replaced by two modules, `{other}` and this one, and neither extends the other: only one replacement can count"), at, "second replacement")
                .related(earlier, "first replaced here")
                .help(CHANGED_BY_TWO_MODULES)
        };
        self.error(d);
    }

    /// `replace` or `remove` (at `span`) of what this same module already
    /// declares or replaces, or removes (`removed`), at `earlier`: a module
    /// changes what its base declares, once; changed again in its own file,
    /// the last change silently counted and the first did not.
    fn changed_in_own_file(&self, name: Option<&ast::Ident>, what: &str, span: ast::Span, earlier: Loc, removed: bool) -> Diagnostic {
        let shown = name.map_or("?", |n| n.name.as_str());
        let at = self.loc(span);
        let (did, there) = if removed { ("removes", "removed here") } else { ("declares or replaces", "declared or replaced here") };
        let help = match (what, removed) {
            (_, true) => format!("`{shown}` is gone from this module's game once removed: keep one `remove`, or declare it anew without `replace`"),
            ("remove", false) => format!("delete that declaration of `{shown}` instead"),
            _ => format!("change that declaration of `{shown}` instead: a module replaces each declaration of its base once"),
        };
        let label = if what == "remove" { "removed here" } else { "replaced again" };
        Diagnostic::new(codes::MODULE_TARGET, format!("`{what}` of `{shown}`, which this module already {did}"), at, label).related(earlier, there).help(help)
    }
}

/// The help of E0401 when two modules change one declaration (both
/// replace it, or one replaces what the other removes).
const CHANGED_BY_TWO_MODULES: &str = "the two modules change the same declaration in different ways: write one module that does both, or make one module extend the other";

/// Whether the module in file `by` changed a declaration independently of
/// file `i`: it is another module (not the base, not `i` itself) that `i`
/// is not built on, so which of their changes counts would depend on the
/// order of the files.
fn unrelated_modules(files: &[Parsed], i: usize, by: FileId) -> bool {
    by.idx() != 0 && by.idx() != i && !extends_file(files, i, by.idx())
}

/// Whether file `i` extends file `j`, directly or through other modules:
/// then `i` builds on what `j` declares or replaces. A module's base is
/// named relative to the module's folder; both are compared as written,
/// without `.` and with `..` applied.
pub(super) fn extends_file(files: &[Parsed], i: usize, j: usize) -> bool {
    fn plain(path: &std::path::Path) -> std::path::PathBuf {
        let mut out = std::path::PathBuf::new();
        for c in path.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir if out.file_name().is_some() => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        out
    }
    let mut at = i;
    // A chain is at most as long as the files given (a loop is E0402).
    for _ in 0..files.len() {
        let Some(f) = files.get(at) else { return false };
        let ast::HeaderKind::Module { extends } = &f.file.header.kind else { return false };
        let base = plain(&std::path::Path::new(&f.name).parent().unwrap_or(std::path::Path::new("")).join(&extends.value));
        let Some(next) = files.iter().position(|g| plain(std::path::Path::new(&g.name)) == base) else { return false };
        if next == j {
            return true;
        }
        at = next;
    }
    false
}

/// The help of a `replace` or `remove` outside a module.
const NOT_A_MODULE_HELP: &str = "`replace` and `remove` change a base rulebook from a module (`module NAME extends \"base.rules\" { }`); in the rulebook itself, edit the declaration";

/// The declared name of sort `word` (`rule`, `counter`...) closest to
/// `name`, for a `replace` or `remove` of a name nothing declares: a
/// `remove trigger` is not offered a die.
fn nearest_declared<'a>(items: &'a [Placed], name: &str, word: &str) -> Option<&'a str> {
    did_you_mean(name, items.iter().filter(|p| declaration_word(&p.item.kind) == word).filter_map(|p| item_name(&p.item.kind)).map(|n| n.name.as_str()))
}

/// The declared name of any sort closest to `name`, with its sort, when
/// none of the sort a `replace` or `remove` names is (`remove rule
/// vilage_roll` for the trigger `village_roll`).
fn nearest_of_any_sort<'a>(items: &'a [Placed], name: &str) -> Option<(&'a str, &'a str)> {
    let near = did_you_mean(name, items.iter().filter_map(|p| item_name(&p.item.kind)).map(|n| n.name.as_str()))?;
    let placed = items.iter().find(|p| item_name(&p.item.kind).is_some_and(|n| n.name == near))?;
    Some((near, declaration_word(&placed.item.kind)))
}

/// The name of the base rulebook (the first file), for messages about what
/// it declares.
fn base_name<'a>(files: &'a [Parsed]) -> &'a str {
    files.first().map_or("?", |f| f.file.header.name.name.as_str())
}
