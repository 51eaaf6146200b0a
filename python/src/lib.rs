//! `hindsight._native`: the compiler, the monitor engines and the trace
//! decoder behind the `hindsight` Python package (its Python half,
//! `hindsight/__init__.py`, gives them their Pythonic shape).
//!
//! A thin shell: specs are checked and lowered by `hindsight-compiler`,
//! blocks selected and monitor schemas built as the CLI does
//! (`hindsight-cli`), steps decoded by the CLI's own trace decoder
//! (`hindsight-trace`: a Python dict goes in as the JSON object it is, with
//! the same field mapping, defaults and errors as a log line), and run as
//! machine code (`hindsight-jit`) or, for what that does not cover, by the
//! interpreter.

use hindsight_cli::compile::{blocks, select, Block};
use hindsight_cli::schema::{population_schema, system_schema, trace_schema};
use hindsight_cli::why::{ExplainLines, PopulationLines};
use hindsight_compiler::analysis::partitions::safe_partitions;
use hindsight_compiler::compile::{check_source, lower_checked, Checked};
use hindsight_compiler::interp::explain::Explainer;
use hindsight_compiler::interp::system::{LayoutCodec, LifelineMonitor, SystemInterpreter};
use hindsight_compiler::interp::{Interpreter, PopulationInterpreter};
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::ir::{PopulationTables, SystemTables};
use hindsight_compiler::types::EnumDef;
use hindsight_compiler::types::Ty;
use hindsight_compiler::Compiled;
use hindsight_grammar::diag::{line_column, render, Diag, LabelStyle, Severity};
use hindsight_jit::JitMonitor;
use hindsight_runtime::stamp::StampKey;
use hindsight_runtime::{ResetCounts, StepMonitor, Value, Verdict};
use hindsight_trace::audit::{expand, Findings, Message, Sources, Tally, TraceRun, TraceSource};
use hindsight_trace::output::{total_line, Output};
use hindsight_trace::population::check_population_source;
use hindsight_trace::population::{PopulationDecoder, PopulationStep, PopulationStepper};
use hindsight_trace::read::{variant_index, LineDecoder, LineError, ReadState};
use hindsight_trace::run::{Format, EXIT_VIOLATION};
use hindsight_trace::system::check_system_source;
use hindsight_trace::{check_monitor_source, RunOptions, Silent};
use hindsight_trace::{Decode, InputType};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

mod learned;
mod protocol;
use protocol::NativeProtocol;

create_exception!(
    _native,
    SpecRejected,
    PyValueError,
    "A spec (or the block asked for) has errors: args are the rendered diagnostics and a list of (severity, code, message, line, column)."
);
create_exception!(
    _native,
    InputError,
    PyValueError,
    "A step's inputs cannot be read (a missing input, a value of the wrong type, ...)."
);

/// What an audit gives Python: the summary lines, the messages, the total
/// line, the block's properties, whether a trace gave the exit status of
/// a violation (a property's or a protocol's `false`), and the places of
/// the spec no line of any trace matched.
type AuditLines = (
    Vec<String>,
    Vec<String>,
    String,
    Vec<String>,
    bool,
    Vec<String>,
);

/// One diagnostic as Python sees it: severity, code, message, and the
/// 1-based line and column of its primary label (0, 0 without one).
type DiagTuple = (String, String, String, usize, usize);

/// `diags` as tuples, placed in `source`.
fn diag_tuples(source: &str, diags: &[Diag]) -> Vec<DiagTuple> {
    diags
        .iter()
        .map(|d| {
            let severity = match d.severity {
                Severity::Bug | Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "note",
                Severity::Help => "help",
            };
            let start = d
                .labels
                .iter()
                .find(|l| l.style == LabelStyle::Primary)
                .or(d.labels.first())
                .map(|l| l.range.start);
            let (line, column) = start.map_or((0, 0), |at| line_column(source, at));
            (
                severity.to_string(),
                d.code.clone().unwrap_or_default(),
                d.message.clone(),
                line,
                column,
            )
        })
        .collect()
}

/// The error a rejected spec raises.
fn rejected(name: &str, source: &str, diags: &[Diag]) -> PyErr {
    SpecRejected::new_err((render(name, source, diags), diag_tuples(source, diags)))
}

/// A checked spec: its blocks are lowered when a monitor is asked for.
#[pyclass(module = "hindsight._native", frozen)]
struct NativeSpec {
    /// The name diagnostics show for the file.
    name: String,
    source: String,
    checked: Checked,
    /// Each block lowered so far, by name: a spec audits many sessions
    /// (Spark) and makes many monitors, each lowering its block once.
    lowered: Mutex<HashMap<String, Compiled>>,
}

#[pymethods]
impl NativeSpec {
    /// Checks `source` (shown as `name` in diagnostics); raises
    /// `SpecRejected` if it has errors.
    #[new]
    fn new(source: String, name: String) -> PyResult<Self> {
        let checked = check_source(&source).map_err(|diags| rejected(&name, &source, &diags))?;
        Ok(NativeSpec {
            name,
            source,
            checked,
            lowered: Mutex::new(HashMap::new()),
        })
    }

    /// The checker's warnings, rendered, and as tuples.
    fn warnings(&self) -> (String, Vec<DiagTuple>) {
        let diags = &self.checked.warnings;
        (
            render(&self.name, &self.source, diags),
            diag_tuples(&self.source, diags),
        )
    }

    /// The runnable blocks: (kind, name), monitors, then systems, then
    /// populations, each in declaration order.
    fn blocks(&self) -> Vec<(&'static str, String)> {
        blocks(&self.checked.spec)
            .into_iter()
            .map(|(kind, name, _)| (kind, name.to_string()))
            .collect()
    }

    /// The monitor block `name` (or the only block), lowered and ready to
    /// step; raises `ValueError` naming the blocks there are, or
    /// `SpecRejected` if lowering it fails.
    #[pyo3(signature = (name=None, explain=false))]
    fn monitor(&self, name: Option<&str>, explain: bool) -> PyResult<NativeMonitor> {
        let program = self.lower(name, Kind::Monitor)?.program;
        let table = program.monitors.into_iter().next();
        table
            .map(|table| NativeMonitor::new(table, explain))
            .ok_or_else(|| PyValueError::new_err("the monitor block was not lowered"))
    }

