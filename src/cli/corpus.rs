//! `mollett corpus ...`: sealing a run's open file into chunks and checking
//! the manifest; the work is `mollett::train::chunk`'s.

use clap::Subcommand;
use mollett::train::chunk;
use std::path::PathBuf;

/// `mollett corpus ...`.
#[derive(Subcommand)]
pub enum CorpusCommand {
    /// Write the games of open corpus files (`selfplay --corpus`) that no
    /// chunk holds yet as new chunks, listed in the manifest.
    Seal {
        /// Open corpus files, `SERIES.games`: each is its own series.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The manifest; the chunks go to `chunks/` beside it.
        #[arg(long, default_value = "corpus/manifest.tsv")]
        manifest: PathBuf,
        /// The commit whose build played the games.
        #[arg(long)]
        commit: String,
        /// The command that played them (default: the selfplay header's fields).
        #[arg(long)]
        made_by: Option<String>,
    },
    /// Check every manifest row (file present, SHA-256, games and
    /// positions) and that every chunk is listed; exits non-zero on a problem.
    Check {
        #[arg(long, default_value = "corpus/manifest.tsv")]
        manifest: PathBuf,
        /// Also replay every game through the rules (slower).
        #[arg(long)]
        replay: bool,
    },
}

impl CorpusCommand {
    pub fn run(&self) -> Result<(), String> {
        match self {
            CorpusCommand::Seal {
                files,
                manifest,
                commit,
                made_by,
            } => {
                // The manifest is written, the open files only read.
                let inputs: Vec<mollett::files::RunFile> = files
                    .iter()
                    .map(|f| mollett::files::RunFile::new(f, "an open corpus file this seal reads"))
                    .collect();
                mollett::files::guard("--manifest", manifest, &inputs)?;
                for f in files {
                    let made_by = match made_by {
                        Some(m) => m.clone(),
                        None => mollett::train::corpus::read(f)?.header.to_line(),
                    };
                    let s = chunk::seal(f, manifest, commit, &made_by)?;
                    for skipped in &s.skipped {
                        eprintln!("corpus seal: {}: {skipped} (not sealed)", f.display());
                    }
                    for (path, games) in &s.chunks {
                        println!("{} {games} games", path.display());
                    }
                    eprintln!(
                        "corpus seal: {}: {} new chunks, {} games already sealed",
                        f.display(),
                        s.chunks.len(),
                        s.already
                    );
                }
                Ok(())
            }
            CorpusCommand::Check { manifest, replay } => match chunk::check(manifest, *replay) {
                Ok(rows) => {
                    let games: u64 = rows.iter().map(|r| r.games).sum();
                    println!(
                        "{}: {} files, {games} games, all as listed",
                        manifest.display(),
                        rows.len()
                    );
                    Ok(())
                }
                Err(problems) => {
                    for p in &problems {
                        eprintln!("corpus check: {p}");
                    }
                    Err(format!(
                        "{}: {} problems",
                        manifest.display(),
                        problems.len()
                    ))
                }
            },
        }
    }
}
