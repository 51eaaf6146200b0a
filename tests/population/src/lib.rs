//! Generated population monitors of `specs/*.hind` (and of random population
//! specs, when the tests crate provides them), each behind a [`Driven`] driver
//! that feeds it untyped values as the interpreter takes them, so the tests can
//! hold the generated code to the population interpreter. The generated code
//! compiles here under `deny(warnings, missing_docs)` (and clippy's `-D warnings`).
#![deny(warnings)]

use hindsight_runtime::population::PopulationError;
use hindsight_runtime::{ResetCounts, Value, Verdict};

/// A population monitor driven by untyped values, as the interpreter is.
pub trait Driven {
    /// One step: `agents` agents' attributes row-major, then the globals.
    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<Vec<Verdict>, PopulationError>;
    /// The same step through the generated `step_scalar` (one agent at a time).
    fn step_scalar(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<Vec<Verdict>, PopulationError>;
    /// Per stratum, whether the generated `step` evaluates it as bit lanes
    /// (`BIT_LANES`).
    fn lanes(&self) -> &'static [bool];
    /// Whether the generated `step` evaluates some stratum as bit lanes.
    fn any_lanes(&self) -> bool {
        self.lanes().contains(&true)
    }
    /// Finite-trace verdicts.
    fn finish(&self) -> Vec<Verdict>;
    /// Per property, the counted verdicts.
    fn counts(&self) -> Vec<ResetCounts>;
    /// Back to the initial state.
    fn reset(&mut self);
}

/// One generated population.
pub struct Case {
    /// Where its spec comes from.
    pub spec: &'static str,
    /// The spec's source.
    pub source: &'static str,
    /// The population's name.
    pub population: &'static str,
    /// A fresh monitor (capacity: the spec's).
    pub new: fn() -> Box<dyn Driven>,
}

/// Value `i` as a `bool` (missing or mistyped: `false`).
pub fn bool_at(values: &[Value], i: usize) -> bool {
    matches!(values.get(i), Some(Value::Bool(true)))
}

/// Value `i` as an `int` (missing or mistyped: 0).
pub fn int_at(values: &[Value], i: usize) -> i64 {
    match values.get(i) {
        Some(&Value::Int(v)) => v,
        _ => 0,
    }
}

/// Value `i` as a `float` (missing or mistyped: 0.0).
pub fn float_at(values: &[Value], i: usize) -> f64 {
    match values.get(i) {
        Some(&Value::Float(v)) => v,
        _ => 0.0,
    }
}

/// Value `i` as an enum index (missing or mistyped: 0).
pub fn enum_at(values: &[Value], i: usize) -> u32 {
    match values.get(i) {
        Some(&Value::Enum(v)) => v,
        _ => 0,
    }
}

/// The generated code: one module per spec and [`CASES`].
pub mod generated {
    use super::Case;
    include!(concat!(env!("OUT_DIR"), "/cases.rs"));
}

pub use generated::CASES;
