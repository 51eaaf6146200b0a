//! Following a run with a loaded model allocates nothing per step: a
//! counting global allocator sees no allocation over 10^5 calls of
//! `Tracker::step` (and the end of each run) on a model learned from runs
//! that take every action in every state, unseen steps included.

use hindsight_alloc_count::{allocations, Counting};
use hindsight_compiler::compile::{check_source, lower_for_learning};
use hindsight_learn::online::Tracker;
use hindsight_learn::{learn, Features, Options, Run};
use hindsight_runtime::Value;
use std::hint::black_box;

#[global_allocator]
static GLOBAL: Counting = Counting;

const SPEC: &str = "
enum Tool { read, write, stop }
monitor m {
    input tool: Tool;
    input size: int;
    let big = size > 10;
    goal done = tool == stop;
}
";

#[test]
fn tracking_a_run_never_allocates() {
    let checked = check_source(SPEC).expect("checks");
    let table = lower_for_learning(&checked.spec, 0).expect("lowers");
    let features = Features::of(&table, "tool").expect("features");
    assert_eq!(features.list.len(), 4, "tool, size, big, done");
    // Runs: read/write with growing sizes, then stop.
    let runs: Vec<Run> = (0..200)
        .map(|r| {
            let mut run = Run::default();
            for j in 0..(r % 7 + 1) {
                let tool = if j == r % 7 { 2 } else { (j + r) % 2 };
                let size = (j * 5 + r % 3) as f64;
                run.actions.push(Value::Enum(tool as u32));
                run.values.extend([
                    f64::from(tool as u32),
                    size,
                    f64::from(u8::from(size > 10.0)),
                    f64::from(u8::from(tool == 2)),
                ]);
            }
            run
        })
        .collect();
    let model = learn("m", "tool", &features, &runs, Options::default()).expect("learned");
    let mut tracker = Tracker::new(&model);
    let rows: Vec<[f64; 4]> = (0..64)
        .map(|i| {
            let tool = (i % 3) as f64;
            let size = (i * 3 % 20) as f64;
            [
                tool,
                size,
                f64::from(u8::from(size > 10.0)),
                f64::from(u8::from(tool == 2.0)),
            ]
        })
        .collect();
    let before = allocations();
    let mut anomalous = 0usize;
    for i in 0..100_000 {
        let row = &rows[i % rows.len()];
        let standing = tracker.step(Value::Enum((i % 3) as u32), black_box(row));
        anomalous += usize::from(standing.anomalous);
        if i % 9 == 8 {
            anomalous += usize::from(black_box(tracker.finish()).1);
            tracker.reset();
        }
    }
    assert_eq!(allocations() - before, 0, "Tracker::step allocated");
    assert!(anomalous > 0, "the varied run is flagged somewhere");
}
