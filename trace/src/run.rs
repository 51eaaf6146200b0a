//! Running a monitor over a JSON Lines trace, streaming verdict lines to
//! stdout: the part of `hindsight check` that standalone monitors share.
//!
//! Exit codes: [`EXIT_OK`], [`EXIT_VIOLATION`] and [`EXIT_VACUOUS`] (only
//! with `--fail-on-violation`), [`EXIT_ERROR`]; a run's is the worst of its
//! traces' ([`worse_status`]). If stdout is closed early (e.g. `| head`), the run stops
//! quietly and exits as if the trace had ended there (without the end line) —
//! except with `--fail-on-violation`, where the rest of the trace is still
//! read and checked, without printing, so that the exit status tells whether
//! the whole trace had a violation.

use crate::ahead::{Ahead, Here, Reading};
use crate::audit::sessions::Keying;
use crate::audit::{
    self, run_all, Coverage, Frontend, Message, Progress, Tally, TraceRun, TraceSource, Unmatched,
};
use crate::otlp;
use crate::output::{error_summary_line, Output, VerdictWriter};
use crate::read::{Reader, TraceError, TraceErrorKind, TraceReader, TraceSchema};
use crate::report;
use hindsight_runtime::{ResetCounts, StepMonitor, Value, Verdict};
use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Exit status: success (and no violation, or no `--fail-on-violation`).
pub const EXIT_OK: u8 = 0;
/// Exit status: some verdict was `"false"` and `--fail-on-violation` was given.
pub const EXIT_VIOLATION: u8 = 1;
/// Exit status: bad usage, a spec with errors, an unreadable or malformed trace,
/// or a failed write.
pub const EXIT_ERROR: u8 = 2;
/// Exit status: the run was vacuous (a trace or session gave no step, or a
/// place of the spec matched no line: see [`crate::audit::coverage`]) and
/// `--fail-on-violation` was given without `--allow-vacuous`.
pub const EXIT_VACUOUS: u8 = 3;

/// The exit status of two parts of a run together: an error over a
/// violation over a vacuous run over success (a violation found is news a
/// pipeline must not miss; a vacuous part is reported beside it).
pub fn worse_status(a: u8, b: u8) -> u8 {
    let rank = |status: u8| match status {
        EXIT_OK => 0,
        EXIT_VACUOUS => 1,
        EXIT_VIOLATION => 2,
        _ => 3,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The trace path that means "read standard input".
pub const STDIN_PATH: &str = "-";

/// The most sessions of one keyed log live at once, by default.
pub const DEFAULT_MAX_SESSIONS: usize = 100_000;

/// Size of the input and output buffers.
pub(crate) const BUFFER_BYTES: usize = 1 << 16;

/// The stack of a worker thread checking traces (generated population
/// monitors keep their agents on the stack).
const WORKER_STACK_BYTES: usize = 8 << 20;

/// Which traces to read, how, what to print and how to exit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// The `--trace` arguments: files, directories, glob patterns, or `-`
    /// for standard input (see [`audit::sources`]).
    pub traces: Vec<PathBuf>,
    /// Exit with [`EXIT_VIOLATION`] if any verdict is `"false"`, and with
    /// [`EXIT_VACUOUS`] if the run was vacuous.
    pub fail_on_violation: bool,
    /// With `fail_on_violation`: a vacuous run exits 0 (its warnings are
    /// still printed).
    pub allow_vacuous: bool,
    /// The longest trace line accepted, in bytes (newline excluded); a longer
    /// line is an error ([`crate::DEFAULT_MAX_LINE_BYTES`] by default).
    pub max_line_bytes: usize,
    /// System traces: the most messages in transit at once; one more send is
    /// an error ([`crate::system::DEFAULT_MAX_IN_TRANSIT`] by default).
    pub max_in_transit: usize,
    /// Threads checking traces at once (0: one per core).
    pub jobs: usize,
    /// Monitor traces: the JSON Pointer of the session key that splits each
    /// log into independent sessions.
    pub key: Option<String>,
    /// With `key`: the most sessions of one log live at once.
    pub max_sessions: usize,
    /// Which lines to print.
    pub output: Output,
    /// How the traces are written.
    pub format: Format,
    /// With `--format otlp`: the most spans one file may hold.
    pub max_spans: usize,
    /// With `--format otlp`: the most bytes one file may hold.
    pub max_export_bytes: usize,
    /// With `--format otlp`: print the lines each export becomes instead of
    /// checking them.
    pub dump_input: bool,
}

/// How traces are written (`--format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// JSON Lines: one step, event or population step per line.
    #[default]
    Jsonl,
    /// OpenTelemetry: OTLP/JSON lines of `ExportTraceServiceRequest`s.
    Otlp,
}

