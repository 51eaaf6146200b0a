//! serde visitors that check a line against its schema while serde_json
//! parses it, writing each value straight into its slot. A rejected value is
//! recorded as an error kind of the trace form beside the (message-less)
//! serde error.
//!
//! The scaffolding every trace form shares: [`Scalar`], [`fail`], the fixed
//! keys of a line ([`LineKey`]) and objects of named, typed fields
//! ([`FieldsSeed`], phrased per form by [`FieldErrors`]); then the monitor
//! line's own two forms.

use super::error::TraceErrorKind;
use super::schema::{InputSchema, InputType, TraceSchema};
use hindsight_runtime::Value;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

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
pub(crate) fn fail<E: de::Error, K>(problem: &mut Option<K>, kind: K) -> E {
    *problem = Some(kind);
    E::custom("invalid trace line")
}

/// Forwards the scalar `visit_*` methods of a visitor to its `scalar` method;
/// with a string, also says what the visitor expects.
macro_rules! forward_scalars {
    ($expecting:literal) => {
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str($expecting)
        }
        forward_scalars!();
    };
    () => {
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            self.scalar(Scalar::Null)
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
            self.scalar(Scalar::Bool(v))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            self.scalar(Scalar::Int(v))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            self.scalar(Scalar::UInt(v))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
            self.scalar(Scalar::Float(v))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            self.scalar(Scalar::Str(v))
        }
    };
}
pub(crate) use forward_scalars;

/// Makes a visitor its own seed: it decodes whatever JSON value comes next
/// (`deserialize_any`), as every seed of the trace readers does. Bounds of
/// the impl's type parameters go in brackets: `any_seed!([C: FieldErrors] FieldsSeed<'_, C>)`.
macro_rules! any_seed {
    ([$($bound:tt)*] $ty:ty) => {
        impl<'de, $($bound)*> serde::de::DeserializeSeed<'de> for $ty {
            type Value = <Self as serde::de::Visitor<'de>>::Value;

            fn deserialize<D: serde::de::Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<Self::Value, D::Error> {
                d.deserialize_any(self)
            }
        }
    };
    ($ty:ty) => {
        any_seed!([] $ty);
    };
}
pub(crate) use any_seed;

/// Forwards `visit_seq`/`visit_map` to `scalar` (for places where nesting is an error).
macro_rules! reject_containers {
    () => {
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            self.scalar(Scalar::Array)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            self.scalar(Scalar::Object)
        }
    };
}
pub(crate) use reject_containers;

/// An object key: borrowed from the line when it has no escapes.
pub(crate) enum KeyText<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl KeyText<'_> {
    /// The key.
    pub(crate) fn as_str(&self) -> &str {
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

/// The fixed keys of a line form (`agents` and `globals`; `lifeline`, `kind`, ...).
pub(crate) trait LineKey: Copy + PartialEq + 'static {
    /// Every key.
    const ALL: &'static [Self];

    /// The key as lines spell it.
    fn name(self) -> &'static str;
}

/// The next key of `map` as the [`LineKey`] it names, with its position in
/// [`LineKey::ALL`] (`None` after the last); a key naming none fails with the
/// error `unknown` makes of it.
fn next_line_key<'de, L: LineKey, A: MapAccess<'de>, K>(
    map: &mut A,
    problem: &mut Option<K>,
    unknown: impl FnOnce(String) -> K,
) -> Result<Option<(usize, L)>, A::Error> {
    let Some(key) = map.next_key::<KeyText<'de>>()? else {
        return Ok(None);
    };
    match L::ALL.iter().position(|k| k.name() == key.as_str()) {
        Some(at) => Ok(L::ALL.get(at).map(|&known| (at, known))),
        None => Err(fail(problem, unknown(key.as_str().to_string()))),
    }
}

/// The fixed keys a line gave, as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeysGiven(u64);

impl KeysGiven {
    /// Whether the line gave `key`.
    pub(crate) fn has<K: LineKey>(self, key: K) -> bool {
        K::ALL
            .iter()
            .position(|&k| k == key)
            .is_some_and(|at| self.0 & key_bit(at) != 0)
    }
}

/// The bit of the key at position `at` of [`LineKey::ALL`] in a [`KeysGiven`].
fn key_bit(at: usize) -> u64 {
    u32::try_from(at)
        .ok()
        .and_then(|at| 1u64.checked_shl(at))
        .unwrap_or(0)
}

