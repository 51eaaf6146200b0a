//! Temporal operators in a population: bounds, past/future placement, and the
//! monitorable fragment for quantifiers.
//!
//! - Bounds as in monitors ([`TemporalOp::check_bound`]: E0400, E0402, E0404); a future
//!   operator inside a past one is E0401, through `let`s and quantifier
//!   bodies too.
//! - A group's predicate is past-time: a future operator in it (or in a `let`
//!   it uses) is E0409, and a quantifier reached through a `let` is E0403
//!   (those written in the predicate are reported by the typer).
//! - A *future quantifier* (one whose body reaches a future operator outside
//!   past operators) may appear only at the top of a property or `let`,
//!   under `! && || -> <->`: under a future operator, inside another
//!   quantifier's body, as a `count`, or as an operand of a comparison it is
//!   E0410, reported once per outermost offending quantifier (through `let`s
//!   at each use).
//! - `with reset` on a property with no future operator is W0100.

use super::names::quantifier_in_group;
use super::scope::{Binding, PopulationScope, AGENTS};
use crate::check::report;
use crate::check::temporal::{future_in_past, useless_reset, FutureSite, TemporalOp};
use hindsight_grammar::ast::{
    BinOp, Bound, Expr, ExprKind, Ident, Quantifier, Span, UnaryTemporal,
};
use hindsight_grammar::diag::{Code, Diag};

/// A future quantifier at the top of a `let`'s body.
#[derive(Clone)]
struct QuantSite<'a> {
    quant: &'a Expr,
    via: Option<(String, Span)>,
}

/// Where a sub-formula sits, as far as E0410 cares (innermost construct).
#[derive(Clone, Copy)]
enum Pos {
    /// Under Boolean connectives only.
    Top,
    /// In the operand of a future operator; `unary` is set (operator and
    /// bound) when the operand is exactly the node below.
    Future {
        op: &'static str,
        span: Span,
        unary: Option<(UnaryTemporal, Option<Bound>)>,
    },
    /// In a quantifier's body.
    Quant { head: Span },
    /// An operand of a comparison or arithmetic operator.
    Term { op: &'static str, span: Span },
    /// Nothing more to report (under a past operator, whose operand is
    /// checked by E0401, or inside an already reported quantifier).
    Quiet,
}

impl Pos {
    /// The position of a node below the current one (no longer "exactly the operand").
    fn deeper(self) -> Pos {
        match self {
            Pos::Future { op, span, .. } => Pos::Future {
                op,
                span,
                unary: None,
            },
            other => other,
        }
    }
}

/// Checks temporal placement for one population.
pub(super) struct PopulationTemporal<'s, 'a> {
    scope: &'s PopulationScope<'a>,
    let_future: Vec<Option<FutureSite>>,
    let_quant: Vec<Option<QuantSite<'a>>>,
    let_has_quant: Vec<Option<Span>>,
    diags: &'s mut Vec<Diag>,
}

impl<'s, 'a> PopulationTemporal<'s, 'a> {
    /// Where the population declares its steps' time, if it does.
    fn time(&self) -> Option<Span> {
        self.scope
            .time
            .and_then(|t| self.scope.globals.get(t))
            .map(|t| t.decl.span)
    }

    /// A checker for the population with the given declarations.
    pub(super) fn new(scope: &'s PopulationScope<'a>, diags: &'s mut Vec<Diag>) -> Self {
        let n = scope.lets.len();
        PopulationTemporal {
            scope,
            let_future: vec![None; n],
            let_quant: vec![None; n],
            let_has_quant: vec![None; n],
            diags,
        }
    }

    /// Checks `let` number `index`; `cyclic` ones are not summarised. Call in
    /// dependency order.
    pub(super) fn check_let(&mut self, index: usize, cyclic: bool) {
        let Some(decl) = self.scope.lets.get(index).copied() else {
            return;
        };
        self.walk(&decl.value, Pos::Top, &mut Vec::new());
        if cyclic {
            return;
        }
        let future = self.find_future(&decl.value, &mut Vec::new());
        let quant = self.top_quant(&decl.value, &mut Vec::new());
        let has_quant = self.find_quant(&decl.value, &mut Vec::new());
        if let Some(slot) = self.let_future.get_mut(index) {
            *slot = future;
        }
        if let Some(slot) = self.let_quant.get_mut(index) {
            *slot = quant;
        }
        if let Some(slot) = self.let_has_quant.get_mut(index) {
            *slot = has_quant;
        }
    }

