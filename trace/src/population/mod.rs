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
pub use run::{check_population_trace, run_population, run_population_observed, Generated};

/// The types [`PopulationStepper`] speaks, re-exported for its implementors.
pub use hindsight_runtime::population::{PopulationError, PopulationStepper};
pub use hindsight_runtime::{ResetCounts, Value, Verdict};
pub use schema::PopulationSchema;

use crate::read::Lines;
use std::io::BufRead;

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
pub struct PopulationReader<R> {
    lines: Lines<R>,
    decoder: PopulationDecoder,
}

impl<R: BufRead> PopulationReader<R> {
    /// A reader of steps from `reader`, decoded against `schema`.
    pub fn new(reader: R, schema: PopulationSchema) -> Self {
        PopulationReader {
            lines: Lines::new(reader),
            decoder: PopulationDecoder::new(schema),
        }
    }

    /// The same reader with lines of at most `max` bytes (see
    /// [`crate::TraceReader::with_max_line_bytes`]).
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines.max = max;
        self
    }

    /// The schema steps are decoded against.
    pub fn schema(&self) -> &PopulationSchema {
        self.decoder.schema()
    }

    /// The 1-based number of the last line read (0 before the first).
    pub fn line(&self) -> usize {
        self.lines.line()
    }

    /// Decodes the next step into `step`, skipping blank lines. Returns
    /// `Ok(false)` at the end of the trace.
    pub fn next_step(&mut self, step: &mut PopulationStep) -> Result<bool, PopulationTraceError> {
        let Some(text) = self.lines.next_line()? else {
            return Ok(false);
        };
        self.decoder
            .decode(text, step)
            .map_err(|e| e.at_line(self.lines.line()))?;
        Ok(true)
    }

    /// An error about the last step read (the monitor refused it), placed at
    /// the start of its line.
    pub fn error_here(&self, kind: PopulationErrorKind) -> PopulationTraceError {
        let line = self.lines.current();
        decode::placed(line, kind, line.len()).at_line(self.lines.line())
    }
}
