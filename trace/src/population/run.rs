//! Running a population monitor over a JSON Lines population trace,
//! streaming verdict lines to stdout: `hindsight check` on a `population`
//! block. Output and exit codes are exactly those of monitors ([`crate::run`]).

use super::error::PopulationErrorKind;
use super::{PopulationReader, PopulationSchema, PopulationStep};
use crate::audit::{Coverage, Frontend, Message, Tally, TraceRun, Unmatched};
use crate::output::VerdictWriter;
use crate::read::Reader;
use crate::run::{
    check_source, end_observed, finish_trace, run_traces, Observer, RunError, RunOptions, Silent,
    TraceInput, BUFFER_BYTES,
};
use hindsight_runtime::population::{PopulationError, PopulationMonitor, PopulationStepper};
use hindsight_runtime::{ResetCounts, Value, Verdict};
use std::io::{BufRead, BufWriter, Write};

/// A generated population monitor as a [`PopulationStepper`]: the driver's
/// row-major values become the monitor's typed agents and globals (in buffers
/// kept across steps, so a step allocates nothing once the first has run).
#[derive(Clone)]
pub struct Generated<M: PopulationMonitor> {
    monitor: M,
    agents: Vec<M::Agent>,
    verdicts: Vec<Verdict>,
}

impl<M: PopulationMonitor> Generated<M> {
    /// Drives `monitor`, which reports `properties` verdicts per step.
    pub fn new(monitor: M, properties: usize) -> Self {
        Generated {
            monitor,
            agents: Vec::new(),
            verdicts: vec![Verdict::Unknown; properties],
        }
    }
}

impl<M: PopulationMonitor> PopulationStepper for Generated<M> {
    fn reset(&mut self) {
        self.monitor.reset();
    }

    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError> {
        let width = attributes.len().checked_div(agents).unwrap_or(0);
        self.agents.clear();
        self.agents
            .extend((0..agents).map(|j| M::agent(attributes.get(j * width..).unwrap_or_default())));
        let globals = M::globals(globals);
        self.monitor
            .step_values(&self.agents, &globals, &mut self.verdicts)?;
        Ok(&self.verdicts)
    }

    fn finish(&self, out: &mut [Verdict]) {
        self.monitor.finish_values(out);
    }

    fn counts(&self, out: &mut [ResetCounts]) {
        self.monitor.finish_counts(out);
    }
}

/// Runs a copy of `monitor` (reset) over each population trace of
/// `options`, decoding steps against `schema` and writing one verdict line
/// per step and the end line to stdout, as for monitors; errors go to
/// stderr. Returns the exit status.
pub fn run_population<M: PopulationStepper + Clone + Send + Sync>(
    schema: &PopulationSchema,
    monitor: &M,
    options: &RunOptions,
) -> u8 {
    run_population_observed(schema, monitor, options, &Silent, Frontend::default())
}

/// [`run_population`], with a copy of `observer` per trace writing its
/// lines after each verdict line and after the end line (`--explain`), and
/// `progress` counters to bump.
pub fn run_population_observed<M, O>(
    schema: &PopulationSchema,
    monitor: &M,
    options: &RunOptions,
    observer: &O,
    frontend: Frontend<'_>,
) -> u8
where
    M: PopulationStepper + Clone + Send + Sync,
    O: Observer<M> + Clone + Send + Sync,
{
    // A generated population monitor keeps its agents in itself: room on
    // the worker's stack for two copies.
    let stack = 2 * std::mem::size_of::<M>();
    let properties = schema.properties().names();
    run_traces(options, properties, stack, frontend, None, |run, input| {
        check_population_input(schema, monitor, observer, options, run, input)
    })
}

/// One population trace of an audit ([`crate::run::check_source`]:
/// `run.source`, or `text`, what the file would hold), checked with copies
/// of `monitor` and `observer` exactly as [`run_population_observed`]
/// checks each of its traces. A population reads no OpenTelemetry export.
pub fn check_population_source<M, O>(
    schema: &PopulationSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    text: Option<Vec<u8>>,
) -> Tally
where
    M: PopulationStepper + Clone,
    O: Observer<M> + Clone,
{
    check_source(run, text, options, None, &|run, input| {
        check_population_input(schema, monitor, observer, options, run, input)
    })
}

