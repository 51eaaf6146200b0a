//! End-to-end tests of `hindsight check`: the binary is run on the fixtures in
//! `tests/fixtures/` (as the working directory, so paths in messages are short).
//! Expected verdicts and error columns are worked out by hand in the comments.

use crate::common::{assert_contains_all, fixtures, run_in, spawn_in, Input, Run};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// Runs `hindsight ARGS` in the fixtures directory with an empty stdin.
fn run(args: &[&str]) -> Run {
    run_with_stdin(args, &[])
}

/// Runs `hindsight ARGS` in the fixtures directory with `stdin` as its input,
/// of which the binary may stop reading early (a too long line).
fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    run_in(&fixtures(), args, Input::Prefix(stdin))
}

fn check(spec: &str, trace: &str) -> Run {
    run(&["check", spec, "--trace", trace])
}

/// `hindsight check SPEC --block BLOCK --trace TRACE` in the fixtures directory.
fn check_block(spec: &str, block: &str, trace: &str) -> Run {
    run(&["check", spec, "--block", block, "--trace", trace])
}

/// Asserts a run refused before reading any trace: exit status 2, nothing on
/// stdout, and stderr starting with `message`.
fn assert_refused(r: &Run, message: &str) {
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with(message), "{}", r.stderr);
}

/// Asserts a successful run (exit status 0) that printed exactly `verdicts`.
fn assert_verdicts(r: &Run, verdicts: &str) {
    assert_eq!(r.stdout, verdicts);
    assert_eq!(r.code, Some(0));
}

