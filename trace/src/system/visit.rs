//! serde visitors that check a system trace line against the schema while
//! serde_json parses it, writing the event straight into the reused
//! [`SystemEvent`]. A rejected value is recorded as a [`TraceErrorKind`]
//! beside the (message-less) serde error, as for monitor traces.

use super::error::SystemErrorKind;
use super::event::{Kind, SystemEvent};
use super::schema::{LifelineSchema, SystemSchema};
use crate::read::{fail, forward_scalars, reject_containers, Scalar, TraceErrorKind, ValueSeed};
use hindsight_runtime::Value;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// What the keys of a line gave, beyond what is written into the event.
#[derive(Debug, Default)]
pub(super) struct Given {
    /// Which keys were seen, indexed by [`Key`].
    seen: [bool; Key::ALL.len()],
    pub(super) lifeline: Option<usize>,
    pub(super) kind: Option<Kind>,
    pub(super) to: Option<usize>,
    /// Whether `store` came before `lifeline` and must be decoded in a second pass.
    pub(super) store_deferred: bool,
}

impl Given {
    /// Whether the line had key `key`.
    pub(super) fn has(&self, key: Key) -> bool {
        self.seen[key as usize]
    }
}

/// The keys of a system trace line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Lifeline,
    Kind,
    To,
    Msg,
    Store,
}

impl Key {
    /// Every key, in the order of the discriminants.
    const ALL: [Key; 5] = [Key::Lifeline, Key::Kind, Key::To, Key::Msg, Key::Store];

    /// The key as lines spell it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Key::Lifeline => "lifeline",
            Key::Kind => "kind",
            Key::To => "to",
            Key::Msg => "msg",
            Key::Store => "store",
        }
    }
}

/// Records `kind` as the reason for failing and returns the error that stops serde_json.
fn fail_with<E: de::Error>(problem: &mut Option<TraceErrorKind>, kind: SystemErrorKind) -> E {
    fail(problem, TraceErrorKind::System(Box::new(kind)))
}

/// First pass over a line: every key, decoding `store` only if `lifeline`
/// came before it.
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a SystemSchema,
    pub(super) event: &'a mut SystemEvent,
    pub(super) given: &'a mut Given,
    pub(super) problem: &'a mut Option<TraceErrorKind>,
}

impl LineSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail_with(
            self.problem,
            SystemErrorKind::NotObject {
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
            event,
            given,
            problem,
        } = self;
        while let Some(key) = map.next_key_seed(KeySeed {
            problem: &mut *problem,
        })? {
            let seen = &mut given.seen[key as usize];
            if *seen {
                return Err(fail_with(
                    problem,
                    SystemErrorKind::DuplicateKey { key: key.name() },
                ));
            }
            *seen = true;
            let problem = &mut *problem;
            match key {
                Key::Lifeline => {
                    let index = map.next_value_seed(TextSeed::new(key, problem, |name| {
                        schema
                            .lookup(name)
                            .ok_or_else(|| SystemErrorKind::UnknownLifeline {
                                name: name.to_string(),
                                known: schema.names(),
                            })
                    }))?;
                    given.lifeline = Some(index);
                }
                Key::Kind => {
                    let kind = map.next_value_seed(TextSeed::new(key, problem, |name| {
                        Kind::NAMES
                            .iter()
                            .find(|(n, _)| *n == name)
                            .map(|&(_, kind)| kind)
                            .ok_or_else(|| SystemErrorKind::UnknownKind {
                                found: name.to_string(),
                            })
                    }))?;
                    given.kind = Some(kind);
                }
                Key::To => {
                    let index = map.next_value_seed(TextSeed::new(key, problem, |name| {
                        schema
                            .lookup(name)
                            .ok_or_else(|| SystemErrorKind::SendToUnknown {
                                name: name.to_string(),
                                known: schema.names(),
                            })
                    }))?;
                    given.to = Some(index);
                }
                Key::Msg => {
                    let msg = &mut event.msg;
                    map.next_value_seed(TextSeed::new(key, problem, |id| {
                        msg.push_str(id);
                        Ok(())
                    }))?;
                }
                Key::Store => {
                    let lifeline = given.lifeline.and_then(|l| schema.lifelines().get(l));
                    given.store_deferred = lifeline.is_none();
                    map.next_value_seed(StoreSeed {
                        lifeline,
                        changes: &mut event.changes,
                        problem,
                    })?;
                }
            }
        }
        Ok(())
    }
}

/// Second pass over a line whose `store` came before its `lifeline`: decodes
/// only `store` (the first pass has checked everything else).
pub(super) struct StoreOnlySeed<'a> {
    pub(super) lifeline: &'a LifelineSchema,
    pub(super) changes: &'a mut Vec<(usize, Value)>,
    pub(super) problem: &'a mut Option<TraceErrorKind>,
}

impl StoreOnlySeed<'_> {
    fn scalar<E: de::Error>(self, _: Scalar<'_>) -> Result<(), E> {
        Err(de::Error::custom("not an object"))
    }
}

