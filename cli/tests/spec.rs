//! The spec corpus, `tests/spec/`: one directory per kind of case, one case
//! per `.hind` file, its expected transcript (exit status, stdout, stderr) in
//! the `.out` file of the same name, each run in its own directory so paths
//! print short:
//!
//! - `pass/`: `hindsight explain NAME.hind` succeeds; the transcript is its report;
//! - `fail/`: `hindsight explain NAME.hind` reports the diagnostics its first
//!   line names, worked out by hand (`// codes: E0200 W0100`, in any order),
//!   and exits 2 if one is an error;
//! - `run/`: `hindsight check NAME.hind --trace NAME.jsonl`;
//! - `explain/`: `hindsight check NAME.hind --trace NAME.jsonl --explain`.
//!
//! A new case is a `.hind` (and `.jsonl`) file; `HINDSIGHT_BLESS=1 cargo test
//! -p hindsight-cli --test all spec::` writes the `.out` files of new or
//! changed cases, to be read and checked by hand before committing (verdicts
//! worked out from the semantics, diagnostics read for their wording). The
//! report's measured compile time is written `[time]`.

use crate::common::{root, run_in, Input};
use std::fs;
use std::path::{Path, PathBuf};

/// Every case of directory `kind`, in name order.
fn cases(kind: &str) -> Vec<PathBuf> {
    let dir = root().join("tests/spec").join(kind);
    let mut specs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "hind"))
        .collect();
    specs.sort();
    assert!(!specs.is_empty(), "no cases in {}", dir.display());
    specs
}

/// Runs every case of `kind` with the arguments `args(name)` gives (`name`
/// without extension) and compares each transcript with its `.out` file;
/// reports every mismatch at once.
fn check_all(kind: &str, expected_status: Option<i32>, args: impl Fn(&str) -> Vec<String>) {
    let bless = std::env::var_os("HINDSIGHT_BLESS").is_some();
    let mut failures = Vec::new();
    for spec in cases(kind) {
        let dir = spec.parent().unwrap_or(Path::new("."));
        let name = spec
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 case name");
        let args = args(name);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = run_in(dir, &args, Input::Null);
        let transcript = without_timings(&run.transcript());
        let out = spec.with_extension("out");
        if kind == "fail" && expected_codes(&spec).is_none() {
            failures.push(format!(
                "{kind}/{name}: the first line must name the codes (// codes: …)"
            ));
            continue;
        }
        if let Some(codes) = expected_codes(&spec) {
            let found = reported_codes(&run.stderr);
            if found != codes {
                failures.push(format!(
                    "{kind}/{name}: codes {found:?}, expected {codes:?}\n{transcript}"
                ));
                continue;
            }
        }
        let expected_status = expected_status.or_else(|| {
            expected_codes(&spec).map(|codes| {
                if codes.iter().any(|c| c.starts_with('E')) {
                    2
                } else {
                    0
                }
            })
        });
        if let Some(status) = expected_status {
            if run.code != Some(status) {
                failures.push(format!(
                    "{kind}/{name}: exit {:?}, expected {status}\n{transcript}",
                    run.code
                ));
                continue;
            }
        }
        match fs::read_to_string(&out) {
            Ok(expected) if expected == transcript => {}
            _ if bless => fs::write(&out, &transcript).expect("the .out file is writable"),
            Ok(expected) => failures.push(format!(
                "{kind}/{name}: the transcript differs from {name}.out\n--- expected\n{expected}--- got\n{transcript}"
            )),
            Err(_) => failures.push(format!(
                "{kind}/{name}: no {name}.out (run with HINDSIGHT_BLESS=1 and check it by hand)\n{transcript}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The codes a case's first line names (`// codes: E0200 E0201`), sorted.
fn expected_codes(spec: &Path) -> Option<Vec<String>> {
    let text = fs::read_to_string(spec).ok()?;
    let codes = text.lines().next()?.strip_prefix("// codes:")?;
    let mut codes: Vec<String> = codes.split_whitespace().map(str::to_string).collect();
    codes.sort();
    Some(codes)
}

/// The codes of the diagnostics in `stderr` (`error[E0200]: …`), sorted.
fn reported_codes(stderr: &str) -> Vec<String> {
    let mut codes: Vec<String> = stderr
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("error[")
                .or_else(|| line.strip_prefix("warning["))?;
            Some(rest.split_once(']')?.0.to_string())
        })
        .collect();
    codes.sort();
    codes
}

/// `text` with the measured compile time of a report (`compiled in 0.835 ms`)
/// written as `compiled in [time]`: the only part of a transcript that varies.
fn without_timings(text: &str) -> String {
    text.lines()
        .map(|line| match line.split_once(", compiled in ") {
            Some((head, time)) if time.ends_with(" ms") => format!("{head}, compiled in [time]"),
            _ => line.to_string(),
        })
        .map(|line| line + "\n")
        .collect()
}

#[test]
fn pass_cases_explain_cleanly() {
    check_all("pass", Some(0), |name| {
        vec!["explain".into(), format!("{name}.hind")]
    });
}

#[test]
fn fail_cases_report_their_diagnostics() {
    check_all("fail", None, |name| {
        vec!["explain".into(), format!("{name}.hind")]
    });
}

#[test]
fn run_cases_print_their_verdicts() {
    check_all("run", None, |name| {
        vec![
            "check".into(),
            format!("{name}.hind"),
            "--trace".into(),
            format!("{name}.jsonl"),
        ]
    });
}

#[test]
fn explain_cases_print_their_explanations() {
    check_all("explain", None, |name| {
        vec![
            "check".into(),
            format!("{name}.hind"),
            "--trace".into(),
            format!("{name}.jsonl"),
            "--explain".into(),
        ]
    });
}
