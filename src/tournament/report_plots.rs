//! The report page's plots, drawn as SVG text by `plotters`.

use super::report_series::{ColourScore, Curve, EloPoint};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Plot size in SVG units (the page scales it down to narrow screens).
const SIZE: (u32, u32) = (720, 380);
const FONT: &str = "sans-serif";
/// Axis labels and tick labels, in SVG units: readable at the plot's size.
const DESC_SIZE: u32 = 24;
const LABEL_SIZE: u32 = 22;

/// Engines' colours, by their index in the report (colour-blind safe, Okabe-Ito).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
    RGBColor(240, 228, 66),
];
/// The most dots one plot draws: past it, every k-th point of each curve
/// is drawn as a dot (lines and means still use them all), so that a long
/// run's page stays small enough to send.
const MAX_DOTS: usize = 3000;
const BLACK_SIDE: RGBColor = RGBColor(40, 40, 40);
const WHITE_SIDE: RGBColor = RGBColor(170, 170, 170);

pub fn engine_colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws on a fresh SVG of [`SIZE`] and returns its text.
fn svg(draw: impl FnOnce(&Area) -> Result<(), String>) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// A tick label: whole numbers without decimals, others to two.
fn tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn err(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// `(low, high)` of the finite values, widened by a tenth (and to a unit
/// when flat), `fallback` when there are none.
fn range(values: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if lo > hi {
        return fallback;
    }
    let pad = ((hi - lo) * 0.1).max(0.5);
    (lo - pad, hi + pad)
}

/// `(low, high)` with room above the data for the legend, which is drawn
/// in the plot's upper right corner.
fn with_legend_room((lo, hi): (f64, f64)) -> (f64, f64) {
    (lo, hi + (hi - lo) * 0.4)
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

fn legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, LABEL_SIZE))
        .draw()
        .map_err(err)
}

/// Builds the chart of `x` by `y` with labelled axes.
fn chart<'a, 'b>(
    root: &'a Area<'b>,
    x: (f64, f64),
    y: (f64, f64),
    x_desc: &str,
    y_desc: &str,
) -> Result<Chart<'a, 'b>, String> {
    let mut c = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(56)
        .y_label_area_size(76)
        .build_cartesian_2d(x.0..x.1, y.0..y.1)
        .map_err(err)?;
    c.configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FONT, DESC_SIZE))
        .label_style((FONT, LABEL_SIZE))
        .light_line_style(WHITE.mix(0.0))
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .draw()
        .map_err(err)?;
    Ok(c)
}

/// The Elo estimate and its 95% interval after each game; infinite values
/// are drawn at the plot's edge.
pub fn elo(points: &[EloPoint], first: &str) -> Result<String, String> {
    svg(|root| {
        let n = points.last().map_or(1, |p| p.games) as f64;
        let (lo, hi) = range(
            points.iter().flat_map(|p| [p.elo, p.low, p.high]),
            (-100.0, 100.0),
        );
        let (lo, hi) = (lo.min(-10.0), hi.max(10.0));
        let clamp = |v: f64| v.clamp(lo, hi);
        let mut c = chart(
            root,
            (0.0, n.max(1.0)),
            with_legend_room((lo, hi)),
            "games",
            &format!("Elo of {first}"),
        )?;
        let band: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.games as f64, clamp(p.high)))
            .chain(points.iter().rev().map(|p| (p.games as f64, clamp(p.low))))
            .collect();
        c.draw_series(std::iter::once(Polygon::new(
            band,
            PALETTE[0].mix(0.2).filled(),
        )))
        .map_err(err)?
        .label("95% interval")
        .legend(|(x, y)| {
            Rectangle::new([(x, y - 5), (x + 20, y + 5)], PALETTE[0].mix(0.2).filled())
        });
        c.draw_series(LineSeries::new(
            [(0.0, 0.0), (n.max(1.0), 0.0)],
            BLACK.mix(0.5).stroke_width(1),
        ))
        .map_err(err)?;
        c.draw_series(LineSeries::new(
            points.iter().map(|p| (p.games as f64, clamp(p.elo))),
            PALETTE[0].stroke_width(2),
        ))
        .map_err(err)?
        .label("Elo")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], PALETTE[0].stroke_width(2)));
        if let Some(last) = points.last().filter(|p| p.elo.is_infinite()) {
            // A line along the edge says nothing by itself: name its value.
            let (text, y, v) = if last.elo > 0.0 {
                ("Elo +inf (a 100% score)", hi, VPos::Bottom)
            } else {
                ("Elo -inf (a 0% score)", lo, VPos::Top)
            };
            let style = TextStyle::from((FONT, LABEL_SIZE).into_font())
                .color(&PALETTE[0])
                .pos(Pos::new(HPos::Left, v));
            c.draw_series(std::iter::once(Text::new(
                text,
                (n.max(1.0) * 0.02, y),
                style,
            )))
            .map_err(err)?;
        }
        legend(&mut c)
    })
}