impl<'de> DeserializeSeed<'de> for StoreOnlySeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StoreOnlySeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    forward_scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key_seed(KeySeed {
            problem: &mut *self.problem,
        })? {
            if key == Key::Store {
                map.next_value_seed(StoreSeed {
                    lifeline: Some(self.lifeline),
                    changes: &mut *self.changes,
                    problem: &mut *self.problem,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// Decodes an object key into the [`Key`] it names.
struct KeySeed<'a> {
    problem: &'a mut Option<TraceErrorKind>,
}

impl KeySeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<Key, E> {
        let key = match found {
            Scalar::Str(key) => key,
            other => return Err(fail(self.problem, TraceErrorKind::Json(other.describe()))),
        };
        match Key::ALL.into_iter().find(|k| k.name() == key) {
            Some(key) => Ok(key),
            None => Err(fail_with(
                self.problem,
                SystemErrorKind::UnknownKey {
                    key: key.to_string(),
                },
            )),
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
        f.write_str("a key")
    }

    forward_scalars!();
    reject_containers!();
}

/// Decodes the string value of `key` with `parse`.
struct TextSeed<'a, T, F> {
    key: Key,
    problem: &'a mut Option<TraceErrorKind>,
    parse: F,
    value: PhantomData<T>,
}

impl<'a, T, F: FnOnce(&str) -> Result<T, SystemErrorKind>> TextSeed<'a, T, F> {
    fn new(key: Key, problem: &'a mut Option<TraceErrorKind>, parse: F) -> Self {
        TextSeed {
            key,
            problem,
            parse,
            value: PhantomData,
        }
    }

    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<T, E> {
        let result = match found {
            Scalar::Str(text) => (self.parse)(text),
            other => Err(SystemErrorKind::NotString {
                key: self.key.name(),
                found: other.describe(),
            }),
        };
        result.map_err(|kind| fail_with(self.problem, kind))
    }
}

impl<'de, T, F: FnOnce(&str) -> Result<T, SystemErrorKind>> DeserializeSeed<'de>
    for TextSeed<'_, T, F>
{
    type Value = T;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T, F: FnOnce(&str) -> Result<T, SystemErrorKind>> Visitor<'de> for TextSeed<'_, T, F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    forward_scalars!();
    reject_containers!();
}

/// Decodes `store` into `changes`, typed as the variables of `lifeline`; with
/// no lifeline (not known yet) only checks that `store` is an object.
struct StoreSeed<'a> {
    lifeline: Option<&'a LifelineSchema>,
    changes: &'a mut Vec<(usize, Value)>,
    problem: &'a mut Option<TraceErrorKind>,
}

impl StoreSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail_with(
            self.problem,
            SystemErrorKind::StoreNotObject {
                found: found.describe(),
            },
        ))
    }
}

impl<'de> DeserializeSeed<'de> for StoreSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StoreSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    forward_scalars!();

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let StoreSeed {
            lifeline,
            changes,
            problem,
        } = self;
        let Some(lifeline) = lifeline else {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        while let Some(var) = map.next_key_seed(VariableSeed {
            lifeline,
            problem: &mut *problem,
        })? {
            let Some(decl) = lifeline.vars.get(var) else {
                return Err(de::Error::custom("variable index out of range"));
            };
            if changes.iter().any(|&(given, _)| given == var) {
                return Err(fail_with(
                    problem,
                    SystemErrorKind::DuplicateVariable {
                        var: decl.name.clone(),
                    },
                ));
            }
            changes.push((var, Value::Bool(false)));
            let Some((_, slot)) = changes.last_mut() else {
                return Err(de::Error::custom("no slot for the value"));
            };
            let decoded = map.next_value_seed(ValueSeed {
                input: decl,
                slot,
                problem: &mut *problem,
            });
            if decoded.is_err() {
                // Say it of a lifeline's variable, not of a monitor's input.
                *problem = problem.take().map(|kind| match kind {
                    TraceErrorKind::WrongType { found, .. } => {
                        TraceErrorKind::System(Box::new(SystemErrorKind::VariableValue {
                            lifeline: lifeline.name.clone(),
                            var: decl.name.clone(),
                            expected: decl.ty.expectation(),
                            found,
                        }))
                    }
                    TraceErrorKind::UnknownVariant { found, .. } => {
                        TraceErrorKind::System(Box::new(SystemErrorKind::VariableValue {
                            lifeline: lifeline.name.clone(),
                            var: decl.name.clone(),
                            expected: decl.ty.expectation(),
                            found: format!("\"{}\"", crate::json::Excerpt(&found)),
                        }))
                    }
                    other => other,
                });
                return decoded;
            }
        }
        Ok(())
    }
}

/// Decodes a `store` key into the index of the lifeline's variable it names.
struct VariableSeed<'a> {
    lifeline: &'a LifelineSchema,
    problem: &'a mut Option<TraceErrorKind>,
}

impl VariableSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<usize, E> {
        let name = match found {
            Scalar::Str(name) => name,
            other => return Err(fail(self.problem, TraceErrorKind::Json(other.describe()))),
        };
        self.lifeline.lookup(name).ok_or_else(|| {
            fail_with(
                self.problem,
                SystemErrorKind::UnknownVariable {
                    lifeline: self.lifeline.name.clone(),
                    name: name.to_string(),
                    known: self.lifeline.var_names(),
                },
            )
        })
    }
}

impl<'de> DeserializeSeed<'de> for VariableSeed<'_> {
    type Value = usize;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for VariableSeed<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a variable name")
    }

    forward_scalars!();
    reject_containers!();
}
