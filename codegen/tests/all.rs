//! Behaviour of the code generator: the generated source of the examples
//! (snapshots), names Rust cannot use, systems.
//!
//! One test binary for the crate (each file below is a module).

mod examples;
mod names;
mod ops;
mod support;
mod system;

// The walk over the spec files that the compiler's example snapshots use too.
#[path = "../../compiler/tests/spec_files.rs"]
mod spec_files;
