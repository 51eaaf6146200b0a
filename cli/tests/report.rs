//! `hindsight check --report`: the audit of the bundled multi-run example as
//! one HTML page, read as text and opened in headless Chromium. Expected
//! values are the example's documented violations (docs/usage.md): run 0002
//! deploys untested at step 8 (line 17), run 0003 retries a third time at
//! step 6 (line 13).

use std::process::Command;

use serde_json::{json, Value};

use crate::common::{browser, root};

fn check(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .arg("check")
        .args(args)
        .current_dir(root())
        .output()
        .expect("hindsight runs")
}

fn rows(table: &Value) -> Vec<Vec<String>> {
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_report_of_the_multi_run_example_shows_each_violation_in_its_run() {
    let dir = crate::common::scratch("report");
    let page = dir.path().join("report.html");
    let spec = "examples/coding_agent/rules.hind";
    let runs = "examples/coding_agent/runs";
    let with_report = check(&[spec, "--trace", runs, "--report", page.to_str().unwrap()]);
    let summary = check(&[spec, "--trace", runs, "--summary"]);
    // The summary still goes to stdout, unchanged; violations exit 0 as --summary does.
    assert_eq!(with_report.status.code(), summary.status.code());
    assert_eq!(with_report.stdout, summary.stdout);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("src=") && !html.contains("href=\"http"),
        "self-contained"
    );
    assert!(html.contains("false at step 8 (line 17)"), "{html}");
    assert!(html.contains("false at step 6 (line 13)"), "{html}");
    assert!(
        html.contains("<tr class=\"here\"><td class=\"number\">17</td>"),
        "{html}"
    );
    assert!(
        html.contains("<tr class=\"here\"><td class=\"number\">13</td>"),
        "{html}"
    );
    assert!(html.contains(
        "Why: <code>call = true, tool == deploy = true, !editing S tests_passed = false</code>"
    ));

    let url = browser::file_url(&page);
    let Some(seen) = browser::inspect(&json!({"url": url})) else {
        return;
    };
    browser::assert_clean(&seen);
    let table = &seen["tables"][0];
    assert_eq!(
        table["headers"],
        json!([
            "trace",
            "steps",
            "deploy_gated",
            "calls_answered",
            "no_third_retry",
            "error"
        ])
    );
    let run = |n: &str| format!("examples/coding_agent/runs/{n}.jsonl");
    assert_eq!(
        rows(table),
        [
            vec![
                run("0001"),
                "10".into(),
                "ok".into(),
                "ok".into(),
                "ok".into(),
                "".into()
            ],
            vec![
                run("0002"),
                "10".into(),
                "✗ 1 @8".into(),
                "ok".into(),
                "ok".into(),
                "".into()
            ],
            vec![
                run("0003"),
                "8".into(),
                "ok".into(),
                "ok".into(),
                "✗ 1 @6".into(),
                "".into()
            ],
        ]
    );
    // Each violation's timeline: the run's lines before it, then it, then one more.
    let timelines: Vec<Vec<Vec<String>>> = seen["tables"].as_array().unwrap()[1..]
        .iter()
        .map(rows)
        .collect();
    let numbers = |t: &Vec<Vec<String>>| t.iter().map(|r| r[0].clone()).collect::<Vec<_>>();
    assert_eq!(numbers(&timelines[0]), ["13", "14", "15", "16", "17", "18"]);
    assert_eq!(numbers(&timelines[1]), ["9", "10", "11", "12", "13", "14"]);
    // Sorting: a heading clicked twice sorts descending by steps false.
    let order = |seen: &Value| -> Vec<String> {
        rows(&seen["tables"][0])
            .iter()
            .map(|r| r[0].clone())
            .collect()
    };
    let button = |column: usize| format!("#summary th[data-column=\"{column}\"] button");
    let clicked = browser::inspect(&json!({"url": url, "clicks": [button(4), button(4)]})).unwrap();
    browser::assert_clean(&clicked);
    assert_eq!(order(&clicked), [run("0003"), run("0001"), run("0002")]);
    let clicked = browser::inspect(&json!({"url": url, "clicks": [button(1)]})).unwrap();
    assert_eq!(order(&clicked), [run("0003"), run("0001"), run("0002")]);
    let clicked = browser::inspect(&json!({"url": url, "clicks": [button(0), button(0)]})).unwrap();
    assert_eq!(order(&clicked), [run("0003"), run("0002"), run("0001")]);
    // Without scripts: the same table and the violations.
    let plain = browser::inspect(&json!({"url": url, "javascript": false})).unwrap();
    assert_eq!(rows(&plain["tables"][0]), rows(table));
    assert!(plain["text"].as_str().unwrap().contains("Violations"));
}

/// A keyed log (three interleaved sessions): the violation's timeline holds
/// only its session's lines (hand-checked in service.jsonl: session
/// sess_01JNV5 is on lines 7, 9, 11, 13, 15 and 18 around its deploy).
#[test]
fn a_keyed_logs_timeline_holds_the_violating_sessions_lines() {
    let dir = crate::common::scratch("report-keyed");
    let page = dir.path().join("report.html");
    let run = check(&[
        "examples/coding_agent/rules.hind",
        "--trace",
        "examples/coding_agent/service.jsonl",
        "--key",
        "/session",
        "--report",
        page.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<code>deploy_gated</code> in sess_01JNV5: false at step 2 (line 15)"),
        "{html}"
    );
    assert!(
        html.contains("3 runs, 1 with a violation (1 violation below)."),
        "{html}"
    );
    let numbers: Vec<&str> = html
        .split("<td class=\"number\">")
        .skip(1)
        .map(|t| t.split('<').next().unwrap())
        .collect();
    assert_eq!(numbers, ["7", "9", "11", "13", "15", "18"]);
    for line in html.split("<tr").filter(|l| l.contains("class=\"number\"")) {
        assert!(line.contains("sess_01JNV5"), "{line}");
    }
}
