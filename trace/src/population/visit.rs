//! serde visitors that check a population trace line against the schema
//! while serde_json parses it, writing every value straight into the reused
//! [`PopulationStep`]. A rejected value is recorded as a
//! [`PopulationErrorKind`] beside the (message-less) serde error, as for
//! monitor traces.

use super::error::PopulationErrorKind;
use super::schema::PopulationSchema;
use super::PopulationStep;
use crate::read::{forward_scalars, reject_containers, InputSchema, Scalar, ValueSeed};
use hindsight_runtime::Value;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Records `kind` as the reason for failing and returns the error that stops serde_json.
fn fail<E: de::Error>(problem: &mut Option<PopulationErrorKind>, kind: PopulationErrorKind) -> E {
    *problem = Some(kind);
    E::custom("invalid population trace line")
}

/// Buffers reused from line to line besides the step itself.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// Which attributes the current agent has given.
    attribute_seen: Vec<bool>,
    /// Which globals the line has given.
    global_seen: Vec<bool>,
    /// Where the attributes of agents beyond the capacity are decoded (and
    /// checked) without growing the step.
    spare_row: Vec<Value>,
}

/// Which keys a line gave.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Given {
    /// `agents` was given.
    pub(super) agents: bool,
    /// `globals` was given.
    pub(super) globals: bool,
}

/// The keys of a population trace line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Agents,
    Globals,
}

impl Key {
    /// The key as lines spell it.
    fn name(self) -> &'static str {
        match self {
            Key::Agents => "agents",
            Key::Globals => "globals",
        }
    }
}

/// Decodes a whole line.
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a PopulationSchema,
    pub(super) step: &'a mut PopulationStep,
    pub(super) scratch: &'a mut Scratch,
    pub(super) given: &'a mut Given,
    pub(super) problem: &'a mut Option<PopulationErrorKind>,
}

impl LineSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail(
            self.problem,
            PopulationErrorKind::NotObject {
                found: found.describe(),
            },
        ))
    }
}

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    forward_scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let LineSeed {
            schema,
            step,
            scratch,
            given,
            problem,
        } = self;
        while let Some(key) = map.next_key_seed(KeySeed {
            problem: &mut *problem,
        })? {
            let seen = match key {
                Key::Agents => &mut given.agents,
                Key::Globals => &mut given.globals,
            };
            if *seen {
                return Err(fail(
                    problem,
                    PopulationErrorKind::DuplicateKey { key: key.name() },
                ));
            }
            *seen = true;
            match key {
                Key::Agents => map.next_value_seed(AgentsSeed {
                    schema,
                    agents: &mut step.agents,
                    attributes: &mut step.attributes,
                    scratch: &mut *scratch,
                    problem: &mut *problem,
                })?,
                Key::Globals => map.next_value_seed(InputsSeed {
                    inputs: schema.globals(),
                    agent: None,
                    known: &|| schema.global_names(),
                    out: &mut step.globals,
                    seen: &mut scratch.global_seen,
                    problem: &mut *problem,
                })?,
            }
        }
        Ok(())
    }
}

/// Decodes a key of the line into the [`Key`] it names.
struct KeySeed<'a> {
    problem: &'a mut Option<PopulationErrorKind>,
}

impl KeySeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<Key, E> {
        match found {
            Scalar::Str("agents") => Ok(Key::Agents),
            Scalar::Str("globals") => Ok(Key::Globals),
            Scalar::Str(key) => Err(fail(
                self.problem,
                PopulationErrorKind::UnknownKey {
                    key: key.to_string(),
                },
            )),
            other => Err(de::Error::custom(other.describe())),
        }
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`agents` or `globals`")
    }

    forward_scalars!();
    reject_containers!();
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

