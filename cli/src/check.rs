//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation] [--explain]`:
//! compiles the spec and runs the selected block over a JSON Lines trace.
//!
//! - A monitor block runs on its interpreter with
//!   [`hindsight_trace::run_check`], which documents the output and the exit
//!   codes. With `--explain`, the explanation lines of [`crate::why`] follow
//!   the verdict lines (standalone monitors do not explain; their generated
//!   code exposes the residual obligations through `residuals()`).
//! - A system block runs one monitor per lifeline ([`crate::lifelines`]) with
//!   [`hindsight_trace::system::run_system`]: one verdict line per choice of
//!   a lifeline owning guards. Explanations are for monitor blocks only, so
//!   `--explain` on a system is a usage error.

use crate::compile::{compile_block, Block, CompiledBlock};
use crate::lifelines::LifelineMonitors;
use crate::report;
use crate::schema::{system_schema, trace_schema};
use crate::why::ExplainLines;
use hindsight_compiler::interp::Interpreter;
use hindsight_trace::system::run_system;
use hindsight_trace::{run_check, run_check_observed, RunOptions, EXIT_ERROR};
use std::path::PathBuf;

/// What `hindsight check` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor or system block to run; `None` when the spec has exactly one.
    pub block: Option<String>,
    /// The trace to read and how to exit.
    pub run: RunOptions,
    /// Whether to explain verdict changes (see [`crate::why`]; monitors only).
    pub explain: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &CheckOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    match selected.block {
        Block::Monitor(_) => run_monitor(&selected, options),
        Block::System(_) => run_lifelines(&selected, &spec_name, options),
    }
}

/// Runs the selected monitor block.
fn run_monitor(selected: &CompiledBlock, options: &CheckOptions) -> u8 {
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

/// Runs the selected system block.
fn run_lifelines(selected: &CompiledBlock, spec_name: &str, options: &CheckOptions) -> u8 {
    let Some(system) = selected.system() else {
        return EXIT_ERROR;
    };
    if options.explain {
        report::error(format_args!(
            "{spec_name}: `{}` is a system block, and --explain explains the verdicts of \
             monitor blocks only; run without --explain",
            system.system.name
        ));
        return EXIT_ERROR;
    }
    let schema = system_schema(system, &selected.compiled.spec.enums);
    run_system(&schema, &mut LifelineMonitors::new(system), &options.run)
}
