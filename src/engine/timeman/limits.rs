//! Per-move limits from a clock: the share of the time left each move gets.

use std::time::Duration;

use super::clock::Clock;

/// Per-move limits computed from a clock: a target and a hard stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub soft: Duration,
    pub hard: Duration,
}

// RESERVE_MOVES, HARD_FACTOR and MAX_SHARE (and ITERATION_GROWTH in
// search/params.rs) come from `mollett tune` (SPSA, 40 iterations of 2 games
// at 3+0), rounded, and were kept after two 100-game matches against the
// previous values (2, 4, 0.4, 3) both scored 56-2-42 (docs/history.md).

/// Own moves kept in reserve beyond the estimate of moves left, so the last
/// moves of the game never get a thin slice.
pub const RESERVE_MOVES: f64 = 1.9;
/// Hard limit as a multiple of the soft target (room for a hard iteration).
pub const HARD_FACTOR: f64 = 4.8;
/// Largest share of the usable time (time left minus margin) one move may take.
pub const MAX_SHARE: f64 = 0.5;
/// Own moves' worth of time planned for the whole exact endgame (from the
/// empties where play turns exact), in place of one share for each of its
/// moves: at 5+0.05 the solve from 18 empties and every move after it took
/// 0.02-0.1 s of a game's 5 s, while the old plan kept nine moves' shares
/// for them and left a quarter of the clock unused (docs/strength.md).
pub const ENDGAME_MOVES: f64 = 2.0;
/// Empties from which the moves before exact play get the `midgame_weight`
/// (the late midgame, where the lost games against NTest were lost:
/// docs/strength.md).
pub const FOCUS_EMPTIES: u32 = 36;
/// Shares each own move from [`FOCUS_EMPTIES`] to exact play gets, against
/// one for each move before it.
pub const MIDGAME_WEIGHT: f64 = 1.0;
/// Smallest `midgame_weight` the plan uses (and the `time_midgame`
/// option accepts): no move plans on no time.
pub const MIN_WEIGHT: f64 = 0.1;
/// Share of a byo-yomi period's per-stone time aimed for as the soft target.
pub const BYO_SOFT_SHARE: f64 = 0.6;
/// Share of one byo-yomi stone's time that a move still in main time may
/// borrow: if main time runs out mid-move, the period takes over.
pub const BYO_BORROW_SHARE: f64 = 0.5;

/// Shortest limit ever returned: lets the search pick a legal move.
pub const MIN_LIMIT: f64 = 0.001;

/// The time-management factors, as the option table sets them (defaults: the constants above).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeParams {
    pub reserve_moves: f64,
    pub hard_factor: f64,
    pub max_share: f64,
    /// [`ENDGAME_MOVES`].
    pub endgame_moves: f64,
    /// [`MIDGAME_WEIGHT`].
    pub midgame_weight: f64,
    /// Empties at which play turns exact (the `endgame` option): the
    /// moves before it get a share each (`midgame_weight` from
    /// [`FOCUS_EMPTIES`] on), those after it `endgame_moves`.
    pub solve_empties: u32,
    pub byo_soft_share: f64,
    pub byo_borrow_share: f64,
}

impl Default for TimeParams {
    fn default() -> TimeParams {
        TimeParams {
            reserve_moves: RESERVE_MOVES,
            hard_factor: HARD_FACTOR,
            max_share: MAX_SHARE,
            endgame_moves: ENDGAME_MOVES,
            midgame_weight: MIDGAME_WEIGHT,
            solve_empties: crate::engine::search::ENDGAME_EMPTIES,
            byo_soft_share: BYO_SOFT_SHARE,
            byo_borrow_share: BYO_BORROW_SHARE,
        }
    }
}

