//! `grimoire check`: parse, resolve and check.

use super::{compile_files, names, reject, Ui};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check the files; exit 0 when valid, 1 when not.
pub fn check(files: &[PathBuf], ui: &Ui) -> Result<ExitCode, String> {
    let (model, sources) = match compile_files(files)? {
        Ok(c) => c,
        Err(invalid) => return Ok(reject(ui, &invalid)),
    };
    // A source text the rulebook cites that may not be read (an absolute
    // path, `..`, a link out of its folder) is refused here as by
    // `validate` (E0501); one that is missing is a finding of `validate`.
    let main = files.first().cloned().unwrap_or_default();
    let refused = grimoire_cli::sources::lookup(&model, &sources, &main, &[]).refused;
    if !refused.is_empty() {
        return Ok(reject(ui, &super::Invalid { diags: refused, sources }));
    }
    // A scenario that runs on fewer files than these (one of the base, one
    // of a module given with others) is checked on its own files, as
    // `grimoire test` will run it.
    let mut subsets: Vec<Vec<usize>> = model.scenarios.iter().filter(|d| d.missing.is_empty()).map(|d| d.runs_on()).filter(|f| f.len() < sources.len()).collect();
    subsets.sort();
    subsets.dedup();
    for files in subsets {
        let subset: Vec<grimoire_interpreter::Source> = files.iter().filter_map(|i| sources.get(*i).cloned()).collect();
        if let Err(diags) = grimoire_interpreter::compile(&subset) {
            return Ok(reject(ui, &super::Invalid { diags, sources: subset }));
        }
    }
    // A scenario that needs a module not given is not compiled, so its
    // names are not checked: said, so that "valid" does not vouch for it.
    let unchecked: Vec<_> = model.scenarios.iter().filter(|d| !d.missing.is_empty()).map(|d| (d.name.as_str(), &d.missing)).collect();
    let cites: usize = model.records.iter().map(|r| r.cites.len()).sum();
    if ui.json {
        let report = json!({
            "rulebook": model.name,
            "files": names(&sources),
            "kinds": model.kinds.len(),
            "zones": model.zones.len(),
            "boards": model.tracks.len(),
            "procedures": model.procs.len(),
            "citations": cites,
            "min_players": model.min_players,
            "max_players": model.max_players,
            "unchecked_scenarios": unchecked.iter().map(|(name, needs)| json!({ "name": name, "needs": needs.iter().map(|(m, _)| m).collect::<Vec<_>>() })).collect::<Vec<_>>(),
        });
        return Ok(ui.emit_report(0, report));
    }
    use grimoire_cli::ui::plural;
    grimoire_cli::esay!(
        "`{}`{} is valid: {}, {}, {}, {}, {}, for {}..{} players",
        model.name,
        super::with_modules(&model.modules),
        plural(model.kinds.len() as u64, "component kind"),
        // Declared zones; each space of a board is a zone too, counted
        // with its board.
        plural(model.zones.len() as u64, "zone"),
        plural(model.tracks.len() as u64, "board"),
        plural(model.procs.len() as u64, "procedure"),
        plural(cites as u64, "citation"),
        model.min_players,
        model.max_players
    );
    for (name, needs) in unchecked.iter().filter(|_| !ui.quiet) {
        let names: Vec<String> = needs
            .iter()
            .map(|(m, close)| match close {
                Some(c) => format!("`{m}` (did you mean `{c}`?)"),
                None => format!("`{m}`"),
            })
            .collect();
        let (modules, were) = if needs.len() == 1 { ("module", "was") } else { ("modules", "were") };
        grimoire_cli::esay!("note: scenario `{name}` was not checked: {modules} {} {were} not given", names.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

