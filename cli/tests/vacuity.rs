//! No silent pass: a run that checked nothing says so on stderr and, with
//! `--fail-on-violation`, exits 3 (`--allow-vacuous` exits 0); a run that
//! checked everything says nothing more. Every block kind, every way to
//! match nothing (docs/language.md, "Vacuous runs").

use crate::common::{run_in, scratch, Input, Run};
use std::fs;
use std::path::Path;

/// `hindsight check SPEC --trace TRACE EXTRA...` with both written in `dir`.
fn check_texts(dir: &Path, spec: &str, trace: &str, extra: &[&str]) -> Run {
    fs::write(dir.join("spec.hind"), spec).expect("the spec");
    fs::write(dir.join("trace.jsonl"), trace).expect("the trace");
    let mut args = vec!["check", "spec.hind", "--trace", "trace.jsonl"];
    args.extend_from_slice(extra);
    run_in(dir, &args, Input::Null)
}

/// The three runs of a trace: plain, `--fail-on-violation` and with
/// `--allow-vacuous`; their exit statuses.
fn statuses(dir: &Path, spec: &str, trace: &str) -> [Option<i32>; 3] {
    [
        check_texts(dir, spec, trace, &[]).code,
        check_texts(dir, spec, trace, &["--fail-on-violation"]).code,
        check_texts(
            dir,
            spec,
            trace,
            &["--fail-on-violation", "--allow-vacuous"],
        )
        .code,
    ]
}

/// The closing warning of a vacuous run, after its counts.
const CLOSING: &str = "its verdicts say nothing about what was not checked \
    (--fail-on-violation exits 3 for it; --allow-vacuous accepts it)";

const MONITOR: &str = r#"
enum Tool { read_file, deploy }
monitor agent {
    steps where "/type" == "tool_call";
    input tool: Tool from "/attributes/gen_ai.tool.name";
    input ok: bool from "/attributes/ok" default true;
    property deploy_ok = tool == deploy -> ok;
}
"#;

#[test]
fn a_monitor_whose_filter_holds_on_no_line_is_vacuous() {
    let held = scratch("vacuous-monitor");
    let dir = held.path();
    // A log of another convention: `kind`, not `type`; no attributes.
    let trace = "{\"kind\": \"tool_call\", \"tool\": \"deploy\"}\n{\"kind\": \"tool_call\", \"tool\": \"read_file\"}\n";
    let run = check_texts(dir, MONITOR, trace, &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "warning: trace.jsonl: none of its 2 lines gave a step: nothing was checked (the step \
             filter held on none of them)\n\
             warning: trace.jsonl: input `tool` reads \"/attributes/gen_ai.tool.name\", which no \
             line had a value at; keys seen at the top level: kind, tool\n\
             warning: trace.jsonl: input `ok` reads \"/attributes/ok\", which no line had a value \
             at; keys seen at the top level: kind, tool\n\
             warning: trace.jsonl: the step filter reads \"/type\", which no line had a value at; \
             keys seen at the top level: kind, tool\n\
             warning: vacuous run: 1 trace or session gave no step, 3 places of the spec matched \
             no line; {CLOSING}\n"
        )
    );
    // The end line is printed as before: the verdicts of an empty run.
    assert!(run.stdout.starts_with("{\"end\": true"), "{}", run.stdout);
    assert_eq!(statuses(dir, MONITOR, trace), [Some(0), Some(3), Some(0)]);
    // The summary's total counts the vacuous trace and the places.
    let summary = check_texts(dir, MONITOR, trace, &["--summary"]);
    let total = summary.stdout.lines().last().unwrap_or_default();
    assert!(
        total.contains("\"errors\": 0, \"vacuous\": 1, \"unmatched\": 3,"),
        "{total}"
    );
}

