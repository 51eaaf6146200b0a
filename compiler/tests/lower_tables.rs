//! The shape of lowered tables: hash-consing, the rewrites of bounded operators,
//! post-order, state accounting, the Display form and the future-operator error.

use crate::interp_support::*;

use hindsight_compiler::ast::UnaryTemporal;
use hindsight_compiler::hir::{BoolOp, CmpOp, Ty, Value};
use hindsight_compiler::ir::table::{
    CellId, CellKind, FutureId, Op, SlotId, Source, Table, Temporal,
};
use hindsight_compiler::lower::lower;

/// Every operand precedes its slot; every cell is owned by the slot that names it.
fn assert_well_formed(table: &Table) {
    for (k, slot) in table.enumerate_slots() {
        let operands: Vec<SlotId> = match slot.op {
            Op::Const(_) | Op::Input(_) => vec![],
            Op::Not(a) | Op::Neg(a) | Op::BoolToInt(a) => vec![a],
            Op::Bool(_, a, b) | Op::Cmp(_, a, b) | Op::Arith(_, a, b) => vec![a, b],
            Op::Temporal(t, c) => {
                assert_eq!(table.state[c].owner, k);
                assert_eq!(table.state[c].kind, t.cell_kind());
                let (a, b) = t.operands();
                std::iter::once(a).chain(b).collect()
            }
        };
        assert!(
            operands.iter().all(|&a| a < k),
            "slot {k} reads a later slot"
        );
    }
}

#[test]
fn shared_sub_formulas_get_one_slot() {
    // a = O (p && q); b = Y (p && q) || O (p && q): p, q, and, once, yesterday, or.
    let pq = || and(p(), q());
    let m = monitor(
        "m",
        &[("p", Ty::Bool), ("q", Ty::Bool)],
        vec![("a", o(pq()), false), ("b", or(y(pq()), o(pq())), false)],
    );
    let table = lowered(&m);
    assert_well_formed(&table);
    assert_eq!(table.slots.len(), 6);
    assert_eq!(table.state.len(), 2);
    let ands = table
        .slots
        .iter()
        .filter(|s| matches!(s.op, Op::Bool(BoolOp::And, ..)))
        .count();
    let onces = table
        .slots
        .iter()
        .filter(|s| matches!(s.op, Op::Temporal(Temporal::Once(_), _)))
        .count();
    assert_eq!((ands, onces), (1, 1));
    // Both outputs point at the shared `O` slot / the `or` over it.
    assert_eq!(table.outputs[0].source, Source::Slot(sid(3)));
    assert_eq!(table.outputs[1].source, Source::Slot(sid(5)));
}

#[test]
fn same_property_twice_shares_everything() {
    let table = p_table(vec![hb(0, Some(3), p()), hb(0, Some(3), p())]);
    assert_eq!(table.slots.len(), 2);
    assert_eq!(table.outputs[0].source, table.outputs[1].source);
}

#[test]
fn distinct_operators_are_not_merged() {
    // Y p and Z p differ (initial value), O[0,2] and O[0,3] differ (bound).
    let table = p_table(vec![
        y(p()),
        z(p()),
        ob(0, Some(2), p()),
        ob(0, Some(3), p()),
    ]);
    assert_eq!(table.slots.len(), 5);
}

#[test]
fn floats_are_hash_consed_by_bit_pattern() {
    let f = || input(0, Ty::Float);
    let c = |x: f64| cmp(CmpOp::Eq, f(), konst(Value::Float(x)));
    let m = monitor(
        "m",
        &[("f", Ty::Float)],
        vec![
            ("a", c(0.0), false),
            ("b", c(-0.0), false),
            ("c", c(f64::NAN), false),
            ("d", c(f64::NAN), false),
        ],
    );
    let table = lowered(&m);
    // f, 0.0, eq, -0.0, eq, NaN, eq: the second NaN comparison is shared, the zeros are not.
    assert_eq!(table.slots.len(), 7);
    assert_eq!(table.outputs[2].source, table.outputs[3].source);
    assert_ne!(table.outputs[0].source, table.outputs[1].source);
}

