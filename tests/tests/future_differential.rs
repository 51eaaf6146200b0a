//! Random future-time formulas and traces: parser + checker + lowering (LTL3
//! automata) + interpreter against the oracle of `hindsight_tests::ltl`, at every
//! step — the LTL3 verdict by brute force over lasso continuations, the
//! finite-trace verdict by the direct LTLf evaluator, and `with reset` runs
//! restarted by hand.
//!
//! Formulas whose only atoms are inputs must agree exactly. Formulas with past
//! sub-formulas may be less decisive: the automaton treats each past sub-formula
//! as a letter independent of the inputs, so it may say `?` where the
//! correlation already forces a verdict — never a wrong decided verdict. End
//! verdicts must agree exactly in both cases (the LTLf value of a formula only
//! depends on the atoms' values along the trace, which the automaton reads).

use std::cell::Cell;
use std::collections::HashMap;

use crate::common::deterministic_runner;
use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{Expr, ExprKind, Value};
use hindsight_compiler::Verdict;
use hindsight_runtime::ResetCounts;
use hindsight_tests::gen::{counted_future_formula, future_formula, FutureSpec};
use hindsight_tests::ltl::{holds_finite, ltl3, Continuations};
use hindsight_tests::pipeline::{bool_trace, monitor_table, run, run_with_counts};
use hindsight_tests::reference::Step;
use proptest::prelude::*;

/// Random formulas per test, and the longest trace.
const CASES: u32 = 1500;
const MAX_TRACE: usize = 5;

/// The continuations the oracle tries, by the number of inputs the formula
/// reads: every stem and cycle up to 3 steps over 1 or 2 inputs (7,140
/// continuations over 2), up to 2 steps over all 3 (5,256).
fn continuations(inputs: &[usize]) -> Continuations {
    let letters: Vec<Step> = (0..1usize << inputs.len())
        .map(|l| {
            let mut step = vec![Value::Bool(false); 3];
            for (bit, &k) in inputs.iter().enumerate() {
                step[k] = Value::Bool(l >> bit & 1 == 1);
            }
            step
        })
        .collect();
    let size = if inputs.len() <= 2 { 3 } else { 2 };
    Continuations::new(&letters, size, size)
}

/// The inputs `e` reads, in index order.
fn inputs_of(e: &Expr) -> Vec<usize> {
    fn walk(e: &Expr, seen: &mut [bool; 3]) {
        match &e.kind {
            ExprKind::Input(k) => seen[*k] = true,
            ExprKind::Not(a) | ExprKind::Unary(_, _, a) => walk(a, seen),
            ExprKind::Bool(_, a, b) | ExprKind::Binary(_, _, a, b) => {
                walk(a, seen);
                walk(b, seen);
            }
            _ => {}
        }
    }
    let mut seen = [false; 3];
    walk(e, &mut seen);
    (0..3).filter(|&k| seen[k]).collect()
}

/// The steps as bit sets of `p q r`.
fn letters(steps: &[Step]) -> Vec<u8> {
    let bits = |step: &Step| (0..3).fold(0, |l, k| l | u8::from(step[k].as_bool()) << k);
    steps.iter().map(bits).collect()
}

/// Whether `e` has a past operator.
fn has_past(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Not(a) => has_past(a),
        ExprKind::Bool(_, a, b) => has_past(a) || has_past(b),
        ExprKind::Unary(op, _, a) => {
            !matches!(
                op,
                UnaryTemporal::Next | UnaryTemporal::Eventually | UnaryTemporal::Globally
            ) || has_past(a)
        }
        ExprKind::Binary(op, _, a, b) => *op == BinaryTemporal::Since || has_past(a) || has_past(b),
        _ => false,
    }
}

/// How the tool's verdicts are held against the oracle's.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Equal at every step.
    Exact,
    /// A decided verdict of the tool is the oracle's; the oracle may decide earlier.
    Sound,
}

/// Counts over a test run: steps compared, and steps where the oracle decided
/// while the tool (soundly) said `?`.
#[derive(Default)]
struct Tally {
    steps: Cell<usize>,
    less_decisive: Cell<usize>,
}

