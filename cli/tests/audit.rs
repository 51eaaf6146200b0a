//! Audits of many traces: directories, patterns and repeated `--trace`
//! (each file checked as if alone, its lines naming it), sessions of a keyed
//! log (each session checked as if it were a file of its own), any number
//! of jobs (the same bytes as one), summaries, changes and the table.
//!
//! The oracle throughout is the lone run: `hindsight check` over one plain
//! file, whose output the rest of the suite pins down. Logs are generated
//! from the coding agent's session log with seeded variations.

use crate::common::{root, run_in, scratch, Input, Run};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// The coding agent's session log, one JSON value per line.
fn session_records() -> Vec<Value> {
    let text = fs::read_to_string(root().join("examples/coding_agent/session.jsonl"))
        .expect("the example log");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

/// A small deterministic generator (an LCG), so that runs are reproducible.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// Agent run `i`: the example session renamed `sess_{i}`, with seeded
/// variations: a tool result dropped (calls go unanswered, a deploy may
/// lose its passing tests), records shifted later by up to a minute.
fn agent_run(records: &[Value], i: usize) -> Vec<Value> {
    let mut rng = Lcg(i as u64 * 7919 + 17);
    let results: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| r["type"] == "tool_result")
        .map(|(k, _)| k)
        .collect();
    let dropped = i
        .is_multiple_of(3)
        .then(|| results[rng.below(results.len())]);
    let shift_from = rng.below(records.len());
    let shift_ms = rng.below(60_000) as i64;
    records
        .iter()
        .enumerate()
        .filter(|(k, _)| Some(*k) != dropped)
        .map(|(k, r)| {
            let mut r = r.clone();
            r["session"] = Value::from(format!("sess_{i:04}"));
            if k >= shift_from {
                if let Some(t) = r["timestamp"].as_str() {
                    let t: jiff::Timestamp = t.parse().expect("an RFC 3339 time");
                    let later = t + jiff::SignedDuration::from_millis(shift_ms);
                    r["timestamp"] = Value::from(later.to_string());
                }
            }
            r
        })
        .collect()
}

