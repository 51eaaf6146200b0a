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
use hindsight_compiler::hir::{BoolOp, Expr, ExprKind, Ty, Value};
use hindsight_compiler::Verdict;
use hindsight_runtime::ResetCounts;
use hindsight_tests::gen::{counted_future_formula, future_formula, FutureSpec};
use hindsight_tests::ltl::{holds_finite, ltl3, Continuations};
use hindsight_tests::pipeline::{bool_trace, monitor_table, run, run_with_counts};
use hindsight_tests::reference::Step;
use hindsight_tests::surface::{printed, Leaves, ATOM};
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

/// A read-once Boolean formula over `inputs` (each read exactly once, so it
/// depends on every one of them and is never constant), shaped by `shape`:
/// where to split the list, which connective joins the halves and whether a
/// leaf is negated.
fn read_once(inputs: &[usize], shape: &mut impl Iterator<Item = u8>) -> Expr {
    let node = |kind| Expr {
        kind,
        ty: Ty::Bool,
        span: Default::default(),
    };
    let mut next = || shape.next().unwrap_or(0);
    if let [k] = inputs {
        let leaf = node(ExprKind::Input(*k));
        return if next() % 3 == 0 {
            node(ExprKind::Not(Box::new(leaf)))
        } else {
            leaf
        };
    }
    let split = 1 + usize::from(next()) % (inputs.len() - 1);
    let op = [BoolOp::And, BoolOp::Or, BoolOp::Implies, BoolOp::Iff][usize::from(next()) % 4];
    let (left, right) = inputs.split_at(split);
    let left = Box::new(read_once(left, shape));
    let right = Box::new(read_once(right, shape));
    node(ExprKind::Bool(op, left, right))
}

/// `e` with every input `k < 3` (`p q r`) replaced by `parts[k]`.
fn substitute(e: &Expr, parts: &[Expr]) -> Expr {
    let go = |x: &Expr| Box::new(substitute(x, parts));
    let kind = match &e.kind {
        ExprKind::Input(k) => return parts[*k].clone(),
        ExprKind::Not(a) => ExprKind::Not(go(a)),
        ExprKind::Bool(op, a, b) => ExprKind::Bool(*op, go(a), go(b)),
        ExprKind::Unary(op, bound, a) => ExprKind::Unary(*op, *bound, go(a)),
        ExprKind::Binary(op, bound, a, b) => ExprKind::Binary(*op, *bound, go(a), go(b)),
        other => other.clone(),
    };
    Expr { kind, ..e.clone() }
}

/// Inputs written `x0`, `x1`, ...; the constants of the formulas.
struct Xs;

impl Leaves for Xs {
    fn leaf(&self, e: &Expr, _here: usize) -> Option<(String, u8)> {
        match &e.kind {
            ExprKind::Input(k) => Some((format!("x{k}"), ATOM)),
            ExprKind::Const(Value::Bool(b)) => Some((b.to_string(), ATOM)),
            _ => None,
        }
    }
}

