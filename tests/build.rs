//! Generates one `#[test]` per fixture under `fixtures/ok` and `fixtures/err`
//! (a `.rules` file, or a folder holding `module.rules` and the base it
//! extends), so that adding a fixture adds a test and each fixture passes or
//! fails on its own. `tests/fixtures.rs` includes the generated file.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let mut code = String::new();
    for kind in ["ok", "err"] {
        let dir = Path::new(&manifest).join("fixtures").join(kind);
        println!("cargo:rerun-if-changed=fixtures/{kind}");
        let mut cases: Vec<(String, String)> = Vec::new();
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let Some(file_name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
            let (stem, rel) = if path.is_dir() {
                (file_name.clone(), format!("{kind}/{file_name}/module.rules"))
            } else if let Some(stem) = file_name.strip_suffix(".rules") {
                (stem.to_owned(), format!("{kind}/{file_name}"))
            } else {
                continue;
            };
            let ident: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
            cases.push((ident, rel));
        }
        cases.sort();
        for (ident, rel) in &cases {
            let _ = writeln!(code, "#[test]\nfn {kind}_{ident}() {{\n    {kind}_case({rel:?});\n}}\n");
        }
        let list: Vec<String> = cases.iter().map(|(_, rel)| format!("{rel:?}")).collect();
        let _ = writeln!(code, "/// Every `{kind}` fixture the build script found.\nconst {}_CASES: &[&str] = &[{}];\n", kind.to_uppercase(), list.join(", "));
    }
    let target = Path::new(&out_dir).join("fixture_cases.rs");
    if std::fs::read_to_string(&target).ok().as_deref() != Some(code.as_str()) {
        if let Err(e) = std::fs::write(&target, code) {
            println!("cargo:warning=cannot write {}: {e}", target.display());
        }
    }
}
