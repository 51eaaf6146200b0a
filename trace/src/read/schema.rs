//! What a trace gives and what verdict lines report: a monitor's inputs and
//! property names.

use crate::output::Properties;
use hindsight_runtime::{InputDecl, Schema};

/// The type of one input, as trace lines must give it.
#[derive(Clone, Debug, PartialEq)]
pub enum InputType {
    /// A JSON `true`/`false`.
    Bool,
    /// A JSON integer in the i64 range.
    Int,
    /// Any JSON number.
    Float,
    /// A JSON string naming a variant.
    Enum {
        /// The enum's name (accepted as the `Name::` prefix of a variant).
        name: String,
        /// The variants in declaration order; [`Value::Enum`](hindsight_runtime::Value::Enum) indexes this list.
        variants: Vec<String>,
    },
}

impl InputType {
    /// What a trace must give for this type, as error messages say it.
    pub(crate) fn expectation(&self) -> String {
        match self {
            InputType::Bool => "bool".to_string(),
            InputType::Int => "int".to_string(),
            InputType::Float => "float".to_string(),
            InputType::Enum { name, variants } => {
                format!(
                    "a variant of enum `{name}` (one of: {})",
                    variants.join(", ")
                )
            }
        }
    }

    /// The type's name as written in a spec.
    pub fn name(&self) -> &str {
        match self {
            InputType::Bool => "bool",
            InputType::Int => "int",
            InputType::Float => "float",
            InputType::Enum { name, .. } => name,
        }
    }
}

/// One input a trace line gives.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSchema {
    /// The input's name (the JSON key).
    pub name: String,
    /// Its type.
    pub ty: InputType,
}

impl InputSchema {
    /// The input a generated monitor declares.
    pub(crate) fn from_decl(decl: &InputDecl) -> Self {
        let ty = match decl.ty {
            hindsight_runtime::InputType::Bool => InputType::Bool,
            hindsight_runtime::InputType::Int => InputType::Int,
            hindsight_runtime::InputType::Float => InputType::Float,
            hindsight_runtime::InputType::Enum { name, variants } => InputType::Enum {
                name: name.to_string(),
                variants: variants.iter().map(|v| v.to_string()).collect(),
            },
        };
        InputSchema {
            name: decl.name.to_string(),
            ty,
        }
    }
}

/// The inputs every trace line must give, in the monitor's declaration order,
/// and the properties verdict lines name.
#[derive(Clone, Debug)]
pub struct TraceSchema {
    /// The inputs in declaration order.
    pub(super) inputs: Vec<InputSchema>,
    /// The properties in declaration order.
    properties: Properties,
    /// The first input that is not bool (the array form is invalid if there is one).
    pub(super) first_non_bool: Option<usize>,
}

impl TraceSchema {
    /// A schema for `inputs` and `properties`; a [`Value`] vector is indexed
    /// like `inputs`, a verdict vector like `properties`.
    ///
    /// [`Value`]: hindsight_runtime::Value
    pub fn new(inputs: Vec<InputSchema>, properties: impl Into<Properties>) -> Self {
        let first_non_bool = inputs.iter().position(|i| i.ty != InputType::Bool);
        TraceSchema {
            inputs,
            properties: properties.into(),
            first_non_bool,
        }
    }

    /// The schema of a generated monitor (its `SCHEMA` constant).
    pub fn from_static(schema: &Schema) -> Self {
        let inputs = schema.inputs.iter().map(InputSchema::from_decl).collect();
        TraceSchema::new(inputs, Properties::from_decls(schema.properties))
    }

    /// The inputs in declaration order.
    pub fn inputs(&self) -> &[InputSchema] {
        &self.inputs
    }

    /// The properties in declaration order.
    pub fn properties(&self) -> &Properties {
        &self.properties
    }

    /// The names of the bool inputs, comma-separated.
    pub(super) fn bool_names(&self) -> String {
        let bools = self.inputs.iter().filter(|i| i.ty == InputType::Bool);
        super::comma_list(bools.map(|i| i.name.as_str()))
    }
}
