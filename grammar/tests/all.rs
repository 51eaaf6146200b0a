//! Behaviour of the lexer, parser and syntax diagnostics.
//!
//! One test binary for the crate (each file below is a module): linking one
//! binary instead of one per file keeps a cold `cargo test` fast.

mod codes;
mod common;
mod diagnostics;
mod format;
mod items;
mod lexer;
mod parser;
mod precedence;
mod print;
mod robustness;
mod spans;
