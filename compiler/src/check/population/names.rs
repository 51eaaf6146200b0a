//! The names of a `population` block, for the [`Typer`].
//!
//! - A bare name is, in this order: the variable of an enclosing quantifier
//!   (an agent, not a value: E0206); in a group's predicate, an attribute of
//!   the candidate agent ([`hir::ExprKind::Attribute`]); a global
//!   ([`hir::ExprKind::Input`]); a `let`; an enum variant. A bare attribute
//!   anywhere else is E0200: attributes are read as `a.x`.
//! - `a.x` reads attribute `x` of the agent `a` ranges over; `a` must be the
//!   variable of the *innermost* enclosing quantifier (E0411 otherwise: a
//!   nested quantifier's body reads only its own agent, so state stays per
//!   agent rather than per pair of agents).
//! - `q a in G: φ` ranges over `agents` (all agents) or a declared group;
//!   quantifiers are not allowed in a group's predicate (E0403), and neither
//!   is `@L` anywhere (E0403).
//! - `let`s are typed once, where they are defined, so a `let` reads `a.x`
//!   only for an `a` bound inside it, and never a bare attribute.

use super::scope::{Binding, PopulationScope, AGENTS};
use crate::check::report;
use crate::check::similar;
use crate::check::types::{declared_leaf, At, FieldRead, Names, Quantified, Typed, Typer};
use crate::hir::{self, Ty};
use hindsight_grammar::ast::{Ident, Quantifier, Span};
use hindsight_grammar::diag::{Code, Diag};

/// What kind of formula is being typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Context {
    /// A `let` body (typed once, wherever it is used).
    Let,
    /// A group's membership predicate, over the candidate agent.
    Group,
    /// A property's formula.
    Property,
}

/// The variable of an enclosing quantifier.
pub(super) struct BoundVar {
    /// Its name.
    pub name: String,
    /// The quantifier's head (`forall a in G`).
    pub head: Span,
    /// The head as text (`forall a in G`).
    pub text: String,
}

/// A population's names, with what is being typed and the quantifier
/// variables in scope (innermost last).
pub(super) struct PopulationNames<'s, 'a> {
    /// Its declarations.
    pub scope: &'s PopulationScope<'a>,
    /// What is being typed.
    pub context: Context,
    /// The variables of the enclosing quantifiers, innermost last.
    pub bound: Vec<BoundVar>,
}

impl<'a> Names<'a> for PopulationNames<'_, 'a> {
    fn name(typer: &mut Typer<'_, 'a, Self>, name: &Ident) -> Option<Typed> {
        if typer.names.bound.iter().any(|b| b.name == name.name) {
            typer.variable_as_value(name);
            return None;
        }
        let scope = typer.names.scope;
        match scope.lookup(&name.name) {
            Some(Binding::Attribute(i)) if typer.names.context == Context::Group => {
                declared_leaf(&scope.attributes, i, hir::ExprKind::Attribute(i), name.span)
            }
            Some(Binding::Attribute(_)) => {
                typer.bare_attribute(name);
                None
            }
            Some(Binding::Global(i)) => {
                declared_leaf(&scope.globals, i, hir::ExprKind::Input(i), name.span)
            }
            Some(Binding::Let(i)) => typer.inline_let(i, name.span),
            Some(Binding::Time(_)) => {
                let declared = scope.names.declared(&name.name).map(|d| d.span);
                typer.diags.push(report::time_as_value(name, declared));
                None
            }
            Some(other) => {
                typer.not_a_value(name, other);
                None
            }
            None => typer.variant_or_else(name, Typer::unknown_name),
        }
    }

    fn field(typer: &mut Typer<'_, 'a, Self>, read: FieldRead<'_>) -> Option<Typed> {
        let FieldRead { span, base, field } = read;
        let bound = &typer.names.bound;
        let Some(position) = bound.iter().rposition(|b| b.name == base.name) else {
            typer.unbound_variable(base, field);
            return None;
        };
        if position + 1 != bound.len() {
            typer.outer_agent(span, position, base, field);
            return None;
        }
        let scope = typer.names.scope;
        let Some(i) = scope.attribute(&field.name) else {
            typer.unknown_attribute(field);
            return None;
        };
        declared_leaf(&scope.attributes, i, hir::ExprKind::Attribute(i), span)
    }

    fn at(typer: &mut Typer<'_, 'a, Self>, at: At<'_>) -> Option<Typed> {
        let observes = "a population observes all its agents at every step";
        typer.at_outside_system(at, "population", observes)
    }

