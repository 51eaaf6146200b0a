//! Small builders for the checker's diagnostics and the codes of docs/errors.md.

use hindsight_grammar::ast::Span;
use hindsight_grammar::diag::{Diag, Diagnostic, Label};
use std::fmt::Display;

/// Unknown name.
pub(super) const UNKNOWN_NAME: &str = "E0200";
/// Duplicate definition.
pub(super) const DUPLICATE: &str = "E0201";
/// Unknown enum variant.
pub(super) const UNKNOWN_VARIANT: &str = "E0202";
/// Unknown type.
pub(super) const UNKNOWN_TYPE: &str = "E0203";
/// Recursive `let`.
pub(super) const RECURSIVE_LET: &str = "E0204";
/// Ambiguous bare variant.
pub(super) const AMBIGUOUS_VARIANT: &str = "E0205";
/// A name used in the wrong role.
pub(super) const WRONG_ROLE: &str = "E0206";
/// An enum without variants.
pub(super) const EMPTY_ENUM: &str = "E0207";
/// Comparison (or arithmetic) of different types.
pub(super) const TYPE_MISMATCH: &str = "E0300";
/// Non-bool expression used as a formula.
pub(super) const NOT_A_FORMULA: &str = "E0301";
/// Non-numeric operand of arithmetic or an ordering comparison.
pub(super) const NOT_NUMERIC: &str = "E0302";
/// Bad bound (lower end above upper end, or a bound where none is allowed).
pub(super) const BAD_BOUND: &str = "E0400";
/// Future operator inside a past operator.
pub(super) const FUTURE_IN_PAST: &str = "E0401";
/// `inf` upper bound on a future operator.
pub(super) const INFINITE_FUTURE_BOUND: &str = "E0402";
/// Construct not allowed in this kind of block.
pub(super) const WRONG_BLOCK: &str = "E0403";
/// Bound too large for a fixed-size monitor.
pub(super) const BOUND_TOO_LARGE: &str = "E0404";
/// Future-time operator in a guard (or a `let` of a system).
pub(super) const FUTURE_IN_GUARD: &str = "E0409";
/// Construct not supported yet.
pub(super) const NOT_SUPPORTED: &str = "E0900";
/// `with reset` on a property it cannot affect.
pub(super) const USELESS_RESET: &str = "W0100";

/// An error with a stable code and a one-line message.
pub(super) fn error(code: &str, message: impl Display) -> Diag {
    Diagnostic::error()
        .with_code(code)
        .with_message(message.to_string())
}

/// A warning with a stable code: compilation goes on.
pub(super) fn warning(code: &str, message: impl Display) -> Diag {
    Diagnostic::warning()
        .with_code(code)
        .with_message(message.to_string())
}

/// The label at the exact span of the problem.
pub(super) fn primary(span: Span, message: impl Display) -> Label<()> {
    Label::primary((), span.range()).with_message(message.to_string())
}

/// A label giving context (e.g. "first defined here").
pub(super) fn secondary(span: Span, message: impl Display) -> Label<()> {
    Label::secondary((), span.range()).with_message(message.to_string())
}

/// A bug in the checker itself: reported rather than panicking or dropping output.
pub(super) fn internal_error(message: &str) -> Diag {
    Diagnostic::bug().with_message(format!(
        "internal checker error: {message}; please report this"
    ))
}

/// `a`, `a` and `b`, `a`, `b` and `c` — each name in backquotes.
pub(super) fn list_names<S: AsRef<str>>(names: &[S]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{}`", n.as_ref())).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// E0206: `name` (at `at`) is declared as `kind` ("a group"), at `declared`,
/// where `expected` ("a lifeline") is needed; `help` says how to use it.
pub(super) fn wrong_role(
    name: impl Display,
    at: Span,
    expected: &str,
    kind: &str,
    declared: Option<Span>,
    help: String,
) -> Diag {
    let mut labels = vec![primary(at, format_args!("expected {expected}"))];
    if let Some(decl) = declared {
        labels.push(secondary(decl, format_args!("declared as {kind} here")));
    }
    error(
        WRONG_ROLE,
        format_args!("expected {expected}, found {kind} `{name}`"),
    )
    .with_labels(labels)
    .with_notes(vec![help])
}
