//! Running a monitor over a JSON Lines trace, streaming verdict lines to
//! stdout: the part of `hindsight check` that standalone monitors share.
//!
//! Exit codes: [`EXIT_OK`], [`EXIT_VIOLATION`] (only with `--fail-on-violation`),
//! [`EXIT_ERROR`]. If stdout is closed early (e.g. `| head`), the run stops
//! quietly and exits as if the trace had ended there (without the end line) —
//! except with `--fail-on-violation`, where the rest of the trace is still
//! read and checked, without printing, so that the exit status tells whether
//! the whole trace had a violation.

use crate::output::VerdictWriter;
use crate::read::{Decode, Reader, TraceError, TraceErrorKind, TraceReader, TraceSchema};
use crate::report;
use hindsight_runtime::{ResetCounts, StepMonitor, Value, Verdict};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, StdinLock, StdoutLock, Write};
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

/// Which trace to read and how to exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// The trace file, or `-` for standard input.
    pub trace: PathBuf,
    /// Exit with [`EXIT_VIOLATION`] if any verdict is `"false"`.
    pub fail_on_violation: bool,
    /// The longest trace line accepted, in bytes (newline excluded); a longer
    /// line is an error ([`crate::DEFAULT_MAX_LINE_BYTES`] by default).
    pub max_line_bytes: usize,
    /// System traces: the most messages in transit at once; one more send is
    /// an error ([`crate::system::DEFAULT_MAX_IN_TRANSIT`] by default).
    pub max_in_transit: usize,
}

impl RunOptions {
    /// Reading `trace` with the default limits, exiting 0 on violations.
    pub fn new(trace: PathBuf) -> Self {
        RunOptions {
            trace,
            fail_on_violation: false,
            max_line_bytes: crate::DEFAULT_MAX_LINE_BYTES,
            max_in_transit: crate::system::DEFAULT_MAX_IN_TRANSIT,
        }
    }

    /// The trace's name in error messages (`<stdin>` for standard input).
    pub fn trace_name(&self) -> String {
        if self.reads_stdin() {
            "<stdin>".to_string()
        } else {
            self.trace.display().to_string()
        }
    }

    /// Whether the trace is standard input.
    fn reads_stdin(&self) -> bool {
        self.trace.as_os_str() == STDIN_PATH
    }
}

