//! What a population trace gives and what its verdict lines report: the
//! agents' attributes, the globals, the capacity and the properties.

use crate::read::InputSchema;

/// The attributes every agent gives, the globals every line gives, how many
/// agents a monitor holds, and the properties verdict lines name.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationSchema {
    attributes: Vec<InputSchema>,
    globals: Vec<InputSchema>,
    capacity: usize,
    properties: Vec<String>,
    resets: Vec<bool>,
    /// Per property: whether it is past-time (its end verdict is whether it
    /// held at every step).
    past: Vec<bool>,
}

impl PopulationSchema {
    /// A schema for agents with `attributes` and lines with `globals` (both in
    /// declaration order), at most `capacity` agents, and `properties` (in
    /// declaration order, none `with reset`; see [`with_resets`](Self::with_resets)).
    pub fn new(
        attributes: Vec<InputSchema>,
        globals: Vec<InputSchema>,
        capacity: usize,
        properties: Vec<String>,
    ) -> Self {
        let resets = vec![false; properties.len()];
        let past = vec![false; properties.len()];
        PopulationSchema {
            attributes,
            globals,
            capacity,
            properties,
            resets,
            past,
        }
    }

    /// The schema a generated population describes itself by (its `SCHEMA`).
    pub fn from_static(schema: &hindsight_runtime::population::PopulationSchema) -> Self {
        let inputs = |decls: &[hindsight_runtime::InputDecl]| {
            decls.iter().map(InputSchema::from_decl).collect()
        };
        let properties = schema
            .properties
            .iter()
            .map(|p| p.name.to_string())
            .collect();
        let resets = schema.properties.iter().map(|p| p.reset).collect();
        let past = schema.properties.iter().map(|p| p.past).collect();
        PopulationSchema::new(
            inputs(schema.attributes),
            inputs(schema.globals),
            schema.capacity,
            properties,
        )
        .with_resets(resets)
        .with_past(past)
    }

    /// The same schema, with the properties flagged `with reset` (per property,
    /// in declaration order; missing flags are `false`).
    pub fn with_resets(mut self, mut resets: Vec<bool>) -> Self {
        resets.resize(self.properties.len(), false);
        self.resets = resets;
        self
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

    /// The property names in declaration order.
    pub fn properties(&self) -> &[String] {
        &self.properties
    }

    /// The same schema, with the past-time properties flagged (per property,
    /// in declaration order; missing flags are `false`).
    pub fn with_past(mut self, mut past: Vec<bool>) -> Self {
        past.resize(self.properties.len(), false);
        self.past = past;
        self
    }

    /// Per property: whether it is past-time.
    pub fn past(&self) -> &[bool] {
        &self.past
    }

    /// Per property: whether it is `with reset` (the end line then gives its counts).
    pub fn resets(&self) -> &[bool] {
        &self.resets
    }

    /// The global names, comma-separated, for error messages.
    pub(super) fn global_names(&self) -> String {
        crate::read::field_names(&self.globals)
    }
}
