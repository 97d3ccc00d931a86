//! `mollett analyze`'s progress line on stderr.

use std::time::{Duration, Instant};

/// The progress line on stderr: games and moves done, the time a move
/// takes, and an estimate of the time left; at most every two seconds.
pub struct Progress {
    on: bool,
    games: usize,
    to_do: usize,
    done: usize,
    games_done: usize,
    start: Instant,
    last: Option<Instant>,
    tty: bool,
}

impl Progress {
    pub fn new(on: bool, games: usize, to_do: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            on: on && to_do > 0,
            games,
            to_do,
            done: 0,
            games_done: 0,
            start: Instant::now(),
            last: None,
            tty: std::io::stderr().is_terminal(),
        }
    }

    pub fn moved(&mut self, _game: usize) {
        self.done += 1;
        self.show(false);
    }

    pub fn game_done(&mut self) {
        self.games_done += 1;
        self.show(false);
    }

    fn show(&mut self, last: bool) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if !last && self.last.is_some_and(|t| now - t < Duration::from_secs(2)) {
            return;
        }
        self.last = Some(now);
        let secs = self.start.elapsed().as_secs_f64();
        let per_move = if self.done > 0 {
            secs / self.done as f64
        } else {
            0.0
        };
        let left = per_move * (self.to_do - self.done) as f64;
        let width = 30;
        let filled = width * self.done / self.to_do.max(1);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let line = format!(
            "analyze [{bar}] {}/{} games, {}/{} moves, {per_move:.2} s a move, about {} left",
            self.games_done,
            self.games,
            self.done,
            self.to_do,
            duration_text(left)
        );
        if self.tty {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    pub fn finish(&mut self) {
        if self.on {
            self.show(true);
            if self.tty {
                eprintln!();
            }
        }
    }
}

/// `1h 02m`, `4m 05s`, `12s`.
fn duration_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h {:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