/// The SPRT's LLR after each game against its two bounds.
pub fn llr(points: &[EloPoint], bounds: (f64, f64), verdict: &str) -> Result<String, String> {
    svg(|root| {
        let n = points.last().map_or(1, |p| p.games) as f64;
        let values = points.iter().filter_map(|p| p.llr);
        let (lo, hi) = with_legend_room(range(values.chain([bounds.0, bounds.1]), bounds));
        let mut c = chart(
            root,
            (0.0, n.max(1.0)),
            (lo, hi),
            "games",
            "log-likelihood ratio",
        )?;
        for (b, name) in [(bounds.1, "H1 bound"), (bounds.0, "H0 bound")] {
            let colour = if b > 0.0 { PALETTE[2] } else { PALETTE[1] };
            c.draw_series(LineSeries::new(
                [(0.0, b), (n.max(1.0), b)],
                colour.stroke_width(2),
            ))
            .map_err(err)?
            .label(format!("{name} {b:.2}"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
        }
        c.draw_series(LineSeries::new(
            points
                .iter()
                .filter_map(|p| p.llr.map(|l| (p.games as f64, l))),
            PALETTE[0].stroke_width(2),
        ))
        .map_err(err)?
        .label(format!("LLR: {verdict}"))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], PALETTE[0].stroke_width(2)));
        legend(&mut c)
    })
}

/// Score in percent by group, a bar for each colour, with a dashed 50% line.
pub fn colour_scores(groups: &[ColourScore], who: &str) -> Result<String, String> {
    svg(|root| {
        let n = groups.len().max(1) as f64;
        let labels: Vec<String> = groups.iter().map(|g| g.label.clone()).collect();
        let mut c = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(76)
            // Room above 100% for the legend.
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..140.0)
            .map_err(err)?;
        let every = (groups.len() / 24).max(1);
        c.configure_mesh()
            .x_desc("")
            .y_desc(format!("score of {who}, %"))
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .light_line_style(WHITE.mix(0.0))
            .disable_x_mesh()
            .y_label_formatter(&|v| if *v > 100.0 { String::new() } else { tick(v) })
            .x_labels(groups.len().min(24) + 1)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() > 0.01 || i < 0.0 {
                    return String::new();
                }
                let i = i as usize;
                if i.is_multiple_of(every) {
                    labels.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        for (side, colour, dx) in [
            ("as black", BLACK_SIDE, -0.4),
            ("as white", WHITE_SIDE, 0.0),
        ] {
            let tally = move |g: &ColourScore| if dx < 0.0 { g.black } else { g.white };
            if groups.iter().all(|g| tally(g).games == 0) {
                // A side that never played this colour (black's view of a
                // tournament is always black): no bars, no legend entry.
                continue;
            }
            let bars = groups.iter().enumerate().filter_map(move |(i, g)| {
                let t = tally(g);
                t.score().map(|s| {
                    let x = i as f64 + dx;
                    Rectangle::new([(x, 0.0), (x + 0.4, 100.0 * s)], colour.filled())
                })
            });
            c.draw_series(bars)
                .map_err(err)?
                .label(side)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 20, y + 5)], colour.filled())
                });
        }
        c.draw_series(DashedLineSeries::new(
            [(-0.5, 50.0), (n - 0.5, 50.0)],
            6,
            4,
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
        legend(&mut c)
    })
}

/// A histogram of the disc differences, in bins of four discs.
pub fn margins(margins: &[i32], who: &str) -> Result<String, String> {
    svg(|root| {
        const BIN: i32 = 4;
        let mut bins = std::collections::BTreeMap::new();
        for &m in margins {
            *bins.entry(m.div_euclid(BIN) * BIN).or_insert(0u32) += 1;
        }
        let top = bins.values().copied().max().unwrap_or(1) as f64;
        let lo = bins.keys().next().copied().unwrap_or(-8).min(-8) as f64;
        let hi = bins.keys().last().copied().unwrap_or(8).max(8) as f64 + BIN as f64;
        let mut c = chart(
            root,
            (lo, hi),
            (0.0, top * 1.15 + 0.5),
            &format!("disc difference for {who} (bins of {BIN})"),
            "games",
        )?;
        c.draw_series(bins.iter().map(|(&b, &k)| {
            let colour = if b >= 0 { PALETTE[2] } else { PALETTE[1] };
            Rectangle::new(
                [(b as f64 + 0.2, 0.0), ((b + BIN) as f64 - 0.2, k as f64)],
                colour.filled(),
            )
        }))
        .map_err(err)?;
        Ok(())
    })
}

