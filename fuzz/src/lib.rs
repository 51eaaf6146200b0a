//! Structured fuzzing of every input surface of Hindsight: spec text, the
//! three trace forms (monitor, system, population; monitor logs keyed by
//! session too), OpenTelemetry exports and stamp bytes.
//!
//! Each surface has a generator of inputs near the accepted shapes (valid
//! inputs from the test generators, adversarial families, mutations) and a
//! check of the promises every input must keep:
//!
//! - **no panic** (in the compiler, the readers, the interpreters, the codecs);
//! - **every refusal is a diagnostic**: a spec error has a code and a place in
//!   the spec, never "internal compiler error"; a trace error has its line
//!   (within the trace), a column within the line, and a message of bounded
//!   length; a stamp is refused with a `StampError`, and a stamp that decodes
//!   re-encodes to the same bytes, and no altered sealed stamp opens;
//! - **one answer**: a monitor trace checked by the table's machine code
//!   (`hindsight-jit`) prints the interpreter's bytes and stops at its error;
//! - **bounded work**: each input's time and peak memory (when the caller
//!   measures memory, see [`Measure`]) stay under [`Limits`].
//!
//! [`run`] drives one surface for a budget of inputs or of time; the
//! `hindsight-fuzz` binary runs it for hours, and the test suite for a few
//! seconds per surface.

pub mod gen;
pub mod rng;
mod vacuity;

use gen::{monitor_trace, population_trace, system_trace};
use hindsight_cli::schema::{population_schema, system_schema, trace_schema};
use hindsight_compiler::diag::Severity;
use hindsight_compiler::hir::{Ty, Value};
use hindsight_compiler::interp::system::SystemInterpreter;
use hindsight_compiler::interp::system::{LayoutCodec, LifelineMonitor};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_jit::JitMonitor;
use hindsight_runtime::stamp::{StampError, StampKey};
use hindsight_trace::population::PopulationReader;
use hindsight_trace::system::SystemReader;
use hindsight_trace::{CheckError, TraceReader};
use proptest::strategy::{Just, Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rng::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// An input surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Spec text, through the compiler and `explain`.
    Spec,
    /// Spec text, through the compiler and the code generator (formatted
    /// source, as `hindsight build` and the build API write it). Generated
    /// code grows with the spec (10 MB of Rust for a 200 KB spec of 5,000
    /// properties), so this surface is held to [`Limits::scaled`] limits.
    Codegen,
    /// Monitor traces, through the reader, the interpreter and the writer.
    MonitorTrace,
    /// System traces, through the reader, the lifeline monitors (stamps in
    /// memory or sealed bytes) and the writer.
    SystemTrace,
    /// Population traces, through the reader, the population interpreter and
    /// the writer.
    PopulationTrace,
    /// OpenTelemetry exports (OTLP/JSON), through the span reader, both
    /// views (records and system events) and the system's monitors.
    OtlpTrace,
    /// Stamp bytes, real stamps altered, through the decoder and the seal.
    Stamp,
    /// Learned model files, real ones (learned from generated runs) altered,
    /// through the reader, a run followed with each model that loads, and
    /// its explanation and PRISM export.
    Model,
    /// Log-record monitors over random logs: the places no line matched and
    /// the steps taken, as the trace reader reports them (what decides a
    /// vacuous run), held to an oracle reading the lines with serde_json.
    /// "Refused" counts the vacuous runs.
    Vacuity,
}

impl Surface {
    /// Every surface.
    pub const ALL: [Surface; 9] = [
        Surface::Spec,
        Surface::Codegen,
        Surface::MonitorTrace,
        Surface::SystemTrace,
        Surface::PopulationTrace,
        Surface::OtlpTrace,
        Surface::Stamp,
        Surface::Model,
        Surface::Vacuity,
    ];

