//! The memory an OpenTelemetry export takes while it is read and turned into
//! records, counted by allocator (deterministic, not timed): about three
//! times the export's size, as docs/limits.md promises. An SDK that writes
//! one span per export line repeats the resource on every line; each span
//! used to hold its own copy of it, and every record a JSON tree, for
//! twelve times the export's size.

use hindsight_alloc_count::{live_bytes, peak_bytes, reset_peak, Counting};
use hindsight_trace::otlp::{read_spans, records, Limits};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// An export of `n` spans, one per line, each with the resource and
/// attributes an instrumented agent's span has.
fn export(n: usize) -> String {
    let mut text = String::new();
    for k in 0..n {
        let trace = format!("{:032x}", k / 4 + 1);
        let span = format!("{:016x}", k + 1);
        text.push_str(&format!(
            "{{\"resourceSpans\":[{{\"resource\":{{\"attributes\":[\
             {{\"key\":\"telemetry.sdk.language\",\"value\":{{\"stringValue\":\"python\"}}}},\
             {{\"key\":\"telemetry.sdk.name\",\"value\":{{\"stringValue\":\"opentelemetry\"}}}},\
             {{\"key\":\"telemetry.sdk.version\",\"value\":{{\"stringValue\":\"1.45.2\"}}}},\
             {{\"key\":\"service.name\",\"value\":{{\"stringValue\":\"TestRunner\"}}}}]}},\
             \"scopeSpans\":[{{\"scope\":{{\"name\":\"hindsight.fixtures\"}},\"spans\":[\
             {{\"traceId\":\"{trace}\",\"spanId\":\"{span}\",\"name\":\"execute_tool run_tests\",\
             \"kind\":2,\"startTimeUnixNano\":\"{start}\",\"endTimeUnixNano\":\"{end}\",\
             \"attributes\":[{{\"key\":\"gen_ai.operation.name\",\"value\":{{\"stringValue\":\"execute_tool\"}}}},\
             {{\"key\":\"gen_ai.tool.name\",\"value\":{{\"stringValue\":\"run_tests\"}}}},\
             {{\"key\":\"cand\",\"value\":{{\"intValue\":\"7\"}}}}],\"status\":{{\"code\":1}}}}]}}]}}]}}\n",
            start = 1_772_460_300_000_000_000u64 + k as u64 * 1000,
            end = 1_772_460_300_000_000_000u64 + k as u64 * 1000 + 500,
        ));
    }
    text
}

#[test]
fn an_export_and_its_records_take_less_than_three_times_its_size() {
    let text = export(4000);
    let limits = Limits {
        line_bytes: 1 << 20,
        spans: 1 << 20,
        bytes: usize::MAX,
        traces: None,
    };
    let before = live_bytes();
    reset_peak();
    let spans = read_spans(text.as_bytes(), &limits).expect("the export reads");
    let converted = records(&spans);
    drop(spans);
    let peak = peak_bytes().saturating_sub(before);
    assert_eq!(converted.origins.len(), 4000);
    let ratio = peak as f64 / text.len() as f64;
    assert!(
        ratio < 3.0,
        "{peak} bytes at the peak for an export of {} bytes: {ratio:.2} times",
        text.len()
    );
}