impl RunOptions {
    /// Reading `trace` with the default limits, exiting 0 on violations.
    pub fn new(trace: PathBuf) -> Self {
        RunOptions {
            traces: vec![trace],
            fail_on_violation: false,
            allow_vacuous: false,
            max_line_bytes: crate::DEFAULT_MAX_LINE_BYTES,
            max_in_transit: crate::system::DEFAULT_MAX_IN_TRANSIT,
            jobs: 0,
            key: None,
            max_sessions: DEFAULT_MAX_SESSIONS,
            output: Output::Steps,
            format: Format::Jsonl,
            max_spans: otlp::DEFAULT_MAX_SPANS,
            max_export_bytes: otlp::DEFAULT_MAX_EXPORT_BYTES,
            dump_input: false,
        }
    }

    /// How many threads check traces: `jobs`, or one per core.
    pub fn jobs(&self) -> usize {
        match self.jobs {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        }
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

    /// Why property `k` was first false (a summary's `why`), if this
    /// observer explains.
    fn why(&self, _k: usize) -> Option<String> {
        None
    }

    /// Whether the monitor may take many steps at once before `after_step`
    /// is called for each of them (which then sees the monitor after the
    /// last): for observers that do not look at the monitor.
    fn allows_steps_at_once(&self) -> bool {
        false
    }
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

    fn allows_steps_at_once(&self) -> bool {
        true
    }
}

/// Runs a copy of `monitor` (reset) over each trace of `options`, decoding
/// steps against `schema` and writing the verdict lines to stdout; errors go
/// to stderr. Returns the exit status.
pub fn run_check<M: StepMonitor + Clone + Send + Sync>(
    schema: &TraceSchema,
    monitor: &M,
    options: &RunOptions,
) -> u8 {
    run_check_observed(schema, monitor, options, &Silent, Frontend::default())
}

/// [`run_check`], with a copy of `observer` per trace (or session) writing
/// its lines after each verdict line and after the end line, and `progress`
/// counters to bump.
pub fn run_check_observed<M, O>(
    schema: &TraceSchema,
    monitor: &M,
    options: &RunOptions,
    observer: &O,
    frontend: Frontend<'_>,
) -> u8
where
    M: StepMonitor + Clone + Send + Sync,
    O: Observer<M> + Clone + Send + Sync,
{
    let properties = schema.properties().names();
    let from_otlp = FromOtlp {
        convert: &otlp::records,
        traces_are_sessions: true,
    };
    run_traces(
        options,
        properties,
        0,
        frontend,
        Some(from_otlp),
        |run, input| check_monitor_input(schema, monitor, observer, options, run, input),
    )
}

/// Expands the traces of `options` and runs `check` over each one opened,
/// on `options.jobs` threads (stacks of `stack_bytes` more than the
/// default); with summaries, ends with the total line of `properties`.
/// Returns the exit status.
pub(crate) fn run_traces<F>(
    options: &RunOptions,
    properties: &[String],
    stack_bytes: usize,
    frontend: Frontend<'_>,
    from_otlp: Option<FromOtlp<'_>>,
    check: F,
) -> u8
where
    F: Fn(&mut TraceRun<'_>, TraceInput<'_>) -> Tally + Sync,
{
    let from_otlp = match (options.format, from_otlp) {
        (Format::Otlp, None) => {
            report::error(NO_OTLP);
            return EXIT_ERROR;
        }
        (Format::Otlp, from) => from,
        (Format::Jsonl, _) => None,
    };
    let sources = match audit::expand(&options.traces) {
        Ok(sources) => sources,
        Err(message) => {
            report::error(message);
            return EXIT_ERROR;
        }
    };
    let stack = WORKER_STACK_BYTES.saturating_add(stack_bytes);
    let summary = options.output == Output::Summary;
    let table = frontend.table.filter(|_| summary);
    let report = frontend.report.filter(|_| summary);
    let mut stdout = match table.is_some() || report.is_some() {
        true => Stdout::memory(),
        false => Stdout::new(options.fail_on_violation),
    };
    let tally = run_all(
        &sources,
        options,
        &mut stdout,
        stack,
        frontend.progress,
        |run| check_source(run, None, options, from_otlp, &check),
    );
    if options.output == Output::Summary {
        let line = crate::output::total_line(&tally, sources.traces.len(), properties);
        let mut written = stdout.write_all(line.as_bytes());
        if let Some(lines) = stdout.memory_text() {
            if let Some(report) = report {
                report(&lines);
            }
            let text = match table {
                Some(render) => render(&lines),
                None => lines,
            };
            let mut out = Stdout::new(options.fail_on_violation);
            written = written.and_then(|()| out.write_all(text.as_bytes()));
            stdout = out;
        }
        if let Err(e) = written.and_then(|()| stdout.flush()) {
            if e.kind() != io::ErrorKind::BrokenPipe {
                report::error(format_args!("cannot write verdicts: {e}"));
                return EXIT_ERROR;
            }
        }
    }
    tally.status
}

/// Why a block that reads no OpenTelemetry export (a population) refuses one.
const NO_OTLP: &str =
    "a population block reads population traces; --format otlp feeds monitor and system blocks";

/// How a block reads an OpenTelemetry export: its spans as the lines the
/// block reads ([`otlp::records`] for monitors, [`otlp::events`] for systems).
#[derive(Clone, Copy)]
pub(crate) struct FromOtlp<'a> {
    /// The spans as lines.
    pub(crate) convert: &'a (dyn Fn(&[otlp::Span]) -> otlp::Converted + Sync),
    /// Whether the export's traces are sessions live at once (a monitor's:
    /// at most `--max-sessions` of them), rather than checked one by one.
    pub(crate) traces_are_sessions: bool,
}

