//! The `grimoire` command's library part: loading rulebook files (with the
//! base a module extends) and rendering diagnostics. Only this crate reads
//! files and prints.

pub mod html;
pub mod files;
pub mod load;
pub mod logfile;
pub mod render;
pub mod sources;

/// `println!` that does not panic when the reader has gone away
/// (`grimoire play --auto | head`): output to a closed pipe is dropped.
#[macro_export]
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
