//! Generated code == interpreter == reference evaluator, at every step of random
//! traces over the random specs whose code the build script generated.

use crate::support::{assert_generated_for, traces_per_spec};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::{compile, Verdict};
use hindsight_generated_tests::random::{monitors, SOURCES};
use hindsight_generated_tests::seeded::{specs, SPEC_COUNT};
use hindsight_tests::reference::{eval, Step};

/// Random traces per spec, and their longest length.
const TRACES_PER_SPEC: usize = 16;
const MAX_TRACE_LEN: usize = 24;

/// `TRACES_PER_SPEC` random traces for each of `count` specs, always the same ones.
fn traces(count: usize) -> Vec<Vec<Vec<Step>>> {
    let seed = b"hindsight: random traces, seeded";
    traces_per_spec(seed, count, TRACES_PER_SPEC, MAX_TRACE_LEN)
}

/// The finite-trace verdicts of a past-time monitor: the last step's, or all
/// `Unknown` for an empty trace.
fn expected_finish(rows: &[Vec<Verdict>], properties: usize) -> Vec<Verdict> {
    rows.last()
        .cloned()
        .unwrap_or_else(|| vec![Verdict::Unknown; properties])
}

#[test]
fn the_generated_code_is_that_of_the_seeded_specs() {
    let specs = specs();
    let sources = specs.iter().map(|s| s.source());
    assert_generated_for(sources, SPEC_COUNT, &SOURCES, monitors().len());
}

#[test]
fn generated_matches_interpreter_and_reference() {
    let specs = specs();
    let mut monitors = monitors();
    for ((spec, monitor), traces) in specs.iter().zip(&mut monitors).zip(traces(SPEC_COUNT)) {
        let source = spec.source();
        let compiled = compile(&source).expect("random specs compile");
        let properties = spec.inlined();
        let mut verdicts = vec![Verdict::Unknown; properties.len()];
        for trace in &traces {
            monitor.reset();
            let mut interp = Interpreter::new(&compiled.program.monitors[0]);
            let mut rows = Vec::new();
            for (i, step) in trace.iter().enumerate() {
                monitor.step_values(step, &mut verdicts);
                assert_eq!(
                    verdicts,
                    interp.step(step),
                    "step {i} of {trace:?}\n{source}"
                );
                for (k, p) in properties.iter().enumerate() {
                    let reference = Verdict::from(eval(p, trace, i).as_bool());
                    assert_eq!(
                        verdicts[k], reference,
                        "f{k}, step {i} of {trace:?}\n{source}"
                    );
                }
                rows.push(verdicts.clone());
            }
            monitor.finish_values(&mut verdicts);
            assert_eq!(verdicts, interp.finish(), "finish of {trace:?}\n{source}");
            assert_eq!(verdicts, expected_finish(&rows, properties.len()));
        }
    }
}

/// The typed API (`step`, `peek`, `finish`, `reset`) of every generated monitor
/// agrees with its `StepMonitor` face; `peek` changes nothing.
#[test]
fn typed_api_peek_finish_and_reset() {
    let mut typed = monitors();
    let mut untyped = monitors();
    for (k, traces) in traces(SPEC_COUNT).iter().enumerate() {
        let (typed, untyped) = (&mut typed[k], &mut untyped[k]);
        let source = SOURCES[k];
        let properties = typed.finish_typed().len();
        assert_eq!(typed.finish_typed(), vec![Verdict::Unknown; properties]);
        let mut verdicts = vec![Verdict::Unknown; properties];
        for trace in traces.iter().take(2) {
            let mut rows = Vec::new();
            for step in trace {
                let before = typed.snapshot();
                let peeked = typed.peek_typed(step);
                assert!(
                    typed.same_state(before.as_ref()),
                    "peek changed the state\n{source}"
                );
                let stepped = typed.step_typed(step);
                assert_eq!(peeked, stepped, "peek != step\n{source}");
                untyped.step_values(step, &mut verdicts);
                assert_eq!(stepped, verdicts, "typed != StepMonitor\n{source}");
                rows.push(stepped);
            }
            assert_eq!(typed.finish_typed(), expected_finish(&rows, properties));
            typed.reset_typed();
            assert!(typed.is_initial(), "reset did not restore new()\n{source}");
            untyped.reset();
            assert!(
                untyped.is_initial(),
                "StepMonitor::reset did not restore new()\n{source}"
            );
        }
    }
}
