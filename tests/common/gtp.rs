//! A small GTP client and referee for tests that drive real engine processes.

use mollett::{Color, Game, Move, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A GTP engine running as a child process.
pub struct Engine {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// False for engines such as GRhino that refuse `play <colour> pass`
    /// and work out passes from the colour of the next move.
    pub takes_passes: bool,
}

impl Engine {
    pub fn spawn(name: &str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            takes_passes: true,
        }
    }

    pub fn mollett(name: &str) -> Engine {
        Engine::spawn(name, env!("CARGO_BIN_EXE_mollett"), &[])
    }

    /// Sends one command and reads its answer: `Ok(text)` for `=`, `Err(text)` for `?`.
    pub fn send_timeout(&mut self, cmd: &str, timeout: Duration) -> Result<String, String> {
        writeln!(self.stdin, "{cmd}")
            .unwrap_or_else(|e| panic!("{}: write failed: {e}", self.name));
        self.stdin.flush().unwrap();
        let deadline = Instant::now() + timeout;
        let mut answer: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!("{}: no answer to '{cmd}' within {timeout:?}", self.name)
            });
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push(line);
        }
        let first = answer[0].clone();
        let ok = first.starts_with('=');
        assert!(
            ok || first.starts_with('?'),
            "{}: answer to '{cmd}' is not GTP: {first:?}",
            self.name
        );
        let head = first[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim();
        let text = std::iter::once(head.to_string())
            .chain(answer[1..].iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        if ok {
            Ok(text)
        } else {
            Err(text)
        }
    }

    pub fn send(&mut self, cmd: &str) -> Result<String, String> {
        self.send_timeout(cmd, Duration::from_secs(30))
    }

    pub fn ok(&mut self, cmd: &str) -> String {
        let name = self.name.clone();
        self.send(cmd)
            .unwrap_or_else(|e| panic!("{name}: '{cmd}' failed: {e}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a refereed game ended.
pub struct Outcome {
    pub game: Game,
    /// Final disc difference, black minus the second colour.
    pub black_margin: i32,
    /// Most time any one side used, seconds, and its budget.
    pub max_used: f64,
}

/// Plays one game between `black` and `second`, checking every answer with
/// the rules core. `seconds` is each side's absolute clock (0: no clock).
pub fn play_game(
    black: &mut Engine,
    second: &mut Engine,
    variant: Variant,
    seconds: f64,
    opening: &[&str],
) -> Outcome {
    let mut game = Game::new(variant, Color::Black);
    for e in [&mut *black, &mut *second] {
        match variant {
            Variant::Modern => e.ok("clear_board"),
            Variant::Classic => e.ok("newgame classic"),
        };
        if seconds > 0.0 {
            e.ok(&format!("time_settings {} 0 0", seconds));
        }
    }
    for m in opening {
        let mv: Move = m.parse().unwrap();
        let colour = game.position().side.name(variant);
        game.play(mv).unwrap();
        black.ok(&format!("play {colour} {m}"));
        second.ok(&format!("play {colour} {m}"));
    }
    let mut used = [0.0f64; 2];
    while !game.position().is_game_over() {
        let pos = *game.position();
        let side = pos.side;
        let colour = side.name(variant);
        let (mover, other) = match side {
            Color::Black => (&mut *black, &mut *second),
            Color::White => (&mut *second, &mut *black),
        };
        if pos.must_pass() && !mover.takes_passes {
            // The engine works the pass out when asked for the other colour.
            game.play(Move::Pass).unwrap();
            if other.takes_passes {
                other.ok(&format!("play {colour} pass"));
            }
            continue;
        }
        if seconds > 0.0 {
            let left = seconds - used[side.index()];
            // GTP gives whole seconds.
            mover.ok(&format!("time_left {colour} {} 0", left.max(0.0).floor()));
        }
        let t = Instant::now();
        let answer = mover.send_timeout(
            &format!("genmove {colour}"),
            Duration::from_secs_f64(seconds.max(30.0) + 5.0),
        );
        used[side.index()] += t.elapsed().as_secs_f64();
        let answer = answer.unwrap_or_else(|e| {
            panic!(
                "{}: genmove {colour} failed: {e}\n{}",
                mover.name,
                history(&game)
            )
        });
        let mv: Move = answer
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{}: genmove answered {answer:?}", mover.name));
        if let Err(e) = game.play(mv) {
            panic!("{} played {mv} ({e}) after {}", mover.name, history(&game));
        }
        if seconds > 0.0 {
            assert!(
                used[side.index()] <= seconds,
                "{} lost on time: {:.3} s of {seconds} s",
                mover.name,
                used[side.index()]
            );
        }
        if mv == Move::Pass && !other.takes_passes {
            continue;
        }
        other.ok(&format!("play {colour} {mv}"));
    }
    let black_margin = game.position().final_score(false)
        * if game.position().side == Color::Black {
            1
        } else {
            -1
        };
    Outcome {
        game,
        black_margin,
        max_used: used[0].max(used[1]),
    }
}

pub fn history(game: &Game) -> String {
    game.moves()
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// GTP's `final_score` text for a black-minus-second margin.
pub fn score_text(margin: i32) -> String {
    match margin {
        0 => "0".to_string(),
        m if m > 0 => format!("B+{m}"),
        m => format!("W+{}", -m),
    }
}
