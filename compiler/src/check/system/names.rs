//! The names of a `system` block, resolved where each formula is evaluated.
//!
//! A guard's formula is evaluated on its owner lifeline; inside `@L φ`, φ is
//! evaluated on `L`. A bare name is, in this order: the variable of an
//! enclosing quantifier (a lifeline, so not a value: E0206), a `let`, a
//! variable of the lifeline the formula is evaluated on
//! ([`hir::ExprKind::Input`]), an enum variant. `L.x` reads variable `x` of
//! lifeline `L` ([`hir::ExprKind::Remote`]) and `@L φ` moves evaluation to `L`
//! ([`hir::ExprKind::At`]); `L` may be a lifeline or a quantifier's variable.
//!
//! `let`s are typed once, where they are defined, and inlined at every use, so
//! a `let` cannot read bare variables outside `@L` (whose lifeline would depend
//! on the use): it names them `L.x`, or evaluates on `L` with `@L (...)`.

use super::scope::{Binding, SystemScope};
use crate::check::report;
use crate::check::similar;
use crate::check::types::{
    declared_leaf, At, FieldRead, FormulaOf, Names, Quantified, Typed, Typer,
};
use crate::diag::Code;
use crate::hir;
use hindsight_grammar::ast::Ident;

/// Where the formula being typed is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum On {
    /// On this lifeline: bare variables are its variables.
    Lifeline(usize),
    /// Nowhere yet: a `let` body outside any `@L`.
    Let,
    /// On a lifeline that could not be resolved (already reported), or on the
    /// variable of a quantifier over an empty group: bare variables of any
    /// lifeline yield nothing, without a further error.
    Unknown,
}

/// A system's names for the [`Typer`], with where the current formula is
/// evaluated and the quantifier variables in scope.
pub(super) struct SystemNames<'s, 'a> {
    /// Its declarations.
    pub scope: &'s SystemScope<'a>,
    /// Where the formula being typed is evaluated.
    pub on: On,
    /// The variables of the enclosing quantifiers, innermost last, each with
    /// the lifeline it stands for in the instance being typed (`None` when
    /// the body of a quantifier over an empty group is checked).
    pub bound: Vec<(String, Option<usize>)>,
}

/// A lifeline as written in `L.x` or `@L`.
enum Place {
    /// A lifeline.
    Lifeline(usize),
    /// The variable of a quantifier over an empty group: stands for none.
    Nowhere,
}

impl<'a> Names<'a> for SystemNames<'_, 'a> {
    fn name(typer: &mut Typer<'_, 'a, Self>, name: &Ident) -> Option<Typed> {
        if typer.names.bound_lifeline(&name.name).is_some() {
            typer.diags.push(
                report::error(
                    Code::WrongRole,
                    format_args!("expected a value, found the lifeline variable `{name}`"),
                )
                .with_labels(vec![report::primary(
                    name.span,
                    "this stands for a lifeline of the group",
                )])
                .with_notes(vec![format!(
                    "help: read one of its variables as `{name}.x`, or evaluate a formula there with `@{name} (...)`"
                )]),
            );
            return None;
        }
        let scope = typer.names.scope;
        let binding = scope.lookup(&name.name);
        if let Some(Binding::Let(i)) = binding {
            return typer.inline_let(i, name.span);
        }
        if let (Some(Binding::Time), Some(time)) = (binding, scope.time) {
            let diag = report::time_as_value(name, Some(time.field.name.span));
            typer.diags.push(diag);
            return None;
        }
        if let On::Lifeline(l) = typer.names.on {
            let lifeline = scope.lifelines.get(l)?;
            if let Some(var) = lifeline.var(&name.name) {
                let kind = hir::ExprKind::Input(var);
                return declared_leaf(&lifeline.vars, var, kind, name.span);
            }
        }
        if let Some(variant) = typer.bare_variant(name) {
            return variant;
        }
        if let Some(other) = binding {
            typer.diags.push(scope.wrong_role(name, other, "a value"));
            return None;
        }
        typer.unknown_name(name);
        None
    }

    fn field(typer: &mut Typer<'_, 'a, Self>, read: FieldRead<'_>) -> Option<Typed> {
        let FieldRead { span, base, field } = read;
        let Place::Lifeline(l) = typer.place(base)? else {
            return None;
        };
        let scope = typer.names.scope;
        if let Some(time) = scope.time.filter(|t| t.field.name.name == field.name) {
            let diag = report::time_as_value(field, Some(time.field.name.span));
            typer.diags.push(diag);
            return None;
        }
        let lifeline = scope.lifelines.get(l)?;
        let Some(var) = lifeline.var(&field.name) else {
            typer.unknown_variable(l, base, field);
            return None;
        };
        let kind = hir::ExprKind::Remote { lifeline: l, var };
        declared_leaf(&lifeline.vars, var, kind, span)
    }

    fn at(typer: &mut Typer<'_, 'a, Self>, at: At<'_>) -> Option<Typed> {
        let place = typer.place(at.lifeline);
        let on = match place {
            Some(Place::Lifeline(l)) => On::Lifeline(l),
            _ => On::Unknown,
        };
        let outer = std::mem::replace(&mut typer.names.on, on);
        let within = FormulaOf::Operand {
            op: "@",
            span: at.head(),
        };
        let arg = typer.formula(at.arg, within);
        typer.names.on = outer;
        let (Some(Place::Lifeline(l)), Some(arg)) = (place, arg) else {
            return None;
        };
        typer.node_over([arg], hir::Ty::Bool, at.span, |[arg]| hir::ExprKind::At {
            lifeline: l,
            arg: Box::new(arg),
        })
    }

