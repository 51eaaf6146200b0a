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
use hindsight_grammar::ast::{
    BinaryTemporal, Bound, BoundUnit, Expr, ExprKind, GoalDecl, Span, UnaryTemporal,
};
use hindsight_grammar::diag::{Code, Diag};
use hindsight_grammar::ops::TemporalRow;

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

/// A temporal operator node, unary or binary, as every block's checks see it.
pub(super) struct TemporalOp<'e> {
    /// Its row of the operator table.
    pub row: TemporalRow,
    /// Where the operator is written.
    pub span: Span,
    /// Its bound, if written.
    pub bound: Option<Bound>,
    /// The operator itself when unary (for rewriting suggestions).
    pub unary: Option<UnaryTemporal>,
    operands: (&'e Expr, Option<&'e Expr>),
}

impl<'e> TemporalOp<'e> {
    /// `expr` if it is a temporal operator.
    pub(super) fn of(expr: &'e Expr) -> Option<Self> {
        match &expr.kind {
            ExprKind::Unary {
                op,
                op_span,
                bound,
                arg,
            } => Some(TemporalOp {
                row: op.row(),
                span: *op_span,
                bound: *bound,
                unary: Some(*op),
                operands: (arg, None),
            }),
            ExprKind::Temporal {
                op,
                op_span,
                bound,
                lhs,
                rhs,
            } => Some(TemporalOp {
                row: op.row(),
                span: *op_span,
                bound: *bound,
                unary: None,
                operands: (lhs, Some(rhs)),
            }),
            _ => None,
        }
    }

    /// The operator as written.
    pub(super) fn symbol(&self) -> &'static str {
        self.row.symbol
    }

    /// Whether it looks into the future.
    pub(super) fn is_future(&self) -> bool {
        self.row.is_future()
    }

    /// Its operands, left first.
    pub(super) fn operands(&self) -> impl Iterator<Item = &'e Expr> {
        std::iter::once(self.operands.0).chain(self.operands.1)
    }

    /// Checks its bound (see the module doc: E0400, E0402, E0404, E0414);
    /// `time` is the block's `time` declaration, if any.
    pub(super) fn check_bound(&self, time: Option<Span>, diags: &mut Vec<Diag>) {
        let Some(bound) = self.bound else { return };
        if !self.row.bounded {
            diags.push(self.bound_not_allowed(bound));
            return;
        }
        let op = self.symbol();
        if bound.unit == BoundUnit::Time {
            if let Some(missing) = missing_time(bound, time) {
                diags.push(missing);
            }
        }
        if let Some(hi) = bound.hi {
            if bound.lo > hi {
                let swapped = Bound {
                    lo: hi,
                    hi: Some(bound.lo),
                    ..bound
                };
                diags.push(
                    report::error(
                        Code::BadBound,
                        format_args!("the lower end of bound `{bound}` is above its upper end"),
                    )
                    .with_labels(vec![report::primary(
                        bound.span,
                        "this window holds no step",
                    )])
                    .with_notes(vec![format!(
                        "help: write the smaller end first: `{swapped}`"
                    )]),
                );
            }
        } else if self.is_future() {
            diags.push(
                report::error(
                    Code::InfiniteFutureBound,
                    format_args!("the future operator `{op}` needs a finite upper bound"),
                )
                .with_labels(vec![
                    report::primary(bound.span, "`inf` is not allowed here"),
                    report::secondary(self.span, "a future operator"),
                ])
                .with_notes(vec![format!(
                    "help: for no upper limit, write `{op}` without a bound"
                )]),
            );
        }
        if let Some(what) = too_large(bound).filter(|_| bound.unit == BoundUnit::Steps) {
            diags.push(
                report::error(Code::BoundTooLarge, format_args!("bound too large: its {what}"))
                    .with_labels(vec![report::primary(bound.span, "too large for a fixed-size monitor")])
                    .with_notes(vec![
                        "note: a bounded operator keeps one bit per step of its lower end, and counts steps in 32 bits".to_string(),
                    ]),
            );
        }
    }

    /// E0400 for a bound on an operator that takes none, suggesting the
    /// bounded operator of the same direction (from the operator table).
    fn bound_not_allowed(&self, bound: Bound) -> Diag {
        let op = self.symbol();
        let bounded = |ops: &[TemporalRow]| -> Vec<String> {
            ops.iter()
                .filter(|row| row.bounded && row.time == self.row.time)
                .map(|row| format!("{}[a,b]", row.symbol))
                .collect()
        };
        let (steps, instead) = match self.unary {
            Some(_) => (
                "looks exactly one step",
                bounded(&UnaryTemporal::ALL.map(UnaryTemporal::row)),
            ),
            None => (
                "takes no window",
                bounded(&BinaryTemporal::ALL.map(BinaryTemporal::row)),
            ),
        };
        let direction = if self.is_future() { "ahead" } else { "back" };
        let help = match self.unary {
            Some(_) => format!(
                "help: `{op}` {steps} {direction}; for \"at some step in a window of {} steps\" write {}",
                if self.is_future() { "future" } else { "past" },
                report::list_names(&instead[..instead.len().min(1)]),
            ),
            None => format!(
                "help: write `{op}` without a bound; {} is the bounded binary {} operator",
                report::list_names(&instead),
                if self.is_future() { "future" } else { "past" },
            ),
        };
        let all: Vec<&str> = UnaryTemporal::ALL
            .map(UnaryTemporal::row)
            .into_iter()
            .chain(BinaryTemporal::ALL.map(BinaryTemporal::row))
            .filter(|row| row.bounded)
            .map(|row| row.symbol)
            .collect();
        report::error(
            Code::BadBound,
            format_args!("the operator `{op}` takes no bound"),
        )
        .with_labels(vec![
            report::primary(bound.span, "bound not allowed here"),
            report::secondary(self.span, "this operator"),
        ])
        .with_notes(vec![
            help,
            format!("note: bounds are allowed on {}", report::list_names(&all)),
        ])
    }

    /// The operator as a future site (written here, not through a `let`).
    pub(super) fn site(&self) -> FutureSite {
        FutureSite {
            op: self.symbol(),
            span: self.span,
            via: None,
        }
    }
}

