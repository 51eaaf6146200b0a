//! Behaviour of the hindsight command: check, explain, build, sample.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod audit;
mod bad_records;
mod build;
mod cli;
mod codes;
mod common;
mod docs;
mod draw;
mod examples;
mod explain;
mod explain_population;
mod fmt;
mod learn;
mod lsp;
mod otlp;
mod population;
mod protocols;
mod records;
mod report;
mod sample;
mod spec;
mod system;
mod trac_examples;
mod vacuity;
