//! Hand-built HIR for the lowering and interpreter tests.
#![allow(dead_code)]

use hindsight_compiler::ast::{BinaryTemporal, Span, UnaryTemporal};
use hindsight_compiler::hir::{
    ArithOp, BoolOp, Bound, CmpOp, EnumDef, Expr, ExprKind, Input, Monitor, Property, Spec, Ty,
    Value,
};
use hindsight_compiler::interp::Interpreter;
use hindsight_compiler::ir::table::Table;
use hindsight_compiler::lower::lower;
use hindsight_compiler::Verdict;

/// An expression of type `ty` (spans do not matter to these tests).
pub(crate) fn mk(kind: ExprKind, ty: Ty) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}

/// Input number `i`, of type `ty`.
pub(crate) fn input(i: usize, ty: Ty) -> Expr {
    mk(ExprKind::Input(i), ty)
}
/// Bool input 0.
pub(crate) fn p() -> Expr {
    input(0, Ty::Bool)
}
/// Bool input 1.
pub(crate) fn q() -> Expr {
    input(1, Ty::Bool)
}
pub(crate) fn konst(v: Value) -> Expr {
    let ty = match v {
        Value::Bool(_) => Ty::Bool,
        Value::Int(_) => Ty::Int,
        Value::Float(_) => Ty::Float,
        Value::Enum(_) => Ty::Enum(0),
    };
    mk(ExprKind::Const(v), ty)
}
pub(crate) fn not(a: Expr) -> Expr {
    mk(ExprKind::Not(Box::new(a)), Ty::Bool)
}
pub(crate) fn neg(a: Expr) -> Expr {
    let ty = a.ty;
    mk(ExprKind::Neg(Box::new(a)), ty)
}
pub(crate) fn boolop(op: BoolOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Bool(op, Box::new(a), Box::new(b)), Ty::Bool)
}
pub(crate) fn and(a: Expr, b: Expr) -> Expr {
    boolop(BoolOp::And, a, b)
}
pub(crate) fn or(a: Expr, b: Expr) -> Expr {
    boolop(BoolOp::Or, a, b)
}
pub(crate) fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    mk(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
}
pub(crate) fn arith(op: ArithOp, a: Expr, b: Expr) -> Expr {
    let ty = a.ty;
    mk(ExprKind::Arith(op, Box::new(a), Box::new(b)), ty)
}
fn unary(op: UnaryTemporal, bound: Option<Bound>, a: Expr) -> Expr {
    mk(ExprKind::Unary(op, bound, Box::new(a)), Ty::Bool)
}
pub(crate) fn bound(lo: u64, hi: Option<u64>) -> Option<Bound> {
    Some(Bound {
        lo,
        hi,
        unit: hindsight_compiler::hir::BoundUnit::Steps,
    })
}
pub(crate) fn y(a: Expr) -> Expr {
    unary(UnaryTemporal::Yesterday, None, a)
}
pub(crate) fn z(a: Expr) -> Expr {
    unary(UnaryTemporal::WeakYesterday, None, a)
}
pub(crate) fn o(a: Expr) -> Expr {
    unary(UnaryTemporal::Once, None, a)
}
pub(crate) fn h(a: Expr) -> Expr {
    unary(UnaryTemporal::Historically, None, a)
}
/// `O[lo,hi] a`, `hi == None` for `inf`.
pub(crate) fn ob(lo: u64, hi: Option<u64>, a: Expr) -> Expr {
    unary(UnaryTemporal::Once, bound(lo, hi), a)
}
/// `H[lo,hi] a`.
pub(crate) fn hb(lo: u64, hi: Option<u64>, a: Expr) -> Expr {
    unary(UnaryTemporal::Historically, bound(lo, hi), a)
}
pub(crate) fn future(op: UnaryTemporal, a: Expr) -> Expr {
    unary(op, None, a)
}
/// `l S r`.
pub(crate) fn s(l: Expr, r: Expr) -> Expr {
    mk(
        ExprKind::Binary(BinaryTemporal::Since, None, Box::new(l), Box::new(r)),
        Ty::Bool,
    )
}
/// `l S[lo,hi] r`.
pub(crate) fn sb(lo: u64, hi: Option<u64>, l: Expr, r: Expr) -> Expr {
    mk(
        ExprKind::Binary(
            BinaryTemporal::Since,
            bound(lo, hi),
            Box::new(l),
            Box::new(r),
        ),
        Ty::Bool,
    )
}

