//! Files that lose nothing: one writer per growing file (an advisory lock
//! held for the whole run), inputs that are regular files, outputs checked
//! before any work, whole lines only, and whole-file replacement by rename.
//! A leaf utility, like `rng`: any layer may use it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
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
    if path.exists() {
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
fn temp_name(path: &Path, what: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "out".to_string(), |n| n.to_string_lossy().into_owned());
    folder_of(path).join(format!(".{name}.{what}-{}", std::process::id()))
}

/// Replaces the file at `path` with what `write` writes, all or nothing:
/// the bytes go to a temporary file in the same folder, are synced, and the
/// temporary file is renamed over `path`. A failure (a full disk, a crash)
/// leaves the old file as it was and removes the temporary one.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), String> {
    check_output(path)?;
    let tmp = temp_name(path, "tmp");
    let result = File::create(&tmp)
        .and_then(|mut f| {
            write(&mut f)?;
            f.flush()?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e} (the file was left as it was)", path.display())
    })
}

/// [`replace_with`] for bytes at hand.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    replace_with(path, |f| f.write_all(bytes))
}

/// `bytes` split into its whole lines and a torn last line: the bytes after
/// the last newline, which a killed or concurrent writer may not have
/// finished (empty when the file ends with a newline).
fn whole_lines(bytes: &[u8]) -> (&[u8], &[u8]) {
    match bytes.iter().rposition(|&b| b == b'\n') {
        Some(i) => bytes.split_at(i + 1),
        None => (&[], bytes),
    }
}

/// The whole lines of `bytes`, read from the growing file `path`: a torn
/// last line (see [`whole_lines`]) is left out with a warning that ends
/// with `then`, what the caller does about it (empty: nothing more).
pub fn whole_lines_of<'a>(path: &Path, bytes: &'a [u8], then: &str) -> &'a [u8] {
    let (whole, torn) = whole_lines(bytes);
    if !torn.trim_ascii().is_empty() {
        warn_torn(path, torn, torn.len() as u64, then);
    }
    whole
}

/// The warning for a torn last line of `len` bytes that starts with `head`.
fn warn_torn(path: &Path, head: &[u8], len: u64, then: &str) {
    let shown = String::from_utf8_lossy(&head[..head.len().min(40)]);
    log::warn!(
        "{}: the last line has no end ('{}{}', {} bytes): a writer was stopped in the middle of it; skipped{}",
        path.display(),
        shown,
        if len > 40 { "..." } else { "" },
        len,
        then
    );
}

/// Longest line of a record file (a result file, a GGF file) that is read,
/// in bytes, as the engine's protocol loop refuses a command line past
/// 65,536 bytes: a whole game's GGF record with every time and value is
/// under 3 kB. A longer line is skipped without being held in memory.
pub const MAX_RECORD_LINE: usize = 65_536;

/// Why a line of `len` bytes was skipped by [`read_lines`].
pub fn too_long(len: u64) -> String {
    format!("a line of {len} bytes, over the limit of {MAX_RECORD_LINE}")
}

/// A line read by [`read_bounded_line`].
pub struct BoundedLine {
    /// Its first bytes, at most the limit (without the line feed).
    pub kept: Vec<u8>,
    /// Its whole length in bytes, without the line feed.
    pub len: u64,
    /// A line feed ended it (else the input did).
    pub ended: bool,
}

/// The next line of `input`, holding at most `limit` of its bytes: the rest
/// is read past, not kept, so a huge line cannot exhaust memory. `None` at
/// the end of the input.
pub fn read_bounded_line(
    input: &mut impl std::io::BufRead,
    limit: usize,
) -> std::io::Result<Option<BoundedLine>> {
    let mut kept = Vec::new();
    let mut len = 0u64;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((len > 0).then_some(BoundedLine {
                kept,
                len,
                ended: false,
            }));
        }
        let end = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        let room = limit - kept.len();
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        len += chunk.len() as u64;
        let used = end.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(BoundedLine {
                kept,
                len,
                ended: true,
            }));
        }
    }
}

/// One line of a file read by [`read_lines`].
pub struct FileLine {
    /// From 1.
    pub number: usize,
    /// The line without its line feed (a byte-order mark at the start of
    /// the file removed), or its length when it is over the limit: those
    /// bytes were read past, not kept.
    pub text: Result<Vec<u8>, u64>,
}