    /// Learns a model of the runs in `traces` (files, directories,
    /// patterns; sessions with `key`; OpenTelemetry exports with `otlp`) of
    /// the monitor block `block` (or the only block), with the input
    /// `action` as the action, as `hindsight learn` does.
    #[pyo3(signature = (traces, action, block=None, key=None, max_sessions=100_000, otlp=false, min_gain=0.01, max_depth=8, max_leaves=32, z=2.326, checkpoint_every=10, precision=1e-6, refinements=0))]
    #[allow(clippy::too_many_arguments)]
    fn learn(
        &self,
        traces: Vec<PathBuf>,
        action: &str,
        block: Option<&str>,
        key: Option<String>,
        max_sessions: usize,
        otlp: bool,
        min_gain: f64,
        max_depth: usize,
        max_leaves: usize,
        z: f64,
        checkpoint_every: u64,
        precision: f64,
        refinements: usize,
    ) -> PyResult<learned::NativeModel> {
        let bad = |what: &str| Err(PyValueError::new_err(what.to_string()));
        let nonnegative = |x: f64| x.is_finite() && x >= 0.0;
        if !nonnegative(min_gain) || !nonnegative(z) {
            return bad("min_gain and z are finite numbers at least 0");
        }
        if !(precision > 0.0 && precision < 1.0) || max_leaves == 0 || checkpoint_every == 0 {
            return bad("precision is in (0, 1); max_leaves and checkpoint_every are at least 1");
        }
        let table = self.learnable(block)?;
        let mut options = RunOptions::new(PathBuf::new());
        options.traces = traces;
        options.key = key;
        options.max_sessions = max_sessions;
        options.output = Output::Summary;
        options.format = if otlp { Format::Otlp } else { Format::Jsonl };
        let learning = hindsight_learn::Options {
            growth: hindsight_learn::tree::Growth {
                min_gain,
                max_depth: max_depth.min(64),
                max_leaves: max_leaves.min(4096),
            },
            z,
            every: checkpoint_every,
            precision,
            refinements: refinements.min(1000),
            ..hindsight_learn::Options::default()
        };
        learned::learn_model(&table, action, &options, learning)
    }

    /// A run of the monitor block `block` (or the only block) followed
    /// with `model`, which must have been learned for it.
    #[pyo3(signature = (model, block=None))]
    fn follow(
        &self,
        model: &learned::NativeModel,
        block: Option<&str>,
    ) -> PyResult<learned::NativeModelRun> {
        let table = self.learnable(block)?;
        learned::NativeModelRun::new(table, model.model.clone())
    }

    /// Audits block `block` (or the only block; of any kind) over `traces`
    /// (files, directories of `.jsonl` files, glob patterns; OpenTelemetry
    /// exports with `otlp`) as `hindsight check --summary` does: the
    /// summary line of each trace (or session, with `key`), with the
    /// explanation of each property's first violation; the messages the
    /// CLI would print on stderr; the total line; the block's properties
    /// (none for a system); whether a trace had a violation; and the places
    /// of the spec no line of any trace matched.
    #[pyo3(signature = (traces, block=None, key=None, max_sessions=100_000, otlp=false))]
    fn audit(
        &self,
        traces: Vec<PathBuf>,
        block: Option<&str>,
        key: Option<String>,
        max_sessions: usize,
        otlp: bool,
    ) -> PyResult<AuditLines> {
        let sources = expand(&traces).map_err(PyValueError::new_err)?;
        let format = if otlp { Format::Otlp } else { Format::Jsonl };
        self.audit_sources(&sources, None, block, (key, max_sessions), format)
    }

    /// [`audit`](Self::audit) of one log held in memory, `records` (its
    /// lines: a string as the text it is, any other value written as JSON
    /// as `NativeMonitor::step` writes events), named `name` in messages.
    #[pyo3(signature = (records, default, name, block=None, key=None, max_sessions=100_000))]
    fn audit_records(
        &self,
        records: Vec<Bound<'_, PyAny>>,
        default: &Bound<'_, PyAny>,
        name: String,
        block: Option<&str>,
        key: Option<String>,
        max_sessions: usize,
    ) -> PyResult<AuditLines> {
        let mut text = String::new();
        for record in &records {
            match record.cast::<PyString>() {
                Ok(line) => {
                    let line = line.to_cow()?;
                    if line.contains('\n') {
                        return Err(InputError::new_err("a log line holds a newline"));
                    }
                    text.push_str(&line);
                }
                Err(_) => json::write(record, &mut text, default)?,
            }
            text.push('\n');
        }
        let sources = Sources {
            traces: vec![TraceSource {
                path: PathBuf::from(&name),
                name,
            }],
            named: false,
            warnings: Vec::new(),
        };
        self.audit_sources(
            &sources,
            Some(text),
            block,
            (key, max_sessions),
            Format::Jsonl,
        )
    }

    /// The monitor of lifeline `lifeline` of the system block `system` (or
    /// the only block), in its initial state; its stamps sealed and opened
    /// with the 32-byte `key` when given.
    #[pyo3(signature = (lifeline, system=None, key=None))]
    fn lifeline(
        &self,
        lifeline: &str,
        system: Option<&str>,
        key: Option<Vec<u8>>,
    ) -> PyResult<NativeLifeline> {
        let key = key
            .map(|k| {
                <[u8; 32]>::try_from(k.as_slice())
                    .map(|secret| StampKey::new(&secret))
                    .map_err(|_| PyValueError::new_err("a stamp key is 32 bytes"))
            })
            .transpose()?;
        let program = self.lower(system, Kind::System)?.program;
        let Some(tables) = program.systems.into_iter().next() else {
            return Err(PyValueError::new_err("the system block was not lowered"));
        };
        let Some(me) = tables.lifelines.iter().position(|l| l.name == lifeline) else {
            let names: Vec<String> = tables
                .lifelines
                .iter()
                .map(|l| format!("`{}`", l.name))
                .collect();
            return Err(PyValueError::new_err(format!(
                "system `{}` has no lifeline `{lifeline}` (its lifelines: {})",
                tables.name,
                names.join(", ")
            )));
        };
        let parts = LifelineCell::try_new(tables, |tables| {
            let monitor = LifelineMonitor::new(tables, me)
                .ok_or_else(|| PyValueError::new_err("the lifeline was not lowered"))?;
            Ok::<_, PyErr>(LifelineParts {
                monitor,
                codec: LayoutCodec::new(&tables.layout),
            })
        })?;
        Ok(NativeLifeline {
            cell: parts,
            enums: program.enums,
            key,
        })
    }

    /// The population block `name` (or the only block), as
    /// [`monitor`](Self::monitor) gives monitor blocks.
    #[pyo3(signature = (name=None))]
    fn population(&self, name: Option<&str>) -> PyResult<NativePopulation> {
        let program = self.lower(name, Kind::Population)?.program;
        let tables = program.populations.into_iter().next();
        tables
            .map(|tables| NativePopulation::new(tables, &program.enums))
            .ok_or_else(|| PyValueError::new_err("the population block was not lowered"))
    }

    /// The monitor of protocol `protocol` (or the only one) of the system
    /// block `system` (or the only block): central, or of the group of
    /// lifelines `group`.
    #[pyo3(signature = (protocol=None, system=None, group=None))]
    fn protocol(
        &self,
        protocol: Option<&str>,
        system: Option<&str>,
        group: Option<Vec<String>>,
    ) -> PyResult<NativeProtocol> {
        let tables = self.system_tables(system)?;
        let k = chosen_protocol(&tables, protocol)?;
        let lifelines = tables.lifelines.iter().map(|l| l.name.clone()).collect();
        let table = tables
            .protocols
            .into_iter()
            .nth(k)
            .ok_or_else(|| PyValueError::new_err("the protocol was not lowered"))?;
        NativeProtocol::new(table, lifelines, group)
    }

