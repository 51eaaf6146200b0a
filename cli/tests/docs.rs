//! The docs, executed: README.md and every docs/*.md. A test fails if a
//! command they show or an output they quote stops matching what the tool
//! does. In each file:
//!
//! - every `cargo run -q -p hindsight-cli -- ARGS` (in a `sh` block or in the
//!   prose) runs `hindsight ARGS`;
//! - every line of a ```` ```sh ```` block is classified (a line ending in
//!   `\` continues on the next; a comment after ` #`, and a line starting
//!   with `#`, is cut off; words are split as a shell splits them, quotes
//!   removed):
//!   - `hindsight ARGS` and `cargo run -q -p hindsight-cli -- ARGS` are run
//!     in the workspace root, `< FILE` giving FILE as standard input;
//!   - `hindsight build SPEC -o NAME` is not run again: `NAME` stands, for
//!     the rest of the block, for the binary `build.rs` builds once per test
//!     run from SPEC ([`crate::build::binary_of`]; a spec it does not build
//!     fails the test), and `./NAME ARGS` runs that binary, which must print
//!     what `hindsight check SPEC ARGS` prints (stdout, stderr, status);
//!   - anything else must begin with one of [`NOT_RUN`], the commands the
//!     test knows and does not run, each with its reason; an unknown command
//!     fails the test so that it gets classified;
//!
//!   a command that runs must exit 0, or 1 when it has `--fail-on-violation`
//!   (a violation was found); 2 (an error) always fails;
//! - a fenced block right after a marker is compared with what a command
//!   prints. `<!-- output: ARGS -->`: the stdout of `hindsight ARGS`;
//!   `<!-- stderr: ARGS -->`: its stderr (warnings); `<!-- table N: ARGS -->`:
//!   its stdout (summary lines) rendered as the table a terminal N columns
//!   wide gets; for these three the run must succeed as a command above.
//!   `<!-- error: ARGS -->`: the stderr of `hindsight ARGS`, which must exit
//!   2 (a report of errors). The command must be one the file shows, as
//!   `hindsight ARGS` or `cargo run -q -p hindsight-cli -- ARGS`, so a
//!   reader knows what printed the block. In a shown block a line `...`
//!   stands for any number of lines, and a line ending in `...}` for any line
//!   that begins with the text before it; every other line is exact;
//! - `<!-- input: SPEC [--block NAME] -->` before a fenced block of trace
//!   lines (an example of the input format): `hindsight check SPEC [--block
//!   NAME] --trace -` reads them without error (exit 0 or 1).

use crate::build::{binary_of, same};
use crate::common::{root, run_in, Input, Run};
use std::collections::HashMap;
use std::path::Path;

/// Commands the docs show that this test does not run, by prefix, each with
/// the reason. Every entry must be used by some doc (so the list does not
/// keep commands the docs no longer show).
const NOT_RUN: &[(&str, &str)] = &[
    (
        "cargo install --path cli",
        "installs the release build into ~/.cargo/bin: minutes, and outside the workspace",
    ),
    ("cargo test", "the test suite, of which this test is a part"),
    (
        "cargo bench",
        "the benchmarks: minutes of measurements (benches/ has its own tests)",
    ),
    (
        "cargo run --release -p hindsight-fuzz",
        "the fuzzer runs as long as it is told (an hour); its tests run a small batch",
    ),
    (
        "pip install",
        "builds and installs the Python wheel: CI runs the Python package's tests apart",
    ),
];

/// The prefix of a `cargo run` of the `hindsight` command.
const CARGO_RUN: &str = "cargo run -q -p hindsight-cli -- ";

/// README.md and every docs/*.md, in path order, from the workspace root.
fn doc_files() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("the docs directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .expect("a UTF-8 name");
            format!("docs/{name}")
        })
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_string());
    docs
}

