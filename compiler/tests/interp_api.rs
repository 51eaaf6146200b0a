//! The interpreter's API: finish, reset, steps, fixed buffers, values and odd inputs.

use crate::interp_support::*;

use hindsight_compiler::hir::{ArithOp, CmpOp, Ty, Value};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::Verdict;

#[test]
fn finish_is_unknown_on_an_empty_trace_and_the_last_step_otherwise() {
    let table = table_pq(o(p()));
    let mut it = Interpreter::new(&table);
    assert_eq!(it.finish(), &[Verdict::Unknown]);
    assert_eq!(it.steps(), 0);
    assert_eq!(
        it.step(&[Value::Bool(false), Value::Bool(false)]),
        &[Verdict::False]
    );
    assert_eq!(it.finish(), &[Verdict::False]);
    assert_eq!(
        it.step(&[Value::Bool(true), Value::Bool(false)]),
        &[Verdict::True]
    );
    assert_eq!(it.finish(), &[Verdict::True]);
    assert_eq!(it.steps(), 2);
}

#[test]
fn reset_returns_to_the_initial_state() {
    // Y p, O[3,3] p and H[0,2] p all depend on state; after reset the same trace
    // must give the same verdicts as a fresh interpreter.
    let table = p_table(vec![y(p()), ob(3, Some(3), p()), hb(0, Some(2), p())]);
    let trace = [true, false, true, true, false];
    let mut it = Interpreter::new(&table);
    let first: Vec<Vec<Verdict>> = trace
        .iter()
        .map(|&b| it.step(&[Value::Bool(b)]).to_vec())
        .collect();
    it.reset();
    assert_eq!(it.steps(), 0);
    assert_eq!(it.finish(), &[Verdict::Unknown; 3]);
    let second: Vec<Vec<Verdict>> = trace
        .iter()
        .map(|&b| it.step(&[Value::Bool(b)]).to_vec())
        .collect();
    assert_eq!(first, second);
    // Hand-checked: p 1 0 1 1 0; Y p 0 1 0 1 1; O[3,3] p 0 0 0 1 0; H[0,2] p 1 0 0 0 0.
    let col = |k: usize| -> String {
        first
            .iter()
            .map(|v| if v[k] == Verdict::True { '1' } else { '0' })
            .collect()
    };
    assert_eq!(col(0), "01011");
    assert_eq!(col(1), "00010");
    assert_eq!(col(2), "10000");
}

#[test]
fn step_keeps_its_buffers() {
    let table = table_pq(and(sb(2, Some(9), q(), p()), ob(70, None, p())));
    let mut it = Interpreter::new(&table);
    let ptr = it.slot_values().as_ptr();
    let len = it.slot_values().len();
    assert_eq!(len, table.slots.len());
    for i in 0..200 {
        it.step(&[Value::Bool(i % 3 == 0), Value::Bool(i % 5 != 0)]);
        assert_eq!(it.slot_values().as_ptr(), ptr);
        assert_eq!(it.slot_values().len(), len);
    }
    assert_eq!(table.slots.len(), len);
}