    /// The minimal monitoring-safe partitions of the lifelines of system
    /// `system` (or the only block) for protocol `protocol` (or the only
    /// one), as `hindsight partitions` prints them: groups of lifeline
    /// names, sorted. Raises `SpecRejected` past the search's bounds.
    #[pyo3(signature = (protocol=None, system=None))]
    fn partitions(
        &self,
        protocol: Option<&str>,
        system: Option<&str>,
    ) -> PyResult<Vec<Vec<Vec<String>>>> {
        let tables = self.system_tables(system)?;
        let k = chosen_protocol(&tables, protocol)?;
        let checked = self
            .checked
            .spec
            .systems
            .iter()
            .find(|s| s.name == tables.name)
            .ok_or_else(|| PyValueError::new_err("the system block was not checked"))?;
        let names: Vec<String> = tables.lifelines.iter().map(|l| l.name.clone()).collect();
        let found = safe_partitions(checked, k, &tables.protocols[k], &names)
            .map_err(|d| rejected(&self.name, &self.source, &[d]))?;
        Ok(found
            .into_iter()
            .map(|p| {
                p.groups
                    .iter()
                    .map(|g| g.iter().map(|&l| names[l].clone()).collect())
                    .collect()
            })
            .collect())
    }
}

/// The index of protocol `name` (or the only one) of `tables`, or
/// `ValueError` naming the protocols there are.
fn chosen_protocol(tables: &SystemTables, name: Option<&str>) -> PyResult<usize> {
    let known = || {
        let names: Vec<String> = tables
            .protocols
            .iter()
            .map(|p| format!("`{}`", p.name))
            .collect();
        if names.is_empty() {
            format!("system `{}` declares no protocol", tables.name)
        } else {
            format!(
                "the protocols of system `{}`: {}",
                tables.name,
                names.join(", ")
            )
        }
    };
    match name {
        Some(name) => tables
            .protocols
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| PyValueError::new_err(format!("no protocol `{name}` ({})", known()))),
        None if tables.protocols.len() == 1 => Ok(0),
        None => Err(PyValueError::new_err(format!(
            "name the protocol ({})",
            known()
        ))),
    }
}

/// The kinds of block the package runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Monitor,
    Population,
    System,
}

impl NativeSpec {
    /// The audit of `sources` (or of `text`, the one source's lines held in
    /// memory) with block `block` of any kind, as `hindsight check
    /// --summary` runs it: see [`NativeSpec::audit`].
    fn audit_sources(
        &self,
        sources: &Sources,
        text: Option<String>,
        block: Option<&str>,
        (key, max_sessions): (Option<String>, usize),
        format: Format,
    ) -> PyResult<AuditLines> {
        let (kind, name, compiled) = self.lower_any(block)?;
        let kind_name = match kind {
            Kind::Monitor => "monitor",
            Kind::Population => "population",
            Kind::System => "system",
        };
        if kind != Kind::Monitor && key.is_some() {
            return Err(PyValueError::new_err(format!(
                "`{name}` is a {kind_name} block; key splits the sessions of monitor traces \
                 only (give each session of a {kind_name} its own file)"
            )));
        }
        if kind == Kind::Population && format == Format::Otlp {
            return Err(PyValueError::new_err(format!(
                "`{name}` is a population block: it reads population traces; format=\"otlp\" \
                 feeds monitor and system blocks"
            )));
        }
        let mut options = RunOptions::new(PathBuf::new());
        // For the exit status a violation gives a trace (vacuity is
        // Python's to judge, from the counts).
        options.fail_on_violation = true;
        options.allow_vacuous = true;
        options.key = key;
        options.max_sessions = max_sessions;
        options.output = Output::Summary;
        options.format = format;
        let options = &options;
        let program = &compiled.program;
        let not_lowered = || PyValueError::new_err(format!("`{name}` was not lowered"));
        let text = text.map(String::into_bytes);
        Ok(match kind {
            Kind::Monitor => {
                let table = program.monitors.first().ok_or_else(not_lowered)?;
                let schema = trace_schema(table);
                let properties = schema.properties().names().to_vec();
                let monitor = Interpreter::new(table);
                let observer = ExplainLines::new(table);
                audit_each(sources, text, properties, |run, text| {
                    check_monitor_source(&schema, &monitor, &observer, options, run, text)
                })
            }
            Kind::System => {
                let system = program.systems.first().ok_or_else(not_lowered)?;
                let schema = system_schema(system, &program.enums);
                let monitors = SystemInterpreter::new(system, None);
                audit_each(sources, text, Vec::new(), |run, text| {
                    check_system_source(&schema, &monitors, &Silent, options, run, text)
                })
            }
            Kind::Population => {
                let tables = program.populations.first().ok_or_else(not_lowered)?;
                let schema = population_schema(tables, &program.enums);
                let properties = schema.properties().names().to_vec();
                let monitor = PopulationInterpreter::new(tables).with_witnesses();
                let observer = PopulationLines::new(tables, &self.source);
                audit_each(sources, text, properties, |run, text| {
                    check_population_source(&schema, &monitor, &observer, options, run, text)
                })
            }
        })
    }

    /// The tables of system block `name` (or the only block), lowered.
    fn system_tables(&self, name: Option<&str>) -> PyResult<SystemTables> {
        let program = self.lower(name, Kind::System)?.program;
        program
            .systems
            .into_iter()
            .next()
            .ok_or_else(|| PyValueError::new_err("the system block was not lowered"))
    }

    /// Selects block `name` (or the only block), which must be of kind
    /// `want`, and lowers it alone.
    fn lower(&self, name: Option<&str>, want: Kind) -> PyResult<Compiled> {
        let (kind, found, compiled) = self.lower_any(name)?;
        if kind != want {
            let instead = match kind {
                Kind::Monitor => "a monitor block: use Spec.monitor",
                Kind::Population => "a population block: use Spec.population",
                Kind::System => "a system block: use Spec.lifeline or Spec.protocol",
            };
            return Err(PyValueError::new_err(format!("`{found}` is {instead}")));
        }
        Ok(compiled)
    }

    /// Selects block `name` (or the only block) of any kind and lowers it
    /// alone; its kind and name with it.
    /// Monitor block `name` (or the only block) lowered with its lets, as
    /// learned models read it.
    fn learnable(&self, name: Option<&str>) -> PyResult<Table> {
        let spec = &self.checked.spec;
        let block = select(spec, name, || hindsight_grammar::parse(&self.source).ok())
            .map_err(PyValueError::new_err)?;
        let Block::Monitor(k) = block else {
            return Err(PyValueError::new_err(
                "models are learned for monitor blocks; name one with block=",
            ));
        };
        hindsight_compiler::compile::lower_for_learning(spec, k)
            .map_err(|diags| rejected(&self.name, &self.source, &diags))
    }

    fn lower_any(&self, name: Option<&str>) -> PyResult<(Kind, String, Compiled)> {
        let source = &self.source;
        let spec = &self.checked.spec;
        let block = select(spec, name, || hindsight_grammar::parse(source).ok())
            .map_err(PyValueError::new_err)?;
        let (kind, found) = match block {
            Block::Monitor(k) => (Kind::Monitor, &spec.monitors[k].name),
            Block::System(k) => (Kind::System, &spec.systems[k].name),
            Block::Population(k) => (Kind::Population, &spec.populations[k].name),
        };
        let mut lowered = self.lowered.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(compiled) = lowered.get(found.as_str()) {
            return Ok((kind, found.clone(), compiled.clone()));
        }
        let mut checked = self.checked.clone();
        checked.retain_block(found);
        let compiled =
            lower_checked(checked, source).map_err(|diags| rejected(&self.name, source, &diags))?;
        lowered.insert(found.clone(), compiled.clone());
        Ok((kind, found.clone(), compiled))
    }
}