/// Extra output of a run, written after the verdict lines with access to the
/// monitor (`hindsight check --explain` writes its explanations this way).
pub trait Observer<M> {
    /// Called after the verdict line of step `step`, which showed `verdicts`.
    fn after_step(
        &mut self,
        monitor: &M,
        step: u64,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()>;

    /// Called after the end line, which showed the finite-trace `verdicts`.
    fn after_end(
        &mut self,
        monitor: &M,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()>;
}

/// The observer of a plain run: writes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl<M> Observer<M> for Silent {
    fn after_step(&mut self, _: &M, _: u64, _: &[Verdict], _: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn after_end(&mut self, _: &M, _: &[Verdict], _: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// Resets `monitor` and runs it over the trace of `options`,
/// decoding steps against `schema` and writing one verdict line per step and
/// the end line to stdout; errors go to stderr. Returns the exit status.
pub fn run_check<M: StepMonitor>(
    schema: &TraceSchema,
    monitor: &mut M,
    options: &RunOptions,
) -> u8 {
    run_check_observed(schema, monitor, options, &mut Silent)
}

/// [`run_check`], with `observer`'s lines after each verdict line and after
/// the end line.
pub fn run_check_observed<M: StepMonitor, O: Observer<M>>(
    schema: &TraceSchema,
    monitor: &mut M,
    options: &RunOptions,
    observer: &mut O,
) -> u8 {
    let Some(mut reader) = open_reader(schema, options) else {
        return EXIT_ERROR;
    };
    let mut writer = VerdictWriter::for_properties(stdout_buffer(options), schema.properties());
    let outcome = run_trace(&mut reader, monitor, observer, &mut writer);
    if outcome.is_ok() {
        let trace = options.trace_name();
        for message in reader.decoder().never_matched() {
            report::warning(format_args!("{trace}: {message}"));
        }
    }
    verdicts_status(outcome, &mut writer, options)
}

/// The buffered standard output verdict lines go to. With
/// `--fail-on-violation`, a closed stdout (`| head -1`) does not end the run:
/// the rest of the trace is still read and checked, without printing, so a
/// violation after the reader went away still decides the exit status.
pub(crate) fn stdout_buffer(options: &RunOptions) -> BufWriter<Stdout> {
    BufWriter::with_capacity(
        BUFFER_BYTES,
        Stdout {
            lock: io::stdout().lock(),
            keep_reading: options.fail_on_violation,
            closed: false,
        },
    )
}

/// Standard output that, once closed by its reader and if asked to keep
/// reading, takes every later byte without writing it.
pub(crate) struct Stdout {
    lock: StdoutLock<'static>,
    keep_reading: bool,
    closed: bool,
}

impl Stdout {
    /// `result`, with a closed pipe taken as success (and remembered) when
    /// the run keeps reading.
    fn closing<T>(&mut self, result: io::Result<T>, done: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe && self.keep_reading => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.lock.write(buf);
        self.closing(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.lock.flush();
        self.closing(result, ())
    }
}

/// A reader of the trace of `options` (buffered, lines of at most
/// `--max-line-bytes`) decoded against `schema`; `None` (after reporting the
/// error) if the trace cannot be opened.
pub(crate) fn open_reader<D: Decode>(
    schema: &D::Schema,
    options: &RunOptions,
) -> Option<Reader<TraceInput, D>>
where
    D::Schema: Clone,
{
    let input = open_trace(options)?;
    Some(Reader::new(input, schema.clone()).with_max_line_bytes(options.max_line_bytes))
}

/// Opens the trace of `options`, buffered; `None` (after reporting the
/// error) if it cannot be opened.
fn open_trace(options: &RunOptions) -> Option<TraceInput> {
    if options.reads_stdin() {
        return Some(TraceInput::Stdin(io::stdin().lock()));
    }
    match File::open(&options.trace) {
        Ok(file) => Some(TraceInput::File(BufReader::with_capacity(
            BUFFER_BYTES,
            file,
        ))),
        Err(e) => {
            report::error(format_args!(
                "cannot open trace `{}`: {e}",
                options.trace.display()
            ));
            None
        }
    }
}

/// The exit status of a run that wrote `writer`'s verdict lines and ended
/// with `outcome` (see [`exit_status`]): the lines of the steps before a bad
/// line are put out before its message.
pub(crate) fn verdicts_status<W: Write, K: fmt::Display>(
    outcome: Result<(), RunError<K>>,
    writer: &mut VerdictWriter<W>,
    options: &RunOptions,
) -> u8 {
    if let Err(RunError::Trace(_)) = outcome {
        let _ = writer.flush();
    }
    exit_status(outcome, writer.saw_violation(), options)
}

/// The exit status of a run that ended with `outcome`, reporting its error on
/// stderr; `saw_violation` tells whether some verdict written was `"false"`.
/// The verdict lines written before a trace error must already be flushed.
pub(crate) fn exit_status<K: fmt::Display>(
    outcome: Result<(), RunError<K>>,
    saw_violation: bool,
    options: &RunOptions,
) -> u8 {
    let violation_status = if saw_violation && options.fail_on_violation {
        EXIT_VIOLATION
    } else {
        EXIT_OK
    };
    match outcome {
        Ok(()) => violation_status,
        Err(RunError::Trace(error)) => {
            report::line(error.render(&options.trace_name()));
            EXIT_ERROR
        }
        Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => violation_status,
        Err(RunError::Write(e)) => {
            report::error(format_args!("cannot write verdicts: {e}"));
            EXIT_ERROR
        }
    }
}

/// A trace being read: standard input or a buffered file.
pub(crate) enum TraceInput {
    /// Standard input (already buffered).
    Stdin(StdinLock<'static>),
    /// A file.
    File(BufReader<File>),
}

impl Read for TraceInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            TraceInput::Stdin(r) => r.read(buf),
            TraceInput::File(r) => r.read(buf),
        }
    }
}

impl BufRead for TraceInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            TraceInput::Stdin(r) => r.fill_buf(),
            TraceInput::File(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, amount: usize) {
        match self {
            TraceInput::Stdin(r) => r.consume(amount),
            TraceInput::File(r) => r.consume(amount),
        }
    }
}

/// Why a check over a trace stopped early ([`check_trace`] and the system and
/// population drivers): a bad line, or the verdict lines could not be written.
#[derive(Debug)]
pub enum CheckError {
    /// A trace line was unreadable, malformed or refused.
    Trace {
        /// Its 1-based line number.
        line: usize,
        /// Its 1-based column, when the error has a place within the line.
        column: Option<usize>,
        /// The message (what `hindsight check` prints after `FILE:LINE:COL:`).
        message: String,
    },
    /// Writing the verdict lines failed.
    Write(io::Error),
}

impl<K: fmt::Display> From<RunError<K>> for CheckError {
    fn from(e: RunError<K>) -> Self {
        match e {
            RunError::Trace(t) => CheckError::Trace {
                line: t.line,
                column: t.column,
                message: t.kind.to_string(),
            },
            RunError::Write(e) => CheckError::Write(e),
        }
    }
}

/// Checks the monitor trace `reader` holds with `monitor`, writing the verdict
/// lines to `out` exactly as `hindsight check` writes them to stdout; returns
/// whether some verdict was `"false"`. For embedding the check (and fuzzing it)
/// without a process: no file, no stdout, no exit status. The warnings
/// `hindsight check` prints at the end (pointers no line had a value at) are
/// `reader.decoder().never_matched()` afterwards.
pub fn check_trace<R: BufRead, W: Write, M: StepMonitor>(
    reader: &mut TraceReader<R>,
    monitor: &mut M,
    out: W,
) -> Result<bool, CheckError> {
    let schema = reader.schema();
    let mut writer = VerdictWriter::for_properties(out, schema.properties());
    run_trace(reader, monitor, &mut Silent, &mut writer)?;
    Ok(writer.saw_violation())
}

/// How a run over a trace of any form can fail.
#[derive(Debug)]
pub(crate) enum RunError<K = TraceErrorKind> {
    /// A trace line was unreadable, malformed or refused.
    Trace(TraceError<K>),
    /// Writing verdicts failed (a closed pipe included).
    Write(io::Error),
}

impl<K> From<io::Error> for RunError<K> {
    fn from(e: io::Error) -> Self {
        RunError::Write(e)
    }
}

/// Feeds every step of `reader` to `monitor`, writing a verdict line per step
/// and the end line, each followed by `observer`'s lines; stops at the first
/// bad line.
fn run_trace<R: BufRead, W: Write, M: StepMonitor, O: Observer<M>>(
    reader: &mut TraceReader<R>,
    monitor: &mut M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
) -> Result<(), RunError> {
    let mut inputs: Vec<Value> = Vec::with_capacity(reader.schema().inputs().len());
    let mut verdicts = vec![Verdict::Unknown; reader.schema().properties().len()];
    let mut step: u64 = 0;
    monitor.reset();
    while reader.read_next(&mut inputs).map_err(RunError::Trace)? {
        monitor.step_values(&inputs, &mut verdicts);
        writer.write_step(step, &verdicts)?;
        observer.after_step(monitor, step, &verdicts, writer.get_mut())?;
        step = step.saturating_add(1);
    }
    monitor.finish_values(&mut verdicts);
    let mut counts = vec![ResetCounts::default(); verdicts.len()];
    monitor.finish_counts(&mut counts);
    let counts: Vec<Option<ResetCounts>> = counts
        .into_iter()
        .zip(reader.schema().properties().resets())
        .map(|(c, &reset)| reset.then_some(c))
        .collect();
    writer.audit_end(&mut verdicts);
    writer.write_end(&verdicts, &counts)?;
    observer.after_end(monitor, &verdicts, writer.get_mut())?;
    writer.flush()?;
    Ok(())
}
