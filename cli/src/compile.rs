//! From a spec file to one compiled block (a monitor or a system): read,
//! compile, select the block.
//! Every failure is reported on stderr here.

use crate::report;
use hindsight_compiler::diag::has_errors;
use hindsight_compiler::system::SystemTables;
use hindsight_compiler::table::Table;
use hindsight_compiler::{ast, hir, Compiled};
use std::path::Path;
use std::time::{Duration, Instant};

/// A failure that has already been reported on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

/// A runnable block of a spec: a monitor or a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// Monitor `k`: an index into `spec.monitors` and `tables`.
    Monitor(usize),
    /// System `k`: an index into `spec.systems` and `systems`.
    System(usize),
}

/// A compiled spec and the block selected to run.
#[derive(Debug)]
pub struct CompiledBlock {
    /// The spec's text (diagnostics quote it).
    pub source: String,
    /// The whole compiled spec.
    pub compiled: Compiled,
    /// The selected block.
    pub block: Block,
}

impl CompiledBlock {
    /// The selected monitor's table (`None` for a system).
    pub fn table(&self) -> Option<&Table> {
        match self.block {
            Block::Monitor(k) => self.compiled.tables.get(k),
            Block::System(_) => None,
        }
    }

    /// The selected system's tables and stamp layout (`None` for a monitor).
    pub fn system(&self) -> Option<&SystemTables> {
        match self.block {
            Block::System(k) => self.compiled.systems.get(k),
            Block::Monitor(_) => None,
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
    /// The time [`hindsight_compiler::compile`] took (reading the file excluded).
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

/// Compiles the spec at `path` (see [`compile_spec`]) and selects the monitor
/// or system `block` (or the only one).
pub fn compile_block(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<CompiledBlock, Reported> {
    let CompiledSpec {
        source, compiled, ..
    } = compile_spec(path, display_name)?;
    let block = select_block(&compiled, &source, display_name, block)?;
    Ok(CompiledBlock {
        source,
        compiled,
        block,
    })
}

/// The monitor or system `block` (or the only one) of `compiled`, the
/// compiled form of `source`; a failure is reported.
pub fn select_block(
    compiled: &Compiled,
    source: &str,
    display_name: &str,
    block: Option<&str>,
) -> Result<Block, Reported> {
    select(&compiled.spec, block, || {
        hindsight_grammar::parse(source).ok()
    })
    .map_err(|message| {
        report::error(format_args!("{display_name}: {message}"));
        Reported
    })
}

/// The text of the spec at `path`.
fn read_spec(path: &Path, display_name: &str) -> Result<String, Reported> {
    let source = std::fs::read(path).map_err(|e| {
        report::error(format_args!("cannot read spec `{display_name}`: {e}"));
        Reported
    })?;
    String::from_utf8(source).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        report::error(format_args!(
            "spec `{display_name}` is not valid UTF-8 (byte {at})"
        ));
        Reported
    })
}

/// Picks the monitor or system named `block`, or the only one when `block`
/// is `None`.
///
/// The error message lists the blocks available; `parse` (called only then)
/// gives the syntax tree, so the message can say when the name belongs to a
/// block of another kind. A spec without systems is described in terms of
/// monitors alone.
pub fn select(
    spec: &hir::Spec,
    block: Option<&str>,
    parse: impl FnOnce() -> Option<ast::File>,
) -> Result<Block, String> {
    let monitors = spec.monitors.iter().map(|m| m.name.as_str());
    let systems = spec.systems.iter().map(|s| s.name.as_str());
    let blocks: Vec<(&str, Block)> = monitors
        .enumerate()
        .map(|(k, name)| (name, Block::Monitor(k)))
        .chain(
            systems
                .enumerate()
                .map(|(k, name)| (name, Block::System(k))),
        )
        .collect();
    let kinds = if spec.systems.is_empty() {
        "monitor"
    } else {
        "monitor or system"
    };
    match block {
        Some(wanted) => {
            if let Some(&(_, found)) = blocks.iter().find(|(name, _)| *name == wanted) {
                return Ok(found);
            }
            let other_kind = parse().and_then(|file| {
                file.items.iter().find_map(|item| match item {
                    ast::Item::Population(d) if d.name.name == wanted => Some("a population"),
                    ast::Item::Enum(d) if d.name.name == wanted => Some("an enum"),
                    _ => None,
                })
            });
            Err(match other_kind {
                Some(kind) => format!(
                    "`{wanted}` is {kind}, but only monitor and system blocks can be run ({})",
                    available(spec)
                ),
                None => format!("no {kinds} block named `{wanted}` ({})", available(spec)),
            })
        }
        None => match blocks.as_slice() {
            [(_, only)] => Ok(*only),
            [] => Err("no monitor or system block to run".to_string()),
            _ => Err(format!(
                "several {kinds} blocks; choose one with `--block NAME` ({})",
                available(spec)
            )),
        },
    }
}

/// `monitor blocks: `a`, `b`; system blocks: `s`` (kinds the spec has none of
/// are left out), or `it has no monitor or system blocks`.
fn available(spec: &hir::Spec) -> String {
    let list = |kind: &str, names: Vec<&str>| {
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        format!("{kind} blocks: {}", quoted.join(", "))
    };
    let mut parts = Vec::new();
    if !spec.monitors.is_empty() {
        parts.push(list(
            "monitor",
            spec.monitors.iter().map(|m| m.name.as_str()).collect(),
        ));
    }
    if !spec.systems.is_empty() {
        parts.push(list(
            "system",
            spec.systems.iter().map(|s| s.name.as_str()).collect(),
        ));
    }
    if parts.is_empty() {
        "it has no monitor or system blocks".to_string()
    } else {
        parts.join("; ")
    }
}