/// Checks one population trace with copies of `monitor` and `observer`.
fn check_population_input<M: PopulationStepper + Clone, O: Observer<M> + Clone>(
    schema: &PopulationSchema,
    monitor: &M,
    observer: &O,
    options: &RunOptions,
    run: &mut TraceRun<'_>,
    input: TraceInput<'_>,
) -> Tally {
    let reader = Reader::new(input, schema.clone()).with_max_line_bytes(options.max_line_bytes);
    let mut tally = Tally {
        violated: vec![0; schema.properties().len()],
        ..Tally::default()
    };
    let name = run.named.then_some(run.source.name.as_str());
    let timed = schema
        .globals()
        .iter()
        .any(|g| g.ty == crate::InputType::Time);
    let lines = BufWriter::with_capacity(BUFFER_BYTES, &mut *run.lines);
    let mut writer = VerdictWriter::for_properties(lines, schema.properties())
        .naming_trace(name)
        .writing(options.output, timed);
    let mut coverage = Coverage::default();
    let outcome = check_population(
        reader,
        &mut monitor.clone(),
        &mut writer,
        (&mut observer.clone(), &mut coverage),
        &mut tally,
    );
    if outcome.is_ok() {
        run.messages.push(Message::Covered {
            trace: run.source.name.clone(),
            coverage,
        });
    }
    let violation = writer.saw_violation();
    let trace = (run.source, run.named, &mut run.messages, None);
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

/// Checks the population trace `reader` holds with `monitor`, writing the
/// verdict lines to `out` exactly as `hindsight check` writes them to stdout;
/// returns whether some verdict was `"false"` (see [`crate::check_trace`]).
pub fn check_population_trace<R: BufRead, W: Write, M: PopulationStepper>(
    reader: PopulationReader<R>,
    monitor: &mut M,
    out: W,
) -> Result<bool, crate::CheckError> {
    let schema = reader.schema();
    let mut writer = VerdictWriter::for_properties(out, schema.properties());
    check_population(
        reader,
        monitor,
        &mut writer,
        (&mut Silent, &mut Coverage::default()),
        &mut Tally::default(),
    )?;
    Ok(writer.saw_violation())
}

/// Feeds every step of `reader` to `monitor` (reset first), writing a verdict
/// line per step and the end line; stops at the first bad line, before
/// writing anything for it. Notes in `coverage` a trace without a step, or
/// whose steps had no agent.
pub(super) fn check_population<R: BufRead, W: Write, M: PopulationStepper, O: Observer<M>>(
    mut reader: PopulationReader<R>,
    monitor: &mut M,
    writer: &mut VerdictWriter<W>,
    (observer, coverage): (&mut O, &mut Coverage),
    tally: &mut Tally,
) -> Result<(), RunError<PopulationErrorKind>> {
    let mut step = PopulationStep::default();
    let mut last = Vec::new();
    let mut index: u64 = 0;
    let mut agents = 0;
    monitor.reset();
    while reader.read_next(&mut step).map_err(RunError::Trace)? {
        agents = agents.max(step.agents());
        let verdicts = monitor
            .step(step.agents(), step.attributes(), step.globals())
            .map_err(|e| RunError::Trace(reader.error_here(PopulationErrorKind::Refused(e))))?;
        writer.set_place(reader.line(), reader.decoder().last_time());
        writer.write_step(index, verdicts)?;
        last.clear();
        last.extend_from_slice(verdicts);
        observer.after_step(monitor, index, &last, writer.observer_out())?;
        index = index.saturating_add(1);
    }
    let properties = reader.schema().properties().len();
    let mut verdicts = vec![Verdict::Unknown; properties];
    monitor.finish(&mut verdicts);
    let mut counts = vec![ResetCounts::default(); properties];
    monitor.counts(&mut counts);
    end_observed(monitor, observer, writer, &mut verdicts, &counts, tally)?;
    writer.flush()?;
    if reader.schema().properties().is_empty() {
        coverage
            .unmatched
            .push(Unmatched::new(crate::run::NOTHING_TO_CHECK));
    }
    if index == 0 {
        coverage.no_step(reader.line(), "line", None);
    } else if agents == 0 {
        coverage.unmatched.push(Unmatched::new(
            "no step had an agent: every quantifier ranged over none",
        ));
    }
    Ok(())
}
