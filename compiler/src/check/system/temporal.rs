//! Temporal operators in a system: guards are past-time.
//!
//! Every future operator (`X F G U W R`) in a guard, or in a `let` of the
//! system (whose only use is in guards), is E0409, reported once where it is
//! written; bounds are checked as in monitors ([`TemporalOp::check_bound`]). Operators
//! inside `@L` and quantifier bodies are checked like any others.

use crate::check::report;
use crate::check::temporal::TemporalOp;
use hindsight_grammar::ast::{Expr, Ident, Span};
use hindsight_grammar::diag::{Code, Diag};

/// Where the formula being walked is declared.
#[derive(Clone, Copy)]
pub(super) enum Within<'a> {
    /// In the guard of this name, evaluated on this lifeline (as written).
    Guard(&'a Ident, &'a Ident),
    /// In the `let` of this name.
    Let(&'a Ident),
}

/// Checks every temporal operator of `formula` (declared `within`); `time`
/// is the system's `time` declaration, if any.
pub(super) fn check_formula(
    formula: &Expr,
    within: Within,
    time: Option<Span>,
    diags: &mut Vec<Diag>,
) {
    if let Some(op) = TemporalOp::of(formula) {
        op.check_bound(time, diags);
        if op.is_future() {
            diags.push(future_in_guard(op.symbol(), op.span, within));
        }
        for operand in op.operands() {
            check_formula(operand, within, time, diags);
        }
        return;
    }
    let (first, second) = formula.operands();
    for child in first.into_iter().chain(second) {
        check_formula(child, within, time, diags);
    }
}

/// E0409 for the future operator `op` written at `op_span`.
fn future_in_guard(op: &str, op_span: Span, within: Within) -> Diag {
    let context = match within {
        Within::Guard(name, at) => report::secondary(
            name.span,
            format_args!("in guard `{name}`, evaluated at the events of `{at}`"),
        ),
        Within::Let(name) => report::secondary(
            name.span,
            format_args!("in `let {name}`, which only guards can use"),
        ),
    };
    report::error(
        Code::FutureInGuard,
        format_args!("future-time operators are not allowed in guards: found `{op}`"),
    )
    .with_labels(vec![
        report::primary(op_span, format_args!("`{op}` looks into the future")),
        context,
    ])
    .with_notes(vec![
        "note: a guard decides at a choice point, from what is causally visible there; it cannot wait for later events".to_string(),
        "help: use the past operators `Y`, `Z`, `O`, `H` and `S`".to_string(),
    ])
}
