//! What the differential tests of the past-time and the future-time random
//! specs share: the check that the generated code is that of the seeded specs,
//! and the random traces the monitors run on.

use hindsight_generated_tests::seeded::draws;
use hindsight_runtime::{ResetCounts, StepMonitor, Verdict};
use hindsight_tests::gen::trace;
use hindsight_tests::reference::Step;

/// `per_spec` random traces of at most `max_len` steps for each of `count`
/// specs, drawn from `seed` (always the same ones), grouped by spec.
pub(crate) fn traces_per_spec(
    seed: &[u8; 32],
    count: usize,
    per_spec: usize,
    max_len: usize,
) -> Vec<Vec<Vec<Step>>> {
    let all = draws(&trace(max_len), seed, count * per_spec);
    all.chunks(per_spec).map(<[_]>::to_vec).collect()
}

/// Asserts that the build script generated the code of exactly the seeded
/// specs: `count` of them, whose sources (in order) are `sources`, and whose
/// generated sources and fresh monitors number `generated` and `monitors`.
pub(crate) fn assert_generated_for(
    sources: impl ExactSizeIterator<Item = String>,
    count: usize,
    generated: &[&str],
    monitors: usize,
) {
    assert_eq!(sources.len(), count);
    assert_eq!(generated.len(), count);
    assert_eq!(monitors, count);
    for (source, generated) in sources.zip(generated) {
        assert_eq!(source, *generated);
    }
}

/// What a monitor reports after a step: the step's verdicts, the finite-trace
/// verdicts if the trace ended there, and the reset counts it would end with.
#[derive(Debug, PartialEq)]
pub(crate) struct Report {
    pub(crate) verdicts: Vec<Verdict>,
    pub(crate) finish: Vec<Verdict>,
    pub(crate) counts: Vec<ResetCounts>,
}

pub(crate) fn report(
    monitor: &mut dyn StepMonitor,
    step: &[hindsight_runtime::Value],
    n: usize,
) -> Report {
    let mut verdicts = vec![Verdict::Unknown; n];
    let mut finish = vec![Verdict::Unknown; n];
    let mut counts = vec![ResetCounts::default(); n];
    monitor.step_values(step, &mut verdicts);
    monitor.finish_values(&mut finish);
    monitor.finish_counts(&mut counts);
    Report {
        verdicts,
        finish,
        counts,
    }
}