#[test]
fn bounded_once_delays_its_operand() {
    // O[2,5] p = O[0,3] (Y^2 p): p, delay 2, once[0,3].
    let table = table_pq(ob(2, Some(5), p()));
    assert_well_formed(&table);
    assert_eq!(table.slots.len(), 3);
    assert_eq!(
        table.slots[1].op,
        Op::Temporal(
            Temporal::Delay {
                arg: sid(0),
                steps: 2,
                init: false
            },
            cid(0)
        )
    );
    assert_eq!(
        table.slots[2].op,
        Op::Temporal(
            Temporal::OnceWithin {
                arg: sid(1),
                bound: 3
            },
            cid(1)
        )
    );
    assert_eq!(
        table.state[0].kind,
        CellKind::Delay {
            bits: 2,
            init: false
        }
    );
    assert_eq!(table.state[1].kind, CellKind::Counter { init: 3 });
    // H[1,inf] p = H (Z p).
    let table = table_pq(hb(1, None, p()));
    assert_eq!(
        table.slots[1].op,
        Op::Temporal(
            Temporal::Prev {
                arg: sid(0),
                init: true
            },
            cid(0)
        )
    );
    assert_eq!(
        table.slots[2].op,
        Op::Temporal(Temporal::Hist(sid(1)), cid(1))
    );
}

#[test]
fn bounded_since_delays_its_result() {
    // q S[2,4] p = H[0,1] q && Y^2 (q S[0,2] p).
    let table = table_pq(sb(2, Some(4), q(), p()));
    assert_well_formed(&table);
    let ops: Vec<Op> = table.slots.iter().map(|s| s.op).collect();
    assert_eq!(
        ops,
        [
            Op::Input(1),
            Op::Input(0),
            Op::Temporal(
                Temporal::SinceWithin {
                    lhs: sid(0),
                    rhs: sid(1),
                    bound: 2
                },
                cid(0)
            ),
            Op::Temporal(
                Temporal::Delay {
                    arg: sid(2),
                    steps: 2,
                    init: false
                },
                cid(1)
            ),
            Op::Temporal(
                Temporal::HistWithin {
                    arg: sid(0),
                    bound: 1
                },
                cid(2)
            ),
            Op::Bool(BoolOp::And, sid(4), sid(3)),
        ]
    );
    // q S[1,inf] p = q && Y (q S p): H[0,0] q is q itself.
    let table = table_pq(sb(1, None, q(), p()));
    let ops: Vec<Op> = table.slots.iter().map(|s| s.op).collect();
    assert_eq!(
        ops,
        [
            Op::Input(1),
            Op::Input(0),
            Op::Temporal(Temporal::Since(sid(0), sid(1)), cid(0)),
            Op::Temporal(
                Temporal::Prev {
                    arg: sid(2),
                    init: false
                },
                cid(1)
            ),
            Op::Bool(BoolOp::And, sid(0), sid(3)),
        ]
    );
}

#[test]
fn zero_width_windows_need_no_state() {
    // O[0,0] p = p, H[0,0] p = p, q S[0,0] p = p.
    for f in [
        ob(0, Some(0), p()),
        hb(0, Some(0), p()),
        sb(0, Some(0), q(), p()),
    ] {
        let table = table_pq(f);
        assert!(table.state.is_empty());
        let Source::Slot(slot) = table.outputs[0].source else {
            panic!("a past property reads a slot");
        };
        assert_eq!(table.slots[slot].op, Op::Input(0));
    }
}

#[test]
fn state_is_summarised() {
    // Y p (1 bit), O[0,9] p (counter), O[100,100] p (100-bit ring).
    let table = p_table(vec![y(p()), ob(0, Some(9), p()), ob(100, Some(100), p())]);
    let s = table.state_summary();
    assert_eq!(
        (s.bools, s.counters, s.delays, s.delay_bits),
        (1, 1, 1, 100)
    );
    assert_eq!(table.state_bits(), 1 + 64 + 100);
    // 1 byte + 8 bytes + two words + the step counter.
    assert_eq!(table.state_bytes(), 1 + 8 + 16 + 8);
}

#[test]
fn future_properties_become_automata_over_slots() {
    let m = p_monitor(vec![
        ("past", o(p()), false),
        ("future", future(UnaryTemporal::Eventually, p()), true),
    ]);
    let table = lowered(&m);
    assert_eq!(table.outputs[1].source, Source::Future(FutureId::new(0)));
    assert!(table.outputs[1].reset);
    // `F p` over the one atom p: initial (end ?), pending (end false), satisfied.
    let automaton = &table.automata[0];
    assert_eq!(automaton.atoms.len(), 1);
    assert_eq!(table.slots[automaton.atoms[0]].op, Op::Input(0));
    assert_eq!(automaton.states.len(), 3);
    assert_eq!(automaton.states[0].residual, "F p");
}

#[test]
fn a_future_operator_under_a_past_one_is_rejected_without_panicking() {
    // The checker reports this (E0401); lowering must not trust it blindly.
    let m = p_monitor(vec![
        ("ok", o(p()), false),
        ("bad", o(future(UnaryTemporal::Eventually, p())), false),
    ]);
    let diags = lower(&spec(), &m, &mut Default::default()).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code.as_deref(), Some("E0401"));
}

