//! OpenTelemetry input (`--format otlp`), on an export the Python
//! OpenTelemetry SDK wrote (examples/otel/review.otlp.jsonl; .ci/run
//! regenerates it with cli/tests/otel/make_fixtures.py and fails if it
//! differs): the records a monitor reads equal those the script derived
//! from the SDK's own span objects, and the verdicts of a monitor and of
//! the code-review system are the ones worked out by hand from the three
//! traces the script records.

use crate::common::{root, run_in, Input, Run};
use serde_json::Value;
use std::fs;

const EXPORT: &str = "examples/otel/review.otlp.jsonl";

/// The trace ids of the three reviews, in the order the export has them.
const TRACES: [&str; 3] = [
    "424b1fee9709931505d95954058b4714",
    "d0e414d968edc8519ae0a30dfef64997",
    "ee8f6454f1784ec73609912fe2e7a724",
];

fn check(args: &[&str]) -> Run {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    run_in(&root(), &all, Input::Null)
}

/// `hindsight check SPEC --format otlp --trace TRACE`.
fn check_otlp(spec: &str, trace: &std::path::Path) -> Run {
    check(&[
        spec,
        "--format",
        "otlp",
        "--trace",
        trace.to_str().unwrap_or(""),
    ])
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn the_records_of_an_sdk_export_are_those_of_the_sdk_spans() {
    let run = check(&[
        "examples/otel/audit.hind",
        "--format",
        "otlp",
        "--trace",
        EXPORT,
        "--dump-input",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let expected = fs::read_to_string(root().join("cli/tests/otel/review.records.jsonl"))
        .expect("the script's records");
    let actual = json_lines(&run.stdout);
    let expected = json_lines(&expected);
    assert_eq!(actual.len(), 15);
    for (k, (a, e)) in actual.iter().zip(&expected).enumerate() {
        assert_eq!(a, e, "record {k}");
    }
    assert_eq!(actual.len(), expected.len());
}

#[test]
fn a_monitor_audits_each_trace_of_the_export_as_a_session() {
    let run = check(&[
        "examples/otel/audit.hind",
        "--format",
        "otlp",
        "--trace",
        EXPORT,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    // Four spans a trace, started Orchestrator, TestRunner, Security,
    // Committer; the Committer's span (step 3) is a merge, which needs the
    // trace's tests to have passed: they failed only in the second review.
    assert_eq!(lines.len(), 3 * 4 + 3);
    for (t, trace) in TRACES.iter().enumerate() {
        let mine: Vec<&Value> = lines.iter().filter(|l| l["session"] == *trace).collect();
        assert_eq!(mine.len(), 5);
        let merge = if t == 1 { "false" } else { "true" };
        assert_eq!(mine[3]["step"], 3);
        assert_eq!(mine[3]["merge_after_tests"], merge);
        assert_eq!(mine[4]["end"], true);
        assert_eq!(mine[4]["merge_after_tests"], merge);
        // The scan starts 2 ms after the tests: within 5 ms.
        assert_eq!(mine[4]["scan_alongside"], "true");
    }
}

#[test]
fn a_system_audits_the_calls_between_services_causally() {
    let run = check(&[
        "examples/code_review/review.hind",
        "--format",
        "otlp",
        "--trace",
        EXPORT,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Worked by hand: the Committer's one choice per review. Review 1: both
    // replies reached the Orchestrator before it called the Committer.
    // Review 2: the tests failed. Review 3: the Committer was called at 30 ms,
    // before either reply (40 and 50 ms), so it has seen no result at all.
    let expected = format!(
        "{{\"session\": \"{}\", \"event\": 11, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"failure_seen\": \"false\"}}\n\
         {{\"session\": \"{}\", \"event\": 11, \"lifeline\": \"Committer\", \"may_merge\": \"false\", \"failure_seen\": \"true\"}}\n\
         {{\"session\": \"{}\", \"event\": 7, \"lifeline\": \"Committer\", \"may_merge\": \"false\", \"failure_seen\": \"false\"}}\n",
        TRACES[0], TRACES[1], TRACES[2]
    );
    assert_eq!(run.stdout, expected);
    // The events: the request and the reply of each call, as messages.
    let events = check(&[
        "examples/code_review/review.hind",
        "--format",
        "otlp",
        "--trace",
        EXPORT,
        "--dump-input",
    ]);
    let events = json_lines(&events.stdout);
    let first: Vec<String> = events[..4].iter().map(Value::to_string).collect();
    assert_eq!(
        first,
        [
            "{\"kind\":\"act\",\"lifeline\":\"Orchestrator\",\"store\":{\"cand\":7}}",
            "{\"kind\":\"send\",\"lifeline\":\"Orchestrator\",\"msg\":\"70ad2ccd03bb605b\",\"to\":\"TestRunner\"}",
            "{\"kind\":\"recv\",\"lifeline\":\"TestRunner\",\"msg\":\"70ad2ccd03bb605b\",\"store\":{\"cand\":7,\"status\":\"passed\"}}",
            "{\"kind\":\"send\",\"lifeline\":\"Orchestrator\",\"msg\":\"21adbc4e10bfa287\",\"to\":\"Security\"}",
        ]
    );
}

/// One span of the first review's trace as an OTLP/JSON `resourceSpans`
/// entry: `(id, parent)`, its service (also its name), `(start, end)` in
/// milliseconds, the attribute `cand` 7 and, if given, `status`.
fn otlp_span(
    (id, parent): (&str, Option<&str>),
    service: &str,
    (start, end): (u64, u64),
    status: Option<&str>,
) -> Value {
    let mut attributes = vec![serde_json::json!({"key": "cand", "value": {"intValue": "7"}})];
    if let Some(status) = status {
        attributes.push(serde_json::json!({"key": "status", "value": {"stringValue": status}}));
    }
    let mut span = serde_json::json!({
        "traceId": TRACES[0],
        "spanId": id,
        "name": service,
        "startTimeUnixNano": (start * 1_000_000).to_string(),
        "endTimeUnixNano": (end * 1_000_000).to_string(),
        "attributes": attributes,
    });
    if let Some(parent) = parent {
        span["parentSpanId"] = parent.into();
    }
    serde_json::json!({"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": service}}
    ]}, "scopeSpans": [{"spans": [span]}]})
}

/// The code review (docs/language.md sections 4b, 5c) with both reviews
/// replying at 30 ms, the very instant the Orchestrator calls the
/// Committer. Replies go before calls at equal times, so, worked by hand,
/// the Committer's choice (event 11: the root's act, two calls of two
/// events, two replies of two, the call and its receipt) has both passing
/// reviews in its causal past, through the Orchestrator: `may_merge`. The
/// other order would put the choice at event 7 with no review visible.
#[test]
fn a_reply_at_the_instant_of_the_next_call_is_in_its_causal_past() {
    let held = crate::common::scratch("otlp_instant");
    let export = held.path().join("instant.otlp.jsonl");
    let root = "00000000000000a1";
    let request = serde_json::json!({"resourceSpans": [
        otlp_span((root, None), "Orchestrator", (0, 100), None),
        otlp_span(("00000000000000b2", Some(root)), "TestRunner", (10, 30), Some("passed")),
        otlp_span(("00000000000000c3", Some(root)), "Security", (12, 30), Some("cleared")),
        otlp_span(("00000000000000d4", Some(root)), "Committer", (30, 40), None),
    ]});
    fs::write(&export, format!("{request}\n")).expect("a file");
    let run = check_otlp("examples/code_review/review.hind", &export);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "{{\"session\": \"{}\", \"event\": 11, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"failure_seen\": \"false\"}}\n",
            TRACES[0]
        )
    );
}

#[test]
fn bad_exports_are_refused_at_their_line_or_span() {
    let held = crate::common::scratch("otlp");
    let dir = held.path();
    let export = fs::read_to_string(root().join(EXPORT)).expect("the export");
    // A trace id that is no id: the export line and the span's place.
    let bad_id = dir.join("bad_id.jsonl");
    fs::write(
        &bad_id,
        export.replacen("424b1fee9709931505d95954058b4714", "424b", 1),
    )
    .expect("a file");
    let run = check_otlp("examples/otel/audit.hind", &bad_id);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.starts_with(&format!(
            "error: {}:1: resourceSpans[0].scopeSpans[0].spans[0]: traceId expects 32 \
             hexadecimal digits (or protobuf's JSON mapping: 16 bytes in base64), found \"424b\"",
            bad_id.display()
        )),
        "{}",
        run.stderr
    );
    // A value the monitor cannot read: the error names the span.
    let bad_value = dir.join("bad_value.jsonl");
    fs::write(&bad_value, export.replacen("\"cleared\"", "\"bogus\"", 1)).expect("a file");
    let run = check_otlp("examples/otel/audit.hind", &bad_value);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains(": span 21adbc4e10bfa287 \"execute_tool security_scan\": input `status` (at \"/attributes/status\")"),
        "{}",
        run.stderr
    );
    // A service that is no lifeline: left out, with a warning.
    let stranger = dir.join("stranger.jsonl");
    fs::write(&stranger, export.replace("\"Security\"", "\"Scanner\"")).expect("a file");
    let run = check_otlp("examples/code_review/review.hind", &stranger);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("service `Scanner` is no lifeline of the system"),
        "{}",
        run.stderr
    );
    // ... and the lifeline it was meant for is reported as never seen,
    // with the services the export had.
    assert!(
        run.stderr.contains(&format!(
            "warning: {}: lifeline `Security` had no event: its variables were never set; no \
             span had service.name `Security`; services seen: Committer, Orchestrator, Scanner, \
             TestRunner\n",
            stranger.display()
        )),
        "{}",
        run.stderr
    );
    // Populations read population traces only.
    let run = check(&[
        "examples/epidemic/epidemic.hind",
        "--format",
        "otlp",
        "--trace",
        EXPORT,
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("--format otlp feeds monitor and system blocks"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_export_past_its_bounds_is_refused_at_the_line_that_goes_past() {
    let held = crate::common::scratch("otlp-bounds");
    let dir = held.path();
    let export = fs::read_to_string(root().join(EXPORT)).expect("the export");
    // The line of the first span of the third trace, read with serde here.
    let third = export
        .lines()
        .position(|l| l.contains(TRACES[2]))
        .map(|k| k + 1)
        .expect("the third trace");
    // A broken line after it: the refusal comes first, before the rest of
    // the file is read.
    let with_tail = dir.join("tail.jsonl");
    fs::write(&with_tail, format!("{export}{{\"resourceSpans\": [\n")).expect("a file");
    let trace = with_tail.to_str().unwrap_or("");
    let spec = "examples/otel/audit.hind";
    let args = ["--format", "otlp", "--trace", trace, "--max-sessions", "2"];
    let run = check(&[&[spec][..], &args[..]].concat());
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        format!(
            "error: {trace}:{third}: more than 2 traces in one file: each trace is a session, \
             and an export's sessions are live until its end; raise the limit with \
             --max-sessions (each costs its monitor's state and about 2 KB)\n"
        )
    );
    // A system checks an export's traces one at a time: no such bound.
    let run = check(&[&["examples/code_review/review.hind"][..], &args[..]].concat());
    assert!(
        run.stderr.contains(&format!("{trace}:13:")) && run.stderr.contains("malformed JSON"),
        "{}",
        run.stderr
    );
    // The bytes held: refused at the line that passes the bound.
    let first = export.lines().next().unwrap_or_default().len();
    let bytes = (first + 1).to_string();
    let run = check(&[
        spec,
        "--format",
        "otlp",
        "--trace",
        EXPORT,
        "--max-export-bytes",
        &bytes,
    ]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        format!(
            "error: {EXPORT}:2: the export is larger than {bytes} bytes (its spans are held in \
             memory until they are checked); raise the limit with --max-export-bytes\n"
        )
    );
}
