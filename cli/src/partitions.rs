//! `hindsight partitions SPEC [--block NAME] [--protocol NAME] [--why]`:
//! the minimal monitoring-safe partitions of a system's lifelines for each
//! of its protocols (DecAMon; docs/language.md, section 4e), one JSON line
//! each:
//!
//! ```text
//! {"protocol": "aip1", "partition": [["alice", "carol"], ["bob"], ["dave"]]}
//! ```
//!
//! Groups and the names in them are sorted, and so are the lines of one
//! protocol. With `--why`, each line also says what keeps each group
//! together: the critical points (unique point of choice, connectedness
//! for sequence) it satisfies, with the two event types and where the
//! choice or concatenation is written, and the joins verification forced,
//! with the trace the finer partition misses.

use crate::compile::{compile_block, Block};
use crate::report;
use hindsight_compiler::analysis::partitions::{critical_points, reasons, safe_partitions};
use hindsight_compiler::diag::line_column;
use hindsight_compiler::hir;
use hindsight_compiler::ir::protocol::ProtocolTable;
use hindsight_trace::json::push_string;
use hindsight_trace::{EXIT_ERROR, EXIT_OK};
use std::io::{self, Write};
use std::path::PathBuf;

/// What `hindsight partitions` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionsOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The system block; the only block when `None`.
    pub block: Option<String>,
    /// The protocol; every protocol of the system when `None`.
    pub protocol: Option<String>,
    /// Whether to say why lifelines share a group.
    pub why: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &PartitionsOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(selected) = compile_block(&options.spec, &spec_name, options.block.as_deref()) else {
        return EXIT_ERROR;
    };
    let (Block::System(_), Some(tables)) = (selected.block, selected.system()) else {
        report::error(format_args!(
            "{spec_name}: partitions are of a system's lifelines for its protocols; choose a \
             system block with `--block NAME`"
        ));
        return EXIT_ERROR;
    };
    let Some(system) = selected.spec.systems.iter().find(|s| s.name == tables.name) else {
        return EXIT_ERROR;
    };
    let chosen: Vec<usize> = match options.protocol.as_deref() {
        None => (0..system.protocols.len()).collect(),
        Some(name) => match system.protocols.iter().position(|p| p.name == name) {
            Some(k) => vec![k],
            None => {
                let known: Vec<String> = system
                    .protocols
                    .iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect();
                report::error(format_args!(
                    "{spec_name}: system `{}` has no protocol `{name}` ({})",
                    system.name,
                    if known.is_empty() {
                        "it has none".to_string()
                    } else {
                        format!("its protocols: {}", known.join(", "))
                    }
                ));
                return EXIT_ERROR;
            }
        },
    };
    if chosen.is_empty() {
        report::error(format_args!(
            "{spec_name}: system `{}` declares no protocol",
            system.name
        ));
        return EXIT_ERROR;
    }
    let names: Vec<String> = system.lifelines.iter().map(|l| l.name.clone()).collect();
    let mut out = String::new();
    for k in chosen {
        let Some(table) = tables.protocols.get(k) else {
            continue;
        };
        let lines = Lines {
            system,
            k,
            table,
            names: &names,
            spec_name: &spec_name,
            source: &selected.source,
        };
        if let Err(diag) = lines.write(options.why, &mut out) {
            report::diagnostics(&spec_name, &selected.source, &[diag]);
            return EXIT_ERROR;
        }
    }
    match io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            report::error(format_args!("cannot write the partitions: {e}"));
            EXIT_ERROR
        }
    }
}

/// The lines of one protocol.
struct Lines<'a> {
    system: &'a hir::System,
    k: usize,
    table: &'a ProtocolTable,
    names: &'a [String],
    spec_name: &'a str,
    source: &'a str,
}

impl Lines<'_> {
    /// Appends one line per minimal safe partition to `out`.
    fn write(&self, why: bool, out: &mut String) -> Result<(), hindsight_compiler::diag::Diag> {
        let found = safe_partitions(self.system, self.k, self.table, self.names)?;
        let points = critical_points(self.system, self.k);
        let protocol = &self.table.name;
        for partition in found {
            out.push_str("{\"protocol\": ");
            push_string(out, protocol);
            out.push_str(", \"partition\": ");
            self.push_groups(&partition.groups, out);
            if why {
                out.push_str(", \"why\": [");
                let mut first = true;
                let mut item = |out: &mut String| {
                    if !std::mem::take(&mut first) {
                        out.push_str(", ");
                    }
                };
                for (lifelines, point) in reasons(&partition.groups, &points) {
                    item(out);
                    out.push_str("{\"together\": ");
                    let mut together: Vec<usize> = lifelines.clone();
                    together.sort_by(|a, b| self.names[*a].cmp(&self.names[*b]));
                    together.dedup();
                    self.push_names(&together, out);
                    out.push_str(", \"condition\": ");
                    push_string(out, point.condition.as_str());
                    out.push_str(", \"events\": ");
                    let events: Vec<String> =
                        point.events.iter().map(|e| e.text(self.names)).collect();
                    push_strings(&events, out);
                    let (line, column) = line_column(self.source, point.span.start);
                    out.push_str(", \"at\": ");
                    push_string(out, &format!("{}:{line}:{column}", self.spec_name));
                    out.push('}');
                }
                for (a, b, trace) in &partition.joins {
                    item(out);
                    out.push_str("{\"together\": ");
                    let mut together: Vec<usize> = a.iter().chain(b).copied().collect();
                    together.sort_by(|x, y| self.names[*x].cmp(&self.names[*y]));
                    self.push_names(&together, out);
                    out.push_str(", \"condition\": \"verified\", \"missed\": ");
                    let events: Vec<String> = trace
                        .iter()
                        .filter_map(|&e| self.table.events.get(e))
                        .map(|e| e.text(self.names))
                        .collect();
                    push_strings(&events, out);
                    out.push('}');
                }
                out.push(']');
            }
            out.push_str("}\n");
        }
        Ok(())
    }

    fn push_groups(&self, groups: &[Vec<usize>], out: &mut String) {
        out.push('[');
        for (k, group) in groups.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            self.push_names(group, out);
        }
        out.push(']');
    }

    fn push_names(&self, lifelines: &[usize], out: &mut String) {
        let names: Vec<String> = lifelines
            .iter()
            .filter_map(|&l| self.names.get(l).cloned())
            .collect();
        push_strings(&names, out);
    }
}

/// `["a", "b"]`.
fn push_strings(items: &[String], out: &mut String) {
    out.push('[');
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        push_string(out, item);
    }
    out.push(']');
}
