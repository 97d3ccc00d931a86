//! Openings: reading move sequences and board lines, random classic
//! placements, and the generator behind `mollett openings`.

use crate::engine::search::{Engine, Limits, Settings};
use crate::rng::Rng;
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::moveline::{moves_text, parse_game};
use crate::rules::position::{Position, CENTRE};
use crate::rules::square::{Move, Square};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// Where a game starts: the variant's start position plus moves, or a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    Moves(Vec<Move>),
    Board(Position),
}

impl Opening {
    /// The start position and the moves to play from it.
    pub fn setup(&self, variant: Variant) -> (Position, bool, &[Move]) {
        match self {
            Opening::Moves(m) => (Position::start(variant, Color::Black), true, m),
            Opening::Board(p) => (*p, false, &[]),
        }
    }

    /// Compact text for result lines: `f5d6c3`, `-` for none, or `<64 board chars><side>`.
    pub fn text(&self) -> String {
        match self {
            Opening::Moves(m) if m.is_empty() => "-".to_string(),
            Opening::Moves(m) => moves_text(m),
            Opening::Board(p) => p.to_obf().replace(' ', ""),
        }
    }
}

/// Parses one line of an openings file (`None` for blanks and comments),
/// checking every move with the rules.
pub fn parse_line(line: &str, variant: Variant) -> Result<Option<Opening>, String> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let first = line.split_whitespace().next().unwrap_or("");
    if first.len() == 64 || first.len() == 65 {
        // A board: 64 squares, then the side (maybe glued on), then OBF extras.
        let (board, side) = if first.len() == 65 {
            // Bytes: a wide character may straddle the cut (not a board then).
            first
                .split_at_checked(64)
                .ok_or_else(|| format!("bad board '{first}'"))?
        } else {
            let side = line.split_whitespace().nth(1).unwrap_or("");
            (first, side.trim_end_matches(';'))
        };
        let pos = Position::from_obf(board, side, variant, None).map_err(|e| e.to_string())?;
        if pos.is_game_over() {
            return Err(format!("opening board is a finished game: {line}"));
        }
        return Ok(Some(Opening::Board(pos)));
    }
    let moves = parse_game(line, Position::start(variant, Color::Black))
        .map_err(|e| format!("opening '{line}': {e}"))?;
    let mut game = Game::new(variant, Color::Black);
    for &mv in &moves {
        game.play(mv)
            .map_err(|e| format!("opening '{line}': {mv}: {e}"))?;
    }
    if game.position().is_game_over() {
        return Err(format!("opening '{line}' ends the game"));
    }
    Ok(Some(Opening::Moves(moves)))
}

/// Reads an openings file.
pub fn read_file(path: &std::path::Path, variant: Variant) -> Result<Vec<Opening>, String> {
    let text = crate::rules::text::read_text(path)?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(o) =
            parse_line(line, variant).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?
        {
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no openings", path.display()));
    }
    Ok(out)
}

/// `count` openings of the four classic centre placements, in random order from `seed`.
pub fn classic_placements(count: usize, seed: u64) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut centre: Vec<Move> = crate::rules::bitboard::Bits(CENTRE)
                .map(|i| Move::Place(Square::from_index(i)))
                .collect();
            rng.shuffle(&mut centre);
            Opening::Moves(centre)
        })
        .collect()
}

/// Settings of the openings generator.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub variant: Variant,
    pub plies: usize,
    pub count: usize,
    /// Keep openings whose evaluation (side to move's view) is within this many discs.
    pub max_eval: f64,
    /// Search depth of the evaluation.
    pub depth: u32,
    pub seed: u64,
}

/// Random distinct openings of exactly `plies` placements (no passes, game not
/// over), deduplicated by position, kept when `|eval| <= max_eval`. Gives up
/// after many tries when the constraints cannot be met, returning what it found.
pub fn generate(cfg: &GenConfig) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(cfg.seed);
    let mut engine = Engine::new(Settings::default());
    let stop = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let tries = cfg.count.saturating_mul(200).max(1000);
    for _ in 0..tries {
        if out.len() >= cfg.count {
            break;
        }
        let mut pos = Position::start(cfg.variant, Color::Black);
        let mut moves = Vec::with_capacity(cfg.plies);
        while moves.len() < cfg.plies {
            let legal = pos.legal_moves();
            if legal.is_empty() || legal == [Move::Pass] {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            pos = pos.play(mv).expect("legal move");
            moves.push(mv);
        }
        if moves.len() < cfg.plies || pos.is_game_over() || !seen.insert(pos.key()) {
            continue;
        }
        engine.clear();
        let limits = Limits {
            depth: Some(cfg.depth),
            multi_pv: 1,
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &stop);
        if r.score.abs() <= cfg.max_eval {
            out.push(moves);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse() {
        let v = Variant::Modern;
        assert_eq!(parse_line("  # comment", v), Ok(None));
        let Some(Opening::Moves(m)) = parse_line("f5d6c3 # x", v).unwrap() else {
            panic!()
        };
        assert_eq!(moves_text(&m), "f5d6c3");
        let Some(Opening::Moves(m2)) = parse_line("F5 D6 C3", v).unwrap() else {
            panic!()
        };
        assert_eq!(m, m2);
        assert!(parse_line("f5f5", v).is_err());
        assert!(parse_line("a1", v).is_err());
        let start = Position::start(v, Color::Black).to_obf();
        let Some(Opening::Board(p)) = parse_line(&format!("{start}; F5:+0;"), v).unwrap() else {
            panic!()
        };
        assert_eq!(p, Position::start(v, Color::Black));
        let glued = Opening::Board(p).text();
        assert_eq!(parse_line(&glued, v).unwrap(), Some(Opening::Board(p)));
    }

    #[test]
    fn generator_gives_distinct_openings_in_both_variants() {
        for variant in [Variant::Modern, Variant::Classic] {
            let cfg = GenConfig {
                variant,
                plies: 8,
                count: 50,
                max_eval: 2.0,
                depth: 1,
                seed: 7,
            };
            let got = generate(&cfg);
            assert_eq!(got.len(), 50);
            let texts: HashSet<String> = got.iter().map(|m| moves_text(m)).collect();
            assert_eq!(texts.len(), 50);
            for m in &got {
                assert_eq!(m.len(), 8);
                assert!(parse_line(&moves_text(m), variant).unwrap().is_some());
            }
            assert_eq!(generate(&cfg), got, "deterministic from the seed");
        }
    }
}
