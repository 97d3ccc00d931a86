//! The report as one self-contained HTML page (`--html`): the text report's figures, plots, the games.

use super::report::{dedup, elo_text, verdict_text, Figure, Report};
use super::report_plots as plots;
use super::report_series::Series;
use super::results::GameRecord;
use super::results_ggf::{ggf_path, match_details, read_ggf_file};
use super::stats::ml_rating_margins;
use crate::rules::color::Variant;
use crate::rules::ggf::GgfGame;
use crate::rules::moveline::moves_text;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The most per-game lines the evaluation plot draws.
const MAX_EVAL_LINES: usize = 80;

/// What a page is made of.
pub struct Page<'a> {
    pub report: &'a Report,
    /// The games as read (repeats included: the page drops them as the report does).
    pub records: &'a [GameRecord],
    /// The games' GGF records, for per-move times and values.
    pub ggf: &'a [GgfGame],
    /// Lines the result files had that are not games, as warned.
    pub skipped: &'a [String],
    /// Where the games came from, for the page's heading.
    pub sources: &'a [PathBuf],
}

/// The GGF twin of the result file `results` (`FILE.ggf`): its games (none
/// when it is missing), and its lines that are not sound game records,
/// named as warned (a twin that cannot be read is one such line).
pub fn ggf_beside(results: &Path) -> (Vec<GgfGame>, Vec<String>) {
    match read_ggf_file(&ggf_path(results)) {
        Ok(file) => (
            file.games.into_iter().map(|(g, _)| g).collect(),
            file.skipped,
        ),
        Err(e) => {
            let why = format!("{e}: its move times and values are left out");
            log::warn!("{why}");
            (Vec::new(), vec![why])
        }
    }
}

/// The browser board's page beside `out`: games link to it when it is there.
fn board_beside(out: &Path) -> bool {
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    folder.join("index.html").is_file()
}

