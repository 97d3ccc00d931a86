//! The corpus as sealed chunks: games of a closed run compressed once into
//! `chunks/<series>-<n>.games.zst`, never rewritten, each listed with its
//! SHA-256 in the manifest (`corpus/manifest.tsv`), so that the code's
//! history grows by new files only.
//!
//! A chunk is a whole corpus file ([`super::corpus`]) under zstd: its header
//! line is the run's header with `chunk=FIRST-LAST` (its lowest and highest
//! game index) added, then its games in index order. `zstd -dc` shows it.
//! A run writes an *open* file (`selfplay --corpus corpus/open/NAME.games`,
//! outside git); [`seal`] turns the games of it that no chunk holds yet into
//! new chunks and manifest rows. The open file stays the run's journal, so
//! the run resumes and a later seal adds only what is new.

use super::corpus::{self, is_chunk, read_bytes, CorpusGame, Header};
pub use super::manifest::{read_manifest, sha256_hex, Entry, MANIFEST_COLUMNS};
use crate::files::Writer;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Games in a chunk at most: about 6.5 MB of text and 2 MB sealed, a size
/// that git and a download take in one piece.
pub const CHUNK_GAMES: usize = 50_000;
/// zstd's level for sealing: slow to write (once), as fast as any to read.
const LEVEL: i32 = 19;

/// The header without the fields a chunk adds: the run's own header.
fn run_header(header: &Header) -> Header {
    let mut h = header.clone();
    h.fields.retain(|(k, _)| k != "chunk");
    h
}

/// A game line's placements, counted from its text (no replay).
fn placements(line: &str) -> u64 {
    line.split_whitespace()
        .nth(1)
        .map_or(0, |m| m.len() as u64 / 2)
}

/// What [`seal`] did.
#[derive(Debug, Default)]
pub struct Sealed {
    /// The chunks written, with their games.
    pub chunks: Vec<(PathBuf, u64)>,
    /// Games of the open file that chunks already held.
    pub already: usize,
    /// Lines of the open file that are not games (skipped, with why).
    pub skipped: Vec<String>,
}

