//! Typing of names: inputs, `let`s, enum variants (bare or `Enum::variant`),
//! and the names a monitor cannot have (`L.x`, `@L`, quantifiers).
//!
//! A bare name is looked up among the monitor's inputs and `let`s first (they
//! cannot clash with variants: see [`super::scope`]), then among the variants
//! of every enum; a variant declared by several enums must be qualified (E0205).

use super::ops;
use super::report::{
    self, AMBIGUOUS_VARIANT, UNKNOWN_NAME, UNKNOWN_VARIANT, WRONG_BLOCK, WRONG_ROLE,
};
use super::scope::Binding;
use super::similar;
use super::types::{leaf, Typed, Typer};
use crate::hir::{self, Ty, Value};
use hindsight_grammar::ast::{Ident, Quantifier, Span};

impl Typer<'_, '_> {
    /// A bare name.
    pub(super) fn name(&mut self, name: &Ident) -> Option<Typed> {
        match self.scope.lookup(&name.name) {
            Some(Binding::Input(i)) => {
                // An input of an unknown type was reported where it was declared.
                let ty = self.scope.inputs.get(i)?.ty?;
                Some(leaf(hir::ExprKind::Input(i), ty, name.span))
            }
            Some(Binding::Let(i)) => self.inline_let(i, name.span),
            Some(Binding::Property(i)) => {
                self.property_as_value(name, i);
                None
            }
            None => self.bare_variant(name),
        }
    }

    fn bare_variant(&mut self, name: &Ident) -> Option<Typed> {
        match self.enums.bare_variant(&name.name) {
            [only] => Some(leaf(
                hir::ExprKind::Const(Value::Enum(only.variant_index)),
                Ty::Enum(only.enum_index),
                name.span,
            )),
            [] => {
                self.unknown_name(name);
                None
            }
            several => {
                let several = several.to_vec();
                let enum_names: Vec<String> = several
                    .iter()
                    .map(|v| self.enums.type_name(Ty::Enum(v.enum_index)))
                    .collect();
                let mut labels = vec![report::primary(
                    name.span,
                    format_args!("declared by {}", report::list_names(&enum_names)),
                )];
                for (variant, enum_name) in several.iter().zip(&enum_names) {
                    labels.push(report::secondary(
                        variant.decl.span,
                        format_args!("a variant of `{enum_name}`"),
                    ));
                }
                let qualified: Vec<String> =
                    enum_names.iter().map(|e| format!("{e}::{name}")).collect();
                self.diags.push(
                    report::error(
                        AMBIGUOUS_VARIANT,
                        format_args!("the variant name `{name}` is ambiguous"),
                    )
                    .with_labels(labels)
                    .with_notes(vec![format!(
                        "help: write {} to say which one",
                        report::list_names(&qualified).replacen(" and ", " or ", 1)
                    )]),
                );
                None
            }
        }
    }

    fn unknown_name(&mut self, name: &Ident) {
        if let Some(enum_index) = self.enums.lookup(&name.name) {
            let example = self
                .enums
                .decl(enum_index)
                .and_then(|d| d.variants.first())
                .map_or_else(String::new, |v| format!(", e.g. `{name}::{v}`"));
            self.diags.push(
                report::error(
                    WRONG_ROLE,
                    format_args!("expected a value, found the enum `{name}`"),
                )
                .with_labels(vec![report::primary(
                    name.span,
                    "an enum is a type, not a value",
                )])
                .with_notes(vec![format!("help: write one of its variants{example}")]),
            );
            return;
        }
        let mut notes = Vec::new();
        let candidates = self.scope.value_names().chain(self.enums.variant_names());
        if let Some(help) = similar::did_you_mean(&name.name, candidates) {
            notes.push(help);
        }
        let label = report::primary(
            name.span,
            format_args!(
                "not an input, `let` or enum variant of monitor `{}`",
                self.monitor_name
            ),
        );
        self.diags.push(
            report::error(UNKNOWN_NAME, format_args!("unknown name `{name}`"))
                .with_labels(vec![label])
                .with_notes(notes),
        );
    }

    fn property_as_value(&mut self, name: &Ident, index: usize) {
        let mut labels = vec![report::primary(
            name.span,
            "properties are not in scope in expressions",
        )];
        if let Some(decl) = self.scope.declared_at(Binding::Property(index)) {
            labels.push(report::secondary(decl.span, "declared as a property here"));
        }
        self.diags.push(
            report::error(
                UNKNOWN_NAME,
                format_args!("unknown name `{name}`: it is a property, not an input or `let`"),
            )
            .with_labels(labels)
            .with_notes(vec![
                "help: to share a formula, define it with `let` and use that name in the property and here".to_string(),
            ]),
        );
    }

    /// `Enum::variant`.
    pub(super) fn qualified_variant(
        &mut self,
        enum_name: &Ident,
        variant: &Ident,
    ) -> Option<Typed> {
        let span = enum_name.span.to(variant.span);
        let Some(enum_index) = self.enums.lookup(&enum_name.name) else {
            let diag = self.enums.unknown_type(enum_name);
            self.diags.push(diag);
            return None;
        };
        if let Some(found) = self.enums.variant(enum_index, &variant.name) {
            return Some(leaf(
                hir::ExprKind::Const(Value::Enum(found.variant_index)),
                Ty::Enum(enum_index),
                span,
            ));
        }
        let variants: Vec<&str> = self
            .enums
            .decl(enum_index)
            .map(|d| d.variants.iter().map(|v| v.name.as_str()).collect())
            .unwrap_or_default();
        let mut notes = Vec::new();
        if let Some(help) = similar::did_you_mean(&variant.name, variants.iter().copied()) {
            notes.push(help);
        }
        notes.push(format!(
            "note: the variants of `{enum_name}` are {}",
            report::list_names(&variants)
        ));
        self.diags.push(
            report::error(
                UNKNOWN_VARIANT,
                format_args!("no variant `{variant}` in enum `{enum_name}`"),
            )
            .with_labels(vec![report::primary(
                variant.span,
                format_args!("not a variant of `{enum_name}`"),
            )])
            .with_notes(notes),
        );
        None
    }

    /// `L.x` in a monitor (E0403).
    pub(super) fn field_in_monitor(
        &mut self,
        span: Span,
        base: &Ident,
        field: &Ident,
    ) -> Option<Typed> {
        self.diags.push(
            report::error(
                WRONG_BLOCK,
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
    pub(super) fn at_in_monitor(&mut self, span: Span, lifeline: &Ident) -> Option<Typed> {
        let head = Span::new(span.start, lifeline.span.end.max(span.start));
        self.diags.push(
            report::error(
                WRONG_BLOCK,
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
    pub(super) fn quantifier_in_monitor(
        &mut self,
        span: Span,
        quantifier: Quantifier,
        group: &Ident,
    ) -> Option<Typed> {
        let head = Span::new(span.start, group.span.end.max(span.start));
        let keyword = ops::quantifier(quantifier);
        self.diags.push(
            report::error(
                WRONG_BLOCK,
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
