//! Running a system's monitors over a JSON Lines system trace, streaming
//! verdict lines to stdout: `hindsight check` on a `system` block.
//!
//! The driver owns decoding, the messages in transit (the stamp each send
//! produced, until its receive) and the output; a [`SystemMonitor`] owns the
//! lifelines' monitors. Exit codes as for monitors ([`crate::run`]).

use super::error::SystemErrorKind;
use super::event::{EventKind, SystemEvent};
use super::in_flight::{InFlight, MessageError};
use super::output::SystemVerdictWriter;
use super::schema::SystemSchema;
use super::SystemReader;
use super::SystemTraceError;
use crate::audit::coverage;
use crate::audit::{Coverage, Frontend, Message, Tally, TraceRun, Unmatched};
use crate::otlp;
use crate::read::Reader;
use crate::run::{
    check_source, describe, finish_trace, report_failures, run_traces, worse_status, FromOtlp,
    RunError, RunOptions, Silent, TraceInput, BUFFER_BYTES, EXIT_ERROR,
};
use hindsight_runtime::system::{MessageEvent, MessageKind, MonitorError, SystemMonitor};
use hindsight_runtime::Verdict;
use std::io::{self, BufRead, BufWriter, Write};

/// Runs a copy of `monitor` (fresh) over each system trace of `options`,
/// decoding events against `schema` and writing one verdict line per
/// `choice` event of a lifeline owning guards to stdout; errors go to
/// stderr. Returns the exit status.
pub fn run_system<M: SystemMonitor + Clone + Send + Sync>(
    schema: &SystemSchema,
    monitor: &M,
    options: &RunOptions,
) -> u8 {
    run_system_observed(schema, monitor, options, &Silent, Frontend::default())
}

/// What sees every event of a system run after the monitor took it, and may
/// write lines of its own after the event's verdict line (`--explain`).
pub trait EventObserver<M> {
    /// Called after event `event` (0-based among the events) of `lifeline`;
    /// `guards` are the verdicts of a choice (written just before), `None`
    /// for other kinds.
    fn after_event(
        &mut self,
        monitor: &M,
        event: u64,
        lifeline: usize,
        guards: Option<&[Verdict]>,
        out: &mut dyn Write,
    ) -> io::Result<()>;
}

impl<M> EventObserver<M> for Silent {
    fn after_event(
        &mut self,
        _: &M,
        _: u64,
        _: usize,
        _: Option<&[Verdict]>,
        _: &mut dyn Write,
    ) -> io::Result<()> {
        Ok(())
    }
}

/// [`run_system`], with a copy of `observer` per trace writing its lines
/// after each event, and `progress` counters to bump.
pub fn run_system_observed<M, O>(
    schema: &SystemSchema,
    monitor: &M,
    options: &RunOptions,
    observer: &O,
    frontend: Frontend<'_>,
) -> u8
where
    M: SystemMonitor + Clone + Send + Sync,
    O: EventObserver<M> + Clone + Send + Sync,
{
    let from_otlp = FromOtlp {
        convert: &|spans| otlp::events(spans, schema),
        traces_are_sessions: false,
    };
    run_traces(options, &[], 0, frontend, Some(from_otlp), |run, input| {
        check_system_input(schema, monitor, observer, options, run, input)
    })
}

/// One system trace of an audit ([`crate::run::check_source`]: `run.source`,
/// or `text`, what the file would hold), checked with copies of `monitor`
/// and `observer` exactly as [`run_system_observed`] checks each of its traces.
pub fn check_system_source<M, O>(
    schema: &SystemSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    text: Option<Vec<u8>>,
) -> Tally
where
    M: SystemMonitor + Clone,
    O: EventObserver<M> + Clone,
{
    let from_otlp = FromOtlp {
        convert: &|spans| otlp::events(spans, schema),
        traces_are_sessions: false,
    };
    check_source(run, text, options, Some(from_otlp), &|run, input| {
        check_system_input(schema, monitor, observer, options, run, input)
    })
}