    fn quantifier(typer: &mut Typer<'_, 'a, Self>, quantified: Quantified<'_>) -> Option<Typed> {
        let Quantified {
            span,
            quantifier,
            var,
            group,
            body,
        } = quantified;
        let head = quantified.head();
        if typer.names.context == Context::Group {
            typer.diags.push(quantifier_in_group(quantifier, head));
            return None;
        }
        let resolved = typer.resolve_group(group);
        let text = format!("{} {var} in {group}", quantifier.head());
        typer.names.bound.push(BoundVar {
            name: var.name.clone(),
            head,
            text,
        });
        let body = typer.formula(body, quantified.body_of());
        typer.names.bound.pop();
        let (group, body) = (resolved?, body?);
        let ty = if quantifier == Quantifier::Count {
            Ty::Int
        } else {
            Ty::Bool
        };
        typer.node_over([body], ty, span, |[body]| hir::ExprKind::Quant {
            quantifier,
            group,
            body: Box::new(body),
        })
    }
}

/// E0403 for a quantifier in a group's predicate, whose head is at `head`.
pub(super) fn quantifier_in_group(quantifier: Quantifier, head: Span) -> Diag {
    report::error(
        Code::WrongBlock,
        format_args!(
            "`{}` is not allowed in a group's predicate",
            quantifier.keyword()
        ),
    )
    .with_labels(vec![report::primary(head, "a quantifier in a group's predicate")])
    .with_notes(vec![
        "note: a group's predicate decides the membership of one candidate agent: it reads that agent's attributes (bare), the globals, `let`s without quantifiers and enum variants".to_string(),
    ])
}

impl<'a> Typer<'_, 'a, PopulationNames<'_, 'a>> {
    /// The group `name` in `q a in name`: `Some(None)` for `agents`.
    fn resolve_group(&mut self, name: &Ident) -> Option<Option<usize>> {
        let scope = self.names.scope;
        match scope.lookup(&name.name) {
            Some(Binding::Group(i)) => return Some(Some(i)),
            None if name.name == AGENTS => return Some(None),
            Some(other) => self.diags.push(wrong_role(scope, name, other, "a group")),
            None => self.diags.push(unknown_group(scope, name, None)),
        }
        None
    }

    /// E0206: the quantifier variable `name` used as a value.
    fn variable_as_value(&mut self, name: &Ident) {
        let example = self
            .names
            .scope
            .attribute_names()
            .first()
            .map_or_else(|| "x".to_string(), |a| a.to_string());
        self.diags.push(
            report::error(
                Code::WrongRole,
                format_args!("expected a value, found the quantifier variable `{name}`"),
            )
            .with_labels(vec![report::primary(name.span, "this stands for an agent")])
            .with_notes(vec![format!(
                "help: read one of its attributes, e.g. `{name}.{example}`"
            )]),
        );
    }

    /// E0200: an attribute written bare outside a group's predicate.
    fn bare_attribute(&mut self, name: &Ident) {
        let mut notes = vec![format!(
            "help: attributes are read through a quantifier's variable, e.g. `forall a in agents: a.{name}`"
        )];
        if let Some(inner) = self.names.bound.last() {
            notes.push(format!(
                "help: here, `{}.{name}` reads it of the agent `{}` ranges over",
                inner.name, inner.name
            ));
        }
        if self.names.context == Context::Let {
            notes.push(
                "note: a `let` is typed once where it is defined, so it can read `a.x` only for a quantifier inside the `let`".to_string(),
            );
        }
        self.diags.push(
            report::error(
                Code::UnknownName,
                format_args!("the attribute `{name}` cannot be read bare here"),
            )
            .with_labels(vec![report::primary(
                name.span,
                "an attribute of every agent: which agent's?",
            )])
            .with_notes(notes),
        );
    }

    /// E0200 or E0206 for a group or property used as a value.
    fn not_a_value(&mut self, name: &Ident, found: Binding) {
        let scope = self.names.scope;
        let diag = if let Binding::Property(_) = found {
            let declared = scope.names.declared(&name.name).map(|d| d.span);
            report::property_as_value(name, declared, "a global or `let`")
        } else {
            wrong_role(scope, name, found, "a value")
        };
        self.diags.push(diag);
    }

    /// E0200 for a bare name nothing declares.
    fn unknown_name(&mut self, name: &Ident) {
        if self.enum_as_value(name) {
            return;
        }
        let scope = self.names.scope;
        let in_group = self.names.context == Context::Group;
        let attributes = scope.attribute_names().into_iter().filter(|_| in_group);
        let globals = scope.globals.iter().map(|g| g.decl.name.name.as_str());
        let lets = scope.lets.iter().map(|l| l.name.name.as_str());
        let candidates = attributes
            .chain(globals)
            .chain(lets)
            .chain(self.enums.variant_names());
        let notes: Vec<String> = similar::did_you_mean(&name.name, candidates)
            .into_iter()
            .collect();
        let label = if in_group {
            format!(
                "not an attribute, global, `let` or enum variant of population `{}`",
                scope.name
            )
        } else {
            format!(
                "not a global, `let` or enum variant of population `{}`",
                scope.name
            )
        };
        self.diags.push(
            report::error(Code::UnknownName, format_args!("unknown name `{name}`"))
                .with_labels(vec![report::primary(name.span, label)])
                .with_notes(notes),
        );
    }

    /// E0200 for `base.field` where `base` is no quantifier variable in scope.
    fn unbound_variable(&mut self, base: &Ident, field: &Ident) {
        let scope = self.names.scope;
        let help = match (self.names.context, scope.lookup(&base.name)) {
            (Context::Group, _) => format!(
                "help: in a group's predicate, write the candidate agent's attributes bare: `{field}`"
            ),
            (Context::Let, _) => "note: a `let` is typed once where it is defined, so it can read `a.x` only for a quantifier inside the `let`".to_string(),
            (_, Some(Binding::Group(_))) => format!(
                "help: quantify over the group: `exists a in {base}: a.{field}`"
            ),
            _ => format!(
                "help: bind `{base}` with a quantifier, e.g. `forall {base} in agents: {base}.{field}`"
            ),
        };
        self.diags.push(
            report::error(
                Code::UnknownName,
                format_args!("unknown quantifier variable `{base}`"),
            )
            .with_labels(vec![report::primary(
                base.span,
                "not the variable of an enclosing quantifier",
            )])
            .with_notes(vec![help]),
        );
    }

    /// E0200 for `a.field` where agents have no attribute `field`.
    fn unknown_attribute(&mut self, field: &Ident) {
        let population = self.names.scope.name;
        let notes = similar::unknown_notes(
            &field.name,
            &self.names.scope.attribute_names(),
            format!("note: the agents of population `{population}` have no attributes"),
            |attributes| format!("note: the attributes of an agent are {attributes}"),
        );
        self.diags.push(
            report::error(
                Code::UnknownName,
                format_args!("agents have no attribute `{field}`"),
            )
            .with_labels(vec![report::primary(field.span, "not an agent attribute")])
            .with_notes(notes),
        );
    }

    /// E0411: `base.field` (at `span`) reads the agent of the enclosing
    /// quantifier number `position`, not of the innermost one.
    fn outer_agent(&mut self, span: Span, position: usize, base: &Ident, field: &Ident) {
        let bound = &self.names.bound;
        let (Some(outer), Some(inner)) = (bound.get(position), bound.last()) else {
            return;
        };
        let diag = report::error(
            Code::OuterAgentAttribute,
            format_args!(
                "a nested quantifier's body reads `{base}.{field}` of an enclosing quantifier's agent"
            ),
        )
        .with_labels(vec![
            report::primary(
                span,
                format_args!("`{base}` is the agent of an enclosing quantifier"),
            ),
            report::secondary(
                inner.head,
                format_args!(
                    "in this quantifier's body only `{}`'s attributes can be read",
                    inner.name
                ),
            ),
            report::secondary(outer.head, format_args!("`{base}` is bound here")),
        ])
        .with_notes(vec![
            "note: a nested quantifier's body may read only its own agent: reading an enclosing quantifier's agent would need state per pair of agents (n² instances)".to_string(),
            format!(
                "help: move the parts that read `{base}` outside the inner quantifier, e.g. `{base}.{field} && {}: ...`",
                inner.text
            ),
        ]);
        self.diags.push(diag);
    }
}