    /// The surface's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Spec => "spec",
            Surface::Codegen => "codegen",
            Surface::MonitorTrace => "monitor-trace",
            Surface::SystemTrace => "system-trace",
            Surface::PopulationTrace => "population-trace",
            Surface::OtlpTrace => "otlp-trace",
            Surface::Stamp => "stamp",
            Surface::Model => "model",
            Surface::Vacuity => "vacuity",
        }
    }

    /// The surface called `name`.
    pub fn parse(name: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// When to stop.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// After this many inputs.
    pub inputs: Option<u64>,
    /// At this instant.
    pub until: Option<Instant>,
}

/// What one input may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest time for one input.
    pub time: Duration,
    /// Most bytes live at once while one input runs (when measured).
    pub memory: usize,
}

impl Limits {
    /// The limits of `surface`: code generation formats output that grows
    /// with the spec, and gets 5 times the time and 4 times the memory.
    pub fn scaled(self, surface: Surface) -> Limits {
        match surface {
            Surface::Codegen => Limits {
                time: self.time * 5,
                memory: self.memory.saturating_mul(4),
            },
            _ => self,
        }
    }
}

/// How the caller measures memory: `reset` starts a new peak, `peak` reads the
/// most bytes live since (a binary with a counting allocator; tests pass
/// [`Measure::NONE`]).
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    /// Starts a new peak.
    pub reset: fn(),
    /// The peak since the last reset.
    pub peak: fn() -> usize,
}

impl Measure {
    /// No measuring: peaks read 0.
    pub const NONE: Measure = Measure {
        reset: || {},
        peak: || 0,
    };
}

/// A broken promise, with the input that broke it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// What went wrong.
    pub what: String,
    /// The input, as text (for a trace: the spec, a blank line, the trace).
    pub input: String,
}

/// What a run over one surface found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The surface.
    pub surface: Surface,
    /// Inputs run.
    pub inputs: u64,
    /// Inputs refused with a diagnostic (a spec error, a trace error, a
    /// stamp error): the expected outcome of most fuzz inputs.
    pub refused: u64,
    /// Panics among the failures.
    pub panics: u64,
    /// Every broken promise.
    pub failures: Vec<Failure>,
    /// The slowest input and its time.
    pub slowest: Option<(Duration, String)>,
    /// The most bytes live while one input ran.
    pub peak_bytes: usize,
}

/// One input of a surface: the text to check (a spec, or a spec and a seed
/// for the trace or stamps shaped after it).
#[derive(Clone, Debug)]
struct Input {
    spec: String,
    seed: u64,
}

/// Runs `surface` from `seed` within `budget`; `measure` reads memory.
pub fn run(
    surface: Surface,
    seed: u64,
    budget: Budget,
    limits: Limits,
    measure: Measure,
) -> Report {
    let strategy = match surface {
        Surface::Spec | Surface::Codegen => gen::spec_text(),
        Surface::MonitorTrace => gen::monitor_spec(),
        Surface::SystemTrace | Surface::OtlpTrace | Surface::Stamp => gen::system_spec_source(),
        Surface::PopulationTrace => gen::population_spec(),
        Surface::Model => Just(MODEL_SPEC.to_string()).boxed(),
        Surface::Vacuity => Just(String::new()).boxed(),
    };
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let mut report = Report {
        surface,
        inputs: 0,
        refused: 0,
        panics: 0,
        failures: Vec::new(),
        slowest: None,
        peak_bytes: 0,
    };
    let mut shapes = Rng::new(seed ^ 0x5eed);
    let limits = limits.scaled(surface);
    loop {
        if budget.inputs.is_some_and(|n| report.inputs >= n)
            || budget.until.is_some_and(|t| Instant::now() >= t)
        {
            return report;
        }
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        let input = Input {
            spec: tree.current(),
            seed: shapes.next_u64(),
        };
        report.inputs += 1;
        (measure.reset)();
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| check(surface, &input)));
        let elapsed = start.elapsed();
        let peak = (measure.peak)();
        report.peak_bytes = report.peak_bytes.max(peak);
        let shown = || describe(surface, &input);
        match outcome {
            Ok(Ok(Outcome::Accepted)) => {}
            Ok(Ok(Outcome::Refused)) => report.refused += 1,
            Ok(Err(what)) => report.failures.push(Failure {
                what,
                input: shown(),
            }),
            Err(panic) => {
                report.panics += 1;
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                report.failures.push(Failure {
                    what: format!("panic: {message}"),
                    input: shown(),
                });
            }
        }
        if elapsed > limits.time {
            report.failures.push(Failure {
                what: format!("took {elapsed:?}, more than {:?}", limits.time),
                input: shown(),
            });
        }
        if peak > limits.memory {
            report.failures.push(Failure {
                what: format!("held {peak} bytes, more than {}", limits.memory),
                input: shown(),
            });
        }
        if report.slowest.as_ref().is_none_or(|(t, _)| elapsed > *t) {
            report.slowest = Some((elapsed, shown()));
        }
    }
}