/// The text of `path`, from the workspace root.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `line` split into words as a shell splits them: on blanks outside
/// quotes, `'...'` and `"..."` quoting (no escapes, no expansions: the docs
/// use none).
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.get_or_insert_with(String::new).push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            None if c.is_whitespace() => words.extend(word.take()),
            None => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "an unclosed quote in `{line}`");
    words.extend(word);
    words
}

/// A command of a doc, ready to run: `hindsight` (or a built binary) with
/// these arguments and this standard input.
struct Command {
    /// The words after `hindsight`, or after `./NAME`.
    args: Vec<String>,
    /// The file after `<`, from the workspace root.
    stdin: Option<String>,
}

impl Command {
    /// `words` with a redirection `< FILE` taken out.
    fn new(words: &[String], line: &str) -> Command {
        let mut args = Vec::new();
        let mut stdin = None;
        let mut rest = words.iter();
        while let Some(word) = rest.next() {
            match word.as_str() {
                "<" => stdin = Some(rest.next().expect("a file after `<`").clone()),
                "|" | ">" | ">>" | "&&" | "||" | ";" | "&" => {
                    panic!("`{line}`: the test runs no shell (`{word}`)")
                }
                _ => args.push(word.clone()),
            }
        }
        Command { args, stdin }
    }

    fn args(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }

    /// The key the run is cached under.
    fn key(&self) -> String {
        match &self.stdin {
            Some(file) => format!("{} < {file}", self.args.join(" ")),
            None => self.args.join(" "),
        }
    }

    /// Whether `code` is a success for this command: 0, or 1 (a violation)
    /// with `--fail-on-violation`.
    fn succeeded(&self, code: Option<i32>) -> bool {
        code == Some(0) || (code == Some(1) && self.args.iter().any(|a| a == "--fail-on-violation"))
    }
}

/// The runs of one doc's commands, each command run once.
#[derive(Default)]
struct Runs(HashMap<String, Run>);