/// `records` as JSON Lines.
fn jsonl(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

/// `hindsight check ARGS` in the workspace root.
fn check(args: &[&str]) -> Run {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    run_in(&root(), &all, Input::Null)
}

/// `hindsight check ARGS --jobs N` for each of `jobs`, which must all give
/// the same exit status, stdout and stderr; the first run.
fn same_on_jobs(args: &[&str], jobs: &[&str]) -> Run {
    let runs: Vec<Run> = jobs
        .iter()
        .map(|&n| check(&[args, &["--jobs", n][..]].concat()))
        .collect();
    for (run, n) in runs.iter().zip(jobs).skip(1) {
        assert_eq!(run.code, runs[0].code, "--jobs {n}: {args:?}");
        assert_eq!(run.stdout, runs[0].stdout, "--jobs {n}: {args:?}");
        assert_eq!(run.stderr, runs[0].stderr, "--jobs {n}: {args:?}");
    }
    runs.into_iter()
        .next()
        .expect("at least one number of jobs")
}

/// `text` with `"trace": NAME, ` after the opening brace of each line, as a
/// multi-trace run writes it.
fn named(text: &str, name: &str) -> String {
    let head = format!("{{\"trace\": {}, ", Value::from(name));
    text.lines()
        .map(|l| format!("{}\n", l.replacen('{', &head, 1)))
        .collect()
}

/// Writes `n` agent runs into `dir` (`run-0000.jsonl`, ...); their paths.
fn write_runs(dir: &Path, n: usize) -> Vec<PathBuf> {
    let records = session_records();
    (0..n)
        .map(|i| {
            let path = dir.join(format!("run-{i:04}.jsonl"));
            fs::write(&path, jsonl(&agent_run(&records, i))).expect("a log written");
            path
        })
        .collect()
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn a_directory_of_runs_prints_each_lone_run_naming_its_file() {
    let held = scratch("audit-dir");
    let dir = held.path();
    let mut files = write_runs(dir, 24);
    fs::create_dir_all(dir.join("more")).expect("a subdirectory");
    let nested = dir.join("more/run-late.jsonl");
    fs::copy(&files[3], &nested).expect("a nested log");
    fs::write(dir.join("notes.txt"), "not a trace").expect("a stray file");
    // In path order: `more/` before `run-`.
    files.insert(0, nested);
    let spec = "examples/coding_agent/rules.hind";
    let mut expected = String::new();
    for file in &files {
        let lone = check(&[spec, "--trace", text(file)]);
        assert_eq!(lone.code, Some(0), "{}", lone.stderr);
        expected.push_str(&named(&lone.stdout, text(file)));
    }
    let all = check(&[spec, "--trace", text(dir)]);
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    assert_eq!(all.stderr, "");
    assert_eq!(all.stdout, expected);
    // Some runs lost a result: the audit saw violations.
    assert!(all.stdout.contains("\"calls_answered\": \"false\""));
    // A pattern, and repeated --trace arguments, in argument order.
    let pattern = dir.join("run-000*.jsonl");
    let by_pattern = check(&[spec, "--trace", text(&pattern)]);
    let first_ten: String = files[1..11]
        .iter()
        .map(|f| named(&check(&[spec, "--trace", text(f)]).stdout, text(f)))
        .collect();
    assert_eq!(by_pattern.stdout, first_ten);
    let two = check(&[spec, "--trace", text(&files[5]), "--trace", text(&files[2])]);
    let lone = |f: &Path| named(&check(&[spec, "--trace", text(f)]).stdout, text(f));
    assert_eq!(two.stdout, lone(&files[5]) + &lone(&files[2]));
}

#[test]
fn systems_and_populations_take_many_traces_too() {
    for (spec, trace) in [
        (
            "examples/code_review/review.hind",
            "examples/code_review/figure2.jsonl",
        ),
        (
            "examples/epidemic/epidemic.hind",
            "examples/epidemic/run.jsonl",
        ),
    ] {
        let held = scratch("audit-blocks");
        let dir = held.path();
        let a = dir.join("a.jsonl");
        let b = dir.join("b.jsonl");
        let original = fs::read_to_string(root().join(trace)).expect("the example trace");
        fs::write(&a, &original).expect("a copy");
        // The second copy stops early.
        let half: String = original
            .lines()
            .take(original.lines().count() / 2)
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(&b, half).expect("a shorter copy");
        let lone = |f: &Path| named(&check(&[spec, "--trace", text(f)]).stdout, text(f));
        let both = check(&[
            spec,
            "--trace",
            text(&a),
            "--trace",
            text(&b),
            "--jobs",
            "2",
        ]);
        assert_eq!(both.code, Some(0), "{}", both.stderr);
        assert_eq!(both.stdout, lone(&a) + &lone(&b), "{spec}");
    }
}

#[test]
fn a_thousand_runs_give_the_same_bytes_on_one_two_or_seven_jobs() {
    let held = scratch("audit-jobs");
    let dir = held.path();
    let files = write_runs(dir, 1000);
    // One run has a bad line: its error stops it, the others go on.
    let bad = &files[500];
    let mut lines: Vec<String> = fs::read_to_string(bad)
        .expect("a log")
        .lines()
        .map(str::to_string)
        .collect();
    lines[6] = "{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": 7}}".into();
    fs::write(bad, lines.join("\n") + "\n").expect("a bad log");
    let spec = "examples/coding_agent/timing.hind";
    for extra in [
        &[][..],
        &["--summary"][..],
        &["--changes", "--fail-on-violation"][..],
    ] {
        let mut args = vec![spec, "--trace", text(dir)];
        args.extend_from_slice(extra);
        let run = same_on_jobs(&args, &["1", "2", "7"]);
        assert_eq!(run.code, Some(2));
        let bad_name = text(bad);
        assert_eq!(
            run.stderr,
            format!(
                "error: {bad_name}:7:58: input `tool` (at \"/attributes/gen_ai.tool.name\") \
                 expects a variant of enum `Tool` (one of: read_file, edit_file, run_tests, \
                 deploy), found number 7\n"
            ),
            "{extra:?}"
        );
    }
    // The summary has a line per run and the total, which counts them.
    let summary = check(&[spec, "--trace", text(dir), "--summary"]);
    let lines: Vec<Value> = summary
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 1001);
    let total = &lines[1000];
    assert_eq!(total["summary"], "total");
    assert_eq!(total["traces"], 1000);
    assert_eq!(total["sessions"], 999);
    assert_eq!(total["errors"], 1);
    let violated = lines[..1000]
        .iter()
        .filter(|l| l["answered"] == "false")
        .count();
    assert_eq!(total["answered.violated"], violated as u64);
    assert!(violated > 0);
    assert_eq!(
        lines[500]["error"]
            .as_str()
            .map(|e| e.starts_with("7:58: ")),
        Some(true)
    );
    // The one command: the directory and a keyed interleaved log of
    // 200 more sessions, every file split by session, summarised, on one
    // and on two jobs.
    let (_, log) = interleaved(200, 7);
    let mixed = dir.join("zz-mixed.jsonl");
    fs::write(&mixed, log.replace("sess_", "mixed_")).expect("the interleaved log");
    let audit = |jobs: &str| {
        check(&[
            spec,
            "--trace",
            text(dir),
            "--key",
            "/session",
            "--summary",
            "--jobs",
            jobs,
        ])
    };
    let (one, two) = (audit("1"), audit("2"));
    assert_eq!(
        (&one.stdout, &one.stderr, one.code),
        (&two.stdout, &two.stderr, two.code)
    );
    let total: Value =
        serde_json::from_str(one.stdout.lines().last().unwrap_or("{}")).expect("the total line");
    assert_eq!(total["traces"], 1001);
    // 1000 runs, one session each, and the log's 200: keyed, the bad line
    // (which has no session key) is its own error, and its run's session
    // is checked without it.
    assert_eq!(total["sessions"], 1000 + 200);
    assert_eq!(total["errors"], 1);
    assert_eq!(one.code, Some(2));
}

