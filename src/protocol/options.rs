//! The option table: one list drives `set_option`, `get_option`, `options`
//! and the search settings.

use crate::engine::eval::EvalKind;
use crate::engine::search::params::Params;
use crate::engine::search::{Scoring, Settings};
use crate::engine::timeman::TimeParams;
use std::fmt;

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int {
        min: u64,
        max: u64,
    },
    Float {
        min: f64,
        max: f64,
    },
    Choice(&'static [&'static str]),
    /// Free text (no spaces), checked by the function.
    Text(fn(&str) -> Result<(), String>),
}

/// One row of the option table.
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub default: &'static str,
    pub description: &'static str,
}

/// Every option, in the order `options` lists them.
pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "threads",
        kind: Kind::Int { min: 1, max: 256 },
        default: "1",
        description: "search threads",
    },
    OptionSpec {
        name: "hash",
        kind: Kind::Int { min: 1, max: 65536 },
        default: "16",
        description: "transposition table size in MB",
    },
    OptionSpec {
        name: "depth",
        kind: Kind::Int { min: 0, max: 60 },
        default: "0",
        description: "deepest midgame iteration per move (0: no limit)",
    },
    OptionSpec {
        name: "movetime",
        kind: Kind::Int {
            min: 0,
            max: 86_400_000,
        },
        default: "1000",
        description: "ms per move when no clock runs (0: no limit)",
    },
    OptionSpec {
        name: "nodes",
        kind: Kind::Int {
            min: 0,
            max: u64::MAX,
        },
        default: "0",
        description: "nodes per move (0: no limit)",
    },
    OptionSpec {
        name: "scoring",
        kind: Kind::Choice(&["discs", "empties"]),
        default: "discs",
        description: "final score: discs on the board, or empties to the winner",
    },
    OptionSpec {
        name: "randomness",
        kind: Kind::Float {
            min: 0.0,
            max: 64.0,
        },
        default: "0",
        description: "play any move within this many discs of the best (0: deterministic)",
    },
    OptionSpec {
        name: "seed",
        kind: Kind::Int {
            min: 0,
            max: u64::MAX,
        },
        default: "0",
        description: "random seed for randomness",
    },
    OptionSpec {
        name: "endgame",
        kind: Kind::Int { min: 0, max: 60 },
        default: "18",
        description: "empties at which play becomes exact",
    },
    OptionSpec {
        name: "margin",
        kind: Kind::Int {
            min: 0,
            max: 60_000,
        },
        default: "50",
        description: "ms kept back from the clock for latency",
    },
    OptionSpec {
        name: "eval",
        kind: Kind::Text(check_eval),
        default: "learned",
        description: "static evaluation: handcrafted, learned (the weights built in), or the path of a weight file from mollett train",
    },
    OptionSpec {
        name: "level",
        kind: Kind::Int { min: 0, max: 60 },
        default: "0",
        description: "shorthand: level N sets depth N, endgame min(2N, 60) and movetime 0 (0: leaves them alone)",
    },
    OptionSpec {
        name: "probcut",
        kind: Kind::Float { min: 0.0, max: 10.0 },
        default: "1.5",
        description: "ProbCut confidence in standard deviations of the shallow search's error (0: off)",
    },
    OptionSpec {
        name: "probcut_depth",
        kind: Kind::Int { min: 2, max: 60 },
        default: "3",
        description: "midgame nodes at least this deep try ProbCut",
    },
    OptionSpec {
        name: "tempo",
        kind: Kind::Float { min: -8.0, max: 8.0 },
        default: "1.3",
        description: "discs added to the side to move's evaluation at the search's leaves (evens out odd and even depths)",
    },
    OptionSpec {
        name: "aspiration",
        kind: Kind::Float { min: 0.01, max: 64.0 },
        default: "2",
        description: "half-width in discs of the first aspiration window",
    },
    OptionSpec {
        name: "aspiration_depth",
        kind: Kind::Int { min: 1, max: 60 },
        default: "4",
        description: "first iteration searched with an aspiration window",
    },
    OptionSpec {
        name: "presearch_depth",
        kind: Kind::Int { min: 1, max: 60 },
        default: "6",
        description: "midgame iterations before an exact solve (past 17 empties, with the score within 32 discs, they go on to the end with ProbCut)",
    },
    OptionSpec {
        name: "iteration_growth",
        kind: Kind::Float { min: 1.0, max: 100.0 },
        default: "2.5",
        description: "no new iteration that, this many times longer than the last, would pass the hard time limit",
    },
    OptionSpec {
        name: "order_eval_depth",
        kind: Kind::Int { min: 0, max: 60 },
        default: "3",
        description: "midgame nodes at least this deep order moves by evaluation, shallower ones by mobility",
    },
    OptionSpec {
        name: "order_mobility",
        kind: Kind::Int { min: 0, max: 10_000 },
        default: "16",
        description: "midgame ordering points per opponent reply",
    },
    OptionSpec {
        name: "time_reserve",
        kind: Kind::Float { min: 0.0, max: 60.0 },
        default: "1.9",
        description: "own moves kept in reserve beyond the estimate of moves left",
    },
    OptionSpec {
        name: "time_hard_factor",
        kind: Kind::Float { min: 1.0, max: 100.0 },
        default: "4.8",
        description: "hard time limit as a multiple of the soft target",
    },
    OptionSpec {
        name: "time_max_share",
        kind: Kind::Float { min: 0.01, max: 1.0 },
        default: "0.5",
        description: "largest share of the time left one move may take",
    },
    OptionSpec {
        name: "time_byo_share",
        kind: Kind::Float { min: 0.01, max: 1.0 },
        default: "0.6",
        description: "share of a byo-yomi stone's time aimed for",
    },
    OptionSpec {
        name: "time_byo_borrow",
        kind: Kind::Float { min: 0.0, max: 1.0 },
        default: "0.5",
        description: "share of one byo-yomi stone's time a move in main time may borrow",
    },
];

