//! The agent-log examples (examples/trac/, examples/coding_agent/), run
//! through the `hindsight` binary, against verdicts worked out by hand from
//! the rules and the logs. Each example's README walks through the same steps
//! in prose.
//!
//! A verdict column is written one character per step: `1` true, `0` false,
//! `?` undecided. Step numbers are 0-based, as in the output.

use crate::common::check_from_root;

/// The verdict lines of a run that succeeded without diagnostics.
fn verdicts(spec: &str, trace: &str) -> String {
    let out = check_from_root(spec, trace, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "unexpected diagnostics:\n{stderr}");
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The raw JSON value of `key` on `line` (`"false"` with its quotes, or `2`).
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let tag = format!("\"{key}\": ");
    let at = line
        .find(&tag)
        .unwrap_or_else(|| panic!("{key} missing: {line}"))
        + tag.len();
    let rest = &line[at..];
    let len = rest.find([',', '}']).unwrap_or(rest.len());
    &rest[..len]
}

/// The verdicts of `property` on every step line, one character per step.
fn column(stdout: &str, property: &str) -> String {
    stdout
        .lines()
        .filter(|l| l.starts_with("{\"step\""))
        .map(|l| match field(l, property) {
            "\"true\"" => '1',
            "\"false\"" => '0',
            "\"?\"" => '?',
            other => panic!("bad verdict {other} for {property}"),
        })
        .collect()
}

/// The end line of a run.
fn end_line(stdout: &str) -> &str {
    let end = stdout.lines().last().expect("end line");
    assert!(end.starts_with("{\"end\": true"), "{end}");
    end
}

/// Asserts the end verdict of `property` and, for a `with reset` one, its counts.
fn assert_end(end: &str, property: &str, verdict: &str, counts: Option<(u32, u32)>) {
    assert_eq!(field(end, property), format!("\"{verdict}\""), "{property}");
    let sat_key = format!("{property}.satisfactions");
    match counts {
        Some((satisfactions, violations)) => {
            assert_eq!(field(end, &sat_key), satisfactions.to_string(), "{sat_key}");
            let viol_key = format!("{property}.violations");
            assert_eq!(field(end, &viol_key), violations.to_string(), "{viol_key}");
        }
        None => assert!(
            !end.contains(&format!("\"{sat_key}\"")),
            "{property} has no counts"
        ),
    }
}

