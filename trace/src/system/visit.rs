//! serde visitors that check a system trace line against the schema while
//! serde_json parses it, writing the event straight into the reused
//! [`SystemEvent`]. A rejected value is recorded as a [`SystemErrorKind`]
//! beside the (message-less) serde error, as for monitor traces.

use super::error::SystemErrorKind;
use super::event::{Kind, SystemEvent};
use super::schema::{LifelineSchema, SystemSchema};
use crate::read::{
    any_seed, fail, forward_scalars, reject_containers, FieldErrors, FieldsSeed, KeyedErrors,
    KeyedLine, LineKey, Scalar,
};
use hindsight_runtime::Value;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use std::marker::PhantomData;

/// What the keys of a line gave, beyond what is written into the event.
#[derive(Debug, Default)]
pub(super) struct Given {
    pub(super) lifeline: Option<usize>,
    pub(super) kind: Option<Kind>,
    pub(super) to: Option<usize>,
    /// Whether `store` came before `lifeline` and must be decoded in a second pass.
    pub(super) store_deferred: bool,
}

/// The keys of a system trace line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Lifeline,
    Kind,
    To,
    Msg,
    Label,
    Store,
}

impl LineKey for Key {
    /// Every key, in the order of the discriminants.
    const ALL: &'static [Key] = &[
        Key::Lifeline,
        Key::Kind,
        Key::To,
        Key::Msg,
        Key::Label,
        Key::Store,
    ];

    fn name(self) -> &'static str {
        match self {
            Key::Lifeline => "lifeline",
            Key::Kind => "kind",
            Key::To => "to",
            Key::Msg => "msg",
            Key::Label => "label",
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

impl KeyedLine for LineSeed<'_> {
    type Key = Key;
    type Kind = SystemErrorKind;

    fn problem(&mut self) -> &mut Option<SystemErrorKind> {
        self.problem
    }

    fn value<'de, A: MapAccess<'de>>(&mut self, key: Key, map: &mut A) -> Result<(), A::Error> {
        let (schema, given, problem) = (self.schema, &mut *self.given, &mut *self.problem);
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
                let msg = &mut self.event.msg;
                map.next_value_seed(TextSeed::new(key, problem, |id| {
                    msg.push_str(id);
                    Ok(())
                }))?;
            }
            Key::Label => {
                let label = &mut self.event.label;
                map.next_value_seed(TextSeed::new(key, problem, |text| {
                    label.push_str(text);
                    Ok(())
                }))?;
            }
            Key::Store => {
                let lifeline = given.lifeline.and_then(|l| schema.lifelines().get(l));
                given.store_deferred = lifeline.is_none();
                let errors = StoreErrors {
                    lifeline: lifeline.map_or("", |l| &l.name),
                };
                map.next_value_seed(self.store.seed(lifeline, &errors, problem))?;
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

impl KeyedLine for StoreOnlySeed<'_> {
    type Key = Key;
    type Kind = SystemErrorKind;

    fn problem(&mut self) -> &mut Option<SystemErrorKind> {
        self.problem
    }

    fn value<'de, A: MapAccess<'de>>(&mut self, key: Key, map: &mut A) -> Result<(), A::Error> {
        if key != Key::Store {
            return map.next_value::<IgnoredAny>().map(drop);
        }
        let errors = StoreErrors {
            lifeline: &self.lifeline.name,
        };
        map.next_value_seed(self.store.seed(Some(self.lifeline), &errors, self.problem))
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

any_seed!([T, F: FnOnce(&str) -> Result<T, SystemErrorKind>] TextSeed<'_, T, F>);

impl<'de, T, F: FnOnce(&str) -> Result<T, SystemErrorKind>> Visitor<'de> for TextSeed<'_, T, F> {
    type Value = T;

    forward_scalars!("a string");
    reject_containers!();
}

impl KeyedErrors for SystemErrorKind {
    fn not_object(found: String) -> SystemErrorKind {
        SystemErrorKind::NotObject { found }
    }

    fn unknown_key(key: String) -> SystemErrorKind {
        SystemErrorKind::UnknownKey { key }
    }

    fn duplicate_key(key: &'static str) -> SystemErrorKind {
        SystemErrorKind::DuplicateKey { key }
    }
}
