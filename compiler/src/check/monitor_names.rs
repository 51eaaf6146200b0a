//! The names of a `monitor` block: its inputs and `let`s (properties are not
//! values), then the enum variants; `L.x`, `@L` and quantifiers are rejected
//! (E0403) without looking into them.
//!
//! Inputs and `let`s cannot clash with variants (see [`super::scope`]), so
//! the order of the lookups does not matter.

use super::report;
use super::scope::{Binding, Scope};
use super::similar;
use super::types::{leaf, Names, Typed, Typer};
use crate::diag::Code;
use crate::hir;
use hindsight_grammar::ast::{self, Ident, Quantifier, Span};

/// A monitor's names, for the [`Typer`].
pub(super) struct MonitorNames<'s, 'a> {
    /// Its declarations.
    pub scope: &'s Scope<'a>,
    /// Its name, for messages.
    pub monitor_name: &'s str,
}

impl<'a> Names<'a> for MonitorNames<'_, 'a> {
    fn name(typer: &mut Typer<'_, 'a, Self>, name: &Ident) -> Option<Typed> {
        match typer.names.scope.lookup(&name.name) {
            Some(Binding::Input(i)) => {
                // An input of an unknown type was reported where it was declared.
                let ty = typer.names.scope.inputs.get(i)?.ty?;
                Some(leaf(hir::ExprKind::Input(i), ty, name.span))
            }
            Some(Binding::Let(i)) => typer.inline_let(i, name.span),
            Some(Binding::Property(i)) => {
                typer.property_as_value(name, i);
                None
            }
            None => typer.bare_variant(name).unwrap_or_else(|| {
                typer.unknown_name(name);
                None
            }),
        }
    }

    fn field(
        typer: &mut Typer<'_, 'a, Self>,
        span: Span,
        base: &Ident,
        field: &Ident,
    ) -> Option<Typed> {
        typer.field_in_monitor(span, base, field)
    }

    fn at(
        typer: &mut Typer<'_, 'a, Self>,
        span: Span,
        lifeline: &Ident,
        _arg: &ast::Expr,
    ) -> Option<Typed> {
        typer.at_in_monitor(span, lifeline)
    }

    fn quantifier(
        typer: &mut Typer<'_, 'a, Self>,
        span: Span,
        quantifier: Quantifier,
        _var: &Ident,
        group: &Ident,
        _body: &ast::Expr,
    ) -> Option<Typed> {
        typer.quantifier_in_monitor(span, quantifier, group)
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

    fn property_as_value(&mut self, name: &Ident, index: usize) {
        let mut labels = vec![report::primary(
            name.span,
            "properties are not in scope in expressions",
        )];
        if let Some(decl) = self.names.scope.declared_at(Binding::Property(index)) {
            labels.push(report::secondary(decl.span, "declared as a property here"));
        }
        self.diags.push(
            report::error(
                Code::UnknownName,
                format_args!("unknown name `{name}`: it is a property, not an input or `let`"),
            )
            .with_labels(labels)
            .with_notes(vec![
                "help: to share a formula, define it with `let` and use that name in the property and here".to_string(),
            ]),
        );
    }

    /// `L.x` in a monitor (E0403).
    fn field_in_monitor(&mut self, span: Span, base: &Ident, field: &Ident) -> Option<Typed> {
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

    /// `@L φ` in a monitor (E0403); the operand is not looked into.
    fn at_in_monitor(&mut self, span: Span, lifeline: &Ident) -> Option<Typed> {
        let head = Span::new(span.start, lifeline.span.end.max(span.start));
        self.diags.push(
            report::error(
                Code::WrongBlock,
                format_args!("`@{lifeline}` is only meaningful in a `system` block"),
            )
            .with_labels(vec![report::primary(head, "not allowed in a monitor")])
            .with_notes(vec![
                "note: a monitor observes a single event stream; `@L` looks at another lifeline's latest event".to_string(),
            ]),
        );
        None
    }

    /// A quantifier in a monitor (E0403); its body is not looked into.
    fn quantifier_in_monitor(
        &mut self,
        span: Span,
        quantifier: Quantifier,
        group: &Ident,
    ) -> Option<Typed> {
        let head = Span::new(span.start, group.span.end.max(span.start));
        let keyword = quantifier.keyword();
        self.diags.push(
            report::error(
                Code::WrongBlock,
                format_args!("`{keyword}` is only meaningful in a `system` or `population` block"),
            )
            .with_labels(vec![report::primary(head, "not allowed in a monitor")])
            .with_notes(vec![
                "note: quantifiers range over lifelines or agents, which a monitor does not have"
                    .to_string(),
            ]),
        );
        None
    }
}
