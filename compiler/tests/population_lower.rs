//! Lowering populations to tables: strata, signals, future quantifiers,
//! skeletons, synthetic names, errors, and the language.md example's tables.

use crate::population_support::*;
use crate::spec_support::LANGUAGE_POPULATION;

use hindsight_compiler::hir::{CmpOp, Quantifier, Ty};
use hindsight_compiler::ir::population::{
    FutureQuantifierId, PropertyVerdict, Quantified, Skeleton, StratumId,
};
use hindsight_compiler::ir::table::{Op, OutputId, Source};
use hindsight_compiler::lower::population::lower;

#[test]
fn the_example_has_a_signal_stratum_a_future_stratum_one_count_and_two_future_quantifiers() {
    let t = lowered(&epidemic_example());
    assert_eq!(t.name, "epidemic");
    assert_eq!(t.capacity, 10000);
    // Stratum 0: the count (past); stratum 1: the future quantifiers alone,
    // after every signal stratum (it reads the one signal).
    assert_eq!(t.strata.len(), 2);
    assert_eq!(t.strata[0].signals_before, 0);
    assert_eq!(t.strata[1].signals_before, 1);
    // The count over all agents: no member output, body = its only output so far.
    assert_eq!(t.signals.len(), 1);
    assert_eq!(t.signals[0].ty, Ty::Int);
    assert_eq!(
        t.signals[0].of,
        Quantified {
            quantifier: Quantifier::Count,
            stratum: StratumId::new(0),
            member: None,
            body: OutputId::new(0)
        }
    );
    assert_eq!(t.future_quantifiers.len(), 2);
    assert_eq!(t.future_quantifiers[0].of.quantifier, Quantifier::Forall);
    assert_eq!(
        t.future_quantifiers[1].of.quantifier,
        Quantifier::AtLeast(3)
    );
    assert!(t
        .future_quantifiers
        .iter()
        .all(|q| q.of.stratum == StratumId::new(1)));
    let names = |s: usize| -> Vec<String> {
        t.strata[s]
            .table
            .outputs
            .iter()
            .map(|o| o.name.clone())
            .collect()
    };
    assert_eq!(names(0), ["q0_body"]);
    assert_eq!(names(1), ["f0_member", "f0_body", "f1_member", "f1_body"]);
    // The signal stratum is past-time only; the future one has the automata.
    assert!(t.strata[0].table.automata.is_empty());
    assert_eq!(t.lane_strata(), [true, false]);
    let stratum = &t.strata[1].table;
    // Future bodies are automata (not reset in the table); members are past.
    for k in [1, 3] {
        assert!(matches!(stratum.outputs[k].source, Source::Future(_)));
        assert!(!stratum.outputs[k].reset);
    }
    assert!(matches!(stratum.outputs[0].source, Source::Slot(_)));
    assert_eq!(t.future_quantifiers[0].of.member, Some(OutputId::new(0)));
    assert_eq!(t.future_quantifiers[0].of.body, OutputId::new(1));
    // Stratum inputs: attributes then globals (then lower signals); top:
    // globals then signals.
    let inputs: Vec<&str> = t.strata[0]
        .table
        .inputs
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(inputs, ["infected", "female", "age", "day"]);
    let inputs: Vec<&str> = stratum.inputs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(inputs, ["infected", "female", "age", "day", "q0"]);
    let top: Vec<(&str, Ty)> = t
        .top
        .inputs
        .iter()
        .map(|d| (d.name.as_str(), d.ty))
        .collect();
    assert_eq!(top, [("day", Ty::Int), ("q0", Ty::Int)]);
    assert_eq!(t.signal_name(0), Some("q0"));
    assert_eq!(
        t.properties
            .iter()
            .map(|p| p.verdict.clone())
            .collect::<Vec<_>>(),
        [
            PropertyVerdict::Combined(Skeleton::Quantifier(FutureQuantifierId::new(0))),
            PropertyVerdict::Top(OutputId::new(0)),
            PropertyVerdict::Combined(Skeleton::Quantifier(FutureQuantifierId::new(1))),
        ]
    );
    assert_eq!(t.top.outputs.len(), 1);
    assert_eq!(t.top.outputs[0].name, "outbreak_small");
}

