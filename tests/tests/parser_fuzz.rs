//! Arbitrary text never makes the parser or the resolver panic: random
//! strings, and the Grail Cup rulebook with a slice deleted, duplicated or
//! replaced by random text.

use grimoire_interpreter::{compile, Source};
use proptest::prelude::*;
use std::sync::OnceLock;

fn grail_cup() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../rulebooks/grail-cup/grail-cup.rules")).expect("rulebook exists"))
}

/// The nearest char boundary at or below `i`.
fn floor(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn front_end(text: &str) {
    let _ = grimoire_grammar::parse(text);
    let _ = compile(&[Source { name: "fuzz.rules".into(), text: text.to_string() }]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        front_end(&text);
    }

    #[test]
    fn rulebook_shaped_text_never_panics(text in "(rulebook x \\{ players 2..3 \\}|setup|round|rule|zone|\\{|\\}|\\(|\\)|\\[|\\]|[a-z_]{1,6}|[0-9]{1,3}|\"[a-z ]{0,5}\"|==|\\+|=|,|\\.| |\n){0,60}") {
        front_end(&text);
    }

    #[test]
    fn mutated_grail_cup_never_panics(start in 0usize..30_000, len in 0usize..400, kind in 0u8..3, noise in "\\PC{0,20}") {
        let src = grail_cup();
        let a = floor(src, start % src.len().max(1));
        let b = floor(src, a + len);
        let mutated = match kind {
            0 => format!("{}{}", &src[..a], &src[b..]),
            1 => format!("{}{}{}", &src[..b], &src[a..b], &src[b..]),
            _ => format!("{}{}{}", &src[..a], noise, &src[b..]),
        };
        front_end(&mutated);
    }
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    let deep = format!("rulebook x {{ players 2..2 }}\nsetup {{ let a = {}1{} }}", "(".repeat(100_000), ")".repeat(100_000));
    let err = grimoire_grammar::parse(&deep).expect_err("too deep");
    assert!(err.expected.contains("nested"), "{}", err.expected);
    let long = format!("rulebook x {{ players 2..2 }}\nsetup {{ let a = 1{} }}", " + 1".repeat(100_000));
    let err = grimoire_grammar::parse(&long).expect_err("too long");
    assert!(err.expected.contains("operators"), "{}", err.expected);
}
