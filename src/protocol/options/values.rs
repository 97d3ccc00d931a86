//! What an option takes (its row's kind) and how each type of value is read
//! from the protocol's text and shown back.

use crate::engine::eval::EvalKind;
use crate::engine::search::Scoring;
use crate::protocol::book::{self, BookFile};

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
    /// Free text (no spaces), checked when parsed; what it takes, as `options` shows it.
    Text(&'static str),
}

/// One row of the option table.
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub description: &'static str,
}

impl OptionSpec {
    /// `min..max` or `a|b`.
    pub fn range(&self) -> String {
        match self.kind {
            Kind::Int { min, max } => format!("{min}..{max}"),
            Kind::Float { min, max } => format!("{min}..{max}"),
            Kind::Choice(names) => names.join("|"),
            Kind::Text(what) => what.to_string(),
        }
    }

    fn invalid(&self) -> String {
        format!("invalid value: {} takes {}", self.name, self.range())
    }

    fn out_of_range(&self) -> String {
        format!("value out of range: {} takes {}", self.name, self.range())
    }
}

/// A type an option's field holds: read from the protocol's text (range
/// checked by the row's kind) and shown back.
pub(super) trait OptionValue: Sized {
    fn parse(spec: &OptionSpec, text: &str) -> Result<Self, String>;
    fn show(&self) -> String;
}

impl OptionValue for u64 {
    fn parse(spec: &OptionSpec, text: &str) -> Result<u64, String> {
        let Kind::Int { min, max } = spec.kind else {
            unreachable!("{} is an integer row", spec.name)
        };
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("invalid value: {} takes an integer", spec.name));
        }
        match text.parse::<u64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(spec.out_of_range()),
        }
    }

    fn show(&self) -> String {
        self.to_string()
    }
}

impl OptionValue for f64 {
    fn parse(spec: &OptionSpec, text: &str) -> Result<f64, String> {
        let Kind::Float { min, max } = spec.kind else {
            unreachable!("{} is a number row", spec.name)
        };
        let v = text
            .parse::<f64>()
            .ok()
            .filter(|v| {
                v.is_finite()
                    && text
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
            })
            .ok_or_else(|| format!("invalid value: {} takes a number", spec.name))?;
        if (min..=max).contains(&v) {
            Ok(v)
        } else {
            Err(spec.out_of_range())
        }
    }

    fn show(&self) -> String {
        self.to_string()
    }
}

/// The names of [`Scoring`]'s values, in its row's order.
pub(super) const SCORING: [&str; 2] = ["discs", "empties"];

impl OptionValue for Scoring {
    fn parse(spec: &OptionSpec, text: &str) -> Result<Scoring, String> {
        match SCORING.iter().position(|n| n.eq_ignore_ascii_case(text)) {
            Some(0) => Ok(Scoring::Discs),
            Some(_) => Ok(Scoring::EmptiesToWinner),
            None => Err(spec.invalid()),
        }
    }

    fn show(&self) -> String {
        match self {
            Scoring::Discs => SCORING[0],
            Scoring::EmptiesToWinner => SCORING[1],
        }
        .to_string()
    }
}

impl OptionValue for EvalKind {
    /// The built-in evaluations' names, or a weight file that loads.
    fn parse(spec: &OptionSpec, text: &str) -> Result<EvalKind, String> {
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err(spec.invalid());
        }
        EvalKind::from_name(text).map_err(|e| format!("invalid value: {}: {e}", spec.name))
    }

    fn show(&self) -> String {
        self.to_string()
    }
}

/// `on` and `off`, in the row's order.
pub(super) const ON_OFF: [&str; 2] = ["on", "off"];

impl OptionValue for bool {
    fn parse(spec: &OptionSpec, text: &str) -> Result<bool, String> {
        match ON_OFF.iter().position(|n| n.eq_ignore_ascii_case(text)) {
            Some(i) => Ok(i == 0),
            None => Err(spec.invalid()),
        }
    }

    fn show(&self) -> String {
        ON_OFF[usize::from(!*self)].to_string()
    }
}

impl OptionValue for BookFile {
    /// `shipped`, `none`, or a book file that loads (read once, here).
    fn parse(spec: &OptionSpec, text: &str) -> Result<BookFile, String> {
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err(spec.invalid());
        }
        if text.eq_ignore_ascii_case("shipped") {
            return Ok(BookFile::Shipped);
        }
        if text.eq_ignore_ascii_case("none") {
            return Ok(BookFile::None);
        }
        let path = std::path::PathBuf::from(text);
        let loaded = book::load(&path).map_err(|e| format!("invalid value: {}: {e}", spec.name))?;
        Ok(BookFile::File(path, std::sync::Arc::new(loaded)))
    }

    fn show(&self) -> String {
        self.to_string()
    }
}