/// A line form that is an object of fixed keys (population and system
/// lines): [`KeyedSeed`] reads it, refusing any other value, an unknown key
/// and a repeated one, and hands each key's value to [`Self::value`].
pub(crate) trait KeyedLine {
    /// The form's keys.
    type Key: LineKey;
    /// The form's error kind.
    type Kind: KeyedErrors;

    /// Where the reason for failing is recorded.
    fn problem(&mut self) -> &mut Option<Self::Kind>;

    /// Decodes the value of `key` (the first time the line gives it).
    fn value<'de, A: MapAccess<'de>>(
        &mut self,
        key: Self::Key,
        map: &mut A,
    ) -> Result<(), A::Error>;
}

/// How a form of fixed keys says that a line is no object of them.
pub(crate) trait KeyedErrors {
    /// The line is valid JSON but not an object.
    fn not_object(found: String) -> Self;

    /// A key naming none of the form's keys.
    fn unknown_key(key: String) -> Self;

    /// A key given twice.
    fn duplicate_key(key: &'static str) -> Self;
}

/// Reads a [`KeyedLine`]; yields the keys it gave.
pub(crate) struct KeyedSeed<L>(pub(crate) L);

impl<L: KeyedLine> KeyedSeed<L> {
    fn scalar<E: de::Error>(mut self, found: Scalar<'_>) -> Result<KeysGiven, E> {
        let kind = L::Kind::not_object(found.describe());
        Err(fail(self.0.problem(), kind))
    }
}

any_seed!([L: KeyedLine] KeyedSeed<L>);

impl<'de, L: KeyedLine> Visitor<'de> for KeyedSeed<L> {
    type Value = KeysGiven;

    forward_scalars!("a JSON object");

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<KeysGiven, A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeysGiven, A::Error> {
        let KeyedSeed(mut line) = self;
        let mut given = KeysGiven::default();
        while let Some((at, key)) =
            next_line_key::<L::Key, _, _>(&mut map, line.problem(), L::Kind::unknown_key)?
        {
            let bit = key_bit(at);
            if given.0 & bit != 0 {
                return Err(fail(line.problem(), L::Kind::duplicate_key(key.name())));
            }
            given.0 |= bit;
            line.value(key, &mut map)?;
        }
        Ok(given)
    }
}

/// How one trace form says what is wrong with an object of named, typed
/// fields: a monitor line's inputs, an agent's attributes, the globals, a
/// `store`'s variables.
pub(crate) trait FieldErrors {
    /// The trace form's error kind.
    type Kind;

    /// The value where the object belongs is not an object.
    fn not_object(&self, found: String) -> Self::Kind;

    /// A key naming no field; `known` lists the fields.
    fn unknown(&self, name: &str, known: String) -> Self::Kind;

    /// A field given twice.
    fn duplicate(&self, field: &str) -> Self::Kind;

    /// A field the object lacks, if that is an error (`None`: fields may be
    /// left out).
    fn missing(&self, field: &str) -> Option<Self::Kind>;

    /// A field's value that does not fit its type.
    fn bad_value(&self, field: &str, expected: String, found: String) -> Self::Kind;

    /// Whether `null` stands for a field left out (else it is a bad value).
    fn null_is_absent(&self) -> bool {
        false
    }
}

/// `names` joined by `, ` for an error message, or `none`.
pub(crate) fn comma_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// The names of `fields`, comma-separated (`none` if there are none).
fn field_names(fields: &[InputSchema]) -> String {
    comma_list(fields.iter().map(|f| f.name.as_str()))
}

/// Whether `a` and `b` are the same bytes. Keys are short: compared byte by
/// byte, without a library call (a memcmp call per key was a tenth of
/// reading a plain line).
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(true, |all, (x, y)| all & (x == y))
}

/// The index of the field called `name` among `fields`, trying `hint` first.
pub(super) fn lookup(fields: &[InputSchema], name: &[u8], hint: usize) -> Option<usize> {
    let same = |field: &InputSchema| same_bytes(field.name.as_bytes(), name);
    if fields.get(hint).is_some_and(same) {
        return Some(hint);
    }
    fields.iter().position(same)
}

/// Decodes an object of `fields` into `out` (a slot per field), marking the
/// fields given in `seen`; with no fields (not known yet), only checks that
/// the value is an object.
pub(crate) struct FieldsSeed<'a, C: FieldErrors> {
    /// The fields, or `None` to skip the object's entries.
    pub(crate) fields: Option<&'a [InputSchema]>,
    /// How errors are said.
    pub(crate) errors: &'a C,
    /// One slot per field.
    pub(crate) out: &'a mut [Value],
    /// Per field: whether the object gave it.
    pub(crate) seen: &'a mut Vec<bool>,
    /// The field named by each key position of the previous object: the first
    /// guess for the same position of this one.
    pub(crate) hints: &'a mut Vec<usize>,
    /// Where the reason for failing is recorded.
    pub(crate) problem: &'a mut Option<C::Kind>,
}

