//! `hindsight sample`: every block of every example spec gives lines that
//! `hindsight check` reads as steps or events of that block; the lines of
//! the hand-worked cases are exactly the ones below.

use crate::common::{root, run_in, Input, Run};
use std::path::{Path, PathBuf};

/// Every `.hind` file under `dir`, recursively, in path order.
fn specs_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a readable directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            specs_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "hind") {
            out.push(path);
        }
    }
}

/// `hindsight ARGS` in the workspace root with `stdin`.
fn hindsight(args: &[&str], stdin: &str) -> Run {
    run_in(&root(), args, Input::All(stdin.as_bytes()))
}

/// `hindsight sample` of a spec written to a scratch file.
fn sample_of(name: &str, source: &str) -> Run {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sample");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let spec = dir.join(name);
    std::fs::write(&spec, source).expect("spec written");
    let spec = spec.to_string_lossy().into_owned();
    hindsight(&["sample", &spec], "")
}

/// The example specs, the spec corpus and the CLI's fixtures: monitors plain
/// and reading records (filters, pointers, defaults, times), systems with
/// and without time, populations.
#[test]
fn every_example_block_samples_lines_check_reads() {
    let mut specs = Vec::new();
    specs_under(&root().join("examples"), &mut specs);
    for corpus in ["tests/spec/pass", "tests/spec/run", "tests/spec/explain"] {
        specs_under(&root().join(corpus), &mut specs);
    }
    specs_under(&root().join("cli/tests/fixtures"), &mut specs);
    assert!(specs.len() >= 50, "{}", specs.len());
    let (mut sampled, mut unlowerable) = (0, 0);
    for spec in &specs {
        let source = std::fs::read_to_string(spec).expect("readable");
        let Ok(checked) = hindsight_compiler::compile::check_source(&source) else {
            continue;
        };
        let path = spec.to_string_lossy().into_owned();
        for (kind, name, _) in hindsight_cli::compile::blocks(&checked.spec) {
            let sample = hindsight(&["sample", &path, "--block", name], "");
            assert_eq!(sample.code, Some(0), "{path} {name}: {}", sample.stderr);
            assert!(
                !sample.stderr.contains("warning"),
                "{path}: {}",
                sample.stderr
            );
            let check = hindsight(
                &["check", &path, "--block", name, "--trace", "-"],
                &sample.stdout,
            );
            // A block that cannot be lowered (a fixture of E0407) is sampled
            // all the same, but cannot be checked.
            if check.code == Some(2) && check.stderr.contains("error[E04") {
                unlowerable += 1;
                continue;
            }
            assert_ne!(
                check.code,
                Some(2),
                "{path} {name}:\n{}{}",
                sample.stdout,
                check.stderr
            );
            // The sample is a step (a monitor's line passes its filter), or,
            // for a system, has a choice whose guards are printed or a
            // message a protocol constrains.
            let first = match kind {
                "system" => "{\"event\": ",
                _ => "{\"step\": 0",
            };
            assert!(
                check.stdout.lines().any(|l| l.starts_with(first)),
                "{path} {name}:\n{}{}",
                sample.stdout,
                check.stdout
            );
            sampled += 1;
        }
    }
    assert!(sampled >= 55, "{sampled} blocks sampled");
    assert!(
        unlowerable <= 2,
        "{unlowerable} blocks could not be checked"
    );
}

#[test]
fn a_monitor_reading_records_gets_its_inputs_where_they_lie() {
    let run = sample_of(
        "records.hind",
        "enum Tool { search, deploy }\n\
         monitor m {\n\
             steps where !present(\"/heartbeat\") && (\"/type\" == \"call\" || \"/type\" == \"result\");\n\
             time ts from \"/at\";\n\
             input tool: Tool from \"/attributes/tool~1name\";\n\
             input code: int from \"/attributes/result/code\" default -1;\n\
             input retry: bool from present(\"/retry_of\");\n\
             input ok: bool;\n\
             property p = ok -> code == 0;\n\
         }\n",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "{\"at\": \"2026-01-01T00:00:00Z\", \"attributes\": {\"tool/name\": \"search\", \
         \"result\": {\"code\": 0}}, \"retry_of\": \"any value\", \"ok\": false, \"type\": \"call\"}\n"
    );
}

#[test]
fn a_filter_input_takes_the_filters_literal() {
    // `kind` must be `result` for the line to be a step: its placeholder
    // (the first variant, `call`) would not do.
    let run = sample_of(
        "filtered.hind",
        "enum Kind { call, result }\n\
         monitor m {\n\
             steps where \"/kind\" == \"result\";\n\
             input kind: Kind from \"/kind\";\n\
             property p = kind == result;\n\
         }\n",
    );
    assert_eq!(run.stdout, "{\"kind\": \"result\"}\n", "{}", run.stderr);
}

#[test]
fn an_unsatisfiable_filter_is_said_and_the_inputs_still_shown() {
    let run = sample_of(
        "never.hind",
        "monitor m {\n\
             steps where \"/t\" == \"a\" && \"/t\" == \"b\";\n\
             input x: bool from \"/x\";\n\
             property p = x;\n\
         }\n",
    );
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "{\"x\": false}\n");
    assert!(
        run.stderr
            .contains("no line this sample can write satisfies"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_timed_system_gives_every_lifeline_its_time_at_its_first_event() {
    let run = sample_of(
        "timed.hind",
        "system s {\n\
             time ts;\n\
             lifeline A { x: int }\n\
             lifeline B { }\n\
             lifeline C { ready: bool }\n\
             guard g at C = ready && O[0, 5s] ready;\n\
         }\n",
    );
    assert_eq!(
        run.stdout,
        "{\"lifeline\": \"A\", \"kind\": \"act\", \"store\": {\"x\": 0, \"ts\": \"2026-01-01T00:00:00Z\"}}\n\
         {\"lifeline\": \"A\", \"kind\": \"send\", \"to\": \"B\", \"msg\": \"m0\"}\n\
         {\"lifeline\": \"B\", \"kind\": \"recv\", \"msg\": \"m0\", \"store\": {\"ts\": \"2026-01-01T00:00:00Z\"}}\n\
         {\"lifeline\": \"C\", \"kind\": \"choice\", \"store\": {\"ready\": false, \"ts\": \"2026-01-01T00:00:00Z\"}}\n",
        "{}",
        run.stderr
    );
}

#[test]
fn several_blocks_need_a_choice() {
    let run = sample_of(
        "two.hind",
        "monitor a { input x: bool; property p = x; }\nmonitor b { input y: bool; property q = y; }\n",
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("choose one with `--block NAME`"),
        "{}",
        run.stderr
    );
}
