//! Where temporal operators may appear, and their bounds.
//!
//! - Bounds `[a,b]` are allowed on `O H S` and `F G U` only; a bound on
//!   `Y Z X W R` is rejected under E0400 with a suggestion (`O[a,b]`, `F[a,b]`).
//! - `a <= b` (E0400); `b = inf` only on past operators (E0402); the size
//!   limits of [`super::limits`] (E0404).
//! - A future operator (`X F G U W R`) inside an operand of a past operator
//!   (`Y Z O H S`), directly or through `let`s, is E0401: the primary label is
//!   at the future operator, a secondary one at the past operator.
//! - `with reset` on a property without future operators is a warning (W0100).
//!
//! These checks read the AST, so they run whether or not the types are right;
//! each `let` body is walked once (at its definition) and summarised for its uses.

use super::limits::{MAX_BOUND_HI, MAX_BOUND_LO};
use super::report;
use super::scope::{Binding, Scope};
use hindsight_grammar::ast::{Bound, Expr, ExprKind, Span};
use hindsight_grammar::diag::{Code, Diag};

/// A future operator found in a formula.
#[derive(Clone)]
pub(super) struct FutureSite {
    /// The operator as written.
    pub op: &'static str,
    /// Where it is written (possibly inside a `let`'s body).
    pub span: Span,
    /// The `let` through which the formula reaches it, and the use of that `let`.
    pub via: Option<(String, Span)>,
}

/// E0401: the future operator at `site` inside the past operator `op` (written at `op_span`).
pub(super) fn future_in_past(site: &FutureSite, op: &str, op_span: Span) -> Diag {
    let mut labels = vec![
        report::primary(
            site.span,
            format_args!("`{}` looks into the future", site.op),
        ),
        report::secondary(op_span, format_args!("inside the past operator `{op}`")),
    ];
    if let Some((name, used)) = &site.via {
        labels.push(report::secondary(
            *used,
            format_args!("through `let {name}`"),
        ));
    }
    report::error(
        Code::FutureInPast,
        format_args!("future operator `{}` inside past operator `{op}`", site.op),
    )
    .with_labels(labels)
    .with_notes(vec![
        "note: a past operator's operand is evaluated at earlier steps, which cannot wait for later ones".to_string(),
    ])
}

/// Checks temporal placement and bounds for one monitor.
pub(super) struct TemporalCheck<'s, 'a> {
    scope: &'s Scope<'a>,
    /// Per `let`, the first future operator its body reaches outside past operators.
    let_future: Vec<Option<FutureSite>>,
    diags: &'s mut Vec<Diag>,
}

impl<'s, 'a> TemporalCheck<'s, 'a> {
    /// A checker for the monitor with the given declarations.
    pub(super) fn new(scope: &'s Scope<'a>, diags: &'s mut Vec<Diag>) -> Self {
        let let_future = scope.lets.iter().map(|_| None).collect();
        TemporalCheck {
            scope,
            let_future,
            diags,
        }
    }

    /// Checks `let` number `index`; `cyclic` ones are checked but not summarised.
    /// Call in dependency order.
    pub(super) fn check_let(&mut self, index: usize, cyclic: bool) {
        let Some(decl) = self.scope.lets.get(index).copied() else {
            return;
        };
        self.walk(&decl.value);
        if !cyclic {
            let site = self.find_future(&decl.value);
            if let Some(slot) = self.let_future.get_mut(index) {
                *slot = site;
            }
        }
    }

    /// Checks a property's formula; `with reset` on a past-time formula (whose
    /// verdict is recomputed at every step) is a warning.
    pub(super) fn check_property(&mut self, formula: &Expr, reset: Option<Span>) {
        self.walk(formula);
        if let Some(reset) = reset {
            if self.find_future(formula).is_none() {
                self.diags.push(
                    report::warning(
                        Code::UselessReset,
                        "`with reset` has no effect on a past-time property",
                    )
                    .with_labels(vec![
                        report::primary(reset, "this modifier does nothing here"),
                        report::secondary(formula.span, "a past-time formula"),
                    ])
                    .with_notes(vec![
                        "note: a past-time verdict is recomputed at every step; `with reset` restarts future-time properties after each decided verdict".to_string(),
                    ]),
                );
            }
        }
    }

