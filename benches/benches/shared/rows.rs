//! Machine code as `hindsight check` runs it when a thread reads the trace
//! ahead: `StepMonitor::step_rows` over batches of decoded steps lying in
//! memory. Shared by the bench files that time it (`#[path]` module).

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hindsight_runtime::{StepMonitor, Value, Verdict};

/// Steps per batch.
const ROWS: usize = 1000;

/// Batches whose values stay in memory, used over and over.
const BATCHES: usize = 8;

/// Calls of `step_rows` per pass: 10^6 steps, as the other benches'.
const CALLS: usize = 1000;

/// The values of the first [`BATCHES`] batches of [`ROWS`] steps of
/// `trace`, `width` values per step written by `fill` (before the timing:
/// decoding is the reading thread's work).
pub(crate) fn batches<E: Copy>(
    trace: &[E],
    width: usize,
    fill: impl Fn(E, &mut [Value]),
) -> Vec<Vec<Value>> {
    trace
        .chunks_exact(ROWS)
        .take(BATCHES)
        .map(|events| {
            let mut values = vec![Value::Bool(false); ROWS * width];
            for (row, &e) in values.chunks_exact_mut(width).zip(events) {
                fill(e, row);
            }
            values
        })
        .collect()
}

/// Times passes of a fresh copy of `monitor` through [`CALLS`] calls of
/// `step_rows`, each over the next of `batches` in turn (which stay in the
/// cache, as a batch just written by the reading thread is near), `each`
/// reading the verdicts of every step (`properties` per step).
pub(crate) fn bench_rows<M: StepMonitor + Clone + Sync>(
    bencher: Bencher,
    monitor: M,
    batches: &[Vec<Value>],
    properties: usize,
    each: impl Fn(&[Verdict]) -> usize + Sync,
) {
    bencher.counter(ItemsCount::new(CALLS * ROWS)).bench(|| {
        let mut monitor = monitor.clone();
        let mut verdicts = vec![Verdict::Unknown; ROWS * properties];
        let mut counted = 0;
        for batch in batches.iter().cycle().take(CALLS) {
            monitor.step_rows(ROWS, black_box(batch), &mut verdicts);
            counted += verdicts.chunks_exact(properties).map(&each).sum::<usize>();
        }
        counted
    });
}
