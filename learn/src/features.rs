//! The concrete state of a monitored run after each step, as learning sees
//! it: the block's inputs (but its time), the values of its past-time
//! properties, its past-time `let`s and its goals; and the action, one
//! declared input.
//!
//! [`Recording`] runs the compiler's interpreter and keeps the step's
//! inputs; [`Collector`], an [`Observer`] of the trace reader, turns each
//! step into a row of feature values and each trace (or session) into a
//! [`Run`]. Every log feature of `hindsight check` (field mappings, step
//! filters, sessions by key, OpenTelemetry exports) applies unchanged.

use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::{Automaton, Combination, SlotId, Source, Table};
use hindsight_compiler::types::Ty;
use hindsight_runtime::{ResetCounts, StepMonitor, Value, Verdict};
use hindsight_trace::Observer;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where a feature's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureKind {
    /// A declared input.
    Input,
    /// A past-time property's value.
    Property,
    /// A past-time `let`.
    Let,
    /// A goal.
    Goal,
    /// An atom of a future-time property's automaton (a past-time
    /// sub-formula), which the tree decides so that predictions can follow
    /// the automaton.
    Atom,
}

/// A feature's type, as predicates over it are drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureType {
    /// `bool`: the predicate `x`.
    Bool,
    /// `int`: thresholds `x > θ`.
    Int,
    /// `float`: thresholds `x > θ`.
    Float,
    /// An enum: equalities `x == V`, one per variant.
    Enum {
        /// The enum's name.
        name: String,
        /// Its variants in declaration order.
        variants: Vec<String>,
    },
}

/// One coordinate of the concrete state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feature {
    /// Its name in the spec.
    pub name: String,
    /// Where it comes from.
    pub kind: FeatureKind,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: FeatureType,
}

/// Where a feature is read after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// Input `i` of the step.
    Input(usize),
    /// A slot of the table.
    Slot(SlotId),
}

/// The features of one monitor block and the action input.
#[derive(Clone, Debug)]
pub struct Features {
    /// The features, in order: inputs, properties, lets, goals.
    pub list: Vec<Feature>,
    reads: Vec<Read>,
    /// The index of the action input among the block's inputs.
    pub action_input: usize,
    /// The action's names, by code (enum variants, `false`/`true`; ints
    /// are named by their decimal text, coded in order of appearance).
    pub action_type: ActionType,
    /// The feature index of each goal, in declaration order.
    pub goals: Vec<usize>,
    /// The feature index of each atom the predicted properties read.
    pub atoms: Vec<usize>,
    /// The future-time properties a model predicts.
    pub predictable: Vec<Predictable>,
}

/// A future-time property a model predicts: the automata its verdict
/// combines (as the compiler built them), each with the feature index of
/// each of its atoms.
#[derive(Clone, Debug)]
pub struct Predictable {
    /// The property's name.
    pub name: String,
    /// How its automata's verdicts combine (parts: indices in `Table::automata`).
    pub combination: Combination,
    /// Its automata: index in `Table::automata`, the automaton, and per
    /// atom the feature that holds its value.
    pub automata: Vec<(usize, Automaton, Vec<usize>)>,
}

/// How the action input's values become action codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionType {
    /// A `bool` input: `false` is 0, `true` is 1.
    Bool,
    /// An enum input: its variants' indices.
    Enum(Vec<String>),
    /// An `int` input: codes given in order of appearance.
    Int,
}

