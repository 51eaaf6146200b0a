//! Operators as users write them, and which way in time they look.

use hindsight_grammar::ast::{BinOp, BinaryTemporal, Quantifier, UnaryTemporal};

/// The source text of a non-temporal binary operator.
pub(super) fn binary(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "&&",
        BinOp::Or => "||",
        BinOp::Implies => "->",
        BinOp::Iff => "<->",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
    }
}

/// The keyword of a quantifier.
pub(super) fn quantifier(q: Quantifier) -> &'static str {
    match q {
        Quantifier::Forall => "forall",
        Quantifier::Exists => "exists",
        Quantifier::AtLeast(_) => "atleast",
        Quantifier::AtMost(_) => "atmost",
        Quantifier::Count => "count",
    }
}

/// Whether a binary temporal operator looks into the future (all but `S`).
pub(super) fn is_future_binary(op: BinaryTemporal) -> bool {
    !matches!(op, BinaryTemporal::Since)
}

/// Whether an operator accepts a bound `[a,b]`: `O H S` and `F G U`.
pub(super) fn takes_bound_unary(op: UnaryTemporal) -> bool {
    matches!(
        op,
        UnaryTemporal::Once
            | UnaryTemporal::Historically
            | UnaryTemporal::Eventually
            | UnaryTemporal::Globally
    )
}

/// Whether a binary temporal operator accepts a bound: `S` and `U`.
pub(super) fn takes_bound_binary(op: BinaryTemporal) -> bool {
    matches!(op, BinaryTemporal::Since | BinaryTemporal::Until)
}
