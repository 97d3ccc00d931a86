//! Value parsers shared by the subcommands' arguments.

use mollett::engine::eval::pattern::{self, PatternSet};
use mollett::engine::eval::EvalKind;

/// `handcrafted`, `learned`, or a weight file (checked when given).
pub fn parse_eval(s: &str) -> Result<EvalKind, String> {
    EvalKind::from_name(s)
}

/// `--layout`: the name of a pattern layout (`v1`, `v2`, `o1`).
pub fn parse_layout(s: &str) -> Result<&'static PatternSet, String> {
    pattern::layout(s).ok_or_else(|| {
        let names: Vec<&str> = pattern::layout_names().collect();
        format!("no layout '{s}' (layouts: {})", names.join(", "))
    })
}

/// `--max-eval`: discs, 0 to 64.
pub fn parse_max_eval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=64.0).contains(&x) => Ok(x),
        Ok(_) => Err(format!("{s} is not in 0..=64 (discs)")),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

/// `LO-HI`: a range of plies.
pub fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    s.split_once('-')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .filter(|(a, b)| a <= b && *b <= 60)
        .ok_or_else(|| format!("'{s}': expected LO-HI with LO <= HI <= 60"))
}
