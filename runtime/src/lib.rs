//! Runtime support for Hindsight monitors: `#![no_std]`, no allocation, no unsafe.
//!
//! Generated monitors and the compiler's interpreter share these types.
#![no_std]

use core::fmt;

pub mod pointer;
pub mod population;
pub mod protocol;
pub mod record;
pub mod rules;

/// The derives generated types carry: serde's with the `serde` feature,
/// derives that implement nothing without it, so generated code implements
/// serde's traits exactly when this crate's feature is on.
#[doc(hidden)]
pub mod derive {
    #[cfg(not(feature = "serde"))]
    pub use hindsight_serde_stub::{Deserialize, Serialize};
    #[cfg(feature = "serde")]
    pub use serde::{Deserialize, Serialize};
}

/// serde itself, for the `#[serde(crate = ...)]` of generated types.
#[cfg(feature = "serde")]
#[doc(hidden)]
pub use serde as __serde;
pub mod stamp;
pub mod system;
pub mod time;

/// A monitor's answer for one property.
///
/// Past-time properties are always `True` or `False`; future-time properties are
/// `Unknown` while the prefix seen so far does not decide them.
///
/// One byte, ordered as Kleene logic orders truth values (`False` 0,
/// `Unknown` 1, `True` 2), as machine code writes verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Verdict {
    /// The property holds (for future properties: on every continuation).
    True = 2,
    /// The property is violated (for future properties: on every continuation).
    False = 0,
    /// Not decided yet: some continuations satisfy it and some do not.
    Unknown = 1,
}

impl Verdict {
    /// The verdict as the CLI prints it: `"true"`, `"false"` or `"?"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::False => "false",
            Verdict::Unknown => "?",
        }
    }

    /// `Some(b)` for a decided verdict, `None` for `Unknown`.
    pub const fn decided(self) -> Option<bool> {
        match self {
            Verdict::True => Some(true),
            Verdict::False => Some(false),
            Verdict::Unknown => None,
        }
    }

    /// Whether the verdict is `False`.
    pub const fn is_violation(self) -> bool {
        matches!(self, Verdict::False)
    }

    /// Three-valued (Kleene) negation: `Unknown` stays `Unknown`.
    pub const fn negate(self) -> Verdict {
        match self {
            Verdict::True => Verdict::False,
            Verdict::False => Verdict::True,
            Verdict::Unknown => Verdict::Unknown,
        }
    }

    /// Three-valued (Kleene) conjunction: `False` if either is, `True` if both are.
    pub const fn and(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::False, _) | (_, Verdict::False) => Verdict::False,
            (Verdict::True, Verdict::True) => Verdict::True,
            _ => Verdict::Unknown,
        }
    }

    /// Three-valued (Kleene) disjunction: `True` if either is, `False` if both are.
    pub const fn or(self, other: Verdict) -> Verdict {
        self.negate().and(other.negate()).negate()
    }
}

impl From<bool> for Verdict {
    fn from(b: bool) -> Self {
        if b {
            Verdict::True
        } else {
            Verdict::False
        }
    }
}

impl From<Option<bool>> for Verdict {
    fn from(b: Option<bool>) -> Self {
        match b {
            Some(b) => Verdict::from(b),
            None => Verdict::Unknown,
        }
    }
}

/// A value of one of the spec language's types, as traces and generic runners carry it.
///
/// Its layout is fixed (`repr(u8)`: a tag byte, then each variant's field
/// as in a `repr(C)` struct after it) so that machine code can read values
/// where they lie: the tag at byte 0 (the discriminants below), a `bool` at
/// byte 1, an enum index at byte 4, an `i64` or `f64` at byte 8; 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
pub enum Value {
    /// `bool`
    Bool(bool) = 0,
    /// `int` (i64)
    Int(i64) = 1,
    /// `float` (f64)
    Float(f64) = 2,
    /// A variant of an enum: its index in declaration order.
    Enum(u32) = 3,
}

const _: () = assert!(core::mem::size_of::<Value>() == 16);