/// Turns a clock into limits for one move with `empties` squares left.
/// `margin` is kept back for process and pipe latency. Whatever the factors,
/// the hard limit never passes the time left minus the margin.
pub fn allocate(
    clock: &Clock,
    empties: u32,
    margin: Duration,
    tp: &TimeParams,
) -> Option<MoveTime> {
    let margin = margin.as_secs_f64();
    // About half the empties are ours to fill.
    let own_moves = empties.div_ceil(2).max(1) as f64;

    if clock.stones_left > 0 {
        // In a byo-yomi (Canadian) period: the period must cover `stones_left`
        // moves, each of which also loses the latency margin.
        let stones = clock.stones_left as f64;
        let usable = (clock.period_left - margin * stones).max(0.0);
        let per_stone = usable / stones;
        let hard = per_stone.min(clock.period_left - margin);
        return Some(limits(per_stone * tp.byo_soft_share.min(1.0), hard));
    }
    if clock.byo_time > 0.0 && clock.byo_stones == 0 {
        return None;
    }

    let usable = (clock.main_left - margin).max(0.0);
    // The shares: one for each own move before play turns exact
    // (`midgame_weight` from FOCUS_EMPTIES on), and `endgame_moves` for
    // all the exact ones; the increments still to come (one after each own
    // move but the last) are spent as they are planned.
    let weight = |e: u32| {
        if e <= FOCUS_EMPTIES {
            tp.midgame_weight.max(MIN_WEIGHT)
        } else {
            1.0
        }
    };
    let (planned, this_move) = if empties > tp.solve_empties {
        let before_exact: f64 = (tp.solve_empties + 1..=empties)
            .rev()
            .step_by(2)
            .map(weight)
            .sum();
        (before_exact + tp.endgame_moves.max(0.0), weight(empties))
    } else {
        (own_moves, 1.0)
    };
    let to_come = clock.increment.max(0.0) * (own_moves - 1.0).max(0.0);
    let mut soft = this_move * (usable + to_come) / (planned + tp.reserve_moves.max(0.0));
    let mut hard = (soft * tp.hard_factor).min(usable * tp.max_share.min(1.0));
    if clock.byo_time > 0.0 {
        // Main time followed by periods: the periods will pay for later moves,
        // and this move may run a little into the first one.
        let per_stone = ((clock.byo_time - margin * clock.byo_stones as f64)
            / clock.byo_stones as f64)
            .max(0.0);
        let borrow = per_stone * tp.byo_borrow_share.min(1.0);
        soft += per_stone * tp.byo_soft_share.min(1.0) * 0.5;
        hard = (hard + borrow).max(soft);
        hard = hard.min(usable + borrow);
    }
    Some(limits(soft, hard))
}

