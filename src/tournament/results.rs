//! Result files: one line per finished game, read back for `--resume` and
//! `mollett report`, and GGF records that NBoard opens.
//!
//! A result line is space-separated `key=value` fields (unknown keys are
//! ignored when read, so the format can grow; `#` starts a comment line):
//!
//! ```text
//! game=0 pair=0 black=mollett white=rhino variant=modern opening=0 start=startpos book=2 moves=f5d6c3... discs=40-24 result=1-0 reason=normal time=12.345/10.100
//! ```

use super::referee::Played;
use super::types::Reason;
use crate::rules::color::{Color, Variant};
use crate::rules::moveline::{moves_text, parse_moves};
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::fmt::Write as _;
use std::path::Path;

/// The outcome from black's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    BlackWins,
    WhiteWins,
    Draw,
}

impl Outcome {
    pub fn text(self) -> &'static str {
        match self {
            Outcome::BlackWins => "1-0",
            Outcome::WhiteWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "1-0" => Some(Outcome::BlackWins),
            "0-1" => Some(Outcome::WhiteWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
    /// Black's points.
    pub fn black_points(self) -> f64 {
        match self {
            Outcome::BlackWins => 1.0,
            Outcome::WhiteWins => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// One game as written in the result file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Index in the deterministic game list: the game's identity.
    pub index: usize,
    /// Games of one pair share an opening, colours swapped.
    pub pair: usize,
    pub black: String,
    /// The engine playing the second colour (white, or red in classic).
    pub white: String,
    pub variant: Variant,
    /// Index in the openings list, `None` without openings.
    pub opening: Option<usize>,
    /// `None` for the variant's start position, else the starting board.
    pub start: Option<Position>,
    /// Plies at the start of `moves` that came from the opening.
    pub book: usize,
    pub moves: Vec<Move>,
    /// Black's and the second colour's discs at the end.
    pub discs: [u32; 2],
    pub outcome: Outcome,
    pub reason: Reason,
    /// Seconds used by black and by the second colour.
    pub time: [f64; 2],
}

impl GameRecord {
    /// The position the game was played from (`start`, or the variant's start).
    pub fn start_position(&self) -> Position {
        self.start
            .unwrap_or_else(|| Position::start(self.variant, Color::Black))
    }

    /// Builds the record of a refereed game.
    pub fn from_played(
        index: usize,
        pair: usize,
        names: [&str; 2],
        opening: Option<usize>,
        standard_start: bool,
        p: &Played,
    ) -> GameRecord {
        GameRecord {
            index,
            pair,
            black: names[0].to_string(),
            white: names[1].to_string(),
            variant: p.start.variant,
            opening,
            start: if standard_start { None } else { Some(p.start) },
            book: p.book,
            moves: p.moves.clone(),
            discs: p.discs(),
            outcome: match p.winner {
                Some(Color::Black) => Outcome::BlackWins,
                Some(Color::White) => Outcome::WhiteWins,
                None => Outcome::Draw,
            },
            reason: p.reason,
            // Kept at the millisecond precision of the result line, so a report
            // built from the file equals the one built during the run.
            time: p.used.map(|t| (t * 1000.0).round() / 1000.0),
        }
    }

    /// Points `engine` took from this game (`None` if it did not play).
    pub fn points_of(&self, engine: &str) -> Option<f64> {
        if self.black == engine {
            Some(self.outcome.black_points())
        } else if self.white == engine {
            Some(1.0 - self.outcome.black_points())
        } else {
            None
        }
    }

    /// Disc difference from `engine`'s view (black minus second colour for black).
    pub fn margin_of(&self, engine: &str) -> i32 {
        let d = self.discs[0] as i32 - self.discs[1] as i32;
        if self.black == engine {
            d
        } else {
            -d
        }
    }

    /// The engine that lost by fault, if any.
    pub fn loser(&self) -> Option<&str> {
        match self.outcome {
            Outcome::BlackWins => Some(&self.white),
            Outcome::WhiteWins => Some(&self.black),
            Outcome::Draw => None,
        }
    }

    pub fn to_line(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "game={} pair={} black={} white={} variant={} opening={} start={} book={} moves={} discs={}-{} result={} reason={} time={:.3}/{:.3}",
            self.index,
            self.pair,
            self.black,
            self.white,
            self.variant,
            self.opening.map_or("-".to_string(), |o| o.to_string()),
            self.start
                .map_or("startpos".to_string(), |p| p.to_obf().replace(' ', "")),
            self.book,
            if self.moves.is_empty() {
                "-".to_string()
            } else {
                moves_text(&self.moves)
            },
            self.discs[0],
            self.discs[1],
            self.outcome.text(),
            self.reason.name(),
            self.time[0],
            self.time[1],
        );
        s
    }

    /// Reads a line written by [`GameRecord::to_line`].
    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let mut get = std::collections::HashMap::new();
        for tok in line.split_whitespace() {
            if let Some((k, v)) = tok.split_once('=') {
                get.insert(k, v);
            }
        }
        let field = |k: &str| get.get(k).copied().ok_or_else(|| format!("no {k}="));
        let num = |k: &str| -> Result<usize, String> {
            field(k)?.parse().map_err(|_| format!("bad {k}="))
        };
        let variant = Variant::parse(field("variant")?).ok_or("bad variant=")?;
        let start = match field("start")? {
            "startpos" => None,
            b if b.len() == 65 => {
                // Bytes: a wide character may straddle the cut (not a board then).
                let (board, side) = b.split_at_checked(64).ok_or("bad start=")?;
                Some(
                    Position::from_obf(board, side, variant, None)
                        .map_err(|e| format!("bad start=: {e}"))?,
                )
            }
            _ => return Err("bad start=".into()),
        };
        let moves = match field("moves")? {
            "-" => Vec::new(),
            m => parse_moves(m)?,
        };
        let (b, w) = field("discs")?.split_once('-').ok_or("bad discs=")?;
        let discs = [
            b.parse().map_err(|_| "bad discs=")?,
            w.parse().map_err(|_| "bad discs=")?,
        ];
        let (tb, tw) = field("time")?.split_once('/').ok_or("bad time=")?;
        let seconds = |t: &str| -> Result<f64, String> {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                // At the millisecond precision `to_line` writes, so a record
                // read from a line is written back as the same record.
                .and_then(|x| format!("{x:.3}").parse().ok())
                .ok_or_else(|| "bad time=".to_string())
        };
        let record = GameRecord {
            index: num("game")?,
            pair: num("pair")?,
            black: field("black")?.to_string(),
            white: field("white")?.to_string(),
            variant,
            opening: match field("opening")? {
                "-" => None,
                o => Some(o.parse().map_err(|_| "bad opening=")?),
            },
            start,
            book: num("book")?,
            moves,
            discs,
            outcome: Outcome::parse(field("result")?).ok_or("bad result=")?,
            reason: Reason::parse(field("reason")?).ok_or("bad reason=")?,
            time: [seconds(tb)?, seconds(tw)?],
        };
        record.check()?;
        Ok(record)
    }

    /// Believes no engine, nor the file: the moves must replay under the
    /// rules from the start, to the recorded discs; a game ended normally
    /// must be over, with the result its discs give; a forfeit has a winner.
    fn check(&self) -> Result<(), String> {
        if self.book > self.moves.len() {
            return Err(format!("book={} but {} moves", self.book, self.moves.len()));
        }
        let mut pos = self.start_position();
        for (i, &mv) in self.moves.iter().enumerate() {
            pos = pos
                .play(mv)
                .ok_or_else(|| format!("move {} ({mv}) is illegal", i + 1))?;
        }
        let discs = [
            pos.discs_of(Color::Black).count_ones(),
            pos.discs_of(Color::White).count_ones(),
        ];
        if discs != self.discs {
            return Err(format!(
                "discs={}-{} but the moves end with {}-{}",
                self.discs[0], self.discs[1], discs[0], discs[1]
            ));
        }
        if self.reason == Reason::Normal {
            if !pos.is_game_over() {
                return Err("reason=normal but the game is not over".into());
            }
            let by_discs = match discs[0].cmp(&discs[1]) {
                std::cmp::Ordering::Greater => Outcome::BlackWins,
                std::cmp::Ordering::Less => Outcome::WhiteWins,
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            if by_discs != self.outcome {
                return Err(format!(
                    "result={} but the discs are {}-{}",
                    self.outcome.text(),
                    discs[0],
                    discs[1]
                ));
            }
        } else if self.outcome == Outcome::Draw {
            return Err(format!("reason={} needs a winner", self.reason.name()));
        }
        Ok(())
    }
}

/// A result file as read: its records, and the length of its whole lines.
#[derive(Debug)]
pub struct ResultFile {
    pub records: Vec<GameRecord>,
    /// Bytes up to the end of the last whole line: a run that appends cuts
    /// a torn last line off to this, and its game is played again.
    pub whole_len: u64,
    /// The lines skipped, as the warnings on stderr name them (a torn last
    /// line included): the report page lists them too.
    pub skipped: Vec<String>,
}

/// Reads a result file (see [`parse_results`]).
pub fn read_results(path: &Path) -> Result<Vec<GameRecord>, String> {
    read_result_file(path).map(|f| f.records)
}

/// Reads a result file, keeping the skipped lines' names (see [`parse_results`]).
pub fn read_result_file(path: &Path) -> Result<ResultFile, String> {
    crate::files::regular_input(path)?;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_results(path, std::io::BufReader::new(file))
}

/// Parses the result file `path`, read from `reader` a line at a time.
/// Lines that do not parse are skipped with a warning, and so are a line
/// over [`MAX_RECORD_LINE`](crate::files::MAX_RECORD_LINE) bytes (never held
/// whole) and a last line without its newline (a run killed while writing
/// it: it may parse and still be cut short, as in `time=0.311/0.`). A file
/// with lines of which none is a result is refused: it is not a result file.
pub fn parse_results(path: &Path, reader: impl std::io::BufRead) -> Result<ResultFile, String> {
    use crate::files::{read_lines, MAX_RECORD_LINE};
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let then = "; --resume plays its game again";
    let read = read_lines(path, reader, MAX_RECORD_LINE, then, |line| {
        let at = format!("{}:{}", path.display(), line.number);
        let raw = match line.text {
            Ok(raw) => raw,
            Err(len) => {
                bad.push(format!("{at}: skipped: {}", crate::files::too_long(len)));
                return;
            }
        };
        let Ok(line) = std::str::from_utf8(&raw) else {
            bad.push(format!("{at}: skipped: not UTF-8"));
            return;
        };
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            return;
        }
        match GameRecord::parse(t) {
            Ok(r) => out.push(r),
            Err(e) => bad.push(format!("{at}: skipped: {e}")),
        }
    })?;
    if out.is_empty() && !bad.is_empty() {
        return Err(format!(
            "{}: not a result file ({} lines, none a result; the first: {})",
            path.display(),
            bad.len(),
            bad[0]
        ));
    }
    for b in &bad {
        log::warn!("{b}");
    }
    if let Some(len) = read.torn {
        // Warned by read_lines, in its own words.
        bad.push(format!(
            "{}: skipped: the last line has no end ({len} bytes)",
            path.display(),
        ));
    }
    Ok(ResultFile {
        records: out,
        whole_len: read.whole_len,
        skipped: bad,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole legal game (first legal move each ply) as a record.
    fn whole_game() -> GameRecord {
        let mut pos = Position::start(Variant::Modern, Color::Black);
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            let mv = pos.legal_moves()[0];
            moves.push(mv);
            pos = pos.play(mv).unwrap();
        }
        let discs = [
            pos.discs_of(Color::Black).count_ones(),
            pos.discs_of(Color::White).count_ones(),
        ];
        GameRecord {
            index: 7,
            pair: 3,
            black: "a".into(),
            white: "b".into(),
            variant: Variant::Modern,
            opening: Some(2),
            start: None,
            book: 2,
            moves,
            discs,
            outcome: match discs[0].cmp(&discs[1]) {
                std::cmp::Ordering::Greater => Outcome::BlackWins,
                std::cmp::Ordering::Less => Outcome::WhiteWins,
                std::cmp::Ordering::Equal => Outcome::Draw,
            },
            reason: Reason::Normal,
            time: [1.5, 2.25],
        }
    }

    #[test]
    fn lines_round_trip() {
        let r = whole_game();
        let line = r.to_line();
        assert_eq!(GameRecord::parse(&line), Ok(r.clone()));
        // A forfeit from a given board, before any move.
        let start = Position::start(Variant::Modern, Color::Black);
        let r2 = GameRecord {
            start: Some(start),
            opening: None,
            book: 0,
            moves: vec![],
            discs: [2, 2],
            outcome: Outcome::WhiteWins,
            reason: Reason::Time,
            ..r
        };
        assert_eq!(GameRecord::parse(&r2.to_line()), Ok(r2));
        assert!(GameRecord::parse("game=1 pair=0").is_err());
    }

    /// The result file is not believed: impossible lines are refused.
    #[test]
    fn impossible_lines_are_refused() {
        let line = whole_game().to_line();
        let field = |k: &str| {
            let start = line.find(&format!(" {k}=")).unwrap() + 1;
            let end = line[start..].find(' ').map_or(line.len(), |e| start + e);
            line[start..end].to_string()
        };
        let with = |k: &str, v: &str| line.replace(&field(k), &format!("{k}={v}"));
        let flipped = if field("result") == "result=1-0" {
            "0-1"
        } else {
            "1-0"
        };
        for (bad, why) in [
            (with("discs", "64-0"), "discs=64-0"),
            (with("result", flipped), "result="),
            (with("moves", "a1a1a1h8"), "illegal"),
            (with("moves", "f5d6"), "discs="),
            (with("time", "-5/nan"), "bad time="),
            (with("time", "1.5/"), "bad time="),
            (with("book", "99"), "book=99"),
            (
                with("reason", "time")
                    .replace("result=1-0", "result=1/2-1/2")
                    .replace("result=0-1", "result=1/2-1/2"),
                "needs a winner",
            ),
        ] {
            let err = GameRecord::parse(&bad).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
        // A line cut inside time=.
        assert!(GameRecord::parse(&line[..line.rfind('/').unwrap()]).is_err());
    }

    #[test]
    fn a_file_keeps_its_good_lines_and_names_the_bad_ones() {
        let tmp = tempfile::Builder::new()
            .prefix("mollett-record-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        let path = dir.join("games.txt");
        let good = whole_game().to_line();
        let mut bytes = format!("{good}\n").into_bytes();
        bytes.extend_from_slice(b"game=8 \xff\xfe\n");
        bytes.extend_from_slice(good.replace("game=7", "game=9").as_bytes());
        bytes.push(b'\n');
        std::fs::write(&path, &bytes).unwrap();
        let records = read_results(&path).unwrap();
        assert_eq!(records.iter().map(|r| r.index).collect::<Vec<_>>(), [7, 9]);
        std::fs::write(&path, b"\xff\n").unwrap();
        assert!(read_results(&path)
            .unwrap_err()
            .contains("not a result file"));
    }
}
