//! The typed HIR the checker produces for valid specs: input order and types,
//! variant indices, `let` inlining and the int-literal-to-float coercion.
//! Every expectation here is written out by hand.

use crate::spec_support::{checked, only};
use hindsight_compiler::hir::{ArithOp, BoolOp, CmpOp, Expr, ExprKind, Ty, Value};
use hindsight_grammar::ast::{BinaryTemporal, Span, UnaryTemporal};

/// The expression's shape with spans and types dropped, in a compact notation.
fn shape(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => b.to_string(),
        ExprKind::Const(Value::Int(n)) => format!("{n}i"),
        ExprKind::Const(Value::Float(x)) => format!("{x:?}f"),
        ExprKind::Const(Value::Enum(v)) => format!("#{v}"),
        ExprKind::Input(i) => format!("in{i}"),
        ExprKind::Not(a) => format!("!{}", shape(a)),
        ExprKind::Neg(a) => format!("-{}", shape(a)),
        ExprKind::Bool(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
        ExprKind::Cmp(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
        ExprKind::Arith(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
        ExprKind::Unary(op, bound, a) => format!("{op:?}{bound:?}({})", shape(a)),
        ExprKind::Binary(op, bound, a, b) => {
            format!("({} {op:?}{bound:?} {})", shape(a), shape(b))
        }
        ExprKind::Remote { lifeline, var } => format!("L{lifeline}.x{var}"),
        ExprKind::At { lifeline, arg } => format!("@L{lifeline}({})", shape(arg)),
        ExprKind::Count(items) => {
            let items: Vec<String> = items.iter().map(shape).collect();
            format!("count({})", items.join(", "))
        }
        ExprKind::Attribute(i) => format!("a.{i}"),
        ExprKind::Quant {
            quantifier,
            group,
            body,
        } => format!("{quantifier:?} a in {group:?}: ({})", shape(body)),
    }
}

#[test]
fn inputs_in_declaration_order_with_their_types() {
    let spec = checked(
        "enum Action { drive, load }\nenum Area { depot, a1 }\nmonitor trucks {\n    input area: Area;\n    input pkg: int;\n    input speed: float;\n    input action: Action;\n    input ok: bool;\n    property p = ok;\n}\n",
    );
    let m = only(&spec.monitors);
    let inputs: Vec<(&str, Ty)> = m.inputs.iter().map(|i| (i.name.as_str(), i.ty)).collect();
    assert_eq!(
        inputs,
        [
            ("area", Ty::Enum(1)),
            ("pkg", Ty::Int),
            ("speed", Ty::Float),
            ("action", Ty::Enum(0)),
            ("ok", Ty::Bool),
        ]
    );
    assert_eq!(spec.enums.len(), 2);
    assert_eq!(spec.enums[1].name, "Area");
    assert_eq!(spec.enums[1].variants, ["depot", "a1"]);
    assert_eq!(shape(&m.properties[0].formula), "in4");
}

#[test]
fn variants_resolve_to_their_indices() {
    let spec = checked(
        "enum Status { pending, passed, failed }\nenum Team { red, blue }\nmonitor ci {\n    input status: Status;\n    input team: Team;\n    property p = status == failed && team != Team::blue || status == Status::pending;\n}\n",
    );
    let f = &only(&spec.monitors).properties[0].formula;
    assert_eq!(shape(f), "(((in0 Eq #2) And (in1 Ne #1)) Or (in0 Eq #0))");
    let ExprKind::Bool(BoolOp::Or, lhs, _) = &f.kind else {
        panic!("{f:?}")
    };
    let ExprKind::Bool(BoolOp::And, first, _) = &lhs.kind else {
        panic!("{lhs:?}")
    };
    let ExprKind::Cmp(CmpOp::Eq, _, failed) = &first.kind else {
        panic!("{first:?}")
    };
    assert_eq!(failed.ty, Ty::Enum(0));
}

#[test]
fn a_let_used_twice_appears_twice_with_use_site_spans() {
    let src = "monitor door {\n    input request: bool;\n    input grant: bool;\n    let pending = !grant S request;\n    property p = pending && Y pending;\n}\n";
    let spec = checked(src);
    let f = &only(&spec.monitors).properties[0].formula;
    assert_eq!(
        shape(f),
        "((!in1 SinceNone in0) And YesterdayNone((!in1 SinceNone in0)))"
    );
    let ExprKind::Bool(BoolOp::And, first, second) = &f.kind else {
        panic!("{f:?}")
    };
    let ExprKind::Unary(UnaryTemporal::Yesterday, None, second) = &second.kind else {
        panic!("{second:?}")
    };
    // Each copy carries the span of its use; the insides keep the let's spans.
    let first_use = src.find("pending &&").unwrap();
    let second_use = src.rfind("pending").unwrap();
    assert_eq!(first.span, Span::new(first_use, first_use + 7));
    assert_eq!(second.span, Span::new(second_use, second_use + 7));
    let ExprKind::Binary(BinaryTemporal::Since, None, lhs, _) = &first.kind else {
        panic!("{first:?}")
    };
    let not_grant = src.find("!grant").unwrap();
    assert_eq!(lhs.span, Span::new(not_grant, not_grant + 6));
}

#[test]
fn lets_may_be_terms_and_may_use_later_lets() {
    let spec = checked(
        "monitor tank {\n    input level: int;\n    let high = doubled > 10;\n    let doubled = level * 2;\n    property p = high -> H[0,3] high;\n}\n",
    );
    let f = &only(&spec.monitors).properties[0].formula;
    assert_eq!(
        shape(f),
        "(((in0 Mul 2i) Gt 10i) Implies HistoricallySome(Bound { lo: 0, hi: Some(3), unit: Steps })(((in0 Mul 2i) Gt 10i)))"
    );
    let ExprKind::Bool(BoolOp::Implies, high, _) = &f.kind else {
        panic!("{f:?}")
    };
    let ExprKind::Cmp(CmpOp::Gt, doubled, _) = &high.kind else {
        panic!("{high:?}")
    };
    assert_eq!(doubled.ty, Ty::Int);
    assert!(matches!(doubled.kind, ExprKind::Arith(ArithOp::Mul, _, _)));
}

#[test]
fn int_literals_become_floats_next_to_floats() {
    let spec = checked(
        "monitor tank {\n    input level: float;\n    property p = level > 3 && -2 < level && level + 1 == 2.5;\n}\n",
    );
    let f = &only(&spec.monitors).properties[0].formula;
    assert_eq!(
        shape(f),
        "(((in0 Gt 3.0f) And (-2.0f Lt in0)) And ((in0 Add 1.0f) Eq 2.5f))"
    );
    // The coerced literals are typed float, as is the arithmetic over them.
    let ExprKind::Bool(_, lhs, rhs) = &f.kind else {
        panic!("{f:?}")
    };
    let ExprKind::Bool(_, _, neg_cmp) = &lhs.kind else {
        panic!("{lhs:?}")
    };
    let ExprKind::Cmp(_, neg, _) = &neg_cmp.kind else {
        panic!("{neg_cmp:?}")
    };
    assert_eq!(neg.ty, Ty::Float);
    let ExprKind::Neg(two) = &neg.kind else {
        panic!("{neg:?}")
    };
    assert_eq!(two.ty, Ty::Float);
    let ExprKind::Cmp(_, sum, _) = &rhs.kind else {
        panic!("{rhs:?}")
    };
    assert_eq!(sum.ty, Ty::Float);
}

#[test]
fn int_literals_stay_int_next_to_ints() {
    let spec = checked("monitor m {\n    input n: int;\n    property p = -n + 1 >= 0;\n}\n");
    let f = &only(&spec.monitors).properties[0].formula;
    assert_eq!(shape(f), "((-in0 Add 1i) Ge 0i)");
}

#[test]
fn properties_keep_order_reset_and_bounds() {
    let spec = checked(
        "monitor m {\n    input a: bool;\n    input b: bool;\n    property second = a S[2,inf] b;\n    property first = Z a || O[1,4] b;\n    property third = F b with reset;\n}\n",
    );
    let m = only(&spec.monitors);
    let names: Vec<&str> = m.properties.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["second", "first", "third"]);
    assert!(!m.properties[0].reset);
    assert!(!m.properties[1].reset);
    assert!(m.properties[2].reset);
    assert_eq!(
        shape(&m.properties[0].formula),
        "(in0 SinceSome(Bound { lo: 2, hi: None, unit: Steps }) in1)"
    );
    assert_eq!(
        shape(&m.properties[1].formula),
        "(WeakYesterdayNone(in0) Or OnceSome(Bound { lo: 1, hi: Some(4), unit: Steps })(in1))"
    );
}

#[test]
fn the_trucks_example_checks() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/trucks/trucks.hind"
    ))
    .expect("the example exists");
    let spec = checked(&src);
    let m = only(&spec.monitors);
    assert_eq!(m.name, "trucks");
    assert_eq!(m.inputs.len(), 3);
    assert_eq!(m.properties.len(), 6);
    // load_only_in_a1 = loading -> area == a1, with `loading = action == load`.
    assert_eq!(
        shape(&m.properties[0].formula),
        "((in0 Eq #1) Implies (in1 Eq #1))"
    );
}

#[test]
fn warnings_free_empty_file_gives_an_empty_spec() {
    let spec = checked("");
    assert!(spec.enums.is_empty() && spec.monitors.is_empty());
}
