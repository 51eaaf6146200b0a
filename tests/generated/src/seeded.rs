//! The random specs (past-time, and future-time) of the differential tests, drawn from a fixed seed so that the
//! build script (which generates their code) and the test (which needs their
//! formulas for the reference evaluator) draw exactly the same ones.

use hindsight_tests::gen::{
    future_spec, random_spec, timed_spec, FutureSpec, RandomSpec, TimedSpec,
};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// How many random specs get generated code.
pub const SPEC_COUNT: usize = 300;

/// How many random future-time specs get generated code.
pub const FUTURE_SPEC_COUNT: usize = 100;

/// How many random timed specs get generated code.
pub const TIMED_SPEC_COUNT: usize = 60;

/// `count` values of `strategy`, drawn one after another by a proptest runner
/// seeded with `seed`: the same seed always draws the same values.
///
/// Panics only if the strategy rejects every attempt, which the generators of
/// `hindsight_tests::gen` (no filters) never do.
pub fn draws<S: Strategy>(strategy: &S, seed: &[u8; 32], count: usize) -> Vec<S::Value> {
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, seed);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    (0..count)
        .map(|_| match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(reason) => panic!("drawing a random value failed: {reason}"),
        })
        .collect()
}

/// The [`SPEC_COUNT`] random specs, always the same ones.
pub fn specs() -> Vec<RandomSpec> {
    draws(
        &random_spec(),
        b"hindsight: generated == interp. ",
        SPEC_COUNT,
    )
}

/// The [`FUTURE_SPEC_COUNT`] random future-time specs, always the same ones.
pub fn future_specs() -> Vec<FutureSpec> {
    draws(
        &future_spec(),
        b"hindsight: generated future spec",
        FUTURE_SPEC_COUNT,
    )
}

/// The [`TIMED_SPEC_COUNT`] random timed specs, always the same ones.
pub fn timed_specs() -> Vec<TimedSpec> {
    draws(
        &timed_spec(),
        b"hindsight: generated timed specs",
        TIMED_SPEC_COUNT,
    )
}
