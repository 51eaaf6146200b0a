//! `hindsight explain CODE`: every diagnostic code's long explanation, whose
//! erroneous example gets exactly that code from the compiler (or from the
//! code generator, for E0405) and whose fix compiles without it; and the
//! footer every report with errors ends with.

use crate::common::{run_in, Input};
use hindsight_grammar::diag::{has_errors, Code, Diag};

/// The `hind` code blocks of a Markdown text, in order.
fn hind_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```hind\n") {
        let body = &rest[start + "```hind\n".len()..];
        let end = body.find("```").expect("a closed code block");
        blocks.push(body[..end].to_string());
        rest = &body[end..][3..];
    }
    blocks
}

/// Every diagnostic the tool would give `source`: the compiler's, then the
/// code generator's for a spec that compiles.
fn diagnostics(source: &str) -> Vec<Diag> {
    match hindsight_compiler::compile(source) {
        Err(diags) => diags,
        Ok(compiled) => {
            let generated = hindsight_codegen::generate(&compiled.program).err();
            compiled
                .warnings
                .into_iter()
                .chain(generated.into_iter().flatten())
                .collect()
        }
    }
}

/// The codes of `diags`.
fn codes(diags: &[Diag]) -> Vec<String> {
    diags.iter().filter_map(|d| d.code.clone()).collect()
}

/// Codes no stage emits: their explanations say so and show no example.
const NOT_EMITTED: [&str; 2] = ["E0303", "E0406"];

#[test]
fn every_mistake_gets_its_code_and_every_fix_compiles_without_it() {
    let mut failures = Vec::new();
    for code in Code::ALL {
        let name = code.as_str();
        let blocks = hind_blocks(code.explanation());
        if NOT_EMITTED.contains(&name) || name == "E0900" {
            if !blocks.is_empty() {
                failures.push(format!("{name}: an example of a code no example can show"));
            }
            continue;
        }
        let [mistake, fix] = blocks.as_slice() else {
            failures.push(format!(
                "{name}: {} examples, not a mistake and its fix",
                blocks.len()
            ));
            continue;
        };
        let got = diagnostics(mistake);
        if !codes(&got).iter().any(|c| c == name) || (name.starts_with('E') && !has_errors(&got)) {
            failures.push(format!("{name}: the mistake gets {:?}", codes(&got)));
        }
        let fixed = diagnostics(fix);
        if has_errors(&fixed) || codes(&fixed).iter().any(|c| c == name) {
            failures.push(format!("{name}: the fix gets {:?}", codes(&fixed)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn explain_prints_a_codes_explanation_and_refuses_unknown_codes() {
    let dir = std::env::temp_dir();
    let run = run_in(&dir, &["explain", "E0203"], Input::Null);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let expected = format!(
        "E0203 (names): unknown type\n\n{}",
        Code::parse("E0203").expect("a code").explanation()
    );
    assert_eq!(run.stdout, expected);
    assert!(
        run.stdout.contains("input retried: boolean;"),
        "the mistake is shown"
    );
    // Lower case works as rustc's --explain does.
    assert_eq!(
        run_in(&dir, &["explain", "w0101"], Input::Null).code,
        Some(0)
    );
    let unknown = run_in(&dir, &["explain", "E9999"], Input::Null);
    assert_eq!(unknown.code, Some(2));
    assert_eq!(
        unknown.stderr,
        "error: no diagnostic has code E9999 (docs/errors.md lists them: E0001 to E0900, W0100 to W0104)\n"
    );
    let with_block = run_in(&dir, &["explain", "E0203", "--block", "m"], Input::Null);
    assert_eq!(with_block.code, Some(2));
    assert!(
        with_block.stderr.contains("E0203 is a diagnostic code"),
        "{}",
        with_block.stderr
    );
}

#[test]
fn a_report_with_errors_ends_pointing_to_their_explanations() {
    let held = crate::common::scratch("codes");
    let dir = held.path();
    let spec = dir.join("spec.hind");
    std::fs::write(&spec, "monitor m { input a: boolean; property p = G b; }\n").expect("written");
    let run = run_in(
        dir,
        &["check", "spec.hind", "--trace", "spec.hind"],
        Input::Null,
    );
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.ends_with(
            "Some errors have detailed explanations: E0203, E0200.\n\
             For more information about an error, try `hindsight explain E0203`.\n"
        ),
        "{}",
        run.stderr
    );
    std::fs::write(&spec, "monitor m { input a: bool; property p = G b; }\n").expect("written");
    let one = run_in(
        dir,
        &["check", "spec.hind", "--trace", "spec.hind"],
        Input::Null,
    );
    assert!(
        one.stderr
            .ends_with("For more information about this error, try `hindsight explain E0200`.\n"),
        "{}",
        one.stderr
    );
}