/// Accepts the built-in evaluations' names, or a weight file that loads.
fn check_eval(text: &str) -> Result<(), String> {
    EvalKind::from_name(text).map(|_| ())
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(u64),
    Float(f64),
    Choice(usize),
    Text(String),
}

impl OptionSpec {
    fn parse(&self, text: &str) -> Result<Value, String> {
        match self.kind {
            Kind::Int { min, max } => {
                if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!("invalid value: {} takes an integer", self.name));
                }
                match text.parse::<u64>() {
                    Ok(v) if (min..=max).contains(&v) => Ok(Value::Int(v)),
                    _ => Err(format!(
                        "value out of range: {} takes {}",
                        self.name,
                        self.range()
                    )),
                }
            }
            Kind::Float { min, max } => {
                let v = text
                    .parse::<f64>()
                    .ok()
                    .filter(|v| {
                        v.is_finite()
                            && text
                                .bytes()
                                .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
                    })
                    .ok_or_else(|| format!("invalid value: {} takes a number", self.name))?;
                if (min..=max).contains(&v) {
                    Ok(Value::Float(v))
                } else {
                    Err(format!(
                        "value out of range: {} takes {}",
                        self.name,
                        self.range()
                    ))
                }
            }
            Kind::Choice(names) => names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(text))
                .map(Value::Choice)
                .ok_or_else(|| format!("invalid value: {} takes {}", self.name, self.range())),
            Kind::Text(check) => {
                if text.is_empty() || text.contains(char::is_whitespace) {
                    return Err(format!(
                        "invalid value: {} takes {}",
                        self.name,
                        self.range()
                    ));
                }
                check(text)
                    .map(|()| Value::Text(text.to_string()))
                    .map_err(|e| format!("invalid value: {}: {e}", self.name))
            }
        }
    }

    fn show(&self, v: &Value) -> String {
        match (v, self.kind) {
            (Value::Int(v), _) => v.to_string(),
            (Value::Float(v), _) => v.to_string(),
            (Value::Choice(i), Kind::Choice(names)) => names[*i].to_string(),
            (Value::Choice(i), _) => i.to_string(),
            (Value::Text(t), _) => t.clone(),
        }
    }

    /// `min..max` or `a|b`.
    pub fn range(&self) -> String {
        match self.kind {
            Kind::Int { min, max } => format!("{min}..{max}"),
            Kind::Float { min, max } => format!("{min}..{max}"),
            Kind::Choice(names) => names.join("|"),
            Kind::Text(_) => "handcrafted|learned|PATH".to_string(),
        }
    }
}