    /// Checks every operator of `expr` (not looking into `let`s it uses, nor
    /// into `@L` and quantifiers, which monitors reject).
    fn walk(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Unary {
                op,
                op_span,
                bound,
                arg,
            } => {
                let text = op.symbol();
                let future = op.row().is_future();
                check_bound(self.diags, text, *op_span, op.row().bounded, future, *bound);
                if !future {
                    self.no_future_inside(arg, text, *op_span);
                }
                self.walk(arg);
            }
            ExprKind::Temporal {
                op,
                op_span,
                bound,
                lhs,
                rhs,
            } => {
                let text = op.symbol();
                let future = op.row().is_future();
                check_bound(self.diags, text, *op_span, op.row().bounded, future, *bound);
                if !future {
                    self.no_future_inside(lhs, text, *op_span);
                    self.no_future_inside(rhs, text, *op_span);
                }
                self.walk(lhs);
                self.walk(rhs);
            }
            ExprKind::At { .. } | ExprKind::Quant { .. } => {}
            _ => {
                let (first, second) = expr.operands();
                for child in first.into_iter().chain(second) {
                    self.walk(child);
                }
            }
        }
    }

    /// E0401 if `operand` of the past operator `op` reaches a future operator.
    fn no_future_inside(&mut self, operand: &Expr, op: &str, op_span: Span) {
        if let Some(site) = self.find_future(operand) {
            self.diags.push(future_in_past(&site, op, op_span));
        }
    }

    /// The first future operator `expr` reaches without passing through a past
    /// operator (those are checked at the past operator), following `let`s.
    fn find_future(&self, expr: &Expr) -> Option<FutureSite> {
        match &expr.kind {
            ExprKind::Unary { op, op_span, .. } => op.row().is_future().then(|| FutureSite {
                op: op.symbol(),
                span: *op_span,
                via: None,
            }),
            ExprKind::Temporal { op, op_span, .. } => op.row().is_future().then(|| FutureSite {
                op: op.symbol(),
                span: *op_span,
                via: None,
            }),
            ExprKind::Name(name) => match self.scope.lookup(&name.name) {
                Some(Binding::Let(i)) => {
                    let mut site = self.let_future.get(i)?.clone()?;
                    site.via = Some((name.name.clone(), name.span));
                    Some(site)
                }
                _ => None,
            },
            ExprKind::At { .. } | ExprKind::Quant { .. } => None,
            _ => {
                let (first, second) = expr.operands();
                first
                    .and_then(|e| self.find_future(e))
                    .or_else(|| second.and_then(|e| self.find_future(e)))
            }
        }
    }
}

/// Checks the bound of the operator `op` (see the module doc): `allowed` says
/// whether the operator takes one, `future` whether it looks ahead.
pub(super) fn check_bound(
    diags: &mut Vec<Diag>,
    op: &str,
    op_span: Span,
    allowed: bool,
    future: bool,
    bound: Option<Bound>,
) {
    let Some(bound) = bound else { return };
    if !allowed {
        bound_not_allowed(diags, op, op_span, bound);
        return;
    }
    if let Some(hi) = bound.hi {
        if bound.lo > hi {
            diags.push(
                report::error(
                    Code::BadBound,
                    format_args!(
                        "the lower end of bound `[{},{hi}]` is above its upper end",
                        bound.lo
                    ),
                )
                .with_labels(vec![report::primary(
                    bound.span,
                    "this window holds no step",
                )])
                .with_notes(vec![format!(
                    "help: write the smaller step count first: `[{hi},{}]`",
                    bound.lo
                )]),
            );
        }
    } else if future {
        diags.push(
            report::error(
                Code::InfiniteFutureBound,
                format_args!("the future operator `{op}` needs a finite upper bound"),
            )
            .with_labels(vec![
                report::primary(bound.span, "`inf` is not allowed here"),
                report::secondary(op_span, "a future operator"),
            ])
            .with_notes(vec![format!(
                "help: for no upper limit, write `{op}` without a bound"
            )]),
        );
    }
    let too_large = if bound.lo > MAX_BOUND_LO {
        Some(format!(
            "lower end {} is above the limit of {MAX_BOUND_LO}",
            bound.lo
        ))
    } else {
        bound
            .hi
            .filter(|hi| *hi > MAX_BOUND_HI)
            .map(|hi| format!("upper end {hi} is above the limit of {MAX_BOUND_HI}"))
    };
    if let Some(what) = too_large {
        diags.push(
            report::error(Code::BoundTooLarge, format_args!("bound too large: its {what}"))
                .with_labels(vec![report::primary(bound.span, "too large for a fixed-size monitor")])
                .with_notes(vec![
                    "note: a bounded operator keeps one bit per step of its lower end, and counts steps in 32 bits".to_string(),
                ]),
        );
    }
}

fn bound_not_allowed(diags: &mut Vec<Diag>, op: &str, op_span: Span, bound: Bound) {
    let help = match op {
        "Y" | "Z" => format!("help: `{op}` looks exactly one step back; for \"at some step in a window of past steps\" write `O[a,b]`"),
        "X" => "help: `X` looks exactly one step ahead; for \"at some step in a window of future steps\" write `F[a,b]`".to_string(),
        _ => format!("help: write `{op}` without a bound; `U[a,b]` is the bounded binary future operator"),
    };
    diags.push(
        report::error(
            Code::BadBound,
            format_args!("the operator `{op}` takes no bound"),
        )
        .with_labels(vec![
            report::primary(bound.span, "bound not allowed here"),
            report::secondary(op_span, "this operator"),
        ])
        .with_notes(vec![
            help,
            "note: bounds are allowed on `O`, `H`, `S`, `F`, `G` and `U`".to_string(),
        ]),
    );
}