/// The input as text, to save or show: the spec, and for the surfaces shaped
/// after it the generated trace (or the seed of the stamps).
fn describe(surface: Surface, input: &Input) -> String {
    match surface {
        Surface::Spec | Surface::Codegen => input.spec.clone(),
        Surface::Stamp => format!("{}\n// stamp seed {}\n", input.spec, input.seed),
        Surface::Model => format!("{}\n// model seed {}\n", input.spec, input.seed),
        Surface::Vacuity => {
            let case = vacuity::case(input.seed);
            format!("{}\n// log (seed {}):\n{}", case.spec, input.seed, case.log)
        }
        _ => match trace_of(surface, input) {
            Some(trace) => format!("{}\n// trace (seed {}):\n{trace}", input.spec, input.seed),
            None => input.spec.clone(),
        },
    }
}

/// How an input that kept every promise ended.
enum Outcome {
    Accepted,
    Refused,
}

/// The checks of one input; a broken promise is an `Err` naming it.
fn check(surface: Surface, input: &Input) -> Result<Outcome, String> {
    match surface {
        Surface::Spec => check_spec(&input.spec, false),
        Surface::Codegen => check_spec(&input.spec, true),
        Surface::Stamp => check_stamps(input),
        Surface::Model => check_models(input),
        Surface::Vacuity => match vacuity::check(input.seed)? {
            true => Ok(Outcome::Refused),
            false => Ok(Outcome::Accepted),
        },
        Surface::OtlpTrace => check_otlp(input),
        _ => check_trace(surface, input),
    }
}

/// The spec compiles, or is refused with coded diagnostics placed in it; a
/// compiled spec's `explain` report renders, and with `codegen` it generates
/// code (or is refused by the generator with coded diagnostics).
fn check_spec(spec: &str, codegen: bool) -> Result<Outcome, String> {
    if !codegen {
        check_names(spec)?;
    }
    match hindsight_compiler::compile(spec) {
        Ok(compiled) if codegen => match hindsight_codegen::generate_source(&compiled.program) {
            Err(diags) if diags.iter().any(|d| d.code.is_none()) => Err(format!(
                "a generator refusal without a code: {}",
                diags[0].message
            )),
            Err(_) => Ok(Outcome::Refused),
            Ok(_) => Ok(Outcome::Accepted),
        },
        Ok(compiled) => {
            let blocks: Vec<_> = (0..compiled.program.monitors.len())
                .map(hindsight_cli::compile::Block::Monitor)
                .chain(
                    (0..compiled.program.systems.len()).map(hindsight_cli::compile::Block::System),
                )
                .chain(
                    (0..compiled.program.populations.len())
                        .map(hindsight_cli::compile::Block::Population),
                )
                .collect();
            let _ = hindsight_cli::explain::render_blocks(
                "spec.hind",
                &compiled,
                spec,
                &blocks,
                Duration::ZERO,
            );
            Ok(Outcome::Accepted)
        }
        Err(diags) => {
            for d in &diags {
                if d.severity == Severity::Bug || d.message.contains("internal") {
                    return Err(format!("internal error: {}", d.message));
                }
                if d.severity >= Severity::Error && d.code.is_none() {
                    return Err(format!("a refusal without a code: {}", d.message));
                }
                if d.labels.iter().any(|l| l.range.end > spec.len()) {
                    return Err(format!("a label outside the spec: {}", d.message));
                }
            }
            if !diags.iter().any(|d| d.severity >= Severity::Error) {
                return Err("refused without an error".to_string());
            }
            let _ = hindsight_compiler::diag::render("spec.hind", spec, &diags);
            Ok(Outcome::Refused)
        }
    }
}

