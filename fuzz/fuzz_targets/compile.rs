//! `compile`: any text, given as a rulebook (and, split at NUL bytes, as the
//! modules that follow it), compiles to a model or to diagnostics, never a
//! panic nor a stack overflow. Every diagnostic, and every place it relates,
//! names one of the files given and a span within its text on character
//! boundaries: the CLI slices the text there to show it.
#![no_main]

use grimoire_interpreter::{compile, model::Loc, Source};
use libfuzzer_sys::fuzz_target;

/// More files than a base and its modules ever are in the repository: each
/// one costs a parse, and a long list adds nothing the fuzzer could not
/// find with three.
const MAX_FILES: usize = 4;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let sources: Vec<Source> = text
        .split('\0')
        .take(MAX_FILES)
        .enumerate()
        .map(|(i, part)| Source { name: format!("f{i}.rules"), text: part.to_string() })
        .collect();
    let Err(diags) = compile(&sources) else { return };
    assert!(!diags.is_empty(), "a rulebook refused without a diagnostic");
    for d in &diags {
        check_loc(&sources, &d.at, d.code);
        for (loc, _) in &d.related {
            check_loc(&sources, loc, d.code);
        }
    }
});

fn check_loc(sources: &[Source], loc: &Loc, code: &str) {
    let Some(src) = sources.get(loc.file.idx()) else {
        panic!("{code} names file {} of {}", loc.file.idx(), sources.len());
    };
    let (start, end, len) = (loc.span.start, loc.span.end, src.text.len());
    assert!(start <= end && end <= len, "{code}: span {start}..{end} outside a text of {len} bytes");
    assert!(src.text.is_char_boundary(start) && src.text.is_char_boundary(end), "{code}: span {start}..{end} cuts a character");
}
