//! `--html`: the report as one page, on hand-made result files and on short
//! matches between fake engines: its numbers are the text report's, every
//! plot is there, nothing is loaded from the network, bad input is handled.

mod common;

use common::*;
use mollett::rules::moveline::moves_text;
use mollett::{Color, Move, Position, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A whole game from the start, each ply the legal move at
/// `(seed + 5 * ply) % count`: (moves text, black's discs, white's discs).
fn game(seed: usize) -> (Vec<Move>, u32, u32) {
    let mut pos = Position::start(Variant::Modern, Color::Black);
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let legal = pos.legal_moves();
        let mv = legal[(seed + 5 * moves.len()) % legal.len()];
        moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    let b = pos.discs_of(Color::Black).count_ones();
    let w = pos.discs_of(Color::White).count_ones();
    (moves, b, w)
}

/// A result line as docs/match.md describes it, for game `index` of a
/// match between `black` and `white`, played out; and the points black took.
fn result_line(index: usize, black: &str, white: &str, seed: usize) -> (String, f64) {
    let (moves, b, w) = game(seed);
    let (result, points) = match b.cmp(&w) {
        std::cmp::Ordering::Greater => ("1-0", 1.0),
        std::cmp::Ordering::Less => ("0-1", 0.0),
        std::cmp::Ordering::Equal => ("1/2-1/2", 0.5),
    };
    let line = format!(
        "game={index} pair={} black={black} white={white} variant=modern opening={} start=startpos book=0 moves={} discs={b}-{w} result={result} reason=normal time={}.250/{}.500",
        index / 2,
        index / 2 % 3,
        moves_text(&moves),
        1 + index % 3,
        2 + index % 2,
    );
    (line, points)
}

/// The GGF record of `result_line(index, black, white, seed)`'s game, with a
/// time on every move and black's value (its own view) on black's moves.
fn ggf_line(black: &str, white: &str, seed: usize) -> String {
    let (moves, b, w) = game(seed);
    let mut s = format!(
        "(;GM[Othello]PC[test]PB[{black}]PW[{white}]RE[{:+}.000]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
        b as i32 - w as i32
    );
    for (i, mv) in moves.iter().enumerate() {
        let text = match mv {
            Move::Pass => "PA".to_string(),
            m => m.to_string().to_uppercase(),
        };
        if i % 2 == 0 {
            s.push_str(&format!(
                "B[{text}/{:.2}/0.{:02}]",
                i as f64 / 10.0 - 1.0,
                10 + i
            ));
        } else {
            s.push_str(&format!("W[{text}//0.{:02}]", 20 + i));
        }
    }
    s.push_str(";)");
    s
}

/// A match of `n` games between A and B (pairs, colours swapped) and the
/// points A took; with `ggf`, the GGF twin beside it.
fn write_match(dir: &Path, n: usize, ggf: bool) -> (PathBuf, [u32; 3]) {
    let mut lines = Vec::new();
    let mut ggf_lines = Vec::new();
    let mut wdl = [0u32; 3];
    for i in 0..n {
        let (black, white) = if i % 2 == 0 { ("A", "B") } else { ("B", "A") };
        let (line, black_points) = result_line(i, black, white, i / 2);
        let a = if black == "A" {
            black_points
        } else {
            1.0 - black_points
        };
        wdl[if a == 1.0 {
            0
        } else if a == 0.5 {
            1
        } else {
            2
        }] += 1;
        lines.push(line);
        ggf_lines.push(ggf_line(black, white, i / 2));
    }
    let file = dir.join("games.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    if ggf {
        std::fs::write(dir.join("games.txt.ggf"), ggf_lines.join("\n") + "\n").unwrap();
    }
    (file, wdl)
}

/// `mollett report FILE --html PAGE`: the text report and the page.
fn report_and_page(file: &Path, page: &Path) -> (String, String) {
    let text = mollett_ok(&["report", path_str(file), "--html", path_str(page)]);
    (text, std::fs::read_to_string(page).unwrap())
}

/// The text of the page's element with `id="..."` up to its closing tag.
fn cell(page: &str, id: &str) -> String {
    let start = page
        .find(&format!("id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no id {id} in the page"))
        + id.len()
        + 6;
    let end = start + page[start..].find('<').unwrap();
    page[start..end].replace("&amp;", "&")
}

/// The value of the text report's line `label: value`.
fn text_value<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{label}: ")))
        .unwrap_or_else(|| panic!("no {label:?} in:\n{text}"))
}

