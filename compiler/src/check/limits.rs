//! Size limits that keep checking (and every later stage) free of stack
//! overflows and runaway memory, whatever the AST.
//!
//! - Expressions nest at most [`MAX_DEPTH`] levels, before and after `let`s are
//!   inlined (the parser already stops at 256).
//! - A formula holds at most [`MAX_NODES`] nodes after inlining: `let`s that
//!   each use the previous one twice would otherwise grow exponentially.
//! - Bounds: a bounded past operator with lower end `a > 0` keeps a delay line
//!   of `a` bits, so `a <= MAX_BOUND_LO`; upper ends are counted in 32 bits, so
//!   `b <= MAX_BOUND_HI` (E0404).

use super::report;
use hindsight_grammar::ast::{Expr, Span};
use hindsight_grammar::diag::{Code, Diag};

/// Deepest expression nesting accepted.
pub(super) const MAX_DEPTH: usize = 512;
/// Most nodes in one formula after `let`s are inlined.
pub(super) const MAX_NODES: usize = 100_000;
/// Largest lower end of a bound.
pub(super) const MAX_BOUND_LO: u64 = 1 << 16;
/// Largest finite upper end of a bound.
pub(super) const MAX_BOUND_HI: u64 = 1 << 32;

/// The first node (in pre-order) nested deeper than [`MAX_DEPTH`], found
/// without recursion.
pub(super) fn too_deep(root: &Expr) -> Option<Span> {
    let mut stack = vec![(root, 1usize)];
    while let Some((expr, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Some(expr.span);
        }
        let (first, second) = expr.operands();
        stack.extend(second.map(|e| (e, depth + 1)));
        stack.extend(first.map(|e| (e, depth + 1)));
    }
    None
}

/// E0900 for an expression nested too deeply (`span` is where the limit is passed).
pub(super) fn too_deep_error(span: Span, after_inlining: bool) -> Diag {
    let what = if after_inlining {
        "once its `let`s are inlined, this formula nests"
    } else {
        "this expression nests"
    };
    let help = if after_inlining {
        "help: each use of a `let` copies its definition, so nesting adds up; nest fewer levels"
    } else {
        "help: write the expression with fewer nested levels"
    };
    report::error(
        Code::SizeLimitExceeded,
        format_args!("{what} more than {MAX_DEPTH} levels deep, which is not supported"),
    )
    .with_labels(vec![report::primary(span, "nesting limit passed here")])
    .with_notes(vec![help.to_string()])
}

/// E0900 for a group built on groups more than [`MAX_DEPTH`] deep (`span`:
/// the group's name).
pub(super) fn groups_too_deep_error(span: Span, name: &str) -> Diag {
    report::error(
        Code::SizeLimitExceeded,
        format_args!(
            "group `{name}` is built on groups more than {MAX_DEPTH} levels deep, which is not supported"
        ),
    )
    .with_labels(vec![report::primary(span, "group nesting limit passed here")])
    .with_notes(vec![
        "help: base the group on `agents` or on a group built on fewer groups".to_string(),
    ])
}

/// E0900 for a formula with too many nodes once its `let`s are inlined (and,
/// if `expanded`, its quantifiers expanded).
pub(super) fn too_large_error(span: Span, expanded: bool) -> Diag {
    let (what, note) = if expanded {
        (
            "once its `let`s are inlined and its quantifiers expanded",
            "note: every use of a `let` copies its definition, and a quantifier copies its body once per group member",
        )
    } else {
        (
            "once its `let`s are inlined",
            "note: every use of a `let` copies its definition",
        )
    };
    report::error(
        Code::SizeLimitExceeded,
        format_args!(
            "{what}, this formula has more than {MAX_NODES} nodes, which is not supported"
        ),
    )
    .with_labels(vec![report::primary(span, "formula too large")])
    .with_notes(vec![note.to_string()])
}

/// Whether `expr` nests within the depth limit; reports it (E0900) if not.
pub(super) fn shallow_enough(expr: &Expr, diags: &mut Vec<Diag>) -> bool {
    match too_deep(expr) {
        Some(span) => {
            diags.push(too_deep_error(span, false));
            false
        }
        None => true,
    }
}
