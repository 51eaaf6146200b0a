//! Lowering of operators with duration bounds.
//!
//! Past ones (`O H S` with `[lo,hi]` in time) become the table's `TimedOnce`
//! and `TimedSince` ops (`H` through `!O !`); their state is one time, or a
//! ring of witness times when `0 < lo` and `hi` is finite, sized from the
//! window (`hindsight_runtime::time::ring_capacity`). A window of width 0, or
//! one whose ring would exceed [`MAX_RING_TIMES`], is refused (E0415): no
//! ring size keeps its answers exact.
//!
//! A future-time property with a duration bound is monitored by one
//! deadline ([`TimedFuture`]) when it has one of the shapes
//!
//! - `M` or `α -> M`: `M` at the first step;
//! - `G M` or `G (α -> M)`: `M` at every step (where `α` holds), with the
//!   window's lower end 0;
//!
//! where `M` is `F[lo,hi] β`, `G[lo,hi] β` or `γ U[lo,hi] β` and `α β γ` are
//! past-time. These are the response, bounded existence, bounded absence and
//! bounded universality patterns. Anything else with a duration-bounded
//! future operator is refused (E0415): under `G` a lower end above 0 lets
//! the open obligations grow with the trace, and mixing deadlines with LTL3
//! automata would lose exactness.
//!
//! A property of the same shapes whose window counts steps (`G (p ->
//! F[0,1000] q)`) is monitored by a deadline counting steps too
//! ([`lower_counted`]), so its cost does not grow with the window, when its
//! operands let no continuation decide earlier than the deadline does:
//! `β` and `!β` satisfiable, and under `G` also `α && !β`, with the atoms of
//! `α β γ` as independent letters, as the LTL3 automaton reads them. Its
//! verdicts are then the automaton's. Other step windows are unrolled into
//! LTL3 automata ([`super::future`]).

use super::Builder;
use crate::diag::{Code, Diag, Label};
use crate::hir::{BoolOp, Bound, BoundUnit, Expr, ExprKind};
use crate::ir::table::{Part, TimedFuture, Window};
use crate::ltl3::Formula;
use crate::surface::Printer;
use hindsight_grammar::ast::{duration_text, BinaryTemporal, UnaryTemporal};
use hindsight_runtime::time::{Kind, Pattern};

/// The window of every step so far: the unbounded operator.
pub(super) const ALWAYS: Window = Window { lo: 0, hi: None };

/// The most witness times a past operator's ring may keep.
pub(super) const MAX_RING_TIMES: u64 = 2 * 1024 + 1;

/// The window of a duration bound (`hi >= lo`, as the checker guarantees; a
/// violating bound is clamped).
pub(super) fn window(bound: Bound) -> Window {
    Window {
        lo: bound.lo,
        hi: bound.hi.map(|hi| hi.max(bound.lo)),
    }
}

/// Checks that the past operator `e` over `window` keeps bounded state (E0415 if not).
pub(super) fn past_window(window: Window, e: &Expr) -> Result<(), Diag> {
    let (Some(hi), lo) = (window.hi, window.lo) else {
        return Ok(());
    };
    if lo == 0 {
        return Ok(());
    }
    let capacity = hindsight_runtime::time::ring_capacity(lo, hi);
    if capacity.is_some_and(|c| c <= MAX_RING_TIMES) {
        return Ok(());
    }
    let label = if capacity.is_none() {
        "a window of width 0"
    } else {
        "a window too narrow for how far back it lies"
    };
    // The narrowest width allowed, rounded up to one of the smallest unit
    // that reaches it (so the suggestion is a window one would write).
    let least = lo.div_ceil(1024).max(1);
    let width = hindsight_grammar::ast::TIME_UNITS
        .iter()
        .map(|&(_, per)| per)
        .find(|&per| per >= least)
        .unwrap_or_else(|| least.div_ceil(86_400_000_000) * 86_400_000_000);
    let wider = duration_text(lo.saturating_add(width));
    Err(Diag::error()
        .with_code(Code::MetricFragment)
        .with_message(format!(
            "this window `[{},{}]` cannot be kept exactly in bounded state",
            duration_text(lo),
            duration_text(hi)
        ))
        .with_labels(vec![Label::primary((), e.span.range()).with_message(label)])
        .with_notes(vec![
            "note: a window `[lo,hi]` with `lo > 0` keeps up to 2 * ceil(lo / (hi - lo)) + 1 \
             witness times, at most 2049, whatever the event rate; a window of width 0 would \
             need every timestamp of the last `lo`"
                .to_string(),
            format!(
                "help: widen the window to at least 1/1024 of its lower end, e.g. `[{},{wider}]`",
                duration_text(lo)
            ),
        ]))
}

