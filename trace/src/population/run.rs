//! Running a population monitor over a JSON Lines population trace,
//! streaming verdict lines to stdout: `hindsight check` on a `population`
//! block. Output and exit codes are exactly those of monitors ([`crate::run`]).

use super::error::PopulationErrorKind;
use super::{PopulationReader, PopulationSchema, PopulationStep};
use crate::output::VerdictWriter;
use crate::run::{
    open_reader, stdout_buffer, verdicts_status, Observer, RunError, RunOptions, Silent, EXIT_ERROR,
};
use hindsight_runtime::population::{PopulationError, PopulationMonitor, PopulationStepper};
use hindsight_runtime::{ResetCounts, Value, Verdict};
use std::io::{BufRead, Write};

/// A generated population monitor as a [`PopulationStepper`]: the driver's
/// row-major values become the monitor's typed agents and globals (in buffers
/// kept across steps, so a step allocates nothing once the first has run).
pub struct Generated<'m, M: PopulationMonitor> {
    monitor: &'m mut M,
    agents: Vec<M::Agent>,
    verdicts: Vec<Verdict>,
}

impl<'m, M: PopulationMonitor> Generated<'m, M> {
    /// Drives `monitor`, which reports `properties` verdicts per step.
    pub fn new(monitor: &'m mut M, properties: usize) -> Self {
        Generated {
            monitor,
            agents: Vec::new(),
            verdicts: vec![Verdict::Unknown; properties],
        }
    }
}

impl<M: PopulationMonitor> PopulationStepper for Generated<'_, M> {
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

/// Resets `monitor` and runs it over the population trace of `options`,
/// decoding steps against `schema` and writing one verdict line per step and
/// the end line to stdout, as for monitors; errors go to stderr. Returns the
/// exit status.
pub fn run_population<M: PopulationStepper>(
    schema: &PopulationSchema,
    monitor: &mut M,
    options: &RunOptions,
) -> u8 {
    run_population_observed(schema, monitor, options, &mut Silent)
}

/// [`run_population`], with `observer`'s lines after each verdict line and
/// after the end line (`--explain`).
pub fn run_population_observed<M: PopulationStepper, O: Observer<M>>(
    schema: &PopulationSchema,
    monitor: &mut M,
    options: &RunOptions,
    observer: &mut O,
) -> u8 {
    let Some(reader) = open_reader(schema, options) else {
        return EXIT_ERROR;
    };
    let mut writer = VerdictWriter::for_properties(stdout_buffer(options), schema.properties());
    let outcome = check_population(reader, monitor, &mut writer, observer);
    verdicts_status(outcome, &mut writer, options)
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
    check_population(reader, monitor, &mut writer, &mut Silent)?;
    Ok(writer.saw_violation())
}

/// Feeds every step of `reader` to `monitor` (reset first), writing a verdict
/// line per step and the end line; stops at the first bad line, before
/// writing anything for it.
pub(super) fn check_population<R: BufRead, W: Write, M: PopulationStepper, O: Observer<M>>(
    mut reader: PopulationReader<R>,
    monitor: &mut M,
    writer: &mut VerdictWriter<W>,
    observer: &mut O,
) -> Result<(), RunError<PopulationErrorKind>> {
    let mut step = PopulationStep::default();
    let mut last = Vec::new();
    let mut index: u64 = 0;
    monitor.reset();
    while reader.read_next(&mut step).map_err(RunError::Trace)? {
        let verdicts = monitor
            .step(step.agents(), step.attributes(), step.globals())
            .map_err(|e| RunError::Trace(reader.error_here(PopulationErrorKind::Refused(e))))?;
        writer.write_step(index, verdicts)?;
        last.clear();
        last.extend_from_slice(verdicts);
        observer.after_step(monitor, index, &last, writer.get_mut())?;
        index = index.saturating_add(1);
    }
    let properties = reader.schema().properties().len();
    let mut verdicts = vec![Verdict::Unknown; properties];
    monitor.finish(&mut verdicts);
    let mut counts = vec![ResetCounts::default(); properties];
    monitor.counts(&mut counts);
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
