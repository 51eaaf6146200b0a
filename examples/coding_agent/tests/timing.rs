//! The rules in time (timing.hind) on the session log: the monitor the build
//! API generated and the one the attribute macro generated print the verdict
//! lines of `timing.out` (which cli/tests/trac_examples.rs checks `hindsight
//! check` prints too), and those lines say what was worked out by hand from
//! the log's timestamps.

use coding_agent_example::{check_with, timing, timing_by_macro};
use hindsight_trace::CheckError;
use std::fs;
use std::path::Path;

fn dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn session() -> Vec<u8> {
    fs::read(dir().join("session.jsonl")).expect("the bundled log")
}

fn expected() -> String {
    fs::read_to_string(dir().join("timing.out")).expect("the bundled verdicts")
}

#[test]
fn build_api_and_macro_monitors_print_the_bundled_verdicts() {
    use timing::coding_agent_timing as by_build;
    use timing_by_macro::coding_agent_timing as by_macro;
    let mut out = Vec::new();
    let checked = check_with(
        &session()[..],
        &mut out,
        &by_build::SCHEMA,
        &mut by_build::Monitor::new(),
    )
    .expect("a valid log");
    assert!(checked.violated && checked.warnings.is_empty());
    assert_eq!(String::from_utf8(out).expect("UTF-8"), expected());
    let mut out = Vec::new();
    check_with(
        &session()[..],
        &mut out,
        &by_macro::SCHEMA,
        &mut by_macro::Monitor::new(),
    )
    .expect("a valid log");
    assert_eq!(String::from_utf8(out).expect("UTF-8"), expected());
}

/// Worked out by hand from the timestamps: the second deploy call (step 14,
/// 14:08:02.646) comes 63.3 s after the last passing tests (14:06:59.307):
/// within 10 minutes, not within one. It never gets the deploy's result: the
/// first step more than 30 s after it (step 17, 14:08:37.501, 34.855 s)
/// decides `deploy_answered` false. Every call gets some result within 30 s.
#[test]
fn the_verdicts_are_those_worked_out_by_hand() {
    let expected = expected();
    let lines: Vec<&str> = expected.lines().collect();
    assert_eq!(lines.len(), 23 + 1);
    let false_at = |property: &str| -> Vec<usize> {
        let needle = format!("\"{property}\": \"false\"");
        (0..23).filter(|&i| lines[i].contains(&needle)).collect()
    };
    assert_eq!(false_at("tested_last_minute"), [14]);
    assert_eq!(false_at("tested_recently"), Vec::<usize>::new());
    assert_eq!(false_at("deploy_answered"), (17..23).collect::<Vec<_>>());
    assert_eq!(false_at("answered"), Vec::<usize>::new());
    assert!(lines[16].contains("\"deploy_answered\": \"?\""));
    let end = lines[23];
    assert!(
        end.starts_with("{\"end\": true, \"answered\": \"true\""),
        "{end}"
    );
    assert!(end.contains("\"deploy_answered\": \"false\""), "{end}");
}

/// A record whose timestamp goes back is refused at its value, naming both times.
#[test]
fn a_timestamp_going_back_is_refused() {
    use timing::coding_agent_timing as by_build;
    let log = concat!(
        r#"{"type": "tool_call", "timestamp": "2026-03-02T14:05:28.484Z", "attributes": {"gen_ai.tool.name": "deploy"}}"#,
        "\n",
        r#"{"type": "tool_result", "timestamp": "2026-03-02T14:05:28Z", "attributes": {"gen_ai.tool.name": "deploy"}}"#,
        "\n"
    );
    let mut out = Vec::new();
    let error = check_with(
        log.as_bytes(),
        &mut out,
        &by_build::SCHEMA,
        &mut by_build::Monitor::new(),
    );
    let Err(CheckError::Trace {
        line,
        column,
        message,
    }) = error
    else {
        panic!("time goes back: {error:?}")
    };
    // Line 2, at the timestamp's opening quote.
    assert_eq!((line, column), (2, Some(38)));
    assert_eq!(
        message,
        "time `ts` (at \"/timestamp\") goes back: 2026-03-02T14:05:28Z is before the previous step's 2026-03-02T14:05:28.484Z"
    );
}
