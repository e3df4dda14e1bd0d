//! The real `grimoire` binary for the tests that run it (`cli.rs`,
//! `hostile.rs`): declared once in `main.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The `grimoire` binary, built for this test run.
///
/// `cargo test` builds a package's binaries only for that package's own
/// integration tests, and `grimoire-cli` has none: the binary next to this
/// test (`target/debug/grimoire`) may be missing on a clean checkout, or
/// older than the sources after an edit to `cli/`. So the tests ask cargo to
/// build it (a no-op when it is up to date), in the same target folder and
/// profile as this test, and take the path cargo reports.
pub fn grimoire() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(build_grimoire)
}

fn build_grimoire() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    // <target>/<profile>/deps/<this test>
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
    let sibling = profile_dir.join(format!("grimoire{}", std::env::consts::EXE_SUFFIX));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-p", "grimoire-cli", "--bin", "grimoire", "--message-format=json-render-diagnostics"]).current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => {}
        Some("release") => {
            cmd.arg("--release");
        }
        Some(other) => {
            cmd.args(["--profile", other]);
        }
        None => {}
    }
    if let Some(target_dir) = profile_dir.parent() {
        cmd.arg("--target-dir").arg(target_dir);
    }
    let out = cmd.output().expect("cargo runs");
    let built = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "grimoire")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from));
    match built {
        Some(path) if out.status.success() => path,
        // Cargo could not build it here (offline, read-only target): use the
        // binary the workspace build left, if any.
        _ if sibling.exists() => sibling,
        _ => panic!("building grimoire failed:\n{}", String::from_utf8_lossy(&out.stderr)),
    }
}