/// Runs `check` over each of `sources` (the first given `text`, its lines
/// held in memory, when there is one), keeping the summary lines, the
/// messages and the total line of `properties`, whether a trace had a
/// violation, and the places no trace matched (see [`AuditLines`]).
fn audit_each(
    sources: &Sources,
    mut text: Option<Vec<u8>>,
    properties: Vec<String>,
    mut check: impl FnMut(&mut TraceRun<'_>, Option<Vec<u8>>) -> Tally,
) -> AuditLines {
    let mut total = Tally {
        violated: vec![0; properties.len()],
        ..Tally::default()
    };
    let mut lines = Vec::new();
    let mut messages = sources.warnings.clone();
    let mut findings = Findings::new();
    let mut violation = false;
    for source in &sources.traces {
        let mut out = Vec::new();
        let mut run = TraceRun {
            source,
            named: sources.named,
            lines: &mut out,
            messages: Vec::new(),
            progress: None,
            otlp: None,
            read_ahead: false,
        };
        let tally = check(&mut run, text.take());
        violation |= tally.status == EXIT_VIOLATION;
        total.add(&tally);
        for message in run.messages {
            match message {
                Message::Line(line) => messages.push(line),
                Message::Covered { trace, coverage } => findings.add(&trace, &coverage),
            }
        }
        lines.extend(String::from_utf8_lossy(&out).lines().map(str::to_string));
    }
    messages.extend(findings.close(sources.traces.len(), &mut total));
    let unmatched = findings
        .unmatched_everywhere()
        .map(|u| u.place.clone())
        .collect();
    let total = total_line(&total, sources.traces.len(), &properties);
    let total = total.trim_end().to_string();
    (lines, messages, total, properties, violation, unmatched)
}

/// The interpreter of a table and, when explanations are asked for, the
/// explainer following it (as `hindsight check --explain` runs them).
#[derive(Clone)]
struct Interp<'t> {
    monitor: Interpreter<'t>,
    explainer: Option<Explainer<'t>>,
    /// Steps taken.
    steps: u64,
}

impl Interp<'_> {
    /// One step; the explanations of the verdicts it changed (none without
    /// an explainer): (property, why).
    fn step(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) -> Vec<(usize, String)> {
        self.monitor.step_values(inputs, verdicts);
        let step = self.steps;
        self.steps += 1;
        self.explainer.as_mut().map_or_else(Vec::new, |explainer| {
            explainer
                .step(&self.monitor, step, verdicts)
                .into_iter()
                .map(|e| (e.output, e.why))
                .collect()
        })
    }
}

self_cell::self_cell!(
    /// A table and the interpreter running it.
    struct Interpreted {
        owner: Table,
        #[covariant]
        dependent: Interp,
    }
);

/// A monitor block's engine: machine code, or the interpreter for what
/// machine code does not cover (duration-bounded past operators) and for
/// explanations.
enum Engine {
    MachineCode(JitMonitor),
    Interpreter(Interpreted),
}

impl Engine {
    /// The engine of `table`: machine code if it covers the table and no
    /// explanations are asked for, else the interpreter (with an explainer
    /// if `explain`).
    fn new(table: Table, explain: bool) -> Engine {
        if !explain {
            if let Ok(jit) = JitMonitor::new(&table) {
                return Engine::MachineCode(jit);
            }
        }
        Engine::Interpreter(Interpreted::new(table, |t| Interp {
            monitor: Interpreter::new(t),
            explainer: explain.then(|| Explainer::new(t)),
            steps: 0,
        }))
    }

    fn table(&self) -> &Table {
        match self {
            Engine::MachineCode(jit) => jit.table(),
            Engine::Interpreter(i) => i.borrow_owner(),
        }
    }

    /// The verdicts (and explanations) a step on `inputs` would give, on a
    /// copy of the state: machine code copies its state into `copy`, reused
    /// from peek to peek.
    fn peek(
        &self,
        inputs: &[Value],
        verdicts: &mut [Verdict],
        copy: &mut Option<JitMonitor>,
    ) -> Vec<(usize, String)> {
        match self {
            Engine::MachineCode(jit) => {
                let copy = copy.get_or_insert_with(|| jit.clone());
                copy.clone_from(jit);
                copy.step_values(inputs, verdicts);
                Vec::new()
            }
            Engine::Interpreter(i) => i.borrow_dependent().clone().step(inputs, verdicts),
        }
    }

    /// One step; the explanations of the verdicts it changed (if asked for).
    fn step(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) -> Vec<(usize, String)> {
        match self {
            Engine::MachineCode(jit) => {
                jit.step_values(inputs, verdicts);
                Vec::new()
            }
            Engine::Interpreter(i) => i.with_dependent_mut(|_, m| m.step(inputs, verdicts)),
        }
    }

    /// `steps` steps at once, their inputs and their verdicts each as rows
    /// one after the other (as [`StepMonitor::step_rows`]: machine code loops
    /// over them in one call); the explanations of the verdicts the last
    /// step changed (if asked for).
    fn step_rows(
        &mut self,
        steps: usize,
        inputs: &[Value],
        verdicts: &mut [Verdict],
    ) -> Vec<(usize, String)> {
        match self {
            Engine::MachineCode(jit) => {
                jit.step_rows(steps, inputs, verdicts);
                Vec::new()
            }
            Engine::Interpreter(i) => i.with_dependent_mut(|_, m| {
                let mut explained = Vec::new();
                hindsight_runtime::for_each_row(steps, inputs, verdicts, |row, out| {
                    explained = m.step(row, out);
                });
                explained
            }),
        }
    }

    fn finish(&self, verdicts: &mut [Verdict]) {
        match self {
            Engine::MachineCode(jit) => jit.finish_values(verdicts),
            Engine::Interpreter(i) => i.borrow_dependent().monitor.finish_values(verdicts),
        }
    }

    fn counts(&self, counts: &mut [ResetCounts]) {
        match self {
            Engine::MachineCode(jit) => jit.finish_counts(counts),
            Engine::Interpreter(i) => i.borrow_dependent().monitor.finish_counts(counts),
        }
    }

    fn reset(&mut self) {
        match self {
            Engine::MachineCode(jit) => StepMonitor::reset(jit),
            Engine::Interpreter(i) => i.with_dependent_mut(|table, m| {
                StepMonitor::reset(&mut m.monitor);
                if m.explainer.is_some() {
                    m.explainer = Some(Explainer::new(table));
                }
                m.steps = 0;
            }),
        }
    }
}

/// How many rows `step_columns` hands its engine at once: the rows and their
/// verdicts of a few inputs and properties stay in the cache.
const STEPS_AT_ONCE: usize = 4096;

/// A monitor block in its current state, fed steps as JSON objects.
#[pyclass(module = "hindsight._native")]
struct NativeMonitor {
    engine: Engine,
    decoder: LineDecoder,
    /// The inputs a line is decoded into (reused from step to step).
    inputs: Vec<Value>,
    /// The last step's verdicts (reused).
    verdicts: Vec<Verdict>,
    /// The event being stepped, as JSON (reused).
    line: String,
    /// What `step` answers with: the property names and the Python
    /// objects of the three verdicts (true, false, unknown), once given.
    answers: Option<Answers>,
    /// The explanations of the verdicts the last step changed, if asked
    /// for: (property, why).
    explained: Vec<(usize, String)>,
    /// What `peek` works in, reused so a peek allocates nothing.
    peeking: Peeking,
}

