//! The bundled examples, run through the `hindsight` binary, against verdicts
//! worked out by hand from the rules and the logs.

use crate::common::{check_from_root, hindsight, root};

/// The stdout and exit status of `hindsight check SPEC --trace TRACE`, which
/// must print no diagnostics.
fn check(spec: &str, trace: &str) -> (String, i32) {
    let out = check_from_root(spec, trace, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "unexpected diagnostics:\n{stderr}");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        out.status.code().unwrap_or(-1),
    )
}

/// The verdicts of `property` on every step line, as a `1`/`0` string.
fn column(stdout: &str, property: &str) -> String {
    let key = format!("\"{property}\": \"");
    stdout
        .lines()
        .filter(|l| l.starts_with("{\"step\""))
        .map(|l| {
            let at = l.find(&key).expect("property present") + key.len();
            if l[at..].starts_with("true") {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

/// IPC-Trucks log (examples/trucks/trucks.jsonl), step by step:
///  0 refuel  1 drive  2 load a1 (pkg 2)  3 look  4 look  5 drive  6 refuel
///  7 drive  8 unload a2  9 deliver pkg 2  10 load a2 (pkg 1)  11 deliver pkg 1
#[test]
fn trucks_example_reports_the_violations_a_reader_expects() {
    let (out, code) = check(
        "examples/trucks/trucks.hind",
        "examples/trucks/trucks.jsonl",
    );
    assert_eq!(code, 0);
    // Step 10 loads in a2, not a1.
    assert_eq!(column(&out, "load_only_in_a1"), "111111111101");
    // Step 10 is the second load (the first was at 2).
    assert_eq!(column(&out, "load_at_most_once"), "111111111101");
    // Step 9 delivers after the unload at 8; step 11 delivers after the load at 10
    // broke the chain.
    assert_eq!(column(&out, "deliver_after_unload"), "111111111110");
    // Package 1 is delivered (11) after package 2 (9).
    assert_eq!(column(&out, "pkg2_before_pkg1"), "111111111111");
    // Drive at 1 (refuel at 0, one step back), at 5 (last refuel 5 steps back:
    // outside [1,4]), at 7 (refuel at 6).
    assert_eq!(column(&out, "fuelled"), "111110111111");
    // Looks at 3 and 4: twice in a row at 4.
    assert_eq!(column(&out, "no_double_look"), "111101111111");
    // The end line audits the columns above: every property but
    // pkg2_before_pkg1 was false at one step, so did not hold at every step.
    let end = out.lines().last().expect("end line");
    assert_eq!(
        end,
        "{\"end\": true, \
         \"load_only_in_a1\": \"false\", \"load_only_in_a1.false_steps\": 1, \"load_only_in_a1.first_false\": 10, \
         \"load_at_most_once\": \"false\", \"load_at_most_once.false_steps\": 1, \"load_at_most_once.first_false\": 10, \
         \"deliver_after_unload\": \"false\", \"deliver_after_unload.false_steps\": 1, \"deliver_after_unload.first_false\": 11, \
         \"pkg2_before_pkg1\": \"true\", \"pkg2_before_pkg1.false_steps\": 0, \"pkg2_before_pkg1.first_false\": null, \
         \"fuelled\": \"false\", \"fuelled.false_steps\": 1, \"fuelled.first_false\": 5, \
         \"no_double_look\": \"false\", \"no_double_look.false_steps\": 1, \"no_double_look.first_false\": 4}"
    );
}

#[test]
fn trucks_example_fails_ci_on_violation() {
    let status = hindsight()
        .args(["check", "--fail-on-violation", "--trace"])
        .arg(root().join("examples/trucks/trucks.jsonl"))
        .arg(root().join("examples/trucks/trucks.hind"))
        .output()
        .expect("run hindsight")
        .status;
    assert_eq!(status.code(), Some(1));
}

/// The thirteen-tool agent of examples/coding_agent/tools.hind over the
/// session log. Its tool steps: changes (a call of a changing tool) at 2, 6
/// (edit_file), 10 (deploy), 12 (edit_file), 14 (deploy); test results at 5,
/// 9, 16, 18, 20, 22. Every change is tested later (the last at 16), so
/// `changes_tested` is `?` at every step and true at the end; the deploy at
/// 10 waits past its window 10..14 (the next test result is at 16), so
/// `changes_tested_soon` is false from step 14 to the last, 22.
#[test]
fn thirteen_tools_in_one_property() {
    let run = check_from_root(
        "examples/coding_agent/tools.hind",
        "examples/coding_agent/session.jsonl",
        &[],
    );
    assert_eq!(run.status.code(), Some(0));
    // The one note: `changes_tested` is a response rule, decided at the end.
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stderr.matches("W0104").count(), 1, "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    let out = String::from_utf8(run.stdout).expect("utf-8");
    assert!(out
        .lines()
        .filter(|l| l.starts_with("{\"step\""))
        .all(|l| l.contains("\"changes_tested\": \"?\"")));
    assert_eq!(
        out.lines().last().expect("end line"),
        "{\"end\": true, \
         \"changes_tested\": \"true\", \"changes_tested.false_steps\": 0, \"changes_tested.first_false\": null, \
         \"changes_tested_soon\": \"false\", \"changes_tested_soon.false_steps\": 9, \"changes_tested_soon.first_false\": 14}"
    );
}
