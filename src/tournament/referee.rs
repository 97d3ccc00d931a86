//! One refereed game between two engine processes: clocks, rules, faults.

use super::client::{EngineError, EngineProcess, Reply};
use super::types::{Reason, TimeControl};
use crate::rules::color::Color;
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::time::{Duration, Instant};

/// Limits the referee enforces.
#[derive(Clone, Copy, Debug)]
pub struct RefereeLimits {
    /// Seconds a move may overrun its clock before it forfeits.
    pub margin: f64,
    /// Longest wait for any answer when no clock bounds it.
    pub hang: Duration,
}

/// A finished (or forfeited) game.
#[derive(Clone, Debug)]
pub struct Played {
    pub start: Position,
    /// Every ply from `start`, the opening's included.
    pub moves: Vec<Move>,
    /// Plies that came from the opening.
    pub book: usize,
    /// Seconds each ply took (0 for opening plies and forced passes).
    pub times: Vec<f64>,
    /// The mover's value of each ply in discs, where its engine gave one.
    pub evals: Vec<Option<f64>>,
    pub last: Position,
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
    /// The side whose engine faulted; its process should be restarted.
    pub fault: Option<Color>,
    /// What went wrong, for the log.
    pub detail: String,
    /// Seconds used by black and by the second colour.
    pub used: [f64; 2],
}

impl Played {
    /// Discs of black and of the second colour on the last position.
    pub fn discs(&self) -> [u32; 2] {
        [
            self.last.discs_of(Color::Black).count_ones(),
            self.last.discs_of(Color::White).count_ones(),
        ]
    }
}

/// The user stopped the run; the game is not recorded.
#[derive(Debug)]
pub struct Aborted;