#[test]
fn the_member_predicate_reads_the_candidates_attributes_and_the_body_its_own() {
    let t = lowered(&epidemic_example());
    // f0_member = female = input 1 of the future stratum's table.
    let future = &t.strata[1].table;
    let Source::Slot(member) = future.outputs[0].source else {
        panic!("member is past-time")
    };
    assert_eq!(future.slots[member].op, Op::Input(1));
    // q0_body = infected = input 0.
    let stratum = &t.strata[0].table;
    let Source::Slot(body) = stratum.outputs[0].source else {
        panic!("count body is past-time")
    };
    assert_eq!(stratum.slots[body].op, Op::Input(0));
    // The top reads the count as input 1 (after the one global).
    let Source::Future(f) = t.top.outputs[0].source else {
        panic!("outbreak_small is future-time")
    };
    let atom = t.top.automata[t.top.futures[f].automata[0]].atoms[0];
    let Op::Cmp(CmpOp::Le, lhs, _) = t.top.slots[atom].op else {
        panic!("the atom is count <= 10, got {:?}", t.top.slots[atom].op)
    };
    assert_eq!(t.top.slots[lhs].op, Op::Input(1));
}

#[test]
fn equal_quantifiers_written_apart_share_one_signal() {
    let count = |span| at(quant(Quantifier::Count, None, at(attr(0), span)), span);
    let p = population(
        "p",
        &[("sick", Ty::Bool)],
        &[],
        vec![],
        vec![
            ("a", cmp(CmpOp::Le, count(10), int(3)), false),
            ("b", cmp(CmpOp::Ge, count(50), int(1)), false),
            // Same body, other quantifier: another signal.
            ("c", quant(Quantifier::Exists, None, attr(0)), false),
        ],
        8,
    );
    let t = lowered(&p);
    assert_eq!(t.signals.len(), 2);
    assert_eq!(t.signals[0].of.quantifier, Quantifier::Count);
    assert_eq!(t.signals[1].of.quantifier, Quantifier::Exists);
    assert_eq!(t.signals[1].ty, Ty::Bool);
    // Bodies are structurally equal, so one slot serves both signals.
    assert_eq!(t.strata[0].table.outputs.len(), 2);
}

#[test]
fn signals_and_future_quantifiers_keep_their_spans_as_written() {
    // a: count (span 10) <= 3; b: count (span 50, equal: shares the signal) >= 1;
    // c: exists (span 70) && forall (span 90, future body) at span 80.
    let count = |span| at(quant(Quantifier::Count, None, attr(0)), span);
    let p = population(
        "p",
        &[("sick", Ty::Bool)],
        &[],
        vec![],
        vec![
            ("a", cmp(CmpOp::Le, count(10), int(3)), false),
            ("b", cmp(CmpOp::Ge, count(50), int(1)), false),
            (
                "c",
                at(
                    and(
                        at(quant(Quantifier::Exists, None, attr(0)), 70),
                        at(quant(Quantifier::Forall, None, f(attr(0))), 90),
                    ),
                    80,
                ),
                false,
            ),
        ],
        8,
    );
    let t = lowered(&p);
    let spans: Vec<(usize, usize)> = t
        .signals
        .iter()
        .map(|s| (s.span.start, s.span.end))
        .collect();
    // The shared count keeps the first span; the `exists` (read by a latched
    // top leaf of `c`) is a signal too.
    assert_eq!(spans, [(10, 11), (70, 71)]);
    let spans: Vec<(usize, usize)> = t
        .future_quantifiers
        .iter()
        .map(|q| (q.span.start, q.span.end))
        .collect();
    assert_eq!(spans, [(90, 91)]);
}