/// The scratch of `peek`: the event's JSON, its inputs, the verdicts, the
/// decoder's state to put back, a copy of the machine code's state.
#[derive(Default)]
struct Peeking {
    line: String,
    inputs: Vec<Value>,
    verdicts: Vec<Verdict>,
    state: ReadState,
    machine: Option<JitMonitor>,
}

/// What `peek` answers: the verdicts, and the explanations (property, why)
/// the step would give.
type Peeked<'py> = (Bound<'py, PyDict>, Vec<(String, String)>);

/// The property names and the Python objects of the verdicts true, false
/// and unknown, which `answer` builds its dicts from.
type Answers = (Vec<Py<PyString>>, [Py<PyAny>; 3]);

impl NativeMonitor {
    fn new(table: Table, explain: bool) -> NativeMonitor {
        let decoder = LineDecoder::new(trace_schema(&table));
        let properties = table.outputs.len();
        NativeMonitor {
            engine: Engine::new(table, explain),
            decoder,
            inputs: Vec::new(),
            verdicts: vec![Verdict::Unknown; properties],
            line: String::new(),
            answers: None,
            explained: Vec::new(),
            peeking: Peeking::default(),
        }
    }
}

impl NativeMonitor {
    /// [`peek`](Self::peek) in the scratch `p`: the decoder's state is put
    /// back after the line is decoded, the engine stepped on a copy.
    fn peek_in<'py>(
        &mut self,
        py: Python<'py>,
        event: &Bound<'py, PyAny>,
        default: &Bound<'py, PyAny>,
        p: &mut Peeking,
    ) -> PyResult<Option<Peeked<'py>>> {
        p.line.clear();
        json::write(event, &mut p.line, default)?;
        self.decoder.save_state(&mut p.state);
        let decoded = self.decoder.decode(&p.line, &mut p.inputs);
        self.decoder.restore_state(&p.state);
        if !decoded.map_err(refused_line)? {
            return Ok(None);
        }
        p.verdicts.clone_from(&self.verdicts);
        let explained = self.engine.peek(&p.inputs, &mut p.verdicts, &mut p.machine);
        Ok(Some((self.answer(py, &p.verdicts)?, self.named(explained))))
    }

    /// `verdicts` (one per property) as a dict of property name to verdict
    /// object (see [`answer_with`](Self::answer_with)).
    fn answer<'py>(&self, py: Python<'py>, verdicts: &[Verdict]) -> PyResult<Bound<'py, PyDict>> {
        let Some((names, objects)) = &self.answers else {
            return Err(PyValueError::new_err("answer_with was not called"));
        };
        let dict = PyDict::new(py);
        for (name, verdict) in names.iter().zip(verdicts) {
            let object = match verdict {
                Verdict::True => &objects[0],
                Verdict::False => &objects[1],
                Verdict::Unknown => &objects[2],
            };
            dict.set_item(name.bind(py), object.bind(py))?;
        }
        Ok(dict)
    }

    /// Explanations (output, why) with the outputs named.
    fn named(&self, explained: Vec<(usize, String)>) -> Vec<(String, String)> {
        let outputs = &self.engine.table().outputs;
        explained
            .into_iter()
            .map(|(k, why)| (outputs[k].name.clone(), why))
            .collect()
    }
}

/// An event or line a decoder refuses, as Python sees it.
fn refused_line<K: std::fmt::Display>(e: LineError<K>) -> PyErr {
    refused(e.kind)
}

/// Reset counts as Python sees them: (satisfactions, violations).
fn pairs(counts: &[ResetCounts]) -> Vec<(u64, u64)> {
    counts
        .iter()
        .map(|c| (c.satisfactions, c.violations))
        .collect()
}

/// How a verdict is spelled across the boundary (and by the CLI).
fn spelled(verdicts: &[Verdict]) -> Vec<&'static str> {
    verdicts.iter().map(|v| v.as_str()).collect()
}

#[pymethods]
impl NativeMonitor {
    /// The block's name.
    #[getter]
    fn name(&self) -> String {
        self.engine.table().name.clone()
    }

    /// The properties, in declaration order.
    #[getter]
    fn properties(&self) -> Vec<String> {
        self.engine
            .table()
            .outputs
            .iter()
            .map(|o| o.name.clone())
            .collect()
    }

    /// The inputs: (name, type), in declaration order.
    #[getter]
    fn inputs(&self) -> Vec<(String, String)> {
        self.decoder
            .schema()
            .inputs()
            .iter()
            .map(|i| {
                let ty = match &i.ty {
                    InputType::Bool => "bool".to_string(),
                    InputType::Int => "int".to_string(),
                    InputType::Float => "float".to_string(),
                    InputType::Time => "time".to_string(),
                    InputType::Enum { name, .. } => name.clone(),
                };
                (i.name.clone(), ty)
            })
            .collect()
    }

