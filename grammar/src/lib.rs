//! Grimoire rules language: text to syntax tree.
//!
//! This crate knows the shape of a rulebook and nothing of its meaning: names
//! are not resolved here, and nothing is evaluated. [`parse`] turns a text into
//! an [`ast::File`] or a [`ParseError`] that points at the offending text.
//!
//! ```
//! let text = r#"rulebook demo { players 2..4 }
//! token coin 3 assume "a demo"
//! zone bank of coin
//! setup { pass }"#;
//! let file = grimoire_grammar::parse(text).unwrap();
//! assert_eq!(file.items.len(), 3);
//! ```

pub mod ast;
mod error;
mod parser;
mod position;
mod typo;

pub use error::ParseError;
pub use parser::{is_forbidden_char, parse};
pub use position::line_col;
pub use typo::did_you_mean;