/// Curves of engines (or games) against x, points and a line through each
/// x's mean when `mean_line`.
pub fn curves(
    curves: &[Curve],
    x_desc: &str,
    y_desc: &str,
    mean_line: bool,
    zero_line: bool,
) -> Result<String, String> {
    svg(|root| {
        let (x0, x1) = range(
            curves.iter().flat_map(|c| c.points.iter().map(|p| p.0)),
            (0.0, 1.0),
        );
        let (y0, y1) = range(
            curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)),
            (0.0, 1.0),
        );
        let y0 = if zero_line { y0 } else { y0.max(0.0) };
        let y = with_legend_room((y0, y1));
        let mut c = chart(root, (x0.max(0.0), x1), y, x_desc, y_desc)?;
        if zero_line {
            c.draw_series(LineSeries::new([(x0, 0.0), (x1, 0.0)], BLACK.mix(0.5)))
                .map_err(err)?;
        }
        let mut labelled = std::collections::HashSet::new();
        let dots: usize = curves.iter().map(|c| c.points.len()).sum();
        let every = dots.div_ceil(MAX_DOTS).max(1);
        for curve in curves {
            let colour = engine_colour(curve.engine);
            c.draw_series(
                curve
                    .points
                    .iter()
                    .step_by(every)
                    .map(|&p| Circle::new(p, 2, colour.mix(0.45).filled())),
            )
            .map_err(err)?;
            let line: Vec<(f64, f64)> = if mean_line {
                let mut by_x: std::collections::BTreeMap<i64, (f64, u32)> = Default::default();
                for &(x, y) in &curve.points {
                    let e = by_x.entry(x.round() as i64).or_insert((0.0, 0));
                    e.0 += y;
                    e.1 += 1;
                }
                by_x.into_iter()
                    .map(|(x, (sum, k))| (x as f64, sum / k as f64))
                    .collect()
            } else {
                curve.points.clone()
            };
            let series = c
                .draw_series(LineSeries::new(
                    line,
                    colour.stroke_width(if mean_line { 2 } else { 1 }),
                ))
                .map_err(err)?;
            // One legend entry per engine, however many games it has curves in.
            let name = curve
                .label
                .rsplit(": ")
                .next()
                .unwrap_or(&curve.label)
                .to_string();
            if labelled.insert(curve.engine) {
                series
                    .label(if mean_line {
                        format!("{name} (mean)")
                    } else {
                        name
                    })
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2))
                    });
            }
        }
        legend(&mut c)
    })
}

/// Ratings with their 95% intervals, one row per engine, best on top.
pub fn ratings(rows: &[(String, usize, f64, f64)]) -> Result<String, String> {
    svg(|root| {
        let (lo, hi) = range(
            rows.iter().flat_map(|r| [r.2 - r.3, r.2 + r.3]),
            (-100.0, 100.0),
        );
        let n = rows.len().max(1) as f64;
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let mut c = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(140)
            .build_cartesian_2d(lo..hi, -0.5..n - 0.5)
            .map_err(err)?;
        c.configure_mesh()
            .x_desc("Elo (maximum likelihood, mean 0), 95% interval")
            .axis_desc_style((FONT, DESC_SIZE))
            .label_style((FONT, LABEL_SIZE))
            .light_line_style(WHITE.mix(0.0))
            .disable_y_mesh()
            .x_label_formatter(&tick)
            .y_labels(rows.len() + 1)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() > 0.01 || i < 0.0 {
                    return String::new();
                }
                // Best on top: row 0 is drawn highest.
                let k = rows.len() as i64 - 1 - i as i64;
                usize::try_from(k)
                    .ok()
                    .and_then(|k| names.get(k).cloned())
                    .unwrap_or_default()
            })
            .draw()
            .map_err(err)?;
        for (k, (_, engine, r, m)) in rows.iter().enumerate() {
            let y = (rows.len() - 1 - k) as f64;
            let colour = engine_colour(*engine);
            c.draw_series(std::iter::once(ErrorBar::new_horizontal(
                y,
                r - m,
                *r,
                r + m,
                colour.stroke_width(2),
                10,
            )))
            .map_err(err)?;
            c.draw_series(std::iter::once(Circle::new((*r, y), 5, colour.filled())))
                .map_err(err)?;
        }
        Ok(())
    })
}