/// examples/trac/textworld/agent.jsonl, step by step:
///  0 open fridge  1 take carrot  2 examine carrot  3 take knife  4 examine knife
///  5 slice carrot  6 take potato  7 drop carrot  8 take pepper  9 examine pepper
/// 10 drop knife  11 take knife  12 examine knife  13 cook potato  14 go east
/// 15 look  16 dice pepper  17 take cookbook
#[test]
fn textworld_rules() {
    let spec = "examples/trac/textworld/textworld.hind";
    let out = verdicts(spec, "examples/trac/textworld/agent.jsonl");
    //          step: 012345678901234567
    let expected = [
        // 6 takes the potato, 7 drops instead of examining; the run restarts at 8.
        ("examine_after_take", "???????0??????????"),
        // The knife taken at 3 slices at 5; the one taken at 11 is unused by 15.
        ("knife_used", "???????????????0??"),
        // Drops at 7 and 10, each decided at once.
        ("no_drop", "???????0??0???????"),
        // Not reset: leaving at 14 decides the rule for good.
        ("stay_in_kitchen", "??????????????0000"),
        // Nothing is eaten: only the end can say so.
        ("eats_meal", "??????????????????"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
    let end = end_line(&out);
    // The cookbook taken at 17 is never examined: X fails at the last step.
    assert_end(end, "examine_after_take", "false", Some((0, 2)));
    // The run restarted at 16 ends without an unused knife: a satisfaction.
    assert_end(end, "knife_used", "true", Some((1, 1)));
    assert_end(end, "no_drop", "true", Some((1, 2)));
    assert_end(end, "stay_in_kitchen", "false", None);
    assert_end(end, "eats_meal", "false", None);
}

/// The same rules read straight from the agent framework's log (57 records:
/// completions, observations, a heartbeat, session records and the 18
/// `tool_call`s), not reshaped: exactly the verdict lines of the reshaped
/// trace, which `textworld_rules` checks against the hand-worked columns.
#[test]
fn textworld_rules_on_the_framework_log() {
    let reshaped = verdicts(
        "examples/trac/textworld/textworld.hind",
        "examples/trac/textworld/agent.jsonl",
    );
    let from_log = verdicts(
        "examples/trac/textworld/textworld_log.hind",
        "examples/trac/textworld/agent_log.jsonl",
    );
    assert_eq!(from_log.lines().count(), 18 + 1);
    assert_eq!(from_log, reshaped);
}

/// examples/coding_agent/session.jsonl: 39 records, of which the 23 tool calls
/// and results are steps (listed in the example's README).
#[test]
fn coding_agent_rules_on_its_session_log() {
    let out = verdicts(
        "examples/coding_agent/rules.hind",
        "examples/coding_agent/session.jsonl",
    );
    //          step: 01234567890123456789012
    let expected = [
        // Edited at 12, deployed at 14 without a test since.
        ("deploy_gated", "11111111111111011111111"),
        // The deploy at 14 gets no result before the call at 15.
        ("calls_answered", "???????????????0???????"),
        // Retries at 17, 19 and 21: the third in a row is the violation.
        ("no_third_retry", "11111111111111111111101"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
    let end = end_line(&out);
    assert_end(end, "deploy_gated", "false", None);
    assert_eq!(field(end, "deploy_gated.false_steps"), "1");
    assert_eq!(field(end, "deploy_gated.first_false"), "14");
    // The run restarted at 16 answers every call: one satisfaction.
    assert_end(end, "calls_answered", "true", Some((1, 1)));
    assert_end(end, "no_third_retry", "false", None);
    assert_eq!(field(end, "no_third_retry.first_false"), "21");
}

/// examples/coding_agent/timing.hind: the rules in time on the same log,
/// whose timestamps are the steps' times. The bundled `timing.out` (which the
/// example crate's generated monitors print, too) is what `check` prints; its
/// verdicts are checked against the hand-worked ones in the example's tests.
#[test]
fn coding_agent_timing_on_its_session_log() {
    let out = verdicts(
        "examples/coding_agent/timing.hind",
        "examples/coding_agent/session.jsonl",
    );
    let bundled = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/coding_agent/timing.out"),
    )
    .expect("the bundled verdicts");
    assert_eq!(out, bundled);
    //          step: 01234567890123456789012
    let expected = [
        ("answered", "???????????????????????"),
        // 34.855 s after the deploy call of step 14, still no deploy result.
        ("deploy_answered", "?????????????????000000"),
        ("tested_recently", "11111111111111111111111"),
        // The deploy at 14 comes 63.3 s after the tests passed (step 9).
        ("tested_last_minute", "11111111111111011111111"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
}

/// The README's `--explain` run: each changed verdict is explained at the step
/// where it changed (the wording of the explanation is tested elsewhere).
#[test]
fn textworld_explained() {
    let out = check_from_root(
        "examples/trac/textworld/textworld.hind",
        "examples/trac/textworld/agent.jsonl",
        &["--explain"],
    );
    assert_eq!(out.status.code(), Some(0));
    let out = String::from_utf8(out.stdout).expect("utf-8");
    for decided in [
        "{\"explain\": \"examine_after_take\", \"step\": 7, \"verdict\": \"false\"",
        "{\"explain\": \"no_drop\", \"step\": 10, \"verdict\": \"false\"",
        "{\"explain\": \"knife_used\", \"step\": 15, \"verdict\": \"false\"",
        "{\"explain\": \"examine_after_take\", \"end\": true, \"verdict\": \"false\"",
    ] {
        assert!(out.contains(decided), "missing {decided}");
    }
}

/// examples/trac/scienceworld/agent.jsonl, step by step:
///  0 look around  1 open door  2 go kitchen  3 look around  4 pick up thermometer
///  5 open door  6 look around  7 look around  8 go hallway  9 look around
/// 10 open door  11 go bedroom  12 pick up substance B  13 put substance B in box
/// 14 go hallway  15 look around  16 look around  17 measure substance B  18 go kitchen
#[test]
fn scienceworld_rules() {
    let spec = "examples/trac/scienceworld/scienceworld.hind";
    let out = verdicts(spec, "examples/trac/scienceworld/agent.jsonl");
    //          step: 0123456789012345678
    let expected = [
        // The door opened at 5 is not gone through at 6.
        ("through_door", "??????0????????????"),
        // Entering the bedroom at 11 is followed by a pick-up at 12.
        ("look_after_entering", "????????????0??????"),
        // Looks at 6-7 and 15-16; the run restarts at 8 after the first.
        ("no_double_look", "???????0????????0??"),
        // The bedroom (11) is forbidden; not reset, so false from then on.
        ("allowed_rooms", "???????????00000000"),
        // Boxed at 13, measured only at 17.
        ("measure_before_box", "?????????????000000"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
    let end = end_line(&out);
    assert_end(end, "through_door", "true", Some((1, 1)));
    // Entering the kitchen at the last step leaves the look pending.
    assert_end(end, "look_after_entering", "false", Some((0, 2)));
    assert_end(end, "no_double_look", "true", Some((1, 2)));
    assert_end(end, "allowed_rooms", "false", None);
    assert_end(end, "measure_before_box", "false", None);
}

/// examples/trac/scienceworld/compliant.jsonl: 0 open door  1 go kitchen
/// 2 look around. Every rule holds; in particular the single look at the last
/// step is no double look (`G !(looking && X looking)`: `X` is false at the end).
#[test]
fn scienceworld_compliant_log() {
    let spec = "examples/trac/scienceworld/scienceworld.hind";
    let trace = "examples/trac/scienceworld/compliant.jsonl";
    let out = verdicts(spec, trace);
    for property in [
        "through_door",
        "look_after_entering",
        "no_double_look",
        "allowed_rooms",
        "measure_before_box",
    ] {
        assert_eq!(column(&out, property), "???", "{property}");
    }
    let end = end_line(&out);
    assert_end(end, "through_door", "true", Some((1, 0)));
    assert_end(end, "look_after_entering", "true", Some((1, 0)));
    assert_end(end, "no_double_look", "true", Some((1, 0)));
    assert_end(end, "allowed_rooms", "true", None);
    assert_end(end, "measure_before_box", "true", None);
    let status = check_from_root(spec, trace, &["--fail-on-violation"]).status;
    assert_eq!(status.code(), Some(0));
}

/// examples/trac/ipc_trucks/plan.jsonl, step by step (package1 goes to l1,
/// packages 2 and 3 to l2):
///  0 drive l1  1 load p1 a3  2 load p2 a1  3 load p3 a1  4 drive l2
///  5 unload p3 a1 at l2  6 deliver p2 at l2  7 deliver p3 at l2
///  8 unload p1 a3 at l2  9 load p1 a2  10 drive l1  11 unload p1 a2 at l1
/// 12 drive l3  13 deliver p1 at l3
#[test]
fn ipc_trucks_rules() {
    let spec = "examples/trac/ipc_trucks/trucks.hind";
    let out = verdicts(spec, "examples/trac/ipc_trucks/plan.jsonl");
    //          step: 01234567890123
    let expected = [
        // Loads into a3 (1) and a2 (9).
        ("load_only_a1", "?0???????0????"),
        // Only the load into a3 (1) goes deeper than a2.
        ("load_a1_or_a2", "?0????????????"),
        // No load into a4.
        ("load_a1_to_a3", "??????????????"),
        // package2 is delivered (6) before any delivery of package1.
        ("pkg2_before_pkg1", "??????11111111"),
        // package2 is delivered (6) before package3 (7).
        ("pkg3_before_pkg2", "??????00000000"),
        // package1 is loaded again at 9.
        ("loaded_at_most_once", "?????????00000"),
        // package3 is loaded into a1 (3) while package2 (2) is still there.
        ("a1_free_for_loading", "???0??????????"),
        // package2 is delivered (6) without ever being unloaded.
        ("deliver_after_unload", "??????00000000"),
        // package1 is delivered at l3 (13), not at l1.
        ("deliver_at_destination", "?????????????0"),
        // package1 is never delivered at its destination: only the end says so.
        ("all_delivered", "??????????????"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
    let end = end_line(&out);
    assert_end(end, "load_only_a1", "true", Some((1, 2)));
    assert_end(end, "load_a1_or_a2", "true", Some((1, 1)));
    assert_end(end, "load_a1_to_a3", "true", Some((1, 0)));
    assert_end(end, "pkg2_before_pkg1", "true", None);
    assert_end(end, "pkg3_before_pkg2", "false", None);
    assert_end(end, "loaded_at_most_once", "false", None);
    assert_end(end, "a1_free_for_loading", "true", Some((1, 1)));
    assert_end(end, "deliver_after_unload", "false", None);
    assert_end(end, "deliver_at_destination", "false", None);
    assert_end(end, "all_delivered", "false", None);
}

/// examples/trac/patterns/events.jsonl, step by step (animal colour shape):
///  0 cat red circle  1 toucan red square  2 cat red triangle  3 fox red triangle
///  4 cat blue circle  5 owl red circle  6 cat red circle  7 crane yellow circle
///  8 cat green circle  9 cat red square  10 cat red star  11 deer red circle
/// 12 owl red circle  13 fox red circle  14 cat green circle  15 cat red triangle
/// 16 cat red square  17 cat yellow star
#[test]
fn specification_patterns() {
    let spec = "examples/trac/patterns/patterns.hind";
    let out = check_from_root(spec, "examples/trac/patterns/events.jsonl", &[]);
    assert_eq!(out.status.code(), Some(0));
    // The compile-time analysis notes that the response rule is decided only at
    // the end; nothing else is reported.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("W0104"), "{stderr}");
    assert!(stderr.contains("`response`"), "{stderr}");
    assert_eq!(stderr.matches("W0").count(), 1, "{stderr}");
    let out = String::from_utf8(out.stdout).expect("utf-8");
    //          step: 012345678901234567
    let expected = [
        // The first colour other than red is the blue at 4.
        ("universality", "????00000000000000"),
        // Owls at 5 and 12.
        ("absence", "?????0??????0?????"),
        // Never decided before the end.
        ("response", "??????????????????"),
        // fox 3, green 8, star 10; restart at 11; fox 13, green 14, star 17. Each
        // is decided only when the star comes (without a star, green is allowed).
        ("absence_between", "??????????0??????0"),
        // The square at 1 meets a fox at 3 before any circle.
        ("constrained_response", "???0??????????????"),
        // toucan 1, crane 7, deer 11.
        ("tree_d1", "???????????1111111"),
    ];
    for (property, column_expected) in expected {
        assert_eq!(column(&out, property), column_expected, "{property}");
    }
    let end = end_line(&out);
    assert_end(end, "universality", "false", None);
    assert_end(end, "absence", "true", Some((1, 2)));
    // The triangle at 15 gets no blue after it.
    assert_end(end, "response", "false", None);
    // The run restarted after the last step: the end repeats that verdict and
    // adds no count.
    assert_end(end, "absence_between", "false", Some((0, 2)));
    // The square at 16 waits for a circle that never comes.
    assert_end(end, "constrained_response", "false", Some((0, 2)));
    assert_end(end, "tree_d1", "true", None);
}

/// examples/trac/patterns/tree.jsonl: 0 -  1 a  2 b2  3 c1 (off the path)  4 c3
/// 5 f  6 d5  7 e9  8 f: the depth-2 path a b2 c3 f ends at 5, the depth-4 path
/// a b2 c3 d5 e9 f at 8.
#[test]
fn tree_formulas_satisfied() {
    let spec = "examples/trac/patterns/tree.hind";
    let trace = "examples/trac/patterns/tree.jsonl";
    let out = verdicts(spec, trace);
    assert_eq!(column(&out, "tree_d2"), "?????1111");
    assert_eq!(column(&out, "tree_d2_past"), "?????1111");
    assert_eq!(column(&out, "tree_d4"), "????????1");
    let end = end_line(&out);
    for property in ["tree_d2", "tree_d2_past", "tree_d4"] {
        assert_end(end, property, "true", None);
    }
    // Nothing false: a CI run passes.
    let status = check_from_root(spec, trace, &["--fail-on-violation"]).status;
    assert_eq!(status.code(), Some(0));
}

/// examples/trac/patterns/tree_wrong_order.jsonl: 0 a  1 b1  2 c2  3 d4  4 f
/// 5 e7  6 -: a b1 c2 f satisfies the depth-2 tree at 4, but the depth-4 path
/// a b1 c2 d4 e7 is never followed by f.
#[test]
fn tree_formulas_wrong_order() {
    let spec = "examples/trac/patterns/tree.hind";
    let trace = "examples/trac/patterns/tree_wrong_order.jsonl";
    let out = verdicts(spec, trace);
    assert_eq!(column(&out, "tree_d2"), "????111");
    assert_eq!(column(&out, "tree_d2_past"), "????111");
    assert_eq!(column(&out, "tree_d4"), "???????");
    let end = end_line(&out);
    assert_end(end, "tree_d2", "true", None);
    assert_end(end, "tree_d2_past", "true", None);
    assert_end(end, "tree_d4", "false", None);
    let status = check_from_root(spec, trace, &["--fail-on-violation"]).status;
    assert_eq!(status.code(), Some(1));
}