/// Whether `e` has a future operator with a duration bound.
pub(super) fn is_timed(e: &Expr) -> bool {
    has_future_window(e, BoundUnit::Time)
}

/// Whether `e` has a future operator with a bound in `unit`.
pub(super) fn has_future_window(e: &Expr, unit: BoundUnit) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Unary(
                UnaryTemporal::Eventually | UnaryTemporal::Globally | UnaryTemporal::Next,
                Some(b),
                _,
            )
            | ExprKind::Binary(BinaryTemporal::Until, Some(b), _, _)
                if b.unit == unit =>
            {
                return true
            }
            _ => {}
        }
        stack.extend(crate::walk::children(e));
    }
    false
}

/// The operator `M` of a deadline pattern with a window in `unit`: its kind,
/// window, left operand (for `U`) and target, if `e` is one with past-time
/// operands.
fn operator(e: &Expr, unit: BoundUnit) -> Option<(Kind, Window, Option<&Expr>, &Expr)> {
    let (kind, bound, lhs, target) = match &e.kind {
        ExprKind::Unary(UnaryTemporal::Eventually, Some(b), a) => (Kind::Eventually, b, None, a),
        ExprKind::Unary(UnaryTemporal::Globally, Some(b), a) => (Kind::Always, b, None, a),
        ExprKind::Binary(BinaryTemporal::Until, Some(b), l, r) => (Kind::Until, b, Some(&**l), r),
        _ => return None,
    };
    let past = lhs.is_none_or(|l| !l.is_future()) && !target.is_future();
    (bound.unit == unit && past).then_some((kind, window(*bound), lhs, &**target))
}

/// `(every, trigger, M)` if `formula` is `M`, `α -> M`, `G M` or `G (α -> M)`
/// with `α` past-time.
fn shape(formula: &Expr) -> Option<(bool, Option<&Expr>, &Expr)> {
    let (every, body) = match &formula.kind {
        ExprKind::Unary(UnaryTemporal::Globally, None, body) => (true, &**body),
        _ => (false, formula),
    };
    match &body.kind {
        ExprKind::Bool(BoolOp::Implies, trigger, m) if !trigger.is_future() => {
            Some((every, Some(&**trigger), &**m))
        }
        _ => Some((every, None, body)),
    }
}

/// Lowers the timed future-time property `formula`: its past operands into
/// slots of `builder`, the rest into a deadline; the operands are its parts.
pub(super) fn lower(
    builder: &mut Builder<'_>,
    printer: &Printer<'_>,
    formula: &Expr,
) -> Result<(TimedFuture, Vec<Part>), Diag> {
    let (every, trigger, m) = shape(formula).ok_or_else(|| outside(formula, None))?;
    let operator = operator(m, BoundUnit::Time).ok_or_else(|| outside(formula, None))?;
    if every && operator.1.lo > 0 {
        return Err(outside(formula, Some(m)));
    }
    deadline(builder, printer, (every, trigger), operator, false)
}