impl<C: FieldErrors> FieldsSeed<'_, C> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        let kind = self.errors.not_object(found.describe());
        Err(fail(self.problem, kind))
    }
}

any_seed!([C: FieldErrors] FieldsSeed<'_, C>);

impl<'de, C: FieldErrors> Visitor<'de> for FieldsSeed<'_, C> {
    type Value = ();

    forward_scalars!("an object");

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        self.scalar(Scalar::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let FieldsSeed {
            fields,
            errors,
            out,
            seen,
            hints,
            problem,
        } = self;
        let Some(fields) = fields else {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        seen.clear();
        seen.resize(fields.len(), false);
        hints.resize(fields.len(), 0);
        let mut position = 0;
        while let Some(index) = map.next_key_seed(FieldKey {
            fields,
            hint: hints.get(position).copied().unwrap_or(position),
            errors,
            problem: &mut *problem,
        })? {
            if let Some(hint) = hints.get_mut(position) {
                *hint = index;
            }
            position += 1;
            let (Some(given), Some(slot), Some(field)) =
                (seen.get_mut(index), out.get_mut(index), fields.get(index))
            else {
                return Err(de::Error::custom("field index out of range"));
            };
            let already = *given;
            // A `null` the form takes as absent gives no value: it neither
            // counts as given nor repeats one.
            let gave = map.next_value_seed(ValueSeed {
                field,
                slot,
                errors,
                problem: &mut *problem,
            })?;
            if gave && already {
                return Err(fail(problem, errors.duplicate(&field.name)));
            }
            *given |= gave;
        }
        let missing = seen.iter().position(|&given| !given);
        if let Some(kind) = missing
            .and_then(|at| fields.get(at))
            .and_then(|field| errors.missing(&field.name))
        {
            return Err(fail(problem, kind));
        }
        Ok(())
    }
}

/// Decodes an object key into the index of the field it names, trying the
/// field at `hint` first.
struct FieldKey<'a, C: FieldErrors> {
    fields: &'a [InputSchema],
    hint: usize,
    errors: &'a C,
    problem: &'a mut Option<C::Kind>,
}

impl<C: FieldErrors> FieldKey<'_, C> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<usize, E> {
        let Scalar::Str(name) = found else {
            return Err(E::custom(found.describe()));
        };
        match lookup(self.fields, name.as_bytes(), self.hint) {
            Some(index) => Ok(index),
            None => {
                let kind = self.errors.unknown(name, field_names(self.fields));
                Err(fail(self.problem, kind))
            }
        }
    }
}

any_seed!([C: FieldErrors] FieldKey<'_, C>);

impl<'de, C: FieldErrors> Visitor<'de> for FieldKey<'_, C> {
    type Value = usize;

    forward_scalars!("a field name");
    reject_containers!();
}

/// Decodes one field's value into its slot, checking it against the field's
/// type; yields whether it gave a value (`false` for a `null` the form takes
/// as absent).
struct ValueSeed<'a, C: FieldErrors> {
    field: &'a InputSchema,
    slot: &'a mut Value,
    errors: &'a C,
    problem: &'a mut Option<C::Kind>,
}

impl<C: FieldErrors> ValueSeed<'_, C> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<bool, E> {
        if let Some(value) = value_of(&self.field.ty, &found) {
            *self.slot = value;
            return Ok(true);
        }
        if matches!(found, Scalar::Null) && self.errors.null_is_absent() {
            return Ok(false);
        }
        let (expected, found) = (
            self.field.ty.expectation(),
            found_instead(&self.field.ty, &found),
        );
        let kind = self.errors.bad_value(&self.field.name, expected, found);
        Err(fail(self.problem, kind))
    }
}

any_seed!([C: FieldErrors] ValueSeed<'_, C>);

impl<'de, C: FieldErrors> Visitor<'de> for ValueSeed<'_, C> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.field.ty.name())
    }

    forward_scalars!();
    reject_containers!();
}

/// The index of the variant `given` names among `variants` of the enum
/// `name`: bare (`passed`) or qualified (`Status::passed`).
pub fn variant_index(name: &str, variants: &[String], given: &str) -> Option<u32> {
    let bare = match given.split_once("::") {
        Some((prefix, bare)) if prefix == name => bare,
        Some(_) => return None,
        None => given,
    };
    let index = variants.iter().position(|v| v == bare)?;
    u32::try_from(index).ok()
}

