//! Random population specs (source text: parser + checker + population
//! lowering + interpreter) against the reference evaluator of
//! `hindsight_tests::population::reference`, on random traces: every step's
//! verdicts, the end verdicts and the `with reset` counts must be equal.
//!
//! The reference treats the atoms of future-time formulas as free letters in
//! continuations, exactly the abstraction the implementation's automata make,
//! so equality is exact (not just soundness).

use crate::common::deterministic_runner;
use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::Verdict;
use hindsight_runtime::ResetCounts;
use hindsight_tests::population::gen::{case, RandomPopulation};
use hindsight_tests::population::{verdicts_with_counts, PopStep, PopTrace, Verdicts};
use proptest::prelude::*;

/// Random cases per run: keeps the test within a few seconds in debug builds.
const CASES: u32 = 400;

/// Compiles `source` and runs the interpreter of its only population over `trace`.
fn interpret(source: &str, trace: &PopTrace) -> (hindsight_compiler::hir::Spec, Verdicts) {
    let compiled = hindsight_compiler::compile(source).unwrap_or_else(|d| {
        panic!(
            "{}",
            hindsight_compiler::diag::render("spec.hind", source, &d)
        )
    });
    let tables = &compiled.program.populations[0];
    let mut interp = PopulationInterpreter::new(tables);
    let steps = trace
        .steps
        .iter()
        .map(|s| {
            interp
                .step(trace.agents, &s.attributes, &s.globals)
                .expect("a valid step")
                .to_vec()
        })
        .collect();
    let end = interp.finish();
    let counts = interp.counts();
    (compiled.spec, Verdicts { steps, end, counts })
}

/// The interpreter's and the reference's verdicts on `source` over `trace`.
fn tool_and_oracle(source: &str, trace: &PopTrace) -> (Verdicts, Verdicts) {
    let (hir, tool) = interpret(source, trace);
    let oracle = verdicts_with_counts(&hir, &hir.populations[0], trace);
    (tool, oracle)
}

/// The reference's verdicts on `source` over `trace`, after asserting that
/// it and the interpreter give `expected` at every step.
fn both_give(source: &str, trace: &PopTrace, expected: &[Vec<Verdict>]) -> Verdicts {
    let (tool, oracle) = tool_and_oracle(source, trace);
    assert_eq!(oracle.steps, expected, "the reference");
    assert_eq!(tool.steps, expected, "the interpreter");
    oracle
}

/// Interpreter and reference on one case.
fn check(spec: &RandomPopulation, trace: &PopTrace) -> Result<(), TestCaseError> {
    let source = spec.source();
    let (tool, oracle) = tool_and_oracle(&source, trace);
    prop_assert_eq!(&tool.steps, &oracle.steps, "steps\n{}{:?}", source, trace);
    prop_assert_eq!(&tool.end, &oracle.end, "end\n{}{:?}", source, trace);
    prop_assert_eq!(
        &tool.counts,
        &oracle.counts,
        "counts\n{}{:?}",
        source,
        trace
    );
    Ok(())
}

#[test]
fn interpreter_equals_reference() {
    let mut runner = deterministic_runner(CASES);
    if let Err(e) = runner.run(&case(), |(spec, trace)| check(&spec, &trace)) {
        panic!("{e}");
    }
}

/// A hand-made trace over bool attributes `x` (and `y`): one string per agent
/// per attribute, e.g. `[["101"], ["011"]]` for two agents over three steps.
fn bool_trace(agents: &[&[&str]]) -> PopTrace {
    let len = agents[0][0].len();
    let steps = (0..len)
        .map(|i| PopStep {
            attributes: agents
                .iter()
                .flat_map(|attrs| {
                    attrs
                        .iter()
                        .map(move |a| hindsight_compiler::Value::Bool(a.as_bytes()[i] == b'1'))
                })
                .collect(),
            globals: vec![],
        })
        .collect();
    PopTrace {
        agents: agents.len(),
        steps,
    }
}

/// The oracle catches a deliberate bug: membership evaluated at the previous
/// step instead of the current one. `exists a in g0: a.x` with
/// `g0 = agents where y`, on agent 0 (x: 11, y: 01) — a member only at step 1,
/// where x holds — is false then true. An implementation with the bug behaves
/// like the correct one on the predicate `Y y` (y at the previous step); its
/// output differs from the reference's, so the differential test would fail.
#[test]
fn membership_at_the_wrong_step_is_caught() {
    let source = "population m {\n    agent { x: bool, y: bool }\n    group g0 = agents where y;\n    property p = exists a in g0: a.x;\n}\n";
    let trace = bool_trace(&[&["11", "01"]]);
    let expected = [vec![Verdict::False], vec![Verdict::True]];
    let oracle = both_give(source, &trace, &expected);
    assert_eq!(oracle.counts, vec![ResetCounts::default()]);
    let (_, buggy) = interpret(&source.replace("where y", "where Y y"), &trace);
    assert_eq!(
        buggy.steps,
        vec![vec![Verdict::False], vec![Verdict::False]]
    );
    assert_ne!(buggy.steps, oracle.steps);
}

/// Found by [`interpreter_equals_reference`] (minimized): a quantifier over a
/// future-time body in stratum 0 must keep its members' verdicts when a later
/// stratum (here the nested `exists b`) steps. One agent with `x` false:
/// `exists a in agents: a.x U a.x` is false at step 0.
#[test]
fn future_quantifier_survives_a_later_stratum() {
    let source = "population m {\n    agent { x: bool, y: bool }\n    property p0 = exists a in agents: a.x U a.x;\n    property p1 = exists a in agents: (exists b in agents: b.y);\n}\n";
    let trace = bool_trace(&[&["0", "0"]]);
    both_give(source, &trace, &[vec![Verdict::False, Verdict::False]]);
}