/// Reads the OpenTelemetry export `input` as `convert` says, then checks
/// the lines it became with `check` (or, with `--dump-input`, prints them).
fn check_export<F>(
    run: &mut TraceRun<'_>,
    input: TraceInput<'_>,
    options: &RunOptions,
    convert: FromOtlp<'_>,
    check: &F,
) -> Tally
where
    F: Fn(&mut TraceRun<'_>, TraceInput<'_>) -> Tally,
{
    let limits = otlp::Limits {
        line_bytes: options.max_line_bytes,
        spans: options.max_spans,
        bytes: options.max_export_bytes,
        traces: convert.traces_are_sessions.then_some(options.max_sessions),
    };
    let spans = match otlp::read_spans(input, &limits) {
        Ok(spans) => spans,
        Err(e) => {
            let trace = (run.source, run.named, &mut run.messages);
            report_failure(&mut *run.lines, options, trace, &e.to_string(), true);
            return Tally::failed();
        }
    };
    let mut converted = (convert.convert)(&spans);
    // The lines hold what checking needs: the spans go before it starts.
    drop(spans);
    for warning in &converted.warnings {
        run.messages.push(Message::Line(format!(
            "warning: {}: {warning}",
            run.source.name
        )));
    }
    if options.dump_input {
        let _ = run.lines.write_all(converted.text.as_bytes());
        return Tally::default();
    }
    // A monitor reads the lines as a log; a system reads each trace's part
    // of them from `run.otlp`, one run at a time.
    let text = match convert.traces_are_sessions {
        true => std::mem::take(&mut converted.text).into_bytes(),
        false => Vec::new(),
    };
    run.otlp = Some(converted);
    check(run, memory_input(text))
}

