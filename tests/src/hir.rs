//! HIR built by hand, as the checker would produce it but with no source
//! spans: the pieces the generators, the scenarios and the oracle's tests share.

use hindsight_compiler::ast::Span;
use hindsight_compiler::hir::{EnumDef, Expr, ExprKind, Input, Lifeline, Ty};

/// The expression `kind` of type `ty`.
pub fn expr(kind: ExprKind, ty: Ty) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}

/// The variable declaration `name: ty`.
pub fn input(name: &str, ty: Ty) -> Input {
    Input {
        name: name.into(),
        ty,
        span: Span::default(),
    }
}

/// The lifeline `name` with variables `vars`.
pub fn lifeline(name: &str, vars: Vec<Input>) -> Lifeline {
    Lifeline {
        name: name.into(),
        vars,
        span: Span::default(),
    }
}

/// The enum `name` with `variants`, in order.
pub fn enum_def(name: &str, variants: &[&str]) -> EnumDef {
    EnumDef {
        name: name.into(),
        variants: variants.iter().map(|v| v.to_string()).collect(),
        span: Span::default(),
    }
}

/// The pattern of the expression kinds a monitor spec never has: the
/// constructs of `system` blocks and populations. A match on a monitor
/// formula's [`ExprKind`] stays exhaustive with one arm for them.
macro_rules! system_construct {
    () => {
        hindsight_compiler::hir::ExprKind::Remote { .. }
            | hindsight_compiler::hir::ExprKind::At { .. }
            | hindsight_compiler::hir::ExprKind::Count(_)
            | hindsight_compiler::hir::ExprKind::Attribute(_)
            | hindsight_compiler::hir::ExprKind::Quant { .. }
    };
}
pub(crate) use system_construct;
