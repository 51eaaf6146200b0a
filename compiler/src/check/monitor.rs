//! Checking one `monitor` block: declarations, then `let`s in dependency
//! order, then properties; types first, temporal placement second.

use super::enums::EnumTable;
use super::lets::order_lets;
use super::limits::shallow_enough;
use super::monitor_names::MonitorNames;
use super::scope::{Binding, Scope};
use super::temporal::TemporalCheck;
use super::types::{FormulaOf, Typer};
use crate::hir;
use hindsight_grammar::ast::MonitorDecl;
use hindsight_grammar::diag::Diag;

/// Checks a monitor; `Some` only if nothing in it (or used by it) is wrong.
pub(super) fn check_monitor(
    decl: &MonitorDecl,
    enums: &EnumTable,
    diags: &mut Vec<Diag>,
) -> Option<hir::Monitor> {
    let scope = Scope::build(decl, enums, diags);
    let let_usable: Vec<bool> = scope
        .lets
        .iter()
        .map(|l| shallow_enough(&l.value, diags))
        .collect();
    let property_usable: Vec<bool> = scope
        .properties
        .iter()
        .map(|p| shallow_enough(&p.formula, diags))
        .collect();
    let let_named = |name: &str| match scope.lookup(name) {
        Some(Binding::Let(i)) => Some(i),
        _ => None,
    };
    let order = order_lets(&scope.lets, &let_named, &let_usable, diags);
    let is_usable = |i: usize| let_usable.get(i).copied().unwrap_or(false);
    let is_cyclic = |i: usize| order.cyclic.get(i).copied().unwrap_or(false);

    let names = MonitorNames {
        scope: &scope,
        monitor_name: &decl.name.name,
    };
    let mut typer = Typer::new(enums, names, &scope.lets, diags);
    for &i in &order.order {
        if is_usable(i) {
            typer.check_let(i, is_cyclic(i));
        } else {
            typer.fail_let(i);
        }
    }
    let formulas: Vec<Option<hir::Expr>> = scope
        .properties
        .iter()
        .zip(&property_usable)
        .map(|(p, &usable)| {
            usable
                .then(|| typer.check_formula(&p.formula, FormulaOf::Property))
                .flatten()
        })
        .collect();

    let mut temporal = TemporalCheck::new(&scope, diags);
    for &i in order.order.iter().filter(|&&i| is_usable(i)) {
        temporal.check_let(i, is_cyclic(i));
    }
    for (p, _) in scope
        .properties
        .iter()
        .zip(&property_usable)
        .filter(|(_, &u)| u)
    {
        temporal.check_property(&p.formula, p.reset);
    }

    let inputs = scope
        .inputs
        .iter()
        .map(|input| {
            Some(hir::Input {
                name: input.decl.name.name.clone(),
                ty: input.ty?,
                span: input.decl.span,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let properties = scope
        .properties
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
        .collect::<Option<Vec<_>>>()?;
    Some(hir::Monitor {
        name: decl.name.name.clone(),
        inputs,
        properties,
        span: decl.span,
    })
}