/// `hindsight fmt`: a spec that parses is formatted (keeping its tokens,
/// which `format` checks itself), and formatting the result changes nothing.
fn check_format(spec: &str) -> Result<(), String> {
    match hindsight_grammar::format(spec) {
        Ok(once) => match hindsight_grammar::format(&once) {
            Ok(twice) if twice == once => Ok(()),
            Ok(_) => Err("formatting twice changes the layout".into()),
            Err(_) => Err("the formatted spec does not parse".into()),
        },
        Err(diags) if diags.iter().any(|d| d.severity == Severity::Bug) => {
            Err(format!("format: {}", diags[0].message))
        }
        Err(_) if hindsight_grammar::parse(spec).is_ok() => {
            Err("a spec that parses is not formatted".into())
        }
        Err(_) => Ok(()),
    }
}

/// The language server's index of the spec (from whatever the parser
/// recovered): every declaration and use lies in the text, names what is
/// written there, and is found again at its own position.
fn check_names(spec: &str) -> Result<(), String> {
    check_format(spec)?;
    let (file, _) = hindsight_grammar::parse_recovering(spec);
    let Some(file) = file else {
        return Ok(());
    };
    let symbols = hindsight_compiler::symbols::Symbols::of(&file);
    let text = |span: hindsight_compiler::ast::Span| spec.get(span.range());
    for symbol in &symbols.symbols {
        if text(symbol.name_span) != Some(symbol.name.as_str()) {
            return Err(format!(
                "declaration `{}` is not where its span says",
                symbol.name
            ));
        }
    }
    for &(span, id) in &symbols.uses {
        let Some(symbol) = symbols.symbols.get(id) else {
            return Err("a use of no declaration".into());
        };
        if text(span) != Some(symbol.name.as_str()) {
            return Err(format!(
                "a use of `{}` is not where its span says",
                symbol.name
            ));
        }
        if symbols.at(span.start) != Some((id, span)) {
            return Err(format!(
                "a use of `{}` is not found at its start",
                symbol.name
            ));
        }
    }
    Ok(())
}

/// The trace a trace surface's input checks (`None` if its spec does not
/// compile to the block it needs).
fn trace_of(surface: Surface, input: &Input) -> Option<String> {
    let compiled = hindsight_compiler::compile(&input.spec).ok()?;
    let mut rng = Rng::new(input.seed);
    Some(match surface {
        Surface::MonitorTrace => {
            monitor_trace(&trace_schema(compiled.program.monitors.first()?), &mut rng)
        }
        Surface::SystemTrace => system_trace(
            &system_schema(compiled.program.systems.first()?, &compiled.program.enums),
            &mut rng,
        ),
        Surface::PopulationTrace => population_trace(
            &population_schema(
                compiled.program.populations.first()?,
                &compiled.program.enums,
            ),
            &mut rng,
        ),
        Surface::OtlpTrace => gen::otlp_export(
            &system_schema(compiled.program.systems.first()?, &compiled.program.enums),
            &mut rng,
        ),
        Surface::Spec | Surface::Codegen | Surface::Stamp | Surface::Model | Surface::Vacuity => {
            return None
        }
    })
}

