//! Cross-crate test support: the slow reference evaluator of the textbook
//! semantics and generators for differential property tests.

pub mod gen;
pub mod pipeline;
pub mod reference;
