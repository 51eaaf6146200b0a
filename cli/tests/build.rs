//! `hindsight build`: one standalone binary is built for each kind of block —
//! the trucks monitor, the code-review system, the epidemic population — (once
//! for the whole file each) and must behave exactly like `hindsight check` on
//! the same spec: same stdout, stderr and exit status, byte for byte.

use crate::common::{assert_contains_all, fixtures, hindsight, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

const SPEC: &str = "examples/trucks/trucks.hind";
const LOG: &str = "examples/trucks/trucks.jsonl";
const REVIEW: &str = "examples/code_review/review.hind";
const EPIDEMIC: &str = "examples/epidemic/epidemic.hind";
const CODING_AGENT: &str = "examples/coding_agent/rules.hind";
const CODING_AGENT_TIMING: &str = "examples/coding_agent/timing.hind";

/// A scratch directory of this test file.
fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("standalone")
}

/// The kept project directory the binary is built in.
fn project_dir() -> PathBuf {
    scratch().join("project")
}

/// The standalone binary for the trucks spec, built on first use.
fn standalone() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| build(SPEC, "trucks-monitor", "monitor `trucks`", &project_dir()))
}

/// The standalone binary for the README's code-review system.
fn system_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = scratch().join("system-project");
        build(REVIEW, "review-monitor", "system `review`", &dir)
    })
}

/// The standalone binary for the epidemic population example.
fn population_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = scratch().join("population-project");
        build(EPIDEMIC, "epidemic-monitor", "population `epidemic`", &dir)
    })
}

/// The standalone binary for the coding-agent monitor, which reads log records.
fn records_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let dir = scratch().join("records-project");
        build(
            CODING_AGENT,
            "coding-agent-monitor",
            "monitor `coding_agent`",
            &dir,
        )
    })
}

/// The standalone binary for the coding agent's rules in time, built in the
/// project of [`records_binary`] once that is built (so only the monitor's
/// code is compiled again).
fn timing_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        records_binary();
        let dir = scratch().join("records-project");
        build(
            CODING_AGENT_TIMING,
            "coding-agent-timing-monitor",
            "monitor `coding_agent_timing`",
            &dir,
        )
    })
}

/// The standalone binary `hindsight build SPEC -o ...` makes of `spec` (a
/// path from the workspace root), if this file builds that spec: built once
/// per test run with the cheap release settings of [`build`]. The docs' test
/// (`docs.rs`) runs their `./NAME` commands with it instead of building again.
pub(crate) fn binary_of(spec: &str) -> Option<&'static Path> {
    match spec {
        SPEC => Some(standalone()),
        REVIEW => Some(system_binary()),
        EPIDEMIC => Some(population_binary()),
        CODING_AGENT => Some(records_binary()),
        CODING_AGENT_TIMING => Some(timing_binary()),
        _ => None,
    }
}

/// Builds `spec` (its only block, `what`) into `scratch()/binary` with the
/// project kept in `dir`.
fn build(spec: &str, binary: &str, what: &str, dir: &Path) -> PathBuf {
    let binary = scratch().join(binary);
    std::fs::create_dir_all(scratch()).expect("scratch directory");
    // The project asks for LTO and one codegen unit (tested on the manifest
    // below); the test overrides them through cargo's environment so the
    // release build takes seconds, not a minute. What is built is the same code.
    let out = hindsight()
        .current_dir(root())
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .args(["build", spec, "-o"])
        .arg(&binary)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("hindsight build runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "build failed:\n{stderr}");
    assert!(
        stderr.starts_with(&format!("building {what} of {spec}")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!("built {}\n", binary.display())),
        "{stderr}"
    );
    let manifest =
        std::fs::read_to_string(dir.join("Cargo.toml")).expect("the kept project's manifest");
    let manifest: toml_edit::DocumentMut = manifest.parse().expect("a TOML manifest");
    let release = &manifest["profile"]["release"];
    assert_eq!(release["lto"].as_bool(), Some(true), "{manifest}");
    assert_eq!(release["codegen-units"].as_integer(), Some(1), "{manifest}");
    assert_eq!(release["panic"].as_str(), Some("abort"), "{manifest}");
    binary
}

/// Runs `command` in `dir` with `stdin` as its standard input.
fn run(mut command: Command, dir: &Path, stdin: Option<&Path>) -> Output {
    command
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Some(path) => command.stdin(std::fs::File::open(path).expect("stdin file")),
        None => command.stdin(Stdio::null()),
    };
    command.output().expect("the command runs")
}