    /// Checks a property's formula, and `with reset` on it.
    pub(super) fn check_property(&mut self, formula: &'a Expr, reset: Option<Span>) {
        self.walk(formula, Pos::Top, &mut Vec::new());
        if let Some(reset) = reset.filter(|_| self.find_future(formula, &mut Vec::new()).is_none())
        {
            self.diags.push(useless_reset(formula, reset));
        }
    }

    /// Checks the predicate of the group `name`: bounds, no future operator,
    /// no quantifier through a `let`.
    pub(super) fn check_group(&mut self, name: &Ident, pred: &Expr) {
        if let Some(op) = TemporalOp::of(pred) {
            op.check_bound(self.time(), self.diags);
            if op.is_future() {
                self.future_in_group(name, op.symbol(), op.span, None);
            }
            for operand in op.operands() {
                self.check_group(name, operand);
            }
            return;
        }
        match &pred.kind {
            ExprKind::Name(used) => {
                let Some(Binding::Let(i)) = self.scope.lookup(&used.name) else {
                    return;
                };
                if let Some(site) = self.let_future.get(i).cloned().flatten() {
                    let via = Some((used.name.clone(), used.span));
                    self.future_in_group(name, site.op, site.span, via);
                }
                if let Some(head) = self.let_has_quant.get(i).copied().flatten() {
                    let diag = quantifier_in_group(Quantifier::Forall, head)
                        .with_message(format!(
                            "a quantifier is not allowed in a group's predicate, even through `let {used}`"
                        ));
                    let mut diag = diag;
                    diag.labels.push(report::secondary(
                        used.span,
                        format_args!("through `let {used}`"),
                    ));
                    self.diags.push(diag);
                }
            }
            // Reported by the typer; its body is not looked into.
            ExprKind::Quant { .. } => {}
            _ => {
                let (first, second) = pred.operands();
                for child in first.into_iter().chain(second) {
                    self.check_group(name, child);
                }
            }
        }
    }

    /// E0409 for the future operator `op` (at `span`) in group `name`'s predicate.
    fn future_in_group(&mut self, name: &Ident, op: &str, span: Span, via: Option<(String, Span)>) {
        let mut labels = vec![
            report::primary(span, format_args!("`{op}` looks into the future")),
            report::secondary(
                name.span,
                format_args!("in the predicate of group `{name}`"),
            ),
        ];
        if let Some((let_name, used)) = via {
            labels.push(report::secondary(
                used,
                format_args!("through `let {let_name}`"),
            ));
        }
        self.diags.push(
            report::error(
                Code::FutureInGuard,
                format_args!("future-time operators are not allowed in a group's predicate: found `{op}`"),
            )
            .with_labels(labels)
            .with_notes(vec![
                "note: membership is evaluated at the step where a quantifier over the group is evaluated, from what has happened up to that step; it cannot wait for later steps".to_string(),
                "help: use the past operators `Y`, `Z`, `O`, `H` and `S`".to_string(),
            ]),
        );
    }