/// Seals the games of the open corpus file `open` that no chunk of its
/// series (the file's name without `.games`) holds yet: in index order,
/// [`CHUNK_GAMES`] a chunk, each written as a new file next to the others
/// (`chunks/` beside `manifest`) and listed in `manifest` with `commit` and
/// `made_by`. The open file is locked meanwhile (a run still writing it is
/// refused) and left as it is. Chunks of the series made another way (another
/// header) are refused: a series is one run.
pub fn seal(open: &Path, manifest: &Path, commit: &str, made_by: &str) -> Result<Sealed, String> {
    if is_chunk(open) {
        return Err(format!(
            "{}: is a sealed chunk; seal the open .games file its run writes",
            open.display()
        ));
    }
    let series = open
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".games"))
        .filter(|s| !s.is_empty() && !s.contains(char::is_whitespace))
        .ok_or_else(|| {
            format!(
                "{}: an open corpus file is named SERIES.games",
                open.display()
            )
        })?;
    if commit.is_empty() || commit.contains(char::is_whitespace) {
        return Err("--commit: give the commit whose build made the games".into());
    }
    if made_by.contains(['\t', '\n']) {
        return Err("--made-by: one line without tabs".into());
    }
    crate::files::regular_input(open)?;
    // The lock is the run's own: a selfplay still appending is refused here.
    let _lock = Writer::lock(open)?;
    let mut manifest_writer = Writer::lock(manifest)?;
    let new_manifest = manifest_writer.read()?.is_empty();
    let rows = read_manifest(manifest)?;
    let base = crate::files::folder_of(manifest);
    let c = corpus::read(open)?;
    let header = run_header(&c.header);
    let mut sealed = Sealed {
        skipped: c.skipped.clone(),
        ..Sealed::default()
    };

    let prefix = format!("chunks/{series}-");
    let mut done = HashSet::new();
    let mut next = 0u32;
    for row in rows.iter().filter(|r| r.kind == "chunk") {
        let Some(n) = row
            .file
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".games.zst"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        next = next.max(n + 1);
        let chunk = corpus::read(&base.join(&row.file))?;
        if run_header(&chunk.header) != header {
            return Err(format!(
                "{}: its header is\n  {}\nbut series {series}'s chunks were made as\n  {}\n\
                 (a series is one run: name the open file after a new series)",
                open.display(),
                c.header.to_line(),
                run_header(&chunk.header).to_line()
            ));
        }
        done.extend(chunk.games.iter().map(|g| g.index));
    }

    let mut games: Vec<&CorpusGame> = c
        .games
        .iter()
        .filter(|g| !done.contains(&g.index))
        .collect();
    sealed.already = c.games.len() - games.len();
    games.sort_by_key(|g| g.index);
    let dir = base.join("chunks");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for group in games.chunks(CHUNK_GAMES) {
        let (first, last) = (group[0].index, group[group.len() - 1].index);
        let mut h = header.clone();
        h.fields.push(("chunk".into(), format!("{first}-{last}")));
        let mut text = h.to_line();
        text.push('\n');
        let mut positions = 0;
        for g in group {
            let line = g.to_line();
            positions += placements(&line);
            text.push_str(&line);
            text.push('\n');
        }
        let packed = zstd::bulk::compress(text.as_bytes(), LEVEL)
            .map_err(|e| format!("cannot compress: {e}"))?;
        let name = format!("{series}-{next:03}.games.zst");
        let path = dir.join(&name);
        write_new(&path, &packed)?;
        // Read back as every reader will, before the manifest names it.
        if read_bytes(&path)? != text.as_bytes() {
            return Err(format!("{}: reads back other bytes", path.display()));
        }
        let entry = Entry {
            kind: "chunk".into(),
            file: format!("chunks/{name}"),
            sha256: sha256_hex(&packed),
            games: group.len() as u64,
            positions,
            commit: commit.to_string(),
            made_by: made_by.to_string(),
        };
        if new_manifest && sealed.chunks.is_empty() {
            manifest_writer.append(&format!("{MANIFEST_COLUMNS}\n"))?;
        }
        manifest_writer.append(&format!("{}\n", entry.to_line()))?;
        sealed.chunks.push((path, group.len() as u64));
        next += 1;
    }
    Ok(sealed)
}

/// Writes a file that must not exist yet: a chunk is never replaced.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let shown = path.display();
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{shown}: exists but the manifest does not list it (a seal that was cut short?); \
                 remove it and seal again"
            ),
            _ => format!("{shown}: {e}"),
        })?;
    let written = f.write_all(bytes).and_then(|_| f.sync_all());
    if let Err(e) = written {
        let _ = std::fs::remove_file(path);
        return Err(format!("{shown}: {e}"));
    }
    Ok(())
}

/// One manifest row checked.
#[derive(Debug)]
pub struct Checked {
    pub file: String,
    pub games: u64,
}

