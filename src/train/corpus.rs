//! The self-play corpus: whole games, one a line, that accumulate across
//! runs and machines and from which every training set is derived.
//!
//! ```text
//! # mollett-corpus 1 variant=modern depth=6 exact=20 random_plies=8 random_prob=0.1 eval=learned seed=1 bench=2247393
//! 17 F5d6c3D3c4f4f6f3e6e7d7c5b6... +12
//! ```
//!
//! The header names how the games were made; `mollett selfplay --corpus`
//! refuses to append games made another way. A game line is its index `k`
//! (game `k` depends only on the header's seed and `k`), its moves from the
//! variant's start run together with passes left out (a side that cannot move
//! passes, so passes are implied), and the final disc difference, black minus
//! white. A move in capitals was not searched: chosen at random (opening or
//! exploration) or given (the tournament game a `--wthor` game starts from);
//! lower-case moves were searched, and from `exact` empties down every move is
//! a perfect one, so the result is the exact value of those positions.
//!
//! Reading replays every game through the rules: a line whose moves are
//! illegal, whose game does not end, or whose result disagrees with the final
//! board is skipped with its line number, and the rest is kept.

use super::sample::Sample;
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

/// First word of a corpus header.
pub const MAGIC: &str = "# mollett-corpus 1";
/// The most bytes a chunk may unpack to; a larger one (a decompression
/// bomb, or not a chunk) is refused before it fills memory.
pub const MAX_UNPACKED: u64 = 256 << 20;

/// One game of the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusGame {
    /// Game index within its run (with the header's seed it fixes the game).
    pub index: u64,
    /// Placements in order, passes left out; `true` marks a random choice.
    pub moves: Vec<(Square, bool)>,
    /// Final disc difference, black minus white.
    pub result: i32,
}

impl CorpusGame {
    /// The record's line (without newline).
    pub fn to_line(&self) -> String {
        let mut s = format!("{} ", self.index);
        for &(sq, random) in &self.moves {
            let t = sq.to_string();
            if random {
                s.push_str(&t.to_ascii_uppercase());
            } else {
                s.push_str(&t);
            }
        }
        s.push_str(&format!(" {:+}", self.result));
        s
    }

    /// Parses a game line and replays it under `variant`'s rules, checking
    /// legality, that the game ended, and the result.
    pub fn parse(line: &str, variant: Variant) -> Result<CorpusGame, String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 {
            return Err(format!("expected 3 fields, found {}", f.len()));
        }
        let index: u64 = f[0].parse().map_err(|_| format!("bad index '{}'", f[0]))?;
        let text = f[1].as_bytes();
        if !text.len().is_multiple_of(2) || text.len() > 2 * 64 || !f[1].is_ascii() {
            return Err("bad move list".into());
        }
        let mut moves = Vec::with_capacity(text.len() / 2);
        for pair in f[1].as_bytes().chunks(2) {
            let t = std::str::from_utf8(pair).map_err(|_| "bad move list".to_string())?;
            let sq: Square = t.parse().map_err(|_| format!("bad move '{t}'"))?;
            moves.push((sq, pair[0].is_ascii_uppercase()));
        }
        let result: i32 = f[2].parse().map_err(|_| format!("bad result '{}'", f[2]))?;
        let rec = CorpusGame {
            index,
            moves,
            result,
        };
        let end = rec.replay(variant, |_, _| {})?;
        if !end.is_game_over() {
            return Err("the game does not end".into());
        }
        let black = end.discs_of(Color::Black).count_ones() as i32;
        let white = end.discs_of(Color::White).count_ones() as i32;
        if black - white != rec.result {
            return Err(format!(
                "result {:+} but the final board is {black}-{white}",
                rec.result
            ));
        }
        Ok(rec)
    }

    /// How many of the game's first positions have a result that a random
    /// move after the opening decided in part: those up to its last random
    /// move that follows a searched one (0 when there is none). The opening's
    /// random or tournament moves come before any searched move and spoil
    /// nothing.
    pub fn spoiled_plies(&self) -> usize {
        let Some(first_searched) = self.moves.iter().position(|&(_, random)| !random) else {
            return 0;
        };
        self.moves
            .iter()
            .rposition(|&(_, random)| random)
            .filter(|&i| i > first_searched)
            .map_or(0, |i| i + 1)
    }

    /// Plays the moves from the variant's start, passing where a side cannot
    /// move; calls `visit` with every position that has a move, before the
    /// move, and the move's random flag. Returns the last position.
    pub fn replay(
        &self,
        variant: Variant,
        mut visit: impl FnMut(&Position, bool),
    ) -> Result<Position, String> {
        let mut pos = Position::start(variant, Color::Black);
        for (i, &(sq, random)) in self.moves.iter().enumerate() {
            if pos.must_pass() {
                pos = pos.pass();
            }
            visit(&pos, random);
            pos = pos
                .play(Move::Place(sq))
                .ok_or_else(|| format!("move {} ({sq}) is illegal", i + 1))?;
        }
        if pos.must_pass() {
            pos = pos.pass();
        }
        Ok(pos)
    }
}