/// Opens `run`'s trace and runs `check` over it; a trace that cannot be
/// opened is reported into `run` (an error summary line with summaries)
/// and counted as failed.
fn opened<F>(run: &mut TraceRun<'_>, options: &RunOptions, check: F) -> Tally
where
    F: FnOnce(&mut TraceRun<'_>, TraceInput<'_>) -> Tally,
{
    match open_trace(
        run.source.path.as_path(),
        run.source.is_stdin(),
        run.progress,
    ) {
        Ok(input) => check(run, input),
        Err(e) => {
            let message = format!("cannot open trace `{}`: {e}", run.source.name);
            let trace = (run.source, run.named, &mut run.messages);
            report_failure(&mut *run.lines, options, trace, &message, false);
            Tally::failed()
        }
    }
}

/// One trace of an audit, checked by `check` exactly as the `run_*`
/// functions check each of theirs: `run.source` opened (or `text`, what the
/// file would hold, when given), read as an OpenTelemetry export with
/// `options.format` (converted by `from_otlp`; a block without it refuses
/// exports), its lines (as `options.output` says) written to `run.lines`
/// and its errors and warnings pushed to `run.messages`. The public
/// `check_*_source` functions are this for each block kind: for programs
/// that run an audit themselves and keep its lines (the Python package);
/// the tallies add up with [`Tally::add`](crate::audit::Tally::add) into
/// what [`total_line`](crate::output::total_line) reports.
pub(crate) fn check_source<F>(
    run: &mut TraceRun<'_>,
    text: Option<Vec<u8>>,
    options: &RunOptions,
    from_otlp: Option<FromOtlp<'_>>,
    check: &F,
) -> Tally
where
    F: Fn(&mut TraceRun<'_>, TraceInput<'_>) -> Tally,
{
    let checked = |run: &mut TraceRun<'_>, input: TraceInput<'_>| match (options.format, from_otlp)
    {
        (Format::Jsonl, _) => check(run, input),
        (Format::Otlp, Some(convert)) => check_export(run, input, options, convert, check),
        (Format::Otlp, None) => {
            let trace = (run.source, run.named, &mut run.messages);
            report_failure(&mut *run.lines, options, trace, NO_OTLP, false);
            Tally::failed()
        }
    };
    match text {
        Some(text) => checked(run, memory_input(text)),
        None => opened(run, options, checked),
    }
}

/// One monitor trace of an audit ([`check_source`]): read against `schema`
/// (as records with `options.key` or an export) and checked with copies of
/// `monitor` and `observer`, exactly as [`run_check_observed`] checks each
/// of its traces.
pub fn check_monitor_source<M, O>(
    schema: &TraceSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    text: Option<Vec<u8>>,
) -> Tally
where
    M: StepMonitor + Clone,
    O: Observer<M> + Clone,
{
    let from_otlp = FromOtlp {
        convert: &otlp::records,
        traces_are_sessions: true,
    };
    check_source(run, text, options, Some(from_otlp), &|run, input| {
        check_monitor_input(schema, monitor, observer, options, run, input)
    })
}

/// Checks the monitor trace `input` as [`check_monitor_source`] does.
fn check_monitor_input<M, O>(
    schema: &TraceSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    input: TraceInput<'_>,
) -> Tally
where
    M: StepMonitor + Clone,
    O: Observer<M> + Clone,
{
    // A keyed log's lines (and an export's spans) are records: the session
    // key is a field no input names.
    let keyed = options.key.is_some() || options.format == Format::Otlp;
    let schema = if keyed {
        schema.clone().as_records()
    } else {
        schema.clone()
    };
    let reader = Reader::new(input, schema).with_max_line_bytes(options.max_line_bytes);
    check_monitor(reader, monitor, observer, options, run)
}

/// Checks one monitor trace (or, with `--key`, its sessions) with copies
/// of `template` and `observer`, writing its lines to `run`.
fn check_monitor<R, M, O>(
    mut reader: TraceReader<R>,
    template: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
) -> Tally
where
    R: BufRead + Send,
    M: StepMonitor + Clone,
    O: Observer<M> + Clone,
{
    let schema = reader.schema();
    let timed = schema.has_time();
    let mut tally = Tally {
        violated: vec![0; schema.properties().len()],
        ..Tally::default()
    };
    let name = run.named.then_some(run.source.name.as_str());
    let lines = BufWriter::with_capacity(BUFFER_BYTES, &mut *run.lines);
    let mut writer = VerdictWriter::for_properties(lines, schema.properties())
        .naming_trace(name)
        .writing(options.output, timed);
    // An OpenTelemetry export's sessions are its traces.
    let key = options
        .key
        .as_deref()
        .or(run.otlp.is_some().then_some("/trace_id"));
    let otlp = run.otlp.as_ref();
    let describe = |error: &TraceError| describe(error, otlp);
    let mut keying = key.map(|pointer| Keying {
        pointer,
        max_sessions: options.max_sessions,
        describe: &describe,
        failures: Vec::new(),
        started: otlp.map(|_| HashSet::new()),
    });
    let (monitor, observer) = (&mut template.clone(), &mut observer.clone());
    let outcome = match &mut keying {
        None if run.read_ahead => run_trace(
            &mut reader,
            Ahead,
            monitor,
            observer,
            &mut writer,
            &mut tally,
        ),
        None => run_trace(
            &mut reader,
            Here,
            monitor,
            observer,
            &mut writer,
            &mut tally,
        ),
        Some(keying) => crate::audit::sessions::run_sessions(
            &mut reader,
            template,
            observer,
            &mut writer,
            keying,
            &mut tally,
        ),
    };
    let failures = keying.as_mut().map(|k| std::mem::take(&mut k.failures));
    let failures = failures.unwrap_or_default();
    report_failures(&run.source.name, &failures, &describe, &mut run.messages);
    if outcome.is_ok() {
        let mut coverage = Coverage {
            unmatched: reader.decoder().unmatched(),
            ..Coverage::default()
        };
        let schema = reader.schema();
        if schema.properties().is_empty() {
            coverage.unmatched.push(Unmatched::new(NOTHING_TO_CHECK));
        }
        if keying.is_some() && schema.ends_sessions() && !reader.decoder().ended_any() {
            coverage.unmatched.push(Unmatched::new(
                "the session end filter held on no line (every session ended only with its log)",
            ));
        }
        let why = schema
            .filters_steps()
            .then_some("the step filter held on none of them");
        match (otlp, keying.as_ref().and_then(|k| k.started.as_ref())) {
            (Some(converted), Some(started)) => {
                idle_export_traces(&mut coverage, converted, started, why);
            }
            _ if tally.steps == 0 && failures.is_empty() => {
                coverage.no_step(reader.line(), "line", why);
            }
            _ => {}
        }
        run.messages.push(Message::Covered {
            trace: run.source.name.clone(),
            coverage,
        });
    }
    let violation = writer.saw_violation();
    let trace = (run.source, run.named, &mut run.messages, otlp);
    finish_trace(
        outcome,
        violation,
        writer.get_mut(),
        options,
        trace,
        &mut tally,
    );
    let _ = writer.flush();
    tally
}

/// The place of a block without a property (nor, for a system, a guard or
/// a protocol): read, but checked against nothing.
pub(crate) const NOTHING_TO_CHECK: &str =
    "the block has no property (nor guard, nor protocol): its lines were read but nothing was checked";

/// Notes in `coverage` the traces of the export `converted` that started
/// no session (gave no step): all of them as the whole file, some of them
/// one line naming the first.
fn idle_export_traces(
    coverage: &mut Coverage,
    converted: &otlp::Converted,
    started: &HashSet<Box<str>>,
    why: Option<&str>,
) {
    let total = converted.trace_ids.len();
    let idle: Vec<&String> = converted
        .trace_ids
        .iter()
        .filter(|id| !started.contains(id.as_str()))
        .collect();
    match idle.first() {
        None if total == 0 => coverage.no_step(0, "span", None),
        None => {}
        Some(_) if idle.len() == total => {
            coverage.no_step(converted.origins.len(), "record", why);
            coverage.idle_parts = total as u64;
        }
        Some(first) => {
            let mut text = format!(
                "{} of its {total} OpenTelemetry traces gave no step (the first: trace {first})",
                idle.len()
            );
            if let Some(why) = why {
                text.push_str(&format!(": {why}"));
            }
            coverage.idle.push(text);
            coverage.idle_parts += idle.len() as u64;
        }
    }
}

/// `error` as messages say it after the trace's name: `LINE:COL: message`,
/// or, in a line an export became, at its span.
pub(crate) fn describe<K: fmt::Display>(
    error: &TraceError<K>,
    otlp: Option<&otlp::Converted>,
) -> String {
    match otlp.and_then(|c| c.origins.get(error.line.wrapping_sub(1))) {
        Some(origin) => format!("{origin}: {}", error.kind),
        None => error.to_string(),
    }
}

/// The most errors of single sessions or records one trace reports one by
/// one; the rest are counted.
const MAX_FAILURES_NAMED: usize = 20;

/// Pushes to `messages` the errors that ended single sessions (or
/// stopped single records) of trace `name`, described.
pub(crate) fn report_failures<K>(
    name: &str,
    failures: &[(Option<String>, TraceError<K>)],
    describe: &dyn Fn(&TraceError<K>) -> String,
    messages: &mut Vec<Message>,
) {
    for (session, error) in failures.iter().take(MAX_FAILURES_NAMED) {
        let text = describe(error);
        let what = match session {
            Some(key) => format!("session {key} ends here"),
            None => "this line is skipped".to_string(),
        };
        messages.push(Message::Line(format!("error: {name}:{text} ({what})")));
    }
    if failures.len() > MAX_FAILURES_NAMED {
        messages.push(Message::Line(format!(
            "error: {name}: {} more errors ended single sessions or lines",
            failures.len() - MAX_FAILURES_NAMED
        )));
    }
}

/// Puts into `tally` the exit status of one trace's check that ended with
/// `outcome` (and whether it erred), its lines written to `lines` (flushed
/// here); an error is pushed to `messages` (and, with summaries, written as
/// the trace's summary line, naming `source` if `named`).
pub(crate) fn finish_trace<K: fmt::Display>(
    outcome: Result<(), RunError<K>>,
    saw_violation: bool,
    lines: &mut dyn Write,
    options: &RunOptions,
    trace: (
        &TraceSource,
        bool,
        &mut Vec<Message>,
        Option<&otlp::Converted>,
    ),
    tally: &mut Tally,
) {
    let status = finish_status(outcome, saw_violation, lines, options, trace);
    tally.status = worse_status(tally.status, status);
    tally.errors += u64::from(status == EXIT_ERROR);
}

/// The exit status [`finish_trace`] puts into a tally.
fn finish_status<K: fmt::Display>(
    outcome: Result<(), RunError<K>>,
    saw_violation: bool,
    lines: &mut dyn Write,
    options: &RunOptions,
    (source, named, messages, otlp): (
        &TraceSource,
        bool,
        &mut Vec<Message>,
        Option<&otlp::Converted>,
    ),
) -> u8 {
    let violation_status = if saw_violation && options.fail_on_violation {
        EXIT_VIOLATION
    } else {
        EXIT_OK
    };
    let message = match outcome {
        Ok(()) => return violation_status,
        Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            return violation_status
        }
        Err(RunError::Trace(error)) => describe(&error, otlp),
        Err(RunError::Write(e)) => {
            messages.push(Message::Line(format!("error: cannot write verdicts: {e}")));
            return EXIT_ERROR;
        }
    };
    report_failure(lines, options, (source, named, messages), &message, true);
    EXIT_ERROR
}