/// A monitor with the given inputs and properties (`(name, formula, with reset)`).
pub(crate) fn monitor(
    name: &str,
    inputs: &[(&str, Ty)],
    props: Vec<(&str, Expr, bool)>,
) -> Monitor {
    Monitor {
        name: name.to_owned(),
        inputs: inputs
            .iter()
            .map(|(n, ty)| Input {
                name: (*n).to_owned(),
                ty: *ty,
                span: Span::default(),
            })
            .collect(),
        properties: props
            .into_iter()
            .map(|(n, formula, reset)| Property {
                name: n.to_owned(),
                formula,
                reset,
                span: Span::default(),
            })
            .collect(),
        reading: Default::default(),
        let_names: Default::default(),
        goals: Vec::new(),
        lets: Vec::new(),
        span: Span::default(),
    }
}

pub(crate) fn spec() -> Spec {
    Spec {
        enums: vec![EnumDef {
            name: "Mode".into(),
            variants: vec!["idle".into(), "busy".into(), "done".into()],
            span: Span::default(),
        }],
        monitors: Vec::new(),
        systems: Vec::new(),
        populations: Vec::new(),
    }
}

/// A monitor `m` over the one bool input `p`, with the given properties.
pub(crate) fn p_monitor(props: Vec<(&str, Expr, bool)>) -> Monitor {
    monitor("m", &[("p", Ty::Bool)], props)
}

/// The table of a monitor over the one bool input `p` whose properties, named
/// `f0`, `f1`, ... and without reset, are `formulas`.
pub(crate) fn p_table(formulas: Vec<Expr>) -> Table {
    let names: Vec<String> = (0..formulas.len()).map(|i| format!("f{i}")).collect();
    let props = names.iter().zip(formulas);
    lowered(&p_monitor(
        props.map(|(n, f)| (n.as_str(), f, false)).collect(),
    ))
}

/// `m` lowered against [`spec`]; the lowering must succeed.
pub(crate) fn lowered(m: &Monitor) -> Table {
    lower(&spec(), m, &mut Default::default()).expect("the monitor lowers")
}

/// Lowers a monitor with bool inputs `p`, `q` and the single property `f`.
pub(crate) fn table_pq(f: Expr) -> Table {
    lowered(&monitor(
        "t",
        &[("p", Ty::Bool), ("q", Ty::Bool)],
        vec![("f", f, false)],
    ))
}

/// Runs `f` over bool traces written as digit strings (`"1001"`: p at steps 0..3),
/// `ps` for input p and `qs` for input q (q all false when `qs` is empty),
/// and returns the verdicts as a digit string.
pub(crate) fn run(f: Expr, ps: &str, qs: &str) -> String {
    let table = table_pq(f);
    let mut it = Interpreter::new(&table);
    let bit = |s: &str, i: usize| s.as_bytes().get(i) == Some(&b'1');
    let mut out = String::new();
    for i in 0..ps.len() {
        let v = it.step(&[Value::Bool(bit(ps, i)), Value::Bool(bit(qs, i))]);
        out.push(match v[0] {
            Verdict::True => '1',
            Verdict::False => '0',
            Verdict::Unknown => '?',
        });
    }
    out
}

/// Strips the spaces from a trace written `"1 0 0 1"`.
pub(crate) fn t(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}