    /// `"machine code"` or `"interpreter"`.
    #[getter]
    fn engine(&self) -> &'static str {
        match self.engine {
            Engine::MachineCode(_) => "machine code",
            Engine::Interpreter(_) => "interpreter",
        }
    }

    /// Sets the objects [`step`](Self::step) answers with: the
    /// verdicts true, false and unknown.
    fn answer_with(
        &mut self,
        py: Python<'_>,
        true_: Py<PyAny>,
        false_: Py<PyAny>,
        unknown: Py<PyAny>,
    ) {
        let names = self
            .engine
            .table()
            .outputs
            .iter()
            .map(|o| PyString::intern(py, &o.name).unbind())
            .collect();
        self.answers = Some((names, [true_, false_, unknown]));
    }

    /// Steps on `event`, a Python mapping shaped like a log line (written
    /// as JSON here, values JSON has no form for converted by `default`,
    /// then read as a line of the block's log); a dict of each property's
    /// verdict object (see [`answer_with`](Self::answer_with)), or `None`
    /// when the block's step filter skips the event. Raises `InputError`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        event: &Bound<'py, PyAny>,
        default: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let stepped =
            json::write(event, &mut line, default).and_then(|()| self.step_line(py, &line));
        self.line = line;
        stepped
    }

    /// [`step`](Self::step) on a line of the block's log, as text.
    fn step_line<'py>(
        &mut self,
        py: Python<'py>,
        line: &str,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        if !self
            .decoder
            .decode(line, &mut self.inputs)
            .map_err(refused_line)?
        {
            return Ok(None);
        }
        self.explained = self.engine.step(&self.inputs, &mut self.verdicts);
        self.answer(py, &self.verdicts).map(Some)
    }

    /// Steps once per row of `columns` (one per input, in declaration
    /// order, all of one length): each a list of bools, ints, floats or
    /// variant names, or a NumPy array's data as (dtype kind, item size,
    /// bytes in native order). Per property, the list of its verdicts, each
    /// one of `answers` (the `Verdict` members for true, false, unknown).
    /// Raises `InputError` (no step taken) for a value of the wrong type or
    /// an unknown variant.
    fn step_columns<'py>(
        &mut self,
        py: Python<'py>,
        columns: Vec<Bound<'py, PyAny>>,
        answers: [Bound<'py, PyAny>; 3],
    ) -> PyResult<Vec<Bound<'py, PyList>>> {
        let schema = self.decoder.schema();
        if columns.len() != schema.inputs().len() {
            return Err(InputError::new_err(format!(
                "{} columns for {} inputs",
                columns.len(),
                schema.inputs().len()
            )));
        }
        let mut read = Vec::with_capacity(columns.len());
        for (column, input) in columns.iter().zip(schema.inputs()) {
            let values = read_column(column, &input.ty)
                .map_err(|e| InputError::new_err(format!("column `{}`: {e}", input.name)))?;
            read.push(values);
        }
        let steps = read.first().map_or(0, Column::len);
        if let Some((column, input)) = read
            .iter()
            .zip(schema.inputs())
            .find(|(c, _)| c.len() != steps)
        {
            return Err(InputError::new_err(format!(
                "column `{}` has {} values, the first has {steps}",
                input.name,
                column.len()
            )));
        }
        // (`vec![v; n]` would clone `v` without its capacity.)
        let mut out: Vec<Vec<&Bound<'py, PyAny>>> = (0..self.verdicts.len())
            .map(|_| Vec::with_capacity(steps))
            .collect();
        // The columns turned into rows a batch at a time, stepped at once.
        let (width, properties) = (read.len(), self.verdicts.len());
        let batch = STEPS_AT_ONCE.min(steps);
        let mut rows = Vec::with_capacity(batch * width);
        let mut verdicts = vec![Verdict::Unknown; batch * properties];
        for first in (0..steps).step_by(STEPS_AT_ONCE) {
            let taken = STEPS_AT_ONCE.min(steps - first);
            rows.resize(taken * width, Value::Bool(false));
            for (at, column) in read.iter().enumerate() {
                column.write(first, taken, &mut rows, width, at);
            }
            let verdicts = &mut verdicts[..taken * properties];
            self.explained = self.engine.step_rows(taken, &rows, verdicts);
            for row in 0..taken {
                let row = &verdicts[row * properties..(row + 1) * properties];
                for (list, verdict) in out.iter_mut().zip(row) {
                    list.push(match verdict {
                        Verdict::True => &answers[0],
                        Verdict::False => &answers[1],
                        Verdict::Unknown => &answers[2],
                    });
                }
            }
            // The last step's verdicts, as after a `step`.
            self.verdicts
                .copy_from_slice(&verdicts[(taken - 1) * properties..]);
        }
        out.into_iter().map(|v| PyList::new(py, v)).collect()
    }

    /// The explanations of the verdicts the last step changed (with
    /// `explain`): (property, why), as `hindsight check --explain` words
    /// them.
    fn explanations(&self) -> Vec<(String, String)> {
        self.named(self.explained.clone())
    }

    /// What `step(event, default)` would return, leaving the monitor as it
    /// is; with the explanations that step would give. On machine code it
    /// allocates nothing once its buffers have their size.
    fn peek<'py>(
        &mut self,
        py: Python<'py>,
        event: &Bound<'py, PyAny>,
        default: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Peeked<'py>>> {
        let mut p = std::mem::take(&mut self.peeking);
        let peeked = self.peek_in(py, event, default, &mut p);
        self.peeking = p;
        peeked
    }

    /// The finite-trace verdicts: the trace ends after the last step.
    fn finish<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut verdicts = self.verdicts.clone();
        self.engine.finish(&mut verdicts);
        self.answer(py, &verdicts)
    }

    /// Per property: (satisfactions, violations) a `with reset` property
    /// counted, its unfinished run's end verdict included ((0, 0) for
    /// others).
    fn counts(&self) -> Vec<(u64, u64)> {
        let mut counts = vec![ResetCounts::default(); self.verdicts.len()];
        self.engine.counts(&mut counts);
        pairs(&counts)
    }

    /// Back to the state before the first step (held inputs forgotten).
    fn reset(&mut self) {
        self.engine.reset();
        let mut fresh = self.decoder.fresh_state();
        self.decoder.swap_state(&mut fresh);
        self.verdicts.fill(Verdict::Unknown);
    }
}

self_cell::self_cell!(
    /// Population tables and the interpreter running them.
    struct PopulationEngine {
        owner: PopulationTables,
        #[covariant]
        dependent: PopulationInterpreter,
    }
);

/// A population block in its current state, fed steps as JSON objects of
/// `agents` and `globals` (the population trace form).
#[pyclass(module = "hindsight._native")]
struct NativePopulation {
    engine: PopulationEngine,
    decoder: PopulationDecoder,
    /// The last step, decoded (reused).
    step: PopulationStep,
    /// The last step's verdicts.
    verdicts: Vec<Verdict>,
}

impl NativePopulation {
    fn new(tables: PopulationTables, enums: &[EnumDef]) -> NativePopulation {
        let schema = population_schema(&tables, enums);
        let verdicts = vec![Verdict::Unknown; schema.properties().len()];
        NativePopulation {
            engine: PopulationEngine::new(tables, |t| PopulationInterpreter::new(t)),
            decoder: PopulationDecoder::new(schema),
            step: PopulationStep::default(),
            verdicts,
        }
    }
}

#[pymethods]
impl NativePopulation {
    /// The block's name.
    #[getter]
    fn name(&self) -> String {
        self.engine.borrow_owner().name.clone()
    }

    /// The properties, in declaration order.
    #[getter]
    fn properties(&self) -> Vec<String> {
        self.decoder.schema().properties().names().to_vec()
    }

    /// The most agents a step may have.
    #[getter]
    fn capacity(&self) -> usize {
        self.engine.borrow_owner().capacity
    }

    /// Steps on `step`, a population trace line as Python values
    /// (`{"agents": [...], "globals": {...}}`, written as JSON as
    /// `NativeMonitor::step` writes events); the verdicts. Raises
    /// `InputError`.
    fn step(
        &mut self,
        step: &Bound<'_, PyAny>,
        default: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<&'static str>> {
        let mut line = String::new();
        json::write(step, &mut line, default)?;
        self.decoder
            .decode(&line, &mut self.step)
            .map_err(refused_line)?;
        let step = &self.step;
        let verdicts = self
            .engine
            .with_dependent_mut(|_, m| {
                m.step(step.agents(), step.attributes(), step.globals())
                    .map(<[Verdict]>::to_vec)
            })
            .map_err(refused)?;
        self.verdicts = verdicts;
        Ok(spelled(&self.verdicts))
    }

    /// What `step(step, default)` would return, leaving the population as
    /// it is.
    fn peek(
        &self,
        step: &Bound<'_, PyAny>,
        default: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<&'static str>> {
        let mut line = String::new();
        json::write(step, &mut line, default)?;
        let mut decoder = self.decoder.clone();
        let mut step = PopulationStep::default();
        decoder.decode(&line, &mut step).map_err(refused_line)?;
        let mut copy = self.engine.borrow_dependent().clone();
        let verdicts = copy
            .step(step.agents(), step.attributes(), step.globals())
            .map_err(refused)?;
        Ok(spelled(verdicts))
    }

