//! `hindsight check SPEC --trace FILE [--block NAME] [--fail-on-violation] [--explain]`:
//! compiles the spec and runs the selected block over a JSON Lines trace.
//!
//! - A monitor block runs on its interpreter with
//!   [`hindsight_trace::run_check`], which documents the output and the exit
//!   codes. With `--explain`, the explanation lines of [`crate::why`] follow
//!   the verdict lines (standalone monitors do not explain; their generated
//!   code exposes the residual obligations through `residuals()`).
//! - A system block runs one monitor per lifeline ([`crate::lifelines`]) with
//!   [`hindsight_trace::system::run_system`]: one verdict line per choice of
//!   a lifeline owning guards. Explanations are for monitor blocks only, so
//!   `--explain` on a system is a usage error.
//! - A population block runs on its interpreter with
//!   [`hindsight_trace::population::run_population`]: one line per step of
//!   the whole population, in the monitor format. `--explain` is a usage
//!   error here too.

use crate::compile::{compile_spec, select_block, Block, CompiledBlock, CompiledSpec};
use crate::lifelines::LifelineMonitors;
use crate::report;
use crate::schema::{input_schema, system_schema, trace_schema};
use crate::why::ExplainLines;
use hindsight_compiler::hir::{self, EnumDef, Ty};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::population::{PopulationInterpreter, PopulationTables};
use hindsight_trace::population::{
    run_population, PopulationError, PopulationSchema, PopulationStepper, ResetCounts, Value,
    Verdict,
};
use hindsight_trace::system::run_system;
use hindsight_trace::{run_check, run_check_observed, RunOptions, EXIT_ERROR};
use std::path::PathBuf;

/// What `hindsight check` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor or system block to run; `None` when the spec has exactly one.
    pub block: Option<String>,
    /// The trace to read and how to exit.
    pub run: RunOptions,
    /// Whether to explain verdict changes (see [`crate::why`]; monitors only).
    pub explain: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &CheckOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(CompiledSpec {
        source, compiled, ..
    }) = compile_spec(&options.spec, &spec_name)
    else {
        return EXIT_ERROR;
    };
    let block = options.block.as_deref();
    match select_population(&compiled.spec, block) {
        Ok(Some(name)) => return run_agents(&compiled, name, &spec_name, options),
        Ok(None) => {}
        Err(message) => {
            report::error(format_args!("{spec_name}: {message}"));
            return EXIT_ERROR;
        }
    }
    let Ok(block) = select_block(&compiled, &source, &spec_name, block) else {
        return EXIT_ERROR;
    };
    let selected = CompiledBlock {
        source,
        compiled,
        block,
    };
    match selected.block {
        Block::Monitor(_) => run_monitor(&selected, options),
        Block::System(_) => run_lifelines(&selected, &spec_name, options),
    }
}

/// The population block to run, if `block` names one or is `None` in a
/// spec whose only block is a population; `Ok(None)` leaves the choice among
/// monitors and systems to [`select_block`]. An error when the choice is
/// ambiguous or names no block, listing every block (populations included).
fn select_population<'s>(
    spec: &'s hir::Spec,
    block: Option<&str>,
) -> Result<Option<&'s str>, String> {
    if spec.populations.is_empty() {
        return Ok(None);
    }
    let population = |name: &str| {
        spec.populations
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.name.as_str())
    };
    let others = spec.monitors.len() + spec.systems.len();
    match block {
        Some(wanted) => match population(wanted) {
            Some(found) => Ok(Some(found)),
            None if spec.monitors.iter().any(|m| m.name == wanted)
                || spec.systems.iter().any(|s| s.name == wanted) =>
            {
                Ok(None)
            }
            None => Err(format!("no block named `{wanted}` ({})", blocks(spec))),
        },
        None => match spec.populations.as_slice() {
            [only] if others == 0 => Ok(Some(only.name.as_str())),
            _ => Err(format!(
                "several blocks; choose one with `--block NAME` ({})",
                blocks(spec)
            )),
        },
    }
}

