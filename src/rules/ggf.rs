//! GGF (Generic Game Format), the game records of NBoard and the GGS server:
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[8 <64> <side>]B[f5/1.2/3.4]W[..];)`.
//!
//! Reading keeps every tag: the known ones as fields, the rest in `other`,
//! so writing a record read from a file loses nothing. Only 8×8 boards.
//! GGF knows only Othello; a classic game (an empty start board, four free
//! placements in the centre, supplies) carries `VA[classic]`, our tag,
//! written after `BO` and read wherever it stands.

use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::fmt;
use std::fmt::Write as _;

/// One ply of a record: who played it, what, and the optional `/eval/time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    pub color: Color,
    pub mv: Move,
    /// The mover's evaluation, in discs (its own view).
    pub eval: Option<f64>,
    /// Seconds the mover spent.
    pub time: Option<f64>,
}

/// One game. Header fields are kept as text, exactly as read (`None`: absent).
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// `PC`: the place (server or program).
    pub place: Option<String>,
    /// `DT`: the date.
    pub date: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub black_rating: Option<String>,
    pub white_rating: Option<String>,
    /// `RE`: black's disc margin like `+12.000`, or `?`.
    pub result: Option<String>,
    /// `TI`: the time control, e.g. `15:00` or `05:00//02:00`.
    pub time_control: Option<String>,
    /// `BO`: the position before the first move.
    pub start: Position,
    pub moves: Vec<GgfMove>,
    /// Other tags, in the order read (written after `BO`).
    pub other: Vec<(String, String)>,
}

/// Why a record could not be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError(pub String);

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GgfError {}

fn error<T>(message: impl Into<String>) -> Result<T, GgfError> {
    Err(GgfError(message.into()))
}

impl GgfGame {
    /// A record with no header and no moves, starting from `start`.
    pub fn new(start: Position) -> GgfGame {
        GgfGame {
            place: None,
            date: None,
            black: None,
            white: None,
            black_rating: None,
            white_rating: None,
            result: None,
            time_control: None,
            start,
            moves: Vec::new(),
            other: Vec::new(),
        }
    }

    /// Appends a ply for the colour whose turn it is after the moves so far
    /// (the record does not check legality; see [`GgfGame::to_game`]).
    pub fn push(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) {
        let color = self
            .moves
            .last()
            .map_or(self.start.side, |m| m.color.other());
        self.moves.push(GgfMove {
            color,
            mv,
            eval,
            time,
        });
    }

    /// Replays the moves from the start. A move by the colour not on move is
    /// accepted when the side on move had to pass (records may leave forced
    /// passes out): the pass is inserted.
    pub fn to_game(&self) -> Result<Game, GgfError> {
        let mut game = Game::from_position(self.start);
        for (i, m) in self.moves.iter().enumerate() {
            let pos = *game.position();
            if m.color != pos.side {
                if pos.must_pass() {
                    game.play(Move::Pass)
                        .map_err(|e| GgfError(format!("move {}: {e}", i + 1)))?;
                } else {
                    return error(format!("move {}: {} is not on move", i + 1, tag(m.color)));
                }
            }
            game.play(m.mv)
                .map_err(|e| GgfError(format!("move {} ({}): {e}", i + 1, m.mv)))?;
        }
        Ok(game)
    }

    /// The time control's main time in seconds (`TI[15:00]` is 900), if any.
    pub fn main_time(&self) -> Option<f64> {
        let ti = self.time_control.as_deref()?;
        parse_clock(ti.split('/').next()?)
    }

    /// Seconds recorded in `color`'s moves.
    pub fn time_used(&self, color: Color) -> f64 {
        self.moves
            .iter()
            .filter(|m| m.color == color)
            .filter_map(|m| m.time)
            .sum()
    }

    /// Black's disc margin from `RE` (`+12.000` is 12), if it is a number.
    pub fn black_margin(&self) -> Option<f64> {
        let re = self.result.as_deref()?;
        re.split(':').next()?.trim().parse().ok()
    }

    /// Reads one game; text outside the `(; … ;)` is ignored.
    pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
        let games = parse_all(text)?;
        match games.len() {
            1 => Ok(games.into_iter().next().expect("one game")),
            0 => error("no game"),
            _ => error("more than one game"),
        }
    }
}

/// Every game in `text` (a file may hold many, one after another).
pub fn parse_all(text: &str) -> Result<Vec<GgfGame>, GgfError> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let (game, after) = parse_one(&rest[start + 2..])?;
        games.push(game);
        rest = after;
    }
    Ok(games)
}

