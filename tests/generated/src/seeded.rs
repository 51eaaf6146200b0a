//! The random specs (past-time, and future-time) of the differential tests, drawn from a fixed seed so that the
//! build script (which generates their code) and the test (which needs their
//! formulas for the reference evaluator) draw exactly the same ones.

use hindsight_tests::gen::{future_spec, random_spec, FutureSpec, RandomSpec};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// How many random specs get generated code.
pub const SPEC_COUNT: usize = 300;

/// How many random future-time specs get generated code.
pub const FUTURE_SPEC_COUNT: usize = 100;

/// A deterministic proptest runner: the same `seed` always draws the same values.
pub fn runner(seed: &[u8; 32]) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, seed),
    )
}

/// One value of `strategy` drawn with `runner`.
///
/// Panics only if the strategy rejects every attempt, which the generators of
/// `hindsight_tests::gen` (no filters) never do.
pub fn draw<S: Strategy>(strategy: &S, runner: &mut TestRunner) -> S::Value {
    match strategy.new_tree(runner) {
        Ok(tree) => tree.current(),
        Err(reason) => panic!("drawing a random value failed: {reason}"),
    }
}

/// The [`SPEC_COUNT`] random specs, always the same ones.
pub fn specs() -> Vec<RandomSpec> {
    let mut runner = runner(b"hindsight: generated == interp. ");
    let strategy = random_spec();
    (0..SPEC_COUNT)
        .map(|_| draw(&strategy, &mut runner))
        .collect()
}

/// The [`FUTURE_SPEC_COUNT`] random future-time specs, always the same ones.
pub fn future_specs() -> Vec<FutureSpec> {
    let mut runner = runner(b"hindsight: generated future spec");
    let strategy = future_spec();
    (0..FUTURE_SPEC_COUNT)
        .map(|_| draw(&strategy, &mut runner))
        .collect()
}