/// The trace is checked to its end, or refused at one of its lines with a
/// column within that line and a short message.
fn check_trace(surface: Surface, input: &Input) -> Result<Outcome, String> {
    let compiled = hindsight_compiler::compile(&input.spec)
        .map_err(|d| format!("a generated spec does not compile: {}", d[0].message))?;
    let Some(trace) = trace_of(surface, input) else {
        return Err("the generated spec lacks its block".to_string());
    };
    let mut rng = Rng::new(input.seed.rotate_left(17));
    let max_line = if rng.chance(10) {
        1 + rng.below(200)
    } else {
        1 << 24
    };
    let out = Vec::new();
    let outcome = match surface {
        Surface::MonitorTrace => {
            let table = &compiled.program.monitors[0];
            let mut reader = TraceReader::new(trace.as_bytes(), trace_schema(table))
                .with_max_line_bytes(max_line);
            // A quarter of the traces are read as keyed logs (sessions by
            // the records' `t`, few live at once).
            let checked = if rng.chance(25) {
                let limit = 1 + rng.below(3);
                let monitor = Interpreter::new(table);
                hindsight_trace::check_keyed_trace(&mut reader, &monitor, out, "/t", limit)
            } else {
                let mut interpreted = Vec::new();
                let checked = hindsight_trace::check_trace(
                    &mut reader,
                    &mut Interpreter::new(table),
                    &mut interpreted,
                );
                // Machine code prints the same bytes, and stops at the same error.
                if let Ok(mut jit) = JitMonitor::new(table) {
                    let mut compiled = Vec::new();
                    let mut reader = TraceReader::new(trace.as_bytes(), trace_schema(table))
                        .with_max_line_bytes(max_line);
                    let again = hindsight_trace::check_trace(&mut reader, &mut jit, &mut compiled);
                    if compiled != interpreted || format!("{again:?}") != format!("{checked:?}") {
                        return Err(format!(
                            "machine code printed\n{}\nthe interpreter\n{}",
                            String::from_utf8_lossy(&compiled),
                            String::from_utf8_lossy(&interpreted)
                        ));
                    }
                }
                checked
            };
            // The end-of-run warnings are bounded whatever the trace.
            let _ = reader.decoder().unmatched();
            checked.map(|_| ())
        }
        Surface::SystemTrace => {
            let system = &compiled.program.systems[0];
            let schema = system_schema(system, &compiled.program.enums);
            let key = rng
                .chance(30)
                .then(|| StampKey::new(&[rng.next_u64() as u8; 32]));
            let reader = SystemReader::new(trace.as_bytes(), schema).with_max_line_bytes(max_line);
            let limit = 1 + rng.below(8);
            hindsight_trace::system::check_system_trace(
                reader,
                &mut SystemInterpreter::new(system, key),
                out,
                limit,
            )
        }
        _ => {
            let tables = &compiled.program.populations[0];
            let schema = population_schema(tables, &compiled.program.enums);
            let reader =
                PopulationReader::new(trace.as_bytes(), schema).with_max_line_bytes(max_line);
            let mut monitor = PopulationInterpreter::new(tables);
            hindsight_trace::population::check_population_trace(reader, &mut monitor, out)
                .map(|_| ())
        }
    };
    match outcome {
        Ok(()) => Ok(Outcome::Accepted),
        Err(CheckError::Write(e)) => Err(format!("writing to memory failed: {e}")),
        Err(CheckError::Trace {
            line,
            column,
            message,
        }) => {
            let lines: Vec<&str> = trace.split('\n').collect();
            let Some(text) = line.checked_sub(1).and_then(|l| lines.get(l)) else {
                return Err(format!(
                    "error at line {line} of {}: {message}",
                    lines.len()
                ));
            };
            if let Some(column) = column {
                if column == 0 || column > text.chars().count() + 1 {
                    return Err(format!(
                        "error at column {column} of line {line}: {message}"
                    ));
                }
            }
            if message.chars().count() > 1000 {
                return Err(format!(
                    "a message of {} characters at line {line}",
                    message.chars().count()
                ));
            }
            Ok(Outcome::Refused)
        }
    }
}