/// How a corpus file's games were made (its header line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: Variant,
    /// Games are exact (perfect play) from this many empties down.
    pub exact: u32,
    /// The whole `key=value` list, compared when a run appends.
    pub fields: Vec<(String, String)>,
}

impl Header {
    pub fn new(variant: Variant, exact: u32, more: &[(&str, String)]) -> Header {
        let mut fields = vec![
            ("variant".to_string(), variant.name().to_string()),
            ("exact".to_string(), exact.to_string()),
        ];
        fields.extend(more.iter().map(|(k, v)| (k.to_string(), v.clone())));
        Header {
            variant,
            exact,
            fields,
        }
    }

    pub fn to_line(&self) -> String {
        let mut s = MAGIC.to_string();
        for (k, v) in &self.fields {
            s.push_str(&format!(" {k}={v}"));
        }
        s
    }

    pub fn parse(line: &str) -> Result<Header, String> {
        let rest = line
            .strip_prefix(MAGIC)
            .ok_or_else(|| format!("not a corpus header (expected '{MAGIC} ...')"))?;
        let mut fields = Vec::new();
        for word in rest.split_whitespace() {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("bad header field '{word}'"))?;
            fields.push((k.to_string(), v.to_string()));
        }
        let get = |key: &str| {
            fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("header has no {key}="))
        };
        let variant = Variant::parse(get("variant")?).ok_or("header: bad variant")?;
        let exact = get("exact")?.parse().map_err(|_| "header: bad exact")?;
        Ok(Header {
            variant,
            exact,
            fields,
        })
    }

    /// The value of `key`, if the header has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

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

/// A chunk's range of game indices, from its header's `chunk=` field.
pub fn chunk_range(header: &Header) -> Option<(u64, u64)> {
    let (a, b) = header.get("chunk")?.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
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

/// Which of a corpus game's positions become training samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every position with a move.
    All,
    /// Without the game's first [`CorpusGame::spoiled_plies`] positions,
    /// whose label carries a later random move's loss.
    Clean,
}

/// The training samples of a corpus: every position with a move (classic's
/// free placements left out; with [`Positions::Clean`], the spoiled ones
/// too), labelled with the game's final disc difference from its side to
/// move; exact from the header's `exact` empties down.
pub fn samples(corpus: &Corpus, positions: Positions) -> Vec<Sample> {
    let mut out = Vec::new();
    // By index, so that the samples do not depend on the order in which
    // the threads of a run happened to finish their games.
    let mut games: Vec<&CorpusGame> = corpus.games.iter().collect();
    games.sort_by_key(|g| g.index);
    for g in games {
        let spoiled = match positions {
            Positions::All => 0,
            Positions::Clean => g.spoiled_plies(),
        };
        let mut ply = 0;
        let _ = g.replay(corpus.header.variant, |pos, _| {
            ply += 1;
            if pos.in_classic_opening() || ply <= spoiled {
                return;
            }
            let exact = pos.empty_count() <= corpus.header.exact;
            out.push(Sample::of_game(*pos, g.result, exact));
        });
    }
    out
}

