//! The machine-code back end (`hindsight-jit`) against the interpreter: the
//! same verdicts at every step and at the end, on random past-time specs over
//! every type (with missing, mistyped, NaN and out-of-range inputs) and random
//! future-time specs (`with reset` ones counting the same); and a clear
//! refusal for what it does not compile.

use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::{Value, Verdict};
use hindsight_jit::JitMonitor;
use hindsight_runtime::ResetCounts;
use hindsight_tests::gen::{
    counted_future_formula, future_spec, random_spec, timed_future_formula, timed_trace, trace,
    FutureSpec, TimedSpec,
};
use hindsight_tests::pipeline::monitor_table;
use hindsight_tests::reference::Step;
use proptest::prelude::*;

/// Runs both back ends over `trace`; the first step (or the end) where they
/// differ. A spec the JIT refuses is skipped when `refusal` names why (a
/// deadline), and fails the test otherwise.
fn compare(source: &str, trace: &[Step], refusal: Option<&str>) -> Result<(), TestCaseError> {
    let table = monitor_table(source);
    let mut interp = Interpreter::new(&table);
    let mut jit = match JitMonitor::new(&table) {
        Ok(jit) => jit,
        Err(e) if refusal.is_some_and(|r| e.0.contains(r)) => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("{e}\n{source}"))),
    };
    let (mut batched, mut wide) = (jit.clone(), jit.clone());
    let mut verdicts = vec![Verdict::Unknown; table.outputs.len()];
    let mut expected = Vec::with_capacity(trace.len());
    for (i, step) in trace.iter().enumerate() {
        jit.step(step, &mut verdicts);
        let interpreted = interp.step(step).to_vec();
        prop_assert_eq!(
            &interpreted,
            &verdicts,
            "step {}: {:?}\n{}",
            i,
            step,
            source
        );
        expected.push(interpreted);
    }
    jit.finish(&mut verdicts);
    prop_assert_eq!(&interp.finish(), &verdicts, "end\n{}", source);
    let mut counts = vec![ResetCounts::default(); table.outputs.len()];
    jit.counts(&mut counts);
    prop_assert_eq!(&interp.counts(), &counts, "counts\n{}", source);

    // The same steps in rows of 1, 2, 3, 5 and 8 steps, one call each
    // (short steps padded with a value of the wrong type: the default too).
    let width = table.inputs.len();
    let mut k = 0;
    for rows in [1, 2, 3, 5, 8].into_iter().cycle() {
        let Some(steps) = trace
            .get(k..(k + rows).min(trace.len()))
            .filter(|s| !s.is_empty())
        else {
            break;
        };
        let inputs = rows_of(steps, width, None);
        let mut out = vec![Verdict::Unknown; steps.len() * table.outputs.len()];
        batched.step_rows(steps.len(), &inputs, &mut out);
        let want: Vec<Verdict> = expected[k..k + steps.len()].concat();
        prop_assert_eq!(want, out, "rows from step {}\n{}", k, source);
        k += steps.len();
    }
    // Rows wider than the inputs (a surplus value each, which a step
    // ignores) take the row-by-row way, all steps in one call.
    let inputs = rows_of(trace, width, Some(Value::Int(7)));
    let mut out = vec![Verdict::Unknown; trace.len() * table.outputs.len()];
    wide.step_rows(trace.len(), &inputs, &mut out);
    prop_assert_eq!(expected.concat(), out, "wide rows\n{}", source);
    batched.finish(&mut verdicts);
    prop_assert_eq!(interp.finish(), verdicts, "end of rows\n{}", source);
    batched.counts(&mut counts);
    prop_assert_eq!(interp.counts(), counts, "counts of rows\n{}", source);
    Ok(())
}

/// `steps` as rows of `width` values (a short step padded with a value of
/// the wrong type, which reads as the default too), each row followed by
/// `surplus` if given.
fn rows_of(steps: &[Step], width: usize, surplus: Option<Value>) -> Vec<Value> {
    let mut rows = Vec::new();
    for step in steps {
        rows.extend(step.iter().copied().take(width));
        rows.resize(
            rows.len() + width.saturating_sub(step.len()),
            Value::Bool(false),
        );
        rows.extend(surplus);
    }
    rows
}

