//! Quantifiers over groups of lifelines, expanded at compile time.
//!
//! `q l in G: φ` types φ once per member of `G` (in the order the group lists
//! them) with `l` standing for that member in `l.x` and `@l`; bare names in φ
//! still refer to the lifeline the enclosing formula is evaluated on. With
//! instances φ1 … φn:
//! - `forall`: `((φ1 && φ2) && …) && φn`, `true` for an empty group;
//! - `exists`: the same with `||`, `false` for an empty group;
//! - `count`: `Count([φ1, …, φn])`, an `int` (0 for an empty group);
//! - `atleast k` / `atmost k`: `Count(…) >= k` / `Count(…) <= k` (a `k` above
//!   `i64::MAX` is taken as `i64::MAX`: no count reaches either).
//!
//! The errors of the body are reported for the first member whose instance
//! has any, so once rather than once per member. Over an empty group, the body
//! is still checked, as far as it can be with `l` standing for no lifeline.

use super::names::SystemNames;
use crate::check::limits::MAX_NODES;
use crate::check::types::{leaf, Quantified, Typed, Typer};
use crate::hir::{self, BoolOp, CmpOp, ExprKind, Ty, Value};
use hindsight_grammar::ast::{Quantifier, Span};

impl<'a> Typer<'_, 'a, SystemNames<'_, 'a>> {
    /// The expansion of a quantifier.
    pub(super) fn expand(&mut self, quantified: Quantified<'_>) -> Option<Typed> {
        let Quantified {
            span,
            quantifier,
            group,
            ..
        } = quantified;
        let scope = self.names.scope;
        let members = scope
            .resolve_group(group, self.diags)
            .and_then(|g| scope.groups.get(g))
            .map(|g| g.members.as_slice());
        let Some(members) = members else {
            // Check the body anyway, for errors of its own.
            self.instance(quantified, None);
            return None;
        };
        if members.is_empty() {
            let before = self.diags.len();
            self.instance(quantified, None);
            if self.diags.len() > before {
                return None;
            }
        }
        let mut instances = Vec::with_capacity(members.len());
        let mut nodes = 0usize;
        for &member in members {
            let instance = self.instance(quantified, Some(member))?;
            nodes = nodes.saturating_add(instance.nodes());
            if nodes > MAX_NODES {
                self.too_large();
                return None;
            }
            instances.push(instance);
        }
        self.combine(quantifier, instances, quantified.head(), span)
    }

    /// The body typed with the quantifier's variable standing for `member`.
    fn instance(&mut self, quantified: Quantified<'_>, member: Option<usize>) -> Option<Typed> {
        let var = quantified.var.name.clone();
        self.names.bound.push((var, member));
        let typed = self.formula(quantified.body, quantified.body_of());
        self.names.bound.pop();
        typed
    }

    /// The instances combined as the module doc says; `head` is where the
    /// quantifier and its group are written, `span` the whole quantifier.
    fn combine(
        &mut self,
        quantifier: Quantifier,
        instances: Vec<Typed>,
        head: Span,
        span: Span,
    ) -> Option<Typed> {
        let (op, k) = match quantifier {
            Quantifier::Forall | Quantifier::Exists => {
                let forall = quantifier == Quantifier::Forall;
                let op = if forall { BoolOp::And } else { BoolOp::Or };
                let mut instances = instances.into_iter();
                let Some(first) = instances.next() else {
                    let empty = ExprKind::Const(Value::Bool(forall));
                    return Some(leaf(empty, Ty::Bool, span));
                };
                return instances.try_fold(first, |acc, next| {
                    self.node_over([acc, next], Ty::Bool, span, |[a, b]| {
                        ExprKind::Bool(op, Box::new(a), Box::new(b))
                    })
                });
            }
            Quantifier::Count => return self.count_node(instances, span),
            Quantifier::AtLeast(k) => (CmpOp::Ge, k),
            Quantifier::AtMost(k) => (CmpOp::Le, k),
        };
        let count = self.count_node(instances, span)?;
        let k = i64::try_from(k).unwrap_or(i64::MAX);
        let k = leaf(hir::ExprKind::Const(Value::Int(k)), Ty::Int, head);
        self.node_over([count, k], Ty::Bool, span, |[count, k]| {
            ExprKind::Cmp(op, Box::new(count), Box::new(k))
        })
    }
}
