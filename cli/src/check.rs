//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation] [--explain]`:
//! compiles the spec and runs the selected block over a JSON Lines trace.
//!
//! - A monitor block runs on its interpreter with
//!   [`hindsight_trace::run_check`], which documents the output and the exit
//!   codes. With `--explain`, the explanation lines of [`crate::why`] follow
//!   the verdict lines (standalone monitors do not explain; their generated
//!   code exposes the residual obligations through `residuals()`).
//! - A system block runs one monitor per lifeline
//!   ([`hindsight_compiler::interp::system::SystemInterpreter`]) with
//!   [`hindsight_trace::system::run_system`]: one verdict line per choice of
//!   a lifeline owning guards; with `--explain`, each followed by a line per
//!   guard ([`crate::why::GuardLines`]).
//! - A population block runs on its interpreter with
//!   [`hindsight_trace::population::run_population`]: one line per step of
//!   the whole population, in the monitor format; with `--explain`, lines
//!   naming the agents that decided each quantifier ([`crate::why::PopulationLines`]).

use crate::audit::{with_frontend, ProgressWhen};
use crate::compile::{compile_block, Block, CompiledBlock};
use crate::report;
use crate::schema::{population_schema, system_schema, trace_schema};
use crate::why::{ExplainLines, GuardLines, PopulationLines};
use hindsight_compiler::interp::system::SystemInterpreter;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_jit::JitMonitor;
use hindsight_runtime::stamp::StampKey;
use hindsight_trace::audit::Frontend;
use hindsight_trace::population::run_population_observed;
use hindsight_trace::run::Silent;
use hindsight_trace::system::run_system_observed;
use hindsight_trace::{run_check_observed, Output, RunOptions, EXIT_ERROR};
use std::path::PathBuf;

/// What `hindsight check` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor, system or population block to run; `None` when the spec
    /// has exactly one block.
    pub block: Option<String>,
    /// The trace to read and how to exit.
    pub run: RunOptions,
    /// Whether to explain verdict changes (see [`crate::why`]; monitors only).
    pub explain: bool,
    /// A file holding the key system stamps are sealed with (systems only).
    pub stamp_key_file: Option<PathBuf>,
    /// When to draw a progress bar.
    pub progress: ProgressWhen,
    /// How a monitor block is run.
    pub engine: Engine,
    /// A partition of a system's lifelines (by name, as JSON: `[["a", "b"],
    /// ["c"]]`): every protocol is also monitored by one monitor per group.
    pub partition: Option<String>,
    /// A learned model (`hindsight learn`) to follow each run with (monitor
    /// blocks; see [`crate::learn::check_with_model`]).
    pub model: Option<PathBuf>,
    /// Where to write an HTML report of the audit (implies summaries).
    pub report: Option<PathBuf>,
}

/// How `check` runs a monitor block (`--engine`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Machine code when the table and the output allow it, else the interpreter.
    #[default]
    Auto,
    /// Machine code, or an error saying why not.
    Jit,
    /// The interpreter.
    Interpreter,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &CheckOptions) -> u8 {
    if let Some(model) = &options.model {
        return crate::learn::check_with_model(options, model);
    }
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    match selected.block {
        Block::Monitor(_) => run_monitor(&selected, options),
        Block::System(_) => run_lifelines(&selected, options),
        Block::Population(_) => run_agents(&selected, &spec_name, options),
    }
}

/// Runs the selected monitor block.
fn run_monitor(selected: &CompiledBlock, options: &CheckOptions) -> u8 {
    let Some(table) = selected.table() else {
        return EXIT_ERROR;
    };
    if options.stamp_key_file.is_some() {
        report::error(format_args!(
            "`{}` is a monitor block; --stamp-key-file seals the stamps of system blocks only",
            table.name
        ));
        return EXIT_ERROR;
    }
    let schema = trace_schema(table);
    // A summary's `why` is the explanation --explain would give.
    let explain = options.explain || options.run.output == Output::Summary;
    let jit = match (options.engine, explain) {
        (Engine::Interpreter, _) | (Engine::Auto, true) => None,
        (Engine::Jit, true) => {
            report::error(
                "--engine jit cannot explain verdicts (--explain, --summary); use --engine auto",
            );
            return EXIT_ERROR;
        }
        (Engine::Auto, false) => JitMonitor::new(table).ok(),
        (Engine::Jit, false) => match JitMonitor::new(table) {
            Ok(jit) => Some(jit),
            Err(why) => {
                report::error(format_args!("monitor `{}` is {why}", table.name));
                return EXIT_ERROR;
            }
        },
    };
    if let Some(jit) = jit {
        return frontend(options, |frontend| {
            run_check_observed(&schema, &jit, &options.run, &Silent, frontend)
        });
    }
    let interpreter = Interpreter::new(table);
    frontend(options, |frontend| {
        if explain {
            let lines = ExplainLines::new(table);
            run_check_observed(&schema, &interpreter, &options.run, &lines, frontend)
        } else {
            run_check_observed(&schema, &interpreter, &options.run, &Silent, frontend)
        }
    })
}