/// Current values, one per row of `OPTIONS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    values: Vec<Value>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            values: OPTIONS
                .iter()
                .map(|o| o.parse(o.default).expect("option defaults are valid"))
                .collect(),
        }
    }
}

fn find(name: &str) -> Result<usize, String> {
    OPTIONS
        .iter()
        .position(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option: {name}"))
}

impl Options {
    /// Sets an option; an unknown name or bad value changes nothing.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let i = find(name)?;
        let v = OPTIONS[i].parse(value)?;
        if OPTIONS[i].name == "level" {
            if let Value::Int(n) = v {
                if n > 0 {
                    // A level is a midgame depth and exact solving from twice
                    // as many empties; a clock, when one runs, still bounds the
                    // time. (NBoard's `set depth` is that dialect's own.)
                    self.set("depth", &n.to_string())?;
                    self.set("endgame", &(2 * n).min(60).to_string())?;
                    self.set("movetime", "0")?;
                }
            }
        }
        self.values[i] = v;
        Ok(())
    }

    pub fn get(&self, name: &str) -> Result<String, String> {
        let i = find(name)?;
        Ok(OPTIONS[i].show(&self.values[i]))
    }

    fn value(&self, name: &str) -> Option<&Value> {
        find(name).ok().map(|i| &self.values[i])
    }

    fn int(&self, name: &str) -> u64 {
        match self.value(name) {
            Some(Value::Int(v)) => *v,
            _ => 0,
        }
    }

    fn float(&self, name: &str) -> f64 {
        match self.value(name) {
            Some(Value::Float(v)) => *v,
            _ => 0.0,
        }
    }

    pub fn depth(&self) -> u64 {
        self.int("depth")
    }
    pub fn nodes(&self) -> u64 {
        self.int("nodes")
    }
    pub fn movetime_ms(&self) -> u64 {
        self.int("movetime")
    }
    pub fn margin_ms(&self) -> u64 {
        self.int("margin")
    }
    pub fn eval(&self) -> EvalKind {
        match self.value("eval") {
            // Checked when set: naming it reads no file.
            Some(Value::Text(t)) => EvalKind::named(t),
            _ => EvalKind::default(),
        }
    }

    /// The tunable search constants.
    pub fn search_params(&self) -> Params {
        Params {
            aspiration_window: (self.float("aspiration")
                * crate::engine::eval::UNITS_PER_DISC as f64)
                .round()
                .max(1.0) as i32,
            aspiration_min_depth: self.int("aspiration_depth") as u32,
            endgame_presearch_depth: self.int("presearch_depth") as u32,
            iteration_growth: self.float("iteration_growth"),
            order_eval_depth: self.int("order_eval_depth") as i32,
            order_mobility_weight: self.int("order_mobility") as i32,
            probcut_t: self.float("probcut"),
            probcut_min_depth: self.int("probcut_depth") as u32,
            leaf_tempo: (self.float("tempo") * crate::engine::eval::UNITS_PER_DISC as f64).round()
                as i32,
        }
    }

    /// The time-management factors.
    pub fn time_params(&self) -> TimeParams {
        TimeParams {
            reserve_moves: self.float("time_reserve"),
            hard_factor: self.float("time_hard_factor"),
            max_share: self.float("time_max_share"),
            byo_soft_share: self.float("time_byo_share"),
            byo_borrow_share: self.float("time_byo_borrow"),
        }
    }
    pub fn scoring(&self) -> Scoring {
        match self.value("scoring") {
            Some(Value::Choice(1)) => Scoring::EmptiesToWinner,
            _ => Scoring::Discs,
        }
    }

    /// The persistent search settings these options describe.
    pub fn settings(&self) -> Settings {
        Settings {
            threads: self.int("threads").max(1) as usize,
            hash_mb: self.int("hash").max(1) as usize,
            scoring: self.scoring(),
            endgame_empties: self.int("endgame") as u32,
            randomness: self.float("randomness"),
            seed: self.int("seed"),
            eval: self.eval(),
            params: self.search_params(),
        }
    }
}

