//! Attribute macros that declare Hindsight monitors inline in Rust code.
//!
//! The guard attribute arrives with code generation; this crate is the thin
//! shell that will call the compiler library.
