//! Helpers for tests that drive real engine processes. The GTP client and
//! referee are the library's (`mollett::tournament`), so the project has one.
#![allow(dead_code)]

use mollett::tournament::client::{EngineProcess, EngineSpec};
use mollett::tournament::referee::{self, RefereeLimits};
use mollett::tournament::results::{read_results, GameRecord};
use mollett::tournament::types::{Reason, TimeControl};
use mollett::{Color, Game, Move, Position, Variant};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

pub use super::parts::{rhino, RHINO};

pub fn mollett_bin() -> &'static str {
    env!("CARGO_BIN_EXE_mollett")
}

/// The fake GTP engine (`tests/data/fake_gtp.py`) with its options.
pub fn fake(opts: &str) -> String {
    format!(
        "{}/tests/data/fake_gtp.py {opts}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh, empty temporary directory for one test, removed when it drops.
pub fn tmpdir(name: &str) -> super::TestDir {
    super::TestDir::new(name)
}

/// Runs `mollett ARGS...` to the end.
pub fn mollett(args: &[&str]) -> Output {
    std::process::Command::new(mollett_bin())
        .args(args)
        .output()
        .expect("mollett runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
pub fn mollett_ok(args: &[&str]) -> String {
    let o = mollett(args);
    assert!(
        o.status.success(),
        "mollett {args:?} failed:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

pub fn results(path: &Path) -> Vec<GameRecord> {
    read_results(path).unwrap()
}

/// An engine process, for tests that talk to one directly.
pub struct Engine {
    pub name: String,
    pub proc: EngineProcess,
}

impl Engine {
    pub fn spawn(name: &str, program: &str, args: &[&str]) -> Engine {
        let spec: EngineSpec = format!("name={name} cmd={program} {}", args.join(" "))
            .parse()
            .unwrap();
        let proc = EngineProcess::start(
            &spec,
            Duration::from_secs(30),
            Arc::new(AtomicBool::new(false)),
        )
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        Engine {
            name: name.to_string(),
            proc,
        }
    }

    pub fn mollett(name: &str) -> Engine {
        Engine::spawn(name, mollett_bin(), &[])
    }

    /// Sends one command: `Ok(text)` for `=`, `Err(text)` for `?`.
    pub fn send(&mut self, cmd: &str) -> Result<String, String> {
        self.proc
            .gtp(cmd, Duration::from_secs(30))
            .unwrap_or_else(|e| panic!("{}: '{cmd}': {e}", self.name))
    }

    pub fn ok(&mut self, cmd: &str) -> String {
        let name = self.name.clone();
        self.send(cmd)
            .unwrap_or_else(|e| panic!("{name}: '{cmd}' failed: {e}"))
    }
}

/// How a refereed game ended.
pub struct Outcome {
    pub game: Game,
    /// Final disc difference, black minus the second colour.
    pub black_margin: i32,
    /// Most time any one side used, seconds.
    pub max_used: f64,
}

/// Plays one game with the library's referee; `seconds` is each side's
/// absolute clock (0: no clock). Any fault fails the test.
pub fn play_game(
    black: &mut Engine,
    second: &mut Engine,
    variant: Variant,
    seconds: f64,
    opening: &[&str],
) -> Outcome {
    let tc = if seconds > 0.0 {
        TimeControl::Fischer {
            base: seconds,
            inc: 0.0,
        }
    } else {
        TimeControl::None
    };
    let opening: Vec<Move> = opening.iter().map(|m| m.parse().unwrap()).collect();
    let played = referee::play_game(
        [&mut black.proc, &mut second.proc],
        Position::start(variant, Color::Black),
        true,
        &opening,
        [tc, tc],
        RefereeLimits {
            margin: 0.0,
            hang: Duration::from_secs(30),
        },
    )
    .expect("not aborted");
    assert_eq!(
        played.reason,
        Reason::Normal,
        "{} after {:?}",
        played.detail,
        played.moves
    );
    let mut game = Game::new(variant, Color::Black);
    for &m in &played.moves {
        game.play(m).unwrap();
    }
    let [b, w] = played.discs();
    Outcome {
        game,
        black_margin: b as i32 - w as i32,
        max_used: played.used[0].max(played.used[1]),
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
