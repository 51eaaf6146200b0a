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
//! in the length of the trace. Errors are [`SystemTraceError`]s, placed and
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
pub use run::{
    check_system_source, check_system_trace, message_error, run_system, run_system_observed,
    EventObserver,
};
pub use schema::{LifelineSchema, SystemSchema};

/// Reads a system trace one event at a time, reusing one line buffer.
pub type SystemReader<R> = crate::read::Reader<R, SystemDecoder>;

/// A rejected system trace line: where, and why.
pub type SystemTraceError = crate::read::TraceError<SystemErrorKind>;
