//! Helpers shared by the test modules: where the workspace and the fixtures
//! are, and one way to run the `hindsight` binary and keep what it printed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The workspace root (the examples and docs are found from here).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fixtures directory, `cli/tests/fixtures`.
pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A fresh directory for one test, named `hindsight-NAME-…` under the
/// system's temporary directory and removed when dropped (also when the test
/// fails).
pub(crate) fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("hindsight-{name}-"))
        .tempdir()
        .expect("a scratch directory")
}

/// The `hindsight` binary under test, in the test's own working directory.
pub(crate) fn hindsight() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hindsight"))
}

/// What one run of the binary produced.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit status (`None` if a signal ended the run).
    pub(crate) code: Option<i32>,
    /// Everything printed on stdout.
    pub(crate) stdout: String,
    /// Everything printed on stderr.
    pub(crate) stderr: String,
}

impl Run {
    /// The run as one text, for snapshots.
    pub(crate) fn transcript(&self) -> String {
        format!(
            "exit status: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// What a run is given on its standard input.
#[derive(Clone, Copy)]
pub(crate) enum Input<'a> {
    /// Nothing: stdin is the null device.
    Null,
    /// These bytes, all of which must be written: a pipe the binary closes
    /// early fails the test.
    All(&'a [u8]),
    /// These bytes, of which the binary may read only a part (it may stop at
    /// a too long line): a pipe it closes early is not a failure.
    Prefix(&'a [u8]),
}

/// Starts `hindsight ARGS` in `dir` with `stdin`, its stdout and stderr piped.
pub(crate) fn spawn_in(dir: &Path, args: &[&str], stdin: Stdio) -> Child {
    hindsight()
        .current_dir(dir)
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hindsight binary runs")
}

/// Runs `hindsight ARGS` in `dir` with `input` as its stdin; its stdout and
/// stderr must be UTF-8.
pub(crate) fn run_in(dir: &Path, args: &[&str], input: Input) -> Run {
    let stdin = match input {
        Input::Null => Stdio::null(),
        Input::All(_) | Input::Prefix(_) => Stdio::piped(),
    };
    let mut child = spawn_in(dir, args, stdin);
    if let Some(mut pipe) = child.stdin.take() {
        match input {
            Input::Null => {}
            Input::All(bytes) => pipe.write_all(bytes).expect("stdin accepts the trace"),
            Input::Prefix(bytes) => match pipe.write_all(bytes) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    panic!("stdin accepts the trace: {e}")
                }
                _ => {}
            },
        }
    }
    let out = child
        .wait_with_output()
        .expect("the hindsight binary finishes");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `hindsight ARGS` in the fixtures directory with all of `stdin` as its
/// input.
pub(crate) fn run(args: &[&str], stdin: &str) -> Run {
    run_in(&fixtures(), args, Input::All(stdin.as_bytes()))
}

/// The output of `hindsight check SPEC --trace TRACE [extra]`, the two paths
/// taken from the workspace root, run in the test's own working directory.
pub(crate) fn check_from_root(spec: &str, trace: &str, extra: &[&str]) -> Output {
    hindsight()
        .arg("check")
        .arg(root().join(spec))
        .arg("--trace")
        .arg(root().join(trace))
        .args(extra)
        .output()
        .expect("run hindsight")
}

/// Asserts that `text` (what a command printed) contains each of `needles`.
pub(crate) fn assert_contains_all(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "lacks {needle:?}:\n{text}");
    }
}

/// Asserts that each of `lines` is a whole line of `text`.
pub(crate) fn assert_has_lines(text: &str, lines: &[&str]) {
    for line in lines {
        assert!(
            text.lines().any(|l| l == *line),
            "missing {line:?} in\n{text}"
        );
    }
}

/// Pages and pictures opened in the system's headless Chromium by
/// tests/browser/inspect.mjs (playwright-core drives it).
pub(crate) mod browser {
    use serde_json::Value;
    use std::path::Path;
    use std::process::Command;

    /// `file://` URL of `path`.
    pub(crate) fn file_url(path: &Path) -> String {
        let path = path.canonicalize().expect("the file exists");
        format!("file://{}", path.display())
    }

    /// What `plan` shows in Chromium (see inspect.mjs), or `None` when
    /// Chromium or the script's dependencies are not installed — a failure
    /// instead when HINDSIGHT_REQUIRE_BROWSER is set, as CI sets it.
    pub(crate) fn inspect(plan: &Value) -> Option<Value> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser");
        let chromium = std::env::var("HINDSIGHT_CHROMIUM").unwrap_or("/usr/bin/chromium".into());
        let ready =
            Path::new(&chromium).exists() && dir.join("node_modules/playwright-core").exists();
        if !ready {
            assert!(
                std::env::var_os("HINDSIGHT_REQUIRE_BROWSER").is_none(),
                "HINDSIGHT_REQUIRE_BROWSER is set but {chromium} or tests/browser/node_modules is missing \
                 (apt-get install chromium; cd tests/browser && npm ci)"
            );
            eprintln!("note: browser checks skipped (no {chromium} or tests/browser/node_modules)");
            return None;
        }
        let scratch = super::scratch("plan");
        let plan_file = scratch.path().join("plan.json");
        std::fs::write(&plan_file, plan.to_string()).unwrap();
        let out = Command::new("node")
            .arg(dir.join("inspect.mjs"))
            .arg(&plan_file)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "inspect.mjs failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(serde_json::from_slice(&out.stdout).expect("inspect.mjs prints JSON"))
    }

    /// No console error, no uncaught exception, no request off the machine.
    pub(crate) fn assert_clean(seen: &Value) {
        assert_eq!(
            seen["consoleErrors"],
            serde_json::json!([]),
            "console errors"
        );
        assert_eq!(seen["pageErrors"], serde_json::json!([]), "page errors");
        assert_eq!(seen["requests"], serde_json::json!([]), "network requests");
    }
}
