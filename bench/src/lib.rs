//! Nothing here: the benchmark is `benches/speed.rs`
//! (`cargo bench -p grimoire-bench`).