/// Checks the system trace `input` (or, read from an export, its traces) as
/// [`run_system_observed`] does.
fn check_system_input<M, O>(
    schema: &SystemSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    input: TraceInput<'_>,
) -> Tally
where
    M: SystemMonitor + Clone,
    O: EventObserver<M> + Clone,
{
    let name = run.named.then_some(run.source.name.as_str());
    let lines = BufWriter::with_capacity(BUFFER_BYTES, &mut *run.lines);
    let mut writer = SystemVerdictWriter::new(lines, schema).naming_trace(name, options.output);
    let mut tally = Tally::default();
    let in_flight = || InFlight::with_limit(options.max_in_transit);
    let mut touched = Touched::default();
    let otlp = run.otlp.as_ref();
    let outcome = match otlp {
        // An OpenTelemetry export: each trace a system run of its own, its
        // lines carrying "session": TRACE_ID; an error ends only its trace.
        Some(converted) => {
            let mut failures = Vec::new();
            let mut outcome = Ok(());
            // The lines before each trace's, counted as the traces go (they
            // follow one another in the text).
            let (mut counted, mut offset) = (0, 0);
            for (key, range) in &converted.traces {
                let text = converted.text.get(range.clone()).unwrap_or_default();
                let skipped = converted.text.get(counted..range.start).unwrap_or_default();
                offset += memchr::memchr_iter(b'\n', skipped.as_bytes()).count();
                counted = range.start;
                writer.start_session(Some(key));
                let reader = Reader::new(text.as_bytes(), schema.clone());
                let checked = check_system(
                    reader,
                    &mut monitor.clone(),
                    &mut writer,
                    in_flight(),
                    (&mut observer.clone(), &mut touched),
                    &mut tally,
                )
                .map_err(|e| e.shifted(offset));
                match checked {
                    Err(RunError::Trace(error)) => {
                        let written = writer.write_failure(Some(key), &describe(&error, otlp));
                        tally.errors += 1;
                        tally.status = worse_status(tally.status, EXIT_ERROR);
                        failures.push((Some(key.clone()), error));
                        if let Err(e) = written {
                            outcome = Err(RunError::Write(e));
                            break;
                        }
                    }
                    Err(other) => {
                        outcome = Err(other);
                        break;
                    }
                    Ok(()) => {}
                }
            }
            let describe = |error: &SystemTraceError| describe(error, otlp);
            report_failures(&run.source.name, &failures, &describe, &mut run.messages);
            outcome
        }
        None => check_system(
            Reader::new(input, schema.clone()).with_max_line_bytes(options.max_line_bytes),
            &mut monitor.clone(),
            &mut writer,
            in_flight(),
            (&mut observer.clone(), &mut touched),
            &mut tally,
        ),
    };
    if outcome.is_ok() {
        run.messages.push(Message::Covered {
            trace: run.source.name.clone(),
            coverage: touched.coverage(schema, otlp),
        });
    }
    // Guards are decisions, not properties: a false guard is no violation;
    // a protocol's is, and `--fail-on-violation` exits 1 for it.
    let violated = writer.saw_violation();
    let trace = (run.source, run.named, &mut run.messages, otlp);
    finish_trace(
        outcome,
        violated,
        writer.get_mut(),
        options,
        trace,
        &mut tally,
    );
    let _ = writer.flush();
    tally
}

/// Checks the system trace `reader` holds with `monitor`, at most
/// `max_in_transit` messages in transit, writing the verdict lines to `out`
/// exactly as `hindsight check` writes them to stdout (see
/// [`crate::check_trace`]).
pub fn check_system_trace<R: BufRead, W: Write, M: SystemMonitor>(
    reader: SystemReader<R>,
    monitor: &mut M,
    out: W,
    max_in_transit: usize,
) -> Result<(), crate::CheckError> {
    let schema = reader.schema().clone();
    let mut writer = SystemVerdictWriter::new(out, &schema);
    check_system(
        reader,
        monitor,
        &mut writer,
        InFlight::with_limit(max_in_transit),
        (&mut Silent, &mut Touched::default()),
        &mut Tally::default(),
    )
    .map_err(crate::CheckError::from)
}