/// Reads tags up to `;)`; returns the game and the text after it.
fn parse_one(mut s: &str) -> Result<(GgfGame, &str), GgfError> {
    let mut tags: Vec<(String, String)> = Vec::new();
    loop {
        s = s.trim_start();
        if let Some(after) = s.strip_prefix(";)") {
            return Ok((build(tags)?, after));
        }
        let open = s
            .find('[')
            .ok_or_else(|| GgfError("unclosed game".into()))?;
        let name = s[..open].trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return error(format!("bad tag name {name:?}"));
        }
        let close = s[open..]
            .find(']')
            .ok_or_else(|| GgfError(format!("unclosed tag {name}")))?
            + open;
        tags.push((name.to_string(), s[open + 1..close].to_string()));
        s = &s[close + 1..];
    }
}

fn build(tags: Vec<(String, String)>) -> Result<GgfGame, GgfError> {
    let mut game = GgfGame::new(Position::start(Variant::Modern, Color::Black));
    // The board is read once the variant is known: `VA` follows `BO`.
    let mut board: Option<String> = None;
    let mut variant = Variant::Modern;
    for (name, value) in tags {
        let field = match name.as_str() {
            "GM" => {
                if !value.eq_ignore_ascii_case("othello") {
                    return error(format!("unsupported game {value:?}"));
                }
                continue;
            }
            "TY" => {
                if !value.starts_with('8') {
                    return error(format!("unsupported board type {value:?}"));
                }
                continue;
            }
            "BO" => {
                if !game.moves.is_empty() {
                    return error("BO after the moves");
                }
                board = Some(value);
                continue;
            }
            "VA" => {
                variant = Variant::parse(value.trim())
                    .ok_or_else(|| GgfError(format!("unsupported variant {value:?}")))?;
                continue;
            }
            "B" | "W" => {
                let color = if name == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                game.moves.push(parse_move(color, &value)?);
                continue;
            }
            "PC" => &mut game.place,
            "DT" => &mut game.date,
            "PB" => &mut game.black,
            "PW" => &mut game.white,
            "RB" => &mut game.black_rating,
            "RW" => &mut game.white_rating,
            "RE" => &mut game.result,
            "TI" => &mut game.time_control,
            _ => {
                game.other.push((name, value));
                continue;
            }
        };
        *field = Some(value);
    }
    match board {
        Some(value) => game.start = parse_board(&value, variant)?,
        None => {
            if !game.moves.is_empty() {
                log::debug!("GGF game without BO: the standard start assumed");
            }
            game.start = Position::start(variant, Color::Black);
        }
    }
    Ok(game)
}

/// `8 <64 squares> <side>`; spaces inside the squares are allowed. A
/// classic board's supplies are counted from its discs (none passed).
fn parse_board(value: &str, variant: Variant) -> Result<Position, GgfError> {
    let value = value.trim();
    let rest = value
        .strip_prefix('8')
        .ok_or_else(|| GgfError("BO: only 8x8 boards".into()))?;
    let chars: Vec<char> = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != 65 {
        return error("BO: expected 64 squares and a side to move");
    }
    let board: String = chars[..64].iter().collect();
    let side = chars[64].to_string();
    Position::from_obf(&board, &side, variant, None).map_err(|e| GgfError(format!("BO: {e}")))
}

/// `F5`, `f5/1.2/3.4`, `F5//11.5`, `PA`.
fn parse_move(color: Color, value: &str) -> Result<GgfMove, GgfError> {
    let mut parts = value.split('/');
    let word = parts.next().unwrap_or("").trim();
    let mv: Move = word
        .parse()
        .map_err(|_| GgfError(format!("bad move {word:?}")))?;
    let number = |p: Option<&str>| -> Result<Option<f64>, GgfError> {
        match p.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => parse_clock(t)
                .map(Some)
                .ok_or_else(|| GgfError(format!("bad number {t:?} in {value:?}"))),
        }
    };
    let eval = number(parts.next())?;
    let time = number(parts.next())?;
    Ok(GgfMove {
        color,
        mv,
        eval,
        time,
    })
}

/// Seconds from `ss`, `mm:ss` or `hh:mm:ss` (fractions allowed; a plain
/// number may be negative, for evals).
pub fn parse_clock(t: &str) -> Option<f64> {
    let mut secs = 0.0;
    for part in t.trim().split(':') {
        let v: f64 = part.parse().ok()?;
        if !v.is_finite() {
            return None;
        }
        secs = secs * 60.0 + v;
    }
    // Finite parts can still add up past the largest number.
    secs.is_finite().then_some(secs)
}

/// `mm:ss` for `TI`.
pub fn clock_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{:02}:{:02}", s / 60, s % 60)
}

fn tag(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// Moves in upper case as NBoard writes them, `PA` for a pass.
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string().to_uppercase(),
        Move::Pass => "PA".to_string(),
    }
}

