//! Checking one `monitor` block: declarations, then `let`s in dependency
//! order, then properties; types first, temporal placement second.

use super::enums::EnumTable;
use super::lets::order_lets;
use super::limits;
use super::scope::Scope;
use super::temporal::TemporalCheck;
use super::types::Typer;
use crate::hir;
use hindsight_grammar::ast::{Expr, MonitorDecl};
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
    let order = order_lets(&scope, &let_usable, diags);
    let is_usable = |i: usize| let_usable.get(i).copied().unwrap_or(false);
    let is_cyclic = |i: usize| order.cyclic.get(i).copied().unwrap_or(false);

    let mut typer = Typer::new(enums, &scope, &decl.name.name, diags);
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
        .map(|(p, &usable)| usable.then(|| typer.check_property(&p.formula)).flatten())
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

/// Whether `expr` nests within the depth limit; reports it (E0900) if not.
fn shallow_enough(expr: &Expr, diags: &mut Vec<Diag>) -> bool {
    match limits::too_deep(expr) {
        Some(span) => {
            diags.push(limits::too_deep_error(span, false));
            false
        }
        None => true,
    }
}