/// `n` agent runs interleaved into one log, each run's records in order.
fn interleaved(n: usize, seed: u64) -> (Vec<Vec<Value>>, String) {
    let records = session_records();
    let runs: Vec<Vec<Value>> = (0..n).map(|i| agent_run(&records, i)).collect();
    let mut next = vec![0usize; n];
    let mut rng = Lcg(seed);
    let mut log = String::new();
    let mut left: Vec<usize> = (0..n).collect();
    while !left.is_empty() {
        let pick = rng.below(left.len());
        let i = left[pick];
        log.push_str(&format!("{}\n", runs[i][next[i]]));
        next[i] += 1;
        if next[i] == runs[i].len() {
            left.swap_remove(pick);
        }
    }
    (runs, log)
}

#[test]
fn each_session_of_a_keyed_log_is_checked_as_if_alone() {
    let held = scratch("audit-keyed");
    let dir = held.path();
    let (runs, log) = interleaved(40, 99);
    let mixed = dir.join("mixed.jsonl");
    fs::write(&mixed, &log).expect("the interleaved log");
    for spec in [
        "examples/coding_agent/rules.hind",
        "examples/coding_agent/timing.hind",
    ] {
        let keyed = check(&[spec, "--trace", text(&mixed), "--key", "/session"]);
        assert_eq!(keyed.code, Some(0), "{}", keyed.stderr);
        for (i, run) in runs.iter().enumerate() {
            let alone = dir.join(format!("alone-{i}.jsonl"));
            fs::write(&alone, jsonl(run)).expect("one session");
            let lone = check(&[spec, "--trace", text(&alone)]);
            let head = format!("{{\"session\": \"sess_{i:04}\", ");
            let mine: String = keyed
                .stdout
                .lines()
                .filter(|l| l.starts_with(&head))
                .map(|l| format!("{}\n", l.replacen(&head, "{", 1)))
                .collect();
            assert_eq!(mine, lone.stdout, "{spec}: session {i}");
        }
        // rules.hind ends a session at its `session.end` record, amid the
        // other sessions' steps; timing.hind ends them all with the log.
        let lines: Vec<&str> = keyed.stdout.lines().collect();
        let last_step = lines
            .iter()
            .rposition(|l| l.contains("\"step\": "))
            .unwrap_or(0);
        let early = lines[..last_step]
            .iter()
            .filter(|l| l.contains("\"end\": true"))
            .count();
        assert_eq!(early > 0, spec.ends_with("rules.hind"), "{spec}");
    }
}

