//! serde visitors that check a line against the schema while serde_json
//! parses it, writing each value straight into its slot. A rejected value is
//! recorded as a [`TraceErrorKind`] beside the (message-less) serde error.

use super::error::TraceErrorKind;
use super::schema::{InputSchema, InputType, TraceSchema};
use hindsight_runtime::Value;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Which of the two line forms was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// An object giving every input.
    Object,
    /// An array of the bool inputs that are true.
    Array,
}

/// One JSON value as a visitor meets it, nested values only by kind.
pub(crate) enum Scalar<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(&'a str),
    Array,
    Object,
}

impl Scalar<'_> {
    /// The value as error messages show it, e.g. `string "x"`, `number 2.5`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Scalar::Null => "null".to_string(),
            Scalar::Bool(b) => format!("bool {b}"),
            Scalar::Int(i) => format!("number {i}"),
            Scalar::UInt(u) => format!("number {u}"),
            Scalar::Float(x) => format!("number {x:?}"),
            Scalar::Str(s) => format!("string \"{}\"", crate::json::Excerpt(s)),
            Scalar::Array => "an array".to_string(),
            Scalar::Object => "an object".to_string(),
        }
    }
}

/// Records `kind` as the reason for failing and returns the error that stops serde_json.
pub(crate) fn fail<E: de::Error>(problem: &mut Option<TraceErrorKind>, kind: TraceErrorKind) -> E {
    *problem = Some(kind);
    E::custom("invalid trace line")
}

/// Forwards the scalar `visit_*` methods of a visitor to its `scalar` method.
macro_rules! forward_scalars {
    () => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.scalar(Scalar::Null)
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            self.scalar(Scalar::Bool(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            self.scalar(Scalar::Int(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            self.scalar(Scalar::UInt(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            self.scalar(Scalar::Float(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            self.scalar(Scalar::Str(v))
        }
    };
}
pub(crate) use forward_scalars;

/// Forwards `visit_seq`/`visit_map` to `scalar` (for places where nesting is an error).
macro_rules! reject_containers {
    () => {
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            self.scalar(Scalar::Array)
        }
        fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            self.scalar(Scalar::Object)
        }
    };
}
pub(crate) use reject_containers;

/// Decodes a whole line into `out`, marking given inputs in `seen`.
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a TraceSchema,
    pub(super) seen: &'a mut [bool],
    pub(super) key_order: &'a mut [usize],
    pub(super) out: &'a mut [Value],
    pub(super) problem: &'a mut Option<TraceErrorKind>,
}

impl LineSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<Form, E> {
        Err(fail(
            self.problem,
            TraceErrorKind::NotObjectOrArray {
                found: found.describe(),
            },
        ))
    }
}

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = Form;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Form, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = Form;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object or array")
    }

    forward_scalars!();

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Form, A::Error> {
        let LineSeed {
            schema,
            seen,
            key_order,
            out,
            problem,
        } = self;
        let mut hints = key_order.iter_mut();
        while let Some(index) = map.next_key_seed(KeySeed {
            schema,
            hint: hints.next(),
            problem: &mut *problem,
        })? {
            let (Some(given), Some(slot), Some(input)) = (
                seen.get_mut(index),
                out.get_mut(index),
                schema.inputs.get(index),
            ) else {
                return Err(de::Error::custom("input index out of range"));
            };
            if *given {
                return Err(fail(
                    problem,
                    TraceErrorKind::DuplicateInput {
                        input: input.name.clone(),
                    },
                ));
            }
            *given = true;
            map.next_value_seed(ValueSeed {
                input,
                slot,
                problem: &mut *problem,
            })?;
        }
        Ok(Form::Object)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Form, A::Error> {
        let LineSeed {
            schema,
            seen,
            key_order,
            out,
            problem,
        } = self;
        let mut hints = key_order.iter_mut();
        if let Some(input) = schema.first_non_bool.and_then(|i| schema.inputs.get(i)) {
            return Err(fail(
                problem,
                TraceErrorKind::ArrayNeedsBoolInputs {
                    input: input.name.clone(),
                    ty: input.ty.name().to_string(),
                },
            ));
        }
        while let Some(index) = seq.next_element_seed(NameSeed {
            schema,
            hint: hints.next(),
            problem: &mut *problem,
        })? {
            let (Some(given), Some(slot)) = (seen.get_mut(index), out.get_mut(index)) else {
                return Err(de::Error::custom("input index out of range"));
            };
            if *given {
                let input = schema.inputs.get(index).map(|i| i.name.clone());
                return Err(fail(
                    problem,
                    TraceErrorKind::ArrayDuplicate {
                        input: input.unwrap_or_default(),
                    },
                ));
            }
            *given = true;
            *slot = Value::Bool(true);
        }
        Ok(Form::Array)
    }
}

/// Decodes an object key into the index of the input it names.
struct KeySeed<'a> {
    schema: &'a TraceSchema,
    hint: Option<&'a mut usize>,
    problem: &'a mut Option<TraceErrorKind>,
}

