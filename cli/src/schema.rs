//! The trace schemas of compiled blocks: a monitor's from its table, a
//! system's from its lowered lifelines, a population's from its tables.

use hindsight_compiler::ir::{Decl, PopulationTables, SystemTables, Table};
use hindsight_compiler::types::{EnumDef, Ty};
use hindsight_trace::population::PopulationSchema;
use hindsight_trace::system::{LifelineSchema, SystemSchema};
use hindsight_trace::{InputSchema, InputType, Properties, TraceSchema};

/// The inputs a trace must give and the properties verdict lines name, for
/// the monitor compiled into `table`.
pub fn trace_schema(table: &Table) -> TraceSchema {
    let inputs = table
        .inputs
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let mut schema = input_schema(&input.name, input.ty, &table.enums);
            if table.reading.time == Some(i) {
                schema.ty = InputType::Time;
            }
            match table.reading.fields.get(i) {
                Some(field) => schema.with_field(field.clone()),
                None => schema,
            }
        })
        .collect();
    let properties = Properties::new(table.outputs.iter().map(|o| o.name.clone()).collect())
        .with_resets(table.outputs.iter().map(|o| o.reset).collect())
        .with_past(table.outputs.iter().map(|o| o.is_past()).collect());
    TraceSchema::new(inputs, properties)
        .with_steps(table.reading.steps.clone())
        .with_session_end(table.reading.session_end.clone())
}

/// The lifelines a system trace may name, their store variables and the
/// guards each one reports at its choices, for the lowered `system` (`enums`
/// are the spec's enums, which variable types index).
pub fn system_schema(system: &SystemTables, enums: &[EnumDef]) -> SystemSchema {
    let lifelines = system
        .lifelines
        .iter()
        .map(|lifeline| LifelineSchema {
            name: lifeline.name.clone(),
            vars: lifeline
                .vars
                .iter()
                .map(|v| {
                    let mut var = input_schema(&v.name, v.ty, enums);
                    if system.time.as_deref() == Some(v.name.as_str()) {
                        var.ty = InputType::Time;
                    }
                    var
                })
                .collect(),
            guards: lifeline
                .guards
                .iter()
                .filter_map(|&g| g.get(&system.guards).map(|g| g.name.clone()))
                .collect(),
        })
        .collect();
    SystemSchema::new(lifelines).with_protocols(
        hindsight_compiler::interp::system::SystemInterpreter::protocol_columns(system, None),
    )
}

/// The schema of an input (or store variable) `name` of type `ty`.
pub(crate) fn input_schema(name: &str, ty: Ty, enums: &[EnumDef]) -> InputSchema {
    let ty = match ty {
        Ty::Bool => InputType::Bool,
        Ty::Int => InputType::Int,
        Ty::Float => InputType::Float,
        Ty::Enum(e) => match enums.get(e) {
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
    };
    InputSchema::new(name, ty)
}

/// What a trace of the population compiled into `tables` gives (`enums` are
/// the spec's enums, which attribute and global types index) and what its
/// verdict lines report.
pub fn population_schema(tables: &PopulationTables, enums: &[EnumDef]) -> PopulationSchema {
    let inputs = |decls: &[Decl]| {
        decls
            .iter()
            .map(|d| input_schema(&d.name, d.ty, enums))
            .collect()
    };
    let properties = Properties::new(tables.properties.iter().map(|p| p.name.clone()).collect())
        .with_resets(tables.properties.iter().map(|p| p.reset).collect())
        .with_past(
            tables
                .properties
                .iter()
                .map(|p| tables.is_past(p))
                .collect(),
        );
    let mut globals: Vec<InputSchema> = inputs(&tables.globals);
    if let Some(time) = tables.time.and_then(|t| globals.get_mut(t)) {
        time.ty = InputType::Time;
    }
    PopulationSchema::new(
        inputs(&tables.attributes),
        globals,
        tables.capacity,
        properties,
    )
}