/// E0206: `name` is declared, but not as `expected` ("a group").
fn wrong_role(scope: &PopulationScope, name: &Ident, found: Binding, expected: &str) -> Diag {
    let (kind, help) = match found {
        Binding::Attribute(_) => (
            "an agent attribute",
            format!("help: read it through a quantifier's variable, e.g. `exists a in agents: a.{name}`"),
        ),
        Binding::Global(_) => ("a global", "help: a global is a value read bare".to_string()),
        Binding::Group(_) => (
            "a group",
            format!("help: quantify over it, e.g. `exists a in {name}: ...`"),
        ),
        Binding::Let(_) => ("a `let`", "help: a `let` names a formula or value".to_string()),
        Binding::Property(_) => (
            "a property",
            "help: to share a formula, define it with `let`".to_string(),
        ),
        Binding::Time(_) => (
            "the steps' time",
            "help: only duration bounds read it".to_string(),
        ),
    };
    let declared = scope.names.declared(&name.name).map(|d| d.span);
    report::wrong_role(name, name.span, expected, kind, declared, help)
}

/// E0200 for the unknown group `name`; `extra` adds a note.
pub(super) fn unknown_group(scope: &PopulationScope, name: &Ident, extra: Option<String>) -> Diag {
    let groups = scope.group_names();
    let mut notes: Vec<String> = similar::did_you_mean(&name.name, groups.iter().copied())
        .into_iter()
        .collect();
    notes.extend(extra);
    notes.push(format!(
        "note: the groups of population `{}` are {}",
        scope.name,
        report::list_names(&groups)
    ));
    report::error(Code::UnknownName, format_args!("unknown group `{name}`"))
        .with_labels(vec![report::primary(
            name.span,
            format_args!("no group of population `{}` has this name", scope.name),
        )])
        .with_notes(notes)
}

/// E0206 for a group base that is declared, but not as a group.
pub(super) fn base_not_a_group(scope: &PopulationScope, name: &Ident, found: Binding) -> Diag {
    wrong_role(scope, name, found, "a group")
}