/// [`trace`] with some values replaced by ones no well-formed log has: the
/// wrong kind, NaN, an enum index beyond the variants; some steps cut short.
fn noisy_trace() -> impl Strategy<Value = Vec<Step>> {
    let noise = prop::sample::select(vec![
        None,
        None,
        None,
        None,
        Some(Value::Float(f64::NAN)),
        Some(Value::Bool(true)),
        Some(Value::Int(i64::MIN)),
        Some(Value::Enum(9)),
        Some(Value::Float(-0.0)),
    ]);
    (trace(16), prop::collection::vec((noise, 0usize..9), 0..8)).prop_map(|(mut steps, edits)| {
        let len = steps.len();
        for (k, (value, at)) in edits.into_iter().enumerate() {
            if let Some(step) = steps.get_mut(k % len.max(1)) {
                match value {
                    Some(v) if at < step.len() => step[at] = v,
                    Some(_) => {}
                    None => step.truncate(at),
                }
            }
        }
        steps
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn past_specs_agree(spec in random_spec(), trace in noisy_trace()) {
        compare(&spec.source(), &trace, None)?;
    }

    #[test]
    fn future_specs_agree(spec in future_spec(), trace in trace(20)) {
        compare(&spec.source(), &trace, None)?;
    }

    #[test]
    fn counted_windows_agree(
        properties in prop::collection::vec((counted_future_formula(true), any::<bool>()), 1..3),
        trace in trace(20),
    ) {
        compare(&FutureSpec { properties }.source(), &trace, None)?;
    }
}

proptest! {
    // Most drawn specs have an operand with a duration bound (interpreted,
    // skipped): about one in six compiles, so more cases.
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn timed_futures_agree(
        properties in prop::collection::vec((timed_future_formula(), any::<bool>()), 1..3),
        trace in timed_trace(16),
    ) {
        // Operands with a duration bound of their own are interpreted.
        compare(&TimedSpec { properties }.source(), &trace, Some("duration-bounded"))?;
    }
}

#[test]
fn counters_like_the_interpreter() {
    // The largest bound the checker takes, and small ones that saturate.
    let source = "monitor m { input p: bool; input q: bool;\n\
        property a = O[0,4294967296] p;\n\
        property b = H[0,4294967296] p;\n\
        property c = q S[0,4294967295] p;\n\
        property d = H[0,2] p || O[0,1] q; }\n";
    let steps: Vec<Step> = (0..12)
        .map(|i| vec![Value::Bool(i % 5 == 1), Value::Bool(i % 3 != 0)])
        .collect();
    compare(source, &steps, None).unwrap();
}

#[test]
fn refuses_what_it_does_not_compile_and_says_why() {
    let cases = [(
        "monitor m { time t; input p: bool;\n property a = O[0,5s] p; }",
        "duration",
    )];
    for (source, why) in cases {
        let table = monitor_table(source);
        let refusal = JitMonitor::new(&table).expect_err(source).to_string();
        assert!(refusal.contains(why), "{refusal}");
    }
}

/// Hand-built tables the checker never produces, each of which would make
/// the machine code touch memory it does not own: refused, never run.
#[test]
fn refuses_inconsistent_tables() {
    use hindsight_compiler::ir::table::{CellKind, Op, Temporal};
    let source = "monitor m { input p: bool;\n property a = O[3,5] p;\n property b = O p; }";
    let table = monitor_table(source);
    let delay = table
        .slots
        .iter()
        .position(|s| matches!(s.op, Op::Temporal(Temporal::Delay { .. }, _)))
        .expect("O[3,5] keeps a delay line");
    let Op::Temporal(Temporal::Delay { arg, init, steps }, ring) = table.slots[delay].op else {
        unreachable!()
    };
    let once_cell = table
        .slots
        .iter()
        .find_map(|s| match s.op {
            Op::Temporal(Temporal::Once(_), c) => Some(c),
            _ => None,
        })
        .expect("O p keeps a cell");
    JitMonitor::new(&table).expect("the consistent table compiles");
    // The delay reads another slot's one-word cell as its ring (its own
    // ring still as long as the delay).
    let mut borrowed = table.clone();
    borrowed.slots[delay].op = Op::Temporal(Temporal::Delay { arg, steps, init }, once_cell);
    // A delay of no steps (its position would divide by zero).
    let mut empty = table.clone();
    empty.slots[delay].op = Op::Temporal(
        Temporal::Delay {
            arg,
            steps: 0,
            init,
        },
        ring,
    );
    empty.state[ring.index()].kind = CellKind::Delay { bits: 0, init };
    // A ring of 2^34 bits: offsets beyond the code's 32-bit displacements.
    let mut huge = table.clone();
    huge.slots[delay].op = Op::Temporal(
        Temporal::Delay {
            arg,
            steps: 1 << 34,
            init,
        },
        ring,
    );
    huge.state[ring.index()].kind = CellKind::Delay {
        bits: 1 << 34,
        init,
    };
    for (name, table, why) in [
        ("borrowed", borrowed, "never produces"),
        ("empty", empty, "never produces"),
        ("huge", huge, "too large"),
    ] {
        let refusal = JitMonitor::new(&table).expect_err(name).to_string();
        assert!(refusal.contains(why), "{name}: {refusal}");
    }
}
