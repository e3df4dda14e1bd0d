//! Finding the source texts a rulebook cites.

use grimoire_interpreter::validate::SourceText;
use grimoire_interpreter::Model;
use std::path::{Path, PathBuf};

/// Look each cited source up: in the `--sources` folders first, then next to
/// the rulebook, then in `seeds/` or `shared/seeds/` of the rulebook's and
/// the working directory's ancestors.
pub fn find_sources(model: &Model, rulebook: &Path, extra: &[PathBuf]) -> Vec<SourceText> {
    let mut names: Vec<String> = model
        .records
        .iter()
        .flat_map(|r| r.cites.iter())
        .map(|c| match c {
            grimoire_interpreter::model::Citation::Quote { source, .. } | grimoire_interpreter::model::Citation::Lines { source, .. } => source.clone(),
        })
        .collect();
    names.extend(model.source.clone());
    names.sort();
    names.dedup();
    let mut dirs: Vec<PathBuf> = extra.to_vec();
    let start = std::fs::canonicalize(rulebook).unwrap_or_else(|_| rulebook.to_path_buf());
    let cwd = std::env::current_dir().unwrap_or_default();
    for base in [start.parent().map(Path::to_path_buf).unwrap_or_default(), cwd] {
        for anc in base.ancestors() {
            dirs.push(anc.to_path_buf());
            dirs.push(anc.join("seeds"));
            dirs.push(anc.join("shared").join("seeds"));
        }
    }
    names
        .into_iter()
        .map(|name| {
            let text = dirs.iter().map(|d| d.join(&name)).find(|p| p.is_file()).and_then(|p| std::fs::read_to_string(p).ok());
            SourceText { name, text }
        })
        .collect()
}
