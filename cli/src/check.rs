//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation]`:
//! runs one monitor of a spec over a JSON Lines trace, streaming verdict lines
//! to stdout.
//!
//! Exit codes: [`EXIT_OK`], [`EXIT_VIOLATION`] (only with `--fail-on-violation`),
//! [`EXIT_ERROR`]. If stdout is closed early (e.g. `| head`), the run stops
//! quietly and exits as if the trace had ended there (without the end line).

use crate::compile::compile_monitor;
use crate::output::VerdictWriter;
use crate::report;
use crate::trace::{TraceError, TraceReader, TraceSchema};
use hindsight_compiler::hir::Value;
use hindsight_compiler::interp::Interpreter;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

/// Exit status: success (and no violation, or no `--fail-on-violation`).
pub const EXIT_OK: u8 = 0;
/// Exit status: some verdict was `"false"` and `--fail-on-violation` was given.
pub const EXIT_VIOLATION: u8 = 1;
/// Exit status: bad usage, a spec with errors, an unreadable or malformed trace,
/// or a failed write.
pub const EXIT_ERROR: u8 = 2;

/// The trace path that means "read standard input".
pub const STDIN_PATH: &str = "-";

/// Size of the input and output buffers.
const BUFFER_BYTES: usize = 1 << 16;

/// What `hindsight check` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The trace file, or `-` for standard input.
    pub trace: PathBuf,
    /// The monitor block to run; `None` when the spec has exactly one.
    pub block: Option<String>,
    /// Exit with [`EXIT_VIOLATION`] if any verdict is `"false"`.
    pub fail_on_violation: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &CheckOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(compiled) = compile_monitor(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let Some(monitor) = compiled.monitor() else {
        return EXIT_ERROR;
    };
    let schema = TraceSchema::for_monitor(&compiled.spec.enums, monitor);
    let names: Vec<&str> = compiled
        .table
        .outputs
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    let stdout = io::stdout();
    let mut writer = VerdictWriter::new(
        BufWriter::with_capacity(BUFFER_BYTES, stdout.lock()),
        &names,
    );
    let mut interpreter = Interpreter::new(&compiled.table);

    let outcome = if options.trace.as_os_str() == STDIN_PATH {
        let reader = TraceReader::new(io::stdin().lock(), schema);
        run_trace(reader, &mut interpreter, &mut writer)
    } else {
        match File::open(&options.trace) {
            Ok(file) => {
                let reader = TraceReader::new(BufReader::with_capacity(BUFFER_BYTES, file), schema);
                run_trace(reader, &mut interpreter, &mut writer)
            }
            Err(e) => {
                report::error(format_args!(
                    "cannot open trace `{}`: {e}",
                    options.trace.display()
                ));
                return EXIT_ERROR;
            }
        }
    };
    let violated = writer.saw_violation();
    let violation_status = if violated && options.fail_on_violation {
        EXIT_VIOLATION
    } else {
        EXIT_OK
    };
    match outcome {
        Ok(()) => violation_status,
        Err(RunError::Trace(error)) => {
            // Steps before the bad line were printed; put them out before the message.
            let _ = writer.flush();
            report::line(error.render(&trace_name(options)));
            EXIT_ERROR
        }
        Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => violation_status,
        Err(RunError::Write(e)) => {
            report::error(format_args!("cannot write verdicts: {e}"));
            EXIT_ERROR
        }
    }
}

/// How a run over a trace can fail.
enum RunError {
    /// A trace line was unreadable or malformed.
    Trace(TraceError),
    /// Writing verdicts failed (a closed pipe included).
    Write(io::Error),
}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> Self {
        RunError::Write(e)
    }
}

/// Feeds every step of `reader` to `interpreter`, writing a verdict line per
/// step and the end line; stops at the first bad line.
fn run_trace<R: BufRead, W: Write>(
    mut reader: TraceReader<R>,
    interpreter: &mut Interpreter<'_>,
    writer: &mut VerdictWriter<W>,
) -> Result<(), RunError> {
    let mut inputs: Vec<Value> = Vec::with_capacity(reader.schema().inputs().len());
    let mut step: u64 = 0;
    while reader.next_step(&mut inputs).map_err(RunError::Trace)? {
        writer.write_step(step, interpreter.step(&inputs))?;
        step = step.saturating_add(1);
    }
    writer.write_end(interpreter.finish())?;
    writer.flush()?;
    Ok(())
}

/// The trace's name in error messages.
fn trace_name(options: &CheckOptions) -> String {
    if options.trace.as_os_str() == STDIN_PATH {
        "<stdin>".to_string()
    } else {
        options.trace.display().to_string()
    }
}
