//! What a checked spec may say but generated Rust cannot express: names Rust
//! cannot use at all (E0405) and inputs (also population attributes and
//! globals) of an enum without variants (E0406), each reported at its
//! declaration ([`super::system_reject`] does the same for systems).

use super::names::is_usable;
use crate::diag::{Diag, Diagnostic, Label};
use crate::hir::{Spec, Ty};
use hindsight_grammar::ast::Span;

/// Name cannot be used in generated Rust code.
pub(super) const UNUSABLE_NAME: &str = "E0405";
/// Input whose type has no values in generated Rust code.
const EMPTY_ENUM_INPUT: &str = "E0406";

/// Every reason `spec` cannot become Rust code, in declaration order.
pub(super) fn check(spec: &Spec) -> Vec<Diag> {
    let mut diags = Vec::new();
    let mut name = |what: &str, name: &str, span: Span| {
        if !is_usable(name) {
            diags.push(unusable(what, name, span));
        }
    };
    for e in &spec.enums {
        name("enum", &e.name, e.span);
        for variant in &e.variants {
            name("variant", variant, e.span);
        }
    }
    for m in &spec.monitors {
        name("monitor", &m.name, m.span);
        for input in &m.inputs {
            name("input", &input.name, input.span);
        }
        for property in &m.properties {
            name("property", &property.name, property.span);
        }
    }
    for p in &spec.populations {
        name("population", &p.name, p.span);
        for attribute in &p.attributes {
            name("attribute", &attribute.name, attribute.span);
        }
        for global in &p.globals {
            name("global", &global.name, global.span);
        }
        for property in &p.properties {
            name("property", &property.name, property.span);
        }
    }
    for p in &spec.populations {
        for (what, input) in p
            .attributes
            .iter()
            .map(|a| ("attribute", a))
            .chain(p.globals.iter().map(|g| ("global", g)))
        {
            if let Ty::Enum(e) = input.ty {
                if spec.enums.get(e).is_some_and(|d| d.variants.is_empty()) {
                    diags.push(empty_enum(what, &input.name, input.span));
                }
            }
        }
    }
    for m in &spec.monitors {
        for input in &m.inputs {
            if let Ty::Enum(e) = input.ty {
                if spec.enums.get(e).is_some_and(|d| d.variants.is_empty()) {
                    diags.push(empty_enum("input", &input.name, input.span));
                }
            }
        }
    }
    diags
}

/// E0405 for `what` `name`, which Rust cannot use even as a raw identifier.
pub(super) fn unusable(what: &str, name: &str, span: Span) -> Diag {
    Diagnostic::error()
        .with_code(UNUSABLE_NAME)
        .with_message(format!(
            "{what} name `{name}` cannot be used in generated Rust code"
        ))
        .with_labels(vec![Label::primary((), span.range()).with_message(
            format!("`{name}` is reserved in Rust, even as `r#{name}`"),
        )])
        .with_notes(vec![format!("help: rename the {what}")])
}

/// E0406 for `what` (an input, a lifeline variable) `name` of an enum type without variants.
pub(super) fn empty_enum(what: &str, name: &str, span: Span) -> Diag {
    Diagnostic::error()
        .with_code(EMPTY_ENUM_INPUT)
        .with_message(format!(
            "{what} `{name}` has an enum type without variants, which generated Rust cannot represent"
        ))
        .with_labels(vec![Label::primary((), span.range())
            .with_message(format!("no value can be given for this {what}"))])
        .with_notes(vec!["help: add a variant to the enum".to_owned()])
}
