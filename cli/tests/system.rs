//! End-to-end tests of `hindsight check` on `system` blocks: the binary is run
//! on the paper's code-review scenarios and on the fixtures in
//! `tests/fixtures/system_*` (as the working directory, so paths in messages
//! are short), and on random systems against the CPL reference evaluator of
//! `hindsight-tests` (the causal order by reachability, guards by the
//! denotational definitions). Expected verdicts and error columns of the
//! fixtures are worked out by hand in the comments.

use crate::common::{assert_contains_all, fixtures, run, Run};
use hindsight_tests::cpl::gen::{execution, linearization, system_spec};
use hindsight_tests::cpl::msc::Execution;
use hindsight_tests::cpl::print::{system_source, trace_lines, verdict_lines};
use hindsight_tests::cpl::scenarios;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRng, TestRunner};
use std::path::PathBuf;

/// The code-review system of language.md section 1 (its text is `scenarios::SOURCE`).
const REVIEW: &str = "system_review.hind";

/// `hindsight check REVIEW --trace - [FLAGS]` on `execution` of the code-review system.
fn check_review(execution: &Execution, flags: &[&str]) -> Run {
    let trace = trace_lines(
        &[scenarios::status_enum()],
        &scenarios::code_review(),
        execution,
    );
    let mut args = vec!["check", REVIEW, "--trace", "-"];
    args.extend_from_slice(flags);
    run(&args, &trace)
}

#[test]
fn the_review_fixture_is_the_papers_system() {
    let fixture = std::fs::read_to_string(fixtures().join(REVIEW)).expect("the fixture");
    assert_eq!(fixture, scenarios::SOURCE);
}

/// Figure 2: at the Committer's choice (event 15) both reports for candidate 7
/// are visible and clean; the failure report is still in transit. So
/// `may_merge` holds, and there is no violation.
#[test]
fn figure2_merges() {
    let expected = "{\"event\": 15, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}\n";
    let exec = scenarios::figure2();
    assert_eq!(
        verdict_lines(&scenarios::code_review(), &exec),
        expected,
        "the oracle agrees"
    );
    for flags in [&[][..], &["--fail-on-violation"]] {
        let r = check_review(&exec, flags);
        assert_eq!(r.stdout, expected);
        assert_eq!(r.stderr, "");
        assert_eq!(r.code, Some(0));
    }
}

/// The failure report delivered (event 13) before the merge proposal: at the
/// choice (event 16) the latest visible TestRunner event has status failed,
/// so `may_merge` is false. A guard is a decision, not a property: a false
/// guard is no violation, so `--fail-on-violation` still exits 0.
#[test]
fn failure_delivered_first_blocks() {
    let expected = "{\"event\": 16, \"lifeline\": \"Committer\", \"may_merge\": \"false\"}\n";
    let exec = scenarios::failure_delivered_first();
    assert_eq!(verdict_lines(&scenarios::code_review(), &exec), expected);
    let r = check_review(&exec, &[]);
    assert_eq!((r.stdout.as_str(), r.code), (expected, Some(0)));
    let r = check_review(&exec, &["--fail-on-violation"]);
    assert_eq!((r.stdout.as_str(), r.code), (expected, Some(0)));
    assert_eq!(r.stderr, "");
}

/// The other scenarios, with their decisions from tests/cpl_reference.rs:
/// a pass overtaken by a later failure blocks (the failure is visible), a stale
/// report for an older candidate does not hide the newer pass, a report for
/// the wrong candidate blocks, and no visible report blocks.
#[test]
fn the_other_scenarios_decide_as_the_paper_says() {
    let cases = [
        (scenarios::pass_overtaken_by_failure(), 16, "false"),
        (scenarios::stale_report_for_older_candidate(), 19, "true"),
        (scenarios::wrong_candidate(), 14, "false"),
        (scenarios::no_report_yet(), 12, "false"),
    ];
    for (exec, event, verdict) in cases {
        let expected = format!(
            "{{\"event\": {event}, \"lifeline\": \"Committer\", \"may_merge\": \"{verdict}\"}}\n"
        );
        assert_eq!(verdict_lines(&scenarios::code_review(), &exec), expected);
        let r = check_review(&exec, &[]);
        assert_eq!(
            (r.stdout, r.stderr, r.code),
            (expected, String::new(), Some(0))
        );
    }
}

