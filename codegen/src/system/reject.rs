//! What a checked `system` may say but its generated module cannot express:
//! names Rust cannot use (E0405), and lifelines whose module would collide
//! with another item of the system's module (E0405): the `Stamp` and
//! `Monitors` structs or an imported spec enum.

use crate::reject::UnusableNames;
use hindsight_compiler::ast::Span;
use hindsight_compiler::diag::{Code, Diag, Diagnostic, Label};
use hindsight_compiler::ir::system::SystemTables;
use hindsight_compiler::types::EnumDef;

/// The items of a system module besides its lifeline modules, in the type namespace.
pub(crate) const SYSTEM_ITEMS: [&str; 2] = ["Stamp", "Monitors"];

/// Every reason `system` cannot become Rust code, in declaration order.
pub(crate) fn check(system: &SystemTables, enums: &[EnumDef]) -> Vec<Diag> {
    let mut names = UnusableNames::default();
    names.item("system", system);
    for lifeline in &system.lifelines {
        names.item("lifeline", lifeline);
        names.items("variable", &lifeline.vars);
    }
    names.items("guard", &system.guards);
    names.items("protocol", &system.protocols);
    let mut diags = names.into_diags();
    let imported: Vec<&str> = system
        .enums_used()
        .into_iter()
        .filter_map(|e| enums.get(e))
        .map(|d| d.name.as_str())
        .collect();
    for lifeline in &system.lifelines {
        let taken = SYSTEM_ITEMS.contains(&lifeline.name.as_str())
            || imported.contains(&lifeline.name.as_str())
            || (lifeline.name == "protocols" && !system.protocols.is_empty());
        if taken {
            diags.push(collision(&system.name, &lifeline.name, lifeline.span));
        }
    }
    diags
}

fn collision(system: &str, lifeline: &str, span: Span) -> Diag {
    Diagnostic::error()
        .with_code(Code::UnusableName)
        .with_message(format!(
            "lifeline name `{lifeline}` cannot be used in generated Rust code"
        ))
        .with_labels(vec![Label::primary((), span.range()).with_message(
            format!(
                "module `{system}::{lifeline}` would collide with the type `{system}::{lifeline}`"
            ),
        )])
        .with_notes(vec![
            "note: a system's module holds its `Stamp`, its `Monitors` and the enums its variables use".to_owned(),
            "help: rename the lifeline".to_owned(),
        ])
}
