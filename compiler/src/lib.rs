//! The Hindsight compiler library: checking, lowering to the program IR, and
//! the interpreter that executes it. The code generator (`hindsight-codegen`)
//! reads the same IR; the CLI, the macros and the build API are thin shells
//! over both.
//!
//! Stages, in order: [`check`] (source to [`hir`]), [`lower`] (HIR to [`ir`],
//! building LTL3 automata with [`ltl3`]), [`analysis`] (warnings about the
//! IR), then a back end: [`interp`] here, or the code generator. [`compile()`]
//! runs the pipeline.
//!
//! The shells need [`compile()`] (and [`compile::check_source`] /
//! [`compile::lower_checked`] for `hindsight explain`), [`source`], the
//! [`ir`] the back ends read, [`interp`] and [`types`]. The stage modules
//! ([`check`], [`lower`], [`ltl3`], [`analysis`]) are public for the
//! compiler's stage tests (LTL3 oracles, lowering shapes), not as an
//! interface: they are hidden from the rendered documentation.

#[doc(hidden)]
pub mod analysis;
#[doc(hidden)]
pub mod check;
pub mod compile;
pub mod hir;
#[cfg(feature = "interp")]
pub mod interp;
pub mod ir;
#[doc(hidden)]
pub mod lower;
#[doc(hidden)]
pub mod ltl3;
pub mod source;
mod stack;
mod surface;
pub mod symbols;
pub mod types;
mod walk;

pub use compile::{compile, Compiled};
pub use hindsight_grammar::{ast, diag, format, ops};
pub use hindsight_runtime::{Value, Verdict};
