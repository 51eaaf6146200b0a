//! Learned behaviour models from Python (docs/learning.md): a model learned
//! from the logs of a monitor block as `hindsight learn` learns it, read
//! from and written to the model file, and a run followed with it step by
//! step as `hindsight check --model` follows it.

use crate::{json, refused_line};
use hindsight_cli::schema::trace_schema;
use hindsight_compiler::ir::table::Table;
use hindsight_learn::features::collect;
use hindsight_learn::online::Tracker;
use hindsight_learn::text::describe;
use hindsight_learn::{learn, Collector, Features, Model, Options, Recording};
use hindsight_runtime::{StepMonitor, Value, Verdict};
use hindsight_trace::read::LineDecoder;
use hindsight_trace::{Decode, RunOptions};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A learned model.
#[pyclass(module = "hindsight._native", frozen)]
pub(crate) struct NativeModel {
    pub(crate) model: Model,
}

/// Learns a model of the runs in `options.traces` read for `table`, with
/// the input `action` as the action; errors as `ValueError` with the
/// messages `hindsight learn` prints.
pub(crate) fn learn_model(
    table: &Table,
    action: &str,
    options: &RunOptions,
    learning: Options,
) -> PyResult<NativeModel> {
    let features = Features::of(table, action).map_err(PyValueError::new_err)?;
    let schema = trace_schema(table);
    let recording = Recording::new(table);
    let collector = Collector::new(&features);
    let (runs, _) = collect(&schema, &recording, &collector, options)
        .map_err(|errors| PyValueError::new_err(errors.join("\n")))?;
    let model =
        learn(&table.name, action, &features, &runs, learning).map_err(PyValueError::new_err)?;
    Ok(NativeModel { model })
}

#[pymethods]
impl NativeModel {
    /// Reads a model file's text (`ValueError` with the reason for one
    /// that is not a model of this version, or is inconsistent).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Model::from_json(text)
            .map(|model| NativeModel { model })
            .map_err(PyValueError::new_err)
    }

    /// The model file's text.
    fn to_json(&self) -> String {
        self.model.to_json()
    }

    /// The model in words, as `hindsight explain --model` prints it.
    fn explain(&self) -> String {
        describe(&self.model)
    }

    /// (block, action, goals, predicted properties, state names, runs,
    /// steps, training runs flagged).
    #[allow(clippy::type_complexity)]
    fn summary(
        &self,
    ) -> (
        String,
        String,
        Vec<String>,
        Vec<String>,
        Vec<String>,
        u64,
        u64,
        u64,
    ) {
        let m = &self.model;
        (
            m.block.clone(),
            m.action.clone(),
            m.goals.clone(),
            m.predictions.iter().map(|p| p.property.clone()).collect(),
            m.states.iter().map(|s| s.name.clone()).collect(),
            m.training.runs,
            m.training.steps,
            m.training.flagged,
        )
    }
}

/// What a followed run owns: the table it is read with, the model and the
/// features.
pub(crate) struct FollowOwner {
    table: Table,
    model: Model,
    features: Features,
}

/// The interpreter, the tracker and their scratch.
struct Following<'a> {
    recording: Recording<'a>,
    tracker: Tracker<'a>,
    row: Vec<f64>,
    automata: Vec<u32>,
    verdicts: Vec<Verdict>,
}

self_cell::self_cell!(
    /// A model and a run it follows.
    struct FollowCell {
        owner: FollowOwner,
        #[not_covariant]
        dependent: Following,
    }
);

/// Where a run stands after a step: state name, log-likelihood, anomalous,
/// per goal (name, p, pmin, pmax), per predicted property (name, (p, pmin,
/// pmax) or None).
type Standing = (
    String,
    f64,
    bool,
    Vec<(String, f64, f64, f64)>,
    Vec<(String, Option<(f64, f64, f64)>)>,
);

/// A run followed with a model.
#[pyclass(module = "hindsight._native")]
pub(crate) struct NativeModelRun {
    cell: FollowCell,
    decoder: LineDecoder,
    inputs: Vec<Value>,
    line: String,
}

impl NativeModelRun {
    /// A run of the monitor compiled into `table` (lowered with its lets)
    /// followed with `model`, which must have been learned for it.
    pub(crate) fn new(table: Table, model: Model) -> PyResult<Self> {
        let features = Features::for_model(&table, &model).map_err(PyValueError::new_err)?;
        let decoder = LineDecoder::new(trace_schema(&table));
        let properties = table.outputs.len();
        let cell = FollowCell::new(
            FollowOwner {
                table,
                model,
                features,
            },
            |owner| Following {
                recording: Recording::new(&owner.table),
                tracker: Tracker::new(&owner.model),
                row: Vec::new(),
                automata: Vec::new(),
                verdicts: vec![Verdict::Unknown; properties],
            },
        );
        Ok(NativeModelRun {
            cell,
            decoder,
            inputs: Vec::new(),
            line: String::new(),
        })
    }
}

#[pymethods]
impl NativeModelRun {
    /// Takes `event` (a mapping, written as JSON, values JSON has no form
    /// for converted by `default`) as the next step; where the run stands,
    /// or `None` when the block's step filter skips the event.
    fn step(
        &mut self,
        event: &Bound<'_, PyAny>,
        default: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Standing>> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let written = json::write(event, &mut line, default);
        let decoded = written.and_then(|()| {
            self.decoder
                .decode(&line, &mut self.inputs)
                .map_err(refused_line)
        });
        self.line = line;
        if !decoded? {
            return Ok(None);
        }
        let inputs = &self.inputs;
        Ok(Some(self.cell.with_dependent_mut(|owner, f| {
            f.recording.step_values(inputs, &mut f.verdicts);
            owner.features.read(&f.recording, &mut f.row);
            let action = owner.features.action(&f.recording);
            let s = f.tracker.step(action, &f.row);
            let model = &owner.model;
            let goals = model
                .goals
                .iter()
                .zip(model.goal_chances(s.state))
                .map(|(g, c)| (g.clone(), c.p, c.pmin, c.pmax))
                .collect();
            let all = f.recording.automaton_states();
            let ends_false = (0..model.predictions.len())
                .map(|k| {
                    let at = model
                        .ends_false(k, s.state, all, &mut f.automata)
                        .map(|c| (c.p, c.pmin, c.pmax));
                    let name = model.predictions.get(k).map(|p| p.property.clone());
                    (name.unwrap_or_default(), at)
                })
                .collect();
            let name = model
                .states
                .get(s.state)
                .map_or_else(String::new, |st| st.name.clone());
            (name, s.log_likelihood, s.anomalous, goals, ends_false)
        })))
    }

    /// The run ended: its log-likelihood (`end` included) and whether it is
    /// anomalous.
    fn finish(&self) -> (f64, bool) {
        self.cell.with_dependent(|_, f| f.tracker.finish())
    }

    /// Back to before the first step.
    fn reset(&mut self) {
        self.cell.with_dependent_mut(|_, f| {
            f.recording.reset();
            f.tracker.reset();
        });
        let mut fresh = self.decoder.fresh_state();
        self.decoder.swap_state(&mut fresh);
    }
}
