//! Typing of the names every block shares: enum variants, bare
//! (`passed`) or qualified (`Status::passed`), and enums misused as values.
//!
//! A variant declared by several enums must be qualified (E0205). The names a
//! block declares itself are resolved by its [`Names`] implementation.

use super::report;
use super::similar;
use super::types::{leaf, At, Names, Typed, Typer};
use crate::diag::Code;
use crate::hir::{self, Ty, Value};
use hindsight_grammar::ast::Ident;

impl<'a, N: Names<'a>> Typer<'_, 'a, N> {
    /// The enum variant written bare as `name`: `None` if no enum declares
    /// it, `Some(None)` if several do (reported, E0205).
    pub(super) fn bare_variant(&mut self, name: &Ident) -> Option<Option<Typed>> {
        match self.enums.bare_variant(&name.name) {
            [only] => Some(Some(leaf(
                hir::ExprKind::Const(Value::Enum(only.variant_index)),
                Ty::Enum(only.enum_index),
                name.span,
            ))),
            [] => None,
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
                        Code::AmbiguousVariant,
                        format_args!("the variant name `{name}` is ambiguous"),
                    )
                    .with_labels(labels)
                    .with_notes(vec![format!(
                        "help: write {} to say which one",
                        report::list_names(&qualified).replacen(" and ", " or ", 1)
                    )]),
                );
                Some(None)
            }
        }
    }

    /// The enum variant written bare as `name`, for a name the block does not
    /// declare; `unknown` reports it if no enum declares it either.
    pub(super) fn variant_or_else(
        &mut self,
        name: &Ident,
        unknown: fn(&mut Self, &Ident),
    ) -> Option<Typed> {
        self.bare_variant(name).unwrap_or_else(|| {
            unknown(self, name);
            None
        })
    }

    /// Reports E0206 if `name` is an enum (a type written where a value is
    /// expected); says whether it was.
    pub(super) fn enum_as_value(&mut self, name: &Ident) -> bool {
        let Some(enum_index) = self.enums.lookup(&name.name) else {
            return false;
        };
        let example = self
            .enums
            .decl(enum_index)
            .and_then(|d| d.variants.first())
            .map_or_else(String::new, |v| format!(", e.g. `{name}::{v}`"));
        self.diags.push(
            report::error(
                Code::WrongRole,
                format_args!("expected a value, found the enum `{name}`"),
            )
            .with_labels(vec![report::primary(
                name.span,
                "an enum is a type, not a value",
            )])
            .with_notes(vec![format!("help: write one of its variants{example}")]),
        );
        true
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
                Code::UnknownVariant,
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

    /// E0403 for `@L` in a `block` ("monitor") without lifelines, which
    /// `observes` ("a monitor observes ...") something else; the operand is
    /// not looked into.
    pub(super) fn at_outside_system(
        &mut self,
        at: At<'_>,
        block: &str,
        observes: &str,
    ) -> Option<Typed> {
        let lifeline = at.lifeline;
        self.diags.push(
            report::error(
                Code::WrongBlock,
                format_args!("`@{lifeline}` is only meaningful in a `system` block"),
            )
            .with_labels(vec![report::primary(
                at.head(),
                format_args!("not allowed in a {block}"),
            )])
            .with_notes(vec![format!(
                "note: {observes}; `@L` looks at another lifeline's latest event"
            )]),
        );
        None
    }
}
