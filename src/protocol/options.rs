//! The option table: one list drives `set_option`, `get_option`, `options`
//! and the search settings.

use crate::eval::EvalKind;
use crate::search::{Scoring, Settings};
use std::fmt;

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int { min: u64, max: u64 },
    Float { min: f64, max: f64 },
    Choice(&'static [&'static str]),
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
        kind: Kind::Choice(&["handcrafted", "learned"]),
        default: "handcrafted",
        description: "static evaluation: handcrafted, or the learned pattern weights built in",
    },
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Int(u64),
    Float(f64),
    Choice(usize),
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
        }
    }

    fn show(&self, v: Value) -> String {
        match (v, self.kind) {
            (Value::Int(v), _) => v.to_string(),
            (Value::Float(v), _) => v.to_string(),
            (Value::Choice(i), Kind::Choice(names)) => names[i].to_string(),
            (Value::Choice(i), _) => i.to_string(),
        }
    }

    /// `min..max` or `a|b`.
    pub fn range(&self) -> String {
        match self.kind {
            Kind::Int { min, max } => format!("{min}..{max}"),
            Kind::Float { min, max } => format!("{min}..{max}"),
            Kind::Choice(names) => names.join("|"),
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
        self.values[i] = OPTIONS[i].parse(value)?;
        Ok(())
    }

    pub fn get(&self, name: &str) -> Result<String, String> {
        let i = find(name)?;
        Ok(OPTIONS[i].show(self.values[i]))
    }

    fn value(&self, name: &str) -> Option<Value> {
        find(name).ok().map(|i| self.values[i])
    }

    fn int(&self, name: &str) -> u64 {
        match self.value(name) {
            Some(Value::Int(v)) => v,
            _ => 0,
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
            Some(Value::Choice(1)) => EvalKind::Learned,
            _ => EvalKind::Handcrafted,
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
            randomness: match self.value("randomness") {
                Some(Value::Float(v)) => v,
                _ => 0.0,
            },
            seed: self.int("seed"),
            eval: self.eval(),
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
                o.show(*v),
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
