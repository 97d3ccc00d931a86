//! Static evaluation: the interface the search calls, its units, and the
//! evaluators: the learned pattern evaluation ([`PatternEval`], the default)
//! and the handcrafted one ([`Handcrafted`]).
//!
//! The search only sees [`Evaluator`]; which evaluator it gets is an
//! [`EvalKind`] (the `eval` option), so choosing one never touches the search.

mod evaluator;
pub mod handcrafted;
pub mod pattern;

pub use evaluator::{Evaluator, SigmaModel, EVAL_LIMIT, UNITS_PER_DISC};

pub use handcrafted::{Handcrafted, HandcraftedWeights};
pub use pattern::PatternEval;

/// Which evaluation a search uses (the `eval` option).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Mobility, corners, stability, parity.
    Handcrafted,
    /// The pattern evaluation with the weights embedded in the binary: the
    /// default since it beat the handcrafted one 23-0 (SPRT, docs/history.md).
    #[default]
    Learned,
    /// The pattern evaluation with weights from a file written by `mollett train`.
    File(std::path::PathBuf),
}

impl EvalKind {
    /// The kind a name denotes (`handcrafted`, `learned`, else a weight
    /// file's path), without reading any file.
    pub fn named(name: &str) -> EvalKind {
        match name {
            "handcrafted" => EvalKind::Handcrafted,
            "learned" | "pattern" | "embedded" => EvalKind::Learned,
            path => EvalKind::File(path.into()),
        }
    }

    /// [`EvalKind::named`], checking that a weight file loads.
    pub fn from_name(name: &str) -> Result<EvalKind, String> {
        let kind = EvalKind::named(name);
        kind.try_evaluator()?;
        Ok(kind)
    }

    /// The evaluator, or why its weight file does not load.
    pub fn try_evaluator(&self) -> Result<Box<dyn Evaluator>, String> {
        match self {
            EvalKind::Handcrafted => Ok(Box::new(Handcrafted::default())),
            EvalKind::Learned => Ok(learned_evaluator()),
            // A FIFO or device would block the protocol loop on open.
            EvalKind::File(path) if path.exists() && !path.is_file() => {
                Err(format!("{}: not a regular file", path.display()))
            }
            EvalKind::File(path) => PatternEval::from_file(path)
                .map(|e| Box::new(e) as Box<dyn Evaluator>)
                .map_err(|e| e.to_string()),
        }
    }

    /// The evaluator; a weight file that has gone bad since it was checked
    /// falls back to the handcrafted evaluation, with a warning.
    pub fn evaluator(&self) -> Box<dyn Evaluator> {
        self.try_evaluator().unwrap_or_else(|e| {
            log::warn!("{e}; using the handcrafted evaluation");
            Box::new(Handcrafted::default())
        })
    }
}

impl std::fmt::Display for EvalKind {
    /// The name [`EvalKind::named`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalKind::Handcrafted => f.write_str("handcrafted"),
            EvalKind::Learned => f.write_str("learned"),
            EvalKind::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The learned pattern evaluation with the weights shipped in the binary
/// (one set per variant).
pub fn learned_evaluator() -> Box<dyn Evaluator> {
    Box::new(pattern::EmbeddedEval::new())
}
