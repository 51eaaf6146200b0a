//! Helpers shared by the modules of this test binary.

use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A proptest runner of `cases` cases drawn from proptest's fixed seed, and no
/// failure persistence: every run checks the same inputs.
pub(crate) fn deterministic_runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}