/// The `options` listing: `name value default D range R description`, one per line.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (o, v)) in OPTIONS.iter().zip(&self.values).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{} {} default {} range {} {}",
                o.name,
                o.show(v),
                o.default,
                o.range(),
                o.description
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip() {
        let o = Options::default();
        for spec in OPTIONS {
            assert_eq!(o.get(spec.name).unwrap(), spec.default);
        }
        assert_eq!(o.movetime_ms(), 1000);
        assert_eq!(o.margin_ms(), 50);
        let s = o.settings();
        assert_eq!((s.threads, s.hash_mb, s.endgame_empties), (1, 16, 18));
        // The table's defaults are the search's own constants.
        assert_eq!(s.params, Params::default());
        assert_eq!(o.time_params(), TimeParams::default());
    }

    #[test]
    fn level_sets_depth_endgame_and_movetime() {
        let mut o = Options::default();
        o.set("level", "10").unwrap();
        assert_eq!(o.get("level").unwrap(), "10");
        assert_eq!(o.depth(), 10);
        assert_eq!(o.settings().endgame_empties, 20);
        assert_eq!(o.movetime_ms(), 0);
        o.set("level", "45").unwrap();
        assert_eq!((o.depth(), o.settings().endgame_empties), (45, 60));
        // Level 0 leaves the other options alone; a bad level changes nothing.
        o.set("depth", "7").unwrap();
        o.set("level", "0").unwrap();
        assert_eq!(o.depth(), 7);
        let before = o.clone();
        assert!(o.set("level", "61").is_err());
        assert_eq!(o, before);
    }

    #[test]
    fn eval_takes_names_or_a_weight_file() {
        let mut o = Options::default();
        o.set("eval", "learned").unwrap();
        assert_eq!(o.eval(), EvalKind::Learned);
        let before = o.clone();
        let err = o.set("eval", "/nonexistent/weights.bin").unwrap_err();
        assert!(err.starts_with("invalid value: eval"), "{err}");
        assert_eq!(o, before);
        let path = std::env::temp_dir().join(format!("mollett-opt-{}.bin", std::process::id()));
        std::fs::write(&path, crate::engine::eval::pattern::EMBEDDED_WEIGHTS).unwrap();
        o.set("eval", path.to_str().unwrap()).unwrap();
        assert_eq!(o.eval(), EvalKind::File(path.clone()));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn search_constants_reach_the_settings() {
        let mut o = Options::default();
        o.set("aspiration", "0.5").unwrap();
        o.set("probcut", "1.5").unwrap();
        o.set("time_hard_factor", "2.5").unwrap();
        assert_eq!(o.settings().params.aspiration_window, 50);
        assert_eq!(o.settings().params.probcut_t, 1.5);
        assert_eq!(o.time_params().hard_factor, 2.5);
        assert!(o.set("time_max_share", "1.5").is_err());
    }

    #[test]
    fn set_and_reject() {
        let mut o = Options::default();
        o.set("scoring", "empties").unwrap();
        assert_eq!(o.scoring(), Scoring::EmptiesToWinner);
        o.set("randomness", "1.5").unwrap();
        assert_eq!(o.get("randomness").unwrap(), "1.5");
        let before = o.clone();
        assert!(o.set("threads", "0").is_err());
        assert!(o.set("threads", "-1").is_err());
        assert!(o.set("threads", "x").is_err());
        assert!(o.set("randomness", "nan").is_err());
        assert!(o.set("scoring", "both").is_err());
        assert!(o.set("bogus", "1").is_err());
        assert_eq!(o, before);
    }
}