/// An OpenTelemetry export shaped after the spec's system: read (or refused
/// at a line within the export, with a bounded message), both views made
/// (a record per span and event; each trace's events), and each trace's
/// events checked by the system's monitors like any system trace.
fn check_otlp(input: &Input) -> Result<Outcome, String> {
    let compiled = hindsight_compiler::compile(&input.spec)
        .map_err(|d| format!("a generated spec does not compile: {}", d[0].message))?;
    let Some(export) = trace_of(Surface::OtlpTrace, input) else {
        return Err("the generated spec lacks its system".to_string());
    };
    let system = &compiled.program.systems[0];
    let schema = system_schema(system, &compiled.program.enums);
    let lines = export.split('\n').count();
    let spans = match hindsight_trace::otlp::read_spans(
        export.as_bytes(),
        &hindsight_trace::otlp::Limits {
            line_bytes: 1 << 20,
            spans: 1 << 12,
            bytes: 1 << 22,
            traces: Some(1 << 10),
        },
    ) {
        Ok(spans) => spans,
        Err(e) if e.line == 0 || e.line > lines => {
            return Err(format!("error at line {} of {lines}: {e}", e.line))
        }
        Err(e) if e.message.chars().count() > 1000 => {
            return Err(format!(
                "a message of {} characters",
                e.message.chars().count()
            ))
        }
        Err(_) => return Ok(Outcome::Refused),
    };
    let records = hindsight_trace::otlp::records(&spans);
    let events: usize = spans.iter().map(|s| s.events.len()).sum();
    if records.origins.len() != spans.len() + events {
        return Err(format!(
            "{} records for {} spans and {events} events",
            records.origins.len(),
            spans.len()
        ));
    }
    let converted = hindsight_trace::otlp::events(&spans, &schema);
    let mut refused = false;
    for (_, range) in &converted.traces {
        let text = converted.text.get(range.clone()).unwrap_or_default();
        let reader = SystemReader::new(text.as_bytes(), schema.clone());
        let checked = hindsight_trace::system::check_system_trace(
            reader,
            &mut SystemInterpreter::new(system, None),
            Vec::new(),
            1 << 10,
        );
        match checked {
            Ok(()) => {}
            Err(CheckError::Trace { .. }) => refused = true,
            Err(CheckError::Write(e)) => return Err(format!("writing to memory failed: {e}")),
        }
    }
    Ok(if refused {
        Outcome::Refused
    } else {
        Outcome::Accepted
    })
}

/// Real stamps of the system, altered: decoding never panics, a stamp that
/// decodes re-encodes to the same bytes, and no altered sealed stamp opens.
/// The spec the model surface learns for: a tool, a flag, a past `let`,
/// two goals and a future property (so models carry a prediction).
const MODEL_SPEC: &str = "enum Tool { edit, test, deploy }
monitor agent {
    input tool: Tool;
    input passed: bool;
    input size: int;
    let green = !(tool == edit) S (tool == test && passed);
    property gated = G (tool == deploy -> green);
    goal shipped = tool == deploy && green;
    goal broken = tool == deploy && !green;
}
";

