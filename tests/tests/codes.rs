//! Every code Grimoire can report is documented: each `"E0xxx"`, `"Rxxxx"`,
//! `"Vxxx"`, `"Txxx"` or `"Sxxx"` literal in the interpreter and the CLI has its row
//! in the code table of docs/validate.md, and every file that table names
//! as an example exists. A code added without its row fails here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A code: a letter among E, R, V, T, S, then 3 or 4 digits.
fn is_code(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('E' | 'R' | 'V' | 'T' | 'S')) && (4..=5).contains(&s.len()) && chars.all(|c| c.is_ascii_digit())
}

/// The codes written as string literals in the source.
fn codes_in_source() -> BTreeSet<String> {
    let mut files = Vec::new();
    for dir in ["interpreter/src", "cli/src"] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut codes = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        for piece in text.split('"').skip(1).step_by(2) {
            if is_code(piece) {
                codes.insert(piece.to_string());
            }
        }
    }
    codes
}

#[test]
fn every_code_has_its_row_and_every_example_exists() {
    let doc = std::fs::read_to_string(root().join("docs/validate.md")).expect("docs/validate.md");
    let rows: Vec<&str> = doc.lines().filter(|l| l.split('|').nth(1).is_some_and(|c| is_code(c.trim()))).collect();
    let documented: BTreeSet<String> = rows.iter().filter_map(|l| l.split('|').nth(1)).map(|c| c.trim().to_string()).collect();
    let used = codes_in_source();
    assert!(used.len() >= 40, "the scan found the codes: {used:?}");
    let missing: Vec<_> = used.difference(&documented).collect();
    assert!(missing.is_empty(), "codes without a row in docs/validate.md: {missing:?}");
    for row in rows {
        // Links are `(../PATH)`, relative to docs/.
        for link in row.split("](../").skip(1) {
            let path = link.split(')').next().unwrap_or_default();
            assert!(root().join(path).exists(), "docs/validate.md names `{path}`, which does not exist");
        }
    }
}
