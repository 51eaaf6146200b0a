//! Auditing many traces in one run: `--trace` arguments expanded into files
//! ([`sources`]), traces checked on all cores with deterministic output
//! ([`driver`]), one monitor instance per session of a keyed log
//! ([`sessions`]).

pub mod coverage;
pub mod driver;
pub mod sessions;
pub mod sources;

pub use coverage::{Coverage, Findings, Unmatched};
pub(crate) use driver::run_all;
pub use driver::{Message, Tally, TraceRun};

/// What the command around a run adds to it (`hindsight check`; standalone
/// monitors add nothing).
#[derive(Clone, Copy, Default)]
pub struct Frontend<'a> {
    /// Counters a progress bar reads.
    pub progress: Option<&'a Progress>,
    /// With summaries: renders the summary lines (JSON Lines) for a person,
    /// printed instead of them.
    pub table: Option<&'a (dyn Fn(&str) -> String + Sync)>,
    /// With summaries: also receives the summary lines (JSON Lines, the
    /// total included) once every trace is checked (an HTML report).
    pub report: Option<&'a (dyn Fn(&str) + Sync)>,
}
pub use sources::{expand, Sources, TraceSource};

use std::sync::atomic::{AtomicU64, AtomicUsize};

/// Counters a progress bar reads while traces are checked.
pub struct Progress {
    /// Bytes of trace read so far.
    pub bytes: AtomicU64,
    /// Lines read so far (counted as the bytes are read).
    pub lines: AtomicU64,
    /// Traces finished.
    pub traces_done: AtomicUsize,
    /// Bytes of all the traces (standard input counts 0).
    pub total_bytes: u64,
    /// How many traces there are.
    pub traces: usize,
    /// Prints a message line without tearing the bar.
    print: Box<dyn Fn(&str) + Send + Sync>,
}

impl Progress {
    /// Counters for `sources`, with `print` printing message lines.
    pub fn new(sources: &Sources, print: Box<dyn Fn(&str) + Send + Sync>) -> Self {
        let total_bytes = sources
            .traces
            .iter()
            .filter(|t| !t.is_stdin())
            .filter_map(|t| std::fs::metadata(&t.path).ok())
            .map(|m| m.len())
            .sum();
        Progress {
            bytes: AtomicU64::new(0),
            lines: AtomicU64::new(0),
            traces_done: AtomicUsize::new(0),
            total_bytes,
            traces: sources.traces.len(),
            print,
        }
    }

    /// Prints `line` on stderr, around the bar.
    pub fn message(&self, line: &str) {
        (self.print)(line);
    }
}
