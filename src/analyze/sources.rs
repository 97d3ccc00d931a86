//! The games `mollett analyze` reads: GGF files, WTHOR `.wtb` files (the
//! players' and tournaments' names from `WTHOR.JOU` and `WTHOR.TRN` beside
//! them), the match runner's result files and transcripts (one game a line).

use crate::rules::color::{Color, Variant};
use crate::rules::ggf::GgfGame;
use crate::rules::moveline::parse_game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::rules::wthor;
use crate::tournament::results::read_result_file;
use std::path::Path;

/// A game to review: where it comes from, who played it, what was played.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewGame {
    /// `FILE:N`: the file and the game's number in it, from 1.
    pub id: String,
    pub black: String,
    /// The second colour's player (white, or red in classic).
    pub white: String,
    /// Where it was played, when the file says (WTHOR's tournament, GGF's `PC`).
    pub event: Option<String>,
    pub start: Position,
    /// Every ply from `start`, passes included.
    pub moves: Vec<Move>,
    /// WTHOR's theoretical score: black minus white with perfect play from
    /// the position at that many empties, `(score, empties)`.
    pub theoretical: Option<(i32, u32)>,
}

impl ReviewGame {
    /// The positions before each ply, with the ply.
    pub fn plies(&self) -> Vec<(Position, Move)> {
        let mut pos = self.start;
        let mut out = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            out.push((pos, mv));
            pos = pos.play(mv).expect("moves checked when read");
        }
        out
    }
}

/// What kind of file a path is, by its name and first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Wthor,
    Ggf,
    Results,
    Transcripts,
    /// `mollett analyze --out` or `--json` lines: moves already reviewed.
    Analysis,
}

pub fn file_kind(path: &Path, head: &str) -> FileKind {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let first = head
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    match (ext.as_str(), first) {
        ("wtb", _) => FileKind::Wthor,
        ("ggf", _) => FileKind::Ggf,
        (_, Some(l)) if l.starts_with("(;") => FileKind::Ggf,
        (_, Some(l)) if l.starts_with('{') => FileKind::Analysis,
        (_, Some(l)) if l.starts_with("game=") => FileKind::Results,
        _ => FileKind::Transcripts,
    }
}

/// The games of `path` (not an analysis file), transcripts read in `variant`.
pub fn read_games(
    path: &Path,
    kind: FileKind,
    variant: Variant,
) -> Result<Vec<ReviewGame>, String> {
    let name = path.display().to_string();
    let id = |n: usize| format!("{name}:{n}");
    match kind {
        FileKind::Wthor => read_wthor(path),
        FileKind::Ggf => {
            let text = crate::rules::text::read_text(path)?;
            let games = crate::rules::ggf::parse_all(&text).map_err(|e| format!("{name}: {e}"))?;
            games
                .iter()
                .enumerate()
                .map(|(i, g)| ggf_game(g, id(i + 1)))
                .collect()
        }
        FileKind::Results => Ok(read_result_file(path)?
            .records
            .into_iter()
            .enumerate()
            .map(|(i, r)| ReviewGame {
                id: id(i + 1),
                event: None,
                start: r.start_position(),
                black: r.black,
                white: r.white,
                moves: r.moves,
                theoretical: None,
            })
            .collect()),
        FileKind::Transcripts => {
            let text = crate::rules::text::read_text(path)?;
            let mut out = Vec::new();
            for (n, line) in text.lines().enumerate() {
                let t = line.trim();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                let at = format!("{name}:{}", n + 1);
                let start = Position::start(variant, Color::Black);
                let moves = parse_game(t, start).map_err(|e| format!("{at}: {e}"))?;
                out.push(ReviewGame {
                    id: at,
                    event: None,
                    black: "black".into(),
                    white: Color::White.name(variant).into(),
                    start,
                    moves,
                    theoretical: None,
                });
            }
            Ok(out)
        }
        FileKind::Analysis => Err(format!("{name}: an analysis file holds no games to review")),
    }
}

/// `moves` from `start` are legal (a pass only where it is forced).
fn checked(start: Position, moves: &[Move]) -> Result<(), String> {
    let mut pos = start;
    for (i, &mv) in moves.iter().enumerate() {
        pos = pos
            .play(mv)
            .ok_or_else(|| format!("move {} ({mv}) is illegal", i + 1))?;
    }
    Ok(())
}

fn ggf_game(g: &GgfGame, id: String) -> Result<ReviewGame, String> {
    let moves: Vec<Move> = g.moves.iter().map(|m| m.mv).collect();
    checked(g.start, &moves).map_err(|e| format!("{id}: {e}"))?;
    Ok(ReviewGame {
        id,
        event: g.place.clone(),
        black: g.black.clone().unwrap_or_else(|| "black".into()),
        white: g
            .white
            .clone()
            .unwrap_or_else(|| Color::White.name(g.start.variant).into()),
        start: g.start,
        moves,
        theoretical: None,
    })
}

/// A WTHOR file's games, passes put back where they were forced, the
/// players named from `WTHOR.JOU` beside the file (numbers without it) and
/// the tournament from `WTHOR.TRN`.
fn read_wthor(path: &Path) -> Result<Vec<ReviewGame>, String> {
    let file = wthor::read(path)?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let players = read_names(&folder.join("WTHOR.JOU"), 20);
    let tournaments = read_names(&folder.join("WTHOR.TRN"), 26);
    let name = |n: u16| {
        players
            .get(n as usize)
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("player {n}"))
    };
    let shown = path.display().to_string();
    Ok(file
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut moves = Vec::new();
            let mut last = None;
            let end = g.replay(|pos, sq| {
                if last.is_some_and(|p: Position| p.side == pos.side) {
                    moves.push(Move::Pass);
                }
                moves.push(Move::Place(sq));
                last = Some(*pos);
            });
            let _ = end;
            ReviewGame {
                id: format!("{shown}:{}", i + 1),
                event: tournaments
                    .get(g.tournament as usize)
                    .filter(|s| !s.is_empty())
                    .map(|t| format!("{t} {}", file.year)),
                black: name(g.black),
                white: name(g.white),
                start: Position::start(Variant::Modern, Color::Black),
                moves,
                theoretical: Some((g.theoretical_result(), u32::from(file.depth))),
            }
        })
        .collect())
}

/// The names of a WTHOR list (`WTHOR.JOU`: 20 bytes a player; `WTHOR.TRN`:
/// 26 a tournament) after its 16-byte header, Latin-1, NUL-padded; none
/// when the file is missing or not such a list.
pub fn read_names(path: &Path, width: usize) -> Vec<String> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    if bytes.len() < 16 || !(bytes.len() - 16).is_multiple_of(width) {
        return Vec::new();
    }
    bytes[16..]
        .chunks_exact(width)
        .map(|c| {
            let end = c.iter().position(|&b| b == 0).unwrap_or(c.len());
            c[..end]
                .iter()
                .map(|&b| b as char)
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}
