//! Generated code == interpreter == reference on the random timed specs
//! (duration bounds in past-time properties, timed future-time properties,
//! some `with reset`), over random timestamped traces with equal times,
//! half seconds and long gaps: after every step the verdicts, the
//! finite-trace verdicts and the reset counts the trace would end with.

use crate::support::{assert_generated_for, report, Report};
use hindsight_compiler::compile;
use hindsight_compiler::interp::Interpreter;
use hindsight_generated_tests::seeded::{draws, timed_specs, TIMED_SPEC_COUNT};
use hindsight_generated_tests::timed::{monitors, SOURCES};
use hindsight_runtime::Verdict;
use hindsight_tests::gen::timed_trace;
use hindsight_tests::timed::expected;

/// Random traces per spec (so 2,400 cases), and their longest length.
const TRACES_PER_SPEC: usize = 40;
const MAX_TRACE_LEN: usize = 14;

#[test]
fn generated_matches_interpreter_and_reference_on_timed_specs() {
    let specs = timed_specs();
    assert_generated_for(
        specs.iter().map(|s| s.source()),
        TIMED_SPEC_COUNT,
        &SOURCES,
        monitors().len(),
    );
    let traces = draws(
        &timed_trace(MAX_TRACE_LEN),
        b"hindsight: timed traces, seeded.",
        TIMED_SPEC_COUNT * TRACES_PER_SPEC,
    );
    let mut monitors = monitors();
    let (mut cases, mut decided) = (0usize, 0usize);
    for (k, (spec, monitor)) in specs.iter().zip(&mut monitors).enumerate() {
        let source = &SOURCES[k];
        let compiled = compile(source).expect("random timed specs compile");
        let table = &compiled.program.monitors[0];
        let n = table.outputs.len();
        for trace in &traces[k * TRACES_PER_SPEC..(k + 1) * TRACES_PER_SPEC] {
            cases += 1;
            monitor.reset();
            let mut interp = Interpreter::new(table);
            let reference = expected(&spec.properties, trace);
            for (i, step) in trace.iter().enumerate() {
                let generated = report(monitor.as_mut(), step, n);
                let interpreted = report(&mut interp, step, n);
                assert_eq!(generated, interpreted, "step {i} of {trace:?}\n{source}");
                let wanted = Report {
                    verdicts: reference.iter().map(|column| column[i].0).collect(),
                    finish: reference.iter().map(|column| column[i].1).collect(),
                    counts: reference.iter().map(|column| column[i].2).collect(),
                };
                assert_eq!(generated, wanted, "step {i} of {trace:?}\n{source}");
                decided += generated
                    .verdicts
                    .iter()
                    .filter(|v| **v != Verdict::Unknown)
                    .count();
            }
        }
    }
    assert!(
        cases >= 2_000 && decided > 10_000,
        "{cases} cases, {decided} decided"
    );
}