/// Reports an error that stopped a trace: with summaries, as its summary
/// line on `lines` (flushed); on stderr as `error: MESSAGE`, after the
/// trace's name and a colon when the message is placed `in_file`.
fn report_failure(
    lines: &mut dyn Write,
    options: &RunOptions,
    (source, named, messages): (&TraceSource, bool, &mut Vec<Message>),
    message: &str,
    in_file: bool,
) {
    if options.output == Output::Summary {
        let name = named.then_some(source.name.as_str());
        let _ = lines.write_all(error_summary_line(name, message).as_bytes());
    }
    let _ = lines.flush();
    let line = if in_file {
        format!("error: {}:{message}", source.name)
    } else {
        format!("error: {message}")
    };
    messages.push(Message::Line(line));
}

/// Standard output. With `--fail-on-violation`, a closed stdout
/// (`| head -1`) does not end the run: the rest of the traces are still
/// read and checked, without printing, so a violation after the reader went
/// away still decides the exit status.
pub(crate) struct Stdout {
    target: Target,
    keep_reading: bool,
    closed: bool,
    broken: bool,
}

/// Where [`Stdout`] writes.
enum Target {
    /// Standard output (locked per write: writes come in buffer-sized
    /// chunks, and worker threads share it).
    Lock(io::Stdout),
    /// Memory (for rendering the lines before they are printed).
    Memory(Vec<u8>),
}

