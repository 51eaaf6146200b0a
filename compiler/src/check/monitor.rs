//! Checking one `monitor` block: declarations, then `let`s in dependency
//! order, then properties; types first, temporal placement second.

use super::block::{self, Lets};
use super::enums::EnumTable;
use super::monitor_names::MonitorNames;
use super::reading::check_reading;
use super::scope::{Binding, Scope};
use super::temporal::TemporalCheck;
use super::types::{FormulaOf, Typer};
use crate::hir;
use hindsight_grammar::ast::{GoalDecl, MonitorDecl};
use hindsight_grammar::diag::Diag;

/// Checks a monitor; `Some` only if nothing in it (or used by it) is wrong.
pub(super) fn check_monitor(
    decl: &MonitorDecl,
    enums: &EnumTable,
    diags: &mut Vec<Diag>,
) -> Option<hir::Monitor> {
    let scope = Scope::build(decl, enums, diags);
    let let_named = |name: &str| match scope.lookup(name) {
        Some(Binding::Let(i)) => Some(i),
        _ => None,
    };
    let lets = Lets::prepare(&scope.lets, &let_named, diags);
    let property_usable = block::shallow(scope.properties.iter().map(|p| &p.formula), diags);
    let goal_usable = block::shallow(scope.goals.iter().map(|g| &g.value), diags);

    let names = MonitorNames {
        scope: &scope,
        monitor_name: &decl.name.name,
    };
    let mut typer = Typer::new(enums, names, &scope.lets, diags);
    lets.type_all(&mut typer);
    let formulas = block::type_properties(&mut typer, &scope.properties, &property_usable);
    let goal_formulas: Vec<Option<hir::Expr>> = scope
        .goals
        .iter()
        .zip(&goal_usable)
        .map(|(g, &usable)| {
            usable
                .then(|| typer.check_formula(&g.value, FormulaOf::Goal))
                .flatten()
        })
        .collect();
    let let_names = typer.let_names();
    // The past-time `let`s, as features of learned models.
    let features = scope
        .lets
        .iter()
        .enumerate()
        .filter_map(|(i, decl)| {
            let body = typer.checked_let(i).filter(|e| !e.is_future())?;
            Some(hir::Definition {
                name: decl.name.name.clone(),
                expr: body.clone(),
                span: decl.span,
            })
        })
        .collect();

    let mut temporal = TemporalCheck::new(&scope, diags);
    for (i, cyclic) in lets.checkable() {
        temporal.check_let(i, cyclic);
    }
    for (p, _) in scope
        .properties
        .iter()
        .zip(&property_usable)
        .filter(|(_, &u)| u)
    {
        temporal.check_property(&p.formula, p.reset);
    }
    for (g, _) in scope.goals.iter().zip(&goal_usable).filter(|(_, &u)| u) {
        temporal.check_goal(g);
    }

    let reading = check_reading(decl, &scope.inputs, enums, diags);
    Some(hir::Monitor {
        name: decl.name.name.clone(),
        inputs: block::inputs(&scope.inputs)?,
        properties: block::properties(&scope.properties, formulas)?,
        goals: definitions(&scope.goals, goal_formulas)?,
        lets: features,
        reading: reading?,
        let_names,
        span: decl.span,
    })
}

/// The checked goals, if every one checked.
fn definitions(
    goals: &[&GoalDecl],
    formulas: Vec<Option<hir::Expr>>,
) -> Option<Vec<hir::Definition>> {
    goals
        .iter()
        .zip(formulas)
        .map(|(g, expr)| {
            Some(hir::Definition {
                name: g.name.name.clone(),
                expr: expr?,
                span: g.span,
            })
        })
        .collect()
}
