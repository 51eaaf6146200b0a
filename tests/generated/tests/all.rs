//! Generated monitors against the interpreter and the oracles.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod differential;
mod future;
mod no_alloc;
mod support;
mod timed;
mod trucks;