/// Writes the page to `out` (replaced whole, in one rename).
pub fn write(out: &Path, page: &Page) -> Result<(), String> {
    let html = render(page, board_beside(out))?;
    crate::files::replace(out, html.as_bytes())
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
figure{margin:1em 0}figure svg{max-width:100%;height:auto;display:block}figcaption{color:#555;font-size:.95em}
pre{background:#f7f7f7;padding:.8em;overflow-x:auto}code.moves{word-break:break-all;font-size:.85em}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(520px,100%),1fr));gap:1em}
p.empty{font-size:1.2em;font-weight:bold}";

/// The page's HTML. `board_link`: each game links to the browser board
/// (`index.html?moves=...`) beside the page.
pub fn render(page: &Page, board_link: bool) -> Result<String, String> {
    let report = page.report;
    let mut records = page.records.to_vec();
    dedup(&mut records);
    let mut h = String::new();
    let title = match &report.matchup {
        Some(m) => format!("{} vs {}", m.first, m.second),
        None if report.engines.len() > 2 => format!("{} engines", report.engines.len()),
        None => "no games".to_string(),
    };
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Mollett report: {}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>Mollett report: {}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let sources: Vec<String> = page
        .sources
        .iter()
        .map(|p| escape(&p.display().to_string()))
        .collect();
    if !sources.is_empty() {
        let _ = writeln!(h, "<p>From {}.</p>", sources.join(", "));
    }
    if records.is_empty() {
        h.push_str("<p class=\"empty\" id=\"no-games\">No games: the result files hold no finished game.</p>\n");
    }
    h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n");
    for f in report.head_figures().iter().chain(&report.tail_figures()) {
        figure_row(&mut h, f);
    }
    h.push_str("</table>\n</section>\n");
    if report.matchup.is_none() && report.engines.len() > 2 {
        cross_table(&mut h, report);
    }
    if report.engines.len() >= 2 {
        ratings_table(&mut h, report);
    }
    if !page.skipped.is_empty() {
        h.push_str("<section id=\"skipped\">\n<h2>Lines skipped</h2>\n<p>Lines of the result files and their GGF records that are not sound games, as the warnings on stderr name them:</p>\n<ul>\n");
        for s in page.skipped {
            let _ = writeln!(h, "<li><code>{}</code></li>", escape(s));
        }
        h.push_str("</ul>\n</section>\n");
    }
    if !records.is_empty() {
        let details = match_details(&records, page.ggf);
        let series = Series::build(
            &records,
            &report.engines,
            &details,
            report.sprt.map(|(t, _, _)| t),
        );
        plots_section(&mut h, report, &series)?;
        games_table(&mut h, &records, &details, board_link);
    }
    let _ = write!(
        h,
        "<section id=\"text-report\">\n<h2>Text report</h2>\n<pre>{}</pre>\n</section>\n</body>\n</html>\n",
        escape(&report.to_string())
    );
    Ok(h)
}

fn figure_row(h: &mut String, f: &Figure) {
    let label = if f.label.is_empty() {
        "Engines"
    } else {
        &f.label
    };
    let _ = writeln!(
        h,
        "<tr><th>{}</th><td id=\"{}\">{}</td></tr>",
        escape(label),
        f.id,
        escape(&f.value)
    );
}

fn cross_table(h: &mut String, r: &Report) {
    h.push_str("<section id=\"cross-table\">\n<h2>Cross table</h2>\n<p>Points / games, row against column.</p>\n<table>\n<tr><th></th>");
    for e in &r.engines {
        let _ = write!(h, "<th>{}</th>", escape(e));
    }
    h.push_str("</tr>\n");
    for (i, e) in r.engines.iter().enumerate() {
        let _ = write!(h, "<tr><th>{}</th>", escape(e));
        for j in 0..r.engines.len() {
            let _ = write!(h, "<td class=\"num\">{}</td>", r.cross_cell(i, j));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n</section>\n");
}

/// Each engine's rating and the 95% margin of it, best first.
fn rating_rows(r: &Report) -> Vec<(String, usize, f64, f64)> {
    let margins = ml_rating_margins(&r.ratings, &r.played);
    r.rating_order()
        .into_iter()
        .map(|i| (r.engines[i].clone(), i, r.ratings[i], margins[i]))
        .collect()
}

fn ratings_table(h: &mut String, r: &Report) {
    let _ = write!(
        h,
        "<section id=\"ratings\">\n<h2>Ratings</h2>\n<p>{}. The interval is 95%, from the likelihood's curvature at each rating.</p>\n<table>\n<tr><th>#</th><th>engine</th><th>rating</th><th>95% interval</th><th>games</th><th>W-D-L</th><th>score</th><th>s/game</th></tr>\n",
        escape(r.ratings_heading())
    );
    for (rank, (name, i, rating, margin)) in rating_rows(r).into_iter().enumerate() {
        let w = &r.wdl[i];
        let _ = writeln!(
            h,
            "<tr class=\"rating\"><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">[{}, {}]</td><td class=\"num\">{}</td><td class=\"num\">{}-{}-{}</td><td class=\"num\">{:.1}%</td><td class=\"num\">{:.2}</td></tr>",
            rank + 1,
            escape(&name),
            elo_text(rating),
            elo_text(rating - margin),
            elo_text(rating + margin),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            r.avg_time[i]
        );
    }
    h.push_str("</table>\n</section>\n");
}

fn plot(h: &mut String, id: &str, heading: &str, caption: &str, svg: String) {
    let _ = write!(
        h,
        "<figure id=\"{id}\" class=\"plot\">\n<h3>{}</h3>\n{svg}\n<figcaption>{}</figcaption>\n</figure>\n",
        escape(heading),
        escape(caption)
    );
}

fn plots_section(h: &mut String, r: &Report, s: &Series) -> Result<(), String> {
    h.push_str("<section id=\"plots\">\n<h2>Plots</h2>\n<div class=\"plots\">\n");
    let who = s.view.clone().unwrap_or_else(|| "black".to_string());
    if let Some(m) = &r.matchup {
        plot(
            h,
            "plot-elo",
            "Elo after each game",
            &format!(
                "{}'s Elo against {} with its 95% interval, as the report computes it, after each game; an infinite value (a 0% or 100% score) is drawn at the edge.",
                m.first, m.second
            ),
            plots::elo(&s.elo, &m.first)?,
        );
    }
    if let Some((t, _, v)) = &r.sprt {
        plot(
            h,
            "plot-llr",
            "SPRT log-likelihood ratio",
            &format!(
                "elo0={} elo1={} alpha={} beta={}: the LLR after each game against its bounds; verdict: {}.",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                verdict_text(*v)
            ),
            plots::llr(&s.elo, t.bounds(), verdict_text(*v))?,
        );
    }
    if r.engines.len() > 2 {
        plot(
            h,
            "plot-ratings",
            "Ratings",
            "Each engine's maximum-likelihood rating with its 95% interval.",
            plots::ratings(&rating_rows(r))?,
        );
    }
    plot(
        h,
        "plot-openings",
        "Score by opening",
        &match &s.view {
            Some(first) => format!("{first}'s score in each opening's games, as black and as white (the pair of an opening plays both colours); 'start' is the start position."),
            None => "Black's score in each opening's games, whoever played it: which openings favour a colour; 'start' is the start position.".to_string(),
        },
        plots::colour_scores(&s.by_opening, &who)?,
    );
    plot(
        h,
        "plot-colours",
        "Score by colour",
        "Each engine's score as black and as white.",
        plots::colour_scores(&s.by_colour, "each engine")?,
    );
    plot(
        h,
        "plot-discs",
        "Disc difference",
        &format!(
            "The final disc difference of the {} games played out, for {who}.",
            s.margins.len()
        ),
        plots::margins(&s.margins, &who)?,
    );
    if s.move_times.is_empty() {
        let _ = writeln!(
            h,
            "<p id=\"no-move-times\">Time per move: no GGF record with move times (the GGF twin FILE.ggf of a modern run holds them).</p>"
        );
    } else {
        plot(
            h,
            "plot-move-times",
            "Time per move",
            &format!(
                "Seconds each engine spent on its moves against the ply (dots) and their mean at each ply, from the GGF records of {} games; opening plies and forced passes left out.",
                s.with_details
            ),
            plots::curves(&s.move_times, "ply", "seconds per move", true, false)?,
        );
    }
    plot(
        h,
        "plot-game-times",
        "Time per game",
        "Seconds each engine used in each game, against the game's index.",
        plots::curves(&s.game_times, "game", "seconds per game", false, false)?,
    );
    if s.evals.is_empty() {
        let _ = writeln!(
            h,
            "<p id=\"no-evals\">Evaluation: no engine reported a value with its moves (NBoard engines do, in <code>=== F5/1.50/1.23</code>, and GTP engines that answer Mollett's <code>last_value</code>).</p>"
        );
    } else {
        // A line per game is read for a few dozen games; a long run shows
        // that many, evenly spaced by index.
        let every = s.evals.len().div_ceil(MAX_EVAL_LINES).max(1);
        let shown: Vec<_> = s.evals.iter().step_by(every).cloned().collect();
        let sampled = if every > 1 {
            format!(
                "; {} of the {} lines are drawn, every {every}th",
                shown.len(),
                s.evals.len()
            )
        } else {
            String::new()
        };
        plot(
            h,
            "plot-evals",
            "Evaluation over the plies",
            &format!(
                "Each game's values in discs from {who}'s view (an engine's own value turned round when it is the other side), one line per game and engine that reported them{sampled}."
            ),
            plots::curves(&shown, "ply", &format!("value for {who}, discs"), false, true)?,
        );
    }
    h.push_str("</div>\n</section>\n");
    Ok(())
}

fn games_table(
    h: &mut String,
    records: &[GameRecord],
    details: &[Option<&GgfGame>],
    board_link: bool,
) {
    h.push_str("<section id=\"games\">\n<h2>Games</h2>\n<table>\n<tr><th>game</th><th>pair</th><th>black</th><th>white</th><th>opening</th><th>result</th><th>discs</th><th>reason</th><th>seconds</th><th>moves</th></tr>\n");
    for (r, _) in records.iter().zip(details) {
        let moves = if r.moves.is_empty() {
            "-".to_string()
        } else {
            moves_text(&r.moves)
        };
        // The board replays moves from the start position only.
        let link = (board_link && r.start.is_none() && !r.moves.is_empty()).then(|| {
            let variant = match r.variant {
                Variant::Classic => "&amp;variant=classic",
                Variant::Modern => "",
            };
            format!(" <a class=\"board\" href=\"index.html?moves={moves}{variant}\">open on the board</a>")
        });
        let _ = writeln!(
            h,
            "<tr class=\"game\" id=\"game-{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}-{}</td><td>{}</td><td class=\"num\">{:.2} / {:.2}</td><td><code class=\"moves\">{}</code>{}</td></tr>",
            r.index,
            r.index,
            r.pair,
            escape(&r.black),
            escape(&r.white),
            r.opening.map_or("-".to_string(), |o| o.to_string()),
            r.outcome.text(),
            r.discs[0],
            r.discs[1],
            r.reason.name(),
            r.time[0],
            r.time[1],
            escape(&moves),
            link.unwrap_or_default()
        );
    }
    h.push_str("</table>\n</section>\n");
}
