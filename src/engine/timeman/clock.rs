//! The clock as GTP describes it: time left, byo-yomi periods, the increment
//! learned from `time_left`, and both sides' clocks under one control.

/// A clock as GTP describes it (`time_settings` and `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Clock {
    /// Main time left, seconds.
    pub main_left: f64,
    /// Byo-yomi period length, seconds (0: absolute time).
    pub byo_time: f64,
    /// Stones per byo-yomi period (0 with byo_time > 0: no limit).
    pub byo_stones: u32,
    /// Stones left in the current period (0 while in main time).
    pub stones_left: u32,
    /// Time left in the current period, seconds (when `stones_left` > 0).
    pub period_left: f64,
    /// Seconds the clock gains with each own move (Fischer increment), as
    /// learned from `time_left` ([`Clock::set_left`]): GTP cannot say it.
    pub increment: f64,
    /// Main time left just after the last own move, by the engine's own
    /// count ([`Clock::spend`]); the next `time_left` tells what was added.
    pub(super) after_move: Option<f64>,
    /// The gain seen at the `time_left` before the last one.
    pub(super) last_gain: Option<f64>,
}

impl Clock {
    /// Absolute time: `main_left` seconds for the rest of the game.
    pub fn absolute(main_left: f64) -> Clock {
        Clock {
            main_left,
            ..Clock::default()
        }
    }

    /// A clock from GTP `time_settings`; `None` means no limit (byo-yomi
    /// time > 0 with 0 stones, or 0 0 0).
    pub fn from_settings(main: f64, byo_time: f64, byo_stones: u32) -> Option<Clock> {
        let unlimited = byo_stones == 0 && (byo_time > 0.0 || main == 0.0);
        (!unlimited).then_some(Clock {
            main_left: main,
            byo_time,
            byo_stones,
            stones_left: 0,
            period_left: 0.0,
            ..Clock::default()
        })
    }

    /// The control a KGS time system describes (`kgs-time_settings`), its
    /// times checked first: `None` for no time limit. A clock has one
    /// period, so Japanese byo-yomi counts each period as one stone in
    /// `period` seconds.
    pub fn from_kgs(system: KgsTime) -> Result<Option<Clock>, String> {
        let (main, period, stones) = match system {
            KgsTime::None => return Ok(None),
            KgsTime::Absolute { main } => (main, 0.0, 0),
            KgsTime::Byoyomi { main, period, .. } => (main, period, 1),
            KgsTime::Canadian {
                main,
                period,
                stones,
            } => (main, period, stones),
        };
        Clock::checked(main, period, stones)
    }

    /// [`Clock::from_settings`] after checking both times (`check_secs`):
    /// the one place a time control's values are validated.
    pub fn checked(main: f64, byo_time: f64, byo_stones: u32) -> Result<Option<Clock>, String> {
        check_secs(main)?;
        check_secs(byo_time)?;
        Ok(Clock::from_settings(main, byo_time, byo_stones))
    }

    /// GTP `time_left`: `time` seconds of main time when `stones` is 0, else
    /// `time` seconds for `stones` moves of a period.
    pub fn set_left(&mut self, time: f64, stones: u32) {
        if let (0, 0.0, Some(after)) = (stones, self.byo_time, self.after_move.take()) {
            // Absolute time that grew since the own move: an increment. The
            // smaller of the last two gains counts, so one late `time_left`
            // (or a GUI that adds time once) does not inflate it.
            let gain = (time - after).max(0.0);
            self.increment = self.last_gain.map_or(0.0, |last| last.min(gain));
            self.last_gain = Some(gain);
        }
        if stones == 0 {
            self.main_left = time;
            self.stones_left = 0;
            self.period_left = 0.0;
        } else {
            self.main_left = 0.0;
            self.stones_left = stones;
            self.period_left = time;
            if self.byo_stones == 0 {
                // No time_settings came first: assume this period is typical.
                self.byo_stones = stones;
                self.byo_time = time;
            }
        }
    }

    /// Deducts `secs` as a local estimate until `time_left` corrects it.
    pub fn spend(&mut self, secs: f64) {
        let mut secs = secs;
        if self.stones_left == 0 {
            self.main_left -= secs;
            if self.main_left >= 0.0 || self.byo_time <= 0.0 {
                self.main_left = self.main_left.max(0.0);
                self.after_move = Some(self.main_left);
                return;
            }
            // Main time ran out during this move: the rest came from a period.
            secs = -self.main_left;
            self.main_left = 0.0;
            self.stones_left = self.byo_stones.max(1);
            self.period_left = self.byo_time;
        }
        self.period_left = (self.period_left - secs).max(0.0);
        self.stones_left -= 1;
        if self.stones_left == 0 {
            self.stones_left = self.byo_stones.max(1);
            self.period_left = self.byo_time;
        }
    }
}