/// What [`read_lines`] read.
pub struct LinesRead {
    /// Bytes of the whole lines, the byte-order mark included: where a
    /// torn last line starts.
    pub whole_len: u64,
    /// The length of a torn last line (no line feed, not blank), skipped.
    pub torn: Option<u64>,
}

/// Reads `reader` (the file `path`) one line at a time, holding at most
/// `limit` bytes of a line, and hands `each` every whole line. A last line
/// without its line feed (a writer stopped in the middle of it) is not
/// handed on: it is warned of, the warning ending with `then`.
pub fn read_lines(
    path: &Path,
    mut reader: impl std::io::BufRead,
    limit: usize,
    then: &str,
    mut each: impl FnMut(FileLine),
) -> Result<LinesRead, String> {
    let io = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut whole_len = 0u64;
    let mut number = 0;
    loop {
        let Some(BoundedLine {
            kept: mut line,
            len,
            ended,
        }) = read_bounded_line(&mut reader, limit).map_err(io)?
        else {
            return Ok(LinesRead {
                whole_len,
                torn: None,
            });
        };
        if !ended {
            let torn = len > limit as u64 || !line.trim_ascii().is_empty();
            if torn {
                warn_torn(path, &line, len, then);
            }
            return Ok(LinesRead {
                whole_len,
                torn: torn.then_some(len),
            });
        }
        number += 1;
        let mut start = 0;
        if number == 1 && line.starts_with(b"\xEF\xBB\xBF") {
            start = 3;
        }
        whole_len += len + 1;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let text = if len > limit as u64 {
            Err(len)
        } else {
            line.drain(..start);
            Ok(line)
        };
        each(FileLine { number, text });
    }
}

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

    /// Appends `text` (whole lines) in one write and flushes.
    pub fn append(&mut self, text: &str) -> Result<(), String> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder and its path; the folder goes when the first drops.
    fn dir(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix(&format!("mollett-files-{name}-"))
            .tempdir()
            .unwrap();
        let d = tmp.path().to_path_buf();
        (tmp, d)
    }

    #[test]
    fn a_second_writer_is_refused_until_the_first_is_done() {
        let (_tmp, d) = dir("lock");
        let path = d.join("games.txt");
        let mut first = Writer::lock(&path).unwrap();
        first.append("one\n").unwrap();
        let err = Writer::lock(&path).unwrap_err();
        assert!(
            err.contains("is writing it") && err.contains("games.txt"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"one\n",
            "nothing written by the second"
        );
        drop(first);
        Writer::lock(&path).unwrap().append("two\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one\ntwo\n");
    }

    #[test]
    fn inputs_must_be_regular_files() {
        let (_tmp, d) = dir("input");
        let err = regular_input(&d).unwrap_err();
        assert!(err.contains("is a directory"), "{err}");
        let err = regular_input(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("character device"), "{err}");
        let f = d.join("f.txt");
        std::fs::write(&f, "x\n").unwrap();
        regular_input(&f).unwrap();
    }

    #[test]
    fn outputs_are_checked_before_any_work() {
        let (_tmp, d) = dir("output");
        assert!(check_output(&d).unwrap_err().contains("is a directory"));
        let missing = d.join("no-such-folder").join("out.txt");
        assert!(check_output(&missing)
            .unwrap_err()
            .contains("does not exist"));
        check_output(&d.join("new.txt")).unwrap();
        assert!(!d.join("new.txt").exists(), "checking creates nothing");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "no probe left");
    }

    #[test]
    fn a_failed_replacement_leaves_the_old_file() {
        let (_tmp, d) = dir("replace");
        let path = d.join("w.bin");
        std::fs::write(&path, b"old and good").unwrap();
        let err = replace_with(&path, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("no space left on device"))
        })
        .unwrap_err();
        assert!(err.contains("left as it was"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old and good");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary file left"
        );
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn torn_last_lines_are_split_off() {
        assert_eq!(whole_lines(b"a\nb\n"), (&b"a\nb\n"[..], &b""[..]));
        assert_eq!(whole_lines(b"a\nb"), (&b"a\n"[..], &b"b"[..]));
        assert_eq!(whole_lines(b"b"), (&b""[..], &b"b"[..]));
    }
}
