//! The setup of a `mollett match`/`tournament` run, said once: engine specs
//! and the command line that plays them.

use super::gtp::{fake, mollett, mollett_bin, mollett_ok, results, RHINO};
use mollett::tournament::results::GameRecord;
use std::fmt;
use std::path::Path;
use std::process::{Command, Output};

/// A path as the `&str` a command line takes (test paths are UTF-8).
pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// One `--engine` value (docs/match.md): `name=NAME cmd=PROGRAM ARGS`, then
/// any other `key=value` (`time=frac`, `init=...`, `proto=nboard`).
#[derive(Clone)]
pub struct Spec(String);

impl Spec {
    /// Any program with its arguments.
    pub fn cmd(name: &str, cmd: &str) -> Spec {
        Spec(format!("name={name} cmd={cmd}"))
    }

    /// The fake GTP engine (tests/data/fake_gtp.py) with its options.
    pub fn fake(name: &str, opts: &str) -> Spec {
        Spec::cmd(name, &fake(opts))
    }

    /// GRhino at `level`.
    pub fn rhino(name: &str, level: u32) -> Spec {
        Spec::cmd(name, &format!("{RHINO} -l {level}"))
    }

    /// Mollett itself.
    pub fn mollett(name: &str) -> Spec {
        Spec::cmd(name, mollett_bin())
    }

    /// Adds `key=value`; those the spec reads more than once (`init=`) keep
    /// their order.
    pub fn key(mut self, key_value: &str) -> Spec {
        self.0.push(' ');
        self.0.push_str(key_value);
        self
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A `mollett [--variant V] match|tournament` command line, its words in the
/// order they were added; run it as often as a test needs.
#[derive(Clone)]
pub struct MatchSetup {
    args: Vec<String>,
}

impl MatchSetup {
    /// `mollett match`.
    pub fn new() -> MatchSetup {
        MatchSetup {
            args: vec!["match".to_string()],
        }
    }

    /// `mollett tournament`.
    pub fn tournament() -> MatchSetup {
        MatchSetup {
            args: vec!["tournament".to_string()],
        }
    }

    /// `mollett match` of `games` between the fake `a` and the fake `b`,
    /// which answers in upper case.
    pub fn fakes(games: usize) -> MatchSetup {
        MatchSetup::new()
            .engine(Spec::fake("a", ""))
            .engine(Spec::fake("b", "--upper"))
            .games(games)
    }

    /// `--variant V` before the subcommand.
    pub fn variant(mut self, variant: &str) -> MatchSetup {
        self.args
            .splice(0..0, ["--variant".to_string(), variant.to_string()]);
        self
    }

    /// `--engine SPEC`.
    pub fn engine(self, spec: impl fmt::Display) -> MatchSetup {
        self.args(&["--engine", &spec.to_string()])
    }

    /// `--games N`.
    pub fn games(self, n: usize) -> MatchSetup {
        self.args(&["--games", &n.to_string()])
    }

    /// `--out FILE`.
    pub fn out(self, file: &Path) -> MatchSetup {
        self.args(&["--out", path_str(file)])
    }

    /// `--quiet`.
    pub fn quiet(self) -> MatchSetup {
        self.args(&["--quiet"])
    }

    /// Any other words: `.args(&["--tc", "1+0"])`.
    pub fn args(mut self, words: &[&str]) -> MatchSetup {
        self.args.extend(words.iter().map(|w| w.to_string()));
        self
    }

    /// The words after `mollett`.
    pub fn words(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }

    /// Runs it to the end.
    pub fn run(&self) -> Output {
        mollett(&self.words())
    }

    /// Runs it, which must succeed: its stdout (the report).
    pub fn ok(&self) -> String {
        mollett_ok(&self.words())
    }

    /// Plays it quietly (`--out FILE --quiet` last), which must succeed: the
    /// report and the games `file` then holds.
    pub fn play(self, file: &Path) -> (String, Vec<GameRecord>) {
        let report = self.out(file).quiet().ok();
        (report, results(file))
    }

    /// The command, to spawn and stop before the end.
    pub fn command(&self) -> Command {
        let mut c = Command::new(mollett_bin());
        c.args(&self.args);
        c
    }
}