impl Features {
    /// The features of `table` (lowered with its `let`s), with the input
    /// named `action` as the action. Errors name what is wrong.
    pub fn of(table: &Table, action: &str) -> Result<Self, String> {
        let Some(action_input) = table.inputs.iter().position(|i| i.name == action) else {
            let names: Vec<&str> = table.inputs.iter().map(|i| i.name.as_str()).collect();
            return Err(format!(
                "monitor `{}` has no input `{action}` to take as the action (its inputs: {})",
                table.name,
                names.join(", ")
            ));
        };
        let time = table.reading.time;
        let action_type = match table.inputs.get(action_input).map(|i| i.ty) {
            Some(Ty::Bool) => ActionType::Bool,
            Some(Ty::Int) if time != Some(action_input) => ActionType::Int,
            Some(Ty::Enum(e)) => ActionType::Enum(
                table
                    .enums
                    .get(e)
                    .map(|e| e.variants.clone())
                    .unwrap_or_default(),
            ),
            _ => {
                return Err(format!(
                    "the action `{action}` must be an enum, bool or int input (a tool's name: \
                     an enum)"
                ))
            }
        };
        let ty = |t: Ty| -> FeatureType {
            match t {
                Ty::Bool => FeatureType::Bool,
                Ty::Int => FeatureType::Int,
                Ty::Float => FeatureType::Float,
                Ty::Enum(e) => {
                    let def = table.enums.get(e);
                    FeatureType::Enum {
                        name: def.map(|d| d.name.clone()).unwrap_or_default(),
                        variants: def.map(|d| d.variants.clone()).unwrap_or_default(),
                    }
                }
            }
        };
        let mut list = Vec::new();
        let mut reads = Vec::new();
        for (i, input) in table.inputs.iter().enumerate() {
            if Some(i) == time {
                continue;
            }
            list.push(Feature {
                name: input.name.clone(),
                kind: FeatureKind::Input,
                ty: ty(input.ty),
            });
            reads.push(Read::Input(i));
        }
        for output in &table.outputs {
            if let Source::Slot(slot) = output.source {
                list.push(Feature {
                    name: output.name.clone(),
                    kind: FeatureKind::Property,
                    ty: FeatureType::Bool,
                });
                reads.push(Read::Slot(slot));
            }
        }
        for named in &table.lets {
            list.push(Feature {
                name: named.name.clone(),
                kind: FeatureKind::Let,
                ty: ty(named.ty),
            });
            reads.push(Read::Slot(named.slot));
        }
        let mut goals = Vec::new();
        for named in &table.goals {
            goals.push(list.len());
            list.push(Feature {
                name: named.name.clone(),
                kind: FeatureKind::Goal,
                ty: FeatureType::Bool,
            });
            reads.push(Read::Slot(named.slot));
        }
        let mut atoms = Vec::new();
        let mut predictable = Vec::new();
        for output in table.outputs.iter().filter(|o| !o.reset) {
            let Source::Future(f) = output.source else {
                continue;
            };
            let Some(future) = table.futures.get(f.index()) else {
                continue;
            };
            let mut automata = Vec::new();
            for id in &future.automata {
                let Some(automaton) = table.automata.get(id.index()) else {
                    continue;
                };
                let mut indices = Vec::new();
                for &slot in &automaton.atoms {
                    let at = match reads.iter().position(|r| *r == Read::Slot(slot)) {
                        Some(at) => at,
                        None => {
                            let text = output
                                .parts
                                .iter()
                                .find(|p| p.slot == slot)
                                .map_or_else(|| format!("s{}", slot.index()), |p| p.text.clone());
                            list.push(Feature {
                                name: text,
                                kind: FeatureKind::Atom,
                                ty: FeatureType::Bool,
                            });
                            reads.push(Read::Slot(slot));
                            list.len() - 1
                        }
                    };
                    if !atoms.contains(&at) && !goals.contains(&at) {
                        atoms.push(at);
                    }
                    indices.push(at);
                }
                automata.push((id.index(), automaton.clone(), indices));
            }
            predictable.push(Predictable {
                name: output.name.clone(),
                combination: future.combination.clone(),
                automata,
            });
        }
        Ok(Features {
            list,
            reads,
            action_input,
            action_type,
            goals,
            atoms,
            predictable,
        })
    }