/// Lowers the future-time property `formula` to a deadline counting steps
/// if it has a deadline's shape with a step window and no continuation
/// decides it earlier than the deadline would (see the module doc); `None`
/// leaves it to the LTL3 automata.
pub(super) fn lower_counted(
    builder: &mut Builder<'_>,
    printer: &Printer<'_>,
    formula: &Expr,
) -> Option<Result<(TimedFuture, Vec<Part>), Diag>> {
    let (every, trigger, m) = shape(formula)?;
    let operator = operator(m, BoundUnit::Steps)?;
    let (_, window, _, target) = operator;
    if every && window.lo > 0 {
        return None;
    }
    // The atoms' formulas: `β`, then `α` when there is one.
    let exprs: Vec<&Expr> = std::iter::once(target).chain(trigger).collect();
    let formulas = super::future::propositions(builder, printer, &exprs)?;
    let beta = formulas.first()?.clone();
    let not = |f: Formula| Formula::Not(Box::new(f));
    let mut needed = vec![beta.clone(), not(beta.clone())];
    if every {
        let alpha = formulas.get(1).cloned().unwrap_or(Formula::True);
        needed.push(Formula::And(Box::new(alpha), Box::new(not(beta))));
    }
    let decisive = needed
        .iter()
        .all(|f| crate::ltl3::is_satisfiable(f).unwrap_or(false));
    decisive.then(|| deadline(builder, printer, (every, trigger), operator, true))
}

/// The deadline of `(every, trigger)` with `operator` (counting steps with
/// `steps`): its operands become slots of `builder` and its parts.
fn deadline(
    builder: &mut Builder<'_>,
    printer: &Printer<'_>,
    (every, trigger): (bool, Option<&Expr>),
    (kind, window, lhs, target): (Kind, Window, Option<&Expr>, &Expr),
    steps: bool,
) -> Result<(TimedFuture, Vec<Part>), Diag> {
    let hi = window.hi.unwrap_or(window.lo);
    let mut parts = Vec::new();
    let mut slot = |e: &Expr| -> Result<_, Diag> {
        let slot = builder.expr(e)?;
        if !parts.iter().any(|p: &Part| p.slot == slot) {
            parts.push(Part {
                text: printer.text(e),
                slot,
            });
        }
        Ok(slot)
    };
    let trigger = trigger.map(&mut slot).transpose()?;
    let lhs = lhs.map(&mut slot).transpose()?;
    let target = slot(target)?;
    let pattern = Pattern {
        kind,
        every,
        lo: window.lo,
        hi,
        steps,
    };
    Ok((
        TimedFuture {
            pattern,
            trigger,
            lhs,
            target,
        },
        parts,
    ))
}

/// E0415 for the timed future-time property `formula` outside the fragment;
/// `delayed` is its operator when only its lower end under `G` is wrong.
fn outside(formula: &Expr, delayed: Option<&Expr>) -> Diag {
    let (label, span, note) = match delayed {
        Some(m) => (
            "a window starting later than now, at every step",
            m.span,
            "note: under `G`, a window `[lo,hi]` with `lo > 0` leaves an obligation open per \
             trigger, as many as the trace has triggers within `hi`: no fixed state keeps them; \
             `[0,hi]` keeps one (it also accepts an answer sooner than `lo`)",
        ),
        None => (
            "not one of the shapes monitored with deadlines",
            formula.span,
            "note: a future operator with a duration bound is monitored exactly as `M`, \
             `α -> M`, `G M` or `G (α -> M)`, where `M` is `F[lo,hi] β`, `G[lo,hi] β` or \
             `γ U[lo,hi] β`, `α β γ` are past-time (inputs, comparisons, `Y O H S`), and \
             `lo` is 0 under `G`; one such operator per property",
        ),
    };
    Diag::error()
        .with_code(Code::MetricFragment)
        .with_message("this future-time property with a duration bound cannot be monitored exactly")
        .with_labels(vec![Label::primary((), span.range()).with_message(label)])
        .with_notes(vec![
            note.to_string(),
            "help: state each timed rule as its own property, e.g. \
             `property answered = G (call -> F[0,30s] result);`"
                .to_string(),
        ])
}