/// The value `found` gives a field of type `ty`, if it fits the type.
/// (Always inlined: returned through memory, the value costs a
/// store-forwarding stall per field.)
#[inline(always)]
pub(super) fn value_of(ty: &InputType, found: &Scalar<'_>) -> Option<Value> {
    match (ty, found) {
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
        (InputType::Time, found) => time_of(found).map(Value::Int),
        (InputType::Enum { name, variants }, Scalar::Str(s)) => {
            variant_index(name, variants, s).map(Value::Enum)
        }
        _ => None,
    }
}

/// The most seconds from 1970 a numeric time may be (about 31,700 years),
/// so that every one is exact to the microsecond in an `i64`.
const MAX_SECONDS: f64 = 1e12;

/// The microseconds since 1970 of a time value: a number of seconds (the
/// fraction rounded to the microsecond) or an RFC 3339 string (a finer
/// fraction rounded likewise, half away from zero).
pub(crate) fn time_of(found: &Scalar<'_>) -> Option<i64> {
    let seconds = |x: f64| (x.abs() <= MAX_SECONDS).then(|| (x * 1e6).round() as i64);
    match found {
        Scalar::Int(i) => seconds(*i as f64).and_then(|_| i.checked_mul(1_000_000)),
        Scalar::UInt(u) => i64::try_from(*u).ok().and_then(|i| {
            seconds(i as f64)?;
            i.checked_mul(1_000_000)
        }),
        Scalar::Float(x) => seconds(*x),
        // Rounded to the microsecond, as numbers are, so that a string and a
        // number for the same instant read the same.
        Scalar::Str(s) => s.parse::<jiff::Timestamp>().ok().and_then(|t| {
            let ns = t.as_nanosecond();
            let (q, r) = (ns / 1000, ns % 1000);
            let micros = match r {
                500.. => q + 1,
                ..=-500 => q - 1,
                _ => q,
            };
            i64::try_from(micros).ok()
        }),
        _ => None,
    }
}

/// `micros` microseconds as a decimal number of seconds: `12`, `-0.5`.
pub(crate) fn seconds_text(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let a = micros.unsigned_abs();
    let fraction = format!("{:06}", a % 1_000_000);
    let fraction = fraction.trim_end_matches('0');
    let point = if fraction.is_empty() { "" } else { "." };
    format!("{sign}{}{point}{fraction}", a / 1_000_000)
}

/// A time in microseconds, `(micros, written as a string)`, as a message
/// comparing it with another (`other_string`: whether the other was written
/// as a string) shows it: as a number of seconds when both were numbers, as
/// RFC 3339 (UTC) otherwise, a number's seconds following in parentheses.
pub(crate) fn time_text((micros, as_string): (i64, bool), other_string: bool) -> String {
    let seconds = format!("{} s", seconds_text(micros));
    if !as_string && !other_string {
        return seconds;
    }
    match jiff::Timestamp::from_microsecond(micros) {
        Ok(t) if as_string => t.to_string(),
        Ok(t) => format!("{t} ({seconds})"),
        Err(_) => seconds,
    }
}

/// What was found instead of a value of type `ty`, as an error message says
/// it: `string "x"`, `number 2.5`; `"x"` for a string naming no variant of
/// the enum.
pub(super) fn found_instead(ty: &InputType, found: &Scalar<'_>) -> String {
    match (ty, found) {
        (InputType::Enum { .. }, Scalar::Str(s)) => format!("\"{}\"", crate::json::Excerpt(s)),
        (InputType::Time, Scalar::Str(s)) => format!(
            "\"{}\", which is no RFC 3339 time (a date, `T`, a time and `Z` or an offset)",
            crate::json::Excerpt(s)
        ),
        (InputType::Time, Scalar::Int(_) | Scalar::UInt(_) | Scalar::Float(_)) => format!(
            "{}, beyond {MAX_SECONDS:e} seconds from 1970",
            found.describe()
        ),
        (InputType::Int, Scalar::UInt(_)) => format!("{}, outside the int range", found.describe()),
        _ => found.describe(),
    }
}

/// How a monitor line says what is wrong with its inputs.
struct MonitorInputs;

impl FieldErrors for MonitorInputs {
    type Kind = TraceErrorKind;

    fn not_object(&self, found: String) -> TraceErrorKind {
        TraceErrorKind::NotObjectOrArray { found }
    }