impl Value {
    /// The Boolean inside, or `false` for any other kind of value.
    pub const fn as_bool(self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// The type of one monitor input, as a trace carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputType {
    /// `bool`
    Bool,
    /// `int` (i64)
    Int,
    /// `float` (f64)
    Float,
    /// A spec enum: its name and its variants in declaration order.
    Enum {
        /// The enum's name.
        name: &'static str,
        /// Its variants; [`Value::Enum`] indexes this list.
        variants: &'static [&'static str],
    },
}

/// One declared input of a monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputDecl {
    /// The input's name in the spec.
    pub name: &'static str,
    /// Its type.
    pub ty: InputType,
}

/// What a generated monitor reads and reports: enough for a generic trace
/// runner to decode steps and name verdicts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schema {
    /// The monitor block's name.
    pub monitor: &'static str,
    /// Its inputs in declaration order.
    pub inputs: &'static [InputDecl],
    /// Its properties in declaration order.
    pub properties: &'static [PropertyDecl],
    /// How its steps are read from JSON lines.
    pub reading: record::Reading<'static>,
}

/// One property of a monitor, as a runner reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyDecl {
    /// The property's name in the spec.
    pub name: &'static str,
    /// Whether it was declared `with reset`: it then restarts after each decided
    /// verdict and counts satisfactions and violations ([`ResetCounts`]).
    pub reset: bool,
    /// Whether it is a past-time property: its end verdict is then whether it
    /// held at every step (the finite-trace verdict of `G φ`), not its value
    /// at the last step.
    pub past: bool,
}

/// How often a `with reset` property was decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ResetCounts {
    /// Decided `True` verdicts.
    pub satisfactions: u64,
    /// Decided `False` verdicts.
    pub violations: u64,
}

impl ResetCounts {
    /// Counts one more decided verdict (`Unknown` counts nothing).
    pub fn record(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::True => self.satisfactions = self.satisfactions.saturating_add(1),
            Verdict::False => self.violations = self.violations.saturating_add(1),
            Verdict::Unknown => {}
        }
    }
}

/// A monitor driven through untyped values, as generic runners (trace readers,
/// the CLI) drive both generated monitors and the interpreter.
pub trait StepMonitor {
    /// Consumes one step given as one value per input in declaration order and
    /// writes one verdict per property into `verdicts`. A missing or mistyped
    /// value reads as its type's default (`false`, `0`, `0.0`, first variant);
    /// surplus values and surplus verdict slots are ignored.
    fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]);

    /// Consumes `steps` steps at once, exactly as as many calls of
    /// [`step_values`](Self::step_values): `inputs` holds their values and
    /// `verdicts` receives their verdicts, each as `steps` rows of equal
    /// length one after the other. Monitors that run faster over many steps
    /// (machine code looping over them) override it.
    fn step_rows(&mut self, steps: usize, inputs: &[Value], verdicts: &mut [Verdict]) {
        step_each_row(self, steps, inputs, verdicts);
    }

    /// Writes the finite-trace verdicts (the trace ended after the last step).
    fn finish_values(&self, verdicts: &mut [Verdict]);

    /// Writes, per property, the decided verdicts counted so far by a `with reset`
    /// property, including the finite-trace verdict of its unfinished run (all
    /// zero for other properties).
    fn finish_counts(&self, counts: &mut [ResetCounts]);

    /// Back to the initial state.
    fn reset(&mut self);
}

/// [`StepMonitor::step_rows`] as that many calls of
/// [`step_values`](StepMonitor::step_values), one per row (its default, and
/// the way of monitors whose fast path does not fit the rows given).
pub fn step_each_row<M: StepMonitor + ?Sized>(
    monitor: &mut M,
    steps: usize,
    inputs: &[Value],
    verdicts: &mut [Verdict],
) {
    for_each_row(steps, inputs, verdicts, |row, out| {
        monitor.step_values(row, out)
    });
}