fn door() -> Table {
    // let pending = !grant S request;
    // property alarm_ok = alarm -> pending;
    // property served = H (request -> O[0,3] grant) with reset;
    // property recent = O[2,5] (pkg > 3) && !Y alarm;
    let grant = || input(1, Ty::Bool);
    let request = || input(0, Ty::Bool);
    let alarm = || input(2, Ty::Bool);
    let pending = s(not(grant()), request());
    let m = monitor(
        "door",
        &[
            ("request", Ty::Bool),
            ("grant", Ty::Bool),
            ("alarm", Ty::Bool),
            ("pkg", Ty::Int),
        ],
        vec![
            ("alarm_ok", boolop(BoolOp::Implies, alarm(), pending), false),
            (
                "served",
                h(boolop(BoolOp::Implies, request(), ob(0, Some(3), grant()))),
                true,
            ),
            (
                "recent",
                and(
                    ob(
                        2,
                        Some(5),
                        cmp(CmpOp::Gt, input(3, Ty::Int), konst(Value::Int(3))),
                    ),
                    not(y(alarm())),
                ),
                false,
            ),
        ],
    );
    lowered(&m)
}

#[test]
fn display_door() {
    let table = door();
    assert_well_formed(&table);
    insta::assert_snapshot!(table.to_string());
}

#[test]
fn display_bounded_since_and_delays() {
    let m = monitor(
        "windows",
        &[("p", Ty::Bool), ("q", Ty::Bool), ("x", Ty::Float)],
        vec![
            ("s", sb(2, Some(4), q(), p()), false),
            ("h", hb(70, Some(80), p()), false),
            (
                "z",
                z(cmp(
                    CmpOp::Le,
                    arith(
                        hindsight_compiler::hir::ArithOp::Mul,
                        input(2, Ty::Float),
                        konst(Value::Float(2.0)),
                    ),
                    neg(konst(Value::Float(0.5))),
                )),
                false,
            ),
        ],
    );
    let table = lowered(&m);
    assert_well_formed(&table);
    insta::assert_snapshot!(table.to_string());
}

#[test]
fn display_of_an_empty_monitor() {
    let table = lowered(&monitor("empty", &[], vec![]));
    assert_eq!(
        table.to_string(),
        "monitor empty: 0 inputs, 0 slots, 0 state cells; 0 state bits\noutputs: none\n"
    );
}

/// Slot `i` of a table written out by hand.
fn sid(i: usize) -> SlotId {
    SlotId::new(i)
}

/// State cell `i` of a table written out by hand.
fn cid(i: usize) -> CellId {
    CellId::new(i)
}

/// Goals lower to bool slots of the table (computed every step); past-time
/// `let`s become slots only when lowered for learning, future-time ones
/// never; values read through the interpreter after each step.
#[test]
fn goals_and_learning_lets_are_slots() {
    use hindsight_compiler::compile::{check_source, lower_for_learning};
    use hindsight_compiler::interp::Interpreter;
    use hindsight_compiler::types::Value;
    let src = "monitor m {\n    input edit: bool;\n    input ok: bool;\n    let green = !edit S ok;\n    let unused = O edit;\n    let later = F ok;\n    goal done = green && !edit;\n    property p = G (edit -> later);\n}\n";
    let checked = check_source(src).expect("checks");
    let plain = hindsight_compiler::compile(src).expect("compiles");
    let table = &plain.program.monitors[0];
    assert_eq!(table.goals.len(), 1);
    assert!(table.lets.is_empty(), "lets are lowered only for learning");
    let learnable = lower_for_learning(&checked.spec, 0).expect("lowers");
    let names: Vec<&str> = learnable.lets.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["green", "unused"],
        "future-time lets are no features"
    );
    let mut interp = Interpreter::new(&learnable);
    let goal = learnable.goals[0].slot.index();
    let green = learnable.lets[0].slot.index();
    let unused = learnable.lets[1].slot.index();
    // (edit, ok) per step; `green` is "ok since the last edit".
    let steps = [(true, false), (false, true), (false, false), (true, true)];
    let want = [
        (false, false, true),
        (true, true, true),
        (true, true, true),
        (false, true, true),
    ];
    for ((edit, ok), (done, g, u)) in steps.into_iter().zip(want) {
        interp.step(&[Value::Bool(edit), Value::Bool(ok)]);
        let slots = interp.slot_values();
        assert_eq!(
            (slots[goal], slots[green], slots[unused]),
            (Value::Bool(done), Value::Bool(g), Value::Bool(u)),
            "step ({edit}, {ok})"
        );
    }
}