/// Both sides' clocks under one time control, as a game keeps them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clocks {
    /// The time control; `None`: no clock.
    control: Option<Clock>,
    /// Each side's clock, indexed by `Color::index()`.
    sides: [Option<Clock>; 2],
}

impl Clocks {
    /// A new time control, for both sides from now on. The same control
    /// again (as a match runner sends before every game) keeps the
    /// increments learned in the games before; another forgets them.
    pub fn set_control(&mut self, control: Option<Clock>) {
        if self.control != control {
            self.sides = [None; 2];
        }
        self.control = control;
        self.reset();
    }

    /// A new game: both sides start from the time control, keeping the
    /// increments learned so far.
    pub fn reset(&mut self) {
        let learned = self.sides.map(|s| s.map(|c| (c.increment, c.last_gain)));
        self.sides = [self.control; 2];
        for (side, learned) in self.sides.iter_mut().zip(learned) {
            if let (Some(clock), Some((increment, last_gain))) = (side.as_mut(), learned) {
                clock.increment = increment;
                clock.last_gain = last_gain;
            }
        }
    }

    /// A side's time left, as `time_left` reports it (the time control's
    /// periods are assumed when the side has no clock yet).
    pub fn set_left(&mut self, side: usize, time: f64, stones: u32) {
        let mut clock = self.sides[side].or(self.control).unwrap_or_default();
        clock.set_left(time, stones);
        self.sides[side] = Some(clock);
    }

    pub fn side(&self, side: usize) -> Option<&Clock> {
        self.sides[side].as_ref()
    }

    pub fn side_mut(&mut self, side: usize) -> Option<&mut Clock> {
        self.sides[side].as_mut()
    }
}

/// A time control as KGS's `kgs-time_settings` describes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KgsTime {
    None,
    Absolute {
        main: f64,
    },
    /// Japanese byo-yomi: `periods` periods of `period` seconds, one move each.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    Canadian {
        main: f64,
        period: f64,
        stones: u32,
    },
}

/// Longest time a clock may hold, in seconds (about 11.6 days): a value
/// above it is refused when it is given, so no later computation overflows.
pub const MAX_CLOCK_SECS: f64 = 1_000_000.0;

/// A clock value as given (`time_settings`, `time_left`, a GGF `TI`), or why
/// it cannot be used.
pub fn check_secs(secs: f64) -> Result<f64, String> {
    if secs.is_finite() && (0.0..=MAX_CLOCK_SECS).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("time must be 0 to {MAX_CLOCK_SECS} seconds"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_spending() {
        let mut c = Clock {
            main_left: 10.0,
            byo_time: 30.0,
            byo_stones: 5,
            ..Clock::default()
        };
        c.spend(4.0);
        assert_eq!((c.main_left, c.stones_left), (6.0, 0));
        c.spend(8.0);
        assert_eq!((c.main_left, c.stones_left, c.period_left), (0.0, 4, 28.0));
        for _ in 0..4 {
            c.spend(1.0);
        }
        assert_eq!((c.stones_left, c.period_left), (5, 30.0));
        let mut absolute = Clock {
            main_left: 1.0,
            ..Clock::default()
        };
        absolute.spend(2.0);
        assert_eq!(absolute.main_left, 0.0);
    }

    #[test]
    fn a_new_game_under_the_same_control_keeps_the_increment() {
        let control = Clock::from_settings(5.0, 0.0, 0);
        let mut clocks = Clocks::default();
        clocks.set_control(control);
        for _ in 0..3 {
            let c = clocks.side_mut(0).unwrap();
            c.spend(0.1);
            let left = c.main_left + 0.05;
            clocks.set_left(0, left, 0);
        }
        assert!((clocks.side(0).unwrap().increment - 0.05).abs() < 1e-9);
        clocks.reset();
        clocks.set_control(control);
        assert!((clocks.side(0).unwrap().increment - 0.05).abs() < 1e-9);
        assert_eq!(clocks.side(0).unwrap().main_left, 5.0);
        clocks.set_control(Clock::from_settings(60.0, 0.0, 0));
        assert_eq!(clocks.side(0).unwrap().increment, 0.0);
    }
}
