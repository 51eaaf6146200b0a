//! What a checked spec may say but generated Rust cannot express: names Rust
//! cannot use at all (E0405), each reported at its declaration
//! ([`crate::system::reject`] does the same for systems). (An enum without
//! variants, once E0406 here, is refused by the checker: E0207.)

use crate::names::is_usable;
use hindsight_compiler::ast::Span;
use hindsight_compiler::diag::{Code, Diag, Diagnostic, Label};
use hindsight_compiler::ir::population::{PopulationProperty, PopulationTables};
use hindsight_compiler::ir::protocol::ProtocolTable;
use hindsight_compiler::ir::system::{Guard, LifelineTable, SystemTables};
use hindsight_compiler::ir::table::{Output, Table};
use hindsight_compiler::ir::{Decl, Program};
use hindsight_compiler::types::EnumDef;

/// A declaration whose name the generated code uses, and where it is declared.
pub(crate) trait Declared {
    /// The declared name.
    fn name(&self) -> &str;
    /// The declaration.
    fn span(&self) -> Span;
}

/// [`Declared`] for program items that keep their name and span in fields of
/// those names.
macro_rules! declared {
    ($($ty:ty),* $(,)?) => {
        $(impl Declared for $ty {
            fn name(&self) -> &str {
                &self.name
            }
            fn span(&self) -> Span {
                self.span
            }
        })*
    };
}

declared!(
    EnumDef,
    Table,
    Decl,
    Output,
    PopulationTables,
    PopulationProperty,
    SystemTables,
    LifelineTable,
    ProtocolTable,
    Guard,
);

/// The unusable names (E0405) found so far, in the order they were checked.
#[derive(Default)]
pub(crate) struct UnusableNames(Vec<Diag>);

impl UnusableNames {
    /// Checks `name`, a `what` declared at `span`.
    pub(crate) fn name(&mut self, what: &str, name: &str, span: Span) {
        if !is_usable(name) {
            self.0.push(unusable(what, name, span));
        }
    }

    /// Checks the name of `item`, a `what`.
    pub(crate) fn item(&mut self, what: &str, item: &impl Declared) {
        self.name(what, item.name(), item.span());
    }

    /// Checks the names of `items`, each a `what`.
    pub(crate) fn items(&mut self, what: &str, items: &[impl Declared]) {
        for item in items {
            self.item(what, item);
        }
    }

    /// The diagnostics, one per unusable name.
    pub(crate) fn into_diags(self) -> Vec<Diag> {
        self.0
    }
}

/// Every reason `spec` cannot become Rust code, in declaration order.
pub(super) fn check(program: &Program) -> Vec<Diag> {
    let mut names = UnusableNames::default();
    for e in &program.enums {
        names.item("enum", e);
        for variant in &e.variants {
            names.name("variant", variant, e.span);
        }
    }
    for m in &program.monitors {
        names.item("monitor", m);
        names.items("input", &m.inputs);
        names.items("property", &m.outputs);
    }
    for p in &program.populations {
        names.item("population", p);
        names.items("attribute", &p.attributes);
        names.items("global", &p.globals);
        names.items("property", &p.properties);
    }
    names.into_diags()
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