/// The spec's runnable blocks by kind: `monitor blocks: `a`; population blocks: `p``.
fn blocks(spec: &hir::Spec) -> String {
    let kinds = [
        (
            "monitor",
            spec.monitors
                .iter()
                .map(|m| m.name.as_str())
                .collect::<Vec<_>>(),
        ),
        (
            "system",
            spec.systems.iter().map(|s| s.name.as_str()).collect(),
        ),
        (
            "population",
            spec.populations.iter().map(|p| p.name.as_str()).collect(),
        ),
    ];
    let parts: Vec<String> = kinds
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(kind, names)| {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("{kind} blocks: {}", quoted.join(", "))
        })
        .collect();
    parts.join("; ")
}

/// Runs the selected monitor block.
fn run_monitor(selected: &CompiledBlock, options: &CheckOptions) -> u8 {
    let Some(table) = selected.table() else {
        return EXIT_ERROR;
    };
    let mut interpreter = Interpreter::new(table);
    let schema = trace_schema(table);
    if options.explain {
        let mut lines = ExplainLines::new(table);
        run_check_observed(&schema, &mut interpreter, &options.run, &mut lines)
    } else {
        run_check(&schema, &mut interpreter, &options.run)
    }
}

/// Runs the selected system block.
fn run_lifelines(selected: &CompiledBlock, spec_name: &str, options: &CheckOptions) -> u8 {
    let Some(system) = selected.system() else {
        return EXIT_ERROR;
    };
    if options.explain {
        report::error(format_args!(
            "{spec_name}: `{}` is a system block, and --explain explains the verdicts of \
             monitor blocks only; run without --explain",
            system.system.name
        ));
        return EXIT_ERROR;
    }
    let schema = system_schema(system, &selected.compiled.spec.enums);
    run_system(&schema, &mut LifelineMonitors::new(system), &options.run)
}

/// Runs the population block called `name`.
fn run_agents(
    compiled: &hindsight_compiler::Compiled,
    name: &str,
    spec_name: &str,
    options: &CheckOptions,
) -> u8 {
    if options.explain {
        report::error(format_args!(
            "{spec_name}: `{name}` is a population block, and --explain explains the verdicts \
             of monitor blocks only; run without --explain"
        ));
        return EXIT_ERROR;
    }
    let Some(tables) = compiled.population(name) else {
        report::error(format_args!(
            "{spec_name}: population `{name}` was not compiled"
        ));
        return EXIT_ERROR;
    };
    let schema = population_schema(tables, &compiled.spec.enums);
    let mut monitor = PopulationMonitor(PopulationInterpreter::new(tables));
    run_population(&schema, &mut monitor, &options.run)
}

/// What a trace of the population compiled into `tables` gives (`enums` are
/// the spec's enums, which attribute and global types index) and what its
/// verdict lines report.
fn population_schema(tables: &PopulationTables, enums: &[EnumDef]) -> PopulationSchema {
    let inputs = |decls: &[(String, Ty)]| {
        decls
            .iter()
            .map(|(name, ty)| input_schema(name, *ty, enums))
            .collect()
    };
    let properties = tables.properties.iter().map(|p| p.name.clone()).collect();
    let resets = tables.properties.iter().map(|p| p.reset).collect();
    PopulationSchema::new(
        inputs(&tables.attributes),
        inputs(&tables.globals),
        tables.capacity,
        properties,
    )
    .with_resets(resets)
}

/// The population interpreter, as the trace driver steps it.
struct PopulationMonitor<'t>(PopulationInterpreter<'t>);

impl PopulationStepper for PopulationMonitor<'_> {
    fn reset(&mut self) {
        self.0.reset();
    }

    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError> {
        self.0.step(agents, attributes, globals)
    }

    fn finish(&self, out: &mut [Verdict]) {
        for (slot, verdict) in out.iter_mut().zip(self.0.finish()) {
            *slot = verdict;
        }
    }

    fn counts(&self, out: &mut [ResetCounts]) {
        for (slot, counts) in out.iter_mut().zip(self.0.counts()) {
            *slot = counts;
        }
    }
}