impl Stdout {
    /// Standard output; `keep_reading`: a closed pipe takes every later byte.
    pub(crate) fn new(keep_reading: bool) -> Self {
        Stdout {
            target: Target::Lock(io::stdout()),
            keep_reading,
            closed: false,
            broken: false,
        }
    }

    /// Output kept in memory.
    fn memory() -> Self {
        Stdout {
            target: Target::Memory(Vec::new()),
            keep_reading: false,
            closed: false,
            broken: false,
        }
    }

    /// What was written, if kept in memory.
    fn memory_text(&self) -> Option<String> {
        match &self.target {
            Target::Memory(bytes) => Some(String::from_utf8_lossy(bytes).into_owned()),
            Target::Lock(_) => None,
        }
    }

    /// Whether its reader went away and the run should stop.
    pub(crate) fn is_broken(&self) -> bool {
        self.broken && !self.keep_reading
    }

    /// `result`, with a closed pipe taken as success (and remembered) when
    /// the run keeps reading.
    fn closing<T>(&mut self, result: io::Result<T>, done: T) -> io::Result<T> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.broken = true;
                if self.keep_reading {
                    self.closed = true;
                    Ok(done)
                } else {
                    Err(e)
                }
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
        let result = match &mut self.target {
            Target::Lock(lock) => lock.write(buf),
            Target::Memory(bytes) => bytes.write(buf),
        };
        self.closing(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = match &mut self.target {
            Target::Lock(lock) => lock.flush(),
            Target::Memory(_) => Ok(()),
        };
        self.closing(result, ())
    }
}

/// Opens a trace, buffered (standard input if `stdin`), counting the bytes
/// and lines read into `progress`.
fn open_trace<'p>(
    path: &std::path::Path,
    stdin: bool,
    progress: Option<&'p Progress>,
) -> io::Result<TraceInput<'p>> {
    let source = if stdin {
        Source::Stdin(io::stdin())
    } else {
        Source::File(File::open(path)?)
    };
    Ok(BufReader::with_capacity(
        BUFFER_BYTES,
        Counted { source, progress },
    ))
}

