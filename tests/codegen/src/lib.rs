//! The generated code of every example spec and of the hand-written specs in
//! `specs/`, compiled under `deny(warnings)` (and, in CI, `clippy -D warnings`),
//! with a list of every monitor for the tests to drive.
#![deny(warnings)]

use hindsight_runtime::{Schema, StepMonitor};

/// One generated monitor.
pub struct Case {
    /// The spec file's path.
    pub spec: &'static str,
    /// The spec's text.
    pub source: &'static str,
    /// The generated schema.
    pub schema: &'static Schema,
    /// A generated monitor in its initial state.
    pub new: fn() -> Box<dyn StepMonitor>,
}

include!(concat!(env!("OUT_DIR"), "/cases.rs"));