impl Runs {
    /// What `hindsight COMMAND` printed, in the workspace root.
    fn of(&mut self, command: &Command) -> &Run {
        self.0.entry(command.key()).or_insert_with(|| {
            let bytes = command.stdin.as_ref().map(|file| {
                std::fs::read(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
            });
            let input = bytes.as_deref().map_or(Input::Null, Input::All);
            run_in(&root(), &command.args(), input)
        })
    }

    /// [`Runs::of`], which must succeed.
    fn successful(&mut self, path: &str, command: &Command) -> &Run {
        let run = self.of(command);
        assert!(
            command.succeeded(run.code),
            "{path}: `hindsight {}` failed:\n{}",
            command.key(),
            run.transcript()
        );
        run
    }
}

/// What checking one doc found, for the counts the README must keep.
#[derive(Default, Debug)]
struct Found {
    /// `cargo run -q -p hindsight-cli -- ARGS`, anywhere.
    cargo_runs: usize,
    /// `hindsight ARGS` lines of `sh` blocks.
    sh_commands: usize,
    /// `./NAME ARGS` lines.
    built: usize,
    /// Marked output blocks (output, stderr, table, error).
    outputs: usize,
    /// Marked input blocks.
    inputs: usize,
}

/// Runs every command of the doc at `path` and compares every marked block.
fn check_doc(path: &str) -> Found {
    let text = read(path);
    let mut runs = Runs::default();
    let mut found = Found::default();
    // Every `cargo run` of the command, in a block or in the prose.
    for (at, _) in text.match_indices(CARGO_RUN) {
        let rest = &text[at + CARGO_RUN.len()..];
        let line = rest.split(['`', '\n']).next().unwrap_or("");
        let command = Command::new(&words(line.split(" #").next().unwrap_or("")), line);
        runs.successful(path, &command);
        found.cargo_runs += 1;
    }
    // Every line of every `sh` block.
    for block in text.split("```sh\n").skip(1) {
        let block = block.split("```").next().unwrap_or("");
        check_sh_block(path, block, &mut runs, &mut found);
    }
    // Every marked block.
    let marker = "<!-- ";
    for (at, _) in text.match_indices(marker) {
        let rest = &text[at + marker.len()..];
        let (what, after) = rest.split_once(" -->").expect("a closed marker");
        let Some((kind, args)) = what.split_once(": ") else {
            continue;
        };
        let block = after
            .trim_start()
            .strip_prefix("```\n")
            .and_then(|b| b.split_once("```"))
            .map(|(block, _)| block);
        match kind {
            "output" | "stderr" | "error" => {}
            "input" => {
                let block = block.unwrap_or_else(|| panic!("{path}: no block after `{what}`"));
                check_input(path, args, block);
                found.inputs += 1;
                continue;
            }
            _ if kind.starts_with("table ") => {}
            _ => continue, // another test's marker (python-output, outside-crate)
        }
        let block = block.unwrap_or_else(|| panic!("{path}: no fenced block after `{what}`"));
        let shown = [format!("hindsight {args}"), format!("{CARGO_RUN}{args}")];
        assert!(
            shown.iter().any(|command| {
                text.match_indices(command.as_str()).any(|(at, _)| {
                    let after = &text[at + command.len()..];
                    after.starts_with('`') || after.starts_with('\n') || after.starts_with(" #")
                })
            }),
            "{path}: `hindsight {args}` is marked but not shown (as `hindsight {args}`)"
        );
        let command = Command::new(&words(args), args);
        let printed = match kind {
            "output" => runs.successful(path, &command).stdout.clone(),
            "stderr" => runs.successful(path, &command).stderr.clone(),
            "error" => {
                let run = runs.of(&command);
                assert_eq!(
                    run.code,
                    Some(2),
                    "{path}: `hindsight {args}` should fail:\n{}",
                    run.transcript()
                );
                run.stderr.clone()
            }
            table => {
                let width: u16 = table["table ".len()..]
                    .parse()
                    .unwrap_or_else(|e| panic!("{path}: `{what}`: a width: {e}"));
                let lines = &runs.successful(path, &command).stdout;
                hindsight_cli::audit::render_table(lines, width)
            }
        };
        let shown: Vec<&str> = block.lines().collect();
        let actual: Vec<&str> = printed.lines().collect();
        assert!(
            describes(&shown, &actual),
            "{path} shows for `{what}`:\n{block}\nbut it prints:\n{printed}"
        );
        found.outputs += 1;
    }
    found
}

/// Runs or classifies every line of the `sh` block `block` of `path`.
fn check_sh_block(path: &str, block: &str, runs: &mut Runs, found: &mut Found) {
    // The binaries `hindsight build` made in this block, by name: the spec
    // and the binary.
    let mut built: HashMap<String, (String, &'static Path)> = HashMap::new();
    let mut lines = Vec::new();
    let mut pending = String::new();
    for line in block.lines() {
        match line.strip_suffix('\\') {
            Some(start) => pending.push_str(start),
            None => lines.push(std::mem::take(&mut pending) + line),
        }
    }
    assert!(pending.is_empty(), "{path}: a `\\` ends the block");
    for line in &lines {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("./") {
            let words = words(name);
            let (name, args) = words.split_first().expect("a binary's name");
            let (spec, binary) = built
                .get(name.as_str())
                .unwrap_or_else(|| panic!("{path}: `{line}`: no `hindsight build` made {name}"));
            let command = Command::new(args, line);
            let stdin = command.stdin.as_ref().map(|f| root().join(f));
            let out = same(spec, binary, &root(), &command.args(), stdin.as_deref());
            assert!(
                command.succeeded(out.status.code()),
                "{path}: `{line}` failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            found.built += 1;
            continue;
        }
        let args = line
            .strip_prefix("hindsight ")
            .or_else(|| line.strip_prefix(CARGO_RUN));
        let Some(args) = args else {
            assert!(
                NOT_RUN.iter().any(|(prefix, _)| line.starts_with(prefix)),
                "{path}: the test does not know the command `{line}`: run it \
                 (`hindsight ...`) or add it to NOT_RUN in cli/tests/docs.rs with the reason"
            );
            continue;
        };
        let command = Command::new(&words(args), line);
        if line.starts_with("hindsight ") {
            found.sh_commands += 1;
        }
        if let ["build", spec, "-o", name] = command.args().as_slice() {
            let binary = binary_of(spec).unwrap_or_else(|| {
                panic!(
                    "{path}: `{line}`: cli/tests/build.rs builds no binary of {spec} \
                     (add it there, to `binary_of`)"
                )
            });
            built.insert(name.to_string(), (spec.to_string(), binary));
            continue;
        }
        runs.successful(path, &command);
    }
}

/// Feeds the trace lines `block` to `hindsight check SPEC [--block NAME]
/// --trace -` (`spec_args`), which must read them without error.
fn check_input(path: &str, spec_args: &str, block: &str) {
    let mut args = vec!["check"];
    args.extend(spec_args.split_whitespace());
    args.extend(["--trace", "-"]);
    let run = run_in(&root(), &args, Input::All(block.as_bytes()));
    assert!(
        matches!(run.code, Some(0 | 1)),
        "{path}: `hindsight check {spec_args}` does not read the lines\n{block}\n{}",
        run.transcript()
    );
}

/// Whether the `shown` lines describe the `actual` lines.
fn describes(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| describes(rest, &actual[skip..])),
        Some((line, rest)) => actual.split_first().is_some_and(|(first, others)| {
            let same = match line.strip_suffix("...}") {
                Some(beginning) => first.starts_with(beginning),
                None => line == first,
            };
            same && describes(rest, others)
        }),
    }
}

#[test]
fn the_shown_lines_rule_is_strict() {
    let actual = [
        "{\"step\": 0, \"p\": \"true\"}",
        "{\"end\": true, \"p\": \"true\"}",
    ];
    assert!(describes(&["{\"step\": 0, ...}", "..."], &actual));
    assert!(describes(
        &["...", "{\"end\": true, \"p\": \"true\"}"],
        &actual
    ));
    assert!(!describes(&["{\"step\": 0, \"p\": \"true\"}"], &actual));
    assert!(!describes(
        &["...", "{\"end\": true, \"p\": \"false\"}"],
        &actual
    ));
    assert!(!describes(&["{\"step\": 1, ...}", "..."], &actual));
}

#[test]
fn shell_lines_are_split_as_a_shell_splits_them() {
    assert_eq!(
        words("check a.hind --trace 'logs/2026-*.jsonl'  --key \"/a b\""),
        [
            "check",
            "a.hind",
            "--trace",
            "logs/2026-*.jsonl",
            "--key",
            "/a b"
        ]
    );
    assert_eq!(words("x ''"), ["x", ""]);
    let command = Command::new(&words("check s.hind --trace - < log.jsonl"), "");
    assert_eq!(command.args(), ["check", "s.hind", "--trace", "-"]);
    assert_eq!(command.stdin.as_deref(), Some("log.jsonl"));
    assert!(command.succeeded(Some(0)) && !command.succeeded(Some(1)));
    assert!(Command::new(&words("check --fail-on-violation"), "").succeeded(Some(1)));
    assert!(!Command::new(&words("check --fail-on-violation"), "").succeeded(Some(2)));
}

/// The README alone, which builds no binary: the quick check the README
/// gives (`--test all docs::the_readme`).
#[test]
fn the_readme_is_what_the_tool_does() {
    let readme = check_doc("README.md");
    assert!(readme.cargo_runs >= 3 && readme.outputs >= 2, "{readme:?}");
}

/// Every doc file, each on its own thread; the failures are reported
/// together, by file.
#[test]
fn every_command_and_output_in_the_docs_is_what_the_tool_does() {
    let files = doc_files();
    assert!(files.len() >= 10, "README.md and the docs: {files:?}");
    let results: Vec<(String, std::thread::Result<Found>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|path| (path, scope.spawn(|| check_doc(path))))
            .collect();
        handles
            .into_iter()
            .map(|(path, handle)| (path.clone(), handle.join()))
            .collect()
    });
    let failed: Vec<&str> = results
        .iter()
        .filter(|(_, r)| r.is_err())
        .map(|(p, _)| p.as_str())
        .collect();
    assert!(
        failed.is_empty(),
        "failed (see the panics above): {failed:?}"
    );
    let found: HashMap<&str, &Found> = results
        .iter()
        .filter_map(|(p, r)| Some((p.as_str(), r.as_ref().ok()?)))
        .collect();
    // The README runs its main job, its install line and its examples.
    let readme = found["README.md"];
    assert!(readme.cargo_runs >= 3, "the README's commands: {readme:?}");
    assert!(
        readme.sh_commands >= 2,
        "the README's installed command: {readme:?}"
    );
    assert!(
        readme.outputs >= 2,
        "the README's marked outputs: {readme:?}"
    );
    // The reference and the usage guide show real outputs and built binaries.
    let language = found["docs/language.md"];
    assert!(language.outputs >= 8, "docs/language.md: {language:?}");
    let usage = found["docs/usage.md"];
    assert!(
        usage.outputs >= 3 && usage.built >= 3,
        "docs/usage.md: {usage:?}"
    );
    // Every command the test does not run is one a doc shows.
    let texts: Vec<String> = files.iter().map(|f| read(f)).collect();
    for (prefix, reason) in NOT_RUN {
        assert!(
            !reason.is_empty()
                && texts
                    .iter()
                    .flat_map(|t| t.split("```sh\n").skip(1))
                    .any(|b| b.split("```").next().unwrap_or("").contains(prefix)),
            "NOT_RUN lists `{prefix}`, which no sh block shows any more"
        );
    }
}