/// Runs `hindsight check SPEC ARGS` and the trucks binary with `ARGS` in
/// `dir`, asserts they give identical results, and returns them.
fn both(dir: &Path, args: &[&str], stdin: Option<&Path>) -> Output {
    same(SPEC, standalone(), dir, args, stdin)
}

/// [`same`] in the workspace root with no stdin.
fn same_at_root(spec: &str, binary: &Path, args: &[&str]) -> Output {
    same(spec, binary, &root(), args, None)
}

/// Runs `hindsight check spec ARGS` and `binary ARGS` in `dir`, asserts they
/// give identical results (stdout, stderr, exit status), and returns them.
pub(crate) fn same(
    spec: &str,
    binary: &Path,
    dir: &Path,
    args: &[&str],
    stdin: Option<&Path>,
) -> Output {
    let mut check = hindsight();
    check.arg("check").arg(root().join(spec)).args(args);
    let expected = run(check, dir, stdin);
    let mut monitor = Command::new(binary);
    monitor.args(args);
    let actual = run(monitor, dir, stdin);
    assert_eq!(
        String::from_utf8_lossy(&actual.stderr),
        String::from_utf8_lossy(&expected.stderr),
        "stderr differs for {args:?}"
    );
    assert_eq!(
        String::from_utf8_lossy(&actual.stdout),
        String::from_utf8_lossy(&expected.stdout),
        "stdout differs for {args:?}"
    );
    assert_eq!(actual.status.code(), expected.status.code(), "{args:?}");
    actual
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

#[test]
fn the_trucks_log_gives_the_same_verdicts() {
    let out = both(&root(), &["--trace", LOG], None);
    assert_eq!(out.status.code(), Some(0));
    // 12 steps and the end line; step 10 (load in a2) breaks load_only_in_a1.
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 13);
    assert!(stdout
        .lines()
        .nth(10)
        .is_some_and(|l| l.starts_with("{\"step\": 10, \"load_only_in_a1\": \"false\", ")));
    // The end line: no_double_look was false at step 4 (two looks in a row).
    assert!(stdout.ends_with(
        "\"no_double_look\": \"false\", \"no_double_look.false_steps\": 1, \"no_double_look.first_false\": 4}\n"
    ));
}

#[test]
fn fail_on_violation_gives_status_1() {
    let out = both(&root(), &["--trace", LOG, "--fail-on-violation"], None);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stdin_is_read_with_dash() {
    let out = both(
        &root(),
        &["--trace", "-", "--fail-on-violation"],
        Some(&root().join(LOG)),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).lines().count(), 13);
}

#[test]
fn a_bad_third_line_gives_the_same_error() {
    let dir = scratch().join("traces");
    std::fs::create_dir_all(&dir).expect("trace directory");
    // `"pkg": "two"` on line 3: the value starts at column 41.
    std::fs::write(
        dir.join("bad3.jsonl"),
        "{\"action\": \"refuel\", \"area\": \"depot\", \"pkg\": 0}\n\
         {\"action\": \"drive\", \"area\": \"depot\", \"pkg\": 0}\n\
         {\"action\": \"load\", \"area\": \"a1\", \"pkg\": \"two\"}\n\
         {\"action\": \"look\", \"area\": \"a1\", \"pkg\": 0}\n",
    )
    .expect("trace written");
    let out = both(&dir, &["--trace", "bad3.jsonl"], None);
    assert_eq!(
        text(&out.stderr),
        "error: bad3.jsonl:3:41: input `pkg` expects int, found string \"two\"\n"
    );
    assert_eq!(text(&out.stdout).lines().count(), 2);
    assert_eq!(out.status.code(), Some(2));

    let out = both(&dir, &["--trace", "-"], Some(&dir.join("bad3.jsonl")));
    assert!(text(&out.stderr).starts_with("error: <stdin>:3:41: "));
}

