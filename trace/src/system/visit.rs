//! serde visitors that check a system trace line against the schema while
//! serde_json parses it, writing the event straight into the reused
//! [`SystemEvent`]. A rejected value is recorded as a [`SystemErrorKind`]
//! beside the (message-less) serde error, as for monitor traces.

use super::error::SystemErrorKind;
use super::event::{Kind, SystemEvent};
use super::schema::{LifelineSchema, SystemSchema};
use crate::read::{
    fail, forward_scalars, next_line_key, reject_containers, FieldErrors, FieldsSeed, LineKey,
    Scalar,
};
use hindsight_runtime::Value;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// What the keys of a line gave, beyond what is written into the event.
#[derive(Debug, Default)]
pub(super) struct Given {
    /// Which keys were seen, indexed by [`Key`].
    seen: [bool; 5],
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

impl LineKey for Key {
    /// Every key, in the order of the discriminants.
    const ALL: &'static [Key] = &[Key::Lifeline, Key::Kind, Key::To, Key::Msg, Key::Store];

    fn name(self) -> &'static str {
        match self {
            Key::Lifeline => "lifeline",
            Key::Kind => "kind",
            Key::To => "to",
            Key::Msg => "msg",
            Key::Store => "store",
        }
    }
}

/// The values and presence of a lifeline's variables as one line's `store`
/// gives them, reused from line to line.
#[derive(Clone, Debug, Default)]
pub(super) struct Store {
    values: Vec<Value>,
    pub(super) seen: Vec<bool>,
    hints: Vec<usize>,
}

impl Store {
    /// The variables `store` gave, as `(variable, value)` changes in
    /// declaration order, appended to `changes`.
    pub(super) fn changes_into(&self, changes: &mut Vec<(usize, Value)>) {
        let given = self.seen.iter().zip(&self.values).enumerate();
        changes.extend(
            given
                .filter(|(_, (&seen, _))| seen)
                .map(|(var, (_, &value))| (var, value)),
        );
    }

    /// Decodes `store` as changes of `lifeline`'s variables; with no
    /// lifeline (not known yet) only checks that it is an object.
    fn seed<'a>(
        &'a mut self,
        lifeline: Option<&'a LifelineSchema>,
        errors: &'a StoreErrors<'a>,
        problem: &'a mut Option<SystemErrorKind>,
    ) -> FieldsSeed<'a, StoreErrors<'a>> {
        let vars = lifeline.map(|l| l.vars.as_slice());
        self.values
            .resize(vars.map_or(0, <[_]>::len), Value::Bool(false));
        FieldsSeed {
            fields: vars,
            errors,
            out: &mut self.values,
            seen: &mut self.seen,
            hints: &mut self.hints,
            problem,
        }
    }
}

/// How `store` says what is wrong with a lifeline's variables (any may be
/// left out: the others keep their values).
pub(super) struct StoreErrors<'a> {
    lifeline: &'a str,
}

impl FieldErrors for StoreErrors<'_> {
    type Kind = SystemErrorKind;

    fn not_object(&self, found: String) -> SystemErrorKind {
        SystemErrorKind::StoreNotObject { found }
    }

    fn unknown(&self, name: &str, known: String) -> SystemErrorKind {
        SystemErrorKind::UnknownVariable {
            lifeline: self.lifeline.to_string(),
            name: name.to_string(),
            known,
        }
    }

    fn duplicate(&self, field: &str) -> SystemErrorKind {
        let var = field.to_string();
        SystemErrorKind::DuplicateVariable { var }
    }

    fn missing(&self, _: &str) -> Option<SystemErrorKind> {
        None
    }

    fn bad_value(&self, field: &str, expected: String, found: String) -> SystemErrorKind {
        SystemErrorKind::VariableValue {
            lifeline: self.lifeline.to_string(),
            var: field.to_string(),
            expected,
            found,
        }
    }
}

/// First pass over a line: every key, decoding `store` only if `lifeline`
/// came before it.
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a SystemSchema,
    pub(super) event: &'a mut SystemEvent,
    pub(super) store: &'a mut Store,
    pub(super) given: &'a mut Given,
    pub(super) problem: &'a mut Option<SystemErrorKind>,
}

impl LineSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail(
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
            store,
            given,
            problem,
        } = self;
        while let Some(key) = next_line_key::<Key, _, _>(&mut map, problem, |key| {
            SystemErrorKind::UnknownKey { key }
        })? {
            let seen = &mut given.seen[key as usize];
            if *seen {
                return Err(fail(
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
                    let errors = StoreErrors {
                        lifeline: lifeline.map_or("", |l| &l.name),
                    };
                    map.next_value_seed(store.seed(lifeline, &errors, problem))?;
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
    pub(super) store: &'a mut Store,
    pub(super) problem: &'a mut Option<SystemErrorKind>,
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
        let errors = StoreErrors {
            lifeline: &self.lifeline.name,
        };
        while let Some(key) = next_line_key::<Key, _, _>(&mut map, self.problem, |key| {
            SystemErrorKind::UnknownKey { key }
        })? {
            if key == Key::Store {
                map.next_value_seed(self.store.seed(Some(self.lifeline), &errors, self.problem))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// Decodes the string value of `key` with `parse`.
struct TextSeed<'a, T, F> {
    key: Key,
    problem: &'a mut Option<SystemErrorKind>,
    parse: F,
    value: PhantomData<T>,
}

impl<'a, T, F: FnOnce(&str) -> Result<T, SystemErrorKind>> TextSeed<'a, T, F> {
    fn new(key: Key, problem: &'a mut Option<SystemErrorKind>, parse: F) -> Self {
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
        result.map_err(|kind| fail(self.problem, kind))
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