/// `<figure id="ID">` holds an SVG drawing with paths or shapes in it.
fn assert_plot(page: &str, id: &str) {
    let start = page
        .find(&format!("<figure id=\"{id}\""))
        .unwrap_or_else(|| panic!("no plot {id}"));
    let figure = &page[start..start + page[start..].find("</figure>").unwrap()];
    let svg = &figure[figure
        .find("<svg")
        .unwrap_or_else(|| panic!("{id}: no <svg>"))..];
    assert!(
        svg.contains("<polyline")
            || svg.contains("<rect")
            || svg.contains("<circle")
            || svg.contains("<path"),
        "{id}: nothing drawn"
    );
    assert!(svg.contains("<text"), "{id}: no axis labels");
}

/// Nothing in the page is fetched: no scripts, style sheets, fonts or
/// images from anywhere, and no link leaves the page's folder.
fn assert_offline(page: &str) {
    for banned in [
        "<script",
        "<link",
        "<img",
        "<iframe",
        "@import",
        "url(",
        "@font-face",
    ] {
        assert!(!page.contains(banned), "page has {banned}");
    }
    for attr in ["src=", "href="] {
        for (i, _) in page.match_indices(attr) {
            let value = &page[i + attr.len()..];
            let value = &value[..value[1..].find(['"', '\'']).map_or(value.len(), |e| e + 2)];
            assert!(!value.contains("//"), "{attr}{value}: loads from elsewhere");
        }
    }
}

#[test]
fn page_numbers_equal_the_text_report_and_every_plot_is_drawn() {
    let dir = tmpdir("html-match");
    let (file, wdl) = write_match(&dir, 12, true);
    let page_path = dir.join("page.html");
    let args = [
        "report",
        path_str(&file),
        "--html",
        path_str(&page_path),
        "--sprt",
        "elo0=0",
        "elo1=20",
    ];
    let text = mollett_ok(&args);
    // The text report is as without --html.
    let plain = mollett_ok(&["report", path_str(&file), "--sprt", "elo0=0", "elo1=20"]);
    assert_eq!(text, plain);
    let page = std::fs::read_to_string(&page_path).unwrap();
    // W-D-L as counted from the records above.
    let page_wdl = cell(&page, "wdl");
    assert!(
        page_wdl.starts_with(&format!("{}-{}-{} ", wdl[0], wdl[1], wdl[2])),
        "{page_wdl} against {wdl:?}"
    );
    for (id, label) in [
        ("games", "Games"),
        ("wdl", "W-D-L"),
        ("score", "Score"),
        ("elo", "Elo"),
        ("los", "LOS"),
        ("discs", "Disc difference"),
        ("pairs", "Pairs (0, 1/2, 1, 3/2, 2 points)"),
        ("faults", "Faults"),
        ("sprt", "SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05"),
    ] {
        assert_eq!(cell(&page, id), text_value(&text, label), "{id}");
    }
    assert_eq!(cell(&page, "games"), "12");
    // Each rating line's engine and rating, in the text's order.
    let text_ratings: Vec<(String, String)> = text
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[1].to_string(), w[2].to_string())
        })
        .collect();
    let page_ratings: Vec<(String, String)> = page
        .split("<tr class=\"rating\">")
        .skip(1)
        .map(|row| {
            let cells: Vec<&str> = row
                .split("<td")
                .skip(1)
                .map(|c| &c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()])
                .collect();
            (cells[1].to_string(), cells[2].to_string())
        })
        .collect();
    assert_eq!(page_ratings, text_ratings);
    assert_eq!(page_ratings.len(), 2);
    for id in [
        "plot-elo",
        "plot-llr",
        "plot-openings",
        "plot-colours",
        "plot-discs",
        "plot-move-times",
        "plot-game-times",
        "plot-evals",
    ] {
        assert_plot(&page, id);
    }
    assert!(
        !page.contains("plot-ratings"),
        "ratings plot is for three or more engines"
    );
    // Every game is listed with its transcript; no board beside: no links.
    assert_eq!(page.matches("<tr class=\"game\"").count(), 12);
    assert!(page.contains(&moves_text(&game(0).0)));
    assert!(!page.contains("index.html?moves="));
    assert_offline(&page);
}

