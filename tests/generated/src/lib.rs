//! Generated monitor code under test: the build script draws
//! [`seeded::SPEC_COUNT`] random past-time specs and
//! [`seeded::FUTURE_SPEC_COUNT`] random future-time ones from fixed seeds and
//! generates their Rust code into [`random`] and [`future`]; the tests run it
//! against the interpreter and the reference evaluator.

pub mod seeded;
mod typed;

pub use typed::Typed;

/// The generated code of the random specs: one module `spec_K` per spec (its
/// enum `Mode` and its monitor `random`), their sources in [`random::SOURCES`]
/// and a fresh monitor of each from [`random::monitors`].
pub mod random {
    include!(concat!(env!("OUT_DIR"), "/random.rs"));
}

/// The generated code of the random future-time specs of
/// [`seeded::future_specs`], laid out as [`random`].
pub mod future {
    include!(concat!(env!("OUT_DIR"), "/future.rs"));
}

/// The generated code of the random timed specs of [`seeded::timed_specs`],
/// laid out as [`random`] (their monitors as `StepMonitor`s).
pub mod timed {
    include!(concat!(env!("OUT_DIR"), "/timed.rs"));
}
