//! From a spec file to one compiled monitor: read, compile, select the block.
//! Every failure is reported on stderr here.

use crate::report;
use hindsight_compiler::diag::has_errors;
use hindsight_compiler::table::Table;
use hindsight_compiler::{ast, hir, Compiled};
use std::path::Path;
use std::time::{Duration, Instant};

/// A failure that has already been reported on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

/// A compiled spec and the monitor selected to run.
#[derive(Debug)]
pub struct CompiledMonitor {
    /// The spec's text (diagnostics quote it).
    pub source: String,
    /// The whole compiled spec.
    pub compiled: Compiled,
    /// Which of `compiled.spec.monitors` (and `compiled.tables`) was selected.
    pub index: usize,
}

impl CompiledMonitor {
    /// The selected monitor's table.
    pub fn table(&self) -> Option<&Table> {
        self.compiled.tables.get(self.index)
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
/// `block` (or the only monitor).
pub fn compile_monitor(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<CompiledMonitor, Reported> {
    let CompiledSpec {
        source, compiled, ..
    } = compile_spec(path, display_name)?;
    let index = select_block(&compiled, &source, display_name, block)?;
    Ok(CompiledMonitor {
        source,
        compiled,
        index,
    })
}

/// The index of monitor `block` (or of the only monitor) of `compiled`, the
/// compiled form of `source`; a failure is reported.
pub fn select_block(
    compiled: &Compiled,
    source: &str,
    display_name: &str,
    block: Option<&str>,
) -> Result<usize, Reported> {
    select_monitor(&compiled.spec, block, || {
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

/// Picks the monitor named `block`, or the only monitor when `block` is `None`.
///
/// The error message lists the monitors available; `parse` (called only then)
/// gives the syntax tree, so the message can say when the name belongs to a
/// block of another kind.
pub fn select_monitor(
    spec: &hir::Spec,
    block: Option<&str>,
    parse: impl FnOnce() -> Option<ast::File>,
) -> Result<usize, String> {
    let names: Vec<&str> = spec.monitors.iter().map(|m| m.name.as_str()).collect();
    let available = || {
        if names.is_empty() {
            "it has no monitor blocks".to_string()
        } else {
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("monitor blocks: {}", quoted.join(", "))
        }
    };
    match block {
        Some(wanted) => {
            if let Some(index) = names.iter().position(|&n| n == wanted) {
                return Ok(index);
            }
            let other_kind = parse().and_then(|file| {
                file.items.iter().find_map(|item| match item {
                    ast::Item::System(d) if d.name.name == wanted => Some("a system"),
                    ast::Item::Population(d) if d.name.name == wanted => Some("a population"),
                    ast::Item::Enum(d) if d.name.name == wanted => Some("an enum"),
                    _ => None,
                })
            });
            Err(match other_kind {
                Some(kind) => format!(
                    "`{wanted}` is {kind}, but only monitor blocks can be run ({})",
                    available()
                ),
                None => format!("no monitor block named `{wanted}` ({})", available()),
            })
        }
        None => match names.as_slice() {
            [_] => Ok(0),
            [] => Err("no monitor block to run".to_string()),
            _ => Err(format!(
                "several monitor blocks; choose one with `--block NAME` ({})",
                available()
            )),
        },
    }
}
