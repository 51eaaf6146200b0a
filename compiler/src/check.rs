//! The checker: resolves names, infers and checks types, and checks where
//! temporal operators may appear, turning an [`ast::File`] into a typed
//! [`hir::Spec`] or a list of diagnostics (never a panic).
//!
//! Every problem in the file is reported, each once. Decisions the language
//! sketch leaves open are documented where they are enforced:
//! - names and shadowing: [`scope`];
//! - types and the int-literal-to-float coercion: [`types`];
//! - `let` cycles and inlining: [`lets`] and [`types`];
//! - bounds and future/past placement: [`temporal`];
//! - size limits: [`limits`];
//! - `system` blocks (lifelines, groups, guards, `@L`, `L.x`, quantifier
//!   expansion): [`system`];
//! - `population` blocks (agents, groups, quantifiers over agents, the
//!   monitorable fragment of future quantifiers): [`population`].

mod block;
mod enums;
mod items;
mod lets;
mod limits;
mod monitor;
mod monitor_names;
mod names;
mod population;
mod reading;
mod report;
mod scope;
mod similar;
mod system;
mod temporal;
mod types;

use crate::hir;
use hindsight_grammar::ast;
use hindsight_grammar::diag::{has_errors, Diag, LabelStyle};

/// Checks a parsed spec file.
///
/// Returns `Some(spec)` exactly when no diagnostic is an error; the diagnostics
/// (warnings, or every error found) come back either way, sorted by position.
/// The work runs on a helper thread with a large stack (see [`crate::stack`]).
pub fn check(file: &ast::File) -> (Option<hir::Spec>, Vec<Diag>) {
    crate::stack::with_large_stack(
        "hindsight-check",
        || check_here(file),
        || (None, vec![report::internal_error("the checker panicked")]),
    )
}

/// [`check`] on the current thread.
pub(crate) fn check_here(file: &ast::File) -> (Option<hir::Spec>, Vec<Diag>) {
    let mut diags = Vec::new();
    let first_of_name = items::check_item_names(&file.items, &mut diags);
    let enum_decls =
        file.items
            .iter()
            .zip(&first_of_name)
            .filter_map(|(item, &first)| match item {
                ast::Item::Enum(decl) if first => Some(decl),
                _ => None,
            });
    let enums = enums::EnumTable::build(enum_decls, &mut diags);

    let mut monitors = Vec::new();
    let mut systems = Vec::new();
    let mut populations = Vec::new();
    let mut all_blocks_checked = true;
    for item in &file.items {
        match item {
            ast::Item::Enum(_) => {}
            ast::Item::Monitor(decl) => match monitor::check_monitor(decl, &enums, &mut diags) {
                Some(m) => monitors.push(m),
                None => all_blocks_checked = false,
            },
            ast::Item::System(decl) => match system::check_system(decl, &enums, &mut diags) {
                Some(s) => systems.push(s),
                None => all_blocks_checked = false,
            },
            ast::Item::Population(decl) => {
                match population::check_population(decl, &enums, &mut diags) {
                    Some(p) => populations.push(p),
                    None => all_blocks_checked = false,
                }
            }
        }
    }
    if !all_blocks_checked && !has_errors(&diags) {
        diags.push(report::internal_error(
            "a monitor, system or population failed to check without any diagnostic",
        ));
    }
    diags.sort_by_key(primary_start);
    let spec = (!has_errors(&diags)).then(|| hir::Spec {
        enums: enums.to_hir(),
        monitors,
        systems,
        populations,
    });
    (spec, diags)
}

/// Where a diagnostic's primary label starts (diagnostics without one sort first).
fn primary_start(diag: &Diag) -> Option<usize> {
    diag.labels
        .iter()
        .find(|l| l.style == LabelStyle::Primary)
        .map(|l| l.range.start)
}