/// Feeds every event of `reader` to `monitor`, writing the verdict lines of
/// its choices; stops at the first bad line, after flushing the lines of the
/// events before it.
pub(crate) fn check_system<R: BufRead, W: Write, M: SystemMonitor, O: EventObserver<M>>(
    reader: SystemReader<R>,
    monitor: &mut M,
    writer: &mut SystemVerdictWriter<W>,
    in_flight: InFlight<Carried<M::Stamp>>,
    (observer, touched): (&mut O, &mut Touched),
    tally: &mut Tally,
) -> Result<(), RunError<SystemErrorKind>> {
    let outcome = feed(
        reader,
        monitor,
        writer,
        in_flight,
        (observer, touched),
        tally,
    );
    let flushed = writer.flush();
    match outcome {
        // The trace error is what to report, whatever the flush gave.
        Err(RunError::Trace(e)) => Err(RunError::Trace(e)),
        other => flushed.map_err(RunError::Write).and(other),
    }
}

/// Feeds every event of `reader` to `monitor`, writing the verdict lines of
/// its choices; stops at the first bad line.
fn feed<R: BufRead, W: Write, M: SystemMonitor, O: EventObserver<M>>(
    mut reader: SystemReader<R>,
    monitor: &mut M,
    writer: &mut SystemVerdictWriter<W>,
    mut in_flight: InFlight<Carried<M::Stamp>>,
    (observer, touched): (&mut O, &mut Touched),
    tally: &mut Tally,
) -> Result<(), RunError<SystemErrorKind>> {
    touched.fit(reader.schema());
    let mut event = SystemEvent::default();
    let mut protocols = vec![Verdict::Unknown; reader.schema().protocols().len()];
    let most_guards = reader
        .schema()
        .lifelines()
        .iter()
        .map(|l| l.guards.len())
        .max();
    let mut guards = vec![Verdict::Unknown; most_guards.unwrap_or(0)];
    // The event's 0-based index among the events (the non-blank lines).
    let mut index: u64 = 0;
    while reader.read_next(&mut event).map_err(RunError::Trace)? {
        let lifeline = event.lifeline();
        let owned = reader
            .schema()
            .lifelines()
            .get(lifeline)
            .map_or(0, |l| l.guards.len());
        let guards = guards.get_mut(..owned).unwrap_or_default();
        let stepped = step(
            &reader,
            monitor,
            &mut in_flight,
            &event,
            guards,
            &mut protocols,
        )
        .map_err(RunError::Trace)?;
        touched.note(&event, stepped);
        let choice = stepped == Stepped::Choice;
        if choice {
            writer.write_choice(index, lifeline, guards)?;
        }
        if stepped == Stepped::Constrained {
            writer.write_protocols(index, lifeline, &protocols)?;
        }
        let guards = choice.then_some(&*guards);
        observer.after_event(monitor, index, lifeline, guards, writer.observer_out())?;
        index = index.saturating_add(1);
    }
    monitor.protocol_ends(&mut protocols);
    writer.write_protocol_end(&protocols)?;
    writer.write_summary(index, &protocols)?;
    tally.sessions += 1;
    tally.steps += index;
    touched.lines += reader.line();
    Ok(())
}

/// What the events of a system trace touched (over all its sessions): what
/// its coverage reports as never matched.
#[derive(Clone, Debug, Default)]
pub(crate) struct Touched {
    /// Per lifeline: its events.
    events: Vec<u64>,
    /// Per lifeline, per variable: whether some event set it.
    set: Vec<Vec<bool>>,
    /// Per lifeline: its choices.
    choices: Vec<u64>,
    /// Message events some protocol constrained.
    constrained: u64,
    /// Lines read.
    lines: usize,
}

impl Touched {
    /// Sizes the counters for `schema` (once).
    fn fit(&mut self, schema: &SystemSchema) {
        let lifelines = schema.lifelines();
        if self.events.len() != lifelines.len() {
            self.events = vec![0; lifelines.len()];
            self.choices = vec![0; lifelines.len()];
            self.set = lifelines
                .iter()
                .map(|l| vec![false; l.vars.len()])
                .collect();
        }
    }