/// `text` as a trace being read.
fn memory_input(text: Vec<u8>) -> TraceInput<'static> {
    BufReader::with_capacity(
        BUFFER_BYTES,
        Counted {
            source: Source::Memory(io::Cursor::new(text)),
            progress: None,
        },
    )
}

/// A trace being read, buffered.
pub(crate) type TraceInput<'p> = BufReader<Counted<'p>>;

/// Where a trace's bytes come from.
enum Source {
    /// Locked per read (reads are large), so a trace may be read on
    /// another thread.
    Stdin(io::Stdin),
    File(File),
    /// The lines an OpenTelemetry export became.
    Memory(io::Cursor<Vec<u8>>),
}

/// A trace's bytes, counted into a progress bar's counters as they are read.
pub(crate) struct Counted<'p> {
    source: Source,
    progress: Option<&'p Progress>,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.source {
            Source::Stdin(r) => r.read(buf)?,
            Source::File(r) => r.read(buf)?,
            Source::Memory(r) => r.read(buf)?,
        };
        if let Some(progress) = self.progress {
            let read = buf.get(..n).unwrap_or_default();
            progress.bytes.fetch_add(n as u64, Ordering::Relaxed);
            let lines = memchr::memchr_iter(b'\n', read).count() as u64;
            progress.lines.fetch_add(lines, Ordering::Relaxed);
        }
        Ok(n)
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

impl fmt::Display for CheckError {
    /// `LINE:COL: MESSAGE` (as `hindsight check` prints it after the file's
    /// name), or why the verdict lines could not be written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Trace {
                line,
                column: Some(column),
                message,
            } => write!(f, "{line}:{column}: {message}"),
            CheckError::Trace {
                line,
                column: None,
                message,
            } => write!(f, "{line}: {message}"),
            CheckError::Write(e) => write!(f, "cannot write the verdict lines: {e}"),
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckError::Write(e) => Some(e),
            CheckError::Trace { .. } => None,
        }
    }
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
/// `reader.decoder().unmatched()` afterwards.
pub fn check_trace<R: BufRead, W: Write, M: StepMonitor>(
    reader: &mut TraceReader<R>,
    monitor: &mut M,
    out: W,
) -> Result<bool, CheckError> {
    let schema = reader.schema();
    let mut writer = VerdictWriter::for_properties(out, schema.properties());
    run_trace(
        reader,
        Here,
        monitor,
        &mut Silent,
        &mut writer,
        &mut Tally::default(),
    )?;
    Ok(writer.saw_violation())
}

