//! The guard of inputs and outputs: inputs that are regular files, outputs
//! checked before any work, and no output that is also an input, however spelled.

use std::fs::OpenOptions;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What kind of file `meta` describes, in words.
#[cfg(unix)]
fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// What kind of file `meta` describes, where the system names no more kinds.
#[cfg(not(unix))]
fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// An input must be a regular file (a symbolic link to one is one): a
/// FIFO or a device would be read until memory runs out, a directory
/// cannot be read at all. Checked before the first byte is read.
pub fn regular_input(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(format!(
            "{}: is {}, not a regular file; give a file",
            path.display(),
            kind(&meta)
        ))
    }
}

/// Names on stderr each of `inputs` that is an empty file: a run that
/// reads nothing from it says so rather than printing nothing.
pub fn warn_empty<'a>(inputs: impl IntoIterator<Item = &'a PathBuf>) {
    for p in inputs {
        if std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() == 0) {
            log::warn!("{}: is empty; nothing read from it", p.display());
        }
    }
}

/// The folder a file named `path` lives in (`.` for a bare name).
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// An output that will be written (or replaced) later: checked now, before
/// the first game or position, so that no work is lost to a bad name. It
/// may exist only as a regular file, and its folder must exist and take a
/// new file (tried by creating and removing one).
pub fn check_output(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err("the output file name is empty".into());
    }
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(format!(
                "{shown}: is a directory; give a file name (e.g. {})",
                path.join("out.txt").display()
            ))
        }
        Ok(meta) if !meta.is_file() => {
            return Err(format!("{shown}: is {}, not a regular file", kind(&meta)))
        }
        _ => {}
    }
    let folder = folder_of(path);
    match std::fs::metadata(&folder) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(format!("{shown}: {} is not a folder", folder.display())),
        Err(_) => {
            return Err(format!(
                "{shown}: the folder {} does not exist",
                folder.display()
            ))
        }
    }
    let probe = temp_name(path, "probe");
    match OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
        }
        // A file that exists but whose folder takes no new file (`/proc`,
        // `/sys`): it is replaced through a new file, so it cannot be written.
        Err(e) if path.exists() => {
            return Err(format!(
                "{shown}: not a regular file you may write: its folder {} takes no new file ({e})",
                folder.display()
            ))
        }
        Err(e) => {
            return Err(format!(
                "{shown}: cannot write in {}: {e}",
                folder.display()
            ))
        }
    }
    if let Ok(meta) = std::fs::metadata(path) {
        // A file made read-only says "do not write me", and root writes
        // through any mode: refused by its mode, not by the open below.
        if meta.permissions().readonly() {
            return Err(format!(
                "{shown}: is read-only; make it writable or give another name (nothing was written)"
            ));
        }
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    }
    Ok(())
}

/// The path `p` with its folder resolved (links, `.`, `..`, `//`), when the
/// folder exists: two spellings of one file, made or not, resolve alike.
fn resolved(p: &Path) -> Option<PathBuf> {
    if let Ok(full) = p.canonicalize() {
        return Some(full);
    }
    let name = p.file_name()?;
    folder_of(p).canonicalize().ok().map(|f| f.join(name))
}

/// Device and inode of an existing file: hard links and bind mounts name
/// one file under two resolved paths.
#[cfg(unix)]
fn file_id(p: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_p: &Path) -> Option<(u64, u64)> {
    None
}

/// Paths that name one file, however spelled (`./`, `//`, `..`, links, a
/// file not made yet): same path as written, same resolved folder and name,
/// or the same device and inode.
pub fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!((resolved(a), resolved(b)), (Some(x), Some(y)) if x == y)
        || matches!((file_id(a), file_id(b)), (Some(x), Some(y)) if x == y)
}

/// A file a run reads (or writes besides the one checked), and what it is
/// in words, for [`guard`]'s refusal.
pub struct RunFile {
    pub path: PathBuf,
    pub what: String,
}

impl RunFile {
    pub fn new(path: impl Into<PathBuf>, what: impl Into<String>) -> RunFile {
        RunFile {
            path: path.into(),
            what: what.into(),
        }
    }
}

/// The one guard of every file Mollett writes, run before any work: the
/// output `out` (given as `flag`, e.g. `--out`) must be writable as
/// [`check_output`] says and must not be any of `others`, the files the
/// same run reads or writes, however spelled.
pub fn guard(flag: &str, out: &Path, others: &[RunFile]) -> Result<(), String> {
    if let Some(same) = others.iter().find(|f| same_file(&f.path, out)) {
        return Err(format!(
            "{flag} {}: is {} ({}); give another name (nothing was written)",
            out.display(),
            same.what,
            same.path.display()
        ));
    }
    check_output(out).map_err(|e| format!("{flag} {e}"))
}

/// A hidden name beside `path` for a temporary file of this process.
pub(super) fn temp_name(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned());
    folder_of(path).join(format!(".{name}.{what}-{}", std::process::id()))
}