/// Calls `step` on each of `steps` rows: its inputs (a row of `inputs`)
/// and where its verdicts go (a row of `verdicts`), the rows of each of
/// equal length one after the other, as [`StepMonitor::step_rows`] takes
/// them.
pub fn for_each_row(
    steps: usize,
    inputs: &[Value],
    verdicts: &mut [Verdict],
    mut step: impl FnMut(&[Value], &mut [Verdict]),
) {
    let width = inputs.len().checked_div(steps).unwrap_or(0);
    let properties = verdicts.len().checked_div(steps).unwrap_or(0);
    for k in 0..steps {
        let row = inputs.get(k * width..(k + 1) * width).unwrap_or_default();
        if let Some(out) = verdicts.get_mut(k * properties..(k + 1) * properties) {
            step(row, out);
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Includes the monitors that `hindsight_build::compile` generated from
/// `specs/NAME.hind` into `$OUT_DIR/NAME.rs`:
/// `hindsight_runtime::include_monitors!("NAME");` (usually inside a module).
///
/// It lives here, not in the build crate, because a crate depends on the
/// runtime at run time while `hindsight-build` is only a build-dependency.
#[macro_export]
macro_rules! include_monitors {
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}

/// With the `serde` feature, a verdict serializes as the CLI prints it:
/// `"true"`, `"false"` or `"?"`.
#[cfg(feature = "serde")]
mod serde_impls {
    use super::Verdict;
    use core::fmt;
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Verdict {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.serialize_str(self.as_str())
        }
    }

    impl<'de> Deserialize<'de> for Verdict {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct VerdictVisitor;
            impl Visitor<'_> for VerdictVisitor {
                type Value = Verdict;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("\"true\", \"false\" or \"?\"")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Verdict, E> {
                    match v {
                        "true" => Ok(Verdict::True),
                        "false" => Ok(Verdict::False),
                        "?" => Ok(Verdict::Unknown),
                        other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
                    }
                }
            }
            deserializer.deserialize_str(VerdictVisitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Verdict;

    #[test]
    fn kleene_connectives_by_their_truth_tables() {
        use Verdict::{False as F, True as T, Unknown as U};
        let all = [T, F, U];
        // Written out by hand: rows a, columns b in the order T, F, U.
        let and = [[T, F, U], [F, F, F], [U, F, U]];
        let or = [[T, T, T], [T, F, U], [T, U, U]];
        for (i, a) in all.into_iter().enumerate() {
            for (j, b) in all.into_iter().enumerate() {
                assert_eq!(a.and(b), and[i][j], "{a:?} and {b:?}");
                assert_eq!(a.or(b), or[i][j], "{a:?} or {b:?}");
            }
        }
        assert_eq!([T.negate(), F.negate(), U.negate()], [F, T, U]);
    }

    #[test]
    fn strings_and_conversions() {
        assert_eq!(Verdict::True.as_str(), "true");
        assert_eq!(Verdict::False.as_str(), "false");
        assert_eq!(Verdict::Unknown.as_str(), "?");
        assert_eq!(Verdict::from(true), Verdict::True);
        assert_eq!(Verdict::from(None), Verdict::Unknown);
        assert_eq!(Verdict::from(Some(false)).decided(), Some(false));
        assert!(Verdict::False.is_violation() && !Verdict::Unknown.is_violation());
    }

    #[test]
    fn reset_counts_record_decided_verdicts_only() {
        let mut c = super::ResetCounts::default();
        for v in [
            Verdict::True,
            Verdict::Unknown,
            Verdict::False,
            Verdict::False,
        ] {
            c.record(v);
        }
        assert_eq!((c.satisfactions, c.violations), (1, 2));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn verdicts_serialize_as_the_cli_prints_them() {
        let all = [Verdict::True, Verdict::False, Verdict::Unknown];
        let json = serde_json::to_string(&all).unwrap();
        assert_eq!(json, r#"["true","false","?"]"#);
        let back: [Verdict; 3] = serde_json::from_str(&json).unwrap();
        assert_eq!(back, all);
        assert!(serde_json::from_str::<Verdict>(r#""maybe""#).is_err());
        let counts = super::ResetCounts {
            satisfactions: 2,
            violations: 3,
        };
        let json = serde_json::to_string(&counts).unwrap();
        assert_eq!(json, r#"{"satisfactions":2,"violations":3}"#);
    }
}