    /// Checks every operator of `expr`, which sits at `pos`.
    fn walk(&mut self, expr: &'a Expr, pos: Pos, bound: &mut Vec<&'a str>) {
        if let Some(op) = TemporalOp::of(expr) {
            op.check_bound(self.time(), self.diags);
            let inner = if !op.is_future() {
                for operand in op.operands() {
                    self.no_future_inside(operand, op.symbol(), op.span, bound);
                }
                Pos::Quiet
            } else if matches!(pos, Pos::Quiet) {
                Pos::Quiet
            } else {
                Pos::Future {
                    op: op.symbol(),
                    span: op.span,
                    unary: op.unary.map(|u| (u, op.bound)),
                }
            };
            for operand in op.operands() {
                self.walk(operand, inner, bound);
            }
            return;
        }
        match &expr.kind {
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let inner = match op {
                    BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff => pos.deeper(),
                    _ => match pos {
                        Pos::Quiet => Pos::Quiet,
                        _ => Pos::Term {
                            op: op.symbol(),
                            span: *op_span,
                        },
                    },
                };
                self.walk(lhs, inner, bound);
                self.walk(rhs, inner, bound);
            }
            ExprKind::Not(arg) | ExprKind::Neg(arg) => self.walk(arg, pos.deeper(), bound),
            ExprKind::Name(name) => {
                if matches!(pos, Pos::Top | Pos::Quiet) || bound.contains(&name.name.as_str()) {
                    return;
                }
                let Some(Binding::Let(i)) = self.scope.lookup(&name.name) else {
                    return;
                };
                if let Some(mut site) = self.let_quant.get(i).cloned().flatten() {
                    site.via = Some((name.name.clone(), name.span));
                    self.misplaced_quantifier(site.quant, pos, site.via);
                }
            }
            ExprKind::Quant {
                quantifier,
                var,
                body,
                ..
            } => {
                bound.push(&var.name);
                let future = self.find_future(body, bound).is_some();
                let reported = future
                    && match (pos, quantifier) {
                        (Pos::Quiet, _) => false,
                        (_, Quantifier::Count) | (Pos::Future { .. }, _) => true,
                        (Pos::Quant { .. } | Pos::Term { .. }, _) => true,
                        (Pos::Top, _) => false,
                    };
                if reported {
                    self.misplaced_quantifier(expr, pos, None);
                }
                let inner = if reported || matches!(pos, Pos::Quiet) {
                    Pos::Quiet
                } else {
                    Pos::Quant {
                        head: quant_head(expr),
                    }
                };
                self.walk(body, inner, bound);
                bound.pop();
            }
            ExprKind::At { arg, .. } => self.walk(arg, pos.deeper(), bound),
            // Temporal operators are handled above.
            ExprKind::Unary { .. } | ExprKind::Temporal { .. } => {}
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Variant { .. }
            | ExprKind::Field { .. } => {}
        }
    }

    /// E0401 if `operand` of the past operator `op` reaches a future operator.
    fn no_future_inside(
        &mut self,
        operand: &'a Expr,
        op: &str,
        op_span: Span,
        bound: &mut Vec<&'a str>,
    ) {
        if let Some(site) = self.find_future(operand, bound) {
            self.diags.push(future_in_past(&site, op, op_span));
        }
    }

    /// The first future operator `expr` reaches without passing through a
    /// past operator, following `let`s and quantifier bodies.
    fn find_future(&self, expr: &'a Expr, bound: &mut Vec<&'a str>) -> Option<FutureSite> {
        if let Some(op) = TemporalOp::of(expr) {
            return op.is_future().then(|| op.site());
        }
        match &expr.kind {
            ExprKind::Name(name) => {
                if bound.contains(&name.name.as_str()) {
                    return None;
                }
                match self.scope.lookup(&name.name) {
                    Some(Binding::Let(i)) => {
                        let mut site = self.let_future.get(i)?.clone()?;
                        site.via = Some((name.name.clone(), name.span));
                        Some(site)
                    }
                    _ => None,
                }
            }
            ExprKind::Quant { var, body, .. } => {
                bound.push(&var.name);
                let site = self.find_future(body, bound);
                bound.pop();
                site
            }
            _ => {
                let (first, second) = expr.operands();
                match first.and_then(|e| self.find_future(e, bound)) {
                    Some(site) => Some(site),
                    None => second.and_then(|e| self.find_future(e, bound)),
                }
            }
        }
    }