#[test]
fn empty_and_missing_traces_match() {
    let dir = scratch().join("traces");
    std::fs::create_dir_all(&dir).expect("trace directory");
    std::fs::write(dir.join("empty.jsonl"), "\n").expect("trace written");
    let out = both(&dir, &["--trace", "empty.jsonl"], None);
    // No step: every past-time property held at every step (vacuously).
    assert!(text(&out.stdout).starts_with(
        "{\"end\": true, \"load_only_in_a1\": \"true\", \"load_only_in_a1.false_steps\": 0, \"load_only_in_a1.first_false\": null, "
    ));
    // Nothing was checked: said the same way, exit 3 under --fail-on-violation.
    assert_eq!(
        text(&out.stderr).lines().next(),
        Some("warning: empty.jsonl: its one line gave no step: nothing was checked")
    );
    let out = both(
        &dir,
        &["--trace", "empty.jsonl", "--fail-on-violation"],
        None,
    );
    assert_eq!(out.status.code(), Some(3));
    let args = [
        "--trace",
        "empty.jsonl",
        "--fail-on-violation",
        "--allow-vacuous",
    ];
    let out = both(&dir, &args, None);
    assert_eq!(out.status.code(), Some(0));
    let out = both(&dir, &["--trace", "no_such.jsonl"], None);
    assert!(text(&out.stderr).starts_with("error: cannot open trace `no_such.jsonl`: "));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_binary_has_help_and_usage_errors() {
    let mut help = Command::new(standalone());
    help.arg("--help");
    let out = run(help, &root(), None);
    assert_eq!(out.status.code(), Some(0));
    let help_text = text(&out.stdout);
    assert!(help_text.contains("Usage: trucks-monitor --trace <FILE> [--fail-on-violation]"));
    assert!(help_text.contains("  area: Area (one of: depot, a1, a2)\n"));
    assert!(help_text.contains("TRACE FORMAT"));

    let mut spec_arg = Command::new(standalone());
    spec_arg.args([SPEC, "--trace", LOG]);
    let out = run(spec_arg, &root(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: unexpected argument 'examples/trucks/trucks.hind' found\n\n\
         Usage: trucks-monitor --trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>]\n\n\
         For more information, try '--help'.\n"
    );
    assert_eq!(text(&out.stdout), "");
}

/// `hindsight build` with a stand-in for cargo that records the generated
/// project's metadata (`cargo metadata --no-deps` runs no build script) and
/// fails, so no release build runs; returns the build's output and the
/// metadata.
#[cfg(unix)]
fn build_with_fake_cargo(spec: &Path, dir: &Path, project: &Path) -> (Output, String) {
    use std::os::unix::fs::PermissionsExt;
    let fake = dir.join("fake-cargo.sh");
    let metadata = dir.join("metadata.json");
    std::fs::write(
        &fake,
        "#!/bin/sh\n\
         # build --release --offline --quiet --manifest-path M --target-dir T\n\
         \"$REAL_CARGO\" metadata --offline --no-deps --format-version 1 \
         --manifest-path \"$6\" > \"$METADATA\"\nexit 1\n",
    )
    .expect("fake cargo");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = hindsight()
        .arg("build")
        .arg(spec)
        .arg("-o")
        .arg(dir.join("out"))
        .arg("--dir")
        .arg(project)
        .env("CARGO", &fake)
        .env(
            "REAL_CARGO",
            std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
        )
        .env("METADATA", &metadata)
        .output()
        .expect("hindsight build runs");
    let metadata = std::fs::read_to_string(&metadata).unwrap_or_default();
    (out, metadata)
}

#[cfg(unix)]
#[test]
fn a_hostile_spec_file_name_runs_no_build_script() {
    let dir = scratch().join("hostile");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("scratch");
    // A crate whose build script would leave a canary, around the project
    // (`path = '..'` from the project's manifest).
    let canary = dir.join("canary");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"evil\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .expect("evil manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("evil lib");
    std::fs::write(
        dir.join("build.rs"),
        format!(
            "fn main() {{ std::fs::write({:?}, \"ran\").unwrap(); }}\n",
            canary
        ),
    )
    .expect("evil build script");
    let name = "a\n[dependencies.evil]\npath = '..'\n#.hind";
    let spec = dir.join(name);
    std::fs::copy(root().join(SPEC), &spec).expect("spec");
    let (out, metadata) = build_with_fake_cargo(&spec, &dir, &dir.join("project"));
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!canary.exists(), "a build script ran");
    assert!(
        metadata.contains("\"name\":\"monitor-trucks\""),
        "{metadata}"
    );
    assert!(!metadata.contains("\"name\":\"evil\""), "{metadata}");
    assert!(!metadata.contains("custom-build"), "{metadata}");
    // Cargo itself reads the name back as the spec's, whole.
    assert!(
        metadata.contains("\"spec\":\"a\\n[dependencies.evil]\\npath = '..'\\n#.hind\""),
        "{metadata}"
    );
}