impl KeySeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<usize, E> {
        let name = match found {
            Scalar::Str(name) => name,
            other => return Err(fail(self.problem, TraceErrorKind::Json(other.describe()))),
        };
        match self.schema.lookup_hinted(name, self.hint) {
            Some(index) => Ok(index),
            None => Err(fail(
                self.problem,
                TraceErrorKind::UnknownInput {
                    name: name.to_string(),
                    known: self.schema.names(false),
                },
            )),
        }
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = usize;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an input name")
    }

    forward_scalars!();
    reject_containers!();
}

/// Decodes an array element into the index of the bool input it names.
struct NameSeed<'a> {
    schema: &'a TraceSchema,
    hint: Option<&'a mut usize>,
    problem: &'a mut Option<TraceErrorKind>,
}

impl NameSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<usize, E> {
        let name = match found {
            Scalar::Str(name) => name,
            other => {
                return Err(fail(
                    self.problem,
                    TraceErrorKind::ArrayElementNotString {
                        found: other.describe(),
                    },
                ))
            }
        };
        match self.schema.lookup_hinted(name, self.hint) {
            Some(index) => Ok(index),
            None => Err(fail(
                self.problem,
                TraceErrorKind::ArrayUnknownInput {
                    name: name.to_string(),
                    known: self.schema.names(true),
                },
            )),
        }
    }
}

impl<'de> DeserializeSeed<'de> for NameSeed<'_> {
    type Value = usize;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NameSeed<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the name of a bool input")
    }

    forward_scalars!();
    reject_containers!();
}

/// Decodes one input's value into its slot, checking it against the input's type.
pub(crate) struct ValueSeed<'a> {
    pub(crate) input: &'a InputSchema,
    pub(crate) slot: &'a mut Value,
    pub(crate) problem: &'a mut Option<TraceErrorKind>,
}

impl ValueSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        let value = match (&self.input.ty, &found) {
            (InputType::Bool, Scalar::Bool(b)) => Some(Value::Bool(*b)),
            (InputType::Int, Scalar::Int(i)) => Some(Value::Int(*i)),
            (InputType::Int, Scalar::UInt(u)) => i64::try_from(*u).ok().map(Value::Int),
            // serde_json reads `-0` as the float -0.0 (it cannot be told from
            // `-0.0` here): negative zero is the int 0.
            (InputType::Int, Scalar::Float(x)) if *x == 0.0 && x.is_sign_negative() => {
                Some(Value::Int(0))
            }
            (InputType::Float, Scalar::Int(i)) => Some(Value::Float(*i as f64)),
            (InputType::Float, Scalar::UInt(u)) => Some(Value::Float(*u as f64)),
            (InputType::Float, Scalar::Float(x)) => Some(Value::Float(*x)),
            (InputType::Enum { name, variants }, Scalar::Str(s)) => {
                let bare = match s.split_once("::") {
                    Some((prefix, bare)) if prefix == name => bare,
                    Some(_) => "",
                    None => s,
                };
                match variants.iter().position(|v| v == bare) {
                    Some(index) => u32::try_from(index).ok().map(Value::Enum),
                    None => {
                        return Err(fail(
                            self.problem,
                            TraceErrorKind::UnknownVariant {
                                input: self.input.name.clone(),
                                enum_name: name.clone(),
                                found: s.to_string(),
                                variants: variants.join(", "),
                            },
                        ))
                    }
                }
            }
            _ => None,
        };
        match value {
            Some(value) => {
                *self.slot = value;
                Ok(())
            }
            None => {
                let mut described = found.describe();
                if let (InputType::Int, Scalar::UInt(_)) = (&self.input.ty, &found) {
                    described.push_str(", outside the int range");
                }
                Err(fail(
                    self.problem,
                    TraceErrorKind::WrongType {
                        input: self.input.name.clone(),
                        expected: self.input.ty.expectation(),
                        found: described,
                    },
                ))
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.input.ty.name())
    }

    forward_scalars!();
    reject_containers!();
}
