//! Generated monitor code under test: the build script draws
//! [`seeded::SPEC_COUNT`] random past-time specs from a fixed seed and generates
//! their Rust code into [`random`]; the tests run it against the interpreter and
//! the reference evaluator.
#![forbid(unsafe_code)]

pub mod seeded;
mod typed;

pub use typed::Typed;

/// The generated code of the random specs: one module `spec_K` per spec (its
/// enum `Mode` and its monitor `random`), their sources in [`random::SOURCES`]
/// and a fresh monitor of each from [`random::monitors`].
pub mod random {
    include!(concat!(env!("OUT_DIR"), "/random.rs"));
}