/// A model learned (with refinement) from runs generated by `input.seed`
/// loads back; altered copies of its file are refused with a reason or
/// load, and every one that loads follows random runs, explains itself and
/// exports to PRISM without panicking.
fn check_models(input: &Input) -> Result<Outcome, String> {
    use hindsight_learn::online::Tracker;
    use hindsight_learn::text::{describe, prism_labels, prism_transitions};
    use hindsight_learn::{learn, Features, Model, Options, Recording, Run};
    use hindsight_runtime::StepMonitor;
    let checked = hindsight_compiler::compile::check_source(&input.spec)
        .map_err(|d| format!("the model spec does not check: {}", d[0].message))?;
    let table = hindsight_compiler::compile::lower_for_learning(&checked.spec, 0)
        .map_err(|d| format!("the model spec does not lower: {}", d[0].message))?;
    let features = Features::of(&table, "tool").map_err(|e| format!("no features: {e}"))?;
    let mut rng = Rng::new(input.seed);
    let mut recording = Recording::new(&table);
    let mut verdicts = vec![hindsight_runtime::Verdict::Unknown; table.outputs.len()];
    let mut row = Vec::new();
    let runs: Vec<Run> = (0..1 + rng.below(40))
        .map(|_| {
            recording.reset();
            let mut run = Run::default();
            for _ in 0..rng.below(12) {
                let inputs = [
                    Value::Enum(rng.below(3) as u32),
                    Value::Bool(rng.chance(50)),
                    Value::Int(rng.below(20) as i64 - 5),
                ];
                recording.step_values(&inputs, &mut verdicts);
                features.read(&recording, &mut row);
                run.values.extend_from_slice(&row);
                run.actions.push(features.action(&recording));
            }
            run
        })
        .collect();
    let options = Options {
        refinements: 3,
        ..Options::default()
    };
    let model = learn("agent", "tool", &features, &runs, options)
        .map_err(|e| format!("learning from generated runs failed: {e}"))?;
    let text = model.to_json();
    let back =
        Model::from_json(&text).map_err(|e| format!("a learned model does not load: {e}"))?;
    if (&back.tree, &back.mdp, &back.states) != (&model.tree, &model.mdp, &model.states) {
        return Err("a learned model loads back different".to_string());
    }
    let mut loaded_any = false;
    for _ in 0..8 {
        let mut altered = text.clone();
        for _ in 0..1 + rng.below(3) {
            altered = gen::mutate_text(&altered, &mut rng);
        }
        let Ok(loaded) = Model::from_json(&altered) else {
            continue;
        };
        loaded_any = true;
        let _ = describe(&loaded);
        let _ = (prism_transitions(&loaded), prism_labels(&loaded));
        let width = loaded.features.len();
        let mut tracker = Tracker::new(&loaded);
        for _ in 0..20 {
            let row: Vec<f64> = (0..width).map(|_| rng.below(7) as f64 - 1.0).collect();
            let standing = tracker.step(Value::Enum(rng.below(4) as u32), &row);
            for p in &loaded.predictions {
                let states: Vec<u32> = p.automata.iter().map(|_| rng.below(3) as u32).collect();
                if let Some(i) = p.find(standing.state, &states) {
                    let _ = (p.min.value(i), p.max.value(i), p.observed.value(i));
                }
            }
        }
        let _ = tracker.finish();
    }
    // Refused: every altered copy was (the reader said why each time).
    Ok(if loaded_any {
        Outcome::Accepted
    } else {
        Outcome::Refused
    })
}