    /// The first future quantifier at the top of `expr` (under Boolean
    /// connectives and `let`s only).
    fn top_quant(&self, expr: &'a Expr, bound: &mut Vec<&'a str>) -> Option<QuantSite<'a>> {
        match &expr.kind {
            ExprKind::Quant { var, body, .. } => {
                bound.push(&var.name);
                let future = self.find_future(body, bound).is_some();
                bound.pop();
                future.then_some(QuantSite {
                    quant: expr,
                    via: None,
                })
            }
            ExprKind::Not(arg) => self.top_quant(arg, bound),
            ExprKind::Binary {
                op: BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff,
                lhs,
                rhs,
                ..
            } => match self.top_quant(lhs, bound) {
                Some(site) => Some(site),
                None => self.top_quant(rhs, bound),
            },
            ExprKind::Name(name) if !bound.contains(&name.name.as_str()) => {
                match self.scope.lookup(&name.name) {
                    Some(Binding::Let(i)) => self.let_quant.get(i)?.clone(),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The head of the first quantifier in `expr`, following `let`s.
    fn find_quant(&self, expr: &'a Expr, bound: &mut Vec<&'a str>) -> Option<Span> {
        match &expr.kind {
            ExprKind::Quant { .. } => Some(quant_head(expr)),
            ExprKind::Name(name) if !bound.contains(&name.name.as_str()) => {
                match self.scope.lookup(&name.name) {
                    Some(Binding::Let(i)) => *self.let_has_quant.get(i)?,
                    _ => None,
                }
            }
            _ => {
                let (first, second) = expr.operands();
                match first.and_then(|e| self.find_quant(e, bound)) {
                    Some(site) => Some(site),
                    None => second.and_then(|e| self.find_quant(e, bound)),
                }
            }
        }
    }

    /// E0410 for the future quantifier `quant`, which sits at `pos`.
    fn misplaced_quantifier(&mut self, quant: &'a Expr, pos: Pos, via: Option<(String, Span)>) {
        let ExprKind::Quant {
            quantifier,
            var,
            group,
            body,
        } = &quant.kind
        else {
            return;
        };
        let head = quant_head(quant);
        let keyword = quantifier.keyword();
        let head_text = format!("{} {var} in {group}", quantifier.head());
        let mut labels = vec![report::primary(
            head,
            "a quantifier over a future-time body",
        )];
        let mut notes = Vec::new();
        let message;
        match (pos, quantifier) {
            (_, Quantifier::Count) => {
                message = "`count` over a future-time body is outside the monitorable fragment"
                    .to_string();
                notes.push("note: a count is a number at every step; it cannot wait for the future to know whether each member's body holds".to_string());
                notes.push("help: count a past-time body, or compare with `atleast k` / `atmost k` at the top of a property, e.g. `atleast 3 a in agents: F a.x`".to_string());
            }
            (Pos::Future { op, span, unary }, _) => {
                message = format!(
                    "`{keyword}` over a future-time body under the future operator `{op}` is outside the monitorable fragment"
                );
                labels.push(report::secondary(
                    span,
                    format_args!("`{op}` evaluates the quantifier again at later steps"),
                ));
                notes.push("note: under a future operator the quantifier is evaluated again at every later step, with the members of that step, so every step would start new monitors for each agent (unbounded state)".to_string());
                match unary.and_then(|(op, b)| self.equivalent(op, b, *quantifier, var, group, body)) {
                    Some(rewritten) => notes.push(format!("help: write the equivalent `{rewritten}`")),
                    None => notes.push(format!("note: this formula has no equivalent with `{head_text}` outside every future operator; keep future quantifiers at the top of the property")),
                }
            }
            (Pos::Quant { head: outer }, _) => {
                message = format!(
                    "`{keyword}` over a future-time body inside another quantifier's body is outside the monitorable fragment"
                );
                labels.push(report::secondary(
                    outer,
                    "inside the body of this quantifier",
                ));
                notes.push("note: a quantifier in another quantifier's body is evaluated again for each agent of the outer one, at every step where that body is evaluated, so a future-time body would need monitors per pair of agents and per step (unbounded state)".to_string());
                notes.push(format!("help: if the outer body does not need it, pull it out of the outer quantifier, e.g. `(...) && ({head_text}: ...)` at the top of the property"));
            }
            (Pos::Term { op, span }, _) => {
                message = format!(
                    "`{keyword}` over a future-time body used as an operand of `{op}` is outside the monitorable fragment"
                );
                labels.push(report::secondary(span, format_args!("operand of `{op}`")));
                notes.push("help: combine it with `!`, `&&`, `||`, `->` or `<->` only (e.g. `!` instead of `== false`)".to_string());
            }
            (Pos::Top | Pos::Quiet, _) => return,
        }
        notes.push("note: a quantifier whose body has future operators may appear only at the top of a property, under `!`, `&&`, `||`, `->` and `<->`".to_string());
        if let Some((name, used)) = via {
            labels.push(report::secondary(
                used,
                format_args!("through `let {name}`"),
            ));
        }
        self.diags.push(
            report::error(Code::MisplacedFutureQuantifier, message)
                .with_labels(labels)
                .with_notes(notes),
        );
    }

    /// The equivalent of `op[b] (quantifier var in group: body)` with the
    /// quantifier outside, if the language.md rewritings give one.
    fn equivalent(
        &self,
        op: UnaryTemporal,
        bound: Option<Bound>,
        quantifier: Quantifier,
        var: &Ident,
        group: &Ident,
        body: &Expr,
    ) -> Option<String> {
        let pred = if group.name == AGENTS {
            None
        } else {
            Some(self.group_predicate(group, var)?)
        };
        let implies = match (op, quantifier) {
            (UnaryTemporal::Globally, Quantifier::Forall) => true,
            (UnaryTemporal::Eventually, Quantifier::Exists) => false,
            (UnaryTemporal::Next, Quantifier::Count) => return None,
            (UnaryTemporal::Next, Quantifier::Forall) => true,
            (UnaryTemporal::Next, _) => false,
            _ => return None,
        };
        let inner = match pred {
            None => body.clone(),
            Some(pred) => binary(
                if implies { BinOp::Implies } else { BinOp::And },
                pred,
                body.clone(),
            ),
        };
        let moved = Expr::synthetic(ExprKind::Quant {
            quantifier,
            var: var.clone(),
            group: Ident {
                name: AGENTS.to_string(),
                span: Span::default(),
            },
            body: Box::new(Expr::synthetic(ExprKind::Unary {
                op,
                op_span: Span::default(),
                bound,
                arg: Box::new(inner),
            })),
        });
        Some(moved.to_string())
    }

    /// Group `group`'s membership predicate (its base's first, joined by `&&`),
    /// with the attributes read as `var.x`.
    fn group_predicate(&self, group: &Ident, var: &Ident) -> Option<Expr> {
        let attributes = self.scope.attribute_names();
        let mut parts = Vec::new();
        let mut current = group;
        // Bases are earlier groups, so the chain is at most as long as the list.
        for _ in 0..=self.scope.groups.len() {
            if current.name == AGENTS {
                break;
            }
            let Some(Binding::Group(i)) = self.scope.lookup(&current.name) else {
                return None;
            };
            let decl = self.scope.groups.get(i)?;
            let mut part = decl.pred.clone();
            qualify(&mut part, var, &attributes);
            parts.push(part);
            current = decl.base;
        }
        let mut parts = parts.into_iter().rev();
        let first = parts.next()?;
        Some(parts.fold(first, |all, part| binary(BinOp::And, all, part)))
    }
}

/// `lhs op rhs`, made by the checker.
fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr::synthetic(ExprKind::Binary {
        op,
        op_span: Span::default(),
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    })
}

/// Rewrites the bare attribute names of `e` to `var.name`.
fn qualify(e: &mut Expr, var: &Ident, attributes: &[&str]) {
    if let ExprKind::Name(name) = &e.kind {
        if attributes.contains(&name.name.as_str()) {
            e.kind = ExprKind::Field {
                base: var.clone(),
                field: name.clone(),
            };
        }
        return;
    }
    let (first, second) = e.operands_mut();
    for operand in [first, second].into_iter().flatten() {
        qualify(operand, var, attributes);
    }
}

/// The head `q var in G` of a quantifier expression.
fn quant_head(quant: &Expr) -> Span {
    match &quant.kind {
        ExprKind::Quant { group, .. } => {
            Span::new(quant.span.start, group.span.end.max(quant.span.start))
        }
        _ => quant.span,
    }
}
