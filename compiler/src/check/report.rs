//! Small builders for the checker's diagnostics, whose codes come from [`Code`].

use hindsight_grammar::ast::{Ident, Span};
use hindsight_grammar::diag::{Code, Diag, Diagnostic, Label};
use std::fmt::Display;

/// An error with a stable code and a one-line message.
pub(super) fn error(code: Code, message: impl Display) -> Diag {
    Diagnostic::error()
        .with_code(code)
        .with_message(message.to_string())
}

/// A warning with a stable code: compilation goes on.
pub(super) fn warning(code: Code, message: impl Display) -> Diag {
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
        Code::WrongRole,
        format_args!("expected {expected}, found {kind} `{name}`"),
    )
    .with_labels(labels)
    .with_notes(vec![help])
}

/// E0206 for a use of the step's time `name` as a value.
pub(in crate::check) fn time_as_value(name: &Ident, declared: Option<Span>) -> Diag {
    let mut labels = vec![primary(name.span, "the step's time is not a value")];
    if let Some(decl) = declared {
        labels.push(secondary(decl, "declared as the time here"));
    }
    error(
        Code::WrongRole,
        format_args!("`{name}` is the steps' time: only duration bounds read it"),
    )
    .with_labels(labels)
    .with_notes(vec![
        "help: state timing with a duration bound, e.g. `O[0,10min] deployed` or `F[0,30s] done`"
            .to_string(),
    ])
}

/// E0200: the property `name` (declared at `declared`) used as a value;
/// `values` says what is ("an input or `let`").
/// E0200: a goal's name used as a value.
pub(super) fn goal_as_value(name: &Ident, declared: Option<Span>) -> Diag {
    let mut labels = vec![primary(name.span, "goals are not in scope in expressions")];
    if let Some(decl) = declared {
        labels.push(secondary(decl, "declared as a goal here"));
    }
    error(
        Code::UnknownName,
        format_args!("unknown name `{name}`: it is a goal, not an input or `let`"),
    )
    .with_labels(labels)
    .with_notes(vec![
        "help: to share a condition, define it with `let` and use that name in the goal and here"
            .to_string(),
    ])
}

pub(super) fn property_as_value(name: &Ident, declared: Option<Span>, values: &str) -> Diag {
    let mut labels = vec![primary(
        name.span,
        "properties are not in scope in expressions",
    )];
    if let Some(decl) = declared {
        labels.push(secondary(decl, "declared as a property here"));
    }
    error(
        Code::UnknownName,
        format_args!("unknown name `{name}`: it is a property, not {values}"),
    )
    .with_labels(labels)
    .with_notes(vec![
        "help: to share a formula, define it with `let` and use that name in the property and here"
            .to_string(),
    ])
}