/// Checks one formula over one trace: the plain property `f0` and the same
/// formula `with reset` as `f1`.
fn check(formula: &Expr, trace: &[Step], mode: Mode, tally: &Tally) -> Result<(), TestCaseError> {
    let spec = FutureSpec {
        properties: vec![(formula.clone(), false), (formula.clone(), true)],
    };
    let source = spec.source();
    let (rows, end, counts) = run_with_counts(&source, trace);
    let c = continuations(&inputs_of(formula));
    let compare = |tool: Verdict, oracle: Verdict, what: &str| -> Result<(), TestCaseError> {
        tally.steps.set(tally.steps.get() + 1);
        if tool == Verdict::Unknown && oracle != Verdict::Unknown && mode == Mode::Sound {
            tally.less_decisive.set(tally.less_decisive.get() + 1);
            return Ok(());
        }
        prop_assert_eq!(tool, oracle, "{} of {:?}\n{}", what, trace, source);
        Ok(())
    };

    // The LTL3 verdict at position j after steps 0..=i, remembered: the plain and
    // the reset property ask the same while the first run lasts, and without
    // past parts the verdict at j only depends on the steps from j on.
    let pure = !has_past(formula);
    let mut known: HashMap<(Vec<u8>, usize), Verdict> = HashMap::new();
    let mut oracle = |i: usize, j: usize| -> Verdict {
        let (steps, position) = if pure {
            (&trace[j..=i], 0)
        } else {
            (&trace[..=i], j)
        };
        *known
            .entry((letters(steps), position))
            .or_insert_with(|| ltl3(formula, steps, position, &c))
    };

    // The plain property: LTL3 at position 0 after each prefix (a decided
    // verdict stays: every continuation of a longer prefix continues the shorter).
    let mut verdict = Verdict::Unknown;
    for (i, row) in rows.iter().enumerate() {
        if verdict == Verdict::Unknown {
            verdict = oracle(i, 0);
        }
        compare(row[0], verdict, &format!("f0 at step {i}"))?;
    }
    let finite = Verdict::from(holds_finite(formula, trace, 0));
    prop_assert_eq!(end[0], finite, "f0 end of {:?}\n{}", trace, source);

    // With reset: each run starts where the tool's previous one was decided.
    let (mut start, mut expected) = (0, ResetCounts::default());
    for (i, row) in rows.iter().enumerate() {
        compare(
            row[1],
            ltl3(formula, &trace[..=i], start, &c),
            &format!("f1 at step {i} (run from {start})"),
        )?;
        if row[1] != Verdict::Unknown {
            expected.record(row[1]);
            start = i + 1;
        }
    }
    let end_of_run = if start < trace.len() {
        let v = Verdict::from(holds_finite(formula, trace, start));
        expected.record(v);
        v
    } else {
        rows[trace.len() - 1][1]
    };
    prop_assert_eq!(end[1], end_of_run, "f1 end of {:?}\n{}", trace, source);
    prop_assert_eq!(counts[1], expected, "f1 counts of {:?}\n{}", trace, source);
    Ok(())
}

/// A random trace of 1 to [`MAX_TRACE`] steps over `p q r`.
fn bool_steps() -> impl Strategy<Value = Vec<Step>> {
    let step = any::<[bool; 3]>().prop_map(|bits| bits.map(Value::Bool).to_vec());
    prop::collection::vec(step, 1..=MAX_TRACE)
}

/// Runs [`check`] on [`CASES`] seeded random formulas; returns the tally.
fn run_cases(with_past: bool, mode: Mode) -> Tally {
    run_formulas(future_formula(with_past), mode)
}

/// Runs [`check`] on [`CASES`] seeded random formulas from `formulas`.
fn run_formulas(formulas: impl Strategy<Value = Expr>, mode: Mode) -> Tally {
    let mut runner = deterministic_runner(CASES);
    let tally = Tally::default();
    let strategy = (formulas, bool_steps());
    if let Err(e) = runner.run(&strategy, |(f, trace)| check(&f, &trace, mode, &tally)) {
        panic!("{e}");
    }
    tally
}

/// Step windows in a deadline's shape (`G (p -> F[0,3] q)`, ...), which a
/// deadline counting steps monitors unless its operands are degenerate,
/// against the same oracle: exact over inputs, sound with past parts; most
/// of them do take the deadline.
#[test]
fn counted_windows_agree_with_the_oracle() {
    let tally = run_formulas(counted_future_formula(false), Mode::Exact);
    assert_eq!(tally.less_decisive.get(), 0);
    let tally = run_formulas(counted_future_formula(true), Mode::Sound);
    let (steps, less) = (tally.steps.get(), tally.less_decisive.get());
    assert!(less * 10 < steps, "{less} of {steps}");
    let mut runner = deterministic_runner(200);
    let deadlines = Cell::new(0);
    let strategy = counted_future_formula(true);
    runner
        .run(&strategy, |f| {
            let spec = FutureSpec {
                properties: vec![(f, false)],
            };
            let table = monitor_table(&spec.source());
            deadlines.set(deadlines.get() + usize::from(!table.timed.is_empty()));
            Ok(())
        })
        .unwrap();
    assert!(
        deadlines.get() > 120,
        "{} of 200 took a deadline",
        deadlines.get()
    );
}

#[test]
fn inputs_only_formulas_are_exact() {
    let tally = run_cases(false, Mode::Exact);
    assert_eq!(tally.less_decisive.get(), 0);
    println!("{} verdicts compared", tally.steps.get());
}

#[test]
fn formulas_with_past_parts_are_sound() {
    let tally = run_cases(true, Mode::Sound);
    let (steps, less) = (tally.steps.get(), tally.less_decisive.get());
    println!("{steps} verdicts compared, {less} where the oracle decided and the automaton said ?");
    // Mostly exact: the abstraction only bites on correlated atoms.
    assert!(less * 10 < steps, "{less} of {steps}");
}

/// The anticipatory examples of language.md, decided at step 0 whatever `p` is.
#[test]
fn anticipatory_examples_are_decided_at_step_0() {
    let cases = [
        ("F p && G !p", Verdict::False),
        ("X (p || !p)", Verdict::True),
        ("G F p && F G !p", Verdict::False),
    ];
    for (formula, expected) in cases {
        let source = format!("monitor m {{\n    input p: bool;\n    property f = {formula};\n}}\n");
        for p in ["0", "1"] {
            let (rows, _) = run(&source, &bool_trace(&[p]));
            assert_eq!(rows[0][0], expected, "{formula} on p = {p}");
        }
    }
}
