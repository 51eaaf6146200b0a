//! The Hindsight compiler library: checking, lowering to the flattened table IR,
//! and the interpreter that executes it. The CLI, the macros and the build API
//! are thin shells over this crate.

pub mod analysis;
pub mod check;
pub mod codegen;
pub mod compile;
pub mod explain;
pub mod hir;
pub mod interp;
pub mod lower;
pub mod ltl3;
pub mod population;
pub mod source;
mod stack;
pub mod surface;
pub mod system;
pub mod table;
mod walk;

pub use compile::{compile, Compiled};
pub use hindsight_grammar::{ast, diag};
pub use hindsight_runtime::{Value, Verdict};
