//! The checking sequence every block kind follows, with the kind's policy
//! (its scope, names, formulas and temporal rules) supplied by
//! `check/{monitor,system,population}.rs`:
//!
//! 1. each `let` and formula is measured against the nesting limit
//!    ([`super::limits`]); one too deep is reported and not checked further;
//! 2. the `let`s are put in dependency order (cycles reported, E0303);
//! 3. the typer checks the `let`s in that order, then the block's formulas;
//! 4. the temporal checks walk the same `let`s, then the formulas;
//! 5. the HIR is assembled only if every part checked.

use super::lets::{order_lets, LetOrder};
use super::limits::shallow_enough;
use super::scope::InputDecl;
use super::types::{FormulaOf, Names, Typer};
use crate::hir;
use hindsight_grammar::ast::{Expr, LetDecl, PropertyDecl};
use hindsight_grammar::diag::Diag;

/// Per expression, whether it is shallow enough to check (reporting those
/// that are not).
pub(super) fn shallow<'e>(
    exprs: impl Iterator<Item = &'e Expr>,
    diags: &mut Vec<Diag>,
) -> Vec<bool> {
    exprs.map(|e| shallow_enough(e, diags)).collect()
}

/// A block's `let`s, measured and ordered (steps 1 and 2).
pub(super) struct Lets {
    usable: Vec<bool>,
    order: LetOrder,
}

impl Lets {
    /// Measures and orders `decls`; `let_named` resolves a name to a `let`.
    pub(super) fn prepare(
        decls: &[&LetDecl],
        let_named: &dyn Fn(&str) -> Option<usize>,
        diags: &mut Vec<Diag>,
    ) -> Self {
        let usable = shallow(decls.iter().map(|l| &l.value), diags);
        let order = order_lets(decls, let_named, &usable, diags);
        Lets { usable, order }
    }

    /// Types every `let` in dependency order; one too deep to check fails.
    pub(super) fn type_all<'a, N: Names<'a>>(&self, typer: &mut Typer<'_, 'a, N>) {
        for &i in &self.order.order {
            if self.is_usable(i) {
                typer.check_let(i, self.is_cyclic(i));
            } else {
                typer.fail_let(i);
            }
        }
    }

    /// The `let`s the temporal checks walk: the usable ones in dependency
    /// order, each with whether it is on a cycle.
    pub(super) fn checkable(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.order
            .order
            .iter()
            .filter(|&&i| self.is_usable(i))
            .map(|&i| (i, self.is_cyclic(i)))
    }

    fn is_usable(&self, i: usize) -> bool {
        self.usable.get(i).copied().unwrap_or(false)
    }

    fn is_cyclic(&self, i: usize) -> bool {
        self.order.cyclic.get(i).copied().unwrap_or(false)
    }
}

/// Types each usable property's formula (step 3).
pub(super) fn type_properties<'a, N: Names<'a>>(
    typer: &mut Typer<'_, 'a, N>,
    properties: &[&PropertyDecl],
    usable: &[bool],
) -> Vec<Option<hir::Expr>> {
    properties
        .iter()
        .zip(usable)
        .map(|(p, &usable)| {
            usable
                .then(|| typer.check_formula(&p.formula, FormulaOf::Property))
                .flatten()
        })
        .collect()
}

/// The checked inputs, if every type resolved (step 5).
pub(super) fn inputs(decls: &[InputDecl]) -> Option<Vec<hir::Input>> {
    decls
        .iter()
        .map(|input| {
            Some(hir::Input {
                name: input.decl.name.name.clone(),
                ty: input.ty?,
                span: input.decl.span,
            })
        })
        .collect()
}

/// The checked properties, if every formula checked (step 5).
pub(super) fn properties(
    decls: &[&PropertyDecl],
    formulas: Vec<Option<hir::Expr>>,
) -> Option<Vec<hir::Property>> {
    decls
        .iter()
        .zip(formulas)
        .map(|(p, formula)| {
            Some(hir::Property {
                name: p.name.name.clone(),
                formula: formula?,
                reset: p.reset.is_some(),
                span: p.span,
            })
        })
        .collect()
}
