//! `hindsight explain` and `hindsight check --explain`, run on the fixtures
//! `tests/fixtures/explain_*` (the working directory). Every explanation line
//! is worked out by hand in the comments; the reports are snapshots, reviewed
//! against the automata worked out in `explain_report_of_a_future_spec`.

use crate::common::{fixtures, root, run_in, Input, Run};
use hindsight_cli::compile::Block;
use hindsight_cli::explain::render;
use std::time::Duration;

/// Runs the binary in the fixtures directory with an empty stdin.
fn run(args: &[&str]) -> Run {
    run_in(&fixtures(), args, Input::Null)
}

/// `hindsight check NAME.hind --trace NAME.jsonl FLAGS`: a fixture spec over
/// its own trace.
fn check_fixture(name: &str, flags: &[&str]) -> Run {
    let spec = format!("{name}.hind");
    let trace = format!("{name}.jsonl");
    run(&[&["check", &spec, "--trace", &trace][..], flags].concat())
}

/// The report of `spec` (a fixture path) with a fixed compile time.
fn report(spec: &str) -> String {
    let source = std::fs::read_to_string(fixtures().join(spec)).expect("the spec is readable");
    let compiled = hindsight_compiler::compile(&source).expect("the spec compiles");
    let all: Vec<Block> = (0..compiled.program.monitors.len())
        .map(Block::Monitor)
        .collect();
    render(spec, &compiled, &all, Duration::from_micros(1250))
}

/// explain_future.hind over explain_future.jsonl (request, grant, phase, load):
///   0: request,  idle, 3     1: busy, 7     2: grant, busy, 8
///   3: done, 12              4: request, idle, 2
/// - responds = G (request -> F grant): "?" throughout (never decided), so no
///   step line; at the end the request of step 4 is pending: false, with the
///   residual after a request.
/// - each_request (with reset): step 0 request → "?" (unchanged, no line);
///   step 2 grant decides true from `F grant` (only `grant` is read there);
///   step 3 is a new run decided by `request = false` (both atoms are read by
///   `request -> F grant`); step 4 request → "?" with `F grant` left; the end
///   finds `F grant` unmet: false (2 satisfactions, 1 violation).
/// - next_busy = X (phase == busy): step 1 reads `phase == busy` = true.
/// - light = G (load < 10): load 12 at step 3 decides false; at the end it is
///   still false, decided at step 3.
/// - overload_pending = load > 5 -> pending (`let pending = !grant S request`), past-time: step 0 true
///   (load 3), step 1 unchanged (load 7, pending since the request), step 2
///   false (load 8, the grant ends pending), step 3 unchanged, step 4 true
///   (load 2, and the request makes pending true again).
/// - never = F grant && G !grant: false before any step, so "no trace can
///   satisfy" it at step 0 and at the end.
/// - the end line audits the step lines: light false at steps 3-4,
///   overload_pending at 2-3 (so it did not hold at every step: false, and
///   explained), never at all five steps.
const FUTURE_EXPLAINED: &str = r#"{"step": 0, "responds": "?", "each_request": "?", "next_busy": "?", "light": "?", "overload_pending": "true", "never": "false"}
{"explain": "overload_pending", "step": 0, "verdict": "true", "why": "load > 5 = false, pending = true"}
{"explain": "never", "step": 0, "verdict": "false", "why": "no trace can satisfy F grant && G !grant"}
{"step": 1, "responds": "?", "each_request": "?", "next_busy": "true", "light": "?", "overload_pending": "true", "never": "false"}
{"explain": "next_busy", "step": 1, "verdict": "true", "why": "required phase == busy; at this step phase == busy = true"}
{"step": 2, "responds": "?", "each_request": "true", "next_busy": "true", "light": "?", "overload_pending": "false", "never": "false"}
{"explain": "each_request", "step": 2, "verdict": "true", "why": "required F grant; at this step grant = true"}
{"explain": "overload_pending", "step": 2, "verdict": "false", "why": "load > 5 = true, pending = false"}
{"step": 3, "responds": "?", "each_request": "true", "next_busy": "true", "light": "false", "overload_pending": "false", "never": "false"}
{"explain": "each_request", "step": 3, "verdict": "true", "why": "required request -> F grant; at this step request = false, grant = false"}
{"explain": "light", "step": 3, "verdict": "false", "why": "required G (load < 10); at this step load < 10 = false"}
{"step": 4, "responds": "?", "each_request": "?", "next_busy": "true", "light": "false", "overload_pending": "true", "never": "false"}
{"explain": "each_request", "step": 4, "verdict": "?", "why": "still required: F grant"}
{"explain": "overload_pending", "step": 4, "verdict": "true", "why": "load > 5 = false, pending = true"}
{"end": true, "responds": "false", "responds.false_steps": 0, "responds.first_false": null, "each_request": "false", "each_request.satisfactions": 2, "each_request.violations": 1, "each_request.false_steps": 0, "each_request.first_false": null, "next_busy": "true", "next_busy.false_steps": 0, "next_busy.first_false": null, "light": "false", "light.false_steps": 2, "light.first_false": 3, "overload_pending": "false", "overload_pending.false_steps": 2, "overload_pending.first_false": 2, "never": "false", "never.false_steps": 5, "never.first_false": 0}
{"explain": "responds", "end": true, "verdict": "false", "why": "the trace ended with F grant && G (request -> F grant) still required"}
{"explain": "each_request", "end": true, "verdict": "false", "why": "the trace ended with F grant still required"}
{"explain": "light", "end": true, "verdict": "false", "why": "decided at step 3: required G (load < 10); at this step load < 10 = false"}
{"explain": "overload_pending", "end": true, "verdict": "false", "why": "false at 2 steps, the first at step 2"}
{"explain": "never", "end": true, "verdict": "false", "why": "decided at step 0: no trace can satisfy F grant && G !grant"}
"#;