/// The `BO` value: `8 <64 of * O -> <* or O>`.
pub fn board_text(pos: &Position) -> String {
    let obf: String = pos
        .to_obf()
        .chars()
        .map(|c| if c == 'X' { '*' } else { c })
        .collect();
    format!("8 {obf}")
}

impl fmt::Display for GgfGame {
    /// One game on one line, header tags in the order
    /// `GM PC DT PB PW RB RW RE TI TY BO` (and `VA[classic]` for a classic
    /// game), then other tags, then the moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::from("(;GM[Othello]");
        for (name, value) in [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black),
            ("PW", &self.white),
            ("RB", &self.black_rating),
            ("RW", &self.white_rating),
            ("RE", &self.result),
            ("TI", &self.time_control),
        ] {
            if let Some(v) = value {
                let _ = write!(s, "{name}[{v}]");
            }
        }
        let _ = write!(s, "TY[8]BO[{}]", board_text(&self.start));
        if self.start.variant != Variant::Modern {
            let _ = write!(s, "VA[{}]", self.start.variant.name());
        }
        for (name, value) in &self.other {
            let _ = write!(s, "{name}[{value}]");
        }
        for m in &self.moves {
            let _ = write!(s, "{}[{}", tag(m.color), move_text(m.mv));
            match (m.eval, m.time) {
                (None, None) => {}
                (Some(e), None) => {
                    let _ = write!(s, "/{e}");
                }
                (e, Some(t)) => {
                    let _ = write!(s, "/{}/{t}", e.map_or(String::new(), |e| e.to_string()));
                }
            }
            s.push(']');
        }
        s.push_str(";)");
        f.write_str(&s)
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the civil-from-days algorithm.
pub fn today() -> String {
    let secs = crate::clock::unix_secs();
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A Mollett match game as GGF (one line when written, see [`crate::rules::ggf`]). `times` (seconds per
/// ply, 0 for none) and `evals` (the mover's value in discs) may be shorter
/// than `moves`; `result` is black's disc margin; `clock` fills `TI`.
#[allow(clippy::too_many_arguments)]
pub fn ggf_game(
    start: &Position,
    moves: &[Move],
    times: &[f64],
    evals: &[Option<f64>],
    black: &str,
    white: &str,
    result: Option<i32>,
    clock: Option<f64>,
) -> GgfGame {
    let mut game = GgfGame::new(*start);
    game.place = Some("Mollett match".into());
    game.date = Some(today());
    game.black = Some(black.into());
    game.white = Some(white.into());
    game.result = Some(result.map_or("?".into(), |r| format!("{r:+}.000")));
    game.time_control = clock.map(clock_text);
    for (i, &mv) in moves.iter().enumerate() {
        // Hundredths are plenty, and keep the records short.
        let time = times
            .get(i)
            .filter(|&&t| t > 0.0)
            .map(|t| (t * 100.0).round() / 100.0);
        let eval = evals
            .get(i)
            .copied()
            .flatten()
            .map(|e| (e * 100.0).round() / 100.0);
        game.push(mv, eval, time);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("15:00"), Some(900.0));
        assert_eq!(parse_clock("1:02:03"), Some(3723.0));
        assert_eq!(parse_clock("11.5"), Some(11.5));
        assert_eq!(parse_clock("-2.25"), Some(-2.25));
        assert_eq!(parse_clock("x"), None);
        assert_eq!(parse_clock("1e308:1e308"), None);
        assert_eq!(clock_text(61.0), "01:01");
    }

    #[test]
    fn moves_and_passes() {
        let m = parse_move(Color::Black, "f5/1.2/3.4").unwrap();
        assert_eq!(m.mv, "f5".parse().unwrap());
        assert_eq!((m.eval, m.time), (Some(1.2), Some(3.4)));
        let m = parse_move(Color::White, "F5//11.493").unwrap();
        assert_eq!((m.eval, m.time), (None, Some(11.493)));
        assert_eq!(parse_move(Color::White, "PA").unwrap().mv, Move::Pass);
        assert!(parse_move(Color::White, "Z9").is_err());
        assert!(parse_move(Color::White, "F5/x").is_err());
    }

    #[test]
    fn ggf_shape() {
        let start = Position::start(Variant::Modern, Color::Black);
        let g = ggf_game(
            &start,
            &crate::rules::moveline::parse_moves("f5d6").unwrap(),
            &[0.0, 1.234],
            &[None, Some(-2.5)],
            "x",
            "y",
            Some(12),
            Some(60.0),
        )
        .to_string();
        assert!(g.starts_with("(;GM[Othello]PC[Mollett match]DT["), "{g}");
        assert!(g.contains("PB[x]PW[y]RE[+12.000]TI[01:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6/-2.5/1.23];)"), "{g}");
        assert_eq!(today().len(), 10);
    }
}