/// Builds limits, with `soft <= hard` and both at least `MIN_LIMIT`.
fn limits(soft: f64, hard: f64) -> MoveTime {
    let hard = hard.max(MIN_LIMIT);
    let soft = soft.clamp(MIN_LIMIT, hard);
    // Clock values are checked when given; saturating here keeps any other
    // input from panicking the search thread.
    let duration = |x: f64| Duration::try_from_secs_f64(x).unwrap_or(Duration::MAX);
    MoveTime {
        soft: duration(soft),
        hard: duration(hard),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// A clock that has learned an increment of `inc` seconds a move.
    fn with_increment(main_left: f64, inc: f64) -> Clock {
        Clock {
            increment: inc,
            ..Clock::absolute(main_left)
        }
    }

    #[test]
    fn absolute_time_never_exceeds_time_left_minus_margin() {
        // The defaults, and the extremes the option table allows.
        let greedy = TimeParams {
            reserve_moves: 0.0,
            hard_factor: 100.0,
            max_share: 1.0,
            endgame_moves: 0.0,
            midgame_weight: 10.0,
            solve_empties: 0,
            byo_soft_share: 1.0,
            byo_borrow_share: 1.0,
        };
        for tp in [TimeParams::default(), greedy] {
            for &main in &[0.2, 0.5, 1.0, 5.0, 30.0, 300.0, 3600.0] {
                for empties in 0..=60 {
                    for (&margin, inc) in [0u64, 50, 150].iter().zip([0.0, 0.05, 30.0]) {
                        let clock = with_increment(main, inc);
                        let t = allocate(&clock, empties, ms(margin), &tp).unwrap();
                        assert!(t.soft <= t.hard);
                        let budget = main - margin as f64 / 1000.0;
                        if budget > 0.01 {
                            assert!(
                                t.hard.as_secs_f64() <= budget,
                                "main {main} empties {empties} margin {margin}: {t:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn absolute_time_spreads_over_the_game() {
        let t = allocate(&Clock::absolute(300.0), 60, ms(50), &TimeParams::default()).unwrap();
        // About 300 s over ~30 own moves: a few seconds each, far from all of it.
        assert!(
            t.soft > Duration::from_secs(5) && t.soft < Duration::from_secs(15),
            "{t:?}"
        );
        assert!(t.hard < Duration::from_secs(120));
        // Fewer empties left means a bigger share.
        let late = allocate(&Clock::absolute(100.0), 10, ms(50), &TimeParams::default()).unwrap();
        let early = allocate(&Clock::absolute(100.0), 50, ms(50), &TimeParams::default()).unwrap();
        assert!(late.soft > early.soft);
    }

    #[test]
    fn tiny_time_left_gives_a_tiny_limit() {
        // At most half of what the margin leaves, however many moves are
        // to come (0.1 s left: 25 ms).
        for &left in &[0.0, 0.01, 0.05, 0.1] {
            for empties in [20, 30, 50] {
                let t = allocate(
                    &Clock::absolute(left),
                    empties,
                    ms(50),
                    &TimeParams::default(),
                )
                .unwrap();
                let half = ((left - 0.05f64).max(0.0) / 2.0).max(MIN_LIMIT);
                assert!(t.hard.as_secs_f64() <= half + 1e-9, "left {left}: {t:?}");
            }
        }
    }

    #[test]
    fn byo_yomi_splits_the_period_over_its_stones() {
        let clock = Clock {
            main_left: 0.0,
            byo_time: 60.0,
            byo_stones: 10,
            stones_left: 10,
            period_left: 60.0,
            ..Clock::default()
        };
        let t = allocate(&clock, 40, ms(100), &TimeParams::default()).unwrap();
        assert!(
            t.hard.as_secs_f64() <= 6.0 && t.hard.as_secs_f64() > 4.0,
            "{t:?}"
        );
        assert!(t.soft <= t.hard);
        // The last stone of a nearly spent period.
        let clock = Clock {
            stones_left: 1,
            period_left: 0.3,
            ..clock
        };
        let t = allocate(&clock, 40, ms(100), &TimeParams::default()).unwrap();
        assert!(t.hard.as_secs_f64() <= 0.2 + 1e-9, "{t:?}");
        // Japanese byo-yomi (one stone per period).
        let clock = Clock {
            main_left: 0.0,
            byo_time: 10.0,
            byo_stones: 1,
            stones_left: 1,
            period_left: 10.0,
            ..Clock::default()
        };
        let t = allocate(&clock, 20, ms(100), &TimeParams::default()).unwrap();
        assert!(t.hard.as_secs_f64() <= 9.9 + 1e-9 && t.hard.as_secs_f64() > 5.0);
    }

    #[test]
    fn main_time_before_periods_may_borrow_a_little() {
        let clock = Clock {
            main_left: 1.0,
            byo_time: 30.0,
            byo_stones: 5,
            stones_left: 0,
            period_left: 0.0,
            ..Clock::default()
        };
        let t = allocate(&clock, 40, ms(50), &TimeParams::default()).unwrap();
        let per_stone = (30.0 - 0.25) / 5.0;
        assert!(
            t.hard.as_secs_f64() <= 0.95 + per_stone * BYO_BORROW_SHARE + 1e-9,
            "{t:?}"
        );
        assert!(t.soft <= t.hard);
    }

    #[test]
    fn byo_time_without_stones_means_no_limit() {
        let clock = Clock {
            main_left: 0.0,
            byo_time: 1.0,
            byo_stones: 0,
            stones_left: 0,
            period_left: 0.0,
            ..Clock::default()
        };
        assert_eq!(allocate(&clock, 30, ms(50), &TimeParams::default()), None);
    }

    #[test]
    fn the_increment_is_learned_from_time_left() {
        // 5+0.05 as a match runner reports it: after each move, the time left
        // is the engine's own count plus 0.05 (less a little latency).
        let mut c = Clock::absolute(5.0);
        let mut left = 5.0;
        let mut learned = Vec::new();
        for _ in 0..4 {
            c.spend(0.2);
            left += -0.2 - 0.003 + 0.05;
            c.set_left(left, 0);
            learned.push(c.increment);
        }
        // One gain is not trusted alone; then the smaller of the last two counts.
        assert_eq!(learned[0], 0.0);
        for inc in &learned[1..] {
            assert!((inc - 0.047).abs() < 1e-9, "{learned:?}");
        }
        // It buys time: more than the same clock without an increment.
        let tp = TimeParams::default();
        let with = allocate(&c, 40, ms(50), &tp).unwrap();
        let without = allocate(&Clock::absolute(c.main_left), 40, ms(50), &tp).unwrap();
        assert!(with.soft > without.soft, "{with:?} {without:?}");

        // No increment: time_left agrees with the engine's count, or is a
        // little lower (latency), and nothing is learned.
        let mut c = Clock::absolute(60.0);
        for _ in 0..5 {
            c.spend(1.0);
            c.set_left(c.main_left - 0.01, 0);
        }
        assert_eq!(c.increment, 0.0);

        // Time added once (a GUI's gift) is not an increment.
        let mut c = Clock::absolute(60.0);
        c.spend(1.0);
        c.set_left(c.main_left + 30.0, 0);
        c.spend(1.0);
        c.set_left(c.main_left, 0);
        assert_eq!(c.increment, 0.0);
    }

    /// Plays a game's clock from `first` empties down: each own move takes
    /// its soft target until play turns exact, and a tenth of it after (the
    /// solve is fast), and `time_left` then reports the clock with `inc`
    /// added. Returns each own move's empties, seconds used and main time
    /// left after it.
    fn play(main: f64, inc: f64, first: u32, tp: &TimeParams) -> Vec<(u32, f64, f64)> {
        let mut clock = Clock::absolute(main);
        let mut moves = Vec::new();
        for empties in (1..=first).rev().step_by(2) {
            let t = allocate(&clock, empties, ms(50), tp).unwrap();
            let mut used = t.soft.as_secs_f64();
            if empties <= tp.solve_empties {
                used /= 10.0;
            }
            assert!(used <= clock.main_left, "{empties}: {t:?} {clock:?}");
            let left = clock.main_left;
            clock.spend(used);
            moves.push((empties, used, clock.main_left));
            clock.set_left(left - used + inc, 0);
        }
        moves
    }

    /// A whole game's clock (from 60 empties): the time spent before the
    /// exact moves and the least time ever left.
    fn play_out(main: f64, inc: f64, tp: &TimeParams) -> (f64, f64) {
        let moves = play(main, inc, 60, tp);
        let before = moves
            .iter()
            .filter(|m| m.0 > tp.solve_empties)
            .map(|m| m.1)
            .sum();
        let least = moves.iter().map(|m| m.2).fold(main, f64::min);
        (before, least)
    }

    #[test]
    fn the_clock_goes_to_the_moves_before_the_exact_endgame() {
        let tp = TimeParams::default();
        // 5+0: most of the clock goes to the moves that need it, and some is
        // always left.
        let (before, least) = play_out(5.0, 0.0, &tp);
        assert!(before > 0.75 * 5.0 && least > 0.2, "{before} {least}");
        // The old plan (a share for every move, exact ones included) kept a
        // quarter of the clock for moves that do not need it.
        let old = TimeParams {
            endgame_moves: 9.0,
            ..tp
        };
        assert!(play_out(5.0, 0.0, &old).0 < 0.7 * 5.0);
        // 5+0.05: the increments to come are spent too.
        let (before_inc, least) = play_out(5.0, 0.05, &tp);
        assert!(
            before_inc > before + 0.7 * 21.0 * 0.05,
            "{before_inc} {before}"
        );
        assert!(least > 0.2, "{least}");
    }

    #[test]
    fn the_midgame_weight_moves_time_to_the_late_midgame() {
        // A 5+0.05 game's own moves from 59 empties down.
        let even = play(5.0, 0.05, 59, &TimeParams::default());
        let focused = play(
            5.0,
            0.05,
            59,
            &TimeParams {
                midgame_weight: 2.0,
                ..TimeParams::default()
            },
        );
        let sum = |t: &[(u32, f64, f64)], range: std::ops::RangeInclusive<u32>| -> f64 {
            t.iter()
                .filter(|(e, ..)| range.contains(e))
                .map(|(_, s, _)| s)
                .sum()
        };
        // The opening gives, the moves from 36 empties to exact play take.
        assert!(sum(&focused, 37..=59) < 0.8 * sum(&even, 37..=59));
        assert!(sum(&focused, 19..=36) > 1.2 * sum(&even, 19..=36));
        // Within the focus, a move gets about twice an opening move's share
        // of the same time left.
        let at = |t: &[(u32, f64, f64)], e: u32| t.iter().find(|(x, ..)| *x == e).unwrap().1;
        assert!(at(&focused, 35) > 1.5 * at(&focused, 37));
        assert!(at(&even, 35) < 1.2 * at(&even, 37));
    }
}
