//! The timed rules' generated monitors agree with the hand-written ones at
//! every step of the first 200,000 steps of the timed standard trace (and
//! the trace exercises them: violations of every rule, requests answered).

use hindsight_benches::timed::{
    metric_delayed, metric_past, metric_response, times, LastRequest, OldestRequest,
    RecentRequests, TimedMonitor,
};
use hindsight_benches::trace::standard_trace;

const STEPS: usize = 200_000;

fn agree(mut generated: impl TimedMonitor, mut hand: impl TimedMonitor) -> usize {
    let (trace, times) = (standard_trace(STEPS), times(STEPS));
    let mut violations = 0;
    for (i, (&e, &t)) in trace.iter().zip(&times).enumerate() {
        let (g, h) = (generated.step(t, e), hand.step(t, e));
        assert_eq!(g, h, "step {i} at {t} µs");
        violations += usize::from(g == hindsight_runtime::Verdict::False);
    }
    violations
}

#[test]
fn timed_rules_agree_with_hand_written_monitors() {
    assert!(times(STEPS).windows(2).all(|w| w[0] <= w[1]));
    let past = agree(metric_past::Monitor::new(), LastRequest::default());
    let response = agree(metric_response::Monitor::new(), OldestRequest::default());
    let delayed = agree(metric_delayed::Monitor::new(), RecentRequests::default());
    assert!(
        past > 100 && response > 100 && delayed > 100,
        "{past} {response} {delayed}"
    );
}