    fn quantifier(typer: &mut Typer<'_, 'a, Self>, quantified: Quantified<'_>) -> Option<Typed> {
        typer.expand(quantified)
    }
}

impl SystemNames<'_, '_> {
    /// The lifeline the innermost quantifier variable called `name` stands for.
    fn bound_lifeline(&self, name: &str) -> Option<Option<usize>> {
        self.bound
            .iter()
            .rev()
            .find(|(bound, _)| bound == name)
            .map(|(_, lifeline)| *lifeline)
    }
}

impl<'a> Typer<'_, 'a, SystemNames<'_, 'a>> {
    /// The lifeline `name` stands for in `name.x` or `@name`: a quantifier's
    /// variable or a declared lifeline (reported if neither).
    fn place(&mut self, name: &Ident) -> Option<Place> {
        match self.names.bound_lifeline(&name.name) {
            Some(Some(l)) => Some(Place::Lifeline(l)),
            Some(None) => Some(Place::Nowhere),
            None => self
                .names
                .scope
                .resolve_lifeline(name, self.diags)
                .map(Place::Lifeline),
        }
    }

    /// E0200 for `base.field` where lifeline `l` has no variable `field`.
    fn unknown_variable(&mut self, l: usize, base: &Ident, field: &Ident) {
        let Some(lifeline) = self.names.scope.lifelines.get(l) else {
            return;
        };
        let vars: Vec<&str> = lifeline
            .vars
            .iter()
            .map(|v| v.decl.name.name.as_str())
            .collect();
        let notes = similar::unknown_notes(
            &field.name,
            &vars,
            format!("note: lifeline `{}` has no variables", lifeline.name),
            |vars| format!("note: the variables of `{}` are {vars}", lifeline.name),
        );
        let label = if base.name == lifeline.name.name {
            format!("not a variable of lifeline `{base}`")
        } else {
            format!(
                "not a variable of lifeline `{}` (`{base}` here)",
                lifeline.name
            )
        };
        self.diags.push(
            report::error(
                Code::UnknownName,
                format_args!("lifeline `{}` has no variable `{field}`", lifeline.name),
            )
            .with_labels(vec![report::primary(field.span, label)])
            .with_notes(notes),
        );
    }

    /// Reports a bare `name` that nothing declares where it is evaluated
    /// (nothing at all if that place is [`On::Unknown`] and some lifeline has
    /// such a variable: the cause is already reported).
    fn unknown_name(&mut self, name: &Ident) {
        let scope = self.names.scope;
        let owners: Vec<&str> = scope
            .lifelines
            .iter()
            .filter(|l| l.var(&name.name).is_some())
            .map(|l| l.name.name.as_str())
            .collect();
        match (self.names.on, owners.first()) {
            (On::Unknown, Some(_)) => return,
            (On::Let, Some(owner)) => {
                self.diags.push(
                    report::error(
                        Code::UnknownName,
                        format_args!("a `let` in a system cannot read the bare variable `{name}`"),
                    )
                    .with_labels(vec![report::primary(
                        name.span,
                        "a `let` is not evaluated on one lifeline",
                    )])
                    .with_notes(vec![
                        format!("help: name the lifeline: write `{owner}.{name}`, or put this part under `@{owner} (...)`"),
                        "note: a `let` is inlined wherever it is used, so a bare variable would mean a different lifeline at each use".to_string(),
                    ]),
                );
                return;
            }
            _ => {}
        }
        if self.enum_as_value(name) {
            return;
        }
        let here = match self.names.on {
            On::Lifeline(l) => scope.lifelines.get(l),
            On::Let | On::Unknown => None,
        };
        let label = match here {
            Some(lifeline) => format!(
                "not a variable of lifeline `{}` (where this formula is evaluated), a `let` or an enum variant",
                lifeline.name
            ),
            None => "not a `let`, an enum variant or a variable of any lifeline".to_string(),
        };
        let mut notes = Vec::new();
        match owners.first() {
            Some(owner) => notes.push(format!(
                "help: `{name}` is a variable of {}: write `{owner}.{name}` to read it at the latest `{owner}` event visible here",
                lifelines_phrase(&owners)
            )),
            None => {
                let vars = here
                    .into_iter()
                    .flat_map(|l| l.vars.iter().map(|v| v.decl.name.name.as_str()));
                let lets = scope.lets.iter().map(|d| d.name.name.as_str());
                let candidates = vars.chain(lets).chain(self.enums.variant_names());
                notes.extend(similar::did_you_mean(&name.name, candidates));
            }
        }
        self.diags.push(
            report::error(Code::UnknownName, format_args!("unknown name `{name}`"))
                .with_labels(vec![report::primary(name.span, label)])
                .with_notes(notes),
        );
    }
}

/// "lifeline `A`", "lifelines `A` and `B`".
fn lifelines_phrase(names: &[&str]) -> String {
    let plural = if names.len() == 1 { "" } else { "s" };
    format!("lifeline{plural} {}", report::list_names(names))
}
