//! The words after `--sprt` (`elo0=A elo1=B [alpha=X] [beta=Y]`), checked
//! one by one as clap reads them and turned into the test.

use mollett::tournament::stats::Sprt;

/// The words after `--sprt` as a test: none when there are none.
pub fn optional_sprt(words: &[String]) -> Result<Option<Sprt>, String> {
    if words.is_empty() {
        Ok(None)
    } else {
        parse_sprt(words).map(Some)
    }
}

/// One word after `--sprt`: `key=value` with a known key and a number (a
/// quoted word may hold several, space-separated). `--sprt` takes every word
/// up to the next option, so a file name after it lands here: the error says
/// so. The command line checks each word with this as it reads it.
pub fn sprt_word(word: &str) -> Result<String, String> {
    for w in word.split_whitespace() {
        sprt_pair(w)?;
    }
    Ok(word.to_string())
}

fn sprt_pair(w: &str) -> Result<(&str, f64), String> {
    let (k, v) = w.split_once('=').ok_or_else(|| {
        format!(
            "'{w}' is not key=value: --sprt takes every word after it up to the next option, so '{w}' was taken as an SPRT word; give file names before --sprt (mollett report FILE... --sprt elo0=A elo1=B)"
        )
    })?;
    if !["elo0", "elo1", "alpha", "beta"].contains(&k) {
        return Err(format!(
            "unknown key '{k}' in '{w}' (elo0, elo1, alpha, beta)"
        ));
    }
    let x: f64 = v
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| format!("bad number '{v}' in '{w}'"))?;
    Ok((k, x))
}

/// Parses `elo0=A elo1=B [alpha=X] [beta=Y]` (the words after `--sprt`).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut t = Sprt::new(f64::NAN, f64::NAN);
    for w in words.iter().flat_map(|w| w.split_whitespace()) {
        let (k, x) = sprt_pair(w).map_err(|e| format!("--sprt: {e}"))?;
        match k {
            "elo0" => t.elo0 = x,
            "elo1" => t.elo1 = x,
            "alpha" => t.alpha = x,
            _ => t.beta = x,
        }
    }
    if t.elo0.is_nan() || t.elo1.is_nan() || t.elo1 <= t.elo0 {
        return Err("--sprt needs elo0=A elo1=B with A < B".into());
    }
    if !(0.0 < t.alpha && t.alpha < 0.5 && 0.0 < t.beta && t.beta < 0.5) {
        return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
    }
    Ok(t)
}
