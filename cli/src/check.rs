//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation]`:
//! compiles the spec and runs the selected monitor's interpreter over a JSON
//! Lines trace with [`hindsight_trace::run_check`], which documents the
//! output and the exit codes.

use crate::compile::compile_monitor;
use crate::schema::trace_schema;
use hindsight_compiler::interp::Interpreter;
use hindsight_trace::{run_check, RunOptions, EXIT_ERROR};
use std::path::PathBuf;

/// What `hindsight check` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor block to run; `None` when the spec has exactly one.
    pub block: Option<String>,
    /// The trace to read and how to exit.
    pub run: RunOptions,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &CheckOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_monitor(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let Some(table) = selected.table() else {
        return EXIT_ERROR;
    };
    let mut interpreter = Interpreter::new(table);
    run_check(&trace_schema(table), &mut interpreter, &options.run)
}