/// E0414 for the duration bound `bound` in a block whose steps have no time
/// (`time`: the block's declaration, if any).
fn missing_time(bound: Bound, time: Option<Span>) -> Option<Diag> {
    if time.is_some() {
        return None;
    }
    Some(
        report::error(
            Code::MissingTime,
            format_args!("the duration bound `{bound}` needs the steps' time"),
        )
        .with_labels(vec![report::primary(bound.span, "the steps have no time")])
        .with_notes(vec![
            "help: declare where each step's time is: `time ts from \"/timestamp\";` in a \
             monitor, `time ts;` in a population (a global) or a system (a store variable of \
             every lifeline); a number of seconds or an RFC 3339 string"
                .to_string(),
        ]),
    )
}

/// W0100: `with reset` (at `reset`) on the past-time property `formula`.
pub(super) fn useless_reset(formula: &Expr, reset: Span) -> Diag {
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
    ])
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

/// E0409: a goal's condition reaches a future operator.
fn future_in_goal(site: &FutureSite, goal: &GoalDecl) -> Diag {
    let mut labels = vec![
        report::primary(
            site.span,
            format_args!("`{}` looks into the future", site.op),
        ),
        report::secondary(goal.name.span, format_args!("in goal `{}`", goal.name)),
    ];
    if let Some((name, used)) = &site.via {
        labels.push(report::secondary(
            *used,
            format_args!("through `let {name}`"),
        ));
    }
    report::error(
        Code::FutureInGuard,
        format_args!(
            "future-time operators are not allowed in goals: found `{}`",
            site.op
        ),
    )
    .with_labels(labels)
    .with_notes(vec![
        "note: a goal labels the state after each step; it cannot wait for later steps".to_string(),
        "help: use the past operators `Y`, `Z`, `O`, `H` and `S`".to_string(),
    ])
}

/// Checks temporal placement and bounds for one monitor.
pub(super) struct TemporalCheck<'s, 'a> {
    scope: &'s Scope<'a>,
    /// Where the monitor declares its steps' time, if it does.
    time: Option<Span>,
    /// Per `let`, the first future operator its body reaches outside past operators.
    let_future: Vec<Option<FutureSite>>,
    diags: &'s mut Vec<Diag>,
}

impl<'s, 'a> TemporalCheck<'s, 'a> {
    /// A checker for the monitor with the given declarations.
    pub(super) fn new(scope: &'s Scope<'a>, diags: &'s mut Vec<Diag>) -> Self {
        let let_future = scope.lets.iter().map(|_| None).collect();
        let time = scope
            .time
            .and_then(|t| scope.inputs.get(t))
            .map(|t| t.decl.span);
        TemporalCheck {
            scope,
            time,
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
        if let Some(reset) = reset.filter(|_| self.find_future(formula).is_none()) {
            self.diags.push(useless_reset(formula, reset));
        }
    }

    /// Checks a goal's condition: past-time only (E0409), since a goal labels
    /// the state after each step.
    pub(super) fn check_goal(&mut self, goal: &GoalDecl) {
        self.walk(&goal.value);
        if let Some(site) = self.find_future(&goal.value) {
            self.diags.push(future_in_goal(&site, goal));
        }
    }

    /// Checks every operator of `expr` (not looking into `let`s it uses, nor
    /// into `@L` and quantifiers, which monitors reject).
    fn walk(&mut self, expr: &Expr) {
        if let Some(op) = TemporalOp::of(expr) {
            op.check_bound(self.time, self.diags);
            if !op.is_future() {
                for operand in op.operands() {
                    self.no_future_inside(operand, op.symbol(), op.span);
                }
            }
            for operand in op.operands() {
                self.walk(operand);
            }
            return;
        }
        if let ExprKind::At { .. } | ExprKind::Quant { .. } = expr.kind {
            return;
        }
        let (first, second) = expr.operands();
        for child in first.into_iter().chain(second) {
            self.walk(child);
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
        if let Some(op) = TemporalOp::of(expr) {
            return op.is_future().then(|| op.site());
        }
        match &expr.kind {
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

/// What makes `bound` too large for a fixed-size monitor, if anything.
fn too_large(bound: Bound) -> Option<String> {
    if bound.lo > MAX_BOUND_LO {
        Some(format!(
            "lower end {} is above the limit of {MAX_BOUND_LO}",
            bound.lo
        ))
    } else {
        bound
            .hi
            .filter(|hi| *hi > MAX_BOUND_HI)
            .map(|hi| format!("upper end {hi} is above the limit of {MAX_BOUND_HI}"))
    }
}