/// Every `system_*.jsonl` error fixture starts with the same four lines:
/// the Committer's choice (event 0: nothing visible, so `TestRunner.cand` is
/// undefined and `may_merge` false), a blank line (counted in line numbers,
/// not in event numbers), a send and its receive; line 5 is bad, and a
/// choice follows that must not be reported.
const BEFORE_THE_ERROR: &str =
    "{\"event\": 0, \"lifeline\": \"Committer\", \"may_merge\": \"false\"}\n";

/// Columns, counted by hand in the bad lines (1-based, at the value or key the
/// error is about):
/// - unknown_msg `{"lifeline": "Committer", "kind": "recv", "msg": "m9"}`: `"m9"` at 50.
/// - second_recv: the same line with `"m1"`, received on line 4.
/// - send_undeclared `{"lifeline": "TestRunner", "kind": "send", "to": "Auditor", ...`:
///   `"Auditor"` at 50.
/// - unknown_var `... "kind": "act", "store": {"verdict": "passed"}}`: the key at 53.
/// - wrong_type `... "store": {"cand": "seven"}}`: `"seven"` at 61.
/// - malformed `{"lifeline": "Committer", "kind": "choice"` (42 characters):
///   the end of the line, 42.
/// - wrong_receiver: line 5 sends m2 to the Committer, line 6
///   `{"lifeline": "Security", "kind": "recv", "msg": "m2"}` has `"m2"` at 49.
#[test]
fn trace_errors_are_placed_and_stop_the_run() {
    let cases = [
        (
            "unknown_msg",
            "5:50: no message `m9` in transit: it was never sent or was already received",
        ),
        (
            "second_recv",
            "5:50: no message `m1` in transit: it was never sent or was already received",
        ),
        (
            "send_undeclared",
            "5:50: send to an undeclared lifeline `Auditor` \
             (the lifelines are: Orchestrator, TestRunner, Security, Committer)",
        ),
        (
            "unknown_var",
            "5:53: lifeline `TestRunner` has no variable `verdict` (its variables are: cand, status)",
        ),
        (
            "wrong_type",
            "5:61: variable `cand` of lifeline `TestRunner` expects int, found string \"seven\"",
        ),
        ("malformed", "5:42: malformed JSON: EOF while parsing an object"),
        (
            "wrong_receiver",
            "6:49: message `m2` was sent to `Committer`, received by `Security`",
        ),
    ];
    for (name, error) in cases {
        let trace = format!("system_{name}.jsonl");
        for flags in [&[][..], &["--fail-on-violation"]] {
            let mut args = vec!["check", REVIEW, "--trace", trace.as_str()];
            args.extend_from_slice(flags);
            let r = run(&args, "");
            assert_eq!(r.stdout, BEFORE_THE_ERROR, "{name}");
            assert_eq!(r.stderr, format!("error: {trace}:{error}\n"), "{name}");
            assert_eq!(r.code, Some(2), "{name}");
        }
    }
}

/// `hindsight check system_mixed.hind --trace system_pair.jsonl`, with
/// `--block BLOCK` when a block is named, then `flags`.
fn check_system_pair(block: Option<&str>, flags: &[&str]) -> Run {
    let mut args = vec!["check", "system_mixed.hind", "--trace", "system_pair.jsonl"];
    if let Some(block) = block {
        args.extend(["--block", block]);
    }
    args.extend_from_slice(flags);
    run(&args, "")
}

