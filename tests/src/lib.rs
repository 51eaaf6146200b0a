//! Cross-crate test support: the slow reference evaluators of the textbook
//! semantics (past time; future time over lassos and finite traces, with the
//! LTL3 oracle) and generators for differential property tests.

pub use hindsight_alloc_count as alloc_count;
pub mod cpl;
pub mod gen;
pub mod hir;
pub mod ltl;
pub mod mdp;
pub mod pipeline;
pub mod population;
pub mod protocol;
pub mod reference;
pub mod surface;
pub mod timed;
