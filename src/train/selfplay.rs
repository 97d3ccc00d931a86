//! `mollett selfplay`: varied games whose positions are labelled by a deeper
//! search, and by exact solves near the end.
//!
//! Game `k` (0-based, of `games`) depends only on the seed and `k`, so a run
//! split with `--shard i/n` writes exactly the lines of the unsplit run, in
//! pieces that can be concatenated.

use super::sample::Sample;
use super::wthor::WthorStarts;
use crate::engine::eval::{EvalKind, Evaluator};
use crate::engine::search::{Engine, Limits, Settings};
use crate::files::Writer;
use crate::rng::Rng;
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use crate::tournament::openings::Opening;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a self-play run does.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub variant: Variant,
    pub games: usize,
    pub seed: u64,
    /// Slice `i` of `n` (1-based) of the game list.
    pub shard: (usize, usize),
    /// Random opening of 0..=`random_plies` plies (after classic's four free
    /// placements, which are always random), unless `openings` or `wthor`
    /// is given.
    pub random_plies: usize,
    /// Game `k` starts from `openings[k % len]` when not empty.
    pub openings: Vec<Opening>,
    /// Game `k` starts from a tournament game replayed to a random ply,
    /// both drawn from the seed and `k` (modern only).
    pub wthor: Option<Arc<WthorStarts>>,
    /// Depth of the search that labels a position and chooses the move.
    pub depth: u32,
    /// At this many empties or fewer positions are solved exactly.
    pub exact_empties: u32,
    /// Chance of a random move instead of the searched one (before the exact phase).
    pub random_prob: f64,
    /// Record only positions with at most this many empties...
    pub max_record_empties: u32,
    /// ... and at least this many; the game stops below it.
    pub min_empties: u32,
    /// Stop starting games after this long.
    pub max_time: Option<Duration>,
    pub hash_mb: usize,
    pub progress: bool,
}

impl Default for SelfplayConfig {
    fn default() -> SelfplayConfig {
        SelfplayConfig {
            variant: Variant::Modern,
            games: 100,
            seed: 1,
            shard: (1, 1),
            random_plies: 8,
            openings: Vec::new(),
            wthor: None,
            depth: 6,
            exact_empties: 16,
            random_prob: 0.1,
            max_record_empties: 60,
            min_empties: 0,
            max_time: None,
            hash_mb: 32,
            progress: true,
        }
    }
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct SelfplayStats {
    pub games: usize,
    pub positions: usize,
    pub exact: usize,
}

fn random_move(pos: &Position, rng: &mut Rng) -> Move {
    let moves = pos.moves();
    if moves == 0 {
        return Move::Pass;
    }
    let n = moves.count_ones() as u64;
    let mut m = moves;
    for _ in 0..rng.below(n) {
        m &= m - 1;
    }
    Move::Place(Square::from_index(m.trailing_zeros()))
}

/// The position where game `k` leaves its opening, and the opening's moves
/// from the variant's start (`None` for an opening given as a board).
fn opening(cfg: &SelfplayConfig, k: usize, rng: &mut Rng) -> (Position, Option<Vec<Move>>) {
    if let Some(w) = &cfg.wthor {
        let (game, plies) = w.draw(rng);
        let mut pos = Position::start(cfg.variant, Color::Black);
        let mut played = Vec::new();
        for &sq in &game[..plies] {
            if pos.must_pass() {
                pos = pos.pass();
                played.push(Move::Pass);
            }
            match pos.play(Move::Place(sq)) {
                Some(p) => pos = p,
                None => break,
            }
            played.push(Move::Place(sq));
        }
        return (pos, Some(played));
    }
    if !cfg.openings.is_empty() {
        let (mut pos, from_start, moves) = cfg.openings[k % cfg.openings.len()].setup(cfg.variant);
        let mut played = Vec::new();
        for &mv in moves {
            match pos.play(mv) {
                Some(p) => pos = p,
                None => break,
            }
            played.push(mv);
        }
        return (pos, from_start.then_some(played));
    }
    let mut pos = Position::start(cfg.variant, Color::Black);
    let free = if cfg.variant == Variant::Classic {
        4
    } else {
        0
    };
    let plies = free + rng.below(cfg.random_plies as u64 + 1) as usize;
    let mut played = Vec::new();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let mv = random_move(&pos, rng);
        pos = pos.play(mv).expect("a legal move");
        played.push(mv);
    }
    (pos, Some(played))
}

/// Plays game `k`, calling `emit` with every recorded sample. Returns the
/// game's moves from the variant's start, each with `true` when it was
/// chosen at random (`None` when the opening was given as a board), and the
/// last position.
pub fn play_game(
    cfg: &SelfplayConfig,
    engine: &mut Engine,
    k: usize,
    emit: &mut dyn FnMut(Sample),
) -> (Option<Vec<(Move, bool)>>, Position) {
    let mut rng = Rng::new(cfg.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ (k as u64 + 1));
    let stop = AtomicBool::new(false);
    engine.clear();
    let (mut pos, opening_moves) = opening(cfg, k, &mut rng);
    let mut moves: Option<Vec<(Move, bool)>> =
        opening_moves.map(|m| m.into_iter().map(|mv| (mv, true)).collect());
    loop {
        if pos.is_game_over() {
            break;
        }
        if pos.moves() == 0 {
            pos = pos.pass();
            if let Some(m) = moves.as_mut() {
                m.push((Move::Pass, false));
            }
            continue;
        }
        let empties = pos.empty_count();
        if empties < cfg.min_empties {
            break;
        }
        let exact = empties <= cfg.exact_empties;
        let record = empties <= cfg.max_record_empties && !pos.in_classic_opening();
        let (mv, random) = if record || !exact {
            let limits = Limits {
                depth: Some(cfg.depth),
                exact,
                multi_pv: 1,
                ..Limits::default()
            };
            let r = engine.search(&pos, &limits, &stop);
            if record {
                emit(Sample {
                    pos,
                    score: r.score as f32,
                    exact: r.exact,
                    depth: if r.exact { empties } else { r.depth },
                });
            }
            if !exact && rng.unit() < cfg.random_prob {
                (random_move(&pos, &mut rng), true)
            } else {
                (r.best, false)
            }
        } else {
            break;
        };
        pos = pos.play(mv).expect("search returns legal moves");
        if let Some(m) = moves.as_mut() {
            m.push((mv, random));
        }
    }
    (moves, pos)
}