    /// The features of `table` as `model` reads them: its action, and the
    /// same features by name, kind and type, for the same block; else why
    /// not.
    pub fn for_model(table: &Table, model: &crate::Model) -> Result<Self, String> {
        let features = Features::of(table, &model.action)?;
        if features.list != model.features || table.name != model.block {
            return Err(format!(
                "the model was learned for monitor `{}` with other features; learn it again \
                 from this spec (`hindsight learn`)",
                model.block
            ));
        }
        Ok(features)
    }

    /// Writes the feature values after the last step of `recording` into
    /// `out` (one per feature; reused, so nothing is allocated once it has
    /// grown).
    pub fn read(&self, recording: &Recording<'_>, out: &mut Vec<f64>) {
        out.clear();
        let slots = recording.monitor.slot_values();
        out.extend(self.reads.iter().map(|read| {
            let value = match *read {
                Read::Input(i) => recording.inputs.get(i).copied(),
                Read::Slot(s) => slots.get(s.index()).copied(),
            };
            value.map_or(0.0, number)
        }));
    }

    /// The action value of the last step of `recording`.
    pub fn action(&self, recording: &Recording<'_>) -> Value {
        recording
            .inputs
            .get(self.action_input)
            .copied()
            .unwrap_or(Value::Bool(false))
    }
}

/// A value as a number: `false`/`true` as 0/1, an enum as its variant's index.
pub fn number(value: Value) -> f64 {
    match value {
        Value::Bool(b) => f64::from(u8::from(b)),
        Value::Int(i) => i as f64,
        Value::Float(x) => x,
        Value::Enum(v) => f64::from(v),
    }
}

/// The interpreter, keeping the inputs of the last step.
#[derive(Clone, Debug)]
pub struct Recording<'t> {
    monitor: Interpreter<'t>,
    inputs: Vec<Value>,
}

impl<'t> Recording<'t> {
    /// The state of every automaton after the last step, in
    /// `Table::automata` order.
    pub fn automaton_states(&self) -> &[u32] {
        self.monitor.automaton_states()
    }

    /// The interpreter of `table`.
    pub fn new(table: &'t Table) -> Self {
        Recording {
            monitor: Interpreter::new(table),
            inputs: Vec::with_capacity(table.inputs.len()),
        }
    }
}

impl StepMonitor for Recording<'_> {
    fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
        self.inputs.clear();
        self.inputs.extend_from_slice(inputs);
        self.monitor.step_values(inputs, verdicts);
    }

    fn finish_values(&self, verdicts: &mut [Verdict]) {
        self.monitor.finish_values(verdicts);
    }

    fn finish_counts(&self, counts: &mut [ResetCounts]) {
        self.monitor.finish_counts(counts);
    }

    fn reset(&mut self) {
        self.inputs.clear();
        self.monitor.reset();
    }
}

/// One run (a trace, or a session of a keyed log): per step the action's
/// value and the feature values after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Run {
    /// The action of each step.
    pub actions: Vec<Value>,
    /// The feature values after each step, `features` per step, row after row.
    pub values: Vec<f64>,
}

impl Run {
    /// Its number of steps.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether it has no step.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The feature values after step `j` (0-based), `width` of them.
    pub fn row(&self, j: usize, width: usize) -> &[f64] {
        self.values
            .get(j * width..(j + 1) * width)
            .unwrap_or_default()
    }
}

/// Collects the runs a check reads: a copy per trace (or session) records
/// its steps and, when it ends, adds its run to the shared list.
#[derive(Clone, Debug)]
pub struct Collector<'f> {
    features: &'f Features,
    runs: Arc<Mutex<Vec<Run>>>,
    /// Steps recorded by every copy, and the most allowed.
    steps: Arc<AtomicU64>,
    max_steps: u64,
    current: Run,
    row: Vec<f64>,
}

/// The most steps [`Collector::new`] records: 10^7 (with 8 features, 640 MB
/// of values); [`Collector::with_max_steps`] changes it.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

