//! One writer per growing file: an advisory lock held for the whole run.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::guard::check_output;

/// The one writer of a growing file (a corpus, a result file, a GGF file):
/// an exclusive advisory lock (`flock`) on the file, held until this value
/// is dropped, so that a second run given the same file refuses at once
/// instead of playing the same games or truncating the other's lines.
#[derive(Debug)]
pub struct Writer {
    file: File,
    path: PathBuf,
}

impl Writer {
    /// Opens `path` for appending (creating it) and takes its lock; a file
    /// another process writes gets an error naming that process.
    pub fn lock(path: &Path) -> Result<Writer, String> {
        check_output(path)?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(Writer {
                file,
                path: path.to_path_buf(),
            }),
            Err(TryLockError::WouldBlock) => {
                let who = file
                    .metadata()
                    .ok()
                    .and_then(|m| holder_of(&m))
                    .map_or_else(
                        || "another process".to_string(),
                        |(pid, name)| format!("process {pid} ({name})"),
                    );
                Err(format!(
                    "{}: {who} is writing it; wait for it to finish or give another file (nothing was written)",
                    path.display()
                ))
            }
            Err(TryLockError::Error(e)) => Err(format!("{}: cannot lock: {e}", path.display())),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's bytes as they are now.
    pub fn read(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.path).map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// Cuts the file to its first `len` bytes (a torn last line).
    pub fn truncate(&self, len: u64) -> Result<(), String> {
        self.file
            .set_len(len)
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }

    /// Appends `text` (whole lines) in one write and flushes. A write that
    /// fails part way (a full disk) is cut back to where the file ended, so
    /// that the file never ends in a torn line.
    pub fn append(&mut self, text: &str) -> Result<(), String> {
        let before = self.file.metadata().map(|m| m.len());
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                if let Ok(len) = before {
                    let _ = self.file.set_len(len);
                }
                format!("{}: {e}", self.path.display())
            })
    }
}

/// The process holding a `flock` on the file `meta` describes.
#[cfg(unix)]
fn holder_of(meta: &std::fs::Metadata) -> Option<(u32, String)> {
    holder(meta.dev(), meta.ino())
}

/// Systems without `/proc/locks` cannot name the lock's holder.
#[cfg(not(unix))]
fn holder_of(_meta: &std::fs::Metadata) -> Option<(u32, String)> {
    None
}

/// The process holding a `flock` on the file `dev`:`ino`, from
/// `/proc/locks` (Linux), with its command name.
#[cfg(unix)]
fn holder(dev: u64, ino: u64) -> Option<(u32, String)> {
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // Device numbers as the kernel's new_encode_dev splits them.
    let (major, minor) = ((dev >> 8) & 0xfff, (dev & 0xff) | ((dev >> 12) & 0xfff00));
    let exact = format!("{major:02x}:{minor:02x}:{ino}");
    let me = std::process::id();
    // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; on overlay file
    // systems the device may differ from what stat says: the inode decides.
    let held: Vec<(u32, bool)> = locks
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let at = f.iter().position(|w| *w == "FLOCK")?;
            let pid: u32 = f.get(at + 3)?.parse().ok()?;
            let id = *f.get(at + 4)?;
            let same_inode = id.rsplit(':').next() == Some(ino.to_string().as_str());
            (same_inode && pid != me).then_some((pid, id.eq_ignore_ascii_case(&exact)))
        })
        .collect();
    let pid = held
        .iter()
        .find(|(_, exact)| *exact)
        .or(held.first())
        .map(|(pid, _)| *pid)?;
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "?".into());
    Some((pid, name))
}