#[test]
fn nested_past_quantifiers_are_stratified() {
    // forall a in agents: O (exists b in females: b.infected)
    let inner = quant(Quantifier::Exists, Some(0), attr(0));
    let p = population(
        "nested",
        &[("infected", Ty::Bool), ("female", Ty::Bool)],
        &[("day", Ty::Int)],
        vec![("females", attr(1))],
        vec![("p", quant(Quantifier::Forall, None, o(inner)), false)],
        16,
    );
    let t = lowered(&p);
    assert_eq!(t.strata.len(), 2);
    assert_eq!(t.signals.len(), 2);
    assert_eq!(t.signals[0].of.quantifier, Quantifier::Exists);
    assert_eq!(t.signals[0].of.stratum, StratumId::new(0));
    assert_eq!(t.signals[0].of.member, Some(OutputId::new(0)));
    assert_eq!(t.signals[1].of.quantifier, Quantifier::Forall);
    assert_eq!(t.signals[1].of.stratum, StratumId::new(1));
    assert_eq!(t.strata[0].signals_before, 0);
    assert_eq!(t.strata[1].signals_before, 1);
    let inputs: Vec<&str> = t.strata[1]
        .table
        .inputs
        .iter()
        .map(|d| d.name.as_str())
        .collect();
    assert_eq!(inputs, ["infected", "female", "day", "q0"]);
    // Stratum 1's body is O q0: once over input 3.
    let body = &t.strata[1].table;
    let Source::Slot(s) = body.outputs[t.signals[1].of.body].source else {
        panic!()
    };
    let Op::Temporal(hindsight_compiler::ir::table::Temporal::Once(arg), _) = body.slots[s].op
    else {
        panic!("O q0, got {:?}", body.slots[s].op)
    };
    assert_eq!(body.slots[arg].op, Op::Input(3));
    assert_eq!(
        t.properties[0].verdict,
        PropertyVerdict::Top(OutputId::new(0))
    );
}

#[test]
fn implications_become_or_not_and_leaves_are_future_or_latched() {
    // go -> (forall a in agents: F a.x) && G !alarm
    let p = population(
        "c",
        &[("x", Ty::Bool)],
        &[("go", Ty::Bool), ("alarm", Ty::Bool)],
        vec![],
        vec![(
            "p",
            implies(
                glob(0, Ty::Bool),
                and(
                    quant(Quantifier::Forall, None, f(attr(0))),
                    g(not(glob(1, Ty::Bool))),
                ),
            ),
            true,
        )],
        4,
    );
    let t = lowered(&p);
    let expected = Skeleton::Or(
        Box::new(Skeleton::Not(Box::new(Skeleton::Latched(OutputId::new(0))))),
        Box::new(Skeleton::And(
            Box::new(Skeleton::Quantifier(FutureQuantifierId::new(0))),
            Box::new(Skeleton::Future(OutputId::new(1))),
        )),
    );
    assert_eq!(t.properties[0].verdict, PropertyVerdict::Combined(expected));
    assert!(t.properties[0].reset);
    let names: Vec<&str> = t.top.outputs.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["p_0", "p_1"]);
    assert!(matches!(t.top.outputs[0].source, Source::Slot(_)));
    assert!(matches!(t.top.outputs[1].source, Source::Future(_)));
    // Leaves never reset by themselves: the interpreter restarts them.
    assert!(t.top.outputs.iter().all(|o| !o.reset));
}

#[test]
fn iff_shares_its_leaves() {
    let p = population(
        "c",
        &[("x", Ty::Bool)],
        &[("go", Ty::Bool)],
        vec![],
        vec![(
            "p",
            boolop(
                hindsight_compiler::hir::BoolOp::Iff,
                glob(0, Ty::Bool),
                quant(Quantifier::Exists, None, f(attr(0))),
            ),
            false,
        )],
        4,
    );
    let t = lowered(&p);
    assert_eq!(t.top.outputs.len(), 1);
    assert_eq!(t.future_quantifiers.len(), 1);
    let (l, q) = (
        || Box::new(Skeleton::Latched(OutputId::new(0))),
        || Box::new(Skeleton::Quantifier(FutureQuantifierId::new(0))),
    );
    let expected = Skeleton::Or(
        Box::new(Skeleton::And(l(), q())),
        Box::new(Skeleton::And(
            Box::new(Skeleton::Not(l())),
            Box::new(Skeleton::Not(q())),
        )),
    );
    assert_eq!(t.properties[0].verdict, PropertyVerdict::Combined(expected));
}