/// [`check_trace`] over a keyed log: each session (the value at JSON
/// Pointer `key`) checked by its own copy of `monitor`, at most
/// `max_sessions` live at once, lines as `hindsight check --key` writes
/// them (without `"trace"`). A bad line ends only its own session; the
/// first such error is returned once every other session is checked.
pub fn check_keyed_trace<R: BufRead, W: Write, M: StepMonitor + Clone>(
    reader: &mut TraceReader<R>,
    monitor: &M,
    out: W,
    key: &str,
    max_sessions: usize,
) -> Result<bool, CheckError> {
    let schema = reader.schema();
    let mut writer = VerdictWriter::for_properties(out, schema.properties());
    let describe = |error: &TraceError| error.to_string();
    let mut keying = Keying {
        pointer: key,
        max_sessions,
        describe: &describe,
        failures: Vec::new(),
        started: None,
    };
    crate::audit::sessions::run_sessions(
        reader,
        monitor,
        &Silent,
        &mut writer,
        &mut keying,
        &mut Tally::default(),
    )?;
    // The other sessions were checked to the end; the first error is the
    // one to report.
    if let Some((_, first)) = keying.failures.into_iter().next() {
        return Err(RunError::Trace(first).into());
    }
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

impl<K> RunError<K> {
    /// The same error, its line `lines` further on (a part of a text checked
    /// on its own).
    pub(crate) fn shifted(self, lines: usize) -> Self {
        match self {
            RunError::Trace(mut e) => {
                e.line = e.line.saturating_add(lines);
                RunError::Trace(e)
            }
            other => other,
        }
    }
}

impl<K> From<io::Error> for RunError<K> {
    fn from(e: io::Error) -> Self {
        RunError::Write(e)
    }
}

/// Feeds every step of `reader` to `monitor`, writing a verdict line per step
/// and the end line, each followed by `observer`'s lines; stops at the first
/// bad line. Counts the trace into `tally`.
pub(crate) fn run_trace<R, W, M, O>(
    reader: &mut TraceReader<R>,
    reading: impl Reading<R>,
    monitor: &mut M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
    tally: &mut Tally,
) -> Result<(), RunError>
where
    R: BufRead,
    W: Write,
    M: StepMonitor,
    O: Observer<M>,
{
    let (width, properties) = (
        reader.schema().inputs().len(),
        reader.schema().properties().len(),
    );
    let mut verdicts = vec![Verdict::Unknown; properties];
    let mut rows = Vec::new();
    let mut step: u64 = 0;
    monitor.reset();
    reading.each_steps(reader, |inputs, places| {
        let at_once = places.len() > 1 && observer.allows_steps_at_once();
        if at_once {
            rows.resize(places.len() * properties, Verdict::Unknown);
            monitor.step_rows(places.len(), inputs, &mut rows);
        }
        for (k, &(line, time)) in places.iter().enumerate() {
            writer.set_place(line, time);
            if at_once {
                let row = rows.get(k * properties..(k + 1) * properties);
                report_step(monitor, observer, writer, step, row.unwrap_or_default())?;
            } else {
                let row = inputs.get(k * width..(k + 1) * width);
                step_monitor(
                    monitor,
                    observer,
                    writer,
                    step,
                    row.unwrap_or_default(),
                    &mut verdicts,
                )?;
            }
            step = step.saturating_add(1);
        }
        Ok(())
    })?;
    end_monitor(monitor, observer, writer, reader.schema(), tally)?;
    writer.flush()?;
    Ok(())
}

/// Steps `monitor` through step `step` of `inputs`, writing its verdict
/// line and `observer`'s lines.
pub(crate) fn step_monitor<W: Write, M: StepMonitor, O: Observer<M>>(
    monitor: &mut M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
    step: u64,
    inputs: &[Value],
    verdicts: &mut [Verdict],
) -> io::Result<()> {
    monitor.step_values(inputs, verdicts);
    report_step(monitor, observer, writer, step, verdicts)
}

/// Writes the verdict line of step `step`, which gave `verdicts`, and
/// `observer`'s lines.
fn report_step<W: Write, M: StepMonitor, O: Observer<M>>(
    monitor: &M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
    step: u64,
    verdicts: &[Verdict],
) -> io::Result<()> {
    writer.write_step(step, verdicts)?;
    observer.after_step(monitor, step, verdicts, writer.observer_out())
}

/// Ends `monitor`'s trace (or session): writes its end (or summary) line
/// and `observer`'s lines, and counts it into `tally`.
pub(crate) fn end_monitor<W: Write, M: StepMonitor, O: Observer<M>>(
    monitor: &mut M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
    schema: &TraceSchema,
    tally: &mut Tally,
) -> io::Result<()> {
    let mut verdicts = vec![Verdict::Unknown; schema.properties().len()];
    monitor.finish_values(&mut verdicts);
    let mut counts = vec![ResetCounts::default(); verdicts.len()];
    monitor.finish_counts(&mut counts);
    end_observed(monitor, observer, writer, &mut verdicts, &counts, tally)
}

/// Ends a trace or session whose monitor finished with `verdicts` and reset
/// `counts`: audits them, counts the ending into `tally`, and writes the end
/// (or summary) line with `observer`'s lines (before it with summaries,
/// which carry the observer's `why`).
pub(crate) fn end_observed<W: Write, M, O: Observer<M>>(
    monitor: &M,
    observer: &mut O,
    writer: &mut VerdictWriter<W>,
    verdicts: &mut [Verdict],
    counts: &[ResetCounts],
    tally: &mut Tally,
) -> io::Result<()> {
    let counts = writer.reset_counts(counts);
    writer.audit_end(verdicts);
    count_ending(writer, verdicts, tally);
    if writer.output() == Output::Summary {
        observer.after_end(monitor, verdicts, writer.observer_out())?;
        writer.write_ending(verdicts, &counts, &|k| observer.why(k))
    } else {
        writer.write_ending(verdicts, &counts, &|_| None)?;
        observer.after_end(monitor, verdicts, writer.observer_out())
    }
}

/// Counts one ended trace or session, its end `verdicts`, into `tally`.
pub(crate) fn count_ending<W: Write>(
    writer: &VerdictWriter<W>,
    verdicts: &[Verdict],
    tally: &mut Tally,
) {
    tally.sessions += 1;
    tally.steps += writer.audit().steps();
    for (total, violated) in tally.violated.iter_mut().zip(writer.violated(verdicts)) {
        *total += u64::from(violated);
    }
}
