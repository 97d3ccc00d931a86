//! Reading a corpus file, open or a sealed chunk, into its header and games.

use super::game::CorpusGame;
use super::header::Header;
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

/// The most bytes a chunk may unpack to; a larger one (a decompression
/// bomb, or not a chunk) is refused before it fills memory.
pub const MAX_UNPACKED: u64 = 256 << 20;

/// `path` names a sealed chunk (`*.games.zst`, sealed by `chunk.rs`).
pub fn is_chunk(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".games.zst"))
}

/// `path` names a corpus file, open (`*.games`) or sealed (`*.games.zst`).
pub fn is_corpus(path: &Path) -> bool {
    is_chunk(path) || path.extension().is_some_and(|e| e == "games")
}

/// A corpus file's bytes: a chunk unpacked (at most [`MAX_UNPACKED`]), an
/// open file as it is.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    if !is_chunk(path) {
        return crate::rules::text::read_bytes(path);
    }
    crate::files::regular_input(path)?;
    let shown = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    let decoder = zstd::stream::read::Decoder::new(file).map_err(|e| format!("{shown}: {e}"))?;
    let mut out = Vec::new();
    decoder
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("{shown}: not a zstd chunk ({e})"))?;
    if out.len() as u64 > MAX_UNPACKED {
        return Err(format!(
            "{shown}: unpacks to more than {} MB; not a corpus chunk",
            MAX_UNPACKED >> 20
        ));
    }
    Ok(out)
}

/// A corpus file read back: its header, its valid games (first copy of each
/// index), and a line-numbered message for each line that was skipped.
#[derive(Debug)]
pub struct Corpus {
    pub header: Header,
    pub games: Vec<CorpusGame>,
    pub skipped: Vec<String>,
    /// Bytes of the file up to the end of its last complete line; a run that
    /// appends truncates a torn last line (from a kill) to this.
    pub complete_len: u64,
}

/// Reads a corpus file, open (`.games`) or a sealed chunk (`.games.zst`).
/// Fails only when the file cannot be read or has no valid header; bad game
/// lines are skipped and listed.
pub fn read(path: &Path) -> Result<Corpus, String> {
    let bytes = read_bytes(path)?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a corpus from its bytes (see [`read`]).
pub fn parse(file: &[u8]) -> Result<Corpus, String> {
    let bytes = crate::rules::text::strip_bom(file);
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut lines = bytes[..complete].split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header = Header::parse(
        std::str::from_utf8(first)
            .map_err(|_| "line 1: not UTF-8".to_string())?
            .trim_end(),
    )
    .map_err(|e| format!("line 1: {e}"))?;
    let mut seen = HashSet::new();
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    for (n, raw) in lines.enumerate() {
        let n = n + 2;
        let Ok(line) = std::str::from_utf8(raw) else {
            skipped.push(format!("line {n}: not UTF-8"));
            continue;
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match CorpusGame::parse(line, header.variant) {
            Ok(g) if !seen.insert(g.index) => {
                skipped.push(format!("line {n}: game {} repeated", g.index))
            }
            Ok(g) => games.push(g),
            Err(e) => skipped.push(format!("line {n}: {e}")),
        }
    }
    if complete < bytes.len() {
        skipped.push("last line is incomplete".into());
    }
    Ok(Corpus {
        header,
        games,
        skipped,
        complete_len: (complete + file.len() - bytes.len()) as u64,
    })
}