#[test]
fn games_link_to_the_browser_board_beside_the_page() {
    let dir = tmpdir("html-board");
    let (file, _) = write_match(&dir, 2, false);
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!DOCTYPE html>").unwrap();
    let page_path = site.join("report.html");
    let (_, page) = report_and_page(&file, &page_path);
    // The pair's two games play the same moves (seed 0): a link each.
    let link = format!("href=\"index.html?moves={}\"", moves_text(&game(0).0));
    assert_eq!(page.matches(&link).count(), 2, "{link}");
    // Without GGF records there are no move times nor values, and the page says so.
    assert!(page.contains("id=\"no-move-times\"") && page.contains("id=\"no-evals\""));
    assert_offline(&page);
}

#[test]
fn a_tournament_page_has_the_cross_table_and_ratings_with_intervals() {
    let dir = tmpdir("html-tournament");
    let names = ["A", "B", "C"];
    let mut lines = Vec::new();
    // points[i][j]: what i took from j, counted here.
    let mut points = [[0.0f64; 3]; 3];
    let mut index = 0;
    for (i, j) in [(0, 1), (0, 2), (1, 2), (0, 1), (0, 2), (1, 2)] {
        for (b, w) in [(i, j), (j, i)] {
            let (line, pb) = result_line(index, names[b], names[w], index * 7 + 1);
            points[b][w] += pb;
            points[w][b] += 1.0 - pb;
            lines.push(line);
            index += 1;
        }
    }
    let file = dir.join("t.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let page_path = dir.join("t.html");
    let (text, page) = report_and_page(&file, &page_path);
    let cross = &page[page.find("id=\"cross-table\"").expect("cross table")..];
    for (i, name) in names.iter().enumerate() {
        let row = &cross[cross.find(&format!("<tr><th>{name}</th>")).unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        for j in 0..3 {
            let want = if i == j {
                "-".to_string()
            } else {
                format!("{}/4", points[i][j])
            };
            assert!(
                row.contains(&format!(">{want}</td>")),
                "{name} vs {}: {want} in {row}",
                names[j]
            );
        }
    }
    // Ratings: the text's, each inside its interval.
    let mut rows = 0;
    for row in page.split("<tr class=\"rating\">").skip(1) {
        let cells: Vec<&str> = row
            .split("<td")
            .skip(1)
            .map(|c| &c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()])
            .collect();
        let line = text
            .lines()
            .filter(|l| {
                l.split_whitespace()
                    .next()
                    .is_some_and(|w| w.ends_with('.'))
            })
            .find(|l| l.split_whitespace().nth(1) == Some(cells[1]))
            .unwrap();
        assert_eq!(line.split_whitespace().nth(2), Some(cells[2]));
        let r: f64 = cells[2].parse().unwrap();
        let (lo, hi) = cells[3].trim_matches(['[', ']']).split_once(", ").unwrap();
        let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert!(lo < r && r < hi, "{r} in [{lo}, {hi}]");
        rows += 1;
    }
    assert_eq!(rows, 3);
    assert_plot(&page, "plot-ratings");
    assert!(!page.contains("plot-elo") && !page.contains("plot-llr"));
    assert_offline(&page);
}

#[test]
fn an_empty_result_file_gives_a_page_that_says_no_games() {
    let dir = tmpdir("html-empty");
    let file = dir.join("empty.txt");
    std::fs::write(&file, "").unwrap();
    let page_path = dir.join("empty.html");
    let (text, page) = report_and_page(&file, &page_path);
    assert!(text.starts_with("Games: 0\n"), "{text}");
    assert!(page.contains("No games"), "{page}");
    assert!(!page.contains("<svg"));
    assert_offline(&page);
}

#[test]
fn torn_and_unknown_lines_are_reported_as_the_text_report_does() {
    let dir = tmpdir("html-torn");
    let (file, _) = write_match(&dir, 4, false);
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(b"game=9 this is not a game\n");
    let (torn, _) = result_line(4, "A", "B", 2);
    bytes.extend_from_slice(&torn.as_bytes()[..40]);
    std::fs::write(&file, &bytes).unwrap();
    let page_path = dir.join("torn.html");
    let plain = mollett(&["report", path_str(&file)]);
    let html = mollett(&["report", path_str(&file), "--html", path_str(&page_path)]);
    assert!(plain.status.success() && html.status.success());
    assert_eq!(stdout(&html), stdout(&plain));
    assert_eq!(stderr(&html), stderr(&plain));
    let warned = stderr(&plain);
    assert!(
        warned.contains(":5: skipped") && warned.contains("no end"),
        "{warned}"
    );
    let page = std::fs::read_to_string(&page_path).unwrap();
    let skipped = &page[page.find("id=\"skipped\"").expect("skipped lines listed")..];
    assert!(
        skipped.contains(&format!("{}:5: skipped", path_str(&file))),
        "{skipped}"
    );
    assert!(
        skipped.contains("the last line has no end (40 bytes)"),
        "{skipped}"
    );
    assert_eq!(cell(&page, "games"), "4");
}

/// One line on stderr, status non-zero, nothing on stdout.
fn assert_refused(o: &std::process::Output, what: &str) {
    assert!(!o.status.success());
    assert!(stdout(o).is_empty(), "{}", stdout(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mollett: --html") && err.contains(what),
        "{err}"
    );
}

#[test]
fn an_unwritable_html_path_is_refused_before_the_first_game() {
    let dir = tmpdir("html-refused");
    let out = dir.join("games.txt");
    let missing = dir.join("no-such-folder").join("page.html");
    for (html, what) in [
        (missing.clone(), "does not exist"),
        (dir.to_path_buf(), "is a directory"),
    ] {
        let o = MatchSetup::fakes(2)
            .out(&out)
            .args(&["--html", path_str(&html)])
            .quiet()
            .run();
        assert_refused(&o, what);
        // No game was played: the result file was never made.
        assert!(!out.exists());
    }
    let (file, _) = write_match(&dir, 2, false);
    assert_refused(
        &mollett(&["report", path_str(&file), "--html", path_str(&missing)]),
        "does not exist",
    );
    // Nor may the page replace a result file.
    let o = mollett(&["report", path_str(&file), "--html", path_str(&file)]);
    assert_refused(&o, "is a result file");
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with("game=0 "));
}

#[test]
fn a_match_writes_its_page_at_the_end_and_again_on_resume() {
    let dir = tmpdir("html-run");
    let out = dir.join("games.txt");
    let page_path = dir.join("page.html");
    // The NBoard fake answers `=== D3/0.00/0.01`: a value with every move.
    let setup = MatchSetup::new()
        .engine(Spec::fake("nb", "--nboard").key("proto=nboard"))
        .engine(Spec::fake("gtp", "--nopass --upper"))
        .games(4)
        .out(&out)
        .args(&["--html", path_str(&page_path)])
        .quiet();
    let run = |resume: bool| {
        if resume {
            setup.clone().args(&["--resume"]).ok()
        } else {
            setup.ok()
        }
    };
    let text = run(false);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_eq!(cell(&page, "elo"), text_value(&text, "Elo"));
    assert_eq!(page.matches("<tr class=\"game\"").count(), 4);
    // The GGF record keeps the NBoard engine's values, and the page draws them.
    let ggf = std::fs::read_to_string(dir.join("games.txt.ggf")).unwrap();
    assert_eq!(ggf.lines().count(), 4);
    assert!(ggf.lines().all(|g| g.matches("/0/").count() >= 10), "{ggf}");
    assert_plot(&page, "plot-evals");
    assert_plot(&page, "plot-move-times");
    // A resumed run with nothing left to play writes the page again, whole.
    std::fs::remove_file(&page_path).unwrap();
    let again = run(true);
    assert_eq!(again, text);
    let page2 = std::fs::read_to_string(&page_path).unwrap();
    assert_eq!(page2.matches("<tr class=\"game\"").count(), 4);
    assert_eq!(cell(&page2, "wdl"), cell(&page, "wdl"));
    assert_offline(&page2);
}

#[test]
fn a_match_without_out_still_plots_its_move_times() {
    let dir = tmpdir("html-no-out");
    let page_path = dir.join("page.html");
    // Slow enough that its move times show at the GGF's hundredths.
    MatchSetup::new()
        .engine(Spec::fake("a", "--slow 0:0.02"))
        .engine(Spec::fake("b", "--upper"))
        .games(2)
        .args(&["--html", path_str(&page_path)])
        .quiet()
        .ok();
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_eq!(page.matches("<tr class=\"game\"").count(), 2);
    assert_plot(&page, "plot-move-times");
}

/// A long run's page stays small enough to mail: dots and per-game lines
/// are thinned (and the caption says so), every game is still listed.
#[test]
fn a_long_run_gives_a_page_small_enough_to_send() {
    let dir = tmpdir("html-long");
    let (file, _) = write_match(&dir, 2000, true);
    let (_, page) = report_and_page(&file, &dir.join("page.html"));
    assert_eq!(page.matches("<tr class=\"game\"").count(), 2000);
    assert!(page.len() < 3_000_000, "{} bytes", page.len());
    assert!(page.matches("<circle").count() <= 4 * 3000);
    assert!(page.contains("80 of the 2000 lines are drawn, every 25th"));
    assert_plot(&page, "plot-evals");
    assert_plot(&page, "plot-move-times");
}

/// The numbers written as text in the plot `<figure id="ID">` (its axis labels).
fn plot_numbers(page: &str, id: &str) -> Vec<f64> {
    let start = page.find(&format!("<figure id=\"{id}\"")).unwrap();
    let figure = &page[start..start + page[start..].find("</figure>").unwrap()];
    figure
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let inner = &t[t.find('>')? + 1..t.find("</text>")?];
            inner.trim().replace('\u{2212}', "-").parse::<f64>().ok()
        })
        .collect()
}

