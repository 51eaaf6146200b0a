//! One bad record is that record's problem: in a keyed log or an
//! OpenTelemetry export, a bad line ends only its own session (its later
//! lines are skipped), a line without a session key is its own error, and
//! everything else is checked; the run exits 2 at the end
//! (docs/language.md, section 5b).

use crate::common::{root, run_in, scratch, Input};
use serde_json::Value;
use std::fs;

const SPEC: &str = r#"
enum Tool { read, deploy }
monitor m {
    time ts from "/t";
    input tool: Tool from "/tool";
    property no_deploy = tool != deploy;
}
"#;

/// Three sessions: B meets a tool the spec does not know (its later
/// `deploy` is never checked), C's clock steps back 100 ms, a line has no
/// session at all; A is checked to its end.
const LOG: &str = r#"{"s": "A", "t": 1, "tool": "read"}
{"s": "B", "t": 1, "tool": "read"}
{"s": "C", "t": 1, "tool": "read"}
{"s": "B", "t": 2, "tool": "grep"}
{"s": "A", "t": 2, "tool": "read"}
{"s": "B", "t": 3, "tool": "deploy"}
{"s": "C", "t": 0.9, "tool": "read"}
{"t": 3, "tool": "read"}
{"s": "A", "t": 3, "tool": "read"}
"#;

/// The 1-based column where `needle` starts in line `line` (1-based) of `LOG`.
fn column(line: usize, needle: &str) -> usize {
    let text = LOG.lines().nth(line - 1).unwrap_or_default();
    text.find(needle).map_or(0, |at| at + 1)
}

#[test]
fn a_bad_record_ends_only_its_own_session() {
    let held = scratch("bad-records");
    let dir = held.path();
    fs::write(dir.join("spec.hind"), SPEC).expect("the spec");
    fs::write(dir.join("log.jsonl"), LOG).expect("the log");
    let args = ["check", "spec.hind", "--trace", "log.jsonl", "--key", "/s"];
    let run = run_in(dir, &args, Input::Null);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    // A's three steps and its end; B and C up to their bad lines, no end;
    // B's `deploy` (line 6) never reached a monitor.
    assert_eq!(
        run.stdout,
        "{\"session\": \"A\", \"step\": 0, \"no_deploy\": \"true\"}\n\
         {\"session\": \"B\", \"step\": 0, \"no_deploy\": \"true\"}\n\
         {\"session\": \"C\", \"step\": 0, \"no_deploy\": \"true\"}\n\
         {\"session\": \"A\", \"step\": 1, \"no_deploy\": \"true\"}\n\
         {\"session\": \"A\", \"step\": 2, \"no_deploy\": \"true\"}\n\
         {\"session\": \"A\", \"end\": true, \"no_deploy\": \"true\", \"no_deploy.false_steps\": 0, \"no_deploy.first_false\": null}\n"
    );
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(errors.len(), 3, "{}", run.stderr);
    assert_eq!(
        errors[0],
        format!(
            "error: log.jsonl:4:{}: input `tool` (at \"/tool\") expects a variant of enum `Tool` \
             (one of: read, deploy), found \"grep\" (session \"B\" ends here)",
            column(4, "\"grep\"")
        )
    );
    assert!(
        errors[1].starts_with(&format!("error: log.jsonl:7:{}: ", column(7, "0.9")))
            && errors[1].ends_with("(session \"C\" ends here)"),
        "{}",
        errors[1]
    );
    assert!(errors[1].contains("goes back"), "{}", errors[1]);
    assert!(
        errors[2].starts_with("error: log.jsonl:8:")
            && errors[2].ends_with(
                "no session key at \"/s\" (--key); every step of a keyed log names its session \
                 (this line is skipped)"
            ),
        "{}",
        errors[2]
    );
}

