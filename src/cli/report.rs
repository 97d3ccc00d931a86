//! `report`: the report of result files, with the SPRT's verdict and its page.

use super::games::{check_html, result_files};
use super::sprt::{optional_sprt, sprt_word};
use clap::Args;
use mollett::tournament::report::{read_files, Report};
use mollett::tournament::report_html;
use std::path::PathBuf;

/// `mollett report`.
#[derive(Args)]
pub struct ReportArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write the report as one HTML page with plots.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// SPRT bounds: elo0=A elo1=B [alpha=X beta=Y]; takes every word
    /// after it, so give the files first.
    #[arg(long, num_args = 1.., value_parser = sprt_word)]
    sprt: Vec<String>,
}

impl ReportArgs {
    /// `mollett report`: the report of the result files, with the SPRT's
    /// verdict when `--sprt` is given, and its page with `--html`.
    pub fn run(&self) -> Result<Report, String> {
        let sprt = optional_sprt(&self.sprt)?;
        check_html(self.html.as_ref(), &result_files(&self.files))?;
        let read = read_files(&self.files)?;
        mollett::files::warn_empty(&self.files);
        let report = Report::build(&read.records, sprt);
        // The GGF twins are read even without a page, so that a damaged
        // record is warned of as a torn result line is.
        let mut ggf = Vec::new();
        let mut skipped = read.skipped.clone();
        for f in &self.files {
            let (games, damaged) = report_html::ggf_beside(f);
            ggf.extend(games);
            skipped.extend(damaged);
        }
        if let Some(path) = &self.html {
            let page = report_html::Page {
                report: &report,
                records: &read.records,
                ggf: &ggf,
                skipped: &skipped,
                sources: &self.files,
            };
            report_html::write(path, &page)?;
        }
        Ok(report)
    }
}