/// For tests: a whole game (index 3), `pick` choosing each move from the legal ones.
#[cfg(test)]
pub(super) fn game_by(variant: Variant, pick: fn(u64) -> u32) -> CorpusGame {
    let mut pos = Position::start(variant, Color::Black);
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.pass();
        }
        let sq = Square::from_index(pick(pos.moves()));
        moves.push((sq, moves.len() % 7 == 0));
        pos = pos.play(Move::Place(sq)).unwrap();
    }
    let b = pos.discs_of(Color::Black).count_ones() as i32;
    let w = pos.discs_of(Color::White).count_ones() as i32;
    CorpusGame {
        index: 3,
        moves,
        result: b - w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole game played by always taking the first legal move.
    fn first_move_game(variant: Variant) -> CorpusGame {
        game_by(variant, |moves| moves.trailing_zeros())
    }

    #[test]
    fn game_lines_round_trip_and_replay_to_their_result() {
        for variant in [Variant::Modern, Variant::Classic] {
            let g = first_move_game(variant);
            let line = g.to_line();
            assert!(line.starts_with("3 "));
            assert_eq!(CorpusGame::parse(&line, variant).unwrap(), g);
        }
    }

    #[test]
    fn impossible_game_lines_are_refused() {
        let g = first_move_game(Variant::Modern);
        let line = g.to_line();
        let wrong_result = format!("{} {}", &line[..line.rfind(' ').unwrap()], g.result + 2);
        assert!(CorpusGame::parse(&wrong_result, Variant::Modern)
            .unwrap_err()
            .contains("final board"));
        let short = format!("3 {} +0", &line[2..40]);
        assert!(CorpusGame::parse(&short, Variant::Modern)
            .unwrap_err()
            .contains("does not end"));
        assert!(CorpusGame::parse("3 a1a1 +0", Variant::Modern)
            .unwrap_err()
            .contains("illegal"));
        assert!(CorpusGame::parse("x f5 +0", Variant::Modern).is_err());
        assert!(CorpusGame::parse("3 f5 +nan", Variant::Modern).is_err());
    }

    #[test]
    fn samples_follow_the_game_index_not_the_line_order() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        let first = first_move_game(Variant::Modern);
        let mut last = game_by(Variant::Modern, |moves| 63 - moves.leading_zeros());
        last.index = 7;
        assert_ne!(first.moves, last.moves);
        let file = |a: &CorpusGame, b: &CorpusGame| {
            format!("{}\n{}\n{}\n", h.to_line(), a.to_line(), b.to_line())
        };
        let one = samples(
            &parse(file(&first, &last).as_bytes()).unwrap(),
            Positions::All,
        );
        let other = samples(
            &parse(file(&last, &first).as_bytes()).unwrap(),
            Positions::All,
        );
        assert_eq!(one, other);
        assert_eq!(one[0].pos, Position::start(Variant::Modern, Color::Black));
    }

    #[test]
    fn clean_labels_leave_out_the_positions_a_later_random_move_decided() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        // Random moves at plies 0, 7, ..., 56: the first is the opening's.
        let g = first_move_game(Variant::Modern);
        let last_random = (g.moves.len() - 1) / 7 * 7;
        assert!(last_random > 7 && g.moves[last_random].1);
        assert_eq!(g.spoiled_plies(), last_random + 1);
        let c = parse(format!("{}\n{}\n", h.to_line(), g.to_line()).as_bytes()).unwrap();
        let all = samples(&c, Positions::All);
        let clean = samples(&c, Positions::Clean);
        assert_eq!(all.len(), g.moves.len());
        assert_eq!(clean[..], all[last_random + 1..]);

        // Random or tournament moves before the first searched one spoil nothing.
        let mut opening = g.clone();
        for (i, m) in opening.moves.iter_mut().enumerate() {
            m.1 = i < 8;
        }
        assert_eq!(opening.spoiled_plies(), 0);
        // A random move in the middle spoils the positions up to and including its own.
        opening.moves[30].1 = true;
        assert_eq!(opening.spoiled_plies(), 31);
        // A game of random moves only has no searched move to spoil.
        let mut random = g.clone();
        random.moves.iter_mut().for_each(|m| m.1 = true);
        assert_eq!(random.spoiled_plies(), 0);
    }

    #[test]
    fn a_corpus_keeps_good_games_and_names_bad_lines() {
        let h = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        let g = first_move_game(Variant::Modern);
        let mut other = g.clone();
        other.index = 4;
        let text = format!(
            "\u{feff}{}\n{}\n3 f5 +0\n\u{ff}\n{}\n{}\n{}",
            h.to_line(),
            g.to_line(),
            g.to_line(),
            other.to_line(),
            &other.to_line()[..10]
        );
        let mut bytes = text.into_bytes();
        // A line of bytes that are not UTF-8.
        let pos = bytes.windows(2).position(|w| w == [0xC3, 0xBF]).unwrap();
        bytes.splice(pos..pos + 2, [0xFF]);
        let c = parse(&bytes).unwrap();
        assert_eq!(c.header, h);
        assert_eq!(
            c.games.iter().map(|g| g.index).collect::<Vec<_>>(),
            vec![3, 4]
        );
        assert_eq!(c.skipped.len(), 4, "{:?}", c.skipped);
        assert!(c.skipped[0].starts_with("line 3:"));
        assert!(c.skipped[1].starts_with("line 4: not UTF-8"));
        assert!(c.skipped[2].contains("repeated"));
        assert!(c.skipped[3].contains("incomplete"));
        // The torn tail is not part of the complete length.
        assert_eq!(c.complete_len as usize, bytes.len() - 10);
        let samples = samples(&c, Positions::All);
        assert_eq!(samples.len(), 2 * g.moves.len());
        assert!(samples.iter().all(|s| s.score.abs() <= 64.0));
        assert!(parse(b"f5d6 +0\n").is_err());
    }
}