    /// Notes `event`, which the monitor took as `stepped`.
    fn note(&mut self, event: &SystemEvent, stepped: Stepped) {
        let l = event.lifeline();
        if let Some(n) = self.events.get_mut(l) {
            *n += 1;
        }
        if let Some(set) = self.set.get_mut(l) {
            for &(var, _) in event.changes() {
                if let Some(flag) = set.get_mut(var) {
                    *flag = true;
                }
            }
        }
        match stepped {
            Stepped::Choice => {
                if let Some(n) = self.choices.get_mut(l) {
                    *n += 1;
                }
            }
            Stepped::Constrained => self.constrained += 1,
            Stepped::Other => {}
        }
    }

    /// The coverage of the trace: its lines if it gave no event, and each
    /// lifeline without an event, variable no event set, guard owner that
    /// made no choice, and the protocols if they constrained no event;
    /// hints from the export `otlp` came from, if any.
    pub(crate) fn coverage(
        &self,
        schema: &SystemSchema,
        otlp: Option<&otlp::Converted>,
    ) -> Coverage {
        let mut coverage = Coverage::default();
        if self.events.iter().all(|&n| n == 0) {
            match otlp {
                Some(c) => {
                    coverage.no_step(c.spans, "span", Some("no span was of a lifeline's service"))
                }
                None => coverage.no_step(self.lines, "line", None),
            }
        }
        let decides = schema.lifelines().iter().any(|l| !l.guards.is_empty());
        if !decides && schema.protocols().is_empty() {
            coverage
                .unmatched
                .push(Unmatched::new(crate::run::NOTHING_TO_CHECK));
        }
        let seen = otlp.map(|c| &c.seen);
        for (l, lifeline) in schema.lifelines().iter().enumerate() {
            let name = &lifeline.name;
            if self.events.get(l).is_some_and(|&n| n == 0) {
                // A lifeline that holds nothing and decides nothing may
                // well take no part (a branch of a protocol not taken).
                let what = match (lifeline.vars.is_empty(), lifeline.guards.is_empty()) {
                    (true, true) => continue,
                    (false, true) => "its variables were never set",
                    (true, false) => "its guards were never evaluated",
                    (false, false) => "its variables were never set, its guards never evaluated",
                };
                let hint = seen.and_then(|s| {
                    coverage::hint(name, &s.services, "services seen")
                        .map(|h| format!("no span had service.name `{name}`; {h}"))
                });
                coverage.unmatched.push(
                    Unmatched::new(format!("lifeline `{name}` had no event: {what}"))
                        .with_hint(hint),
                );
                continue;
            }
            let set = self.set.get(l).map_or(&[][..], Vec::as_slice);
            for (var, _) in lifeline.vars.iter().zip(set).filter(|(_, &set)| !set) {
                let attributes = seen.and_then(|s| s.attributes.get(l));
                let hint = attributes.and_then(|a| {
                    coverage::hint(
                        &var.name,
                        a,
                        &format!("attributes seen on `{name}`'s spans"),
                    )
                });
                coverage.unmatched.push(
                    Unmatched::new(format!(
                        "lifeline `{name}`'s variable `{}` was set by no event (it stayed undefined)",
                        var.name
                    ))
                    .with_hint(hint),
                );
            }
            if !lifeline.guards.is_empty() && self.choices.get(l).is_some_and(|&n| n == 0) {
                coverage.unmatched.push(Unmatched::new(format!(
                    "lifeline `{name}` made no choice: its guards ({}) were never evaluated",
                    lifeline.guards.join(", ")
                )));
            }
        }
        if !schema.protocols().is_empty() && self.constrained == 0 {
            coverage.unmatched.push(Unmatched::new(format!(
                "no message event was one the protocols ({}) constrain",
                schema.protocols().join(", ")
            )));
        }
        coverage
    }
}

/// What an event was, for the lines it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stepped {
    /// A choice: its guards' line.
    Choice,
    /// A message event a protocol constrains: the protocols' line.
    Constrained,
    /// Anything else: no line.
    Other,
}

/// A message in transit: its sender and label (for the protocols) and the
/// stamp its send produced.
#[derive(Clone, Debug)]
pub(crate) struct Carried<S> {
    from: usize,
    label: String,
    stamp: S,
}

