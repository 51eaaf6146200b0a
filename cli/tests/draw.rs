//! `hindsight draw`: the chart of a system trace against the reference
//! semantics of causal pasts (tests/src/cpl/msc.rs: reachability over local
//! order and messages, no vector clocks), in the SVG text and, where the
//! system's Chromium is installed, as a browser renders it.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::Command;

use hindsight_tests::cpl::msc::{Event, EventKind, Execution};
use serde_json::Value;

use tempfile::TempDir;

use crate::common::{browser, root, scratch};

fn draw(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .arg("draw")
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("hindsight runs")
}

/// The reference execution of a system trace: lifelines by name, message
/// ids numbered in order of their sends; values are left out (a causal past
/// does not depend on them).
fn reference(spec: &str, trace: &str) -> Execution {
    let source = std::fs::read_to_string(root().join(spec)).unwrap();
    let compiled = hindsight_compiler::compile(&source).expect("the spec compiles");
    let system = &compiled.spec.systems[0];
    let index = |name: &Value| {
        system
            .lifelines
            .iter()
            .position(|l| l.name == name.as_str().unwrap())
            .expect("a lifeline")
    };
    let mut ids: HashMap<String, u32> = HashMap::new();
    let events = std::fs::read_to_string(root().join(trace))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let msg = |ids: &mut HashMap<String, u32>| {
                let n = ids.len() as u32;
                *ids.entry(v["msg"].as_str().unwrap().to_string())
                    .or_insert(n)
            };
            let kind = match v["kind"].as_str().unwrap() {
                "send" => EventKind::Send {
                    to: index(&v["to"]),
                    msg: msg(&mut ids),
                },
                "recv" => EventKind::Recv { msg: msg(&mut ids) },
                "choice" => EventKind::Choice,
                _ => EventKind::Act,
            };
            Event {
                lifeline: index(&v["lifeline"]),
                kind,
                changes: Vec::new(),
            }
        })
        .collect();
    Execution::new(system, events).expect("a valid execution")
}

/// The events of the chart for choice `at` carrying `class`, from the SVG text.
fn with_class(svg: &str, at: usize, class: &str) -> BTreeSet<usize> {
    let chart = svg
        .split("<g class=\"chart\"")
        .find(|c| c.starts_with(&format!(" data-at=\"{at}\"")))
        .expect("a chart for the choice");
    chart
        .split("<g class=\"event ")
        .skip(1)
        .filter(|g| g.split('"').next().unwrap().split(' ').any(|c| c == class))
        .map(|g| {
            let at = g.find("data-event=\"").unwrap() + "data-event=\"".len();
            g[at..].split('"').next().unwrap().parse().unwrap()
        })
        .collect()
}