fn check_stamps(input: &Input) -> Result<Outcome, String> {
    let compiled = hindsight_compiler::compile(&input.spec)
        .map_err(|d| format!("a generated spec does not compile: {}", d[0].message))?;
    let system = &compiled.program.systems[0];
    let codec = LayoutCodec::new(&system.layout);
    let key = StampKey::new(&[7; 32]);
    let mut rng = Rng::new(input.seed);
    let mut monitors: Vec<LifelineMonitor<'_>> = (0..system.lifelines.len())
        .filter_map(|l| LifelineMonitor::new(system, l))
        .collect();
    let mut refused = false;
    for _ in 0..1 + rng.below(12) {
        let l = rng.below(monitors.len());
        let vars = &system.lifelines[l].vars;
        let mut changes: Vec<(usize, Value)> = Vec::new();
        for (v, var) in vars.iter().enumerate() {
            if rng.chance(50) {
                changes.push((v, some_value(var.ty, &mut rng)));
            }
        }
        let Some(monitor) = monitors.get_mut(l) else {
            continue;
        };
        let Ok(stamp) = monitor.on_send(&changes) else {
            continue;
        };
        let mut plain = vec![0u8; codec.max_bytes()];
        let len = codec
            .encode(&stamp, &mut plain)
            .map_err(|e| format!("a real stamp does not encode: {e}"))?;
        plain.truncate(len);
        let sealed = codec
            .seal(&stamp, &key)
            .map_err(|e| format!("a real stamp does not seal: {e}"))?;
        for _ in 0..16 {
            let bytes = alter(&plain, &mut rng);
            match codec.decode(&bytes) {
                Ok(decoded) => {
                    let mut again = vec![0u8; codec.max_bytes()];
                    let n = codec
                        .encode(&decoded, &mut again)
                        .map_err(|e| format!("a decoded stamp does not encode: {e}"))?;
                    if again[..n] != bytes[..] {
                        return Err(format!(
                            "not canonical: {bytes:?} re-encodes as {:?}",
                            &again[..n]
                        ));
                    }
                    // Whatever decodes, a receiver takes or refuses, never panics.
                    let r = rng.below(monitors.len());
                    let _ = monitors[r].on_recv(&decoded, &[]);
                }
                Err(_) => refused = true,
            }
            let altered = alter(&sealed, &mut rng);
            match codec.open(&altered, &key) {
                Ok(_) if altered != sealed => {
                    return Err(format!("an altered sealed stamp opened: {altered:?}"))
                }
                Ok(_) => {}
                Err(StampError::Unauthenticated) => refused = true,
                Err(e) => return Err(format!("a bad tag refused as {e}, not Unauthenticated")),
            }
        }
    }
    Ok(if refused {
        Outcome::Refused
    } else {
        Outcome::Accepted
    })
}

/// A value of type `ty` (an enum index within or just beyond the variants).
fn some_value(ty: Ty, rng: &mut Rng) -> Value {
    match ty {
        Ty::Bool => Value::Bool(rng.chance(50)),
        Ty::Int => Value::Int(rng.next_u64() as i64 >> rng.below(64)),
        Ty::Float => Value::Float(f64::from_bits(rng.next_u64())),
        Ty::Enum(_) => Value::Enum(rng.below(3) as u32),
    }
}

/// `bytes` altered: a bit flipped, truncated, extended, a byte replaced, or
/// unchanged.
fn alter(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    match rng.below(6) {
        0 if !out.is_empty() => {
            let bit = rng.below(out.len() * 8);
            out[bit / 8] ^= 1 << (bit % 8);
        }
        1 => out.truncate(rng.below(out.len() + 1)),
        2 => out.extend((0..1 + rng.below(4)).map(|_| rng.next_u64() as u8)),
        3 if !out.is_empty() => {
            let at = rng.below(out.len());
            out[at] = rng.next_u64() as u8;
        }
        4 => out = (0..rng.below(40)).map(|_| rng.next_u64() as u8).collect(),
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every surface, a few seconds each in the normal test run (a debug
    /// build): no broken promise. `hindsight-fuzz` runs the same for hours.
    #[test]
    fn every_surface_keeps_its_promises() {
        for surface in Surface::ALL {
            let inputs = match surface {
                Surface::Spec => 150,
                Surface::Codegen => 60,
                _ => 120,
            };
            let report = run(
                surface,
                0x5eed,
                Budget {
                    inputs: Some(inputs),
                    until: None,
                },
                Limits {
                    // A debug build is some 20 times slower than release.
                    time: Duration::from_secs(60),
                    memory: usize::MAX,
                },
                Measure::NONE,
            );
            assert_eq!(report.inputs, inputs);
            assert!(
                report.failures.is_empty(),
                "{}: {:#?}",
                surface.name(),
                report.failures
            );
            // The inputs must exercise refusals as well as acceptance (every
            // stamp input alters some stamps, so some refusal is certain).
            assert!(report.refused > 0, "{}: nothing refused", surface.name());
            if surface != Surface::Stamp {
                assert!(
                    report.refused < inputs,
                    "{}: everything refused",
                    surface.name()
                );
            }
        }
    }
}