/// The page never replaces a file its run reads or writes: a result file's
/// GGF twin (whose times and values a resume could not rebuild), the
/// openings, an engine's files. Refused before anything is read or played,
/// with the real reason; `/proc/version` is no file a page can replace.
#[test]
fn the_page_never_replaces_a_file_of_its_run() {
    let dir = tmpdir("html-files");
    let (file, _) = write_match(&dir, 4, true);
    let twin = dir.join("games.txt.ggf");
    let before = std::fs::read(&twin).unwrap();
    let spelled = format!("{}/./games.txt.ggf", path_str(&dir));
    for page in [path_str(&twin), spelled.as_str()] {
        let o = mollett(&["report", path_str(&file), "--html", page]);
        assert_refused(&o, "is the GGF record of the result file");
        assert_eq!(
            std::fs::read(&twin).unwrap(),
            before,
            "the twin was changed"
        );
    }
    let o = mollett(&["report", path_str(&file), "--html", "/proc/version"]);
    assert_refused(&o, "/proc/version: not a regular file you may write");

    // A match: its result file's twin (not made yet), its openings, the
    // engine's program; nothing is played.
    let out = dir.join("m.txt");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f5d6\n").unwrap();
    let program = fake("");
    let program = program.split_whitespace().next().unwrap();
    for (page, what) in [
        (
            dir.join("m.txt.ggf"),
            "is the GGF record of the result file",
        ),
        (openings.clone(), "is the openings file"),
        (PathBuf::from(program), "is a file engine 'a' reads"),
    ] {
        let o = MatchSetup::fakes(2)
            .args(&["--openings", path_str(&openings)])
            .out(&out)
            .args(&["--html", path_str(&page)])
            .quiet()
            .run();
        assert_refused(&o, what);
        assert!(!out.exists(), "a game was played");
    }
    assert_eq!(std::fs::read_to_string(&openings).unwrap(), "f5d6\n");
    assert!(std::fs::read_to_string(program).unwrap().starts_with("#!"));
}