/// Plays one game. `engines[0]` is black, `engines[1]` the second colour.
/// `standard_start` means `start` is the variant's start position (sent as
/// `clear_board`/`newgame classic` rather than `setboard`).
pub fn play_game(
    engines: [&mut EngineProcess; 2],
    start: Position,
    standard_start: bool,
    opening: &[Move],
    tcs: [TimeControl; 2],
    limits: RefereeLimits,
) -> Result<Played, Aborted> {
    let variant = start.variant;
    let mut game = Game::from_position(start);
    let mut times = Vec::new();
    let mut used = [0.0f64; 2];
    let mut left = [0.0f64; 2];
    for c in [Color::Black, Color::White] {
        if let TimeControl::Fischer { base, .. } = tcs[c.index()] {
            left[c.index()] = base;
        }
    }
    let mut evals = Vec::new();
    // Ends the game, lost by `side` for `reason`: what was played so far.
    macro_rules! forfeit {
        ($side:expr, $reason:expr, $detail:expr) => {{
            let side: Color = $side;
            return Ok(Played {
                start,
                moves: game.moves().to_vec(),
                book: opening.len().min(game.moves().len()),
                times,
                evals,
                last: *game.position(),
                winner: Some(side.other()),
                reason: $reason,
                fault: Some(side),
                detail: $detail,
                used,
            });
        }};
    }
    let classify = |e: &EngineError, clocked: bool| match e {
        EngineError::Timeout if clocked => Reason::Time,
        EngineError::Timeout => Reason::Timeout,
        EngineError::Crash(_) => Reason::Crash,
        EngineError::Malformed(_) => Reason::Malformed,
        EngineError::Aborted => Reason::Normal, // handled before
    };
    macro_rules! call {
        ($side:expr, $e:expr, $clocked:expr) => {
            match $e {
                Ok(v) => v,
                Err(EngineError::Aborted) => return Err(Aborted),
                Err(e) => {
                    let side: Color = $side;
                    let reason = classify(&e, $clocked);
                    let detail = format!("{}: {e}", engines[side.index()].name());
                    forfeit!(side, reason, detail)
                }
            }
        };
    }

    for c in [Color::Black, Color::White] {
        call!(
            c,
            engines[c.index()].new_game(&start, standard_start, tcs[c.index()]),
            false
        );
    }
    for &mv in opening {
        let side = game.position().side;
        if game.play(mv).is_err() {
            // Openings are checked when read; this is a bug, not an engine fault.
            panic!("opening move {mv} is illegal");
        }
        times.push(0.0);
        evals.push(None);
        for c in [Color::Black, Color::White] {
            call!(c, engines[c.index()].tell(variant, side, mv), false);
        }
    }

    while !game.position().is_game_over() {
        let pos = *game.position();
        let side = pos.side;
        let i = side.index();
        if pos.must_pass() {
            // Forced: no decision to ask for. Engines that refuse `play x pass`
            // see the pass implied by the next colour.
            game.play(Move::Pass).expect("forced pass is legal");
            times.push(0.0);
            evals.push(None);
            for c in [Color::Black, Color::White] {
                call!(c, engines[c.index()].tell(variant, side, Move::Pass), false);
            }
            continue;
        }
        let tc = tcs[i];
        let (limit, clock) = match tc {
            TimeControl::None => (limits.hang, None),
            TimeControl::Fischer { .. } => (
                Duration::from_secs_f64(left[i].max(0.0) + limits.margin),
                Some((left[i], tc)),
            ),
            TimeControl::PerMove(st) => {
                (Duration::from_secs_f64(st + limits.margin), Some((st, tc)))
            }
        };
        let t = Instant::now();
        let reply = engines[i].genmove(&start, game.moves(), side, clock, limit);
        let elapsed = t.elapsed().as_secs_f64();
        used[i] += elapsed;
        let (reply, eval) = call!(side, reply, clock.is_some());
        match tc {
            TimeControl::None => {}
            TimeControl::Fischer { inc, .. } => {
                left[i] -= elapsed;
                if left[i] < -limits.margin {
                    let detail = format!(
                        "{} overran its clock by {:.3} s",
                        engines[i].name(),
                        -left[i]
                    );
                    forfeit!(side, Reason::Time, detail)
                }
                left[i] = left[i].max(0.0) + inc;
            }
            TimeControl::PerMove(st) => {
                if elapsed > st + limits.margin {
                    let detail = format!("{} took {elapsed:.3} s of {st} s", engines[i].name());
                    forfeit!(side, Reason::Time, detail)
                }
            }
        }
        let mv = match reply {
            Reply::Resign => {
                let detail = format!("{} resigned", engines[i].name());
                forfeit!(side, Reason::Resign, detail)
            }
            Reply::Move(mv) => mv,
        };
        if game.play(mv).is_err() {
            let detail = format!("{} played illegal {mv}", engines[i].name());
            forfeit!(side, Reason::Illegal, detail)
        }
        // Asked after the clock stopped, so it has a short limit of its own:
        // a second, or the clock's increment when that is longer.
        let eval = match eval {
            Some(v) => Some(v),
            None => {
                let inc = match tc {
                    TimeControl::Fischer { inc, .. } => inc,
                    _ => 0.0,
                };
                let limit = Duration::from_secs_f64(inc.max(1.0)).min(limits.hang);
                call!(side, engines[i].last_value(limit), false)
            }
        };
        times.push(elapsed);
        evals.push(eval);
        let other = side.other();
        call!(other, engines[other.index()].tell(variant, side, mv), false);
    }
    let last = *game.position();
    let b = last.discs_of(Color::Black).count_ones();
    let w = last.discs_of(Color::White).count_ones();
    Ok(Played {
        start,
        moves: game.moves().to_vec(),
        book: opening.len(),
        times,
        evals,
        last,
        winner: match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        },
        reason: Reason::Normal,
        fault: None,
        detail: String::new(),
        used,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            "60+0.5".parse::<TimeControl>(),
            Ok(TimeControl::Fischer {
                base: 60.0,
                inc: 0.5
            })
        );
        assert_eq!(
            "10".parse::<TimeControl>(),
            Ok(TimeControl::Fischer {
                base: 10.0,
                inc: 0.0
            })
        );
        assert_eq!("none".parse::<TimeControl>(), Ok(TimeControl::None));
        assert!("x+1".parse::<TimeControl>().is_err());
        assert!("0".parse::<TimeControl>().is_err());
        for r in Reason::ALL {
            assert_eq!(Reason::parse(r.name()), Some(r));
        }
    }
}