/// `hindsight draw` of Figure 2 into `name` (its extension picks the
/// format) in a scratch directory: the directory, the file and what it holds.
fn draw_figure2(name: &str) -> (TempDir, PathBuf, String) {
    let dir = scratch("draw");
    let out = dir.path().join(name);
    let run = draw(&[
        FIGURE2_SPEC,
        "--trace",
        FIGURE2_TRACE,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    (dir, out, text)
}

const FIGURE2_SPEC: &str = "examples/code_review/review.hind";
const FIGURE2_TRACE: &str = "examples/code_review/figure2.jsonl";

/// The events of a chart as Chromium showed it (inspect.mjs) that are
/// shaded (`"shaded"`) or carry a class.
fn seen_with(chart: &Value, key: &str) -> BTreeSet<usize> {
    chart["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| match key {
            "shaded" => e["shaded"] == true,
            class => e["classes"].as_array().unwrap().iter().any(|c| c == class),
        })
        .map(|e| e["event"].as_u64().unwrap() as usize)
        .collect()
}

#[test]
fn the_shaded_past_at_the_committers_choice_is_the_reference_causal_past() {
    let (_dir, out, svg) = draw_figure2("figure2.svg");
    let execution = reference(FIGURE2_SPEC, FIGURE2_TRACE);
    let choice = 15;
    let past: BTreeSet<usize> = execution.causal_past(choice).into_iter().collect();
    // Hand-worked (the CPL paper's Figure 2): the failure (11) and its report
    // (12) are concurrent with the choice; the reply (16) comes after it.
    assert_eq!(past, (0..=10).chain([13, 14, 15]).collect());
    assert_eq!(with_class(&svg, choice, "in-past"), past);
    let latest: BTreeSet<usize> = (0..execution.lifeline_count())
        .filter_map(|l| execution.latest_visible(l, choice))
        .collect();
    assert_eq!(with_class(&svg, choice, "latest"), latest);
    // The failure's report is in transit (drawn open), the merge is true.
    assert!(svg.contains("<line class=\"message in-transit\" data-send=\"12\""));
    assert!(svg.contains("<line class=\"message\" data-send=\"6\""));
    assert!(svg.contains(">may_merge = true</text>"));
    assert!(svg.contains(">failure_seen = false</text>"));
    assert!(svg.contains("@TestRunner (status != failed S status == passed)</tspan> = <tspan fill=\"#15803d\">true</tspan>"));

    // As Chromium renders it: the marks inside the shaded bands are exactly
    // the reference past; nothing fails and nothing is fetched.
    let Some(seen) = browser::inspect(&serde_json::json!({"url": browser::file_url(&out)})) else {
        return;
    };
    browser::assert_clean(&seen);
    let chart = &seen["charts"][0];
    assert_eq!(chart["at"], "15");
    assert_eq!(seen_with(chart, "shaded"), past);
}

#[test]
fn the_page_shades_the_past_of_the_event_clicked() {
    let (_dir, out, html) = draw_figure2("figure2.html");
    assert!(
        !html.contains("src=") && !html.contains("href=\"http"),
        "nothing to fetch"
    );
    let execution = reference(FIGURE2_SPEC, FIGURE2_TRACE);
    let url = browser::file_url(&out);
    for clicked in [16usize, 11, 4] {
        let plan = serde_json::json!({"url": url, "clicks": [format!("g.event[data-event=\"{clicked}\"]")]});
        let Some(seen) = browser::inspect(&plan) else {
            return;
        };
        browser::assert_clean(&seen);
        let past: BTreeSet<usize> = execution.causal_past(clicked).into_iter().collect();
        let chart = &seen["charts"][0];
        assert_eq!(seen_with(chart, "shaded"), past, "event {clicked}");
        assert_eq!(seen_with(chart, "in-past"), past, "event {clicked}");
    }
    // Without JavaScript the page shows the same chart for the choice.
    let plan = serde_json::json!({"url": url, "javascript": false});
    if let Some(seen) = browser::inspect(&plan) {
        let text = seen["text"].as_str().unwrap();
        assert!(text.contains("Committer's choice at event 15"), "{text}");
    }
}

#[test]
fn draw_refuses_what_it_cannot_draw_with_a_reason() {
    let dir = scratch("draw");
    let out = dir.path().join("x.svg");
    let out = out.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "examples/code_review/review.hind",
                "--trace",
                "examples/code_review/figure2.jsonl",
                "-o",
                "run.png",
            ],
            "-o run.png: the picture's file name must end in .svg or .html",
        ),
        (
            &[
                "examples/trucks/trucks.hind",
                "--trace",
                "examples/trucks/trucks.jsonl",
                "-o",
                out,
            ],
            "`hindsight draw` draws system traces",
        ),
        (
            &[
                "examples/code_review/review.hind",
                "--trace",
                "examples/code_review/figure2.jsonl",
                "--at",
                "3",
                "-o",
                out,
            ],
            "--at 3: event 3 of examples/code_review/figure2.jsonl is not a choice",
        ),
        (
            &[
                "examples/code_review/review.hind",
                "--trace",
                "examples/trucks/trucks.jsonl",
                "-o",
                out,
            ],
            "examples/trucks/trucks.jsonl:1:",
        ),
    ];
    // 51 choices: more charts than drawn without --at.
    let spec = dir.path().join("one.hind");
    std::fs::write(
        &spec,
        "system one {\n    lifeline L { v: int }\n    guard g at L = v == 1;\n}\n",
    )
    .unwrap();
    let trace = dir.path().join("choices.jsonl");
    std::fs::write(
        &trace,
        "{\"lifeline\": \"L\", \"kind\": \"choice\"}\n".repeat(51),
    )
    .unwrap();
    let many = draw(&[
        spec.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "-o",
        out,
    ]);
    assert_eq!(many.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&many.stderr).contains(
        "51 choices; a chart each is more than 50 copies of the run: pick one with --at"
    ));
    let one = draw(&[
        spec.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--at",
        "50",
        "-o",
        out,
    ]);
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(out)
            .unwrap()
            .matches("<g class=\"chart\"")
            .count(),
        1
    );
    // A receive of a message not in transit: the error `check` gives, in its words and place.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"lifeline\": \"L\", \"kind\": \"recv\", \"msg\": \"m9\"}\n",
    )
    .unwrap();
    let drawn = draw(&[
        spec.to_str().unwrap(),
        "--trace",
        bad.to_str().unwrap(),
        "-o",
        out,
    ]);
    let checked = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args([
            "check",
            spec.to_str().unwrap(),
            "--trace",
            bad.to_str().unwrap(),
        ])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let drawn_error = String::from_utf8_lossy(&drawn.stderr).to_string();
    let checked_error = String::from_utf8_lossy(&checked.stderr).to_string();
    assert_eq!(drawn.status.code(), Some(2));
    assert!(drawn_error.contains(":1:"), "{drawn_error}");
    assert!(
        checked_error.contains(drawn_error.trim().trim_start_matches("error: ")),
        "{drawn_error} / {checked_error}"
    );
    for (args, expected) in cases {
        let run = draw(args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}