/// A GGF record that is not sound (a value that is no number, a value of
/// 1e19 that an older runner wrote, a cut line) is warned of by the text
/// report and listed on the page, as torn result lines are; the other
/// records' values are drawn on axes with readable numbers.
#[test]
fn damaged_ggf_records_are_reported_and_the_axes_stay_readable() {
    let dir = tmpdir("html-ggf-damaged");
    let (file, _) = write_match(&dir, 6, true);
    let twin = dir.join("games.txt.ggf");
    let text = std::fs::read_to_string(&twin).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[1] = lines[1].replacen("/-1.00/", "/nan/", 1);
    lines[3] = lines[3].replacen("/-1.00/", "/10000000000000000000/", 1);
    lines[4].truncate(120);
    std::fs::write(&twin, lines.join("\n") + "\n").unwrap();
    let page_path = dir.join("page.html");
    let plain = mollett(&["report", path_str(&file)]);
    let html = mollett(&["report", path_str(&file), "--html", path_str(&page_path)]);
    assert!(plain.status.success() && html.status.success());
    assert_eq!(stderr(&html), stderr(&plain));
    let warned = stderr(&plain);
    let twin_name = path_str(&twin);
    for n in [2, 4, 5] {
        assert!(
            warned.contains(&format!("{twin_name}:{n}: skipped")),
            "{n}: {warned}"
        );
    }
    assert!(
        warned.contains("is not a number of discs within ±64"),
        "{warned}"
    );
    assert_eq!(warned.lines().count(), 3, "{warned}");
    let page = std::fs::read_to_string(&page_path).unwrap();
    let skipped = &page[page.find("id=\"skipped\"").expect("skipped lines listed")..];
    for n in [2, 4, 5] {
        assert!(
            skipped.contains(&format!("{twin_name}:{n}: skipped")),
            "{skipped}"
        );
    }
    assert_eq!(cell(&page, "games"), "6");
    assert_plot(&page, "plot-evals");
    let labels = plot_numbers(&page, "plot-evals");
    assert!(!labels.is_empty());
    assert!(labels.iter().all(|v| v.abs() <= 64.0), "{labels:?}");
}