/// system_mixed.hind has a monitor `door` and a system `pair`:
/// `knows at B = A.x == 1`, `fresh at B = !seen`. In system_pair.jsonl, B's
/// first choice (event 0) sees no A-event (`A.x` undefined: knows false) and
/// `seen` unassigned (a bool variable holds only when defined and true: fresh
/// true); A sets x = 1 and sends to B, which receives with seen = true and
/// chooses (event 5): knows true, fresh false. A's choice (event 3) is not
/// reported: A owns no guards.
#[test]
fn block_names_a_monitor_or_a_system() {
    let expected = "\
{\"event\": 0, \"lifeline\": \"B\", \"knows\": \"false\", \"fresh\": \"true\"}
{\"event\": 5, \"lifeline\": \"B\", \"knows\": \"true\", \"fresh\": \"false\"}
";
    let r = check_system_pair(Some("pair"), &[]);
    assert_eq!((r.stdout.as_str(), r.code), (expected, Some(0)));
    // A false guard is a decision, not a violation.
    let r = check_system_pair(Some("pair"), &["--fail-on-violation"]);
    assert_eq!((r.stdout.as_str(), r.code), (expected, Some(0)));

    let door = ["check", "system_mixed.hind", "--block", "door"];
    let r = run(
        &[&door[..], &["--trace", "-"]].concat(),
        "{\"open\": true}\n",
    );
    assert_eq!(
        r.stdout,
        "{\"step\": 0, \"opened\": \"true\"}\n\
         {\"end\": true, \"opened\": \"true\", \"opened.false_steps\": 0, \"opened.first_false\": null}\n"
    );

    let r = check_system_pair(None, &[]);
    assert_eq!((r.stdout.as_str(), r.code), ("", Some(2)));
    assert_eq!(
        r.stderr,
        "error: system_mixed.hind: several monitor or system blocks; choose one with \
         `--block NAME` (monitor blocks: `door`; system blocks: `pair`)\n"
    );
    let r = check_system_pair(Some("nope"), &[]);
    assert_eq!((r.stdout.as_str(), r.code), ("", Some(2)));
    assert_eq!(
        r.stderr,
        "error: system_mixed.hind: no monitor or system block named `nope` \
         (monitor blocks: `door`; system blocks: `pair`)\n"
    );
}

#[test]
fn a_stamp_key_is_32_bytes_raw_or_in_hex() {
    let exec = scenarios::figure2();
    let expected = "{\"event\": 15, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}\n";
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("stamp_keys");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let raw = dir.join("raw.key");
    std::fs::write(&raw, [7u8; 32]).expect("written");
    let r = check_review(&exec, &["--stamp-key-file", raw.to_str().expect("UTF-8")]);
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str(), r.code),
        (expected, "", Some(0))
    );
    let short = dir.join("short.key");
    std::fs::write(&short, "abcd").expect("written");
    let r = check_review(&exec, &["--stamp-key-file", short.to_str().expect("UTF-8")]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.ends_with(
            "short.key` as a stamp key: a key is 32 bytes, raw or as 64 hexadecimal digits \
             (4 bytes found)\n"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout, "");
}

