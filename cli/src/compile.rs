//! From a spec file to one monitor's evaluation table: read, parse, check,
//! select the block, lower. Every failure is reported on stderr here.

use crate::report;
use hindsight_compiler::hir;
use hindsight_compiler::table::Table;
use hindsight_grammar::ast;
use hindsight_grammar::diag::has_errors;
use std::path::Path;

/// A failure that has already been reported on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

/// One monitor of a checked spec, lowered and ready to run.
#[derive(Debug)]
pub struct CompiledMonitor {
    /// The whole checked spec (its enums name the variants of enum inputs).
    pub spec: hir::Spec,
    /// Which of `spec.monitors` was selected.
    pub index: usize,
    /// The selected monitor's table.
    pub table: Table,
}

impl CompiledMonitor {
    /// The selected monitor.
    pub fn monitor(&self) -> Option<&hir::Monitor> {
        self.spec.monitors.get(self.index)
    }
}

/// Compiles the monitor `block` (or the only monitor) of the spec at `path`.
///
/// Diagnostics are printed with `display_name` as the file name; warnings are
/// printed too but do not stop compilation.
pub fn compile_monitor(
    path: &Path,
    display_name: &str,
    block: Option<&str>,
) -> Result<CompiledMonitor, Reported> {
    let source = std::fs::read(path).map_err(|e| {
        report::error(format_args!("cannot read spec `{display_name}`: {e}"));
        Reported
    })?;
    let source = String::from_utf8(source).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        report::error(format_args!(
            "spec `{display_name}` is not valid UTF-8 (byte {at})"
        ));
        Reported
    })?;
    let file = hindsight_grammar::parse(&source).map_err(|diags| {
        report::diagnostics(display_name, &source, &diags);
        Reported
    })?;
    let (spec, diags) = hindsight_compiler::check::check(&file);
    report::diagnostics(display_name, &source, &diags);
    let spec = match spec {
        Some(spec) if !has_errors(&diags) => spec,
        _ => {
            if !has_errors(&diags) {
                report::error(format_args!("{display_name}: the spec was rejected"));
            }
            return Err(Reported);
        }
    };
    let index = select_monitor(&file, &spec, block).map_err(|message| {
        report::error(format_args!("{display_name}: {message}"));
        Reported
    })?;
    let Some(monitor) = spec.monitors.get(index) else {
        return Err(Reported);
    };
    let table = hindsight_compiler::lower::lower(&spec, monitor).map_err(|diags| {
        report::diagnostics(display_name, &source, &diags);
        Reported
    })?;
    Ok(CompiledMonitor { spec, index, table })
}

/// Picks the monitor named `block`, or the only monitor when `block` is `None`.
///
/// The error message lists the monitors available; `file` lets it say when the
/// name belongs to a block of another kind.
pub fn select_monitor(
    file: &ast::File,
    spec: &hir::Spec,
    block: Option<&str>,
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
            let other_kind = file.items.iter().find_map(|item| match item {
                ast::Item::System(d) if d.name.name == wanted => Some("a system"),
                ast::Item::Population(d) if d.name.name == wanted => Some("a population"),
                ast::Item::Enum(d) if d.name.name == wanted => Some("an enum"),
                _ => None,
            });
            Err(match other_kind {
                Some(kind) => format!(
                    "`{wanted}` is {kind}, but `hindsight check` runs monitor blocks ({})",
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
