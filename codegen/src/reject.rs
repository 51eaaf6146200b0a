//! What a checked spec may say but generated Rust cannot express: names Rust
//! cannot use at all (E0405), each reported at its declaration
//! ([`crate::system::reject`] does the same for systems). (An enum without
//! variants, once E0406 here, is refused by the checker: E0207.)

use crate::names::is_usable;
use hindsight_compiler::ast::Span;
use hindsight_compiler::diag::{Code, Diag, Diagnostic, Label};
use hindsight_compiler::ir::Program;

/// Every reason `spec` cannot become Rust code, in declaration order.
pub(super) fn check(program: &Program) -> Vec<Diag> {
    let mut diags = Vec::new();
    let mut name = |what: &str, name: &str, span: Span| {
        if !is_usable(name) {
            diags.push(unusable(what, name, span));
        }
    };
    for e in &program.enums {
        name("enum", &e.name, e.span);
        for variant in &e.variants {
            name("variant", variant, e.span);
        }
    }
    for m in &program.monitors {
        name("monitor", &m.name, m.span);
        for input in &m.inputs {
            name("input", &input.name, input.span);
        }
        for output in &m.outputs {
            name("property", &output.name, output.span);
        }
    }
    for p in &program.populations {
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
    diags
}

/// E0405 for `what` `name`, which Rust cannot use even as a raw identifier.
pub(super) fn unusable(what: &str, name: &str, span: Span) -> Diag {
    Diagnostic::error()
        .with_code(Code::UnusableName)
        .with_message(format!(
            "{what} name `{name}` cannot be used in generated Rust code"
        ))
        .with_labels(vec![Label::primary((), span.range()).with_message(
            format!("`{name}` is reserved in Rust, even as `r#{name}`"),
        )])
        .with_notes(vec![format!("help: rename the {what}")])
}