/// Checks every row of `manifest`: the file exists with its SHA-256; a
/// chunk holds the games and positions the row says, with no game index
/// that another chunk of its series holds (with `replay`, every game is
/// also replayed through the rules); and every chunk in `chunks/` is
/// listed. Returns the rows checked, or every problem found.
pub fn check(manifest: &Path, replay: bool) -> Result<Vec<Checked>, Vec<String>> {
    let rows = read_manifest(manifest).map_err(|e| vec![e])?;
    let base = crate::files::folder_of(manifest);
    let mut problems = Vec::new();
    let mut out = Vec::new();
    let mut seen_files = HashSet::new();
    let mut indices: std::collections::HashMap<String, HashSet<u64>> = Default::default();
    for row in &rows {
        let path = base.join(&row.file);
        if !seen_files.insert(row.file.clone()) {
            problems.push(format!("{}: listed twice", row.file));
            continue;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                problems.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        if sha256_hex(&bytes) != row.sha256 {
            problems.push(format!(
                "{}: its SHA-256 is {}, the manifest says {}",
                path.display(),
                sha256_hex(&bytes),
                row.sha256
            ));
            continue;
        }
        if row.kind == "chunk" {
            match check_chunk(&path, row, replay) {
                Ok((series, idx)) => {
                    let set = indices.entry(series.clone()).or_default();
                    let before = set.len();
                    let n = idx.len();
                    set.extend(idx);
                    if set.len() != before + n {
                        problems.push(format!(
                            "{}: holds game indices that another chunk of {series} holds",
                            row.file
                        ));
                    }
                }
                Err(e) => {
                    problems.push(format!("{}: {e}", path.display()));
                    continue;
                }
            }
        }
        out.push(Checked {
            file: row.file.clone(),
            games: row.games,
        });
    }
    if let Ok(list) = std::fs::read_dir(base.join("chunks")) {
        for e in list.flatten() {
            let name = format!("chunks/{}", e.file_name().to_string_lossy());
            if is_chunk(Path::new(&name)) && !seen_files.contains(&name) {
                problems.push(format!("{name}: not in the manifest"));
            }
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// A chunk's series and game indices, checked against its manifest row.
fn check_chunk(path: &Path, row: &Entry, replay: bool) -> Result<(String, Vec<u64>), String> {
    let series = row
        .file
        .strip_prefix("chunks/")
        .and_then(|n| n.rsplit_once('-'))
        .map(|(s, _)| s.to_string())
        .ok_or("a chunk is listed as chunks/SERIES-N.games.zst")?;
    let bytes = read_bytes(path)?;
    let (games, positions, idx) = if replay {
        let c = corpus::parse(&bytes)?;
        if let Some(s) = c.skipped.first() {
            return Err(format!("{s} ({} lines skipped)", c.skipped.len()));
        }
        let positions = c.games.iter().map(|g| g.moves.len() as u64).sum();
        let idx: Vec<u64> = c.games.iter().map(|g| g.index).collect();
        (c.games.len() as u64, positions, idx)
    } else {
        let text = std::str::from_utf8(&bytes).map_err(|_| "not UTF-8")?;
        let mut lines = text.lines();
        Header::parse(lines.next().unwrap_or_default())?;
        let (mut games, mut positions, mut idx) = (0, 0, Vec::new());
        for line in lines.filter(|l| !l.is_empty() && !l.starts_with('#')) {
            games += 1;
            positions += placements(line);
            let i = line.split_whitespace().next().unwrap_or_default();
            idx.push(i.parse().map_err(|_| format!("bad game index '{i}'"))?);
        }
        (games, positions, idx)
    };
    if (games, positions) != (row.games, row.positions) {
        return Err(format!(
            "holds {games} games and {positions} positions, the manifest says {} and {}",
            row.games, row.positions
        ));
    }
    Ok((series, idx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::Variant;
    use crate::train::corpus::{chunk_range, game_by, MAX_UNPACKED};

    /// An open corpus file of games `indices` (each the same whole game).
    fn open_file(path: &Path, indices: &[u64]) {
        let h = Header::new(Variant::Modern, 20, &[("seed", "9".into())]);
        let mut text = format!("{}\n", h.to_line());
        for &i in indices {
            let mut g = game_by(Variant::Modern, |m| m.trailing_zeros());
            g.index = i;
            text.push_str(&format!("{}\n", g.to_line()));
        }
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn sealing_twice_adds_only_the_new_games_and_checks_clean() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("manifest.tsv");
        let open = tmp.path().join("m-s9.games");
        open_file(&open, &[2, 0, 1]);
        let s = seal(&open, &manifest, "abc1234", "test").unwrap();
        assert_eq!(s.chunks.len(), 1);
        assert_eq!(s.already, 0);
        let chunk = corpus::read(&s.chunks[0].0).unwrap();
        assert_eq!(chunk_range(&chunk.header), Some((0, 2)));
        assert_eq!(
            chunk.games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // The run goes on; the next seal writes a new chunk of the new games only.
        open_file(&open, &[2, 0, 1, 3, 5]);
        let first = std::fs::read(&s.chunks[0].0).unwrap();
        let s2 = seal(&open, &manifest, "abc1234", "test").unwrap();
        assert_eq!((s2.chunks.len(), s2.already), (1, 3));
        assert!(s2.chunks[0].0.ends_with("chunks/m-s9-001.games.zst"));
        assert_eq!(
            std::fs::read(&s.chunks[0].0).unwrap(),
            first,
            "never rewritten"
        );
        let rows = check(&manifest, true).unwrap();
        assert_eq!(rows.iter().map(|r| r.games).sum::<u64>(), 5);
        // Nothing new: nothing written.
        assert!(seal(&open, &manifest, "abc1234", "test")
            .unwrap()
            .chunks
            .is_empty());
    }

    #[test]
    fn training_reads_a_chunk_as_the_open_file_it_was_sealed_from() {
        use crate::train::corpus::Positions;
        use crate::train::inputs::{corpus_samples, GameLimits};
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("manifest.tsv");
        let open = tmp.path().join("m-s9.games");
        open_file(&open, &[4, 1, 3, 0, 2]);
        let s = seal(&open, &manifest, "abc1234", "test").unwrap();
        let limits = GameLimits::default();
        let from_open = corpus_samples(&open, &limits, Positions::Clean, false).unwrap();
        let from_chunk = corpus_samples(&s.chunks[0].0, &limits, Positions::Clean, false).unwrap();
        assert!(!from_open.is_empty());
        assert_eq!(from_chunk, from_open);
        // And through the file list `mollett train` reads.
        assert_eq!(
            crate::train::read_samples(&s.chunks[0].0).unwrap(),
            crate::train::read_samples(&open).unwrap()
        );
    }

    #[test]
    fn a_changed_chunk_or_an_unlisted_one_fails_the_check() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("manifest.tsv");
        let open = tmp.path().join("m-s9.games");
        open_file(&open, &[0, 1]);
        let s = seal(&open, &manifest, "abc1234", "test").unwrap();
        std::fs::copy(
            &s.chunks[0].0,
            tmp.path().join("chunks/stray-000.games.zst"),
        )
        .unwrap();
        let mut bytes = std::fs::read(&s.chunks[0].0).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&s.chunks[0].0, bytes).unwrap();
        let problems = check(&manifest, false).unwrap_err();
        assert!(
            problems.iter().any(|p| p.contains("SHA-256")),
            "{problems:?}"
        );
        assert!(problems
            .iter()
            .any(|p| p.contains("stray-000.games.zst: not in the manifest")));
    }

    #[test]
    fn a_series_is_one_run_and_a_chunk_is_not_an_open_file() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = tmp.path().join("manifest.tsv");
        let open = tmp.path().join("m-s9.games");
        open_file(&open, &[0]);
        let s = seal(&open, &manifest, "abc1234", "test").unwrap();
        let other = Header::new(Variant::Modern, 18, &[("seed", "9".into())]);
        std::fs::write(&open, format!("{}\n", other.to_line())).unwrap();
        let e = seal(&open, &manifest, "abc1234", "test").unwrap_err();
        assert!(e.contains("a series is one run"), "{e}");
        let e = seal(&s.chunks[0].0, &manifest, "abc1234", "test").unwrap_err();
        assert!(e.contains("sealed chunk"), "{e}");
    }

    #[test]
    fn a_bomb_or_noise_is_refused_not_unpacked() {
        let tmp = tempfile::tempdir().unwrap();
        let noise = tmp.path().join("n.games.zst");
        std::fs::write(&noise, b"not zstd at all").unwrap();
        assert!(read_bytes(&noise).unwrap_err().contains("not a zstd chunk"));
        let bomb = tmp.path().join("b.games.zst");
        let zeros = vec![0u8; (MAX_UNPACKED + 1) as usize];
        std::fs::write(&bomb, zstd::bulk::compress(&zeros, 1).unwrap()).unwrap();
        assert!(read_bytes(&bomb).unwrap_err().contains("more than"));
    }
}