#[test]
fn arithmetic_and_comparisons() {
    // x + 1 > 2 * y with x, y ints; and -x == y.
    let x = || input(0, Ty::Int);
    let yv = || input(1, Ty::Int);
    let gt = cmp(
        CmpOp::Gt,
        arith(ArithOp::Add, x(), konst(Value::Int(1))),
        arith(ArithOp::Mul, konst(Value::Int(2)), yv()),
    );
    let negeq = cmp(CmpOp::Eq, neg(x()), yv());
    let m = monitor(
        "m",
        &[("x", Ty::Int), ("y", Ty::Int)],
        vec![("gt", gt, false), ("negeq", negeq, false)],
    );
    let table = lowered(&m);
    let mut it = Interpreter::new(&table);
    // x=3, y=1: 4 > 2 true; -3 == 1 false.
    assert_eq!(
        it.step(&[Value::Int(3), Value::Int(1)]),
        &[Verdict::True, Verdict::False]
    );
    // x=3, y=2: 4 > 4 false; -3 == 2 false.
    assert_eq!(
        it.step(&[Value::Int(3), Value::Int(2)]),
        &[Verdict::False, Verdict::False]
    );
    // x=-5, y=5: -4 > 10 false; 5 == 5 true.
    assert_eq!(
        it.step(&[Value::Int(-5), Value::Int(5)]),
        &[Verdict::False, Verdict::True]
    );
    // Wrapping: x = i64::MAX: MAX + 1 wraps to MIN, MIN > 0 false; -MAX == MIN + 1.
    assert_eq!(
        it.step(&[Value::Int(i64::MAX), Value::Int(0)]),
        &[Verdict::False, Verdict::False]
    );
    assert_eq!(
        it.step(&[Value::Int(i64::MAX), Value::Int(i64::MIN + 1)]),
        &[Verdict::False, Verdict::True]
    );
}

#[test]
fn floats_and_enums() {
    let f = || input(0, Ty::Float);
    let e = || input(1, Ty::Enum(0));
    let le = cmp(
        CmpOp::Le,
        arith(ArithOp::Sub, f(), konst(Value::Float(0.5))),
        konst(Value::Float(1.0)),
    );
    let ne = cmp(CmpOp::Ne, f(), f());
    let is2 = cmp(CmpOp::Eq, e(), konst(Value::Enum(2)));
    let m = monitor(
        "m",
        &[("f", Ty::Float), ("e", Ty::Enum(0))],
        vec![("le", le, false), ("ne", ne, false), ("is2", is2, false)],
    );
    let table = lowered(&m);
    let mut it = Interpreter::new(&table);
    use Verdict::{False as F, True as T};
    // 1.5 - 0.5 <= 1.0 true; f != f false; variant 2 == 2 true.
    assert_eq!(it.step(&[Value::Float(1.5), Value::Enum(2)]), &[T, F, T]);
    // 1.75 - 0.5 <= 1 false; variant 1.
    assert_eq!(it.step(&[Value::Float(1.75), Value::Enum(1)]), &[F, F, F]);
    // NaN: every ordering is false, NaN != NaN is true.
    assert_eq!(
        it.step(&[Value::Float(f64::NAN), Value::Enum(2)]),
        &[F, T, T]
    );
}

#[test]
fn wrong_or_missing_inputs_read_as_defaults() {
    // p && !q over inputs given with the wrong types or not at all: p reads false.
    let table = table_pq(or(p(), not(q())));
    let mut it = Interpreter::new(&table);
    // p wrong type (false), q = false -> !q true.
    assert_eq!(
        it.step(&[Value::Int(1), Value::Bool(false)]),
        &[Verdict::True]
    );
    // nothing given: p false, q false -> true.
    assert_eq!(it.step(&[]), &[Verdict::True]);
    // q given as a float: reads false -> true; p true anyway.
    assert_eq!(
        it.step(&[Value::Bool(false), Value::Float(1.0)]),
        &[Verdict::True]
    );
    // extra inputs are ignored: p false, q true -> false.
    assert_eq!(
        it.step(&[Value::Bool(false), Value::Bool(true), Value::Bool(true)]),
        &[Verdict::False]
    );
}

#[test]
fn outputs_follow_declaration_order() {
    let m = p_monitor(vec![("b", not(p()), false), ("a", p(), true)]);
    let table = lowered(&m);
    assert_eq!(
        table
            .outputs
            .iter()
            .map(|o| o.name.as_str())
            .collect::<Vec<_>>(),
        ["b", "a"]
    );
    // `with reset` has no effect on a past-time property, so lowering drops it.
    assert!(!table.outputs[0].reset && !table.outputs[1].reset);
    let mut it = Interpreter::new(&table);
    assert_eq!(
        it.step(&[Value::Bool(true)]),
        &[Verdict::False, Verdict::True]
    );
}
