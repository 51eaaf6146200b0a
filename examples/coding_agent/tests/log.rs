//! The generated monitor, reading the session log through its SCHEMA (the
//! spec's pointers, defaults and step filter), gives the verdicts worked out
//! by hand in the example's README (and checked for `hindsight check` in
//! cli/tests/trac_examples.rs).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

#[test]
fn the_generated_monitor_reads_the_session_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let log = BufReader::new(File::open(dir.join("session.jsonl")).expect("the bundled log"));
    let mut out = Vec::new();
    let checked = coding_agent_example::check_log(log, &mut out).expect("a valid log");
    assert!(checked.violated);
    assert_eq!(checked.warnings, Vec::<String>::new());
    let out = String::from_utf8(out).expect("UTF-8");
    // 23 steps out of 39 records, then the end line.
    assert_eq!(out.lines().count(), 23 + 1);
    let deploy_false: Vec<usize> = out
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("\"deploy_gated\": \"false\"") && l.starts_with("{\"step\""))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(deploy_false, [14]);
    assert_eq!(
        out.lines().last(),
        Some(
            "{\"end\": true, \"deploy_gated\": \"false\", \"deploy_gated.false_steps\": 1, \
             \"deploy_gated.first_false\": 14, \"calls_answered\": \"true\", \
             \"calls_answered.satisfactions\": 1, \"calls_answered.violations\": 1, \
             \"calls_answered.false_steps\": 1, \"calls_answered.first_false\": 15, \
             \"no_third_retry\": \"false\", \"no_third_retry.false_steps\": 1, \
             \"no_third_retry.first_false\": 21}"
        )
    );
}

/// A log of another shape: no steps, and the pointers named in the warnings
/// a program gets back, with the closest keys seen.
#[test]
fn a_log_of_another_shape_is_warned_about() {
    let log = "{\"type\": \"tool_call\", \"attrs\": {\"tool\": \"deploy\"}}\n";
    let mut out = Vec::new();
    let checked =
        coding_agent_example::check_log(log.as_bytes(), &mut out).map_err(|e| format!("{e:?}"));
    // The only step lacks the tool: the record is refused at line 1.
    assert!(checked.is_err_and(|e| e.contains("missing input `tool`")));
    let log = "{\"type\": \"log\", \"attributes\": {\"gen_ai.tool.nme\": \"deploy\"}}\n";
    let checked = coding_agent_example::check_log(log.as_bytes(), &mut out).expect("no steps");
    assert!(!checked.violated);
    assert!(checked.warnings.iter().any(|w| w
        == "input `tool` reads \"/attributes/gen_ai.tool.name\", which no line had a value at; \
            did you mean \"/attributes/gen_ai.tool.nme\"?"));
}