/// `error`, the messages in transit refusing message `msg` of an event of
/// `lifeline`, as the trace error at the line `reader` read last.
pub fn message_error<R: BufRead>(
    reader: &SystemReader<R>,
    error: MessageError,
    msg: &str,
    lifeline: usize,
) -> SystemTraceError {
    let msg = msg.to_string();
    reader.error_here(match error {
        MessageError::AlreadyInTransit => SystemErrorKind::MessageInTransit { msg },
        MessageError::NotInTransit => SystemErrorKind::MessageNotInTransit { msg },
        MessageError::WrongReceiver { to } => SystemErrorKind::WrongReceiver {
            msg,
            to: reader.schema().name(to).to_string(),
            by: reader.schema().name(lifeline).to_string(),
        },
        MessageError::TooManyInTransit { limit } => SystemErrorKind::TooManyInTransit { limit },
    })
}

/// Steps `monitor` through `event`, the last event `reader` read, keeping
/// `in_flight` up to date: writes a choice's guard verdicts into `guards`,
/// a message event's protocol verdicts into `protocols`.
fn step<R: BufRead, M: SystemMonitor>(
    reader: &SystemReader<R>,
    monitor: &mut M,
    in_flight: &mut InFlight<Carried<M::Stamp>>,
    event: &SystemEvent,
    guards: &mut [Verdict],
    protocols: &mut [Verdict],
) -> Result<Stepped, SystemTraceError> {
    let lifeline = event.lifeline();
    let changes = event.changes();
    let message_error = |error, msg: &str| message_error(reader, error, msg, lifeline);
    let refused = |e: MonitorError| {
        reader.error_here(SystemErrorKind::EventRefused {
            reason: e.to_string(),
        })
    };
    // Labels travel only for the protocols.
    let with_protocols = !protocols.is_empty();
    let message = match event.kind() {
        EventKind::Send { to, msg } => {
            // Refused before the monitor acts, so a refused send changes nothing.
            in_flight
                .check_send(msg)
                .map_err(|e| message_error(e, msg))?;
            let stamp = monitor.on_send(lifeline, changes).map_err(refused)?;
            let label = if with_protocols {
                event.label().to_string()
            } else {
                String::new()
            };
            let carried = Carried {
                from: lifeline,
                label,
                stamp,
            };
            in_flight
                .send(msg, to, carried)
                .map_err(|e| message_error(e, msg))?;
            (MessageKind::Send, lifeline, to)
        }
        EventKind::Recv { msg } => {
            let carried = in_flight
                .recv(msg, lifeline)
                .map_err(|e| message_error(e, msg))?;
            if with_protocols && !event.label().is_empty() && event.label() != carried.label {
                return Err(reader.error_here(SystemErrorKind::LabelMismatch {
                    msg: msg.to_string(),
                    sent: carried.label.clone(),
                    received: event.label().to_string(),
                }));
            }
            monitor
                .on_recv(lifeline, &carried.stamp, changes)
                .map_err(|e| {
                    reader.error_here(SystemErrorKind::StampRejected {
                        msg: msg.to_string(),
                        reason: e.to_string(),
                    })
                })?;
            if with_protocols {
                let received = MessageEvent {
                    kind: MessageKind::Receive,
                    from: carried.from,
                    to: lifeline,
                    label: &carried.label,
                };
                let constrained = monitor.on_message(&received, protocols);
                return Ok(if constrained {
                    Stepped::Constrained
                } else {
                    Stepped::Other
                });
            }
            return Ok(Stepped::Other);
        }
        EventKind::Act => {
            monitor.on_act(lifeline, changes).map_err(refused)?;
            return Ok(Stepped::Other);
        }
        EventKind::Choice => {
            monitor
                .on_choice(lifeline, changes, guards)
                .map_err(refused)?;
            return Ok(Stepped::Choice);
        }
    };
    if !with_protocols {
        return Ok(Stepped::Other);
    }
    let (kind, from, to) = message;
    let sent = MessageEvent {
        kind,
        from,
        to,
        label: event.label(),
    };
    Ok(if monitor.on_message(&sent, protocols) {
        Stepped::Constrained
    } else {
        Stepped::Other
    })
}
