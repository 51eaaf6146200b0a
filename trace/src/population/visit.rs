//! serde visitors that check a population trace line against the schema
//! while serde_json parses it, writing every value straight into the reused
//! [`PopulationStep`]. A rejected value is recorded as a
//! [`PopulationErrorKind`] beside the (message-less) serde error, as for
//! monitor traces.

use super::error::PopulationErrorKind;
use super::schema::PopulationSchema;
use super::PopulationStep;
use crate::read::{
    any_seed, fail, forward_scalars, FieldErrors, FieldsSeed, KeyedErrors, KeyedLine, LineKey,
    Scalar,
};
use hindsight_runtime::Value;
use serde::de::{self, MapAccess, SeqAccess, Visitor};

/// Buffers reused from line to line besides the step itself.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// Which attributes the current agent has given.
    attribute_seen: Vec<bool>,
    /// Which globals the line has given.
    global_seen: Vec<bool>,
    /// Key-position guesses for agents' attributes and for the globals.
    attribute_hints: Vec<usize>,
    global_hints: Vec<usize>,
    /// Where the attributes of agents beyond the capacity are decoded (and
    /// checked) without growing the step.
    spare_row: Vec<Value>,
}

/// The keys of a population trace line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Agents,
    Globals,
}

impl LineKey for Key {
    const ALL: &'static [Key] = &[Key::Agents, Key::Globals];

    fn name(self) -> &'static str {
        match self {
            Key::Agents => "agents",
            Key::Globals => "globals",
        }
    }
}

/// A whole line, read by [`crate::read::KeyedSeed`].
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a PopulationSchema,
    pub(super) step: &'a mut PopulationStep,
    pub(super) scratch: &'a mut Scratch,
    pub(super) problem: &'a mut Option<PopulationErrorKind>,
}

impl KeyedLine for LineSeed<'_> {
    type Key = Key;
    type Kind = PopulationErrorKind;

    fn problem(&mut self) -> &mut Option<PopulationErrorKind> {
        self.problem
    }

    fn value<'de, A: MapAccess<'de>>(&mut self, key: Key, map: &mut A) -> Result<(), A::Error> {
        let (schema, step, scratch) = (self.schema, &mut *self.step, &mut *self.scratch);
        match key {
            Key::Agents => map.next_value_seed(AgentsSeed {
                schema,
                agents: &mut step.agents,
                attributes: &mut step.attributes,
                scratch,
                problem: &mut *self.problem,
            }),
            Key::Globals => map.next_value_seed(FieldsSeed {
                fields: Some(schema.globals()),
                errors: &Globals,
                out: &mut step.globals,
                seen: &mut scratch.global_seen,
                hints: &mut scratch.global_hints,
                problem: &mut *self.problem,
            }),
        }
    }
}

/// Decodes `agents`: counts them and appends the attributes of the first
/// `capacity` to `attributes`, row after row.
struct AgentsSeed<'a> {
    schema: &'a PopulationSchema,
    agents: &'a mut usize,
    attributes: &'a mut Vec<Value>,
    scratch: &'a mut Scratch,
    problem: &'a mut Option<PopulationErrorKind>,
}

impl AgentsSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail(
            self.problem,
            PopulationErrorKind::AgentsNotArray {
                found: found.describe(),
            },
        ))
    }
}

any_seed!(AgentsSeed<'_>);

impl<'de> Visitor<'de> for AgentsSeed<'_> {
    type Value = ();

    forward_scalars!("an array of agents");

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Object)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let AgentsSeed {
            schema,
            agents,
            attributes,
            scratch,
            problem,
        } = self;
        let width = schema.attributes().len();
        // A repeated `agents` key is rejected before its value is decoded, so
        // the buffer holds only this array's agents.
        attributes.clear();
        *agents = 0;
        loop {
            let start = attributes.len();
            let row = if *agents < schema.capacity() {
                attributes.resize(start + width, Value::Bool(false));
                attributes.get_mut(start..).unwrap_or_default()
            } else {
                scratch.spare_row.resize(width, Value::Bool(false));
                scratch.spare_row.as_mut_slice()
            };
            let decoded = seq.next_element_seed(FieldsSeed {
                fields: Some(schema.attributes()),
                errors: &Agent(*agents),
                out: row,
                seen: &mut scratch.attribute_seen,
                hints: &mut scratch.attribute_hints,
                problem: &mut *problem,
            })?;
            if decoded.is_none() {
                attributes.truncate(start);
                return Ok(());
            }
            *agents = agents.saturating_add(1);
        }
    }
}

/// How an agent (by its index) says what is wrong with its attributes.
struct Agent(usize);

impl FieldErrors for Agent {
    type Kind = PopulationErrorKind;

    fn not_object(&self, found: String) -> PopulationErrorKind {
        PopulationErrorKind::AgentNotObject {
            agent: self.0,
            found,
        }
    }

    fn unknown(&self, name: &str, known: String) -> PopulationErrorKind {
        let name = name.to_string();
        PopulationErrorKind::UnknownAttribute {
            agent: self.0,
            name,
            known,
        }
    }

    fn duplicate(&self, field: &str) -> PopulationErrorKind {
        let attribute = field.to_string();
        PopulationErrorKind::DuplicateAttribute {
            agent: self.0,
            attribute,
        }
    }

    fn missing(&self, field: &str) -> Option<PopulationErrorKind> {
        let attribute = field.to_string();
        Some(PopulationErrorKind::MissingAttribute {
            agent: self.0,
            attribute,
        })
    }

    fn bad_value(&self, field: &str, expected: String, found: String) -> PopulationErrorKind {
        PopulationErrorKind::AttributeValue {
            agent: self.0,
            attribute: field.to_string(),
            expected,
            found,
        }
    }
}

/// How `globals` says what is wrong with its globals.
struct Globals;

impl FieldErrors for Globals {
    type Kind = PopulationErrorKind;

    fn not_object(&self, found: String) -> PopulationErrorKind {
        PopulationErrorKind::GlobalsNotObject { found }
    }

    fn unknown(&self, name: &str, known: String) -> PopulationErrorKind {
        let name = name.to_string();
        PopulationErrorKind::UnknownGlobal { name, known }
    }

    fn duplicate(&self, field: &str) -> PopulationErrorKind {
        let global = field.to_string();
        PopulationErrorKind::DuplicateGlobal { global }
    }

    fn missing(&self, field: &str) -> Option<PopulationErrorKind> {
        let global = field.to_string();
        Some(PopulationErrorKind::MissingGlobal { global })
    }

    fn bad_value(&self, field: &str, expected: String, found: String) -> PopulationErrorKind {
        let global = field.to_string();
        PopulationErrorKind::GlobalValue {
            global,
            expected,
            found,
        }
    }
}

impl KeyedErrors for PopulationErrorKind {
    fn not_object(found: String) -> PopulationErrorKind {
        PopulationErrorKind::NotObject { found }
    }

    fn unknown_key(key: String) -> PopulationErrorKind {
        PopulationErrorKind::UnknownKey { key }
    }

    fn duplicate_key(key: &'static str) -> PopulationErrorKind {
        PopulationErrorKind::DuplicateKey { key }
    }
}
