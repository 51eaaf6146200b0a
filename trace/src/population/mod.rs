//! Population traces: JSON Lines per the language design, section 6,
//! checked against a `population` block's attributes and globals.
//!
//! Each non-blank line is one step of the whole population, an object with
//! keys in any order:
//!
//! ```text
//! {"agents": [{"infected": false, "age": 30}, {"infected": true, "age": 61}], "globals": {"day": 1}}
//! ```
//!
//! - `agents`: an array with one object per agent (agent ids are the 0-based
//!   positions), each giving every attribute, typed as declared (bool ← JSON
//!   bool, int ← JSON integer in the i64 range, float ← any JSON number, enum ←
//!   a variant name, bare or `Enum::variant`). A missing attribute, an
//!   unknown key and a repeated key are errors, as for monitor traces. The
//!   number of agents is fixed for a trace and at most the population's
//!   capacity.
//! - `globals`: an object giving every global; may be left out only when the
//!   population declares none.
//!
//! Lines are decoded straight into a reused [`PopulationStep`] (agents ×
//! attributes values, row-major) by serde visitors, and [`PopulationReader`]
//! reuses one line buffer, so memory stays constant in the length of the
//! trace. Errors are [`PopulationTraceError`]s, placed and rendered like
//! those of monitor traces (`error: FILE:LINE:COL: message`).

mod decode;
mod error;
mod run;
mod schema;
#[cfg(test)]
mod tests;
mod visit;

pub use decode::PopulationDecoder;
pub use error::{PopulationErrorKind, PopulationLineError, PopulationTraceError};
pub use run::{
    check_population_source, check_population_trace, run_population, run_population_observed,
    Generated,
};

/// The types [`PopulationStepper`] speaks, re-exported for its implementors.
pub use hindsight_runtime::population::{PopulationError, PopulationStepper};
pub use hindsight_runtime::{ResetCounts, Value, Verdict};
pub use schema::PopulationSchema;

/// One decoded step: how many agents, their attributes and the globals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PopulationStep {
    /// The number of agents the line lists.
    agents: usize,
    /// The agents' attributes, row-major: agent 0's attributes first, in
    /// declaration order.
    attributes: Vec<Value>,
    /// The globals in declaration order.
    globals: Vec<Value>,
}

impl PopulationStep {
    /// The number of agents.
    pub fn agents(&self) -> usize {
        self.agents
    }

    /// Every agent's attributes, row-major (agent 0's first, each in
    /// declaration order): `agents() × attributes` values.
    pub fn attributes(&self) -> &[Value] {
        &self.attributes
    }

    /// The globals in declaration order.
    pub fn globals(&self) -> &[Value] {
        &self.globals
    }
}

/// Reads a population trace one step at a time, reusing one line buffer.
pub type PopulationReader<R> = crate::read::Reader<R, PopulationDecoder>;
