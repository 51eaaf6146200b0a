//! From a spec file to one compiled block (a monitor, a system or a
//! population): read, compile, select the block.
//! Every failure is reported on stderr here.

use crate::report;
use hindsight_compiler::diag::{has_errors, Diag};
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::ir::PopulationTables;
use hindsight_compiler::ir::SystemTables;
use hindsight_compiler::{ast, hir, Compiled};
use std::path::Path;
use std::time::{Duration, Instant};

/// A failure that has already been reported on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

/// A runnable block of a spec: a monitor, a system or a population.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// Monitor `k`: an index into `spec.monitors` and `tables`.
    Monitor(usize),
    /// System `k`: an index into `spec.systems` and `systems`.
    System(usize),
    /// Population `k`: an index into `spec.populations` and `populations`
    /// (which are in the same order).
    Population(usize),
}

/// A spec compiled for one block: only the selected block is lowered (no
/// other block's automata are built).
#[derive(Debug)]
pub struct CompiledBlock {
    /// The spec's text (diagnostics quote it).
    pub source: String,
    /// The whole spec, checked.
    pub spec: hir::Spec,
    /// The selected block, compiled: its spec holds that block alone (and
    /// every enum).
    pub compiled: Compiled,
    /// The selected block, in `compiled`.
    pub block: Block,
    /// The time checking and lowering took (reading the file excluded).
    pub compile_time: Duration,
}

impl CompiledBlock {
    /// The selected monitor's table (`None` for a system or a population).
    pub fn table(&self) -> Option<&Table> {
        match self.block {
            Block::Monitor(k) => self.compiled.program.monitors.get(k),
            Block::System(_) | Block::Population(_) => None,
        }
    }

    /// The selected system's tables and stamp layout (`None` for a monitor
    /// or a population).
    pub fn system(&self) -> Option<&SystemTables> {
        match self.block {
            Block::System(k) => self.compiled.program.systems.get(k),
            Block::Monitor(_) | Block::Population(_) => None,
        }
    }

    /// The selected population's tables (`None` for a monitor or a system).
    pub fn population(&self) -> Option<&PopulationTables> {
        match self.block {
            Block::Population(k) => self.compiled.program.populations.get(k),
            Block::Monitor(_) | Block::System(_) => None,
        }
    }
}

/// A compiled spec, with how long compiling it took.
#[derive(Debug)]
pub struct CompiledSpec {
    /// The spec's text (diagnostics quote it).
    pub source: String,
    /// The whole compiled spec.
    pub compiled: Compiled,
    /// The time [`hindsight_compiler::compile()`] took (reading the file excluded).
    pub compile_time: Duration,
}

/// Reads and compiles the spec at `path`.
///
/// Diagnostics are printed with `display_name` as the file name; warnings are
/// printed too but do not stop compilation.
pub fn compile_spec(path: &Path, display_name: &str) -> Result<CompiledSpec, Reported> {
    let source = read_spec(path, display_name)?;
    let start = Instant::now();
    let result = hindsight_compiler::compile(&source);
    let compile_time = start.elapsed();
    let compiled = result.map_err(|diags| {
        report::diagnostics(display_name, &source, &diags);
        if !has_errors(&diags) {
            report::error(format_args!("{display_name}: the spec was rejected"));
        }
        Reported
    })?;
    report::diagnostics(display_name, &source, &compiled.warnings);
    Ok(CompiledSpec {
        source,
        compiled,
        compile_time,
    })
}

