//! The compiler pipeline as tests drive it: source text in, verdicts per step out.

use hindsight_compiler::hir::Value;
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::system::SystemTables;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::Verdict;
use hindsight_runtime::ResetCounts;

/// Compiles `source` (which must hold exactly one monitor and no errors) and runs
/// the interpreter over `trace`: one row of verdicts per step, then the `finish` row.
pub fn run(source: &str, trace: &[Vec<Value>]) -> (Vec<Vec<Verdict>>, Vec<Verdict>) {
    let (rows, end, _) = run_with_counts(source, trace);
    (rows, end)
}

/// [`run`], plus the decided verdicts each `with reset` property counted
/// (`finish_counts`: including the end verdict of its unfinished run).
pub fn run_with_counts(
    source: &str,
    trace: &[Vec<Value>],
) -> (Vec<Vec<Verdict>>, Vec<Verdict>, Vec<ResetCounts>) {
    let table = monitor_table(source);
    let mut interp = Interpreter::new(&table);
    let rows = trace
        .iter()
        .map(|step| interp.step(step).to_vec())
        .collect();
    (rows, interp.finish(), interp.counts())
}

/// The table of the first monitor of `source`, which must compile.
pub fn monitor_table(source: &str) -> Table {
    let rendered = |d: &[hindsight_compiler::diag::Diag]| {
        hindsight_compiler::diag::render("spec.hind", source, d)
    };
    let file = hindsight_grammar::parse(source).unwrap_or_else(|d| panic!("{}", rendered(&d)));
    let (spec, diags) = hindsight_compiler::check::check(&file);
    let spec = spec.unwrap_or_else(|| panic!("{}", rendered(&diags)));
    let monitor = &spec.monitors[0];
    hindsight_compiler::lower::lower(&spec, monitor, &mut Default::default())
        .unwrap_or_else(|d| panic!("{}", rendered(&d)))
}

/// The tables of the one system of `source`, which must compile.
pub fn system_tables(source: &str) -> SystemTables {
    let compiled = hindsight_compiler::compile(source).expect("compiles");
    let mut systems = compiled.program.systems.into_iter();
    systems.next().expect("one system")
}

/// `true`/`false` steps as a trace over the given number of bool inputs, written
/// one string per input, e.g. `["1001", "0110"]` for inputs `a`, `b` over 4 steps.
pub fn bool_trace(columns: &[&str]) -> Vec<Vec<Value>> {
    let len = columns.first().map_or(0, |c| c.len());
    (0..len)
        .map(|i| {
            columns
                .iter()
                .map(|c| Value::Bool(c.as_bytes()[i] == b'1'))
                .collect()
        })
        .collect()
}

/// The verdicts of property `k` over all steps, as a `0`/`1` string.
pub fn column(rows: &[Vec<Verdict>], k: usize) -> String {
    rows.iter()
        .map(|r| match r[k] {
            Verdict::True => '1',
            Verdict::False => '0',
            Verdict::Unknown => '?',
        })
        .collect()
}
