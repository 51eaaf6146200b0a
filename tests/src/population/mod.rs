//! Populations: the reference evaluator of population properties over concrete
//! population traces, and random population specs and traces for differential
//! tests.

pub mod gen;
pub mod reference;

pub use reference::{verdicts, verdicts_with_counts, PopStep, PopTrace, Verdicts};
