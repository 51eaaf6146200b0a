//! The attribute macro.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod forms;
mod ui;