#[test]
fn a_summary_gives_a_failed_session_its_error_line() {
    let held = scratch("bad-records-summary");
    let dir = held.path();
    fs::write(dir.join("spec.hind"), SPEC).expect("the spec");
    fs::write(dir.join("log.jsonl"), LOG).expect("the log");
    let args = [
        "check",
        "spec.hind",
        "--trace",
        "log.jsonl",
        "--key",
        "/s",
        "--summary",
    ];
    let run = run_in(dir, &args, Input::Null);
    assert_eq!(run.code, Some(2));
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    // Errors in the order met (B at line 4, C at line 7, the keyless line
    // 8), then A's summary when the log ends, then the total.
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert_eq!(lines[0]["session"], "B");
    assert!(lines[0]["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("4:")));
    assert_eq!(lines[1]["session"], "C");
    assert!(lines[1]["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("7:")));
    assert_eq!(lines[2].get("session"), None);
    assert!(lines[2]["error"]
        .as_str()
        .is_some_and(|e| e.starts_with("8:")));
    assert_eq!(lines[3]["session"], "A");
    assert_eq!(lines[3]["steps"], 3);
    let total = &lines[4];
    assert_eq!(
        (&total["sessions"], &total["steps"], &total["errors"]),
        (&Value::from(1), &Value::from(3), &Value::from(3))
    );
}

#[test]
fn a_line_too_long_is_skipped_and_the_log_goes_on() {
    let held = scratch("bad-records-long");
    let dir = held.path();
    fs::write(dir.join("spec.hind"), SPEC).expect("the spec");
    let long = format!("{{\"s\": \"A\", \"pad\": \"{}\"}}", "x".repeat(5000));
    let log = format!(
        "{{\"s\": \"A\", \"t\": 1, \"tool\": \"read\"}}\n{long}\n{{\"s\": \"A\", \"t\": 2, \"tool\": \"deploy\"}}\n"
    );
    fs::write(dir.join("log.jsonl"), log).expect("the log");
    let args = [
        "check",
        "spec.hind",
        "--trace",
        "log.jsonl",
        "--key",
        "/s",
        "--max-line-bytes",
        "1000",
    ];
    let run = run_in(dir, &args, Input::Null);
    assert_eq!(run.code, Some(2));
    // The long line's key is beyond reach: the line alone is skipped, and
    // A's third line (a violation) is still checked.
    assert_eq!(
        run.stderr,
        "error: log.jsonl:2: line is longer than 1000 bytes; raise the limit with \
         --max-line-bytes if such lines are expected (this line is skipped)\n"
    );
    assert!(
        run.stdout
            .contains("{\"session\": \"A\", \"step\": 1, \"no_deploy\": \"false\"}"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_bad_span_ends_only_its_trace_of_an_export() {
    let held = scratch("bad-records-otlp");
    let dir = held.path();
    let export =
        fs::read_to_string(root().join("examples/otel/review.otlp.jsonl")).expect("the export");
    // The second trace's TestRunner reports a status the spec does not know.
    let second = "d0e414d968edc8519ae0a30dfef64997";
    assert!(export.contains(second));
    let mut lines: Vec<String> = export.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .position(|l| l.contains(second) && l.contains("\"stringValue\":\"failed\""))
        .expect("the second trace's failure report");
    lines[at] = lines[at].replacen("\"stringValue\":\"failed\"", "\"stringValue\":\"flaky\"", 1);
    let bad = dir.join("bad.otlp.jsonl");
    fs::write(&bad, lines.join("\n") + "\n").expect("the export");
    let bad = bad.to_str().expect("a UTF-8 path");
    for spec in [
        "examples/otel/audit.hind",
        "examples/code_review/review.hind",
    ] {
        let args = [
            "check",
            spec,
            "--format",
            "otlp",
            "--trace",
            bad,
            "--summary",
        ];
        let run = run_in(&root(), &args, Input::Null);
        assert_eq!(run.code, Some(2), "{spec}: {}", run.stderr);
        let summaries: Vec<Value> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        // The other two traces are summarised; the second has its error.
        let key = Value::from(second);
        let failed: Vec<&Value> = summaries.iter().filter(|s| s["session"] == key).collect();
        assert_eq!(failed.len(), 1, "{spec}: {}", run.stdout);
        assert!(failed[0]["error"].is_string(), "{spec}: {}", run.stdout);
        let total = summaries.last().expect("a total");
        assert_eq!(total["sessions"], 2, "{spec}: {}", run.stdout);
        assert_eq!(total["errors"], 1, "{spec}: {}", run.stdout);
        assert!(
            run.stderr
                .contains(&format!("(session \"{second}\" ends here)")),
            "{spec}: {}",
            run.stderr
        );
        // Placed at the export line of the span that reported it.
        assert!(
            run.stderr
                .contains(&format!("error: {bad}:{}: span ", at + 1)),
            "{spec}: {}",
            run.stderr
        );
    }
}
