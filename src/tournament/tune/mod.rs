//! SPSA tuning of numeric engine options, each iteration a short match
//! between the engine at θ+cΔ and at θ−cΔ played by the runner: `param`
//! parses `--param`, `gains` is the schedule below, `spsa` runs the iterations.
//!
//! The gains follow Spall's schedule with Fishtest's parametrisation: each
//! parameter gives its perturbation at the last iteration (`c_end`) and the
//! ratio `r_end = a_end / c_end²`, from which
//!
//! ```text
//! c   = c_end · N^γ              c_k = c / k^γ
//! a   = r_end · c_end² · (A + N)^α  a_k = a / (A + k)^α
//! θ  += a_k / c_k · (wins − losses of θ+) · Δ,  clamped to [min, max]
//! ```
//!
//! with `N` iterations, `A = N / 10`, `α = 0.602`, `γ = 0.101` and `Δ` a
//! random ±1 per parameter.

mod gains;
mod param;
mod spsa;

pub use gains::{perturb, update, Gains, ALPHA, GAMMA};
pub use param::{Param, DEFAULT_R_END};
pub use spsa::{run, Iteration, TuneConfig, TuneOutcome};
