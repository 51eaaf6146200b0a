//! Checking one `population` block: declarations, then `let`s in dependency
//! order, then groups in declaration order, then properties; types first,
//! temporal placement second.
//!
//! The decisions are documented where they are enforced: names, capacity and
//! duplicate blocks in [`scope`]; bare names, `a.x` and quantifiers in
//! [`names`]; temporal placement and the monitorable fragment of future
//! quantifiers (E0410) in [`temporal`]. Group bases are `agents` or an
//! *earlier* group, so membership predicates never refer to themselves; a
//! group's [`hir::Group::member`] conjoins its base's predicate first.

mod names;
mod scope;
mod temporal;

use super::block::{self, Lets};
use super::enums::EnumTable;
use super::limits::{self, MAX_DEPTH};
use super::report;
use super::types::{FormulaOf, Typer};
use crate::hir::{self, BoolOp, ExprKind, Ty};
use hindsight_grammar::ast::{Ident, PopulationDecl, Span};
use hindsight_grammar::diag::{Code, Diag};
use names::{base_not_a_group, unknown_group, Context, PopulationNames};
use scope::{Binding, GroupDecl, PopulationScope, AGENTS};
use temporal::PopulationTemporal;

/// Checks a population; `Some` only if nothing in it (or used by it) is wrong.
pub(super) fn check_population(
    decl: &PopulationDecl,
    enums: &EnumTable,
    diags: &mut Vec<Diag>,
) -> Option<hir::Population> {
    let scope = PopulationScope::build(decl, enums, diags);
    let let_named = |name: &str| match scope.lookup(name) {
        Some(Binding::Let(i)) => Some(i),
        _ => None,
    };
    let lets = Lets::prepare(&scope.lets, &let_named, diags);
    let group_usable = block::shallow(scope.groups.iter().map(|g| g.pred), diags);
    let property_usable = block::shallow(scope.properties.iter().map(|p| &p.formula), diags);

    let names = PopulationNames {
        scope: &scope,
        context: Context::Let,
        bound: Vec::new(),
    };
    let mut typer = Typer::new(enums, names, &scope.lets, diags);
    lets.type_all(&mut typer);

    typer.names.context = Context::Group;
    let mut members: Vec<Option<(hir::Expr, usize)>> = Vec::with_capacity(scope.groups.len());
    for (index, (group, &usable)) in scope.groups.iter().zip(&group_usable).enumerate() {
        let base = resolve_base(&scope, index, group, typer.diags);
        let where_span = Span::new(
            group.base.span.end,
            group.pred.span.start.max(group.base.span.end),
        );
        let pred = usable
            .then(|| {
                typer.check_formula(
                    group.pred,
                    FormulaOf::Operand {
                        op: "where",
                        span: where_span,
                    },
                )
            })
            .flatten();
        let member = match (base, pred) {
            (Some(None), Some(pred)) => Some((pred, 1)),
            (Some(Some(b)), Some(pred)) => match members.get(b).cloned().flatten() {
                Some((base_member, depth)) if depth < MAX_DEPTH => {
                    let span = pred.span;
                    let kind = ExprKind::Bool(BoolOp::And, Box::new(base_member), Box::new(pred));
                    Some((
                        hir::Expr {
                            kind,
                            ty: Ty::Bool,
                            span,
                        },
                        depth + 1,
                    ))
                }
                Some(_) => {
                    typer.diags.push(limits::groups_too_deep_error(
                        group.name.span,
                        &group.name.name,
                    ));
                    None
                }
                None => None,
            },
            _ => None,
        };
        members.push(member);
    }

    typer.names.context = Context::Property;
    let formulas = block::type_properties(&mut typer, &scope.properties, &property_usable);

    let mut temporal = PopulationTemporal::new(&scope, diags);
    for (i, cyclic) in lets.checkable() {
        temporal.check_let(i, cyclic);
    }
    for (group, _) in scope.groups.iter().zip(&group_usable).filter(|(_, &u)| u) {
        temporal.check_group(group.name, group.pred);
    }
    for (p, _) in scope
        .properties
        .iter()
        .zip(&property_usable)
        .filter(|(_, &u)| u)
    {
        temporal.check_property(&p.formula, p.reset);
    }

    let groups = scope
        .groups
        .iter()
        .zip(members)
        .map(|(group, member)| {
            Some(hir::Group {
                name: group.name.name.clone(),
                member: member?.0,
                span: group.span,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(hir::Population {
        name: decl.name.name.clone(),
        attributes: block::inputs(&scope.attributes)?,
        globals: block::inputs(&scope.globals)?,
        time: scope.time,
        groups,
        properties: block::properties(&scope.properties, formulas)?,
        capacity: scope.capacity?,
        span: decl.span,
    })
}

/// The base of group number `index`: `Some(None)` for `agents`,
/// `Some(Some(j))` for the earlier group `j`; reported otherwise.
fn resolve_base(
    scope: &PopulationScope,
    index: usize,
    group: &GroupDecl,
    diags: &mut Vec<Diag>,
) -> Option<Option<usize>> {
    let base: &Ident = group.base;
    match scope.lookup(&base.name) {
        Some(Binding::Group(j)) if j < index => return Some(Some(j)),
        Some(Binding::Group(j)) => {
            let what = if j == index {
                format!("group `{}` cannot be built on itself", group.name)
            } else {
                format!(
                    "group `{}` is built on `{base}`, which is declared after it",
                    group.name
                )
            };
            let mut labels = vec![report::primary(
                base.span,
                "not `agents` or an earlier group",
            )];
            if let Some(later) = scope.groups.get(j).filter(|_| j != index) {
                labels.push(report::secondary(later.name.span, "declared here"));
            }
            diags.push(
                report::error(Code::UnknownName, what)
                    .with_labels(labels)
                    .with_notes(vec![
                        "help: a group's base is `agents` or a group declared before it; move the declarations so each group follows its base".to_string(),
                    ]),
            );
        }
        None if base.name == AGENTS => return Some(None),
        Some(other) => diags.push(base_not_a_group(scope, base, other)),
        None => diags.push(unknown_group(
            scope,
            base,
            Some("help: a group's base is `agents` or a group declared before it".to_string()),
        )),
    }
    None
}
