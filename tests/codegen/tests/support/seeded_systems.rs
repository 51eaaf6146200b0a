//! The random systems of the generated-system differential test, drawn from a
//! fixed seed so that the build script (which generates their code) and the
//! test (which runs the compiler's monitor and the reference on them) draw
//! exactly the same ones.

use hindsight_compiler::hir::Spec;
use hindsight_tests::cpl::gen::system_spec;
use hindsight_tests::cpl::print::system_source;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// How many random systems get generated code.
pub(crate) const SYSTEM_COUNT: usize = 50;

/// The [`SYSTEM_COUNT`] random systems and their source text, always the
/// same ones (systems whose guards have no surface syntax are skipped).
pub(crate) fn systems() -> Vec<(Spec, String)> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, b"hindsight: generated system mon."),
    );
    let strategy = system_spec();
    let mut systems = Vec::with_capacity(SYSTEM_COUNT);
    while systems.len() < SYSTEM_COUNT {
        let spec = match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(reason) => panic!("drawing a random system failed: {reason}"),
        };
        if let Some(source) = system_source(&spec.enums, &spec.systems[0]) {
            systems.push((spec, source));
        }
    }
    systems
}