#[test]
fn a_monitor_that_matched_everything_says_nothing_more() {
    let held = scratch("vacuous-monitor-clean");
    let dir = held.path();
    let trace = "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"ok\": false}}\n\
                 {\"type\": \"heartbeat\"}\n";
    let run = check_texts(dir, MONITOR, trace, &["--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(1)));
    let clean = "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"ok\": true}}\n";
    let run = check_texts(dir, MONITOR, clean, &["--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
}

#[test]
fn an_input_matched_in_one_trace_only_is_information_not_vacuity() {
    let held = scratch("vacuous-two-traces");
    let dir = held.path();
    fs::write(dir.join("spec.hind"), MONITOR).expect("the spec");
    let with_ok = "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"ok\": true}}\n";
    let without =
        "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"read_file\"}}\n";
    fs::write(dir.join("a.jsonl"), with_ok).expect("a");
    fs::write(dir.join("b.jsonl"), without).expect("b");
    let args = [
        "check",
        "spec.hind",
        "--trace",
        "a.jsonl",
        "--trace",
        "b.jsonl",
        "--fail-on-violation",
    ];
    let run = run_in(dir, &args, Input::Null);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "warning: input `ok` reads \"/attributes/ok\", which no line had a value at; keys seen \
         under \"/attributes\": gen_ai.tool.name (in 1 of 2 traces)\n"
    );
    // Absent from both: vacuous.
    fs::write(dir.join("a.jsonl"), without).expect("a");
    let run = run_in(dir, &args, Input::Null);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(run.stderr.contains("(in every trace)"), "{}", run.stderr);
}

#[test]
fn a_plain_input_absent_from_every_step_is_vacuous() {
    let held = scratch("vacuous-plain");
    let dir = held.path();
    let spec = "monitor m { input a: bool; input b: bool default false; property p = a -> !b; }";
    let run = check_texts(
        dir,
        spec,
        "{\"a\": true}\n{\"a\": false}\n",
        &["--fail-on-violation"],
    );
    assert_eq!(run.code, Some(3));
    assert!(
        run.stderr.starts_with(
            "warning: trace.jsonl: input `b` was absent from every step (each took its default)\n"
        ),
        "{}",
        run.stderr
    );
    let run = check_texts(
        dir,
        spec,
        "{\"a\": true}\n{\"a\": false, \"b\": false}\n",
        &["--fail-on-violation"],
    );
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
    // An empty trace: nothing was checked.
    let run = check_texts(dir, spec, "", &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3));
    assert!(
        run.stderr
            .starts_with("warning: trace.jsonl: the trace is empty: nothing was checked\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_keyed_log_whose_sessions_never_end_is_told_so() {
    let held = scratch("vacuous-session-end");
    let dir = held.path();
    let spec = r#"monitor m {
        sessions end where "/type" == "session.end";
        input a: bool from "/a" default true;
        property p = a;
    }"#;
    let trace = "{\"s\": 1, \"a\": true}\n{\"s\": 2, \"a\": true}\n{\"s\": 1, \"type\": \"end\"}\n";
    let run = check_texts(dir, spec, trace, &["--key", "/s", "--fail-on-violation"]);
    assert_eq!(run.code, Some(3));
    assert!(
        run.stderr.starts_with(
            "warning: trace.jsonl: the session end filter held on no line (every session ended \
             only with its log)\n"
        ),
        "{}",
        run.stderr
    );
    let ended = trace.replace("\"end\"", "\"session.end\"");
    let run = check_texts(dir, spec, &ended, &["--key", "/s", "--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
}

const SYSTEM: &str = r#"
enum Status { pending, passed, failed }
system review {
    lifeline Runner { status: Status }
    lifeline Committer { cand: int }
    guard may_merge at Committer = @Runner (status == passed);
}
"#;

#[test]
fn a_system_whose_variables_and_choices_never_came_is_vacuous() {
    let held = scratch("vacuous-system");
    let dir = held.path();
    // The runner acts without its status; the committer never chooses.
    let trace = "{\"lifeline\": \"Runner\", \"kind\": \"act\"}\n\
                 {\"lifeline\": \"Runner\", \"kind\": \"send\", \"to\": \"Committer\", \"msg\": \"m\"}\n\
                 {\"lifeline\": \"Committer\", \"kind\": \"recv\", \"msg\": \"m\"}\n";
    let run = check_texts(dir, SYSTEM, trace, &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "warning: trace.jsonl: lifeline `Runner`'s variable `status` was set by no event (it \
             stayed undefined)\n\
             warning: trace.jsonl: lifeline `Committer`'s variable `cand` was set by no event (it \
             stayed undefined)\n\
             warning: trace.jsonl: lifeline `Committer` made no choice: its guards (may_merge) \
             were never evaluated\n\
             warning: vacuous run: 3 places of the spec matched no line; {CLOSING}\n"
        )
    );
    assert_eq!(statuses(dir, SYSTEM, trace), [Some(0), Some(3), Some(0)]);
    // An empty system trace.
    let run = check_texts(dir, SYSTEM, "", &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3));
    assert!(
        run.stderr
            .starts_with("warning: trace.jsonl: the trace is empty: nothing was checked\n"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_system_that_matched_everything_says_nothing_more() {
    let held = scratch("vacuous-system-clean");
    let dir = held.path();
    let trace = "{\"lifeline\": \"Runner\", \"kind\": \"act\", \"store\": {\"status\": \"passed\"}}\n\
                 {\"lifeline\": \"Runner\", \"kind\": \"send\", \"to\": \"Committer\", \"msg\": \"m\"}\n\
                 {\"lifeline\": \"Committer\", \"kind\": \"recv\", \"msg\": \"m\"}\n\
                 {\"lifeline\": \"Committer\", \"kind\": \"choice\", \"store\": {\"cand\": 7}}\n";
    let run = check_texts(dir, SYSTEM, trace, &["--fail-on-violation"]);
    assert_eq!(
        (run.stdout.as_str(), run.stderr.as_str(), run.code),
        (
            "{\"event\": 3, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}\n",
            "",
            Some(0)
        )
    );
}

const PROTOCOL: &str = r#"
system meet {
    lifeline alice {}
    lifeline dave {}
    protocol rounds = alice -> dave: meet . rounds + skip;
}
"#;

#[test]
fn a_protocol_that_constrained_no_event_is_vacuous() {
    let held = scratch("vacuous-protocol");
    let dir = held.path();
    // Messages, none of them a `meet`: the protocol constrains none... and
    // one `act`; `rounds` accepts the empty run.
    let trace = "{\"lifeline\": \"alice\", \"kind\": \"act\"}\n";
    let run = check_texts(dir, PROTOCOL, trace, &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3), "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "warning: trace.jsonl: no message event was one the protocols (rounds) constrain\n\
             warning: vacuous run: 1 place of the spec matched no line; {CLOSING}\n"
        )
    );
    let conforms = "{\"lifeline\": \"alice\", \"kind\": \"send\", \"to\": \"dave\", \"msg\": \"m1\", \"label\": \"meet\"}\n\
                    {\"lifeline\": \"dave\", \"kind\": \"recv\", \"msg\": \"m1\"}\n";
    let run = check_texts(dir, PROTOCOL, conforms, &["--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
}

const POPULATION: &str = r#"
population town {
    capacity 100;
    agent { sick: bool }
    global { day: int }
    property nobody_sick = forall a in agents: !a.sick;
}
"#;

#[test]
fn a_population_without_steps_or_agents_is_vacuous() {
    let held = scratch("vacuous-population");
    let dir = held.path();
    let run = check_texts(dir, POPULATION, "", &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!(
            "warning: trace.jsonl: the trace is empty: nothing was checked\n\
             warning: vacuous run: 1 trace or session gave no step; {CLOSING}\n"
        )
    );
    // Steps, but no agent in any: every quantifier ranged over none.
    let empty = "{\"agents\": [], \"globals\": {\"day\": 1}}\n";
    let run = check_texts(dir, POPULATION, empty, &["--fail-on-violation"]);
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "warning: trace.jsonl: no step had an agent: every quantifier ranged over none\n"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(
        statuses(dir, POPULATION, empty),
        [Some(0), Some(3), Some(0)]
    );
    let full = "{\"agents\": [{\"sick\": false}], \"globals\": {\"day\": 1}}\n";
    let run = check_texts(dir, POPULATION, full, &["--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
}

#[test]
fn a_violation_outranks_vacuity_and_an_error_outranks_both() {
    let held = scratch("vacuous-ranks");
    let dir = held.path();
    fs::write(dir.join("spec.hind"), MONITOR).expect("the spec");
    // a: a violation; b: nothing checked; c: a bad line.
    let violation = "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"ok\": false}}\n";
    fs::write(dir.join("a.jsonl"), violation).expect("a");
    fs::write(dir.join("b.jsonl"), "{\"type\": \"heartbeat\"}\n").expect("b");
    fs::write(
        dir.join("c.jsonl"),
        "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": 7}}\n",
    )
    .expect("c");
    let with = |traces: &[&str]| {
        let mut args = vec!["check", "spec.hind", "--fail-on-violation"];
        for t in traces {
            args.extend_from_slice(&["--trace", t]);
        }
        run_in(dir, &args, Input::Null).code
    };
    assert_eq!(with(&["b.jsonl"]), Some(3));
    assert_eq!(with(&["a.jsonl", "b.jsonl"]), Some(1));
    assert_eq!(with(&["b.jsonl", "a.jsonl"]), Some(1));
    assert_eq!(with(&["a.jsonl", "b.jsonl", "c.jsonl"]), Some(2));
    assert_eq!(with(&["c.jsonl", "b.jsonl"]), Some(2));
}

#[test]
fn an_export_read_as_json_lines_is_refused_with_the_flag_to_use() {
    let held = scratch("vacuous-sniff");
    let dir = held.path();
    let export = r#"{"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": []}]}"#;
    let run = check_texts(dir, MONITOR, export, &[]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: trace.jsonl:1:1: this is an OpenTelemetry export (OTLP/JSON: its lines hold \
         `resourceSpans`), not JSON Lines of steps; read it with --format otlp\n"
    );
    // The same for a system and a population.
    for spec in [SYSTEM, POPULATION] {
        let run = check_texts(dir, spec, export, &[]);
        assert_eq!(run.code, Some(2));
        assert!(
            run.stderr.contains("read it with --format otlp"),
            "{}",
            run.stderr
        );
    }
    // A monitor that reads an export's own fields reads it as lines.
    let raw = r#"monitor raw { input n: int from present("/resourceSpans") ; property p = true; }"#;
    let raw = raw.replace("int from present", "bool from present");
    let run = check_texts(dir, &raw, export, &["--fail-on-violation"]);
    assert_eq!((run.stderr.as_str(), run.code), ("", Some(0)));
}

#[test]
fn a_block_with_nothing_to_check_is_vacuous() {
    let held = scratch("vacuous-nothing");
    let dir = held.path();
    let expected = format!(
        "warning: trace.jsonl: the block has no property (nor guard, nor protocol): its lines \
         were read but nothing was checked\n\
         warning: vacuous run: 1 place of the spec matched no line; {CLOSING}\n"
    );
    let monitor = "monitor m { input a: bool; }";
    let run = check_texts(dir, monitor, "{\"a\": true}\n", &["--fail-on-violation"]);
    assert_eq!(
        (run.stderr.as_str(), run.code),
        (expected.as_str(), Some(3))
    );
    let system = "system s { lifeline A { x: int } }";
    let trace = "{\"lifeline\": \"A\", \"kind\": \"act\", \"store\": {\"x\": 1}}\n";
    let run = check_texts(dir, system, trace, &["--fail-on-violation"]);
    assert_eq!(
        (run.stderr.as_str(), run.code),
        (expected.as_str(), Some(3))
    );
    let population = "population p { agent { a: bool } }";
    let trace = "{\"agents\": [{\"a\": true}]}\n";
    let run = check_texts(dir, population, trace, &["--fail-on-violation"]);
    assert_eq!(
        (run.stderr.as_str(), run.code),
        (expected.as_str(), Some(3))
    );
}
