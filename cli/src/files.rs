//! Which files Grimoire reads, and how: the root, the size limit, and how a
//! name written in a rulebook or a log becomes a file (README, "Files
//! Grimoire reads").
//!
//! The files named on the command line are the user's choice and are read
//! as they are. Every other file is named by a file Grimoire has read — a
//! module names its base (`extends`), a log names its rulebook files — and
//! must lie under the *root*: `--root DIR`, else the folder of the first
//! file given (for `replay`, see [`Root::of_log`]). Such a name is a
//! relative path: an absolute path, a `..` that leads out of the root, or a
//! link that resolves outside it is refused before anything is opened, with
//! a message that shows nothing of the file (not a line, not its size, not
//! where a link leads). Every input file, wherever it lies, is read only if
//! it is a regular file of at most [`MAX_BYTES`].

use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// The largest input file Grimoire reads: 8 MiB (8,388,608 bytes). The
/// largest rulebook of the repository is under 200 KB and the largest
/// source text under 1 MB.
pub const MAX_BYTES: u64 = 8 << 20;

/// The code of a diagnostic about a file a rulebook names but may not have
/// read: outside the root, through a link that leads out of it, or not a
/// regular file of at most [`MAX_BYTES`].
pub const REFUSED: &str = "E0501";

static ROOT_FLAG: OnceLock<PathBuf> = OnceLock::new();

/// Remember the `--root DIR` of this run (`main` calls it once, first).
pub fn set_root_flag(dir: PathBuf) {
    let _ = ROOT_FLAG.set(dir);
}

/// The `--root DIR` of this run, if given.
pub fn root_flag() -> Option<&'static Path> {
    ROOT_FLAG.get().map(PathBuf::as_path)
}

/// Read a whole input file: it must be a regular file (not a folder, a
/// device, a pipe or a socket) of at most [`MAX_BYTES`]. The errors say why
/// in words and show nothing of the content.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    // Looked at before opening: opening a pipe would wait for a writer.
    regular(&std::fs::metadata(path)?)?;
    let file = std::fs::File::open(path)?;
    // And again on the file opened, in case it changed in between.
    regular(&file.metadata()?)?;
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "it is larger than 8 MiB (8,388,608 bytes), the most Grimoire reads of an input file".to_string()));
    }
    Ok(bytes)
}

/// [`read`], as UTF-8 text.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| {
        // Worded as a rulebook's: the byte's value, and where it is (from
        // 0, as an offset into the file).
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes().get(at).copied().unwrap_or(0);
        io::Error::new(io::ErrorKind::InvalidData, format!("it is not UTF-8 text: byte 0x{byte:02x}, at offset {at}, cannot start a character there"))
    })
}

fn regular(meta: &std::fs::Metadata) -> io::Result<()> {
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() { "a folder" } else { special(meta) };
    Err(io::Error::new(io::ErrorKind::InvalidInput, format!("it is {what}, not a regular file: Grimoire reads only regular files")))
}

#[cfg(unix)]
fn special(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_fifo() {
        "a pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special(_: &std::fs::Metadata) -> &'static str {
    "a device, a pipe or a socket"
}

/// Why a name written in a rulebook or a log is not read.
#[derive(Debug)]
pub enum Refusal {
    /// An absolute path.
    Absolute,
    /// A path whose `..` lead out of the root.
    Leaves,
    /// A path that goes through a link leading out of the root (or nowhere).
    Link,
    /// A path under the root where there is no file (or none that can be read).
    Missing(io::Error),
}

impl Refusal {
    /// Why, in words, of `name` as written.
    pub fn reason(&self, name: &str) -> String {
        match self {
            Refusal::Absolute => format!("`{name}` is an absolute path"),
            Refusal::Leaves => format!("`{name}` leads out of the root"),
            Refusal::Link => format!("`{name}` goes through a link that does not lead to a file under the root"),
            Refusal::Missing(e) => format!("cannot read `{name}`: {e}"),
        }
    }

    /// Whether the file was refused for where it lies (rather than missing).
    pub fn is_outside(&self) -> bool {
        !matches!(self, Refusal::Missing(_))
    }
}

/// The folder under which the names written in rulebooks and logs must lie.
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
}

