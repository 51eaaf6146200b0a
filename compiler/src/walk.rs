//! Structural helpers over typed expressions.

use crate::hir::{Expr, ExprKind};
use hindsight_grammar::ast::Span;

/// `e` with each direct operand replaced by `f(operand)`; same kind, type and span.
pub(crate) fn map_children(e: &Expr, f: &mut impl FnMut(&Expr) -> Expr) -> Expr {
    let mut go = |a: &Expr| Box::new(f(a));
    let kind = match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Input(_)
        | ExprKind::Remote { .. }
        | ExprKind::Attribute(_) => e.kind.clone(),
        ExprKind::Quant {
            quantifier,
            group,
            body,
        } => ExprKind::Quant {
            quantifier: *quantifier,
            group: *group,
            body: go(body),
        },
        ExprKind::At { lifeline, arg } => ExprKind::At {
            lifeline: *lifeline,
            arg: go(arg),
        },
        ExprKind::Count(items) => ExprKind::Count(items.iter().map(|i| *go(i)).collect()),
        ExprKind::Not(a) => ExprKind::Not(go(a)),
        ExprKind::Neg(a) => ExprKind::Neg(go(a)),
        ExprKind::Bool(op, a, b) => ExprKind::Bool(*op, go(a), go(b)),
        ExprKind::Cmp(op, a, b) => ExprKind::Cmp(*op, go(a), go(b)),
        ExprKind::Arith(op, a, b) => ExprKind::Arith(*op, go(a), go(b)),
        ExprKind::Unary(op, bound, a) => ExprKind::Unary(*op, *bound, go(a)),
        ExprKind::Binary(op, bound, a, b) => ExprKind::Binary(*op, *bound, go(a), go(b)),
    };
    Expr {
        kind,
        ty: e.ty,
        span: e.span,
    }
}

/// `e` with every span cleared: two sub-formulas written at different places
/// are the same formula exactly when their span-free forms are equal.
pub(crate) fn without_spans(e: &Expr) -> Expr {
    let mut bare = map_children(e, &mut without_spans);
    bare.span = Span::default();
    bare
}

/// The direct operands of `e`.
pub(crate) fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Input(_)
        | ExprKind::Remote { .. }
        | ExprKind::Attribute(_) => Vec::new(),
        ExprKind::At { arg: a, .. }
        | ExprKind::Quant { body: a, .. }
        | ExprKind::Not(a)
        | ExprKind::Neg(a)
        | ExprKind::Unary(_, _, a) => vec![a.as_ref()],
        ExprKind::Count(items) => items.iter().collect(),
        ExprKind::Bool(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::Arith(_, a, b)
        | ExprKind::Binary(_, _, a, b) => vec![a.as_ref(), b.as_ref()],
    }
}
