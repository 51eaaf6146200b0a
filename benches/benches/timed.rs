//! Duration bounds: ns/event of a metric past property, a metric response
//! property and a delayed window (`specs/timed.hind`) over the first 10^6
//! steps of the standard trace with times, generated against hand-written.
//! Run with `cargo bench -p hindsight-benches --bench timed`.

use std::sync::LazyLock;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_benches::timed::{
    count_false, metric_delayed, metric_past, metric_response, times, LastRequest, OldestRequest,
    RecentRequests, TimedMonitor,
};
use hindsight_benches::trace::{standard_trace, Event};

/// Steps in one pass.
const STEPS: usize = 1_000_000;

static TRACE: LazyLock<(Vec<Event>, Vec<i64>)> =
    LazyLock::new(|| (standard_trace(STEPS), times(STEPS)));

fn main() {
    divan::main();
}

fn pass<M: TimedMonitor>(bencher: Bencher, monitor: impl Fn() -> M + Sync) {
    let (trace, times) = &*TRACE;
    bencher
        .counter(ItemsCount::new(trace.len()))
        .bench(|| count_false(&mut monitor(), black_box(trace), black_box(times)));
}

mod past_recent {
    use super::*;

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn hand_written(bencher: Bencher) {
        pass(bencher, LastRequest::default);
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn generated(bencher: Bencher) {
        pass(bencher, metric_past::Monitor::new);
    }
}

mod response_within {
    use super::*;

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn hand_written(bencher: Bencher) {
        pass(bencher, OldestRequest::default);
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn generated(bencher: Bencher) {
        pass(bencher, metric_response::Monitor::new);
    }
}

mod past_delayed {
    use super::*;

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn hand_written(bencher: Bencher) {
        pass(bencher, RecentRequests::default);
    }

    #[divan::bench(sample_count = 40, sample_size = 1)]
    fn generated(bencher: Bencher) {
        pass(bencher, metric_delayed::Monitor::new);
    }
}