#[test]
fn synthetic_names_never_clash_with_the_spec_names() {
    // An attribute named q0 and a global named f0_body, a property named p_0.
    let p = population(
        "q0_body",
        &[("q0", Ty::Bool)],
        &[("f0_body", Ty::Bool)],
        vec![],
        vec![
            (
                "p",
                and(
                    quant(Quantifier::Exists, None, attr(0)),
                    quant(Quantifier::Forall, None, f(attr(0))),
                ),
                false,
            ),
            ("p_0", glob(0, Ty::Bool), false),
        ],
        4,
    );
    let t = lowered(&p);
    let reserved = ["q0_body", "q0", "f0_body", "p", "p_0"];
    // Every synthetic name differs from each spec name and from the others.
    assert_eq!(t.signal_name(0), Some("q0_"));
    let strat: Vec<&str> = t
        .strata
        .iter()
        .flat_map(|s| &s.table.outputs)
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(strat, ["q0__body", "f0_body_"]);
    assert_eq!(t.top.outputs[0].name, "p_0_");
    assert_eq!(t.top.outputs[1].name, "p_0");
    for n in strat {
        assert!(!reserved.contains(&n), "{n} clashes");
    }
}

#[test]
fn automaton_errors_of_a_body_pass_through() {
    // F (a.age == 0 && F (a.age == 1 && ... F a.age == 12)): 13 atoms, each
    // under its own `F` (nothing to fold), over the limit of 12.
    let mut body = f(cmp(CmpOp::Eq, attr_int(0), int(12)));
    for v in (0..12).rev() {
        body = f(and(cmp(CmpOp::Eq, attr_int(0), int(v)), body));
    }
    let p = population(
        "big",
        &[("age", Ty::Int)],
        &[],
        vec![],
        vec![("p", quant(Quantifier::Forall, None, body), false)],
        4,
    );
    let errors = lower(&spec_of(&p), &p, &mut Default::default()).unwrap_err();
    let codes: Vec<_> = errors.iter().filter_map(|d| d.code.clone()).collect();
    assert_eq!(codes, ["E0408"]);
}

#[test]
fn a_future_quantifier_under_a_temporal_operator_is_an_internal_error_not_a_panic() {
    let p = population(
        "bad",
        &[("x", Ty::Bool)],
        &[],
        vec![],
        vec![("p", g(quant(Quantifier::Forall, None, f(attr(0)))), false)],
        4,
    );
    let errors = lower(&spec_of(&p), &p, &mut Default::default()).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].message.contains("internal error"),
        "{}",
        errors[0].message
    );
    // A group index out of range, and an attribute outside any quantifier.
    let p = population(
        "bad",
        &[("x", Ty::Bool)],
        &[],
        vec![],
        vec![
            ("p", quant(Quantifier::Exists, Some(3), attr(0)), false),
            ("q", attr(0), false),
        ],
        4,
    );
    let errors = lower(&spec_of(&p), &p, &mut Default::default()).unwrap_err();
    assert!(!errors.is_empty());
}

#[test]
fn a_population_without_quantifiers_has_no_strata() {
    let p = population(
        "plain",
        &[("x", Ty::Bool)],
        &[("go", Ty::Bool)],
        vec![],
        vec![("p", o(glob(0, Ty::Bool)), true)],
        4,
    );
    let t = lowered(&p);
    assert!(t.strata.is_empty() && t.signals.is_empty());
    assert_eq!(
        t.properties[0].verdict,
        PropertyVerdict::Top(OutputId::new(0))
    );
}

#[test]
fn the_example_tables_display() {
    let t = lowered(&epidemic_example());
    insta::assert_snapshot!(t.to_string());
}

#[test]
fn compile_lowers_the_example_source_to_the_hand_built_tables() {
    let compiled =
        hindsight_compiler::compile(LANGUAGE_POPULATION).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(compiled.program.populations.len(), 1);
    let from_source = compiled.program.population("epidemic").expect("lowered");
    assert!(compiled.program.population("other").is_none());
    assert_eq!(
        from_source.to_string(),
        lowered(&epidemic_example()).to_string()
    );
}