#[cfg(unix)]
#[test]
fn an_existing_project_directory_is_refused_untouched() {
    let dir = scratch().join("theirs");
    let _ = std::fs::remove_dir_all(&dir);
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("src")).expect("scratch");
    let manifest = "[package]\nname = \"mine\"\nversion = \"1.0.0\"\n";
    std::fs::write(project.join("Cargo.toml"), manifest).expect("theirs");
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").expect("theirs");
    let (out, metadata) = build_with_fake_cargo(&root().join(SPEC), &dir, &project);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "exists and is not empty, and is not a project generated by `hindsight build`"
        ),
        "{stderr}"
    );
    assert_eq!(metadata, "", "cargo must not run");
    assert_eq!(
        std::fs::read_to_string(project.join("Cargo.toml")).expect("kept"),
        manifest
    );
    assert_eq!(
        std::fs::read_to_string(project.join("src/main.rs")).expect("kept"),
        "fn main() {}\n"
    );
}

#[test]
fn the_binary_bounds_its_lines() {
    let mut endless = Command::new(standalone());
    endless.args(["--trace", "/dev/zero", "--max-line-bytes", "4096"]);
    let out = run(endless, &root(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: /dev/zero:1: line is longer than 4096 bytes; raise the limit with \
         --max-line-bytes if such lines are expected\n"
    );
}

#[test]
fn the_example_script_builds_and_runs_the_monitor() {
    // Reuse the project built above, so the script's build is a no-op.
    standalone();
    let mut script = Command::new("sh");
    script
        .arg(root().join("examples/standalone/run.sh"))
        .env("HINDSIGHT", env!("CARGO_BIN_EXE_hindsight"))
        .env("HINDSIGHT_BUILD_DIR", project_dir());
    let out = run(script, &root(), None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut check = hindsight();
    check.args(["check", SPEC, "--trace", LOG]);
    assert_eq!(text(&out.stdout), text(&run(check, &root(), None).stdout));
    assert_eq!(text(&out.stdout).lines().count(), 13);
}

#[test]
fn spec_errors_stop_before_cargo() {
    let output = scratch().join("never-built");
    let mut build = hindsight();
    build.args(["build", "bad.hind", "-o"]).arg(&output);
    let out = run(build, &fixtures(), None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("E0200") && stderr.contains("bad.hind:3:"),
        "{stderr}"
    );
    assert!(!stderr.contains("building monitor"), "{stderr}");
    assert!(!output.exists());
}

#[test]
fn missing_crates_are_named_with_what_to_do() {
    // An empty cargo home has no registry cache: offline resolution must fail.
    let home = scratch().join("empty-cargo-home");
    let dir = scratch().join("offline-project");
    let output = scratch().join("never-built-offline");
    std::fs::create_dir_all(&home).expect("empty cargo home");
    let mut build = hindsight();
    build
        .args(["build", SPEC, "-o"])
        .arg(&output)
        .arg("--dir")
        .arg(&dir)
        .env("CARGO_HOME", &home);
    let out = run(build, &root(), None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: cargo could not build the standalone monitor"),
        "{stderr}"
    );
    assert!(stderr.contains("no matching package named `"), "{stderr}");
    assert!(
        stderr.contains(
            "note: building offline needs the crates serde 1, serde_json 1, strsim 0.11, jiff 1, \
             walkdir 2, glob 0.3, tempfile 3, memchr 2, hmac 0.12 and sha2 0.10"
        ),
        "{stderr}"
    );
    assert!(
        !stderr.contains("note: the generated project is kept"),
        "{stderr}"
    );
    assert!(!output.exists());
    assert!(dir.join("src/monitor.rs").exists());
}

#[test]
fn a_failed_build_in_a_temporary_directory_says_where_it_is() {
    let home = scratch().join("empty-cargo-home-2");
    std::fs::create_dir_all(&home).expect("empty cargo home");
    let mut build = hindsight();
    build
        .args(["build", SPEC, "-o"])
        .arg(scratch().join("never-built-temp"))
        .env("CARGO_HOME", &home);
    let out = run(build, &root(), None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let kept = stderr
        .lines()
        .find_map(|l| l.strip_prefix("note: the generated project is kept in "))
        .unwrap_or_else(|| panic!("no note on the kept project:\n{stderr}"));
    assert!(Path::new(kept).join("Cargo.toml").exists());
    std::fs::remove_dir_all(kept).expect("the kept project can be removed");
}

#[test]
fn build_help_explains_the_offline_build() {
    let mut command = hindsight();
    command.args(["build", "--help"]);
    let out = run(command, &root(), None);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert_contains_all(
        help,
        &[
            "--output <PATH>",
            "--block <NAME>",
            "--dir <DIR>",
            "--offline",
            "cargo fetch",
        ],
    );
}

/// Writes `text` as trace `name` in the scratch trace directory and runs
/// [`same`] there with `--trace NAME`, so messages name the file alone.
fn same_on_trace(spec: &str, binary: &Path, name: &str, text: &str) -> Output {
    let dir = scratch().join("traces");
    std::fs::create_dir_all(&dir).expect("trace directory");
    std::fs::write(dir.join(name), text).expect("trace written");
    same(spec, binary, &dir, &["--trace", name], None)
}

#[test]
fn a_built_records_monitor_reads_the_log_as_check_does() {
    let session = "examples/coding_agent/session.jsonl";
    let out = same_at_root(CODING_AGENT, records_binary(), &["--trace", session]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().count(), 23 + 1);
    // An audit: the log twice (a directory, a pattern), split by session,
    // on two jobs, only the changes; then the summary without explanations
    // (a standalone binary has no explainer), as check gives with --jobs 1.
    let audit = [
        "--trace",
        "examples/coding_agent",
        "--trace",
        "examples/coding_agent/*.jsonl",
        "--key",
        "/session",
        "--jobs",
        "2",
        "--changes",
    ];
    let out = same_at_root(CODING_AGENT, records_binary(), &audit);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("is named more than once"),
        "{}",
        text(&out.stderr)
    );
    // The directory's logs in path order (runs/, service.jsonl, then the
    // session log); the pattern's are the same files, read once.
    assert!(text(&out.stdout).lines().any(|l| l.starts_with(
        "{\"trace\": \"examples/coding_agent/session.jsonl\", \"session\": \"sess_01JNQ8\", \"step\": 0"
    )));
    // No record names a retry: a warning at the end, the same from both. A
    // bad value on a record that is no step is not an error.
    let out = same_on_trace(
        CODING_AGENT,
        records_binary(),
        "records_no_retry.jsonl",
        "{\"type\": \"log\", \"attributes\": {\"gen_ai.tool.name\": 3}}\n\
         {\"type\": \"tool_call\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"retry\": 1}}\n",
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("warning: records_no_retry.jsonl: input `retry` reads"),
        "{}",
        text(&out.stderr)
    );
    // A bad value on a step: the error names line 2, the input and its pointer.
    let out = same_on_trace(
        CODING_AGENT,
        records_binary(),
        "records_bad.jsonl",
        "{\"type\": \"session.start\"}\n\
         {\"type\": \"tool_result\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\", \"result\": {\"exit_code\": \"0\"}}}\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(
            "error: records_bad.jsonl:2:94: input `exit_code` (at \"/attributes/result/exit_code\") expects int"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// The rules in time: the generated monitor (its clock, its time cell and its
/// deadline) prints the bundled verdicts, as `hindsight check` does, and
/// refuses a timestamp going back at the same place with the same words.
#[test]
fn a_built_timed_monitor_prints_what_check_prints() {
    let session = "examples/coding_agent/session.jsonl";
    let out = same_at_root(CODING_AGENT_TIMING, timing_binary(), &["--trace", session]);
    assert_eq!(out.status.code(), Some(0));
    let expected = std::fs::read_to_string(root().join("examples/coding_agent/timing.out"))
        .expect("the bundled verdicts");
    assert_eq!(text(&out.stdout), expected);
    let out = same_on_trace(
        CODING_AGENT_TIMING,
        timing_binary(),
        "timing_back.jsonl",
        "{\"type\": \"tool_call\", \"timestamp\": 1772460328.5, \"attributes\": {\"gen_ai.tool.name\": \"deploy\"}}\n\
         {\"type\": \"tool_result\", \"timestamp\": \"2026-03-02T14:05:28Z\", \"attributes\": {\"gen_ai.tool.name\": \"deploy\"}}\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).lines().last(),
        Some(
            "error: timing_back.jsonl:2:38: time `ts` (at \"/timestamp\") goes back: \
             2026-03-02T14:05:28Z is before the previous step's 2026-03-02T14:05:28.5Z (1772460328.5 s)"
        )
    );
}

#[test]
fn a_built_system_prints_what_check_prints() {
    let figure2 = "examples/code_review/figure2.jsonl";
    let out = same_at_root(REVIEW, system_binary(), &["--trace", figure2]);
    assert_eq!(out.status.code(), Some(0));
    // The README's verdict line.
    assert_eq!(
        text(&out.stdout),
        "{\"event\": 15, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"failure_seen\": \"false\"}\n"
    );
    let out = same(
        REVIEW,
        system_binary(),
        &root(),
        &[
            "--trace",
            "-",
            "--fail-on-violation",
            "--max-in-transit",
            "1",
        ],
        Some(&root().join(figure2)),
    );
    assert!(
        text(&out.stderr).contains("in transit"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
    // A store value of the wrong type on line 2, and a receive of nothing.
    let out = same_on_trace(
        REVIEW,
        system_binary(),
        "system_bad.jsonl",
        "{\"lifeline\": \"Orchestrator\", \"kind\": \"act\", \"store\": {\"cand\": 7}}\n\
         {\"lifeline\": \"TestRunner\", \"kind\": \"act\", \"store\": {\"status\": 3}}\n",
    );
    assert!(text(&out.stderr).starts_with("error: system_bad.jsonl:2:"));
    let out = same_on_trace(
        REVIEW,
        system_binary(),
        "system_nothing.jsonl",
        "{\"lifeline\": \"Committer\", \"kind\": \"recv\", \"msg\": \"m9\"}\n",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_built_population_prints_what_check_prints() {
    let run_log = "examples/epidemic/run.jsonl";
    let out = same_at_root(EPIDEMIC, population_binary(), &["--trace", run_log]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout)
        .lines()
        .last()
        .is_some_and(|l| l.starts_with("{\"end\": true, ")));
    let out = same_at_root(
        EPIDEMIC,
        population_binary(),
        &["--trace", run_log, "--fail-on-violation"],
    );
    assert!(matches!(out.status.code(), Some(0 | 1)));
    // The number of agents changes on line 2.
    let out = same_on_trace(
        EPIDEMIC,
        population_binary(),
        "population_bad.jsonl",
        "{\"agents\": [{\"health\": \"susceptible\", \"female\": true, \"age\": 30}], \"globals\": {\"day\": 0, \"lockdown\": false}}\n\
         {\"agents\": [], \"globals\": {\"day\": 1, \"lockdown\": false}}\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: population_bad.jsonl:2:"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn built_systems_and_populations_describe_themselves() {
    for (binary, needles) in [
        (
            system_binary(),
            &[
                "Usage: review-monitor --trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>] [--max-in-transit <MESSAGES>]\n",
                "LIFELINES (store variables and guards)\n  Orchestrator\n    cand: int\n",
                "    guards: may_merge, failure_seen\n",
                "SYSTEM TRACE FORMAT",
            ][..],
        ),
        (
            population_binary(),
            &[
                "Usage: epidemic-monitor --trace <FILE> [--fail-on-violation] [--max-line-bytes <BYTES>]\n",
                "ATTRIBUTES (of each agent)\n  health: Health (one of: ",
                "CAPACITY\n  10000 agents\n",
                "POPULATION TRACE FORMAT",
            ][..],
        ),
    ] {
        let mut help = Command::new(binary);
        help.arg("--help");
        let out = run(help, &root(), None);
        assert_eq!(out.status.code(), Some(0));
        assert_contains_all(text(&out.stdout), needles);
    }
}