/// The stamp sizes the docs quote for the code review are the bound
/// `hindsight explain` prints (one source), and the sizes on the wire the
/// README and docs/cpl.md give are its transcript's.
#[test]
fn stamp_sizes_in_the_docs_are_what_the_tool_says() {
    let mut runs = Runs::default();
    let explain = Command::new(&words("explain examples/code_review/review.hind"), "");
    let report = &runs.successful("docs", &explain).stdout;
    let bound = report
        .lines()
        .find_map(|l| {
            l.strip_prefix("stamp of system review: ")?
                .split(", at most ")
                .nth(1)
        })
        .and_then(|tail| tail.strip_suffix(" bytes"))
        .expect("explain prints the stamp's bound");
    let quoted = [
        ("examples/code_review/README.md", format!("`review::Stamp::BYTES` = **{bound}** bytes at most")),
        ("docs/cpl.md", format!("it): {bound} bytes for the code-review system")),
        ("docs/usage.md", format!("the stamps (14-{bound} bytes for the")),
        ("docs/language.md", format!("(at most {bound} bytes\nfor the code review)")),
        ("README.md", "stamp of\n14-30 bytes on every message".to_string()),
        ("docs/cpl.md", "On the wire the same stamp is 14 bytes before any report is\nvisible, 22 once one reviewer's candidate is, 30 with both".to_string()),
        ("examples/code_review/README.md", "the stamps take 14 to 30 bytes".to_string()),
    ];
    for (path, text) in quoted {
        assert!(read(path).contains(&text), "{path} does not say {text:?}");
    }
}

