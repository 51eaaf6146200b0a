//! The README's commands, run: every `hindsight` command it shows succeeds,
//! and every output block marked `<!-- output: ARGS -->` is what
//! `hindsight ARGS` prints. In a shown block, a line `...` stands for any
//! number of lines, and a line ending in `...}` for any line that begins with
//! the text before it.

use std::path::PathBuf;
use std::process::Command;

/// The workspace root, where the README's commands run.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What `hindsight ARGS` prints in the workspace root; fails unless it exits 0.
fn stdout_of(args: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hindsight"))
        .args(args.split_whitespace())
        .current_dir(root())
        .output()
        .expect("hindsight runs");
    assert_eq!(out.status.code(), Some(0), "hindsight {args}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
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
fn every_command_and_output_in_the_readme_is_what_the_tool_does() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    // Every `cargo run -q -p hindsight-cli -- ARGS` the README shows succeeds.
    let prefix = "cargo run -q -p hindsight-cli -- ";
    let commands: Vec<&str> = readme
        .match_indices(prefix)
        .map(|(at, _)| {
            let rest = &readme[at + prefix.len()..];
            rest.split(['`', '\n']).next().unwrap_or("").trim()
        })
        .collect();
    assert!(
        commands.len() >= 3,
        "the README shows its commands: {commands:?}"
    );
    for args in &commands {
        stdout_of(args);
    }
    // So does every `hindsight ARGS` line of a `sh` block (after `cargo
    // install --path cli`), its comment cut off.
    let mut installed = 0;
    for block in readme.split("```sh\n").skip(1) {
        let block = block.split("```").next().unwrap_or("");
        for line in block.lines() {
            if let Some(args) = line.strip_prefix("hindsight ") {
                stdout_of(args.split(" #").next().unwrap_or("").trim());
                installed += 1;
            }
        }
    }
    assert!(installed >= 2, "the README shows the installed command");
    // Every marked output block is that command's output.
    let marker = "<!-- output: ";
    let mut blocks = 0;
    for (at, _) in readme.match_indices(marker) {
        let rest = &readme[at + marker.len()..];
        let (args, after) = rest.split_once(" -->").expect("a closed marker");
        assert!(
            commands.contains(&args),
            "`{args}` is a command the README shows"
        );
        let block = after
            .trim_start()
            .strip_prefix("```\n")
            .and_then(|b| b.split_once("```"))
            .map(|(block, _)| block)
            .expect("a fenced block right after the marker");
        let shown: Vec<&str> = block.lines().collect();
        let printed = stdout_of(args);
        let actual: Vec<&str> = printed.lines().collect();
        assert!(
            describes(&shown, &actual),
            "the README shows for `hindsight {args}`:\n{block}\nbut it prints:\n{printed}"
        );
        blocks += 1;
    }
    assert!(blocks >= 2, "the README marks its output blocks");
}

/// The stamp sizes the docs quote for the code review are the bound
/// `hindsight explain` prints (one source), and the sizes on the wire the
/// README and docs/cpl.md give are its transcript's.
#[test]
fn stamp_sizes_in_the_docs_are_what_the_tool_says() {
    let report = stdout_of("explain examples/code_review/review.hind");
    let bound = report
        .lines()
        .find_map(|l| {
            l.strip_prefix("stamp of system review: ")?
                .split(", at most ")
                .nth(1)
        })
        .and_then(|tail| tail.strip_suffix(" bytes"))
        .expect("explain prints the stamp's bound");
    let read = |path: &str| std::fs::read_to_string(root().join(path)).expect("readable");
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
