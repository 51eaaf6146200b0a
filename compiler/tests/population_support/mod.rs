//! Hand-built population HIR for the population lowering and interpreter tests
//! (independent of the checker; the operators monitors share come from
//! `interp_support`), and trace helpers.
#![allow(dead_code)]

use hindsight_compiler::ast::{Span, UnaryTemporal};
use hindsight_compiler::hir::{
    BoolOp, CmpOp, Expr, ExprKind, Group, Input, Population, Property, Quantifier, Spec, Ty, Value,
};
use hindsight_compiler::ir::PopulationTables;
use hindsight_compiler::Verdict;

use crate::interp_support::future;
pub(crate) use crate::interp_support::{and, boolop, cmp, mk, not, o, or};

/// `e` with a span starting at `at` (to check that spans do not matter).
pub(crate) fn at(mut e: Expr, at: usize) -> Expr {
    e.span = Span::new(at, at + 1);
    e
}

pub(crate) fn attr(i: usize) -> Expr {
    mk(ExprKind::Attribute(i), Ty::Bool)
}

pub(crate) fn attr_int(i: usize) -> Expr {
    mk(ExprKind::Attribute(i), Ty::Int)
}

pub(crate) fn glob(i: usize, ty: Ty) -> Expr {
    mk(ExprKind::Input(i), ty)
}

pub(crate) fn int(v: i64) -> Expr {
    mk(ExprKind::Const(Value::Int(v)), Ty::Int)
}

pub(crate) fn tt() -> Expr {
    mk(ExprKind::Const(Value::Bool(true)), Ty::Bool)
}

pub(crate) fn quant(q: Quantifier, group: Option<usize>, body: Expr) -> Expr {
    let ty = if q == Quantifier::Count {
        Ty::Int
    } else {
        Ty::Bool
    };
    mk(
        ExprKind::Quant {
            quantifier: q,
            group,
            body: Box::new(body),
        },
        ty,
    )
}

pub(crate) fn implies(a: Expr, b: Expr) -> Expr {
    boolop(BoolOp::Implies, a, b)
}

pub(crate) fn f(a: Expr) -> Expr {
    future(UnaryTemporal::Eventually, a)
}

pub(crate) fn g(a: Expr) -> Expr {
    future(UnaryTemporal::Globally, a)
}

fn input(name: &str, ty: Ty) -> Input {
    Input {
        name: name.to_owned(),
        ty,
        span: Span::default(),
    }
}

/// A population; `properties` are (name, formula, with reset).
pub(crate) fn population(
    name: &str,
    attributes: &[(&str, Ty)],
    globals: &[(&str, Ty)],
    groups: Vec<(&str, Expr)>,
    properties: Vec<(&str, Expr, bool)>,
    capacity: usize,
) -> Population {
    Population {
        name: name.to_owned(),
        attributes: attributes.iter().map(|(n, t)| input(n, *t)).collect(),
        globals: globals.iter().map(|(n, t)| input(n, *t)).collect(),
        time: None,
        groups: groups
            .into_iter()
            .map(|(name, member)| Group {
                name: name.to_owned(),
                member,
                span: Span::default(),
            })
            .collect(),
        properties: properties
            .into_iter()
            .map(|(name, formula, reset)| Property {
                name: name.to_owned(),
                formula,
                reset,
                span: Span::default(),
            })
            .collect(),
        capacity,
        span: Span::default(),
    }
}

pub(crate) fn spec_of(p: &Population) -> Spec {
    Spec {
        enums: Vec::new(),
        monitors: Vec::new(),
        systems: Vec::new(),
        populations: vec![p.clone()],
    }
}

pub(crate) fn lowered(p: &Population) -> PopulationTables {
    hindsight_compiler::lower::population::lower(&spec_of(p), p, &mut Default::default())
        .expect("lowers")
}

/// The language.md example (semantics.md): attributes infected, female, age;
/// global day; groups females (0) and old_females (1).
pub(crate) fn epidemic_example() -> Population {
    let (infected, female, age) = (0, 1, 2);
    let females = attr(female);
    let old_females = and(attr(female), cmp(CmpOp::Gt, attr_int(age), int(60)));
    population(
        "epidemic",
        &[
            ("infected", Ty::Bool),
            ("female", Ty::Bool),
            ("age", Ty::Int),
        ],
        &[("day", Ty::Int)],
        vec![("females", females), ("old_females", old_females)],
        vec![
            (
                "all_females_infected",
                quant(Quantifier::Forall, Some(0), f(attr(infected))),
                false,
            ),
            (
                "outbreak_small",
                g(cmp(
                    CmpOp::Le,
                    quant(Quantifier::Count, None, attr(infected)),
                    int(10),
                )),
                false,
            ),
            (
                "three_stay_healthy",
                quant(Quantifier::AtLeast(3), Some(0), g(not(attr(infected)))),
                false,
            ),
        ],
        10000,
    )
}

pub(crate) const T: Verdict = Verdict::True;
pub(crate) const F: Verdict = Verdict::False;
pub(crate) const U: Verdict = Verdict::Unknown;

pub(crate) fn b(v: bool) -> Value {
    Value::Bool(v)
}