/// door.hind, step by step (pending = !grant S request):
/// - line 1 `request`: pending, so alarm_ok; no grant yet.
/// - line 3 `alarm`: pending carries over (no grant), so alarm_ok.
/// - line 4 `grant, alarm`: the grant ends pending, so alarm_ok is false; granted.
/// - line 6 nothing: no alarm, alarm_ok.
/// - line 7 `alarm`: not pending, alarm_ok false.
///
/// The end line audits the run: alarm_ok was false at steps 2 and 4,
/// granted_once (`O grant`) at steps 0 and 1, so neither held at every step.
const DOOR_VERDICTS: &str = "\
{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}
{\"step\": 1, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}
{\"step\": 2, \"alarm_ok\": \"false\", \"granted_once\": \"true\"}
{\"step\": 3, \"alarm_ok\": \"true\", \"granted_once\": \"true\"}
{\"step\": 4, \"alarm_ok\": \"false\", \"granted_once\": \"true\"}
{\"end\": true, \"alarm_ok\": \"false\", \"alarm_ok.false_steps\": 2, \"alarm_ok.first_false\": 2, \"granted_once\": \"false\", \"granted_once.false_steps\": 2, \"granted_once.first_false\": 0}
";

/// door_ok.jsonl: `grant` then `request, alarm`; every verdict is "true".
const DOOR_OK_VERDICTS: &str = "\
{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"true\"}
{\"step\": 1, \"alarm_ok\": \"true\", \"granted_once\": \"true\"}
{\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null, \"granted_once\": \"true\", \"granted_once.false_steps\": 0, \"granted_once.first_false\": null}
";

#[test]
fn verdict_lines_are_byte_exact_for_both_trace_forms_and_blank_lines() {
    let r = check("door.hind", "door.jsonl");
    assert_verdicts(&r, DOOR_VERDICTS);
    assert_eq!(r.stderr, "");
}

/// `--engine jit` (machine code) and `--engine interpreter` print the same
/// bytes, exit the same way and report the same error, on every monitor
/// fixture with its traces (past and future time, every input type, `with
/// reset`, malformed and mistyped lines).
#[test]
fn both_engines_print_the_same() {
    let cases = [
        ("door.hind", "door.jsonl"),
        ("door.hind", "malformed.jsonl"),
        ("door.hind", "wrong_type.jsonl"),
        ("door.hind", "unknown_field.jsonl"),
        ("typed.hind", "typed.jsonl"),
        ("typed.hind", "unknown_variant.jsonl"),
        ("explain_future.hind", "explain_future.jsonl"),
        ("explain_past.hind", "explain_past.jsonl"),
    ];
    for (spec, trace) in cases {
        let with = |engine| run(&["check", spec, "--trace", trace, "--engine", engine]);
        let (jit, interpreted) = (with("jit"), with("interpreter"));
        assert!(
            !jit.stdout.is_empty() || !jit.stderr.is_empty(),
            "{spec} {trace}"
        );
        assert_eq!(jit.code, interpreted.code, "{spec} {trace}");
        assert_eq!(jit.stdout, interpreted.stdout, "{spec} {trace}");
        assert_eq!(jit.stderr, interpreted.stderr, "{spec} {trace}");
    }
}

/// `--engine jit` says why it cannot run a block as machine code, and that
/// it cannot explain, instead of interpreting behind the user's back.
#[test]
fn engine_jit_refuses_with_the_reason() {
    let trace = b"{\"t\": 0, \"request\": true, \"alarm\": false}\n\
        {\"t\": 1, \"request\": false, \"alarm\": true}\n";
    let r = run_with_stdin(
        &["check", "duration.hind", "--trace", "-", "--engine", "jit"],
        trace,
    );
    assert_refused(
        &r,
        "error: monitor `recent` is not compiled to machine code: a duration-bounded past operator",
    );
    // Auto interprets it: the alarm one second after the request is fine.
    let auto = run_with_stdin(&["check", "duration.hind", "--trace", "-"], trace);
    assert_verdicts(
        &auto,
        "{\"step\": 0, \"alarm_ok\": \"true\"}\n{\"step\": 1, \"alarm_ok\": \"true\"}\n\
         {\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null}\n",
    );
    let r = run(&[
        "check",
        "door.hind",
        "--trace",
        "door.jsonl",
        "--engine",
        "jit",
        "--explain",
    ]);
    assert_refused(&r, "error: --engine jit cannot explain verdicts");
    // Auto interprets what machine code does not cover.
    let auto = run(&["check", "door.hind", "--trace", "door.jsonl", "--explain"]);
    assert_eq!(auto.code, Some(0), "{}", auto.stderr);
}

#[test]
fn trace_dash_reads_stdin() {
    let trace = std::fs::read(fixtures().join("door.jsonl")).expect("fixture exists");
    let r = run_with_stdin(&["check", "door.hind", "--trace", "-"], &trace);
    assert_verdicts(&r, DOOR_VERDICTS);
}

#[test]
fn every_input_type_is_decoded() {
    // Step 0: pkg 3 < 10, status pending. Step 1: pkg 12, status passed.
    // Each property was false at one step (small at 1, passed_ever at 0).
    let r = check("typed.hind", "typed.jsonl");
    assert_verdicts(
        &r,
        "{\"step\": 0, \"small\": \"true\", \"passed_ever\": \"false\"}\n\
         {\"step\": 1, \"small\": \"false\", \"passed_ever\": \"true\"}\n\
         {\"end\": true, \"small\": \"false\", \"small.false_steps\": 1, \"small.first_false\": 1, \
         \"passed_ever\": \"false\", \"passed_ever.false_steps\": 1, \"passed_ever.first_false\": 0}\n",
    );
}

#[test]
fn an_empty_trace_gives_only_the_end_line() {
    // With no step, a past-time property held at every step (vacuously).
    let r = run_with_stdin(&["check", "door.hind", "--trace", "-"], b"\n  \n");
    assert_verdicts(
        &r,
        "{\"end\": true, \"alarm_ok\": \"true\", \"alarm_ok.false_steps\": 0, \"alarm_ok.first_false\": null, \
         \"granted_once\": \"true\", \"granted_once.false_steps\": 0, \"granted_once.first_false\": null}\n",
    );
}

#[test]
fn fail_on_violation_sets_exit_status_1_and_still_prints_everything() {
    let r = run(&[
        "check",
        "door.hind",
        "--trace",
        "door.jsonl",
        "--fail-on-violation",
    ]);
    assert_eq!(r.stdout, DOOR_VERDICTS);
    assert_eq!(r.code, Some(1));

    let r = run(&[
        "check",
        "door.hind",
        "--trace",
        "door_ok.jsonl",
        "--fail-on-violation",
    ]);
    assert_verdicts(&r, DOOR_OK_VERDICTS);
}

#[test]
fn fail_on_violation_counts_a_single_false_verdict() {
    // two.hind's `second`: `!b` is true at step 0 and false at step 1 (and so at the end).
    let r = run_with_stdin(
        &[
            "check",
            "two.hind",
            "--block",
            "second",
            "--trace",
            "-",
            "--fail-on-violation",
        ],
        b"[]\n[\"b\"]\n",
    );
    assert_eq!(
        r.stdout,
        "{\"step\": 0, \"not_b\": \"true\"}\n\
         {\"step\": 1, \"not_b\": \"false\"}\n\
         {\"end\": true, \"not_b\": \"false\", \"not_b.false_steps\": 1, \"not_b.first_false\": 1}\n"
    );
    assert_eq!(r.code, Some(1));
}

/// Asserts a failed run: exit status 2, exactly `verdicts` on stdout (the steps
/// before the bad line) and exactly `message` on stderr.
fn assert_trace_error(r: &Run, verdicts: &str, message: &str) {
    assert_eq!(r.stderr, format!("{message}\n"));
    assert_eq!(r.stdout, verdicts);
    assert_eq!(r.code, Some(2));
}

/// door.hind's verdicts after a first step `["grant"]`.
const AFTER_GRANT: &str = "{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"true\"}\n";
/// door.hind's verdicts after a first step `["request"]`.
const AFTER_REQUEST: &str = "{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}\n";
/// typed.hind's verdicts after its first step (pkg 3, pending).
const TYPED_FIRST: &str = "{\"step\": 0, \"small\": \"true\", \"passed_ever\": \"false\"}\n";

#[test]
fn missing_input_is_named_with_its_line_and_closing_brace() {
    // `{"request": true, "alarm": false}`: the closing brace is column 33.
    assert_trace_error(
        &check("door.hind", "missing_input.jsonl"),
        AFTER_GRANT,
        "error: missing_input.jsonl:2:33: missing input `grant`",
    );
}

#[test]
fn unknown_field_is_an_error_pointing_at_the_key() {
    // Line 3 (after a blank line 2); `"grnat"` starts at column 19.
    assert_trace_error(
        &check("door.hind", "unknown_field.jsonl"),
        AFTER_GRANT,
        "error: unknown_field.jsonl:3:19: unknown input `grnat` (the monitor's inputs are: \
         request, grant, alarm)",
    );
}

#[test]
fn wrong_type_points_at_the_value() {
    // `"x"` starts at column 9 of `{"pkg": "x", ...`.
    assert_trace_error(
        &check("typed.hind", "wrong_type.jsonl"),
        TYPED_FIRST,
        "error: wrong_type.jsonl:2:9: input `pkg` expects int, found string \"x\"",
    );
}

#[test]
fn unknown_variant_lists_the_variants() {
    // `"pased"` starts at column 35.
    assert_trace_error(
        &check("typed.hind", "unknown_variant.jsonl"),
        TYPED_FIRST,
        "error: unknown_variant.jsonl:2:35: input `status` expects a variant of enum `Status` \
         (one of: pending, passed, failed), found \"pased\"",
    );
}

#[test]
fn malformed_json_gives_serde_json_column() {
    // `tru,`: the parser gives up on the `,` at column 31.
    assert_trace_error(
        &check("door.hind", "malformed.jsonl"),
        AFTER_REQUEST,
        "error: malformed.jsonl:2:31: malformed JSON: expected ident",
    );
}

#[test]
fn array_form_needs_an_all_bool_monitor() {
    assert_trace_error(
        &check("typed.hind", "array_not_bool.jsonl"),
        TYPED_FIRST,
        "error: array_not_bool.jsonl:2:1: the array form lists the bool inputs that are true \
         and needs every input to be bool, but input `pkg` is int; give an object with every input",
    );
}

#[test]
fn array_form_rejects_unknown_and_repeated_names() {
    // `"alram"` starts at column 13.
    assert_trace_error(
        &check("door.hind", "unknown_bool.jsonl"),
        AFTER_REQUEST,
        "error: unknown_bool.jsonl:2:13: array form: `alram` is not a bool input (the bool \
         inputs are: request, grant, alarm)",
    );
    // The second `"alarm"` starts at column 20; nothing was printed before line 1.
    assert_trace_error(
        &check("door.hind", "duplicate_bool.jsonl"),
        "",
        "error: duplicate_bool.jsonl:1:20: array form: input `alarm` is listed twice",
    );
}

#[test]
fn a_line_that_is_neither_object_nor_array_is_an_error() {
    assert_trace_error(
        &check("door.hind", "not_object.jsonl"),
        "{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}\n\
         {\"step\": 1, \"alarm_ok\": \"true\", \"granted_once\": \"true\"}\n",
        "error: not_object.jsonl:3:1: a trace line must be a JSON object giving every input, \
         or an array of the bool inputs that are true; found string \"grant\"",
    );
}

#[test]
fn invalid_utf8_is_reported_with_line_and_column() {
    // Line 2 is `["gr\xff...`: the bad byte is the 5th character.
    assert_trace_error(
        &check("door.hind", "invalid_utf8.jsonl"),
        AFTER_GRANT,
        "error: invalid_utf8.jsonl:2:5: line is not valid UTF-8",
    );
}

#[test]
fn errors_on_stdin_are_named_stdin() {
    let r = run_with_stdin(&["check", "door.hind", "--trace", "-"], b"[]\n[1]\n");
    assert_trace_error(
        &r,
        "{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}\n",
        "error: <stdin>:2:2: array form: elements must be names of bool inputs (strings), \
         found number 1",
    );
}

#[test]
fn missing_trace_file_is_a_clear_error() {
    let r = check("door.hind", "no_such_trace.jsonl");
    assert_refused(&r, "error: cannot open trace `no_such_trace.jsonl`: ");
}

#[test]
fn missing_spec_file_is_a_clear_error() {
    let r = check("no_such_spec.hind", "door.jsonl");
    assert_refused(&r, "error: cannot read spec `no_such_spec.hind`: ");
}

#[test]
fn spec_errors_are_rendered_as_diagnostics_and_exit_2() {
    let r = check("bad.hind", "door.jsonl");
    assert_refused(&r, "error");
    // No colour codes when stderr is not a terminal.
    assert!(!r.stderr.contains('\u{1b}'));
    assert!(r.stderr.contains("E0200"), "{}", r.stderr);
    assert!(r.stderr.contains("bad.hind:3:"), "{}", r.stderr);
    insta::assert_snapshot!("spec_error", r.stderr);
}

#[test]
fn an_endless_line_is_an_error_not_an_abort() {
    // /dev/zero has no newline: the first 16 MiB + 1 bytes show line 1 is too
    // long (the default limit), and nothing more is read.
    let r = run(&["check", "door.hind", "--trace", "/dev/zero"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: /dev/zero:1: line is longer than 16777216 bytes; raise the limit with \
         --max-line-bytes if such lines are expected\n"
    );
    // On stdin, with a smaller limit; the steps before the long line are printed.
    let mut stdin = b"[\"request\"]\n".to_vec();
    stdin.extend(std::iter::repeat_n(b'x', 3 << 20));
    let r = run_with_stdin(
        &[
            "check",
            "door.hind",
            "--trace",
            "-",
            "--max-line-bytes",
            "1000",
        ],
        &stdin,
    );
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stdout,
        "{\"step\": 0, \"alarm_ok\": \"true\", \"granted_once\": \"false\"}\n"
    );
    assert!(
        r.stderr
            .starts_with("error: <stdin>:2: line is longer than 1000 bytes"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "check",
        "door.hind",
        "--trace",
        "door.jsonl",
        "--max-line-bytes",
        "0",
    ]);
    assert_eq!(r.code, Some(2));
}

#[test]
fn an_endless_spec_is_refused_unread() {
    let r = run(&["check", "/dev/zero", "--trace", "door.jsonl"]);
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stderr,
        "error: cannot read spec `/dev/zero`: the spec is larger than 1048576 bytes \
         (1 MiB), the most a spec may be\n"
    );
    // The library refuses such a source too, whatever shell passes it.
    let huge = format!(
        "monitor m {{ input p: bool; property q = p; }}{}",
        " ".repeat(1 << 20)
    );
    let diags = hindsight_compiler::compile(&huge).expect_err("too large");
    assert_eq!(diags[0].code.as_deref(), Some("E0900"));
}

#[test]
fn quoted_values_are_short_and_escaped() {
    // A 10,000-character key with an escape sequence: the message quotes 80
    // characters of it, control characters escaped.
    let key = format!("\u{1b}[31m{}", "k".repeat(10_000));
    let line = format!("{{\"{}\": true}}\n", key.replace('\u{1b}', "\\u001b"));
    let r = run_with_stdin(&["check", "door.hind", "--trace", "-"], line.as_bytes());
    assert_eq!(r.code, Some(2));
    assert!(!r.stderr.contains('\u{1b}'), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "unknown input `\\u001b[31m{}… (10005 bytes in all)`",
            "k".repeat(75)
        )),
        "{}",
        r.stderr
    );
    assert!(r.stderr.len() < 400, "{}", r.stderr);
}

#[test]
fn two_monitors_need_block() {
    let r = check("two.hind", "two.jsonl");
    assert_refused(&r, "error: two.hind: ");
    assert_eq!(
        r.stderr,
        "error: two.hind: several monitor blocks; choose one with `--block NAME` \
         (monitor blocks: `first`, `second`)\n"
    );

    let r = check_block("two.hind", "first", "two.jsonl");
    assert_verdicts(
        &r,
        "{\"step\": 0, \"was_a\": \"true\"}\n\
         {\"end\": true, \"was_a\": \"true\", \"was_a.false_steps\": 0, \"was_a.first_false\": null}\n",
    );
}

#[test]
fn block_lowers_only_the_selected_block() {
    // `heavy`'s automaton is refused (E0407) when it is built; `--block light`
    // never builds it, so checking `light` succeeds with its own verdicts.
    let r = check_block("costly_other.hind", "light", "door.jsonl");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.starts_with("{\"step\": 0, \"alarm_ok\": "),
        "{}",
        r.stdout
    );
    assert_eq!(r.stderr, "");
    let r = check_block("costly_other.hind", "heavy", "door.jsonl");
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("error[E0407]"), "{}", r.stderr);
}

#[test]
fn unknown_block_lists_the_monitors() {
    let r = check_block("two.hind", "third", "two.jsonl");
    assert_refused(&r, "error: two.hind: ");
    assert_eq!(
        r.stderr,
        "error: two.hind: no monitor block named `third` (monitor blocks: `first`, `second`)\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    let r = run(&["check", "door.hind"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("--trace"), "{}", r.stderr);
}

#[test]
fn help_documents_formats_and_exit_codes() {
    let r = run(&["check", "--help"]);
    assert_eq!(r.code, Some(0));
    assert_contains_all(
        &r.stdout,
        &[
            "--trace <FILE>",
            "--block <NAME>",
            "--fail-on-violation",
            "standard input",
            "{\"request\": true, \"pkg\": 3, \"status\": \"passed\"}",
            "[\"request\", \"alarm\"]",
            "{\"step\": 0, \"alarm_ok\": \"true\", \"responds\": \"?\"}",
            "{\"end\": true,",
            "EXIT STATUS",
            "unknown key",
        ],
    );
}

#[test]
fn version_is_printed() {
    let r = run(&["--version"]);
    assert_eq!(r.code, Some(0));
    assert_eq!(
        r.stdout,
        format!("hindsight {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Runs `hindsight check door.hind --trace TRACE FLAGS` from the fixtures
/// directory, reads one chunk of its stdout and then closes the pipe while the
/// command may still be writing; returns that chunk and how the run ended.
fn check_closing_stdout(trace: &Path, flags: &[&str]) -> ([u8; 64], Output) {
    let trace = trace.to_str().expect("a UTF-8 path");
    let args = [&["check", "door.hind", "--trace", trace][..], flags].concat();
    let mut child = spawn_in(&fixtures(), &args, Stdio::null());
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 64];
    let _ = std::io::Read::read(&mut stdout, &mut first);
    drop(stdout);
    let out = child
        .wait_with_output()
        .expect("the hindsight binary finishes");
    (first, out)
}

#[test]
fn a_closed_stdout_stops_quietly() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let trace = dir.join("broken_pipe.jsonl");
    let line = "[\"request\", \"alarm\"]\n";
    std::fs::write(&trace, line.repeat(200_000)).expect("temp trace is written");
    let (first, out) = check_closing_stdout(&trace, &[]);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
    assert!(first.starts_with(b"{\"step\": 0, "));
}

/// With `--fail-on-violation`, a closed stdout does not end the check: a
/// violation on the last of 200,001 lines, long after the reader went away,
/// still makes the exit status 1; without it, 0.
#[test]
fn a_closed_stdout_keeps_checking_with_fail_on_violation() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let trace = dir.join("late_violation.jsonl");
    // `alarm` with a pending request: alarm_ok holds. The last line raises
    // an alarm after a grant ended the request: alarm_ok is false.
    let clean = "[\"request\", \"alarm\"]\n".repeat(200_000);
    std::fs::write(&trace, format!("{clean}[\"grant\"]\n[\"alarm\"]\n")).expect("written");
    for (flags, code) in [(&["--fail-on-violation"][..], 1), (&[][..], 0)] {
        let (_, out) = check_closing_stdout(&trace, flags);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        assert_eq!(out.status.code(), Some(code), "{flags:?}");
    }
}
