//! The trace schema of a compiled monitor, from its table.

use hindsight_compiler::hir::Ty;
use hindsight_compiler::table::Table;
use hindsight_trace::{InputSchema, InputType, TraceSchema};

/// The inputs a trace must give and the properties verdict lines name, for
/// the monitor compiled into `table`.
pub fn trace_schema(table: &Table) -> TraceSchema {
    let inputs = table
        .inputs
        .iter()
        .map(|(name, ty)| InputSchema {
            name: name.clone(),
            ty: match *ty {
                Ty::Bool => InputType::Bool,
                Ty::Int => InputType::Int,
                Ty::Float => InputType::Float,
                Ty::Enum(e) => match table.enums.get(e) {
                    Some(def) => InputType::Enum {
                        name: def.name.clone(),
                        variants: def.variants.clone(),
                    },
                    // The checker never produces a dangling index; an enum with
                    // no variants rejects every value rather than panicking.
                    None => InputType::Enum {
                        name: format!("enum#{e}"),
                        variants: Vec::new(),
                    },
                },
            },
        })
        .collect();
    let properties = table.outputs.iter().map(|o| o.name.clone()).collect();
    let resets = table.outputs.iter().map(|o| o.reset).collect();
    TraceSchema::new(inputs, properties).with_resets(resets)
}
