//! The `grimoire` command's library part: loading rulebook files (with the
//! base a module extends) and rendering diagnostics. Only this crate reads
//! files and prints.

pub mod html;
pub mod load;
pub mod render;
pub mod sources;
