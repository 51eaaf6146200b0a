//! `hindsight explain SPEC [--block NAME]`: a human-readable report of what a
//! spec compiles to, for auditors and the docs — per monitor its table (slots,
//! state cells, automata with their states' verdicts and residuals), then one
//! summary line per property: past- or future-time, and for future-time ones
//! the automaton's size and atoms.

use crate::compile::{compile_spec, select_block};
use crate::report;
use hindsight_compiler::table::{Output, Source, Table};
use hindsight_compiler::Compiled;
use hindsight_trace::{EXIT_ERROR, EXIT_OK};
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

/// What `hindsight explain` was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainOptions {
    /// The spec file.
    pub spec: PathBuf,
    /// The monitor block to report on; every monitor when `None`.
    pub block: Option<String>,
}

/// Runs the command; returns the process exit status.
pub fn run(options: &ExplainOptions) -> u8 {
    let spec_name = options.spec.display().to_string();
    let Ok(spec) = compile_spec(&options.spec, &spec_name) else {
        return EXIT_ERROR;
    };
    let monitors: Vec<usize> = match options.block.as_deref() {
        Some(block) => match select_block(&spec.compiled, &spec.source, &spec_name, Some(block)) {
            Ok(index) => vec![index],
            Err(_) => return EXIT_ERROR,
        },
        None => (0..spec.compiled.tables.len()).collect(),
    };
    let text = render(&spec_name, &spec.compiled, &monitors, spec.compile_time);
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            report::error(format_args!("cannot write the report: {e}"));
            EXIT_ERROR
        }
    }
}

/// The report on the monitors `monitors` (indexes into `compiled.tables`) of
/// the spec `spec_name`, which took `compile_time` to compile.
pub fn render(
    spec_name: &str,
    compiled: &Compiled,
    monitors: &[usize],
    compile_time: Duration,
) -> String {
    let outputs = || compiled.tables.iter().flat_map(|t| &t.outputs);
    let future = outputs()
        .filter(|o| matches!(o.source, Source::Automaton(_)))
        .count();
    let total = outputs().count();
    let mut text = format!(
        "{spec_name}: {}, {} ({} past-time, {future} future-time), compiled in {:.3} ms\n",
        count(compiled.tables.len(), "monitor", "monitors"),
        count(total, "property", "properties"),
        total - future,
        compile_time.as_secs_f64() * 1000.0,
    );
    for table in monitors.iter().filter_map(|&k| compiled.tables.get(k)) {
        text.push('\n');
        text.push_str(&table.to_string());
        text.push_str("properties:\n");
        let width = table
            .outputs
            .iter()
            .map(|o| o.name.len())
            .max()
            .unwrap_or(0);
        for out in &table.outputs {
            let line = format!("  {:<width$}  {}", out.name, property_summary(table, out));
            text.push_str(line.trim_end());
            text.push('\n');
        }
    }
    text
}

/// `past-time: slot s4; explained by `a`, `b`` or
/// `future-time, with reset: 3 states, 12 transitions (3 states × 2^2 letters); atoms `a`, `b``.
fn property_summary(table: &Table, out: &Output) -> String {
    let texts: Vec<String> = out.parts.iter().map(|p| format!("`{}`", p.text)).collect();
    let texts = texts.join(", ");
    match out.source {
        Source::Slot(slot) => format!("past-time: slot s{slot}; explained by {texts}"),
        Source::Automaton(k) => {
            let reset = if out.reset { ", with reset" } else { "" };
            let Some(a) = table.automata.get(k) else {
                return format!("future-time{reset}: automaton a{k} missing");
            };
            let atoms = if a.atoms.is_empty() {
                "no atoms".to_string()
            } else {
                format!("atoms {texts}")
            };
            format!(
                "future-time{reset}: automaton a{k}, {}, {} ({} × 2^{} letters); {atoms}",
                count(a.states.len(), "state", "states"),
                count(a.transitions.len(), "transition", "transitions"),
                count(a.states.len(), "state", "states"),
                a.atoms.len(),
            )
        }
    }
}

/// `1 monitor`, `2 monitors`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
