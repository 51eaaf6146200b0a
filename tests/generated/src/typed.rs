//! The typed API of the generated random monitors (`Input`, `Verdicts`, `step`,
//! `peek`, `finish`, `reset`) behind one object-safe trait, so a test can walk
//! all of them in a loop. Every random spec declares the inputs of
//! [`hindsight_tests::gen::INPUTS`], so one conversion from untyped steps serves all.

use std::any::Any;

use hindsight_runtime::{StepMonitor, Value, Verdict};

/// A generated monitor driven through its typed API from untyped steps (one
/// value per input of [`hindsight_tests::gen::INPUTS`], in order), and through
/// [`StepMonitor`] as a supertrait.
pub trait Typed: StepMonitor {
    /// `Monitor::step`; the verdicts in declaration order.
    fn step_typed(&mut self, step: &[Value]) -> Vec<Verdict>;
    /// `Monitor::peek`; the verdicts in declaration order.
    fn peek_typed(&self, step: &[Value]) -> Vec<Verdict>;
    /// `Monitor::finish`; the verdicts in declaration order.
    fn finish_typed(&self) -> Vec<Verdict>;
    /// `Monitor::reset`.
    fn reset_typed(&mut self);
    /// A copy of the monitor (its whole state).
    fn snapshot(&self) -> Box<dyn Any>;
    /// Whether the monitor equals `snapshot` (never for a snapshot of another type).
    fn same_state(&self, snapshot: &dyn Any) -> bool;
    /// Whether the monitor equals `Monitor::new()` and `Monitor::default()`.
    fn is_initial(&self) -> bool;
}

/// The Boolean input at `k` (`false` when missing).
pub(crate) fn bool_at(step: &[Value], k: usize) -> bool {
    matches!(step.get(k), Some(Value::Bool(true)))
}

/// The integer input at `k` (`0` when missing).
pub(crate) fn int_at(step: &[Value], k: usize) -> i64 {
    match step.get(k) {
        Some(Value::Int(i)) => *i,
        _ => 0,
    }
}

/// The float input at `k` (`0.0` when missing).
pub(crate) fn float_at(step: &[Value], k: usize) -> f64 {
    match step.get(k) {
        Some(Value::Float(x)) => *x,
        _ => 0.0,
    }
}

/// The enum variant index at `k` (`0` when missing).
pub(crate) fn enum_at(step: &[Value], k: usize) -> u32 {
    match step.get(k) {
        Some(Value::Enum(v)) => *v,
        _ => 0,
    }
}

/// For generated spec modules `spec_0, spec_1, ...` (each holding the monitor
/// `random` and the enum `Mode`): implements [`Typed`] for their monitors and
/// defines `monitors()`, a fresh monitor of each, in the order given.
macro_rules! typed_monitors {
    ($($spec:ident),* $(,)?) => {
        $(
            impl $crate::typed::Typed for $spec::random::Monitor {
                fn step_typed(&mut self, step: &[::hindsight_runtime::Value]) -> Vec<::hindsight_runtime::Verdict> {
                    self.step(&$spec::random::Input::from_values(step)).to_array().to_vec()
                }
                fn peek_typed(&self, step: &[::hindsight_runtime::Value]) -> Vec<::hindsight_runtime::Verdict> {
                    self.peek(&$spec::random::Input::from_values(step)).to_array().to_vec()
                }
                fn finish_typed(&self) -> Vec<::hindsight_runtime::Verdict> {
                    self.finish().to_array().to_vec()
                }
                fn reset_typed(&mut self) {
                    self.reset();
                }
                fn snapshot(&self) -> Box<dyn std::any::Any> {
                    Box::new(self.clone())
                }
                fn same_state(&self, snapshot: &dyn std::any::Any) -> bool {
                    snapshot.downcast_ref::<Self>() == Some(self)
                }
                fn is_initial(&self) -> bool {
                    *self == Self::new() && *self == Self::default()
                }
            }

            impl $spec::random::Input {
                /// The typed input of an untyped step over `INPUTS`.
                fn from_values(step: &[::hindsight_runtime::Value]) -> Self {
                    use $crate::typed::{bool_at, enum_at, float_at, int_at};
                    Self {
                        p: bool_at(step, 0),
                        q: bool_at(step, 1),
                        r: bool_at(step, 2),
                        n: int_at(step, 3),
                        m: int_at(step, 4),
                        x: float_at(step, 5),
                        mode: $spec::Mode::from_index(enum_at(step, 6)).unwrap_or_default(),
                    }
                }
            }
        )*

        /// A fresh generated monitor of every random spec, in spec order.
        pub fn monitors() -> Vec<Box<dyn $crate::typed::Typed>> {
            vec![$(Box::new($spec::random::Monitor::new())),*]
        }
    };
}

pub(crate) use typed_monitors;

/// For generated spec modules `spec_0, spec_1, ...` (each holding the monitor
/// `random`): defines `monitors()`, a fresh monitor of each as a
/// [`StepMonitor`], in the order given.
macro_rules! step_monitors {
    ($($spec:ident),* $(,)?) => {
        /// A fresh generated monitor of every random spec, in spec order.
        pub fn monitors() -> Vec<Box<dyn ::hindsight_runtime::StepMonitor>> {
            vec![$(Box::new($spec::random::Monitor::new())),*]
        }
    };
}

pub(crate) use step_monitors;