#[test]
fn an_ended_session_frees_its_place_and_its_key_starts_afresh() {
    let held = scratch("audit-ended");
    let dir = held.path();
    let records = session_records();
    // Fifty sessions one after another, each ending with its session.end
    // record; the last key comes back for a second session.
    let mut log = String::new();
    for i in 0..50 {
        log.push_str(&jsonl(&agent_run(&records, i)));
    }
    log.push_str(&jsonl(&agent_run(&records, 49)));
    let path = dir.join("sequential.jsonl");
    fs::write(&path, &log).expect("a log");
    let spec = "examples/coding_agent/rules.hind";
    let keyed = check(&[
        spec,
        "--trace",
        text(&path),
        "--key",
        "/session",
        "--max-sessions",
        "2",
    ]);
    assert_eq!(keyed.code, Some(0), "{}", keyed.stderr);
    let ends: Vec<&str> = keyed
        .stdout
        .lines()
        .filter(|l| l.contains("\"end\": true"))
        .collect();
    assert_eq!(ends.len(), 51);
    assert!(ends[50].starts_with("{\"session\": \"sess_0049\", \"end\": true"));
    // Each end line follows its session's last step, before the next
    // session's first.
    let mut open: Option<String> = None;
    for line in keyed.stdout.lines() {
        let v: Value = serde_json::from_str(line).expect("JSON");
        let s = v["session"].as_str().expect("a session").to_string();
        if v.get("end").is_some() {
            assert_eq!(open.take().as_deref(), Some(s.as_str()));
        } else if let Some(o) = &open {
            assert_eq!(o, &s);
        } else {
            open = Some(s);
        }
    }
    // Without the end clause (timing.hind has none), a third session is one too many.
    let timing = check(&[
        "examples/coding_agent/timing.hind",
        "--trace",
        text(&path),
        "--key",
        "/session",
        "--max-sessions",
        "2",
    ]);
    assert_eq!(timing.code, Some(2));
    assert!(
        timing.stderr.contains("would be live session 3"),
        "{}",
        timing.stderr
    );
}

