//! Files Grimoire writes (`validate --html` and `--save`, `explore --save`,
//! `play --log`), checked before the run that fills them: a path that
//! cannot be written is a tool failure found in a moment, not after an hour
//! of games. The checks leave nothing behind: what they create to try, they
//! remove.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

/// Check that `path` can be written as a file and is none of the files the
/// run reads (`inputs`): an existing file is opened for writing (not
/// truncated); a new one is created, then removed.
pub fn check_file(path: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    not_an_input(path, inputs)?;
    let fail = |why: String| format!("cannot write `{}`: {why} (checked before the run)", path.display());
    if path.is_dir() {
        return Err(fail("it is a folder".into()));
    }
    if path.exists() {
        return OpenOptions::new().write(true).open(path).map(drop).map_err(|e| fail(e.to_string()));
    }
    OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| fail(e.to_string()))?;
    std::fs::remove_file(path).map_err(|e| fail(format!("a file created to try it cannot be removed: {e}")))
}

/// Check that `path` is none of the files the run reads (`inputs`: the
/// rulebook, its modules, the source texts), by whatever path:
/// `--html rules.rules` would put a page where the rulebook was.
fn not_an_input(path: &Path, inputs: &[PathBuf]) -> Result<(), String> {
    match input_at(path, inputs) {
        Some(input) => Err(format!("cannot write `{}`: it is `{}`, a file this run reads (checked before the run)", path.display(), input.display())),
        None => Ok(()),
    }
}

/// The input (of `inputs`) that `path` names, if any: the same file by
/// whatever path — `./`, `..`, a link, or a hard link, which no path
/// comparison can tell (an outside tester's `--log` through a hard link
/// wrote over the rulebook), so files are compared by device and inode
/// where the system has them.
pub fn input_at<'i>(path: &Path, inputs: &'i [PathBuf]) -> Option<&'i PathBuf> {
    let target = std::fs::canonicalize(path).ok()?;
    let meta = std::fs::metadata(&target).ok();
    inputs.iter().find(|i| std::fs::canonicalize(i).is_ok_and(|i| i == target) || meta.as_ref().is_some_and(|m| std::fs::metadata(i).is_ok_and(|n| same_file(m, &n))))
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// Check that files can be written in the folder `dir`: it is created if
/// missing, a file is created in it and removed, and the folders created
/// are removed again (the run creates them when it has something to save).
pub fn check_folder(dir: &Path) -> Result<(), String> {
    let fail = |why: String| format!("cannot write in `{}`: {why} (checked before the run)", dir.display());
    if dir.exists() && !dir.is_dir() {
        return Err(fail("it is not a folder".into()));
    }
    // The folders that do not exist yet, deepest first.
    let missing: Vec<PathBuf> = dir.ancestors().take_while(|a| !a.as_os_str().is_empty() && !a.exists()).map(Path::to_path_buf).collect();
    let tried = std::fs::create_dir_all(dir).map_err(|e| fail(e.to_string())).and_then(|()| {
        let probe = dir.join(format!(".grimoire-write-check-{}", std::process::id()));
        OpenOptions::new().write(true).create_new(true).open(&probe).map_err(|e| fail(e.to_string()))?;
        std::fs::remove_file(&probe).map_err(|e| fail(format!("a file created to try it cannot be removed: {e}")))
    });
    for created in &missing {
        // Only an empty folder is removed: one that something else filled meanwhile stays.
        let _ = std::fs::remove_dir(created);
    }
    tried
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grimoire-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_writable_place_passes_and_nothing_is_left_behind() {
        let dir = scratch("ok");
        assert_eq!(check_folder(&dir.join("a/b")), Ok(()));
        assert!(!dir.exists(), "the folders created to try are removed");
        std::fs::create_dir_all(&dir).expect("a folder");
        assert_eq!(check_file(&dir.join("page.html"), &[]), Ok(()));
        assert!(!dir.join("page.html").exists());
        std::fs::write(dir.join("old.html"), "kept").expect("a file");
        assert_eq!(check_file(&dir.join("old.html"), &[]), Ok(()));
        assert_eq!(std::fs::read_to_string(dir.join("old.html")).ok().as_deref(), Some("kept"), "an existing file is not truncated");
        assert_eq!(check_folder(&dir), Ok(()));
        assert_eq!(std::fs::read_dir(&dir).map(Iterator::count).ok(), Some(1), "no probe left");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_the_run_reads_is_refused_by_any_path() {
        let dir = scratch("input");
        std::fs::create_dir_all(dir.join("sub")).expect("a folder");
        let rules = dir.join("game.rules");
        std::fs::write(&rules, "rulebook").expect("a file");
        let other = dir.join("sub/../page.html");
        assert!(check_file(&dir.join("sub/../game.rules"), std::slice::from_ref(&rules)).is_err_and(|e| e.contains("a file this run reads")));
        assert_eq!(check_file(&other, std::slice::from_ref(&rules)), Ok(()));
        assert_eq!(std::fs::read_to_string(&rules).ok().as_deref(), Some("rulebook"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_place_that_cannot_be_written_is_refused() {
        let dir = scratch("bad");
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("file");
        std::fs::write(&file, "x").expect("a file");
        // Refused even for root, who may write anywhere a path can lead.
        let folder_as_file = check_file(&dir, &[]);
        let under_a_file = check_file(&file.join("page.html"), &[]);
        let file_as_folder = check_folder(&file);
        let folder_under_a_file = check_folder(&file.join("sub"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(folder_as_file.is_err_and(|e| e.contains("it is a folder")));
        assert!(under_a_file.is_err_and(|e| e.starts_with("cannot write `") && e.ends_with("(checked before the run)")));
        assert!(file_as_folder.is_err_and(|e| e.contains("it is not a folder")));
        assert!(folder_under_a_file.is_err());
    }
}
