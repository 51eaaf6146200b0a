//! Generated code: typed API, stamps, systems against the interpreter.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod like_interpreter;
mod protocols_like_interpreter;
mod serde_types;
mod stamp_seal;
mod stamp_serde;
mod system_stamp;
mod systems_like_interpreter;
mod typed_api;