#[test]
fn keyed_logs_refuse_steps_without_keys_and_too_many_sessions() {
    let held = scratch("audit-keyed-errors");
    let dir = held.path();
    let spec = "examples/coding_agent/timing.hind";
    let (_, log) = interleaved(3, 5);
    let mixed = dir.join("mixed.jsonl");
    fs::write(&mixed, &log).expect("a log");
    let limited = check(&[
        spec,
        "--trace",
        text(&mixed),
        "--key",
        "/session",
        "--max-sessions",
        "2",
    ]);
    assert_eq!(limited.code, Some(2));
    // The line of the first step of the third session to start.
    let third = log
        .lines()
        .enumerate()
        .filter_map(|(k, l)| Some((k, serde_json::from_str::<Value>(l).ok()?)))
        .filter(|(_, v)| v["type"].as_str().is_some_and(|t| t.starts_with("tool_")))
        .scan(Vec::new(), |seen: &mut Vec<String>, (k, v)| {
            let s = v["session"].as_str()?.to_string();
            if !seen.contains(&s) {
                seen.push(s.clone());
            }
            Some((k, seen.len(), s))
        })
        .find(|(_, n, _)| *n == 3)
        .expect("three sessions");
    assert_eq!(
        limited.stderr,
        format!(
            "error: {}:{}:1: session \"{}\" would be live session 3 (--max-sessions 2); raise \
             the limit, or declare `sessions end where ...` in the monitor so that ended \
             sessions are freed\n",
            text(&mixed),
            third.0 + 1,
            third.2
        )
    );
    let keyless = dir.join("keyless.jsonl");
    fs::write(
        &keyless,
        "{\"type\": \"heartbeat\"}\n{\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\"}}\n",
    )
    .expect("a log");
    let rules = "examples/coding_agent/rules.hind";
    let run = check(&[rules, "--trace", text(&keyless), "--key", "/session"]);
    // The line is its own error (the rest of the log is checked), and the
    // run exits 2 at the end.
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr.lines().next(),
        Some(
            format!(
                "error: {}:2:67: no session key at \"/session\" (--key); every step of a keyed \
                 log names its session (this line is skipped)",
                text(&keyless)
            )
            .as_str()
        )
    );
    let bad = dir.join("bad.jsonl");
    fs::write(&bad, "{\"type\": \"tool_call\", \"session\": [1], \"attributes\": {\"gen_ai.tool.name\": \"deploy\"}}\n")
        .expect("a log");
    let run = check(&[rules, "--trace", text(&bad), "--key", "/session"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr.lines().next(),
        Some(
            format!(
                "error: {}:1:34: the session key at \"/session\" (--key) must be a string or \
                 an integer, found an array (this line is skipped)",
                text(&bad)
            )
            .as_str()
        )
    );
    let run = check(&[rules, "--trace", text(&bad), "--key", "session"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .contains("invalid value 'session' for '--key <POINTER>'"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_summary_gives_counts_first_violations_and_their_explanations() {
    let held = scratch("audit-summary");
    let dir = held.path();
    let spec = dir.join("door.hind");
    fs::write(
        &spec,
        "monitor door {\n    time ts from \"/t\";\n    input open: bool;\n    input alarm: bool;\n    \
         property shut_when_alarm = alarm -> !open;\n    property opens = F open;\n}\n",
    )
    .expect("a spec");
    let trace = dir.join("door.jsonl");
    // Worked by hand: shut_when_alarm is false at steps 1 and 3 (lines 3 and
    // 5: the blank line counts); opens is true from step 1 on.
    fs::write(
        &trace,
        "{\"t\": \"2026-01-01T00:00:00Z\", \"open\": false, \"alarm\": false}\n\n\
         {\"t\": \"2026-01-01T00:00:05Z\", \"open\": true, \"alarm\": true}\n\
         {\"t\": \"2026-01-01T00:00:09Z\", \"open\": false, \"alarm\": true}\n\
         {\"t\": \"2026-01-01T00:01:00.5Z\", \"open\": true, \"alarm\": true}\n",
    )
    .expect("a trace");
    let run = run_in(
        dir,
        &["check", "door.hind", "--trace", "door.jsonl", "--summary"],
        Input::Null,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    let s = &lines[0];
    assert_eq!(s["summary"], true);
    assert_eq!(s["steps"], 4);
    assert_eq!(s["shut_when_alarm"], "false");
    assert_eq!(s["shut_when_alarm.false_steps"], 2);
    assert_eq!(s["shut_when_alarm.first_false"], 1);
    assert_eq!(s["shut_when_alarm.first_false_line"], 3);
    assert_eq!(
        s["shut_when_alarm.first_false_time"],
        "2026-01-01T00:00:05Z"
    );
    let why = s["shut_when_alarm.why"].as_str().expect("an explanation");
    assert!(why.contains("open"), "{why}");
    assert_eq!(s["opens"], "true");
    assert_eq!(s["opens.false_steps"], 0);
    assert_eq!(s["opens.first_false"], Value::Null);
    assert_eq!(s["opens.first_false_time"], Value::Null);
    assert!(s.get("opens.why").is_none());
    // The explanation is the one --explain gives at that step.
    let explained = run_in(
        dir,
        &["check", "door.hind", "--trace", "door.jsonl", "--explain"],
        Input::Null,
    );
    let line = format!(
        "{{\"explain\": \"shut_when_alarm\", \"step\": 1, \"verdict\": \"false\", \"why\": {}}}",
        Value::from(why)
    );
    assert!(
        explained.stdout.lines().any(|l| l == line),
        "{}",
        explained.stdout
    );
    assert_eq!(
        run.stdout.lines().nth(1),
        Some(
            "{\"summary\": \"total\", \"traces\": 1, \"sessions\": 1, \"steps\": 4, \"errors\": 0, \"vacuous\": 0, \"unmatched\": 0, \
             \"shut_when_alarm.violated\": 1, \"opens.violated\": 0}"
        )
    );
}

#[test]
fn the_exit_status_covers_every_trace_and_session() {
    let held = scratch("audit-status");
    let dir = held.path();
    fs::write(
        dir.join("door.hind"),
        "monitor door {\n    input s: int from \"/s\";\n    input bad: bool from \"/bad\";\n    \
         property never_bad = !bad;\n}\n",
    )
    .expect("a spec");
    let runs = dir.join("runs");
    fs::create_dir_all(&runs).expect("a directory");
    let ok = "{\"s\": 1, \"bad\": false}\n{\"s\": 1, \"bad\": false}\n";
    let violating = "{\"s\": 2, \"bad\": false}\n{\"s\": 2, \"bad\": true}\n";
    let status = |args: &[&str]| {
        let mut all = vec!["check", "door.hind", "--fail-on-violation"];
        all.extend_from_slice(args);
        run_in(dir, &all, Input::Null).code
    };
    fs::write(runs.join("a.jsonl"), ok).expect("a log");
    assert_eq!(status(&["--trace", "runs"]), Some(0));
    // One violating trace among clean ones, on any number of jobs.
    fs::write(runs.join("b.jsonl"), violating).expect("a log");
    fs::write(runs.join("c.jsonl"), ok).expect("a log");
    assert_eq!(status(&["--trace", "runs", "--jobs", "2"]), Some(1));
    assert_eq!(
        status(&["--trace", "runs", "--jobs", "1", "--summary"]),
        Some(1)
    );
    // Sessions of one log: the violating session decides.
    fs::write(dir.join("clean.jsonl"), format!("{ok}{ok}")).expect("a log");
    fs::write(dir.join("mixed.jsonl"), format!("{ok}{violating}{ok}")).expect("a log");
    assert_eq!(status(&["--trace", "clean.jsonl", "--key", "/s"]), Some(0));
    assert_eq!(status(&["--trace", "mixed.jsonl", "--key", "/s"]), Some(1));
    assert_eq!(
        status(&["--trace", "mixed.jsonl", "--key", "/s", "--changes"]),
        Some(1)
    );
    // An error anywhere outranks a violation.
    fs::write(runs.join("d.jsonl"), "{\"s\": 1, \"bad\": 3}\n").expect("a log");
    assert_eq!(status(&["--trace", "runs"]), Some(2));
}

#[test]
fn a_plain_monitor_reads_a_keyed_log_as_records() {
    let held = scratch("audit-plain-keyed");
    let dir = held.path();
    fs::write(
        dir.join("m.hind"),
        "monitor m {\n    input a: bool;\n    property held = a;\n}\n",
    )
    .expect("a spec");
    fs::write(
        dir.join("log.jsonl"),
        "{\"session\": \"s1\", \"a\": true}\n{\"session\": 2, \"a\": false}\n\
         {\"session\": \"s1\", \"a\": true, \"extra\": 0}\n",
    )
    .expect("a log");
    let run = run_in(
        dir,
        &[
            "check",
            "m.hind",
            "--trace",
            "log.jsonl",
            "--key",
            "/session",
        ],
        Input::Null,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "{\"session\": \"s1\", \"step\": 0, \"held\": \"true\"}\n\
         {\"session\": 2, \"step\": 0, \"held\": \"false\"}\n\
         {\"session\": \"s1\", \"step\": 1, \"held\": \"true\"}\n\
         {\"session\": \"s1\", \"end\": true, \"held\": \"true\", \"held.false_steps\": 0, \"held.first_false\": null}\n\
         {\"session\": 2, \"end\": true, \"held\": \"false\", \"held.false_steps\": 1, \"held.first_false\": 0}\n"
    );
    // A null key is no key; a repeated key is refused.
    fs::write(dir.join("null.jsonl"), "{\"session\": null, \"a\": true}\n").expect("a log");
    let run = run_in(
        dir,
        &[
            "check",
            "m.hind",
            "--trace",
            "null.jsonl",
            "--key",
            "/session",
        ],
        Input::Null,
    );
    assert!(
        run.stderr.contains("null.jsonl:1:28: no session key"),
        "{}",
        run.stderr
    );
    fs::write(
        dir.join("twice.jsonl"),
        "{\"session\": 1, \"session\": 2, \"a\": true}\n",
    )
    .expect("a log");
    let run = run_in(
        dir,
        &[
            "check",
            "m.hind",
            "--trace",
            "twice.jsonl",
            "--key",
            "/session",
        ],
        Input::Null,
    );
    assert!(
        run.stderr
            .contains("twice.jsonl:1:16: two values at \"/session\""),
        "{}",
        run.stderr
    );
}

#[test]
fn a_progress_bar_never_touches_stdout() {
    let spec = "examples/coding_agent/rules.hind";
    let trace = "examples/coding_agent/session.jsonl";
    let plain = check(&[spec, "--trace", trace]);
    for when in ["always", "never", "auto"] {
        let run = check(&[spec, "--trace", trace, "--progress", when]);
        assert_eq!(run.stdout, plain.stdout, "--progress {when}");
        assert_eq!(run.stderr, plain.stderr, "--progress {when}");
    }
}

#[test]
fn changes_print_the_steps_where_a_verdict_changed() {
    let spec = "examples/coding_agent/rules.hind";
    let trace = "examples/coding_agent/session.jsonl";
    let all = check(&[spec, "--trace", trace]);
    let changes = check(&[spec, "--trace", trace, "--changes"]);
    assert_eq!(changes.code, all.code);
    // The rule, applied to the full output: a step line whose verdicts
    // differ from the previous step's (all "?" before the first), and the end.
    let mut last = String::new();
    let first = all.stdout.lines().next().map(|l| {
        let v: serde_json::Map<String, Value> = serde_json::from_str(l).expect("JSON");
        v.keys()
            .filter(|k| *k != "step")
            .map(|k| format!("{k}?"))
            .collect::<String>()
    });
    last.push_str(&first.unwrap_or_default());
    let mut expected = String::new();
    for line in all.stdout.lines() {
        let v: serde_json::Map<String, Value> = serde_json::from_str(line).expect("JSON");
        if v.contains_key("end") {
            expected.push_str(line);
            expected.push('\n');
            continue;
        }
        let verdicts: String = v
            .iter()
            .filter(|(k, _)| *k != "step")
            .map(|(k, x)| format!("{k}{}", x.as_str().unwrap_or_default()))
            .collect();
        if verdicts != last {
            expected.push_str(line);
            expected.push('\n');
            last = verdicts;
        }
    }
    assert_eq!(changes.stdout, expected);
    assert!(changes.stdout.lines().count() < all.stdout.lines().count());
}

#[test]
fn the_summary_table_aligns_traces_sessions_and_verdicts() {
    let lines = "\
{\"trace\": \"runs/a.jsonl\", \"session\": \"sess_1\", \"summary\": true, \"steps\": 23, \"deploy_gated\": \"false\", \"deploy_gated.false_steps\": 1, \"deploy_gated.first_false\": 17, \"deploy_gated.first_false_line\": 31, \"deploy_gated.why\": \"required !editing S tests_passed; at this step tests_passed = false\", \"calls_answered\": \"true\", \"calls_answered.false_steps\": 0, \"calls_answered.first_false\": null, \"calls_answered.first_false_line\": null}
{\"trace\": \"runs/a.jsonl\", \"session\": \"sess_2\", \"summary\": true, \"steps\": 9, \"deploy_gated\": \"true\", \"deploy_gated.false_steps\": 0, \"deploy_gated.first_false\": null, \"deploy_gated.first_false_line\": null, \"calls_answered\": \"false\", \"calls_answered.false_steps\": 0, \"calls_answered.first_false\": null, \"calls_answered.first_false_line\": null, \"calls_answered.why\": \"the trace ended with a call unanswered\"}
{\"trace\": \"runs/b.jsonl\", \"summary\": true, \"error\": \"7:12: malformed JSON: EOF while parsing\"}
{\"summary\": \"total\", \"traces\": 2, \"sessions\": 2, \"steps\": 32, \"errors\": 1, \"vacuous\": 0, \"unmatched\": 0, \"deploy_gated.violated\": 1, \"calls_answered.violated\": 1}
";
    insta::assert_snapshot!(hindsight_cli::audit::render_table(lines, 100));
    // A session key that reads like a verdict is no property column.
    let odd = "{\"session\": \"true\", \"summary\": true, \"steps\": 1, \"p\": \"true\", \"p.false_steps\": 0, \"p.first_false\": null}\n";
    let table = hindsight_cli::audit::render_table(odd, 100);
    let header = table.lines().nth(1).unwrap_or_default();
    assert_eq!(header.matches("session").count(), 0, "{table}");
    assert!(
        header.contains("SESSION") && header.contains(" p "),
        "{table}"
    );
}

/// One trace file read ahead on a second thread (`--jobs 2`) gives the bytes
/// of reading it on one (`--jobs 1`): across many batches of steps, with a
/// deadline (`F[0, 3s]`, stepped after the machine code) and `with reset`,
/// with `--explain` (one step at a time), `--changes` and `--summary`, and
/// with a bad line well past the first batches.
#[test]
fn a_lone_trace_read_ahead_gives_the_bytes_of_one_thread() {
    let held = scratch("audit-ahead");
    let dir = held.path();
    let spec = dir.join("ahead.hind");
    fs::write(
        &spec,
        "monitor ahead {\n    time t;\n    input request: bool;\n    input grant: bool;\n    \
         input alarm: bool;\n    property answered = G (request -> F[0, 3s] grant) with reset;\n    \
         property guarded = alarm -> (!grant S request);\n    \
         property waits = G (request -> F grant);\n}\n",
    )
    .expect("a spec");
    let mut x: u64 = 0x5EED;
    let lines: Vec<String> = (0..30_000u64)
        .map(|k| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let bit = |i: u32| (x >> (40 + i)) & 7 == 0;
            format!(
                "{{\"t\": {}.{:02}, \"request\": {}, \"grant\": {}, \"alarm\": {}}}",
                k / 4,
                25 * (k % 4),
                bit(0),
                bit(3),
                bit(6)
            )
        })
        .collect();
    let good = dir.join("good.jsonl");
    fs::write(&good, lines.join("\n") + "\n").expect("a trace");
    let mut broken = lines.clone();
    broken[19_999] = "{\"t\": 5000, \"request\": tru}".into();
    let bad = dir.join("bad.jsonl");
    fs::write(&bad, broken.join("\n") + "\n").expect("a trace");
    for trace in [&good, &bad] {
        for extra in [
            &[][..],
            &["--changes"][..],
            &["--summary"][..],
            &["--explain"][..],
            &["--fail-on-violation", "--engine", "interpreter"][..],
        ] {
            let mut args = vec![text(&spec), "--trace", text(trace)];
            args.extend_from_slice(extra);
            let run = same_on_jobs(&args, &["1", "2"]);
            assert!(run.stdout.lines().count() > 1, "{extra:?}");
            if trace == &bad {
                assert!(run.stderr.contains("bad.jsonl:20000:"), "{}", run.stderr);
            } else if extra.is_empty() {
                assert_eq!(run.stdout.lines().count(), 30_001);
            }
        }
    }
}