    /// The finite-trace verdicts: the trace ends after the last step.
    fn finish(&self) -> Vec<&'static str> {
        let mut verdicts = self.verdicts.clone();
        PopulationStepper::finish(self.engine.borrow_dependent(), &mut verdicts);
        spelled(&verdicts)
    }

    /// Per property: (satisfactions, violations) of a `with reset` property.
    fn counts(&self) -> Vec<(u64, u64)> {
        let mut counts = vec![ResetCounts::default(); self.verdicts.len()];
        PopulationStepper::counts(self.engine.borrow_dependent(), &mut counts);
        pairs(&counts)
    }

    /// Back to the state before the first step.
    fn reset(&mut self) {
        self.engine
            .with_dependent_mut(|_, m| PopulationStepper::reset(m));
        self.decoder = PopulationDecoder::new(self.decoder.schema().clone());
        self.verdicts.fill(Verdict::Unknown);
    }
}

mod json;

/// A lifeline's monitor and the codec of its system's stamps.
struct LifelineParts<'t> {
    monitor: LifelineMonitor<'t>,
    codec: LayoutCodec<'t>,
}

self_cell::self_cell!(
    /// A system's tables and one lifeline's monitor of them.
    struct LifelineCell {
        owner: SystemTables,
        #[covariant]
        dependent: LifelineParts,
    }
);

/// One lifeline of a system block (Causal Past Logic): its events, the
/// stamps its messages carry, its guards.
#[pyclass(module = "hindsight._native")]
struct NativeLifeline {
    cell: LifelineCell,
    /// The spec's enums (variables of enum type index them).
    enums: Vec<EnumDef>,
    /// Seals and opens stamps, when the system's stamps are authenticated.
    key: Option<StampKey>,
}

/// A lifeline's refusal of an event, as Python sees it.
fn refused(e: impl std::fmt::Display) -> PyErr {
    InputError::new_err(e.to_string())
}

impl NativeLifeline {
    /// `changes` (variable name → value) as the monitor takes them.
    fn changes(&self, changes: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(usize, Value)>> {
        let Some(changes) = changes else {
            return Ok(Vec::new());
        };
        let lifeline = self.cell.borrow_dependent().monitor.lifeline();
        let vars = &self.cell.borrow_owner().lifelines[lifeline].vars;
        let mut out = Vec::with_capacity(changes.len());
        for (key, value) in changes.iter() {
            let name: String = key.extract()?;
            let Some(var) = vars.iter().position(|d| d.name == name) else {
                return Err(InputError::new_err(format!(
                    "lifeline `{}` has no variable `{name}`",
                    self.cell.borrow_owner().lifelines[lifeline].name
                )));
            };
            let ty = vars[var].ty;
            let wrong = || InputError::new_err(format!("variable `{name}` is {ty:?}, not {value}"));
            let value = match ty {
                Ty::Bool if value.is_instance_of::<PyBool>() => Value::Bool(value.extract()?),
                Ty::Int if !value.is_instance_of::<PyBool>() => {
                    Value::Int(value.extract().map_err(|_| wrong())?)
                }
                Ty::Float if !value.is_instance_of::<PyBool>() => {
                    Value::Float(value.extract().map_err(|_| wrong())?)
                }
                Ty::Enum(e) => {
                    let given: String = value.extract().map_err(|_| wrong())?;
                    let def = self.enums.get(e).ok_or_else(wrong)?;
                    Value::Enum(variant_index(&def.name, &def.variants, &given).ok_or_else(wrong)?)
                }
                _ => return Err(wrong()),
            };
            out.push((var, value));
        }
        Ok(out)
    }
}

#[pymethods]
impl NativeLifeline {
    /// The lifeline's name.
    #[getter]
    fn name(&self) -> String {
        let me = self.cell.borrow_dependent().monitor.lifeline();
        self.cell.borrow_owner().lifelines[me].name.clone()
    }

    /// The guards it owns, in order.
    #[getter]
    fn guard_names(&self) -> Vec<String> {
        let system = self.cell.borrow_owner();
        self.cell
            .borrow_dependent()
            .monitor
            .owned_guards()
            .iter()
            .map(|g| system.guards[g.index()].name.clone())
            .collect()
    }

    /// A local action changing `changes`.
    #[pyo3(signature = (changes=None))]
    fn on_act(&mut self, changes: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let changes = self.changes(changes)?;
        self.cell
            .with_dependent_mut(|_, p| p.monitor.on_act(&changes))
            .map_err(refused)
    }

    /// A send event (changing `changes`); the stamp its message carries,
    /// as bytes (sealed with the key, if any).
    #[pyo3(signature = (changes=None))]
    fn on_send<'py>(
        &mut self,
        py: Python<'py>,
        changes: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let changes = self.changes(changes)?;
        let key = self.key.as_ref();
        let bytes = self.cell.with_dependent_mut(|_, p| {
            let stamp = p.monitor.on_send(&changes).map_err(refused)?;
            p.codec.to_bytes(&stamp, key).map_err(refused)
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A receive event of a message carrying `stamp` (changing `changes`).
    #[pyo3(signature = (stamp, changes=None))]
    fn on_recv(&mut self, stamp: &[u8], changes: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        let changes = self.changes(changes)?;
        let key = self.key.as_ref();
        self.cell.with_dependent_mut(|_, p| {
            let stamp = p.codec.from_bytes(stamp, key).map_err(refused)?;
            p.monitor.on_recv(&stamp, &changes).map_err(refused)
        })
    }

    /// A choice (changing `changes`): the owned guards' verdicts at it.
    #[pyo3(signature = (changes=None))]
    fn on_choice(&mut self, changes: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<&'static str>> {
        let changes = self.changes(changes)?;
        self.cell
            .with_dependent_mut(|_, p| p.monitor.on_choice(&changes).map(spelled))
            .map_err(refused)
    }

    /// The owned guards' verdicts after the last event.
    fn guards(&self) -> Vec<&'static str> {
        spelled(self.cell.borrow_dependent().monitor.guards())
    }
}

/// The native module.
/// The Rust side's allocator: `System`, counting allocations per thread.
#[global_allocator]
static GLOBAL: hindsight_alloc_count::Counting = hindsight_alloc_count::Counting;

/// How many allocations the Rust side made on this thread so far: a test
/// steps a monitor and checks the count does not move.
#[pyfunction]
fn rust_allocations() -> usize {
    hindsight_alloc_count::allocations()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rust_allocations, m)?)?;
    m.add_class::<NativeSpec>()?;
    m.add_class::<NativeMonitor>()?;
    m.add_class::<NativePopulation>()?;
    m.add_class::<NativeLifeline>()?;
    m.add_class::<NativeProtocol>()?;
    m.add_class::<learned::NativeModel>()?;
    m.add_class::<learned::NativeModelRun>()?;
    m.add("SpecRejected", m.py().get_type::<SpecRejected>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    Ok(())
}

/// One column of `step_columns`, checked whole before any step is taken.
enum Column<'py> {
    /// The values of a list of Python values.
    Values(Vec<Value>),
    /// A NumPy array's items, read into values a batch of rows at a time (a
    /// column of a million bools is not a million 16-byte values at once).
    Raw(RawColumn<'py>),
}

impl Column<'_> {
    /// Its number of rows.
    fn len(&self) -> usize {
        match self {
            Column::Values(values) => values.len(),
            Column::Raw(raw) => raw.data.as_bytes().len() / raw.size,
        }
    }