/// A match with an engine whose values are past ±64: the values are never
/// written, so the page's value axes read as discs.
#[test]
fn a_match_with_an_engine_of_wild_values_has_readable_axes() {
    let dir = tmpdir("html-wild");
    let out = dir.join("games.txt");
    let page_path = dir.join("page.html");
    MatchSetup::new()
        .engine(Spec::fake("wild", "--value 1e19"))
        .engine(Spec::fake("sane", "--value +2.10 --upper"))
        .games(2)
        .out(&out)
        .args(&["--html", path_str(&page_path)])
        .quiet()
        .ok();
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(!page.contains("9223372036854775807"));
    assert_plot(&page, "plot-evals");
    let labels = plot_numbers(&page, "plot-evals");
    assert!(labels.iter().all(|v| v.abs() <= 64.0), "{labels:?}");
}

/// Runs `mollett ARGS`: its exit status, its stderr and its peak memory
/// (KiB). Started from a small Python process: a child forked from this
/// test process would count the test's own memory in its peak.
fn mollett_peak(args: &[&str]) -> (bool, String, i64) {
    const RUN: &str = "import resource, subprocess, sys\n\
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n\
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n\
        sys.exit(r.returncode)";
    let o = std::process::Command::new("python3")
        .args(["-c", RUN, mollett_bin()])
        .args(args)
        .output()
        .unwrap();
    let peak = stdout(&o).trim().parse().unwrap();
    (o.status.success(), stderr(&o), peak)
}

/// A line of 100 MB in a result file or its GGF twin is skipped unread
/// (over the 65,536-byte limit), with a warning, in bounded memory.
#[test]
fn a_huge_line_is_skipped_in_bounded_memory() {
    let dir = tmpdir("html-huge");
    let (file, _) = write_match(&dir, 4, true);
    let mb = "x".repeat(1 << 20);
    for path in [file.clone(), dir.join("games.txt.ggf")] {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        for _ in 0..100 {
            f.write_all(mb.as_bytes()).unwrap();
        }
        f.write_all(b"\n").unwrap();
    }
    let page_path = dir.join("page.html");
    let (ok, err, peak) =
        mollett_peak(&["report", path_str(&file), "--html", path_str(&page_path)]);
    assert!(ok, "{err}");
    let over = "skipped: a line of 104857600 bytes, over the limit of 65536";
    assert!(err.contains(&format!("games.txt:5: {over}")), "{err}");
    assert!(err.contains(&format!("games.txt.ggf:5: {over}")), "{err}");
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert_eq!(cell(&page, "games"), "4");
    assert_plot(&page, "plot-evals");
    // The files are 200 MB; what is read of them at once is a line's worth.
    assert!(peak < 64 << 10, "peak {peak} KiB");
}
