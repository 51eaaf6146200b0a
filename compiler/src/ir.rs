//! The program IR: a spec lowered for execution, and all that the back ends
//! (the interpreter, explanations, the code generator) read. It holds no HIR:
//! names, types and declaration spans are copied in, formulas are tables.
//!
//! - [`table`]: one monitor's slot table and LTL3 automata (the shared kernel);
//! - [`system`]: a system as one table per lifeline plus the stamp layout;
//! - [`population`]: a population as agent-level strata, signals and a top table.

mod id;
pub mod population;
pub mod protocol;
pub mod system;
pub mod table;

pub use id::Id;

pub use population::PopulationTables;
pub use system::SystemTables;
pub use table::Table;

use crate::types::EnumDef;
use hindsight_grammar::ast::Span;

/// A whole spec lowered: every block's tables and the enums they index.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The spec's enums, which [`crate::types::Ty::Enum`] and enum values index.
    pub enums: Vec<EnumDef>,
    /// One table per monitor block, in source order.
    pub monitors: Vec<Table>,
    /// The systems, in source order.
    pub systems: Vec<SystemTables>,
    /// The populations, in source order.
    pub populations: Vec<PopulationTables>,
}

impl Program {
    /// The table of the monitor named `name`.
    pub fn monitor(&self, name: &str) -> Option<&Table> {
        self.monitors.iter().find(|t| t.name == name)
    }

    /// The system named `name`.
    pub fn system(&self, name: &str) -> Option<&SystemTables> {
        self.systems.iter().find(|s| s.name == name)
    }

    /// The population named `name`.
    pub fn population(&self, name: &str) -> Option<&PopulationTables> {
        self.populations.iter().find(|p| p.name == name)
    }
}

/// A declared name with its type: a monitor input, a lifeline variable, a
/// population attribute or global.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    /// The name.
    pub name: String,
    /// Its type.
    pub ty: crate::types::Ty,
    /// The declaration, for diagnostics of back ends (a name generated Rust
    /// cannot use); synthetic inputs carry their block's span.
    pub span: Span,
}

/// How a monitor's steps are read from JSON lines: where each input lies, what
/// its absence means, which lines are steps. Only the trace readers follow it,
/// but for `time`, which is also the input a table's clock reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reading {
    /// One per input, in declaration order (or none: every input is its
    /// own top-level key, required at every step).
    pub fields: Vec<hindsight_runtime::record::Field<String>>,
    /// Which lines are steps, in postfix order; empty when every line is.
    pub steps: Vec<hindsight_runtime::record::FilterOp<String>>,
    /// The input that is the step's time (see
    /// [`hindsight_runtime::record::Reading::time`]), if any.
    pub time: Option<usize>,
    /// Which lines end their session in a keyed log, in postfix order;
    /// empty when none does.
    pub session_end: Vec<hindsight_runtime::record::FilterOp<String>>,
}

impl Reading {
    /// Whether every input is its own top-level key, required at every step,
    /// and every line is a step (how traces were read before mappings).
    pub fn is_plain(&self) -> bool {
        self.time.is_none()
            && self.steps.is_empty()
            && self.session_end.is_empty()
            && self.fields.iter().all(|f| {
                matches!(
                    (&f.source, f.absent),
                    (
                        hindsight_runtime::record::Source::Key,
                        hindsight_runtime::record::Absent::Error
                    )
                )
            })
    }
}
