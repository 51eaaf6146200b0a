//! Item-level checks: one namespace for item names.

use super::report;
use hindsight_grammar::ast::{Ident, Item};
use hindsight_grammar::diag::{Code, Diag};
use std::collections::HashMap;

/// Reports every item whose name an earlier item already took (E0201).
///
/// Enums, monitors, systems and populations share one namespace. Returns, per
/// item, whether it is the first of its name: only those enums are registered.
pub(super) fn check_item_names(items: &[Item], diags: &mut Vec<Diag>) -> Vec<bool> {
    let mut first: HashMap<&str, &Item> = HashMap::new();
    items
        .iter()
        .map(|item| {
            let name = item.name();
            match first.get(name.name.as_str()) {
                Some(earlier) => {
                    diags.push(duplicate_item(name, earlier));
                    false
                }
                None => {
                    first.insert(&name.name, item);
                    true
                }
            }
        })
        .collect()
}

fn duplicate_item(name: &Ident, earlier: &Item) -> Diag {
    let mut diag = report::error(
        Code::DuplicateDefinition,
        format_args!("the name `{name}` is defined more than once"),
    )
    .with_labels(vec![
        report::primary(name.span, format_args!("`{name}` redefined here")),
        report::secondary(
            earlier.name().span,
            format_args!("first defined here as {}", kind_of(earlier)),
        ),
    ]);
    diag = diag.with_notes(vec![
        "note: enums, monitors, systems and populations share one namespace".to_string(),
    ]);
    diag
}

/// "an enum", "a monitor", ...
fn kind_of(item: &Item) -> &'static str {
    match item {
        Item::Enum(_) => "an enum",
        Item::Monitor(_) => "a monitor",
        Item::System(_) => "a system",
        Item::Population(_) => "a population",
    }
}
