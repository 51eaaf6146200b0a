//! JSON Lines traces in, verdict lines out: the I/O `hindsight check` and the
//! standalone monitors of `hindsight build` share, so both print byte-identical
//! output. Works with any [`hindsight_runtime::StepMonitor`]: the compiler's
//! interpreter or generated code.

mod ahead;
pub mod audit;
pub mod help;
pub mod json;
pub mod otlp;
pub mod output;
pub mod population;
pub mod read;
pub mod report;
pub mod run;
pub mod standalone;
pub mod system;

pub use output::Output;
pub use output::Properties;
pub use read::{
    Decode, InputSchema, InputType, Reader, TraceReader, TraceSchema, DEFAULT_MAX_LINE_BYTES,
};
pub use run::{
    check_keyed_trace, check_monitor_source, check_trace, run_check, run_check_observed,
    CheckError, Observer, RunOptions, Silent, EXIT_ERROR, EXIT_OK, EXIT_VIOLATION, STDIN_PATH,
};