/// `--explain` on a system: after each choice, one line per guard with its
/// parts' values and, per other lifeline, the last of its events the chooser
/// sees. By hand on system_pair.jsonl: at event 0 B has seen nothing of A
/// (`A.x` undefined); at event 5 it has received A's send (event 2), so it
/// sees A's events up to 2 but not A's choice at event 3.
#[test]
fn explain_gives_each_guard_its_parts_and_the_events_seen() {
    let r = check_system_pair(Some("pair"), &["--explain"]);
    assert_eq!((r.stderr.as_str(), r.code), ("", Some(0)));
    assert_eq!(
        r.stdout,
        "\
{\"event\": 0, \"lifeline\": \"B\", \"knows\": \"false\", \"fresh\": \"true\"}
{\"explain\": \"knows\", \"event\": 0, \"lifeline\": \"B\", \"verdict\": \"false\", \"why\": \"defined(A.x) = false, A.x == 1 = false; sees no event of A\"}
{\"explain\": \"fresh\", \"event\": 0, \"lifeline\": \"B\", \"verdict\": \"true\", \"why\": \"defined(seen) = false, seen = false; sees no event of A\"}
{\"event\": 5, \"lifeline\": \"B\", \"knows\": \"true\", \"fresh\": \"false\"}
{\"explain\": \"knows\", \"event\": 5, \"lifeline\": \"B\", \"verdict\": \"true\", \"why\": \"defined(A.x) = true, A.x == 1 = true; sees A up to event 2\"}
{\"explain\": \"fresh\", \"event\": 5, \"lifeline\": \"B\", \"verdict\": \"false\", \"why\": \"defined(seen) = true, seen = true; sees A up to event 2\"}
"
    );
}

/// The stamp of the review system, by docs/cpl.md: 9 header bytes, 4 clock
/// components of 8 bytes, one byte of bits for the 4 entries and 8 bytes for
/// each of the two int entries: 58 bytes. Only the Committer reads entries;
/// the TestRunner and Security each export their clean-since formula and `cand`.
#[test]
fn explain_shows_the_stamp_layout_and_the_lifeline_tables() {
    let r = run(&["explain", REVIEW], "");
    assert_eq!((r.stderr.as_str(), r.code), ("", Some(0)));
    assert_contains_all(
        &r.stdout,
        &[
        ": 0 monitors, 0 properties (0 past-time, 0 future-time), 1 system (1 guard), compiled in ",
        "\nsystem review: 4 lifelines, 1 guard\n\
         stamp of system review: 4 clock components, 4 view entries, at most 62 bytes\n\
         \x20 clock: Orchestrator, TestRunner, Security, Committer\n",
        "TestRunner.cand\n",
        "\nlifeline Orchestrator: guards none; exports none; reads none\n",
        "\nlifeline TestRunner: guards none; exports e0, e1; reads none\n",
        "\nlifeline Security: guards none; exports e2, e3; reads none\n",
        "\nlifeline Committer: guards may_merge; exports none; reads e0, e1, e2, e3\n\
         monitor Committer: 8 inputs,",
        "outputs: may_merge = s",
        ],
    );
    let r = run(&["explain", "system_mixed.hind", "--block", "pair"], "");
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("\nsystem pair: 2 lifelines, 2 guards\n"));
    assert!(!r.stdout.contains("monitor door"), "{}", r.stdout);
}

/// Random cases of the differential test: each spawns the binary once.
const RANDOM_CASES: u32 = 500;

/// `hindsight check` on random systems (2-4 lifelines, 1-3 guards with `@M`,
/// `M.x` and past operators) and random executions (non-FIFO delivery, messages
/// left in transit, random store changes) in a random linearization prints,
/// byte for byte, the verdict lines of the reference evaluator. Fixed seed.
#[test]
fn check_equals_the_reference_on_random_systems() {
    let config = Config {
        cases: RANDOM_CASES,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let cases = system_spec()
        .prop_flat_map(|spec| {
            let exec = execution(&spec.systems[0], 30);
            (proptest::strategy::Just(spec), exec)
        })
        .prop_flat_map(|(spec, exec)| {
            let order = linearization(&exec);
            (
                proptest::strategy::Just(spec),
                proptest::strategy::Just(exec),
                order,
            )
        });
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("system_differential");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let spec_path = dir.join("random.hind");
    let spec_arg = spec_path.to_str().expect("a UTF-8 path");
    let key_path = dir.join("stamp.key");
    std::fs::write(
        &key_path,
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n",
    )
    .expect("the key is written");
    let key_arg = key_path.to_str().expect("a UTF-8 path");
    let mut choices = 0;
    for case in 0..RANDOM_CASES {
        let tree = cases.new_tree(&mut runner).expect("a case");
        let (spec, exec, order) = tree.current();
        let system = &spec.systems[0];
        let exec = exec.reordered(&order).expect("a linear extension");
        let source = system_source(&spec.enums, system).expect("no counts are generated");
        std::fs::write(&spec_path, &source).expect("the spec is written");
        let trace = trace_lines(&spec.enums, system, &exec);
        let expected = verdict_lines(system, &exec);
        choices += expected.lines().count();
        let r = run(&["check", spec_arg, "--trace", "-"], &trace);
        // Random executions need not set every variable nor make every
        // choice: warnings about that are expected, errors never.
        assert!(
            r.stdout == expected && !r.stderr.contains("error") && r.code == Some(0),
            "case {case}: hindsight check differs from the reference\n\
             spec:\n{source}\ntrace:\n{trace}\nexpected:\n{expected}\ngot:\n{}\n\
             stderr:\n{}\nstatus {:?}",
            r.stdout,
            r.stderr,
            r.code
        );
        // Every fourth case again with stamps carried as sealed bytes: the
        // encoding, the seal and its check change no verdict.
        if case % 4 == 0 {
            let sealed = run(
                &[
                    "check",
                    spec_arg,
                    "--trace",
                    "-",
                    "--stamp-key-file",
                    key_arg,
                ],
                &trace,
            );
            assert_eq!(
                (sealed.stdout.as_str(), sealed.stderr.as_str(), sealed.code),
                (expected.as_str(), r.stderr.as_str(), Some(0)),
                "case {case} with sealed stamps"
            );
        }
    }
    // The cases must exercise the output: most executions have reported choices.
    assert!(choices > RANDOM_CASES as usize, "{choices} verdict lines");
}

#[test]
fn check_help_documents_system_blocks() {
    let r = run(&["check", "--help"], "");
    assert_eq!(r.code, Some(0));
    assert_contains_all(
        &r.stdout,
        &[
            "The monitor, system or population block to run",
            "or run a system block over a\nsystem trace",
            "SYSTEM TRACE FORMAT",
            "{\"event\": 7, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}",
            "On a system block, each choice line is followed by one line per guard",
            "POPULATION TRACE FORMAT",
            "hindsight check review.hind --block review --trace events.jsonl",
        ],
    );
}
