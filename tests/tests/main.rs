//! The integration tests of Grimoire, one module per file of this folder,
//! built as one test binary (`cargo test -p grimoire-tests` runs them all;
//! `cargo test -p grimoire-tests -- cli::` runs one file's). One binary links
//! the engine once: a binary per file linked it twenty times over, which
//! took most of the build's time and gigabytes of disk.

#[path = "support/binary.rs"]
mod binary;

mod classic;
mod cli;
mod codes;
mod composition;
mod decisions;
mod engine_equivalence;
mod exploration;
mod fast_paths;
mod fixtures;
mod hoisting;
mod hostile;
mod knowledge;
mod limits;
mod observation;
mod progress;
mod properties;
mod scenarios;
mod semantics;
mod shape_limits;
mod simultaneous;
mod snapshots;
mod trace;
mod validate;