/// Every `rust` block of the README and docs/ is a file of the outside
/// crate docs/usage.md describes (`<!-- outside-crate: PATH -->`, built
/// and run by `.ci/outside_crate.py`) or an outline of generated code
/// (`<!-- outline: SNAPSHOT -->`) whose every public item — each `fn`,
/// `struct`, `enum`, `mod`, `const` and `type` it declares — the committed
/// snapshot of the real generated code declares too.
#[test]
fn every_rust_block_is_built_or_outlines_real_code() {
    let mut outlines = 0;
    for path in doc_files() {
        let text = read(&path);
        for (at, _) in text.match_indices("```rust\n") {
            let before = text[..at].trim_end();
            let marker = before
                .rsplit('\n')
                .next()
                .unwrap_or("")
                .trim()
                .strip_prefix("<!-- ")
                .and_then(|m| m.strip_suffix(" -->"));
            let line = text[..at].lines().count() + 1;
            match marker.and_then(|m| m.split_once(": ")) {
                Some(("outside-crate", _)) if path == "docs/usage.md" => {}
                Some(("outline", snapshot)) => {
                    let real = read(snapshot);
                    let block = text[at + 8..].split("```").next().unwrap_or("");
                    for item in declared_items(block) {
                        assert!(
                            real.contains(&item),
                            "{path}:{line}: the outline declares `{item}`, which {snapshot} does not"
                        );
                    }
                    outlines += 1;
                }
                _ => panic!(
                    "{path}:{line}: a rust block neither built (outside-crate) nor an outline"
                ),
            }
        }
    }
    assert!(outlines >= 3, "{outlines} outlines");
}