fn canonical(p: &Path) -> io::Result<PathBuf> {
    std::fs::canonicalize(p)
}

impl Root {
    /// This folder.
    pub fn at(dir: &Path) -> Result<Root, String> {
        let c = canonical(dir).map_err(|e| format!("cannot use `{}` as the root: {e}", dir.display()))?;
        if !c.is_dir() {
            return Err(format!("the root `{}` is not a folder", dir.display()));
        }
        Ok(Root { dir: c })
    }

    /// `--root`, else the folder of `first`, the first file given on the
    /// command line.
    pub fn of(first: &Path) -> Result<Root, String> {
        if let Some(r) = root_flag() {
            return Root::at(r);
        }
        let c = canonical(first).map_err(|e| format!("cannot read `{}`: {e}", first.display()))?;
        Root::at(c.parent().unwrap_or(Path::new("/")))
    }

    /// The root of `replay LOG`: `--root`, else the working directory when
    /// the log lies under it (a counterexample in `counterexamples/` names
    /// `../rulebooks/...`), else the log's folder. This is wider than a
    /// rulebook's root because a log pins every file it names by its
    /// SHA-256: a file is only parsed or shown when its content is the one
    /// the log's author had.
    pub fn of_log(log: &Path) -> Result<Root, String> {
        if let Some(r) = root_flag() {
            return Root::at(r);
        }
        let c = canonical(log).map_err(|e| format!("cannot read `{}`: {e}", log.display()))?;
        let folder = c.parent().unwrap_or(Path::new("/"));
        if let Ok(cwd) = std::env::current_dir().and_then(|d| canonical(&d)) {
            if folder.starts_with(&cwd) {
                return Root::at(&cwd);
            }
        }
        Root::at(folder)
    }

    /// The `--root` that `grimoire replay LOG`, run from the working
    /// directory, needs to read `files`, the rulebook files the log names;
    /// `None` when its default root (see [`Root::of_log`]) holds them. The
    /// folder is the deepest that holds the log and every file, written
    /// from the working directory when one lies under the other.
    pub fn for_replay(log: &Path, files: &[&Path]) -> Option<PathBuf> {
        if let Some(r) = root_flag() {
            return Some(r.to_path_buf());
        }
        let default = Root::of_log(log).ok()?;
        let files: Vec<PathBuf> = files.iter().filter_map(|f| canonical(f).ok()).collect();
        if files.iter().all(|f| default.holds(f)) {
            return None;
        }
        let cwd = std::env::current_dir().and_then(|d| canonical(&d)).ok()?;
        let mut common = canonical(log).ok()?.parent()?.to_path_buf();
        while !files.iter().all(|f| f.starts_with(&common)) {
            if !common.pop() {
                return None;
            }
        }
        if let Ok(below) = common.strip_prefix(&cwd) {
            return Some(if below.as_os_str().is_empty() { PathBuf::from(".") } else { below.to_path_buf() });
        }
        if cwd.starts_with(&common) {
            let up = cwd.components().count() - common.components().count();
            return Some((0..up).map(|_| "..").collect::<PathBuf>());
        }
        Some(common)
    }

    /// The folder (canonical: no link, no `..`).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether a canonical path lies under the root.
    pub fn holds(&self, canonical_path: &Path) -> bool {
        canonical_path.starts_with(&self.dir)
    }

    /// The root as shown in messages: relative to the working directory
    /// when it lies under it.
    pub fn shown(&self) -> String {
        shown(&self.dir)
    }

