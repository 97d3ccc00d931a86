//! The `--engine` option's value: how to start one engine and drive it.

use crate::protocol::Protocol;
use crate::tournament::types::TimeControl;
use std::path::PathBuf;
use std::str::FromStr;

/// How GTP `time_settings` and `time_left` write seconds. Either way times are
/// rounded down, so an engine never believes it has more than it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFormat {
    /// Whole seconds (GRhino refuses fractions): the default.
    Int,
    /// Milliseconds as three decimals, for engines that accept them (Mollett).
    Frac,
}

impl TimeFormat {
    /// `secs` as this format writes it. A `budget` (`time_settings`) is at
    /// least one unit, as 0 means no limit there; a time left may be 0.
    pub fn secs(self, secs: f64, budget: bool) -> String {
        let floor = budget as u64;
        match self {
            TimeFormat::Int => (secs.max(0.0).floor() as u64).max(floor).to_string(),
            TimeFormat::Frac => {
                // The nudge keeps 0.57 from printing as 0.569 (0.57 * 1000 is
                // 569.999...); it is a nanosecond, far below any clock's grain.
                let ms = ((secs.max(0.0) * 1000.0 + 1e-6).floor() as u64).max(floor);
                format!("{}.{:03}", ms / 1000, ms % 1000)
            }
        }
    }
}

/// How to start and drive one engine: the `--engine` option's value.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// Program and arguments, split on whitespace (no shell quoting).
    pub cmd: String,
    pub dir: Option<PathBuf>,
    pub proto: Protocol,
    /// Overrides the match's time control for this engine (`tc=none`: no clock).
    pub tc: Option<TimeControl>,
    /// Commands sent once after start-up, e.g. `set_option depth 10`.
    pub init: Vec<String>,
    /// How clock times are written (GTP).
    pub time: TimeFormat,
}

const SPEC_KEYS: [&str; 8] = ["name", "cmd", "dir", "proto", "tc", "st", "init", "time"];

impl FromStr for EngineSpec {
    type Err = String;

    /// Space-separated `key=value` pairs; a token that does not start with a
    /// known `key=` continues the previous value (`cmd=gtp-rhino -l 4`).
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for tok in s.split_whitespace() {
            let key = tok.split_once('=').map(|(k, _)| k);
            match key {
                Some(k) if SPEC_KEYS.contains(&k) => {
                    pairs.push((k.to_string(), tok[k.len() + 1..].to_string()));
                }
                _ => match pairs.last_mut() {
                    Some((_, v)) => {
                        if !v.is_empty() {
                            v.push(' ');
                        }
                        v.push_str(tok);
                    }
                    None => return Err(format!("engine spec must start with key=value: '{tok}'")),
                },
            }
        }
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            dir: None,
            proto: Protocol::Gtp,
            tc: None,
            init: Vec::new(),
            time: TimeFormat::Int,
        };
        for (k, v) in pairs {
            match k.as_str() {
                "name" => spec.name = v,
                "cmd" => spec.cmd = v,
                "dir" => spec.dir = Some(PathBuf::from(v)),
                "proto" => {
                    spec.proto = v.parse()?;
                }
                "tc" => spec.tc = Some(v.parse()?),
                "st" => {
                    let st: f64 = v.parse().map_err(|_| format!("bad st '{v}'"))?;
                    spec.tc = Some(TimeControl::PerMove(st));
                }
                "init" => spec.init.push(v),
                "time" => {
                    spec.time = match v.to_ascii_lowercase().as_str() {
                        "int" => TimeFormat::Int,
                        "frac" => TimeFormat::Frac,
                        _ => return Err(format!("unknown time format '{v}' (int or frac)")),
                    }
                }
                _ => unreachable!("keys are checked above"),
            }
        }
        if spec.cmd.trim().is_empty() {
            return Err("engine spec needs cmd=PROGRAM".to_string());
        }
        if spec.name.is_empty() {
            let program = spec.cmd.split_whitespace().next().unwrap_or("engine");
            spec.name = std::path::Path::new(program)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.to_string());
        }
        // Names go into whitespace-separated result lines.
        spec.name = spec.name.split_whitespace().collect::<Vec<_>>().join("_");
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_values_continue_over_spaces() {
        let s: EngineSpec = "name=rhino cmd=/usr/games/gtp-rhino -l 4 init=set_option depth 10"
            .parse()
            .unwrap();
        assert_eq!(s.name, "rhino");
        assert_eq!(s.cmd, "/usr/games/gtp-rhino -l 4");
        assert_eq!(s.init, vec!["set_option depth 10".to_string()]);
        let s: EngineSpec = "cmd=target/release/mollett tc=none".parse().unwrap();
        assert_eq!(s.name, "mollett");
        assert_eq!(s.tc, Some(TimeControl::None));
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x proto=uci".parse::<EngineSpec>().is_err());
        assert_eq!(s.time, TimeFormat::Int);
        let s: EngineSpec = "cmd=mollett time=frac".parse().unwrap();
        assert_eq!(s.time, TimeFormat::Frac);
        assert!("cmd=x time=ms".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn clock_times_round_down() {
        let int = |t, budget| TimeFormat::Int.secs(t, budget);
        let frac = |t, budget| TimeFormat::Frac.secs(t, budget);
        assert_eq!(int(60.0, true), "60");
        assert_eq!(int(2.9, false), "2");
        // A budget is never 0 (no limit); a time left may be.
        assert_eq!(int(0.4, true), "1");
        assert_eq!(int(0.4, false), "0");
        assert_eq!(frac(0.4, false), "0.400");
        assert_eq!(frac(1.0, true), "1.000");
        assert_eq!(frac(0.57, false), "0.570");
        assert_eq!(frac(12.34567, false), "12.345");
        assert_eq!(frac(0.0009, false), "0.000");
        assert_eq!(frac(0.0004, true), "0.001");
        assert_eq!(frac(-0.3, false), "0.000");
    }
}
