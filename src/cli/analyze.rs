//! `mollett analyze`: its arguments and what it prints (the work is in
//! `mollett::analyze`; docs/analyze.md).

use super::run_file::RunFileArgs;
use super::stop::CtrlC;
use clap::Args;
use mollett::analyze::record::MoveRecord;
use mollett::analyze::report::{games_ggf, games_json, games_text, summary_text};
use mollett::analyze::run::{run, AnalyzeConfig, Output};
use mollett::analyze::sources::ReviewGame;
use mollett::engine::review::ReviewDepth;
use mollett::files::RunFile;
use mollett::rules::Variant;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// Games: GGF, WTHOR .wtb (names from WTHOR.JOU beside), result files,
    /// transcripts (one a line); analysis files (--out) are read as done.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Exact values from this many empties before the move down (0 to 30).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact: u32,
    /// Midgame search depth before that (1 to 30).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Games reviewed at once, one search thread each, so that the values
    /// are those of one thread (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Transposition table size in megabytes, for each game reviewed at
    /// once (1 to 65536).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// One JSON object a move on stdout, instead of the text tables.
    #[arg(long)]
    json: bool,
    /// The players ranked over all their games and the opening moves most
    /// often lost, instead of each game's table.
    #[arg(long)]
    summary: bool,
    /// With --summary: rank only players with at least this many games
    /// (1 to 1000000); the opening figures count everyone's moves.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    min_games: u64,
    /// Also write the reviewed games as GGF (values in each move, marked
    /// moves in a comment), replaced whole at the end.
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    #[command(flatten)]
    run: RunFileArgs,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

impl AnalyzeArgs {
    /// Reviews the games and prints the result; Ctrl-C stops after the
    /// last whole move (kept in --out) with a failing status.
    pub fn run(self, variant: Variant, stop: CtrlC) -> Result<(), String> {
        if self.run.resume && self.run.out.is_none() {
            return Err("--resume needs --out".into());
        }
        let inputs: Vec<RunFile> = self
            .files
            .iter()
            .map(|f| RunFile::new(f, "a file to analyse"))
            .collect();
        if let Some(out) = &self.run.out {
            mollett::files::guard("--out", out, &inputs)?;
        }
        if let Some(ggf) = &self.ggf {
            let mut others = inputs;
            others.extend(
                self.run
                    .out
                    .iter()
                    .map(|o| RunFile::new(o, "the --out file")),
            );
            mollett::files::guard("--ggf", ggf, &others)?;
        }
        let cfg = AnalyzeConfig {
            files: self.files,
            variant,
            depth: ReviewDepth {
                exact_from: self.exact,
                depth: self.depth,
            },
            threads: self.threads as usize,
            hash_mb: self.hash as usize,
            shard: self.run.shard,
            out: self.run.out,
            resume: self.run.resume,
            progress: !self.quiet,
        };
        let mut out = Stdout {
            json: self.json,
            tables: !self.json && !self.summary,
            given: Vec::new(),
        };
        let analysis = run(&cfg, &stop(), &mut out)?;
        if let Some(path) = &self.ggf {
            let text: String = games_ggf(&analysis.games, &analysis.records)
                .iter()
                .map(|g| g.to_string() + "\n")
                .collect();
            mollett::files::replace(path, text.as_bytes())?;
        }
        if self.summary {
            print!(
                "{}",
                summary_text(&analysis.records, self.min_games as usize)
            );
        } else {
            // The games only read back from analysis files, after those reviewed.
            let rest: Vec<MoveRecord> = (out.given.iter())
                .filter(|r| !analysis.games.iter().any(|g| g.id == r.game))
                .cloned()
                .collect();
            if self.json {
                print!("{}", games_json(&[], &rest));
            } else {
                print!("{}", games_text(&[], &rest));
            }
        }
        if analysis.interrupted {
            return Err(match &cfg.out {
                Some(_) => "interrupted: rerun with --resume to analyse the rest".into(),
                None => "interrupted: give --out to keep what is analysed".into(),
            });
        }
        Ok(())
    }
}

/// Each game's rows on stdout as soon as the game is done: its JSON lines
/// (`--json`: the game's facts, then its records) or its table; with
/// `--summary`, nothing until the end.
struct Stdout {
    json: bool,
    tables: bool,
    /// The records read from analysis files: a game's rows from both are
    /// written as one game, those only read back at the end.
    given: Vec<MoveRecord>,
}

impl Stdout {
    fn print(text: &str) -> Result<(), String> {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("stdout: {e}"))
    }
}

impl Output for Stdout {
    fn given(&mut self, records: &[MoveRecord]) -> Result<(), String> {
        if self.json || self.tables {
            self.given = records.to_vec();
        }
        Ok(())
    }

    fn game(&mut self, game: &ReviewGame, records: &[MoveRecord]) -> Result<(), String> {
        if !self.json && !self.tables {
            return Ok(());
        }
        // A game also in an analysis file read: its rows from both, as one game.
        let mut all: Vec<MoveRecord> = (self.given.iter())
            .filter(|r| r.game == game.id)
            .cloned()
            .collect();
        all.extend_from_slice(records);
        let game = std::slice::from_ref(game);
        Stdout::print(&if self.json {
            games_json(game, &all)
        } else {
            games_text(game, &all)
        })
    }
}
