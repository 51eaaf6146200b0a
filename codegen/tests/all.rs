//! Behaviour of the code generator: the generated source of the examples
//! (snapshots), names Rust cannot use, systems.
//!
//! One test binary for the crate (each file below is a module).

mod examples;
mod names;
mod ops;
mod system;
