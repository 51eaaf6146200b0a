//! The standard trace as a JSON Lines trace two ways, for timing the trace
//! readers: plain lines giving the nine propositions, and log records of an
//! agent framework's shape (the propositions under `attributes`, a `type`
//! the step filter reads, and 20 other fields the reader skips).

use crate::trace::{Event, PROPOSITIONS};
use hindsight_runtime::record::{Absent, Field, FilterOp, Literal, Source};
use hindsight_trace::{InputSchema, InputType, TraceSchema};

/// The proposition values of `event` as JSON members: `"request": true, ...`.
fn members(event: Event) -> String {
    let fields: Vec<String> = PROPOSITIONS
        .iter()
        .enumerate()
        .map(|(k, (name, _))| format!("\"{name}\": {}", event >> k & 1 == 1))
        .collect();
    fields.join(", ")
}

/// One plain line per step: `{"request": true, "reset": false, ...}`.
pub fn plain_lines(trace: &[Event]) -> String {
    trace
        .iter()
        .map(|&event| format!("{{{}}}\n", members(event)))
        .collect()
}

/// One record per step: the propositions under `attributes` (with one more
/// key there), `"type": "step"` and 20 other fields of the kinds logs carry
/// (ids, a timestamp, counts, free text with escaped quotes, an array, an
/// object).
pub fn record_lines(trace: &[Event]) -> String {
    trace
        .iter()
        .enumerate()
        .map(|(i, &event)| {
            format!(
                "{{\"type\": \"step\", \"ts\": {ts:.3}, \"session\": \"sess_{session:06}\", \
                 \"trace_id\": \"{trace_id:016x}4bf92f3577b34da6\", \"span_id\": \"{span:08x}\", \
                 \"parent_span_id\": \"{parent:08x}\", \"model\": \"gpt-4o-2024-08-06\", \
                 \"level\": \"info\", \"host\": \"worker-3\", \"pid\": 48211, \
                 \"thread\": \"tokio-runtime-worker\", \"seq\": {i}, \"latency_ms\": {latency:.1}, \
                 \"tokens_in\": {tokens_in}, \"tokens_out\": {tokens_out}, \"cost_usd\": 0.000125, \
                 \"attributes\": {{{members}, \"gen_ai.operation.name\": \"chat\"}}, \
                 \"msg\": \"tool call \\\"search\\\" returned 3 results\", \
                 \"tags\": [\"prod\", \"eu-west-1\"], \
                 \"meta\": {{\"region\": \"eu\", \"zone\": \"b\", \"retry\": false}}, \
                 \"retries\": 0, \"ok\": true}}\n",
                ts = 1_767_225_600.0 + i as f64 * 0.013,
                session = i / 5000,
                trace_id = (i as u64).wrapping_mul(2_654_435_761),
                span = (i as u64).wrapping_mul(40_503) & 0xffff_ffff,
                parent = (i as u64).wrapping_mul(40_499) & 0xffff_ffff,
                latency = (i * 37 % 1000) as f64 / 10.0,
                tokens_in = 812 + i % 97,
                tokens_out = 9 + i % 13,
                members = members(event),
            )
        })
        .collect()
}

/// The nine propositions as bool inputs, each its own top-level key.
pub fn plain_schema() -> TraceSchema {
    let inputs = PROPOSITIONS
        .iter()
        .map(|(name, _)| InputSchema::new(*name, InputType::Bool))
        .collect();
    TraceSchema::new(inputs, Vec::new())
}

/// The nine propositions read from `/attributes/NAME`, on the records whose
/// `/type` is `"step"` (what `from` and `steps where` compile to).
pub fn records_schema() -> TraceSchema {
    let inputs = PROPOSITIONS
        .iter()
        .map(|(name, _)| {
            InputSchema::new(*name, InputType::Bool).with_field(Field {
                source: Source::Pointer(format!("/attributes/{name}")),
                absent: Absent::Error,
            })
        })
        .collect();
    let step = FilterOp::Equals("/type".to_string(), Literal::Str("step".to_string()));
    TraceSchema::new(inputs, Vec::new()).with_steps(vec![step])
}
