//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation] [--explain]`:
//! compiles the spec and runs the selected monitor's interpreter over a JSON
//! Lines trace with [`hindsight_trace::run_check`], which documents the
//! output and the exit codes. With `--explain`, the explanation lines of
//! [`crate::why`] follow the verdict lines (standalone monitors do not explain;
//! their generated code exposes the residual obligations through `residuals()`).

use crate::compile::compile_monitor;
use crate::schema::trace_schema;
use crate::why::ExplainLines;
use hindsight_compiler::interp::Interpreter;
use hindsight_trace::{run_check, run_check_observed, RunOptions, EXIT_ERROR};
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
    /// Whether to explain verdict changes (see [`crate::why`]).
    pub explain: bool,
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
    let schema = trace_schema(table);
    if options.explain {
        let mut lines = ExplainLines::new(table);
        run_check_observed(&schema, &mut interpreter, &options.run, &mut lines)
    } else {
        run_check(&schema, &mut interpreter, &options.run)
    }
}
