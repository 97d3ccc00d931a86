//! One tuned option as `--param` gives it (`NAME=START,MIN,MAX,C_END[,R_END]`),
//! its canonical text and the value sent to the engine.

use std::fmt;
use std::str::FromStr;

/// `r_end` when a parameter gives none (Fishtest's default).
pub const DEFAULT_R_END: f64 = 0.002;
/// Keys of an iteration line; parameters may not take these names.
const LINE_KEYS: [&str; 3] = ["iter", "wdl", "result"];

/// One tuned option: `NAME=START,MIN,MAX,C_END[,R_END]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// `a_end / c_end²` at the last iteration.
    pub r_end: f64,
    /// Sent rounded: START, MIN and MAX were written without a decimal point
    /// (an integer option refuses `3.0`).
    pub integer: bool,
}

impl FromStr for Param {
    type Err = String;

    fn from_str(s: &str) -> Result<Param, String> {
        let bad = |why: &str| format!("--param '{s}': {why}");
        let (name, values) = s
            .split_once('=')
            .ok_or_else(|| bad("expected NAME=START,MIN,MAX,C_END[,R_END]"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(bad("bad option name"));
        }
        if LINE_KEYS.contains(&name) {
            return Err(bad("that name is reserved for the output lines"));
        }
        let words: Vec<&str> = values.split(',').map(str::trim).collect();
        if !(4..=5).contains(&words.len()) {
            return Err(bad("expected NAME=START,MIN,MAX,C_END[,R_END]"));
        }
        let nums = words
            .iter()
            .map(|w| w.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad("values must be numbers"))?;
        let p = Param {
            name: name.to_string(),
            start: nums[0],
            min: nums[1],
            max: nums[2],
            c_end: nums[3],
            r_end: nums.get(4).copied().unwrap_or(DEFAULT_R_END),
            integer: words[..3].iter().all(|w| !w.contains(['.', 'e', 'E'])),
        };
        if !(p.min < p.max && (p.min..=p.max).contains(&p.start)) {
            return Err(bad("needs MIN < MAX and START within them"));
        }
        if !(p.c_end > 0.0 && p.r_end > 0.0) {
            return Err(bad("C_END and R_END must be positive"));
        }
        Ok(p)
    }
}

impl fmt::Display for Param {
    /// The canonical form, written in the output file's header.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = |x: f64| {
            if self.integer {
                format!("{x}")
            } else {
                format!("{x:?}") // keeps the decimal point: `3.0`
            }
        };
        write!(
            f,
            "{}={},{},{},{},{}",
            self.name,
            v(self.start),
            v(self.min),
            v(self.max),
            self.c_end,
            self.r_end
        )
    }
}

impl Param {
    /// The value as sent to the engine: rounded for integer options, else at
    /// most six decimals.
    pub fn text(&self, v: f64) -> String {
        if self.integer {
            return format!("{}", v.round() as i64);
        }
        let s = format!("{v:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    }

    pub(super) fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_parse_and_print() {
        let p: Param = "depth=3,1,6,1".parse().unwrap();
        assert!(p.integer);
        assert_eq!((p.start, p.min, p.max, p.c_end), (3.0, 1.0, 6.0, 1.0));
        assert_eq!(p.r_end, DEFAULT_R_END);
        assert_eq!(p.text(3.49), "3");
        assert_eq!(p.text(3.5), "4");
        assert_eq!(p.to_string(), "depth=3,1,6,1,0.002");
        let f: Param = "time_hard_factor=4.0,1,10,0.5,0.01".parse().unwrap();
        assert!(!f.integer);
        assert_eq!(f.text(4.25), "4.25");
        assert_eq!(f.text(4.0), "4");
        assert_eq!(f.text(1.0 / 3.0), "0.333333");
        assert_eq!(f.to_string(), "time_hard_factor=4.0,1.0,10.0,0.5,0.01");
        assert_eq!(f.to_string().parse::<Param>(), Ok(f));
        for bad in [
            "depth",
            "depth=3,1,6",
            "depth=7,1,6,1",
            "depth=3,6,1,1",
            "depth=3,1,6,0",
            "depth=x,1,6,1",
            "result=1,0,2,1",
        ] {
            assert!(bad.parse::<Param>().is_err(), "{bad}");
        }
    }
}
