//! Differential tests of the compiler against the reference evaluators.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod common;
mod cpl_monitor;
mod cpl_reference;
mod differential;
mod future_differential;
mod jit_differential;
mod mdp_bounds;
mod paper_examples;
mod population_differential;
mod population_paper;
mod population_timed;
mod protocol_differential;
mod timed_differential;
