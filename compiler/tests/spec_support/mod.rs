//! Spec texts through the parser, checker and compiler, for the tests that
//! start from source: each helper panics with the rendered diagnostics (as
//! `spec.hind`) where the text must get through, and the spec texts more than
//! one test file reads.

use hindsight_compiler::check::check;
use hindsight_compiler::diag::{Diag, Severity};
use hindsight_compiler::hir::Spec;
use hindsight_compiler::{compile, Compiled};
use hindsight_grammar::ast::File;
use hindsight_grammar::diag::render;
use std::fmt::Debug;

/// The code-review system of language.md section 1 (the CPL paper's Section 2).
pub(crate) const REVIEW: &str = "\
enum Status { pending, passed, failed, cleared, critical }

system review {
    lifeline Orchestrator { cand: int }
    lifeline TestRunner   { cand: int, status: Status }
    lifeline Security     { cand: int, status: Status }
    lifeline Committer    { cand: int }
    group Reviewers = { TestRunner, Security };

    guard may_merge at Committer =
           TestRunner.cand == cand && Security.cand == cand
        && @TestRunner (status != failed S status == passed)
        && @Security   (status != critical S status == cleared);
}
";

/// The population example of language.md as source (with its unused `let`
/// and group).
pub(crate) const LANGUAGE_POPULATION: &str = "
population epidemic {
    capacity 10000;
    agent  { infected: bool, female: bool, age: int }
    global { day: int }
    group females = agents where female;
    group old_females = females where age > 60;
    let sick = exists a in agents: a.infected;
    property all_females_infected = forall a in females: F a.infected;
    property outbreak_small = G ((count a in agents: a.infected) <= 10);
    property three_stay_healthy = atleast 3 a in females: G !a.infected;
}
";

/// Parses `src`, which must parse.
pub(crate) fn parse(src: &str) -> File {
    hindsight_grammar::parse(src).unwrap_or_else(|d| panic!("{}", render("spec.hind", src, &d)))
}

/// Checks `src`, which must parse and check without any diagnostic.
pub(crate) fn checked(src: &str) -> Spec {
    let (spec, diags) = check(&parse(src));
    assert!(diags.is_empty(), "{}", render("spec.hind", src, &diags));
    spec.expect("no diagnostics, so a spec")
}

/// Checks `src` (which must parse): the spec if one comes back, the codes of
/// the diagnostics (`-` for none) and the diagnostics rendered.
pub(crate) fn diagnosed(src: &str) -> (Option<Spec>, Vec<String>, String) {
    let (spec, diags) = check(&parse(src));
    let rendered = render("spec.hind", src, &diags);
    let codes = diags
        .iter()
        .map(|d| d.code.as_deref().unwrap_or("-").to_string())
        .collect();
    (spec, codes, rendered)
}

/// Checks `src` (which must parse), asserts that its diagnostics have the
/// codes `expected_codes` and that no spec comes back, and returns them
/// rendered.
pub(crate) fn rejected(src: &str, expected_codes: &[&str]) -> String {
    let (spec, codes, rendered) = diagnosed(src);
    assert_eq!(codes, expected_codes, "{rendered}");
    assert!(spec.is_none(), "errors, so no spec");
    rendered
}

/// Compiles `src`, which must compile (warnings allowed).
pub(crate) fn compiled(src: &str) -> Compiled {
    compile(src).unwrap_or_else(|d| panic!("{}", render("spec.hind", src, &d)))
}

/// Compiles `src`, asserts the codes and severities of its warnings, and
/// returns them with the rendered text.
pub(crate) fn warnings(src: &str, expected: &[(&str, Severity)]) -> (Vec<Diag>, String) {
    let c = compiled(src);
    let got: Vec<(&str, Severity)> = c
        .warnings
        .iter()
        .map(|d| (d.code.as_deref().unwrap_or("-"), d.severity))
        .collect();
    let rendered = render("spec.hind", src, &c.warnings);
    assert_eq!(got, expected, "{rendered}");
    (c.warnings, rendered)
}

/// The one item of `items` (a spec's monitors, systems or populations).
pub(crate) fn only<T: Debug>(items: &[T]) -> &T {
    let [item] = items else {
        panic!("not exactly one: {items:?}")
    };
    item
}

/// Asserts that `text` (a rendered diagnostic, a note) contains `needle`.
pub(crate) fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in\n{text}");
}
