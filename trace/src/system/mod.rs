//! System traces: JSON Lines per the language design, section 6, checked
//! against a `system` block's lifelines.
//!
//! Each non-blank line is one event of one lifeline, an object with keys in
//! any order:
//! - `{"lifeline": "TestRunner", "kind": "send", "to": "Committer", "msg": "m1"}`
//! - `{"lifeline": "Committer", "kind": "recv", "msg": "m1"}`
//! - `{"lifeline": "TestRunner", "kind": "act", "store": {"status": "passed", "cand": 7}}`
//! - `{"lifeline": "Committer", "kind": "choice"}`
//!
//! `store` (optional on any kind) gives the variables the event changes, typed
//! as the lifeline declares them (like monitor inputs: bool, int, float, enum
//! by variant name, bare or `Enum::variant`). `to` and `msg` are required on
//! the kinds that take them and rejected on the others.
//!
//! Events are decoded straight into a reused [`SystemEvent`] by serde
//! visitors; [`SystemReader`] reuses one line buffer, so memory stays constant
//! in the length of the trace. Errors are [`TraceError`]s, placed and
//! rendered like those of monitor traces.

mod decode;
mod error;
mod event;
mod in_flight;
mod output;
mod run;
mod schema;
#[cfg(test)]
mod tests;
mod visit;

pub use decode::SystemDecoder;
pub use error::SystemErrorKind;
pub use event::{EventKind, SystemEvent};
pub use hindsight_runtime::system::{MonitorError, SystemMonitor};
pub use in_flight::{InFlight, MessageError, DEFAULT_MAX_IN_TRANSIT};
pub use output::SystemVerdictWriter;
pub use run::{check_system_trace, run_system, run_system_observed, EventObserver};
pub use schema::{LifelineSchema, SystemSchema};

use crate::read::{placed, Lines, TraceError, TraceErrorKind};
use std::io::BufRead;

/// Reads a system trace one event at a time, reusing one line buffer.
pub struct SystemReader<R> {
    lines: Lines<R>,
    decoder: SystemDecoder,
}

impl<R: BufRead> SystemReader<R> {
    /// A reader of events from `reader`, decoded against `schema`.
    pub fn new(reader: R, schema: SystemSchema) -> Self {
        SystemReader {
            lines: Lines::new(reader),
            decoder: SystemDecoder::new(schema),
        }
    }

    /// The same reader with lines of at most `max` bytes (see
    /// [`crate::TraceReader::with_max_line_bytes`]).
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines.max = max;
        self
    }

    /// The schema events are decoded against.
    pub fn schema(&self) -> &SystemSchema {
        self.decoder.schema()
    }

    /// The 1-based number of the last line read (0 before the first).
    pub fn line(&self) -> usize {
        self.lines.line()
    }

    /// Decodes the next event into `event`, skipping blank lines. Returns
    /// `Ok(false)` at the end of the trace.
    pub fn next_event(&mut self, event: &mut SystemEvent) -> Result<bool, TraceError> {
        let Some(text) = self.lines.next_line()? else {
            return Ok(false);
        };
        self.decoder
            .decode(text, event)
            .map_err(|e| e.at_line(self.lines.line()))?;
        Ok(true)
    }

    /// An error about the last event read (a message that does not fit the
    /// messages in transit, say), placed on its line like a decoding error.
    pub fn error_here(&self, kind: SystemErrorKind) -> TraceError {
        let line = self.lines.current();
        placed(line, TraceErrorKind::System(Box::new(kind)), line.len()).at_line(self.lines.line())
    }
}
