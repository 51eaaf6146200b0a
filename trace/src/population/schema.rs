//! What a population trace gives and what its verdict lines report: the
//! agents' attributes, the globals, the capacity and the properties.

use crate::output::Properties;
use crate::read::{comma_list, InputSchema, InputType};

/// The attributes every agent gives, the globals every line gives, how many
/// agents a monitor holds, and the properties verdict lines name.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationSchema {
    attributes: Vec<InputSchema>,
    globals: Vec<InputSchema>,
    capacity: usize,
    properties: Properties,
}

impl PopulationSchema {
    /// A schema for agents with `attributes` and lines with `globals` (both in
    /// declaration order), at most `capacity` agents, and `properties` (in
    /// declaration order).
    pub fn new(
        attributes: Vec<InputSchema>,
        globals: Vec<InputSchema>,
        capacity: usize,
        properties: impl Into<Properties>,
    ) -> Self {
        PopulationSchema {
            attributes,
            globals,
            capacity,
            properties: properties.into(),
        }
    }

    /// The schema a generated population describes itself by (its `SCHEMA`).
    pub fn from_static(schema: &hindsight_runtime::population::PopulationSchema) -> Self {
        let inputs = |decls: &[hindsight_runtime::InputDecl]| {
            decls.iter().map(InputSchema::from_decl).collect()
        };
        let mut globals: Vec<InputSchema> = inputs(schema.globals);
        if let Some(time) = schema.time.and_then(|t| globals.get_mut(t)) {
            time.ty = InputType::Time;
        }
        PopulationSchema::new(
            inputs(schema.attributes),
            globals,
            schema.capacity,
            Properties::from_decls(schema.properties),
        )
    }

    /// The attributes of every agent, in declaration order.
    pub fn attributes(&self) -> &[InputSchema] {
        &self.attributes
    }

    /// The globals, in declaration order.
    pub fn globals(&self) -> &[InputSchema] {
        &self.globals
    }

    /// The most agents a line may list.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The properties in declaration order.
    pub fn properties(&self) -> &Properties {
        &self.properties
    }

    /// The global names, comma-separated, for error messages.
    pub(super) fn global_names(&self) -> String {
        comma_list(self.globals.iter().map(|g| g.name.as_str()))
    }
}
