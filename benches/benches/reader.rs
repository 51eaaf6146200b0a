//! The monitor trace reader on the first 10^5 steps of the standard trace,
//! as plain lines (`{"request": true, ...}`, 108 bytes) and as log records
//! of 708 bytes read through pointers and a step filter (`records`).
//! Run with `cargo bench -p hindsight-benches --bench reader`; divan prints
//! time per pass, lines/s and bytes/s.

use std::sync::LazyLock;

use divan::counter::{BytesCount, ItemsCount};
use divan::{black_box, Bencher};
use hindsight_benches::records::{plain_lines, plain_schema, record_lines, records_schema};
use hindsight_benches::trace::standard_trace;
use hindsight_runtime::Value;
use hindsight_trace::{TraceReader, TraceSchema};

/// Steps in one pass.
const STEPS: usize = 100_000;

static PLAIN: LazyLock<String> = LazyLock::new(|| plain_lines(&standard_trace(STEPS)));
static RECORDS: LazyLock<String> = LazyLock::new(|| record_lines(&standard_trace(STEPS)));

fn main() {
    divan::main();
}

/// Times passes of a reader of `text` against `schema`, counting the true inputs.
fn pass(bencher: Bencher, text: &str, schema: fn() -> TraceSchema) {
    bencher
        .counter(ItemsCount::new(STEPS))
        .counter(BytesCount::new(text.len()))
        .bench(|| {
            let mut reader = TraceReader::new(black_box(text.as_bytes()), schema());
            let mut values = Vec::new();
            let mut true_inputs = 0usize;
            while let Ok(true) = reader.read_next(&mut values) {
                true_inputs += values.iter().filter(|v| **v == Value::Bool(true)).count();
            }
            true_inputs
        });
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn plain(bencher: Bencher) {
    pass(bencher, &PLAIN, plain_schema);
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn records(bencher: Bencher) {
    pass(bencher, &RECORDS, records_schema);
}