    fn unknown(&self, name: &str, known: String) -> TraceErrorKind {
        let name = name.to_string();
        TraceErrorKind::UnknownInput { name, known }
    }

    fn duplicate(&self, field: &str) -> TraceErrorKind {
        let input = field.to_string();
        TraceErrorKind::DuplicateInput { input }
    }

    /// Absent inputs are the decoder's to judge, after the line: an input
    /// may have a `default` or `hold`.
    fn missing(&self, _: &str) -> Option<TraceErrorKind> {
        None
    }

    /// `null` is absent, as in log records: the input's `default` or `hold`
    /// applies, and without one the line lacks the input.
    fn null_is_absent(&self) -> bool {
        true
    }

    fn bad_value(&self, field: &str, expected: String, found: String) -> TraceErrorKind {
        let input = field.to_string();
        TraceErrorKind::WrongType {
            input,
            expected,
            found,
        }
    }
}

/// Decodes a whole monitor line into `out`: an object giving every input, or
/// an array of the bool inputs that are true.
pub(super) struct LineSeed<'a> {
    pub(super) schema: &'a TraceSchema,
    pub(super) seen: &'a mut Vec<bool>,
    pub(super) hints: &'a mut Vec<usize>,
    pub(super) out: &'a mut [Value],
    pub(super) problem: &'a mut Option<TraceErrorKind>,
}

impl LineSeed<'_> {
    fn scalar<E: de::Error>(self, found: Scalar<'_>) -> Result<(), E> {
        Err(fail(
            self.problem,
            MonitorInputs.not_object(found.describe()),
        ))
    }
}

any_seed!(LineSeed<'_>);

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = ();

    forward_scalars!("a JSON object or array");

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        FieldsSeed {
            fields: Some(&self.schema.inputs),
            errors: &MonitorInputs,
            out: self.out,
            seen: self.seen,
            hints: self.hints,
            problem: self.problem,
        }
        .visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let LineSeed {
            schema,
            seen,
            hints,
            out,
            problem,
        } = self;
        if let Some(input) = schema.first_non_bool.and_then(|i| schema.inputs.get(i)) {
            return Err(fail(
                problem,
                TraceErrorKind::ArrayNeedsBoolInputs {
                    input: input.name.clone(),
                    ty: input.ty.name().to_string(),
                },
            ));
        }
        seen.clear();
        seen.resize(schema.inputs.len(), false);
        let mut position = 0;
        while let Some(name) = seq.next_element_seed(NameSeed {
            problem: &mut *problem,
        })? {
            let name = name.as_str();
            let hint = hints.get(position).copied().unwrap_or(position);
            let Some(index) = lookup(&schema.inputs, name.as_bytes(), hint) else {
                return Err(fail(
                    problem,
                    TraceErrorKind::ArrayUnknownInput {
                        name: name.to_string(),
                        known: schema.bool_names(),
                    },
                ));
            };
            if let Some(hint) = hints.get_mut(position) {
                *hint = index;
            }
            position += 1;
            let (Some(given), Some(slot)) = (seen.get_mut(index), out.get_mut(index)) else {
                return Err(de::Error::custom("input index out of range"));
            };
            if *given {
                let input = name.to_string();
                return Err(fail(problem, TraceErrorKind::ArrayDuplicate { input }));
            }
            *given = true;
            *slot = Value::Bool(true);
        }
        // The array form gives every input: those it does not list are false.
        seen.fill(true);
        Ok(())
    }
}

/// Decodes an array element of the array form: a string naming an input.
struct NameSeed<'a> {
    problem: &'a mut Option<TraceErrorKind>,
}

any_seed!(NameSeed<'_>);

impl NameSeed<'_> {
    fn scalar<'de, E: de::Error>(self, found: Scalar<'_>) -> Result<KeyText<'de>, E> {
        let found = found.describe();
        Err(fail(
            self.problem,
            TraceErrorKind::ArrayElementNotString { found },
        ))
    }
}

impl<'de> Visitor<'de> for NameSeed<'_> {
    type Value = KeyText<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the name of a bool input")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Owned(v.to_string()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<KeyText<'de>, E> {
        self.scalar(Scalar::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<KeyText<'de>, E> {
        self.scalar(Scalar::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<KeyText<'de>, E> {
        self.scalar(Scalar::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<KeyText<'de>, E> {
        self.scalar(Scalar::UInt(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<KeyText<'de>, E> {
        self.scalar(Scalar::Float(v))
    }

    reject_containers!();
}
