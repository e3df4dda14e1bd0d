//! The `grimoire` command's library part: loading rulebook files (with the
//! base a module extends) and rendering diagnostics. Only this crate reads
//! files and prints.

pub mod ascii;
pub mod clip;
pub mod html;
pub mod files;
pub mod interrupt;
pub mod load;
pub mod logfile;
pub mod output;
pub mod render;
pub mod sources;
pub mod ui;

/// `println!` that does not panic when the reader has gone away
/// (`grimoire play --auto | head`): output to a closed pipe is dropped.
#[macro_export]
macro_rules! say {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), "{}", $crate::ascii::plain(format!($($t)*)));
    }};
}

/// `print!` that does not panic when the reader has gone away.
#[macro_export]
macro_rules! put {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), "{}", $crate::ascii::plain(format!($($t)*)));
    }};
}

/// `eprintln!` that does not panic when stderr is closed or its reader has
/// gone away (`grimoire check bad.rules 2>&1 | head -1`): output to a
/// closed stream is dropped. Nothing in the CLI writes to stderr otherwise.
#[macro_export]
macro_rules! esay {
    () => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr());
    }};
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "{}", $crate::ascii::plain(format!($($t)*)));
    }};
}

/// `eprint!` that does not panic (see [`esay!`]).
#[macro_export]
macro_rules! eput {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), "{}", $crate::ascii::plain(format!($($t)*)));
    }};
}
