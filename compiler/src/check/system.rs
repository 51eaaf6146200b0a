//! Checking one `system` block (Causal Past Logic): declarations, then `let`s
//! in dependency order, then guards, each on its owner lifeline; types first,
//! temporal operators second.
//!
//! The decisions the language sketch leaves open are documented where they
//! are enforced: names and groups in [`scope`], where bare names resolve and
//! what a `let` may read in [`names`], quantifier expansion in
//! [`quantifiers`], future operators in [`temporal`].

mod names;
mod protocol;
mod quantifiers;
mod scope;
mod temporal;

use super::block::{self, Lets};
use super::enums::EnumTable;
use super::types::{FormulaOf, Typer};
use crate::hir;
use hindsight_grammar::ast::SystemDecl;
use hindsight_grammar::diag::Diag;
use names::{On, SystemNames};
use scope::{Binding, SystemScope};
use temporal::Within;

/// Checks a system; `Some` only if nothing in it (or used by it) is wrong.
pub(super) fn check_system(
    decl: &SystemDecl,
    enums: &EnumTable,
    diags: &mut Vec<Diag>,
) -> Option<hir::System> {
    let scope = SystemScope::build(decl, enums, diags);
    let let_named = |name: &str| match scope.lookup(name) {
        Some(Binding::Let(i)) => Some(i),
        _ => None,
    };
    let lets = Lets::prepare(&scope.lets, &let_named, diags);
    let guard_usable = block::shallow(scope.guards.iter().map(|g| g.formula), diags);

    let names = SystemNames {
        scope: &scope,
        on: On::Let,
        bound: Vec::new(),
    };
    let mut typer = Typer::new(enums, names, &scope.lets, diags);
    lets.type_all(&mut typer);
    let mut guards = Vec::with_capacity(scope.guards.len());
    for (guard, &usable) in scope.guards.iter().zip(&guard_usable) {
        let owner = scope.resolve_lifeline(guard.at, typer.diags);
        typer.names.on = owner.map_or(On::Unknown, On::Lifeline);
        let formula = usable
            .then(|| typer.check_formula(guard.formula, FormulaOf::Guard))
            .flatten();
        guards.push(owner.zip(formula).map(|(owner, formula)| hir::Guard {
            name: guard.name.name.clone(),
            owner,
            formula,
            span: guard.span,
        }));
    }

    let let_names = typer.let_names();
    let time = scope.time.map(|t| t.field.span);
    for (i, _) in lets.checkable() {
        if let Some(decl) = scope.lets.get(i) {
            temporal::check_formula(&decl.value, Within::Let(&decl.name), time, diags);
        }
    }
    for (guard, _) in scope.guards.iter().zip(&guard_usable).filter(|(_, &u)| u) {
        let within = Within::Guard(guard.name, guard.at);
        temporal::check_formula(guard.formula, within, time, diags);
    }

    let lifelines = scope
        .lifelines
        .iter()
        .map(|lifeline| {
            let mut vars = block::inputs(&lifeline.vars)?;
            // The events' time, a variable of every lifeline, last.
            vars.extend(scope.time.map(|t| hir::Input {
                name: t.field.name.name.clone(),
                ty: hir::Ty::Int,
                span: t.field.span,
            }));
            Some(hir::Lifeline {
                name: lifeline.name.name.clone(),
                vars,
                span: lifeline.span,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let protocols = protocol::check_protocols(&scope, diags);
    Some(hir::System {
        name: decl.name.name.clone(),
        lifelines,
        guards: guards.into_iter().collect::<Option<Vec<_>>>()?,
        time: scope.time.map(|t| t.field.name.name.clone()),
        let_names,
        protocols: protocols?,
        span: decl.span,
    })
}