    /// The file that `name`, written in a file of folder `from`, names: its
    /// canonical path when it lies under the root. `name` must be relative;
    /// its `..` are taken as written (`a/../b` is `b`, whatever `a` is), and
    /// the path must stay under the root before and after its links are
    /// resolved. Whether a file lies outside the root is told without
    /// looking at it.
    pub fn admit(&self, from: &Path, name: &str) -> Result<PathBuf, Refusal> {
        let from = canonical(from).map_err(Refusal::Missing)?;
        let lexical = lexical_join(&from, name)?;
        if !lexical.starts_with(&self.dir) {
            return Err(Refusal::Leaves);
        }
        match canonical(&lexical) {
            Ok(c) if c.starts_with(&self.dir) => Ok(c),
            Ok(_) => Err(Refusal::Link),
            Err(_) if self.link_on_the_way(&lexical) => Err(Refusal::Link),
            Err(e) => Err(Refusal::Missing(e)),
        }
    }

    /// Whether some folder or file on the way from the root to `lexical`
    /// (which lies under it) is a link.
    fn link_on_the_way(&self, lexical: &Path) -> bool {
        let Ok(rest) = lexical.strip_prefix(&self.dir) else { return true };
        let mut p = self.dir.clone();
        for c in rest.components() {
            p.push(c);
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.file_type().is_symlink() => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }
}

/// `from` joined with the relative path `name`, its `.` and `..` taken as
/// written; an absolute `name` is refused.
pub fn lexical_join(from: &Path, name: &str) -> Result<PathBuf, Refusal> {
    let mut out = from.to_path_buf();
    for c in Path::new(name).components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return Err(Refusal::Leaves);
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err(Refusal::Absolute),
        }
    }
    Ok(out)
}

/// Whether `name` is a plain relative path: no root, no drive, no `..`.
pub fn is_plain_relative(name: &str) -> bool {
    !name.is_empty() && Path::new(name).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// `to` relative to the folder `from` (both canonical), with `/` between
/// the parts, as logs record their files.
pub fn relative(from: &Path, to: &Path) -> String {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..a.len() {
        parts.push("..".to_string());
    }
    parts.extend(b.iter().skip(common).map(|c| c.as_os_str().to_string_lossy().into_owned()));
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// A canonical path as shown to people: relative to the working directory
/// when it lies under it, else whole.
pub fn shown(path: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir().and_then(|d| canonical(&d)) {
        if let Ok(rest) = path.strip_prefix(&cwd) {
            return if rest.as_os_str().is_empty() { ".".to_string() } else { rest.display().to_string() };
        }
    }
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_go_up_then_down() {
        assert_eq!(relative(Path::new("/a/b/c"), Path::new("/a/d/e.rules")), "../../d/e.rules");
        assert_eq!(relative(Path::new("/a"), Path::new("/a/x.rules")), "x.rules");
        assert_eq!(relative(Path::new("/"), Path::new("/x/y")), "x/y");
    }

    #[test]
    fn files_are_read_up_to_the_limit() {
        let dir = std::env::temp_dir().join(format!("grimoire-files-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let path = dir.join("limit.txt");
        let Ok(()) = std::fs::write(&path, vec![b'a'; MAX_BYTES as usize]) else { return };
        assert_eq!(read(&path).map(|b| b.len()).ok(), Some(MAX_BYTES as usize), "exactly 8 MiB is read");
        let _ = std::fs::write(&path, vec![b'a'; MAX_BYTES as usize + 1]);
        assert!(read(&path).is_err_and(|e| e.to_string().contains("larger than 8 MiB")));
        assert!(read(&dir).is_err_and(|e| e.to_string().contains("a folder")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_are_joined_as_written() {
        assert!(matches!(lexical_join(Path::new("/r"), "/etc/passwd"), Err(Refusal::Absolute)));
        assert_eq!(lexical_join(Path::new("/r/m"), "../b.rules").ok(), Some(PathBuf::from("/r/b.rules")));
        assert!(is_plain_relative("seeds/a.txt") && !is_plain_relative("../a.txt") && !is_plain_relative("/a.txt") && !is_plain_relative(""));
    }
}
