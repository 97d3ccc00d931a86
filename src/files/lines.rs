//! Whole lines only: a torn last line (a writer stopped in the middle of it) is
//! left out with a warning, and a line past the limit is read past, not held.

use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_last_lines_are_split_off() {
        assert_eq!(whole_lines(b"a\nb\n"), (&b"a\nb\n"[..], &b""[..]));
        assert_eq!(whole_lines(b"a\nb"), (&b"a\n"[..], &b"b"[..]));
        assert_eq!(whole_lines(b"b"), (&b""[..], &b"b"[..]));
    }
}