/// A future formula over `p q r` whose `p q r` are Boolean formulas over 7
/// or 13 inputs: parts of it read more atoms than one automaton reads, so the
/// compiler folds connectives into single atoms (issue 20). Disjoint
/// read-once parts fold exactly: the verdicts over the inputs are the
/// oracle's LTL3 verdicts over the parts' values, at every step. Parts of 13
/// inputs that share 12 fold too (every maximal connective, read as
/// independent letters): a decided verdict is the oracle's, which may decide
/// earlier. End verdicts agree exactly in both cases.
fn check_folded(
    formula: &Expr,
    shared: bool,
    shape: &[u8],
    values: &[Vec<bool>],
    tally: &Tally,
) -> Result<(), TestCaseError> {
    let mut shape = shape.iter().copied().cycle();
    let inputs = if shared { 14 } else { 21 };
    let parts: Vec<Expr> = (0..3)
        .map(|k| {
            let mut mine: Vec<usize> = if shared {
                (0..13).map(|j| (j + k) % 14).collect()
            } else {
                (7 * k..7 * k + 7).collect()
            };
            let turn = usize::from(shape.next().unwrap_or(0)) % mine.len();
            mine.rotate_left(turn);
            read_once(&mine, &mut shape)
        })
        .collect();
    let folded = substitute(formula, &parts);
    let mut source = String::from("monitor folded {\n");
    for k in 0..inputs {
        source += &format!("    input x{k}: bool;\n");
    }
    let text = printed(&Xs, &folded, 0).expect("printable").0;
    source += &format!("    property f0 = {text};\n}}\n");
    let trace: Vec<Step> = values
        .iter()
        .map(|step| step[..inputs].iter().map(|&b| Value::Bool(b)).collect())
        .collect();
    // The oracle reads the parts' values as the letters p q r.
    let letters: Vec<Step> = trace
        .iter()
        .map(|step| {
            parts
                .iter()
                .map(|part| Value::Bool(holds_finite(part, std::slice::from_ref(step), 0)))
                .collect()
        })
        .collect();
    let (rows, end) = run(&source, &trace);
    let c = continuations(&inputs_of(formula));
    let mut verdict = Verdict::Unknown;
    for (i, row) in rows.iter().enumerate() {
        if verdict == Verdict::Unknown {
            verdict = ltl3(formula, &letters[..=i], 0, &c);
        }
        tally.steps.set(tally.steps.get() + 1);
        if shared && row[0] == Verdict::Unknown && verdict != Verdict::Unknown {
            tally.less_decisive.set(tally.less_decisive.get() + 1);
            continue;
        }
        prop_assert_eq!(row[0], verdict, "step {} of {:?}\n{}", i, letters, source);
    }
    let finite = Verdict::from(holds_finite(formula, &letters, 0));
    prop_assert_eq!(end[0], finite, "end of {:?}\n{}", letters, source);
    Ok(())
}

#[test]
fn folded_boolean_parts_agree_with_the_oracle() {
    for shared in [false, true] {
        let mut runner = deterministic_runner(300);
        let tally = Tally::default();
        let step = prop::collection::vec(any::<bool>(), 21);
        let strategy = (
            future_formula(false),
            prop::collection::vec(any::<u8>(), 64),
            prop::collection::vec(step, 1..=MAX_TRACE),
        );
        if let Err(e) = runner.run(&strategy, |(f, shape, values)| {
            check_folded(&f, shared, &shape, &values, &tally)
        }) {
            panic!("{e}");
        }
        let (steps, less) = (tally.steps.get(), tally.less_decisive.get());
        assert!(less * 10 < steps, "shared {shared}: {less} of {steps}");
    }
}

/// `F (p && q) && G !p` cannot hold, so exact LTL3 says `false` at once.
/// With `p` and `q` over 7 inputs each the property reads 14 atoms; `p` and
/// `q` fold exactly, while folding `p && q` would hide that it needs `p`
/// (it would read `?` until the end). When every part of `q` reads an input
/// of `p`, nothing folds exactly: every maximal connective is folded, `p &&
/// q` among them, and the verdict waits for the end of the trace.
#[test]
fn exact_folds_keep_what_the_property_reads_twice() {
    let p = "(x0 || x1) && (x2 -> x3 && (x4 <-> x5) || x6)";
    let q = "(x7 && x8 || !x9) && (x10 || x11 || x12 && x13)";
    // Every part of this `q` reads an input of `p`: nothing folds exactly.
    let shared_q = "(x7 || x0) && (x8 || x1) && (x9 || x2) && (x10 || x3) && (x11 || x4) && (x12 || x5) && (x6 || x7)";
    let spec = |q: &str| {
        let inputs: String = (0..14)
            .map(|k| format!("    input x{k}: bool;\n"))
            .collect();
        format!("monitor m {{\n{inputs}    property f = F (({p}) && ({q})) && G !({p});\n}}\n")
    };
    let trace = vec![vec![Value::Bool(false); 14]; 3];
    let (rows, end) = run(&spec(q), &trace);
    assert_eq!(hindsight_tests::pipeline::column(&rows, 0), "000");
    assert_eq!(end[0], Verdict::False);
    let (rows, end) = run(&spec(shared_q), &trace);
    assert_eq!(hindsight_tests::pipeline::column(&rows, 0), "???");
    assert_eq!(end[0], Verdict::False);
}
