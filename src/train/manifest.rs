//! The manifest (`corpus/manifest.tsv`): every sealed data file (a corpus
//! chunk, weights, a book) with its SHA-256, its counts, and the commit and
//! command that made it.

use sha2::{Digest, Sha256};
use std::path::Path;

/// The manifest's first line: its columns.
pub const MANIFEST_COLUMNS: &str = "# kind\tfile\tsha256\tgames\tpositions\tcommit\tmade_by";

/// The SHA-256 of `bytes` in lower-case hex, as `sha256sum` prints it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One row of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `chunk` for corpus chunks; other data (weights, books) has its own kind.
    pub kind: String,
    /// Path relative to the manifest's folder, `/`-separated.
    pub file: String,
    pub sha256: String,
    /// Games and positions (placements) of a chunk; 0 for other kinds.
    pub games: u64,
    pub positions: u64,
    /// The commit whose build made the data.
    pub commit: String,
    /// The command that made it.
    pub made_by: String,
}

impl Entry {
    pub fn to_line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.kind,
            self.file,
            self.sha256,
            self.games,
            self.positions,
            self.commit,
            self.made_by
        )
    }

    pub fn parse(line: &str) -> Result<Entry, String> {
        let f: Vec<&str> = line.splitn(7, '\t').collect();
        if f.len() != 7 {
            return Err(format!(
                "expected 7 tab-separated fields, found {}",
                f.len()
            ));
        }
        let number = |s: &str, what: &str| {
            s.parse::<u64>()
                .map_err(|_| format!("bad {what} count '{s}'"))
        };
        if f[2].len() != 64 || !f[2].bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("bad sha256 '{}'", f[2]));
        }
        Ok(Entry {
            kind: f[0].to_string(),
            file: f[1].to_string(),
            sha256: f[2].to_ascii_lowercase(),
            games: number(f[3], "games")?,
            positions: number(f[4], "positions")?,
            commit: f[5].to_string(),
            made_by: f[6].to_string(),
        })
    }
}

/// The manifest's rows; a missing file has none.
pub fn read_manifest(path: &Path) -> Result<Vec<Entry>, String> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = crate::rules::text::read_text(path)?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(Entry::parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?);
    }
    Ok(out)
}