#[test]
fn future_properties_are_explained_by_residuals_and_deciding_atoms() {
    let r = check_fixture("explain_future", &["--explain"]);
    assert_eq!(r.stdout, FUTURE_EXPLAINED);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// explain_past.hind over explain_past.jsonl: the parts of `a != b` and `a < b`
/// are their operands; constants are left out.
/// - step 0 (idle, 0.5, 3): all true, each changed from "?".
/// - step 1 (done, 2.0, 9): not_done and slow turn false; 9 + 1 <= 10 stays true.
/// - step 2 (busy, 2.0, 10): not_done true again; light turns false (11).
/// - end: each property was false at some step (not_done at 1, slow at 1-2,
///   light at 2), so none held at every step; each is explained by its count
///   and first false step.
const PAST_EXPLAINED: &str = r#"{"step": 0, "not_done": "true", "slow": "true", "light": "true"}
{"explain": "not_done", "step": 0, "verdict": "true", "why": "phase = idle"}
{"explain": "slow", "step": 0, "verdict": "true", "why": "rate = 0.5"}
{"explain": "light", "step": 0, "verdict": "true", "why": "load + 1 = 4"}
{"step": 1, "not_done": "false", "slow": "false", "light": "true"}
{"explain": "not_done", "step": 1, "verdict": "false", "why": "phase = done"}
{"explain": "slow", "step": 1, "verdict": "false", "why": "rate = 2.0"}
{"step": 2, "not_done": "true", "slow": "false", "light": "false"}
{"explain": "not_done", "step": 2, "verdict": "true", "why": "phase = busy"}
{"explain": "light", "step": 2, "verdict": "false", "why": "load + 1 = 11"}
{"end": true, "not_done": "false", "not_done.false_steps": 1, "not_done.first_false": 1, "slow": "false", "slow.false_steps": 2, "slow.first_false": 1, "light": "false", "light.false_steps": 1, "light.first_false": 2}
{"explain": "not_done", "end": true, "verdict": "false", "why": "false at 1 step, the first at step 1"}
{"explain": "slow", "end": true, "verdict": "false", "why": "false at 2 steps, the first at step 1"}
{"explain": "light", "end": true, "verdict": "false", "why": "false at 1 step, the first at step 2"}
"#;

#[test]
fn past_properties_are_explained_by_their_parts_values() {
    let r = check_fixture("explain_past", &["--explain", "--fail-on-violation"]);
    assert_eq!(r.stdout, PAST_EXPLAINED);
    assert_eq!(r.stderr, "");
    assert_eq!(r.code, Some(1), "--fail-on-violation still applies");
}

#[test]
fn explain_lines_only_add_to_the_verdict_lines() {
    let plain = check_fixture("explain_future", &[]);
    let explained = check_fixture("explain_future", &["--explain"]);
    let verdicts: String = explained
        .stdout
        .lines()
        .filter(|l| !l.starts_with("{\"explain\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(verdicts, plain.stdout);
    assert_eq!(explained.stderr, plain.stderr);
}

#[test]
fn an_empty_trace_explains_nothing() {
    let r = run(&["check", "explain_past.hind", "--trace", "-", "--explain"]);
    assert_eq!(
        r.stdout,
        "{\"end\": true, \"not_done\": \"true\", \"not_done.false_steps\": 0, \"not_done.first_false\": null, \
         \"slow\": \"true\", \"slow.false_steps\": 0, \"slow.first_false\": null, \
         \"light\": \"true\", \"light.false_steps\": 0, \"light.first_false\": null}\n"
    );
    assert_eq!(r.code, Some(0));
}

#[test]
fn check_prints_analysis_warnings_without_failing() {
    let r = check_fixture("explain_future", &[]);
    assert_eq!(r.code, Some(0));
    assert!(
        r.stderr
            .contains("note[W0104]: property `responds` is decided only at the end of the trace"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("warning[W0101]: property `never` can never be satisfied"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.matches("[W01").count(), 2, "{}", r.stderr);
}

/// The automata of explain_future.hind, checked by hand in the snapshot
/// (letters list the successors for atoms = 00, 10, 01, 11, first atom first):
/// - responds: q0/q1 "G (request -> F grant)" (end ? / true), q2 after a
///   request "F grant && G (...)" (end false); a request without grant goes to
///   q2, anything with a grant to q1. Never decided: 3 states × 4 letters.
/// - each_request: no request → true; request without grant → "F grant".
/// - next_busy: q0 → q1 "phase == busy" on any letter; then false or true.
/// - light: load < 10 keeps "G (load < 10)" (end true), else false.
/// - never: false from q0 on.
#[test]
fn explain_report_of_a_future_spec() {
    let text = report("explain_future.hind");
    assert!(text.starts_with(
        "explain_future.hind: 1 monitor, 6 properties (1 past-time, 5 future-time), compiled in 1.250 ms\n"
    ));
    assert!(text.contains(
        "  responds          future-time: automaton a0, 3 states, 12 transitions (3 states × 2^2 letters); atoms `request`, `grant`\n"
    ));
    assert!(text.contains("  each_request      future-time, with reset: automaton a1,"));
    assert!(text
        .contains("  overload_pending  past-time: slot s12; explained by `load > 5`, `pending`\n"));
    insta::assert_snapshot!("explain_future", text);
}

#[test]
fn explain_report_of_the_trucks_example() {
    let source = std::fs::read_to_string(root().join("examples/trucks/trucks.hind"))
        .expect("the example is readable");
    let compiled = hindsight_compiler::compile(&source).expect("the example compiles");
    let text = render(
        "trucks.hind",
        &compiled,
        &[Block::Monitor(0)],
        Duration::from_millis(2),
    );
    assert!(text.starts_with("trucks.hind: 1 monitor, "), "{text}");
    assert!(text.ends_with('\n'));
    insta::assert_snapshot!("explain_trucks", text);
}

#[test]
fn explain_command_prints_the_report_and_the_warnings() {
    let r = run(&["explain", "explain_future.hind"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // Only the measured compile time differs from the rendered report.
    let (head, rest) = r.stdout.split_once(", compiled in ").expect("a header");
    let (_, rest) = rest.split_once(" ms\n").expect("the compile time");
    let expected = report("explain_future.hind");
    let (e_head, e_rest) = expected
        .split_once(", compiled in 1.250 ms\n")
        .expect("a header");
    assert_eq!((head, rest), (e_head, e_rest));
    assert!(r.stderr.contains("W0104") && r.stderr.contains("W0101"));
}

#[test]
fn explain_command_selects_a_block_or_fails_clearly() {
    let r = run(&["explain", "explain_future.hind", "--block", "jobs"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("monitor jobs: 4 inputs"));
    let r = run(&["explain", "explain_future.hind", "--block", "nope"]);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains(
            "error: explain_future.hind: no monitor block named `nope` (monitor blocks: `jobs`)"
        ),
        "{}",
        r.stderr
    );
    let r = run(&["explain", "missing.hind"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("cannot read spec `missing.hind`"));
}

/// The legend above an automaton's transitions names each column by the
/// atoms its letter makes true, and the columns mean what it says: from the
/// start of `request U grant`, the letter with `grant` true decides `true`,
/// the letter with neither decides `false`, the one with `request` alone
/// keeps waiting.
#[test]
fn automaton_columns_are_named_by_their_letters() {
    let source = "monitor m {\n    input request: bool;\n    input grant: bool;\n    property u = request U grant;\n}\n";
    let compiled = hindsight_compiler::compile(source).expect("compiles");
    let text = render(
        "until.hind",
        &compiled,
        &[Block::Monitor(0)],
        Duration::ZERO,
    );
    let legend = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("columns: "))
        .expect("a legend");
    let columns: Vec<&str> = legend
        .split(" (")
        .next()
        .unwrap_or("")
        .split("} ")
        .map(|c| c.trim_matches(|ch| ch == '{' || ch == '}'))
        .collect();
    let row = |q: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{q} ")))
            .expect("a state row");
        let inside = line.split("-> [").nth(1).and_then(|r| r.split(']').next());
        inside
            .unwrap_or("")
            .split(' ')
            .map(str::to_string)
            .collect()
    };
    let verdict_of = |q: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{q} ")))
            .expect("a state row");
        line.split_whitespace().nth(1).unwrap_or("").to_string()
    };
    let start = row("q0");
    let successor = |atoms: &str| {
        let k = columns.iter().position(|c| *c == atoms).expect("a column");
        start[k].clone()
    };
    assert_eq!(columns.len(), 4, "{legend}");
    assert_eq!(verdict_of(&successor("grant")), "true", "{text}");
    assert_eq!(verdict_of(&successor("request, grant")), "true", "{text}");
    assert_eq!(verdict_of(&successor("")), "false", "{text}");
    assert_eq!(verdict_of(&successor("request")), "?", "{text}");
}

/// `--format dot`: the automaton of `responds = G (request -> F grant)`,
/// worked out by hand: q0 and q1 wait for a request (q1 after a step, so
/// the end is true there), q2 owes a grant (end false); a request without a
/// grant goes to q2, a grant (or no request) to q1; q2 stays until a grant.
#[test]
fn explain_draws_each_automaton_as_a_dot_graph() {
    let out = run(&[
        "explain",
        "explain_future.hind",
        "--block",
        "jobs",
        "--format",
        "dot",
    ]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let responds = out
        .stdout
        .split("digraph ")
        .find(|g| g.starts_with("\"monitor jobs: responds"))
        .expect("a graph for responds");
    for line in [
        "q0 [label=\"q0: ? (end ?)\\nG (request -> F grant)\", fillcolor=\"#fef3c7\"];",
        "q1 [label=\"q1: ? (end true)\\nG (request -> F grant)\", fillcolor=\"#fef3c7\"];",
        "q2 [label=\"q2: ? (end false)\\nF grant && G (request -> F grant)\", fillcolor=\"#fef3c7\"];",
        "q0 -> q1 [label=\"!request || grant\"];",
        "q0 -> q2 [label=\"request && !grant\"];",
        "q1 -> q2 [label=\"request && !grant\"];",
        "q2 -> q2 [label=\"!grant\"];",
        "q2 -> q1 [label=\"grant\"];",
    ] {
        assert!(responds.contains(line), "{line} missing from\n{responds}");
    }
    // `never = F grant && G !grant` is false from the start (red); only the
    // end verdict of the empty trace is open.
    let never = out
        .stdout
        .split("digraph ")
        .find(|g| g.contains("never = "))
        .unwrap();
    assert!(
        never.contains(
            "q0 [label=\"q0: false (end ?)\\nF grant && G !grant\", fillcolor=\"#fee2e2\"];"
        ),
        "{never}"
    );
    assert!(never.contains("q0 -> q1 [label=\"true\"];"), "{never}");
    assert!(never.contains("q1 -> q1 [label=\"true\"];"), "{never}");
    // The past table: `pending = !grant S request` reads `not grant` and `request`.
    assert!(out
        .stdout
        .contains("s11 [label=\"s11 since s10 s0\"];\n  s10 -> s11;\n  s0 -> s11;"));
    insta::assert_snapshot!(responds);
}

/// `--format svg`: the same graphs laid out, one document, each under its
/// heading; Chromium renders it without errors.
#[test]
fn explain_lays_the_graphs_out_as_one_svg() {
    let out = run(&["explain", "explain_future.hind", "--format", "svg"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let svg = &out.stdout;
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    // One nested document per graph: the past table and five automata.
    assert_eq!(svg.matches("<svg x=\"0\"").count(), 6, "{svg}");
    assert!(svg.contains("monitor jobs: responds = G (request -&gt; F grant)</text>"));
    let scratch = crate::common::scratch("explain");
    let file = scratch.path().join("past.svg");
    std::fs::write(&file, svg).unwrap();
    let plan = serde_json::json!({"url": crate::common::browser::file_url(&file)});
    if let Some(seen) = crate::common::browser::inspect(&plan) {
        crate::common::browser::assert_clean(&seen);
    }
}

/// A past table of more than 300 nodes is not laid out as SVG (an error
/// naming it), and is still written as DOT.
#[test]
fn explain_svg_refuses_a_graph_too_big_to_lay_out() {
    let inputs: Vec<String> = (0..160).map(|k| format!("    input b{k}: bool;")).collect();
    let conjunction: Vec<String> = (0..160).map(|k| format!("b{k}")).collect();
    let spec = format!(
        "monitor wide {{\n{}\n    property all = {};\n}}\n",
        inputs.join("\n"),
        conjunction.join(" && ")
    );
    let scratch = crate::common::scratch("wide");
    let file = scratch.path().join("wide.hind");
    std::fs::write(&file, spec).unwrap();
    let file = file.to_str().unwrap();
    let svg = run(&["explain", file, "--format", "svg"]);
    assert_eq!(svg.code, Some(2), "{}", svg.stderr);
    assert!(svg.stderr.contains("monitor wide: past table: 320 nodes are more than --format svg lays out (300); use --format dot and Graphviz"), "{}", svg.stderr);
    let dot = run(&["explain", file, "--format", "dot"]);
    assert_eq!(dot.code, Some(0), "{}", dot.stderr);
    assert!(dot.stdout.contains("s318 -> out0;"), "{}", dot.stdout);
}