/// One game's searcher: one thread, exact from `exact_empties`.
pub fn engine(cfg: &SelfplayConfig) -> Engine {
    Engine::new(Settings {
        threads: 1,
        hash_mb: cfg.hash_mb,
        endgame_empties: cfg.exact_empties,
        ..Settings::default()
    })
}

/// Runs the games of this shard, writing sample lines to `out`.
pub fn run(
    cfg: &SelfplayConfig,
    evaluator: Box<dyn Evaluator>,
    out: &mut dyn Write,
) -> Result<SelfplayStats, String> {
    let (si, sn) = cfg.shard;
    if si == 0 || si > sn {
        return Err("--shard i/n needs 1 <= i <= n".into());
    }
    let mut engine = engine(cfg);
    engine.set_evaluator(evaluator);
    let mine: Vec<usize> = (0..cfg.games).filter(|k| k % sn == si - 1).collect();
    let start = Instant::now();
    let mut last_report = start;
    let mut stats = SelfplayStats::default();
    for (done, &k) in mine.iter().enumerate() {
        if cfg.max_time.is_some_and(|t| start.elapsed() >= t) {
            if cfg.progress {
                eprintln!("selfplay: time limit reached after {done} games");
            }
            break;
        }
        let mut text = String::new();
        let _ = play_game(cfg, &mut engine, k, &mut |s| {
            stats.positions += 1;
            stats.exact += s.exact as usize;
            text.push_str(&s.to_line());
            text.push('\n');
        });
        out.write_all(text.as_bytes())
            .and_then(|_| out.flush())
            .map_err(|e| format!("writing positions: {e}"))?;
        stats.games += 1;
        let now = Instant::now();
        if cfg.progress && (now - last_report >= Duration::from_secs(5) || done + 1 == mine.len()) {
            last_report = now;
            let secs = (now - start).as_secs_f64();
            eprintln!(
                "selfplay: {}/{} games, {} positions ({} exact), {:.0} s, {:.2} games/s",
                done + 1,
                mine.len(),
                stats.positions,
                stats.exact,
                secs,
                (done + 1) as f64 / secs.max(1e-9)
            );
        }
    }
    Ok(stats)
}

/// A locked position file as a `Write` for [`run`] (which writes whole lines).
struct PositionWriter(Writer);

impl Write for PositionWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = std::str::from_utf8(buf).map_err(std::io::Error::other)?;
        self.0.append(text).map_err(std::io::Error::other)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `mollett selfplay --out`: appends labelled positions to `out` (stdout
/// when `None`).
pub fn write_positions(
    cfg: &SelfplayConfig,
    eval: &EvalKind,
    out: Option<&Path>,
) -> Result<SelfplayStats, String> {
    let evaluator = eval.try_evaluator()?;
    match out {
        Some(path) => {
            let mut f = PositionWriter(Writer::lock(path)?);
            run(cfg, evaluator, &mut f)
        }
        None => run(cfg, evaluator, &mut std::io::stdout().lock()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::Handcrafted;

    #[test]
    fn selfplay_lines_parse_back_into_legal_positions_of_the_variant() {
        for variant in [Variant::Modern, Variant::Classic] {
            let cfg = SelfplayConfig {
                variant,
                games: 2,
                depth: 2,
                exact_empties: 10,
                progress: false,
                hash_mb: 1,
                ..SelfplayConfig::default()
            };
            let mut out = Vec::new();
            let stats = run(&cfg, Box::new(Handcrafted::default()), &mut out).unwrap();
            assert_eq!(stats.games, 2);
            let text = String::from_utf8(out).unwrap();
            let mut n = 0;
            for line in text.lines() {
                let s = Sample::parse(line).unwrap().unwrap();
                assert_eq!(s.pos.variant, variant);
                assert!(!s.pos.is_game_over());
                assert!(s.pos.moves() != 0, "recorded positions have moves");
                assert!(s.score.abs() <= 64.0);
                if s.pos.empty_count() <= 10 {
                    assert!(s.exact);
                    assert_eq!(s.score.fract(), 0.0);
                }
                n += 1;
            }
            assert!(n > 20 && n == stats.positions, "{n} lines");
            // Shards split the same games.
            let mut a = Vec::new();
            run(
                &SelfplayConfig {
                    shard: (2, 2),
                    ..cfg
                },
                Box::new(Handcrafted::default()),
                &mut a,
            )
            .unwrap();
            let tail = String::from_utf8(a).unwrap();
            assert!(!tail.is_empty() && text.ends_with(&tail));
        }
    }
}
