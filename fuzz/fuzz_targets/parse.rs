//! `parse`: any text given to the parser gives a syntax tree or a syntax
//! error, never a panic nor a stack overflow (deep nesting included); an
//! error's span lies within the text, on character boundaries, since the CLI
//! slices the text there to show it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A file that is not UTF-8 never reaches the parser: the CLI refuses it.
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(e) = grimoire_grammar::parse(text) {
        let (start, end) = (e.span.start, e.span.end);
        assert!(start <= end && end <= text.len(), "span {start}..{end} outside a text of {} bytes", text.len());
        assert!(text.is_char_boundary(start) && text.is_char_boundary(end), "span {start}..{end} cuts a character");
    }
});
