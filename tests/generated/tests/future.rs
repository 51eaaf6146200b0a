//! Generated code == interpreter on the random future-time specs (LTL3
//! automata, some properties `with reset`): the verdicts at every step, and
//! after every step the finite-trace verdicts and the reset counts the trace
//! would end with.

use crate::support::{assert_generated_for, report, traces_per_spec};
use hindsight_compiler::compile;
use hindsight_compiler::interp::Interpreter;
use hindsight_generated_tests::future::{monitors, SOURCES};
use hindsight_generated_tests::seeded::{future_specs, FUTURE_SPEC_COUNT};
use hindsight_runtime::Verdict;
use hindsight_tests::reference::Step;

/// Random traces per spec, and their longest length.
const TRACES_PER_SPEC: usize = 24;
const MAX_TRACE_LEN: usize = 16;

/// `TRACES_PER_SPEC` random traces for each of `count` specs, always the same ones.
fn traces(count: usize) -> Vec<Vec<Vec<Step>>> {
    let seed = b"hindsight: future traces, seeded";
    traces_per_spec(seed, count, TRACES_PER_SPEC, MAX_TRACE_LEN)
}

#[test]
fn the_generated_code_is_that_of_the_seeded_future_specs() {
    let specs = future_specs();
    let sources = specs.iter().map(|s| s.source());
    assert_generated_for(sources, FUTURE_SPEC_COUNT, &SOURCES, monitors().len());
    let properties = specs.iter().flat_map(|s| &s.properties);
    let reset = properties.clone().filter(|(_, reset)| *reset).count();
    assert!(
        reset > 30 && reset < properties.count() - 30,
        "{reset} reset properties"
    );
}

#[test]
fn generated_matches_interpreter_on_future_specs() {
    let mut monitors = monitors();
    let (mut decided, mut counted) = (0usize, 0u64);
    for ((source, monitor), traces) in SOURCES
        .iter()
        .zip(&mut monitors)
        .zip(traces(FUTURE_SPEC_COUNT))
    {
        let compiled = compile(source).expect("random specs compile");
        let n = compiled.program.monitors[0].outputs.len();
        for trace in &traces {
            monitor.reset();
            let mut interp = Interpreter::new(&compiled.program.monitors[0]);
            for (i, step) in trace.iter().enumerate() {
                let generated = report(monitor.as_mut(), step, n);
                let interpreted = report(&mut interp, step, n);
                assert_eq!(generated, interpreted, "step {i} of {trace:?}\n{source}");
                decided += generated
                    .verdicts
                    .iter()
                    .filter(|v| **v != Verdict::Unknown)
                    .count();
                counted += generated
                    .counts
                    .iter()
                    .map(|c| c.satisfactions + c.violations)
                    .sum::<u64>();
            }
        }
    }
    // The comparison saw decided verdicts and counted restarts, not only `?`.
    assert!(
        decided > 10_000 && counted > 10_000,
        "{decided} decided, {counted} counted"
    );
}

/// `peek` is `step` without the state change; `reset` restores `new()`.
#[test]
fn typed_api_of_future_monitors() {
    let mut typed = monitors();
    for (k, traces) in traces(FUTURE_SPEC_COUNT).iter().enumerate() {
        let typed = &mut typed[k];
        for step in &traces[0] {
            let before = typed.snapshot();
            let peeked = typed.peek_typed(step);
            assert!(
                typed.same_state(before.as_ref()),
                "peek changed the state\n{}",
                SOURCES[k]
            );
            assert_eq!(
                peeked,
                typed.step_typed(step),
                "peek != step\n{}",
                SOURCES[k]
            );
        }
        typed.reset_typed();
        assert!(
            typed.is_initial(),
            "reset did not restore new()\n{}",
            SOURCES[k]
        );
    }
}