/// Runs the selected system block.
fn run_lifelines(selected: &CompiledBlock, options: &CheckOptions) -> u8 {
    let Some(system) = selected.system() else {
        return EXIT_ERROR;
    };
    let key = match &options.stamp_key_file {
        Some(path) => match read_stamp_key(path) {
            Ok(key) => Some(key),
            Err(why) => {
                report::error(format_args!(
                    "cannot use `{}` as a stamp key: {why}",
                    path.display()
                ));
                return EXIT_ERROR;
            }
        },
        None => None,
    };
    if let Some(status) = refuse_key(options, "system", &system.name) {
        return status;
    }
    let mut schema = system_schema(system, &selected.compiled.program.enums);
    let mut monitors = SystemInterpreter::new(system, key);
    if let Some(text) = &options.partition {
        let partition = match parse_partition(text, system) {
            Ok(partition) => partition,
            Err(why) => {
                report::error(format_args!("--partition: {why}"));
                return EXIT_ERROR;
            }
        };
        schema = schema.with_protocols(SystemInterpreter::protocol_columns(
            system,
            Some(&partition),
        ));
        monitors = monitors.with_partition(&partition);
    }
    frontend(options, |frontend| {
        if options.explain {
            let lines = GuardLines::new(system);
            run_system_observed(&schema, &monitors, &options.run, &lines, frontend)
        } else {
            run_system_observed(&schema, &monitors, &options.run, &Silent, frontend)
        }
    })
}

/// A partition of `system`'s lifelines written as JSON, `[["a", "b"],
/// ["c"]]`: every lifeline in exactly one group.
fn parse_partition(
    text: &str,
    system: &hindsight_compiler::ir::SystemTables,
) -> Result<Vec<Vec<usize>>, String> {
    let groups: Vec<Vec<String>> = serde_json::from_str(text)
        .map_err(|e| format!("expected a JSON list of lists of lifeline names: {e}"))?;
    let names: Vec<&str> = system.lifelines.iter().map(|l| l.name.as_str()).collect();
    let mut seen = vec![false; names.len()];
    let mut partition = Vec::new();
    for group in groups {
        let mut indices = Vec::new();
        for name in group {
            let Some(l) = names.iter().position(|&n| n == name) else {
                return Err(format!(
                    "system `{}` has no lifeline `{name}` (its lifelines: {})",
                    system.name,
                    names.join(", ")
                ));
            };
            if std::mem::replace(&mut seen[l], true) {
                return Err(format!("lifeline `{name}` is in two groups"));
            }
            indices.push(l);
        }
        if !indices.is_empty() {
            partition.push(indices);
        }
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&seen)
        .filter(|(_, &s)| !s)
        .map(|(&n, _)| n)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "every lifeline belongs to a group; missing: {}",
            missing.join(", ")
        ));
    }
    Ok(partition)
}

/// The stamp key in the file at `path`: 32 bytes, written raw or as 64
/// hexadecimal digits (surrounding whitespace ignored).
fn read_stamp_key(path: &std::path::Path) -> Result<StampKey, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(1024)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    let mut secret = [0u8; 32];
    let text = std::str::from_utf8(&bytes).map(str::trim);
    match text {
        Ok(hex) if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            for (k, byte) in secret.iter_mut().enumerate() {
                *byte =
                    u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).map_err(|e| e.to_string())?;
            }
        }
        _ if bytes.len() == 32 => secret.copy_from_slice(&bytes),
        _ => {
            return Err(format!(
                "a key is 32 bytes, raw or as 64 hexadecimal digits ({} bytes found)",
                bytes.len()
            ))
        }
    }
    Ok(StampKey::new(&secret))
}

/// Runs the selected population block.
fn run_agents(selected: &CompiledBlock, spec_name: &str, options: &CheckOptions) -> u8 {
    let Some(tables) = selected.population() else {
        return EXIT_ERROR;
    };
    if options.stamp_key_file.is_some() {
        report::error(format_args!(
            "{spec_name}: `{}` is a population block; --stamp-key-file seals the stamps of \
             system blocks only",
            tables.name
        ));
        return EXIT_ERROR;
    }
    if let Some(status) = refuse_key(options, "population", &tables.name) {
        return status;
    }
    let schema = population_schema(tables, &selected.compiled.program.enums);
    let monitor = PopulationInterpreter::new(tables);
    let explain = options.explain || options.run.output == Output::Summary;
    frontend(options, |frontend| {
        if explain {
            let monitor = monitor.with_witnesses();
            let lines = PopulationLines::new(tables, &selected.source);
            run_population_observed(&schema, &monitor, &options.run, &lines, frontend)
        } else {
            run_population_observed(&schema, &monitor, &options.run, &Silent, frontend)
        }
    })
}

/// Runs `run` with the progress bar and summary table `options` ask for.
pub(crate) fn frontend(options: &CheckOptions, run: impl FnOnce(Frontend<'_>) -> u8) -> u8 {
    let summary = options.run.output == Output::Summary;
    let failed = std::sync::atomic::AtomicBool::new(false);
    let write = |lines: &str| {
        let Some(path) = &options.report else { return };
        let traces: Vec<String> = options
            .run
            .traces
            .iter()
            .map(|t| t.display().to_string())
            .collect();
        let title = format!(
            "{} — audit of {}",
            options.spec.display(),
            traces.join(", ")
        );
        if let Err(why) = crate::audit::write_report(path, title, lines, &options.run) {
            report::error(format_args!("--report: {why}"));
            failed.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let hook: Option<&(dyn Fn(&str) + Sync)> = options.report.as_ref().map(|_| &write as _);
    let status = with_frontend(options.progress, summary, &options.run.traces, hook, run);
    match failed.load(std::sync::atomic::Ordering::Relaxed) {
        true => EXIT_ERROR,
        false => status,
    }
}

/// Refuses `--key` for a block of `kind` named `name` (a system's or
/// population's line is an event or step of the whole, not of a session);
/// the exit status if refused.
fn refuse_key(options: &CheckOptions, kind: &str, name: &str) -> Option<u8> {
    options.run.key.as_ref()?;
    report::error(format_args!(
        "`{name}` is a {kind} block; --key splits the sessions of monitor traces only \
         (give each session of a {kind} its own file)"
    ));
    Some(EXIT_ERROR)
}
