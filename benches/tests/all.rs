//! The benchmarked monitors agree with each other.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod agreement;
mod cpl;
mod future;
mod population;
mod protocol;
mod records;
mod state_size;
mod timed;
