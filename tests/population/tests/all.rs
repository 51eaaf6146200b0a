//! Generated population monitors.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod errors;
mod lanes;
mod like_interpreter;
mod no_alloc;
mod snapshot;
