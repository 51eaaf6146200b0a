//! The names of a `monitor` block: its inputs and `let`s (properties are not
//! values), then the enum variants; `L.x`, `@L` and quantifiers are rejected
//! (E0403) without looking into them.
//!
//! Inputs and `let`s cannot clash with variants (see [`super::scope`]), so
//! the order of the lookups does not matter.

use super::report;
use super::scope::{Binding, Scope};
use super::similar;
use super::types::{declared_leaf, At, FieldRead, Names, Quantified, Typed, Typer};
use crate::diag::Code;
use crate::hir;
use hindsight_grammar::ast::Ident;

/// A monitor's names, for the [`Typer`].
pub(super) struct MonitorNames<'s, 'a> {
    /// Its declarations.
    pub scope: &'s Scope<'a>,
    /// Its name, for messages.
    pub monitor_name: &'s str,
}

impl<'a> Names<'a> for MonitorNames<'_, 'a> {
    fn name(typer: &mut Typer<'_, 'a, Self>, name: &Ident) -> Option<Typed> {
        let scope = typer.names.scope;
        match scope.lookup(&name.name) {
            Some(Binding::Input(i)) => {
                declared_leaf(&scope.inputs, i, hir::ExprKind::Input(i), name.span)
            }
            Some(Binding::Let(i)) => typer.inline_let(i, name.span),
            Some(Binding::Time(_)) => {
                let declared = scope.names.declared(&name.name).map(|d| d.span);
                typer.diags.push(report::time_as_value(name, declared));
                None
            }
            Some(Binding::Goal(_)) => {
                let declared = scope.names.declared(&name.name).map(|d| d.span);
                typer.diags.push(report::goal_as_value(name, declared));
                None
            }
            Some(Binding::Property(_)) => {
                let declared = scope.names.declared(&name.name).map(|d| d.span);
                let diag = report::property_as_value(name, declared, "an input or `let`");
                typer.diags.push(diag);
                None
            }
            None => typer.variant_or_else(name, Typer::unknown_name),
        }
    }

    fn field(typer: &mut Typer<'_, 'a, Self>, read: FieldRead<'_>) -> Option<Typed> {
        typer.field_in_monitor(read)
    }

    fn at(typer: &mut Typer<'_, 'a, Self>, at: At<'_>) -> Option<Typed> {
        typer.at_outside_system(at, "monitor", "a monitor observes a single event stream")
    }

    fn quantifier(typer: &mut Typer<'_, 'a, Self>, quantified: Quantified<'_>) -> Option<Typed> {
        typer.quantifier_in_monitor(quantified)
    }
}

impl<'a> Typer<'_, 'a, MonitorNames<'_, 'a>> {
    fn unknown_name(&mut self, name: &Ident) {
        if self.enum_as_value(name) {
            return;
        }
        let mut notes = Vec::new();
        let candidates = self
            .names
            .scope
            .value_names()
            .chain(self.enums.variant_names());
        if let Some(help) = similar::did_you_mean(&name.name, candidates) {
            notes.push(help);
        }
        let label = report::primary(
            name.span,
            format_args!(
                "not an input, `let` or enum variant of monitor `{}`",
                self.names.monitor_name
            ),
        );
        self.diags.push(
            report::error(Code::UnknownName, format_args!("unknown name `{name}`"))
                .with_labels(vec![label])
                .with_notes(notes),
        );
    }

    /// `L.x` in a monitor (E0403).
    fn field_in_monitor(&mut self, read: FieldRead<'_>) -> Option<Typed> {
        let FieldRead { span, base, field } = read;
        self.diags.push(
            report::error(
                Code::WrongBlock,
                format_args!(
                    "`{base}.{field}` is only meaningful in a `system` or `population` block"
                ),
            )
            .with_labels(vec![report::primary(span, "not allowed in a monitor")])
            .with_notes(vec![format!(
                "help: in a monitor, declare `{field}` as an input and write it bare"
            )]),
        );
        None
    }

    /// A quantifier in a monitor (E0403); its body is not looked into.
    fn quantifier_in_monitor(&mut self, quantified: Quantified<'_>) -> Option<Typed> {
        let keyword = quantified.quantifier.keyword();
        self.diags.push(
            report::error(
                Code::WrongBlock,
                format_args!("`{keyword}` is only meaningful in a `system` or `population` block"),
            )
            .with_labels(vec![report::primary(
                quantified.head(),
                "not allowed in a monitor",
            )])
            .with_notes(vec![
                "note: quantifiers range over lifelines or agents, which a monitor does not have"
                    .to_string(),
            ]),
        );
        None
    }
}
