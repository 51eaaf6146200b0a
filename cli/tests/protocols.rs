//! Protocols of system blocks through the `hindsight` binary: central
//! conformance on system traces, `--explain`, `--partition`, and
//! `hindsight partitions`, on the examples of examples/protocols against
//! verdicts and partitions worked out by hand from the DecAMon paper.

use crate::common::{root, run_in, Input, Run};

fn hindsight(args: &[&str]) -> Run {
    run_in(&root(), args, Input::Null)
}

fn lines(run: &Run) -> Vec<&str> {
    run.stdout.lines().collect()
}

/// AIP1: alice meets dave, or carol meets bob, not both. The paper's four
/// minimal partitions pair one of alice, dave with one of bob, carol.
#[test]
fn aip1_partitions_are_the_papers() {
    let run = hindsight(&["partitions", "examples/protocols/aip1.hind"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        lines(&run),
        [
            r#"{"protocol": "aip1", "partition": [["alice"], ["bob"], ["carol", "dave"]]}"#,
            r#"{"protocol": "aip1", "partition": [["alice"], ["bob", "dave"], ["carol"]]}"#,
            r#"{"protocol": "aip1", "partition": [["alice", "bob"], ["carol"], ["dave"]]}"#,
            r#"{"protocol": "aip1", "partition": [["alice", "carol"], ["bob"], ["dave"]]}"#,
        ]
    );
}

/// AIP2: one of alice, aamas (the submissions) with one of carol, dave
/// (`submitted`), the paper's "{{alice, dave}, {aamas}, {carol}}" among
/// them; `--why` names the sequence and where it is written.
#[test]
fn aip2_partitions_and_why() {
    let run = hindsight(&["partitions", "examples/protocols/aip2.hind"]);
    assert_eq!(
        lines(&run),
        [
            r#"{"protocol": "aip2", "partition": [["aamas"], ["alice", "carol"], ["dave"]]}"#,
            r#"{"protocol": "aip2", "partition": [["aamas"], ["alice", "dave"], ["carol"]]}"#,
            r#"{"protocol": "aip2", "partition": [["aamas", "carol"], ["alice"], ["dave"]]}"#,
            r#"{"protocol": "aip2", "partition": [["aamas", "dave"], ["alice"], ["carol"]]}"#,
        ]
    );
    let why = hindsight(&["partitions", "examples/protocols/aip2.hind", "--why"]);
    let first = why.stdout.lines().next().unwrap_or("");
    assert!(
        first.contains(
            r#"{"together": ["alice", "carol"], "condition": "connectedness for sequence", "events": ["alice -> aamas: submit", "carol -> dave: submitted"], "at": "examples/protocols/aip2.hind:"#
        ),
        "{first}"
    );
}

/// The alternating-bit protocol, critical variant: the paper counts 16
/// minimal partitions (Table 1, "abp crit").
#[test]
fn abp_has_the_papers_sixteen_partitions() {
    let run = hindsight(&[
        "partitions",
        "examples/protocols/abp.hind",
        "--protocol",
        "abp",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(lines(&run).len(), 16, "{}", run.stdout);
}

/// Central conformance, worked out from the protocols: AIP1 is complete
/// after either meeting and violated by the second; AIP2 needs a submission
/// before `submitted`; the ABP trace repeats m2 without its
/// acknowledgement at event 16.
#[test]
fn central_verdicts_of_the_example_traces() {
    let check = |spec: &str, trace: &str| {
        let run = hindsight(&["check", spec, "--trace", trace]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        run.stdout
    };
    assert_eq!(
        check(
            "examples/protocols/aip1.hind",
            "examples/protocols/aip1.jsonl"
        ),
        "{\"event\": 0, \"lifeline\": \"alice\", \"aip1\": \"true\"}\n\
         {\"end\": true, \"aip1\": \"true\"}\n"
    );
    assert_eq!(
        check(
            "examples/protocols/aip1.hind",
            "examples/protocols/aip1_both.jsonl"
        ),
        "{\"event\": 0, \"lifeline\": \"alice\", \"aip1\": \"true\"}\n\
         {\"event\": 2, \"lifeline\": \"carol\", \"aip1\": \"false\"}\n\
         {\"end\": true, \"aip1\": \"false\"}\n"
    );
    assert_eq!(
        check(
            "examples/protocols/aip2.hind",
            "examples/protocols/aip2.jsonl"
        ),
        "{\"event\": 0, \"lifeline\": \"alice\", \"aip2\": \"?\"}\n\
         {\"event\": 2, \"lifeline\": \"alice\", \"aip2\": \"?\"}\n\
         {\"event\": 4, \"lifeline\": \"carol\", \"aip2\": \"true\"}\n\
         {\"end\": true, \"aip2\": \"true\"}\n"
    );
    let abp = check(
        "examples/protocols/abp.hind",
        "examples/protocols/abp.jsonl",
    );
    assert!(
        abp.contains("{\"event\": 16, \"lifeline\": \"carol\", \"rounds\": \"false\", \"ack1\": \"?\", \"ack2\": \"false\", \"ack3\": \"true\", \"abp\": \"false\"}\n"),
        "{abp}"
    );
    let review = check(
        "examples/protocols/review.hind",
        "examples/protocols/review.jsonl",
    );
    assert!(
        review.ends_with("{\"end\": true, \"tests\": \"true\", \"review\": \"true\"}\n"),
        "{review}"
    );
}

/// `--explain` names what the protocol expected at a violation.
#[test]
fn a_violation_is_explained_by_the_expected_events() {
    let run = hindsight(&[
        "check",
        "examples/protocols/aip2.hind",
        "--trace",
        "examples/protocols/aip2_early.jsonl",
        "--explain",
    ]);
    assert_eq!(
        lines(&run)[1],
        r#"{"explain": "aip2", "event": 0, "lifeline": "carol", "verdict": "false", "why": "expected `alice -> aamas: submit`"}"#
    );
}

/// Monitored one lifeline each, AIP1's two meetings go unnoticed; with
/// alice and carol together the violation is seen, and
/// `--fail-on-violation` exits 1 for it.
#[test]
fn a_safe_partition_sees_what_lifelines_alone_miss() {
    let spec = "examples/protocols/aip1.hind";
    let trace = "examples/protocols/aip1_both.jsonl";
    let alone = hindsight(&[
        "check",
        spec,
        "--trace",
        trace,
        "--partition",
        r#"[["alice"],["bob"],["carol"],["dave"]]"#,
    ]);
    assert_eq!(
        lines(&alone).last().copied(),
        Some(
            r#"{"end": true, "aip1": "false", "aip1[alice]": "true", "aip1[bob]": "true", "aip1[carol]": "true", "aip1[dave]": "true"}"#
        )
    );
    let together = hindsight(&[
        "check",
        spec,
        "--trace",
        trace,
        "--partition",
        r#"[["alice","carol"],["bob"],["dave"]]"#,
        "--fail-on-violation",
    ]);
    assert_eq!(together.code, Some(1));
    assert_eq!(
        lines(&together)[1],
        r#"{"event": 2, "lifeline": "carol", "aip1": "false", "aip1[alice,carol]": "false", "aip1[bob]": "true", "aip1[dave]": "true"}"#
    );
}

/// In the alternating-bit trace carol sends m2 again before dave's a2 came
/// back (event 16); under one of abp's safe partitions, carol's group sees
/// both messages and no a2 between them, and so does dave's group:
/// both report the violation at that very event, emma's group cannot.
#[test]
fn abp_groups_see_the_repeated_message() {
    let run = hindsight(&[
        "check",
        "examples/protocols/abp.hind",
        "--trace",
        "examples/protocols/abp.jsonl",
        "--partition",
        r#"[["alice","carol"],["bob","emma"],["dave","frank"]]"#,
        "--fail-on-violation",
    ]);
    assert_eq!(run.code, Some(1));
    let at_16 = lines(&run)
        .into_iter()
        .find(|l| l.starts_with(r#"{"event": 16,"#))
        .expect("a line for event 16");
    for expected in [
        r#""abp": "false""#,
        r#""abp[alice,carol]": "false""#,
        r#""abp[bob,emma]": "?""#,
        r#""abp[dave,frank]": "false""#,
    ] {
        assert!(at_16.contains(expected), "{expected} not in {at_16}");
    }
}

#[test]
fn bad_partitions_and_labels_are_refused() {
    let spec = "examples/protocols/aip1.hind";
    let trace = "examples/protocols/aip1.jsonl";
    let refused = |partition: &str| {
        let run = hindsight(&["check", spec, "--trace", trace, "--partition", partition]);
        assert_eq!(run.code, Some(2), "{}", run.stdout);
        run.stderr
    };
    assert!(refused(r#"[["alice"],["eve"]]"#).contains("no lifeline `eve`"));
    assert!(
        refused(r#"[["alice","bob"],["bob"],["carol","dave"]]"#).contains("`bob` is in two groups")
    );
    assert!(refused(r#"[["alice","bob"]]"#).contains("missing: carol, dave"));
    assert!(refused("alice").contains("a JSON list of lists"));
    // A receipt may repeat its send's label, not change it.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("protocols");
    std::fs::create_dir_all(&dir).expect("scratch");
    let mislabelled = dir.join("mislabelled.jsonl");
    std::fs::write(
        &mislabelled,
        "{\"lifeline\": \"alice\", \"kind\": \"send\", \"to\": \"dave\", \"msg\": \"m1\", \"label\": \"meet\"}\n\
         {\"lifeline\": \"dave\", \"kind\": \"recv\", \"msg\": \"m1\", \"label\": \"cancel\"}\n",
    )
    .expect("trace");
    let run = hindsight(&["check", spec, "--trace", &mislabelled.to_string_lossy()]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("message `m1` was sent with label `meet` and received with label `cancel`"),
        "{}",
        run.stderr
    );
}