/// Reads and checks the spec at `path`, selects the monitor, system or
/// population `block` (or the only block) and lowers that block alone: the
/// other blocks are checked (their errors and warnings reported) but no
/// automaton of theirs is built.
pub fn compile_block(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<CompiledBlock, Reported> {
    let source = read_spec(path, display_name)?;
    let start = Instant::now();
    let (mut checked, selected) = check_source_block(&source, display_name, block)?;
    let spec = checked.spec.clone();
    let rejected = |diags: Vec<Diag>| {
        report::diagnostics(display_name, &source, &diags);
        if !has_errors(&diags) {
            report::error(format_args!("{display_name}: the spec was rejected"));
        }
        Reported
    };
    let name = match selected {
        Block::Monitor(k) => &spec.monitors[k].name,
        Block::System(k) => &spec.systems[k].name,
        Block::Population(k) => &spec.populations[k].name,
    };
    checked.retain_block(name);
    let compiled =
        hindsight_compiler::compile::lower_checked(checked, &source).map_err(rejected)?;
    let compile_time = start.elapsed();
    report::diagnostics(display_name, &source, &compiled.warnings);
    let block = match selected {
        Block::Monitor(_) => Block::Monitor(0),
        Block::System(_) => Block::System(0),
        Block::Population(_) => Block::Population(0),
    };
    Ok(CompiledBlock {
        source,
        spec,
        compiled,
        block,
        compile_time,
    })
}

/// Reads and checks the spec at `path` and selects the monitor, system or
/// population `block` (or the only block), lowering nothing: the checked
/// spec and the block, an index into its lists.
pub fn check_block(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<(hir::Spec, Block), Reported> {
    let source = read_spec(path, display_name)?;
    let (checked, selected) = check_source_block(&source, display_name, block)?;
    report::diagnostics(display_name, &source, &checked.warnings);
    Ok((checked.spec, selected))
}

/// Reads and checks the spec at `path`, selects the monitor `block` (or
/// the only block) and lowers it with its past-time `let`s: the table
/// `hindsight learn` reads features from. A system or population block is
/// refused.
pub fn learnable_table(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<Table, Reported> {
    let source = read_spec(path, display_name)?;
    let (checked, selected) = check_source_block(&source, display_name, block)?;
    report::diagnostics(display_name, &source, &checked.warnings);
    let Block::Monitor(k) = selected else {
        report::error(format_args!(
            "{display_name}: models are learned for monitor blocks; choose one with --block"
        ));
        return Err(Reported);
    };
    hindsight_compiler::compile::lower_for_learning(&checked.spec, k).map_err(|diags| {
        report::diagnostics(display_name, &source, &diags);
        Reported
    })
}

/// Checks `source` and selects `block` in it, reporting what fails.
fn check_source_block(
    source: &str,
    display_name: &str,
    block: Option<&str>,
) -> Result<(hindsight_compiler::compile::Checked, Block), Reported> {
    let checked = hindsight_compiler::compile::check_source(source).map_err(|diags| {
        report::diagnostics(display_name, source, &diags);
        if !has_errors(&diags) {
            report::error(format_args!("{display_name}: the spec was rejected"));
        }
        Reported
    })?;
    let selected = select(&checked.spec, block, || {
        hindsight_grammar::parse(source).ok()
    })
    .map_err(|message| {
        report::diagnostics(display_name, source, &checked.warnings);
        report::error(format_args!("{display_name}: {message}"));
        Reported
    })?;
    Ok((checked, selected))
}

/// The text of the spec at `path` (bounded: [`hindsight_compiler::source::read_spec`]).
pub(crate) fn read_spec(path: &Path, display_name: &str) -> Result<String, Reported> {
    hindsight_compiler::source::read_spec(path).map_err(|e| {
        report::error(format_args!("cannot read spec `{display_name}`: {e}"));
        Reported
    })
}

/// Picks the monitor, system or population named `block`, or the only block
/// when `block` is `None`.
///
/// The error message lists the blocks available; `parse` (called only then)
/// gives the syntax tree, so the message can say when the name is an enum's.
/// A spec without systems or populations is described in terms of monitors
/// alone, one without populations in terms of monitors and systems.
pub fn select(
    spec: &hir::Spec,
    block: Option<&str>,
    parse: impl FnOnce() -> Option<ast::File>,
) -> Result<Block, String> {
    let blocks = blocks(spec);
    let kinds = if !spec.populations.is_empty() {
        "monitor, system or population"
    } else if !spec.systems.is_empty() {
        "monitor or system"
    } else {
        "monitor"
    };
    match block {
        Some(wanted) => {
            if let Some(&(_, _, found)) = blocks.iter().find(|(_, name, _)| *name == wanted) {
                return Ok(found);
            }
            let is_enum = parse().is_some_and(|file| {
                file.items
                    .iter()
                    .any(|item| matches!(item, ast::Item::Enum(d) if d.name.name == wanted))
            });
            Err(if is_enum {
                format!(
                    "`{wanted}` is an enum, but only monitor, system and population blocks \
                     can be run ({})",
                    available(&blocks)
                )
            } else {
                format!("no {kinds} block named `{wanted}` ({})", available(&blocks))
            })
        }
        None => match blocks.as_slice() {
            [(_, _, only)] => Ok(*only),
            [] => Err("no monitor, system or population block to run".to_string()),
            _ => Err(format!(
                "several {kinds} blocks; choose one with `--block NAME` ({})",
                available(&blocks)
            )),
        },
    }
}

/// Every runnable block of `spec` with its kind and name: the monitors, then
/// the systems, then the populations, each in declaration order.
pub fn blocks(spec: &hir::Spec) -> Vec<(&'static str, &str, Block)> {
    let monitors = spec.monitors.iter().enumerate();
    let systems = spec.systems.iter().enumerate();
    let populations = spec.populations.iter().enumerate();
    monitors
        .map(|(k, m)| ("monitor", m.name.as_str(), Block::Monitor(k)))
        .chain(systems.map(|(k, s)| ("system", s.name.as_str(), Block::System(k))))
        .chain(populations.map(|(k, p)| ("population", p.name.as_str(), Block::Population(k))))
        .collect()
}

/// `monitor blocks: `a`, `b`; system blocks: `s`; population blocks: `p``
/// (kinds without blocks are left out), or `it has no monitor, system or
/// population blocks`; `blocks` are those of [`blocks`], grouped by kind.
fn available(blocks: &[(&str, &str, Block)]) -> String {
    let mut parts: Vec<(&str, Vec<String>)> = Vec::new();
    for &(kind, name, _) in blocks {
        let quoted = format!("`{name}`");
        match parts.last_mut() {
            Some((last, names)) if *last == kind => names.push(quoted),
            _ => parts.push((kind, vec![quoted])),
        }
    }
    if parts.is_empty() {
        return "it has no monitor, system or population blocks".to_string();
    }
    let parts: Vec<String> = parts
        .iter()
        .map(|(kind, names)| format!("{kind} blocks: {}", names.join(", ")))
        .collect();
    parts.join("; ")
}
