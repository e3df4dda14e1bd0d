//! Grimoire interpreter: resolves rulebooks into a typed model, runs them, and
//! checks them.
//!
//! The pipeline is `text -> grimoire_grammar::parse -> resolve -> Game ->
//! State`. This crate never reads files and never prints: the CLI does both.

pub mod diagnostic;
pub mod model;
pub mod resolve;

pub use diagnostic::Diagnostic;
pub use model::Model;
pub mod engine;
pub mod histogram;
#[cfg(feature = "legacy-engine")]
pub mod legacy;
pub mod log;
pub mod parallel;
pub mod scenario;
pub mod validate;
mod varint;

use model::{FileId, Loc};

/// A rulebook file's name and text, as the caller read it.
#[derive(Debug, Clone)]
pub struct Source {
    /// Name shown in diagnostics.
    pub name: String,
    /// Whole text.
    pub text: String,
}

/// Parse and resolve a base rulebook (first) and its modules: the whole
/// front end in one call. Every syntax error and every resolution problem is
/// returned together.
///
/// ```
/// use grimoire_interpreter::{compile, Source};
/// let text = r#"rulebook demo { players 2..2 }
/// token coin 2 assume "a demo"
/// zone pot of coin
/// setup { move 2 of coin from box to pot }
/// round turn { win 0 == 0 }"#;
/// let errs = compile(&[Source { name: "demo.rules".into(), text: text.into() }]).unwrap_err();
/// assert_eq!(errs[0].code, "E0201"); // `win` wants a player, not a truth value
/// ```
pub fn compile(sources: &[Source]) -> Result<Model, Vec<Diagnostic>> {
    let mut trees = Vec::new();
    let mut diags = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        match grimoire_grammar::parse(&s.text) {
            Ok(tree) => trees.push(tree),
            Err(e) => {
                let mut d = Diagnostic::new(
                    diagnostic::codes::SYNTAX,
                    format!("syntax error: expected {}", e.expected),
                    Loc { file: FileId(i as u16), span: e.span },
                    "here",
                );
                d.help = e.help;
                diags.push(d);
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let parsed: Vec<resolve::Parsed> = sources.iter().zip(&trees).map(|(s, t)| resolve::Parsed { name: s.name.clone(), file: t }).collect();
    resolve::resolve(&parsed)
}