    /// Writes its rows `first..first + taken` into `rows` (rows of `width`
    /// values one after the other), as the value at `at` of each row.
    fn write(&self, first: usize, taken: usize, rows: &mut [Value], width: usize, at: usize) {
        let slots = rows.iter_mut().skip(at).step_by(width);
        match self {
            Column::Values(values) => {
                for (slot, &value) in slots.zip(&values[first..first + taken]) {
                    *slot = value;
                }
            }
            Column::Raw(raw) => {
                let items = &raw.data.as_bytes()[first * raw.size..(first + taken) * raw.size];
                for (slot, item) in slots.zip(items.chunks_exact(raw.size)) {
                    *slot = raw.value(item);
                }
            }
        }
    }
}

/// One column of `step_columns` for an input of type `ty`: a list of
/// Python values, or a NumPy array's data as (dtype kind, item size, bytes
/// in native order), read without a Python object per value.
fn read_column<'py>(column: &Bound<'py, PyAny>, ty: &InputType) -> Result<Column<'py>, String> {
    if let Ok(raw) = column.cast::<PyTuple>() {
        let (kind, size, data): (char, usize, Bound<'py, PyBytes>) =
            raw.extract().map_err(|e: PyErr| e.to_string())?;
        return raw_column(kind, size, data, ty).map(Column::Raw);
    }
    if matches!(ty, InputType::Time) {
        return Err(
            "it is the steps' time: step_columns takes bool, int, float and enum \
                    inputs (use step for timed monitors)"
                .to_string(),
        );
    }
    let text = |e: PyErr| e.to_string();
    // One allocation for the column, none per value (an enum's variant is
    // matched on the string's UTF-8 in place).
    let mut values = Vec::with_capacity(column.len().unwrap_or(0));
    for item in column.try_iter().map_err(text)? {
        let item = item.map_err(text)?;
        values.push(match ty {
            InputType::Bool => Value::Bool(item.extract().map_err(text)?),
            InputType::Int => Value::Int(item.extract().map_err(text)?),
            InputType::Float => Value::Float(item.extract().map_err(text)?),
            InputType::Enum { name, variants } => {
                let given = item.cast::<PyString>().map_err(|e| text(e.into()))?;
                let given = json::utf8(given).map_err(text)?;
                let given = given.as_str().map_err(text)?;
                let index = variant_index(name, variants, given)
                    .ok_or_else(|| format!("`{given}` is no variant of {name}"))?;
                Value::Enum(index)
            }
            InputType::Time => return Err("the steps' time".to_string()),
        });
    }
    Ok(Column::Values(values))
}

/// A NumPy array's `data`, checked to give an input its values: items of
/// `size` bytes in native order of dtype kind `kind` (`b` bool, `i` signed,
/// `u` unsigned, `f` float).
struct RawColumn<'py> {
    data: Bound<'py, PyBytes>,
    kind: char,
    size: usize,
    input: RawInput,
}

/// The type of input a [`RawColumn`]'s items are read as.
#[derive(Clone, Copy, PartialEq)]
enum RawInput {
    Bool,
    Int,
    Float,
}

/// A number a NumPy item holds.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Unsigned(u64),
    Float(f64),
}

/// Item `bytes` as a number, when `kind` and its size make one.
fn number(kind: char, bytes: &[u8]) -> Option<Number> {
    Some(match (kind, bytes.len()) {
        ('i', 1) => Number::Int(i64::from(i8::from_ne_bytes(bytes.try_into().ok()?))),
        ('i', 2) => Number::Int(i64::from(i16::from_ne_bytes(bytes.try_into().ok()?))),
        ('i', 4) => Number::Int(i64::from(i32::from_ne_bytes(bytes.try_into().ok()?))),
        ('i', 8) => Number::Int(i64::from_ne_bytes(bytes.try_into().ok()?)),
        ('u', 1) => Number::Int(i64::from(u8::from_ne_bytes(bytes.try_into().ok()?))),
        ('u', 2) => Number::Int(i64::from(u16::from_ne_bytes(bytes.try_into().ok()?))),
        ('u', 4) => Number::Int(i64::from(u32::from_ne_bytes(bytes.try_into().ok()?))),
        ('u', 8) => Number::Unsigned(u64::from_ne_bytes(bytes.try_into().ok()?)),
        ('f', 4) => Number::Float(f64::from(f32::from_ne_bytes(bytes.try_into().ok()?))),
        ('f', 8) => Number::Float(f64::from_ne_bytes(bytes.try_into().ok()?)),
        _ => return None,
    })
}

/// Checks that `data` gives an input of type `ty` its values: bools for
/// bool inputs, integers (each within 64-bit signed) for int inputs, any
/// number for float inputs.
fn raw_column<'py>(
    kind: char,
    size: usize,
    data: Bound<'py, PyBytes>,
    ty: &InputType,
) -> Result<RawColumn<'py>, String> {
    let bytes = data.as_bytes();
    if size == 0 || !bytes.len().is_multiple_of(size) {
        return Err(format!(
            "{} bytes are no whole number of {size}-byte items",
            bytes.len()
        ));
    }
    let numeric = size <= 8 && number(kind, &[0; 8][..size]).is_some();
    let input = match ty {
        InputType::Bool if kind == 'b' && size == 1 => RawInput::Bool,
        InputType::Int if matches!(kind, 'i' | 'u') && numeric => RawInput::Int,
        InputType::Float if numeric => RawInput::Float,
        _ => {
            let input = match ty {
                InputType::Bool => "a bool",
                InputType::Int => "an int",
                InputType::Float => "a float",
                _ => "an enum or time",
            };
            return Err(format!(
                "a NumPy array of dtype kind '{kind}' with {size}-byte items cannot give {input} input"
            ));
        }
    };
    if input == RawInput::Int {
        for item in bytes.chunks_exact(size) {
            if let Some(Number::Unsigned(n)) = number(kind, item) {
                if i64::try_from(n).is_err() {
                    return Err(format!("{n} does not fit an int input (64-bit signed)"));
                }
            }
        }
    }
    Ok(RawColumn {
        data,
        kind,
        size,
        input,
    })
}

impl RawColumn<'_> {
    /// The value of one item (checked by [`raw_column`], so every item
    /// makes one).
    fn value(&self, item: &[u8]) -> Value {
        match (self.input, number(self.kind, item)) {
            (RawInput::Bool, _) => Value::Bool(item != [0]),
            (RawInput::Int, Some(Number::Int(n))) => Value::Int(n),
            (RawInput::Int, Some(Number::Unsigned(n))) => Value::Int(n as i64),
            (RawInput::Float, Some(Number::Int(n))) => Value::Float(n as f64),
            (RawInput::Float, Some(Number::Unsigned(n))) => Value::Float(n as f64),
            (RawInput::Float, Some(Number::Float(x))) => Value::Float(x),
            // Refused by raw_column: no float item for an int input, no
            // item of a size that makes no number.
            (RawInput::Int, _) | (RawInput::Float, None) => Value::Int(0),
        }
    }
}