impl<'de> DeserializeSeed<'de> for AgentsSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for AgentsSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of agents")
    }

    forward_scalars!();

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
            let known = || schema.attribute_names();
            let decoded = seq.next_element_seed(InputsSeed {
                inputs: schema.attributes(),
                agent: Some(*agents),
                known: &known,
                out: row,
                seen: &mut scratch.attribute_seen,
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

/// Decodes an object giving every one of `inputs` (an agent's attributes or
/// the globals) into `out`.
struct InputsSeed<'a, 'k> {
    inputs: &'a [InputSchema],
    /// The agent whose attributes these are; `None` for the globals.
    agent: Option<usize>,
    /// The names of `inputs`, comma-separated (computed only for an error).
    known: &'k dyn Fn() -> String,
    out: &'a mut [Value],
    seen: &'a mut Vec<bool>,
    problem: &'a mut Option<PopulationErrorKind>,
}

impl InputsSeed<'_, '_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        let found = found.describe();
        Err(fail(
            self.problem,
            match self.agent {
                Some(agent) => PopulationErrorKind::AgentNotObject { agent, found },
                None => PopulationErrorKind::GlobalsNotObject { found },
            },
        ))
    }

    /// The index of the input called `name`, trying `hint` first.
    fn lookup(&self, name: &str, hint: usize) -> Option<usize> {
        if self.inputs.get(hint).is_some_and(|i| i.name == name) {
            return Some(hint);
        }
        self.inputs.iter().position(|i| i.name == name)
    }
}

impl<'de> DeserializeSeed<'de> for InputsSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for InputsSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    forward_scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.seen.clear();
        self.seen.resize(self.inputs.len(), false);
        let mut position = 0;
        while let Some(name) = map.next_key::<KeyText<'de>>()? {
            let name = name.as_str();
            let Some(index) = self.lookup(name, position) else {
                let name = name.to_string();
                let known = (self.known)();
                return Err(fail(
                    self.problem,
                    match self.agent {
                        Some(agent) => PopulationErrorKind::UnknownAttribute { agent, name, known },
                        None => PopulationErrorKind::UnknownGlobal { name, known },
                    },
                ));
            };
            position = index.saturating_add(1);
            let (Some(given), Some(slot), Some(input)) = (
                self.seen.get_mut(index),
                self.out.get_mut(index),
                self.inputs.get(index),
            ) else {
                return Err(de::Error::custom("input index out of range"));
            };
            if *given {
                let name = input.name.clone();
                return Err(fail(
                    self.problem,
                    match self.agent {
                        Some(agent) => PopulationErrorKind::DuplicateAttribute {
                            agent,
                            attribute: name,
                        },
                        None => PopulationErrorKind::DuplicateGlobal { global: name },
                    },
                ));
            }
            *given = true;
            let mut value_problem = None;
            let decoded = map.next_value_seed(ValueSeed {
                input,
                slot,
                problem: &mut value_problem,
            });
            if let Err(e) = decoded {
                if let Some(kind) = value_problem {
                    *self.problem = Some(PopulationErrorKind::from_value(
                        kind,
                        self.agent,
                        &input.name,
                    ));
                }
                return Err(e);
            }
        }
        if let Some(missing) = self.seen.iter().position(|&given| !given) {
            let name = self
                .inputs
                .get(missing)
                .map(|i| i.name.clone())
                .unwrap_or_default();
            return Err(fail(
                self.problem,
                match self.agent {
                    Some(agent) => PopulationErrorKind::MissingAttribute {
                        agent,
                        attribute: name,
                    },
                    None => PopulationErrorKind::MissingGlobal { global: name },
                },
            ));
        }
        Ok(())
    }
}

/// An object key: borrowed from the line when it has no escapes.
enum KeyText<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl KeyText<'_> {
    fn as_str(&self) -> &str {
        match self {
            KeyText::Borrowed(s) => s,
            KeyText::Owned(s) => s,
        }
    }
}

impl<'de> de::Deserialize<'de> for KeyText<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(KeyTextVisitor)
    }
}

/// Visits an object key as [`KeyText`].
struct KeyTextVisitor;

impl<'de> Visitor<'de> for KeyTextVisitor {
    type Value = KeyText<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(KeyText::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(KeyText::Owned(v.to_string()))
    }
}
