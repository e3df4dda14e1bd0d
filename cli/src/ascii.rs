//! `--error-format plain` promises ASCII: the symbols the tool itself
//! writes (`×2`, `≤`, `« quote »`, `…`) are written in ASCII then, in every
//! line the CLI prints but JSON. The rulebook's own text (its labels, its
//! quotes, accents included) is printed as it is written.

use std::sync::atomic::{AtomicBool, Ordering};

static ASCII: AtomicBool = AtomicBool::new(false);

/// Print the tool's symbols in ASCII from now on (`--error-format plain`).
pub fn set(on: bool) {
    ASCII.store(on, Ordering::Relaxed);
}

/// Whether the tool's symbols are printed in ASCII.
pub fn on() -> bool {
    ASCII.load(Ordering::Relaxed)
}

/// The tool's symbols and their ASCII forms.
const SYMBOLS: &[(char, &str)] = &[('×', "x"), ('≤', "<="), ('≥', ">="), ('«', "\""), ('»', "\""), ('…', "..."), ('—', "-"), ('→', "->"), ('─', "-"), ('·', "-")];

/// `text` with the tool's symbols in ASCII when [`on`].
pub fn plain(text: String) -> String {
    if !on() || text.is_ascii() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        // French spacing inside « » has no place inside ASCII quotes:
        // `« été »` is `"été"`.
        if c == '»' && out.ends_with(' ') {
            out.pop();
        }
        match SYMBOLS.iter().find(|(s, _)| *s == c) {
            Some((_, ascii)) => out.push_str(ascii),
            None => out.push(c),
        }
        if c == '«' && chars.peek() == Some(&' ') {
            chars.next();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tools_symbols_become_ascii_and_the_rulebooks_letters_stay() {
        set(true);
        assert_eq!(plain("hand: Fée ×2, « été » ≤ 3…".into()), "hand: Fée x2, \"été\" <= 3...");
        set(false);
        assert_eq!(plain("×2".into()), "×2");
    }
}