/// `fn NAME`, `struct NAME`, ... for every `pub` item `code` declares.
fn declared_items(code: &str) -> Vec<String> {
    let kinds = ["fn", "struct", "enum", "mod", "const", "type"];
    let mut items = Vec::new();
    for line in code.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(3) {
            let name: String = pair[2]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let kind = if pair[0] == "pub" && kinds.contains(&pair[1]) {
                pair[1]
            } else {
                continue;
            };
            // `pub const fn new` declares the fn `new`.
            if kind == "const" && name == "fn" {
                continue;
            }
            if !name.is_empty() {
                items.push(format!("{kind} {name}"));
            }
        }
    }
    items
}

/// The speeds the README and docs/python.md quote are the figures of
/// docs/benchmarks.md's tables (one source; a re-measured table fails this
/// until the quotes follow).
#[test]
fn speeds_in_the_docs_are_the_benchmarks_figures() {
    let benchmarks = read("docs/benchmarks.md");
    let quoted = [
        // (file, what it says, the row of docs/benchmarks.md it comes from)
        (
            "README.md",
            "P1 of the standard benchmarks at about 0.7 ns per event",
            "| P1 | generated | 0.69 |",
        ),
        (
            "README.md",
            "A local event costs 3-7 ns",
            "| `may_merge` | act | 3.18 ns |",
        ),
        (
            "README.md",
            "A local event costs 3-7 ns",
            "| `may_deploy` | choice | 6.86 ns |",
        ),
        (
            "README.md",
            "a message about 80 ns",
            "| `may_merge` | send + receive | 78.3 ns |",
        ),
        (
            "README.md",
            "a message about 80 ns",
            "| `may_deploy` | send + receive | 83.5 ns |",
        ),
        (
            "docs/python.md",
            "1.10 M events/s (3.7× reelay",
            "| hindsight, Monitor.step per event | 0.091 | 1.10 M | 3.7 |",
        ),
        (
            "docs/python.md",
            "3.2 M events/s on Python lists\n(11× reelay)",
            "| hindsight, Monitor.step_columns (lists) | 0.031 | 3.20 M | 10.7 |",
        ),
        (
            "docs/python.md",
            "9.9 M events/s on NumPy arrays (33× reelay)",
            "| hindsight, Monitor.step_columns (NumPy) | 0.010 | 9.90 M | 33.1 |",
        ),
    ];
    for (path, says, row) in quoted {
        let text = read(path).replace('\n', " ");
        assert!(
            text.contains(&says.replace('\n', " ")),
            "{path} no longer says {says:?}"
        );
        assert!(
            benchmarks.contains(row),
            "docs/benchmarks.md has no row {row:?} ({path} quotes it)"
        );
    }
}