impl<'f> Collector<'f> {
    /// A collector of runs described by `features`, at most
    /// [`DEFAULT_MAX_STEPS`] steps.
    pub fn new(features: &'f Features) -> Self {
        Collector {
            features,
            runs: Arc::default(),
            steps: Arc::default(),
            max_steps: DEFAULT_MAX_STEPS,
            current: Run::default(),
            row: Vec::new(),
        }
    }

    /// The collector, recording at most `max` steps in all.
    pub fn with_max_steps(mut self, max: u64) -> Self {
        self.max_steps = max;
        self
    }

    /// Whether more steps came than it may record (then the runs are
    /// incomplete and [`collect`] refuses them).
    pub fn overflowed(&self) -> bool {
        self.steps.load(Ordering::Relaxed) > self.max_steps
    }

    /// The runs collected so far, in the order they ended.
    pub fn take_runs(&self) -> Vec<Run> {
        self.runs
            .lock()
            .map(|mut runs| std::mem::take(&mut *runs))
            .unwrap_or_default()
    }
}

impl Observer<Recording<'_>> for Collector<'_> {
    fn after_step(
        &mut self,
        monitor: &Recording<'_>,
        _step: u64,
        _verdicts: &[Verdict],
        _out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.steps.fetch_add(1, Ordering::Relaxed) >= self.max_steps {
            return Ok(());
        }
        self.features.read(monitor, &mut self.row);
        self.current.values.extend_from_slice(&self.row);
        self.current.actions.push(self.features.action(monitor));
        Ok(())
    }

    fn after_end(
        &mut self,
        _monitor: &Recording<'_>,
        _verdicts: &[Verdict],
        _out: &mut dyn Write,
    ) -> io::Result<()> {
        let run = std::mem::take(&mut self.current);
        if let Ok(mut runs) = self.runs.lock() {
            runs.push(run);
        }
        Ok(())
    }
}

/// The runs of the traces `options` names (files, directories, patterns;
/// sessions with `options.key`; OpenTelemetry exports with its format), read
/// against `schema` by copies of `recording` and recorded by `collector`,
/// one trace after another so the runs come in a fixed order. Returns the
/// runs and the warnings, or every error (a trace that cannot be read is
/// not learned from in part).
pub fn collect(
    schema: &hindsight_trace::TraceSchema,
    recording: &Recording<'_>,
    collector: &Collector<'_>,
    options: &hindsight_trace::RunOptions,
) -> Result<(Vec<Run>, Vec<String>), Vec<String>> {
    use hindsight_trace::audit::{expand, Findings, Message, Tally, TraceRun};
    let sources = expand(&options.traces).map_err(|e| vec![e])?;
    let mut warnings = sources.warnings.clone();
    let mut errors = Vec::new();
    let mut findings = Findings::new();
    for source in &sources.traces {
        let mut sink = io::sink();
        let mut run = TraceRun {
            source,
            named: sources.named,
            lines: &mut sink,
            messages: Vec::new(),
            progress: None,
            otlp: None,
            read_ahead: false,
        };
        let tally = hindsight_trace::check_monitor_source(
            schema, recording, collector, options, &mut run, None,
        );
        for message in run.messages {
            match message {
                Message::Line(line) if line.starts_with("warning") => warnings.push(line),
                Message::Line(line) => errors.push(line),
                Message::Covered { trace, coverage } => findings.add(&trace, &coverage),
            }
        }
        if tally.errors > 0 && errors.is_empty() {
            errors.push(format!("error: trace `{}` could not be read", source.name));
        }
    }
    warnings.extend(findings.close(sources.traces.len(), &mut Tally::default()));
    if collector.overflowed() {
        errors.push(format!(
            "error: the traces hold more than {} steps, the most `hindsight learn` keeps \
             (raise it with --max-steps)",
            collector.max_steps
        ));
    }
    if errors.is_empty() {
        Ok((collector.take_runs(), warnings))
    } else {
        Err(errors)
    }
}
