//! What a trace gives and what verdict lines report: a monitor's inputs and
//! property names.

use crate::output::Properties;
use hindsight_runtime::record::{Field, FilterOp, Source};
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
    /// The step's time: a JSON number of seconds (fraction allowed) or an
    /// RFC 3339 string, read as microseconds; never below the last step's.
    Time,
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
            InputType::Time => {
                "a time (a number of seconds, or an RFC 3339 string such as \"2026-11-24T09:30:00.250Z\")"
                    .to_string()
            }
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
            InputType::Time => "time",
            InputType::Enum { name, .. } => name,
        }
    }
}

/// One input a trace line gives.
#[derive(Clone, Debug, PartialEq)]
pub struct InputSchema {
    /// The input's name (the JSON key, unless `field` says otherwise).
    pub name: String,
    /// Its type.
    pub ty: InputType,
    /// Where a line gives it and what its absence means.
    pub field: Field<String>,
}

impl InputSchema {
    /// The input `name` of type `ty`: the top-level key `name`, required.
    pub fn new(name: impl Into<String>, ty: InputType) -> Self {
        InputSchema {
            name: name.into(),
            ty,
            field: Field::KEY,
        }
    }

    /// The same input read as `field` says.
    pub fn with_field(self, field: Field<String>) -> Self {
        InputSchema { field, ..self }
    }

    /// Where the input lies, as messages show it: its pointer, or `/name`.
    pub(crate) fn pointer(&self) -> String {
        match self.field.source.pointer() {
            Some(p) => p.clone(),
            None => format!("/{}", super::record::escape(&self.name)),
        }
    }

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
        InputSchema::new(decl.name, ty)
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
    /// Which lines are steps, in postfix order (empty: every line).
    pub(super) steps: Vec<FilterOp<String>>,
    /// Which lines end their session in a keyed log, in postfix order.
    pub(super) session_end: Vec<FilterOp<String>>,
    /// Whether lines are records whatever the inputs say (a keyed log).
    records: bool,
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
            steps: Vec::new(),
            session_end: Vec::new(),
            records: false,
        }
    }

    /// The same schema, taking as steps only the lines `steps` (a filter in
    /// postfix order) holds on.
    pub fn with_steps(self, steps: Vec<FilterOp<String>>) -> Self {
        TraceSchema { steps, ..self }
    }

    /// The same schema, ending a keyed log's session at the lines
    /// `session_end` (a filter in postfix order) holds on.
    pub fn with_session_end(self, session_end: Vec<FilterOp<String>>) -> Self {
        TraceSchema {
            session_end,
            ..self
        }
    }

    /// The same schema, reading lines as log records (keys no input names
    /// are ignored): how a keyed log (`--key`) is read, its session key
    /// being a field no input names.
    pub fn as_records(self) -> Self {
        TraceSchema {
            records: true,
            ..self
        }
    }

    /// Whether some lines end their session (`sessions end where`).
    pub fn ends_sessions(&self) -> bool {
        !self.session_end.is_empty()
    }

    /// The schema of a generated monitor (its `SCHEMA` constant).
    pub fn from_static(schema: &Schema) -> Self {
        let owned = |s: &&str| s.to_string();
        let inputs = schema.inputs.iter().enumerate().map(|(i, decl)| {
            let mut input = InputSchema::from_decl(decl);
            if schema.reading.time == Some(i) {
                input.ty = InputType::Time;
            }
            match schema.reading.fields.get(i) {
                Some(field) => input.with_field(field.map(owned)),
                None => input,
            }
        });
        let steps = schema.reading.steps.iter().map(|op| op.map(owned));
        let session_end = schema.reading.session_end.iter().map(|op| op.map(owned));
        TraceSchema::new(inputs.collect(), Properties::from_decls(schema.properties))
            .with_steps(steps.collect())
            .with_session_end(session_end.collect())
    }

    /// Whether a filter picks the steps (`steps where`).
    pub fn filters_steps(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Whether the steps have a time (a `time` declaration).
    pub fn has_time(&self) -> bool {
        self.inputs.iter().any(|i| i.ty == InputType::Time)
    }

    /// Whether lines are log records: some input is read through a pointer,
    /// or a filter picks the steps. Keys no input names are then ignored
    /// (an error otherwise), and a line must be an object.
    pub fn reads_records(&self) -> bool {
        self.records
            || !self.steps.is_empty()
            || !self.session_end.is_empty()
            || self.has_time()
            || self
                .inputs
                .iter()
                .any(|i| !matches!(i.field.source, Source::Key))
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
