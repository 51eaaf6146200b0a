//! One snapshot per kind of checker diagnostic, each from a small realistic
//! spec, plus a file with many errors showing that all of them are reported.
//! Each test also asserts the codes, worked out by hand, so a wrong or missing
//! diagnostic fails even if a snapshot is accepted carelessly.

use crate::spec_support::diagnosed;

/// Checks `src` (which must parse), asserts the diagnostics' codes, that a spec
/// comes back exactly when they are all warnings, and snapshots the rendered
/// diagnostics under `name`.
fn case(name: &str, src: &str, expected_codes: &[&str]) {
    let (spec, codes, rendered) = diagnosed(src);
    assert_eq!(codes, expected_codes, "{rendered}");
    let errors = expected_codes.iter().any(|c| c.starts_with('E'));
    assert_eq!(
        spec.is_none(),
        errors,
        "a spec comes back iff there are no errors"
    );
    insta::assert_snapshot!(name, rendered);
}

#[test]
fn reset_on_a_past_property() {
    // `with reset` only restarts future-time properties: a warning, not an error.
    case(
        "reset_on_past",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    property pending = !grant S request with reset;\n    property responds = G (request -> F grant) with reset;\n}\n",
        &["W0100"],
    );
}

#[test]
fn type_names_of_other_languages() {
    // Each gets the language's own type (or, for strings, enums), not a
    // suggestion among the declared enums.
    case(
        "foreign_types",
        "enum Tool { search, edit }\nmonitor m {\n    input ok: boolean;\n    input n: i64;\n    input x: f64;\n    input tool: string;\n    input calls: Integer;\n    property p = ok;\n}\n",
        &["E0203", "E0203", "E0203", "E0203", "E0203"],
    );
}

#[test]
fn too_deep_after_inlining() {
    // Each `let` nests 200 `!`s around the previous one: 4 x 200 levels > 512.
    let nots = "!".repeat(200);
    let src = format!(
        "monitor deep {{\n    input p: bool;\n    let a = {nots}p;\n    let b = {nots}a;\n    let c = {nots}b;\n    property q = {nots}c;\n}}\n"
    );
    case("too_deep_after_inlining", &src, &["E0900"]);
}

#[test]
fn too_large_after_inlining() {
    // Each `let` doubles the previous one: 2^17 leaves > 100,000 nodes.
    let mut src = String::from("monitor big {\n    input p: bool;\n    let l0 = p;\n");
    for i in 1..=17 {
        src.push_str(&format!("    let l{i} = l{} && l{};\n", i - 1, i - 1));
    }
    src.push_str("    property q = l17;\n}\n");
    case("too_large_after_inlining", &src, &["E0900"]);
}

#[test]
fn many_errors_are_all_reported() {
    let src = "\
enum Status { pending, passed, failed }
enum Status { open }
monitor ci {
    input status: Status;
    input build: int;
    input load: Load;
    let ok = status == passed;
    let ok = true;
    let loop1 = loop1 && ok;
    property p1 = ok S status;
    property p2 = build < 1.5 || build == passed;
    property p3 = O[3,1] ok && Y G ok;
    property p4 = unknown || load == 3;
    property p5 = @Runner ok;
}
";
    case(
        "many_errors",
        src,
        &[
            "E0201", // second `enum Status`
            "E0203", // type `Load`
            "E0201", // second `let ok`
            "E0204", // loop1
            "E0301", // `status` as an operand of `S`
            "E0300", // int `build` against 1.5
            "E0300", // int `build` against a variant
            "E0400", // [3,1]
            "E0401", // G inside Y
            "E0200", // `unknown`
            "E0403", // @Runner
        ],
    );
}

#[test]
fn goals_that_are_not_past_time_conditions() {
    // A goal must be a bool (E0301) and past-time (E0409, also through a
    // `let`); its name is no value (E0200), nor a second declaration of a
    // taken name (E0201).
    case(
        "goal_errors",
        "enum Tool { edit, test }\nmonitor agent {\n    input tool: Tool;\n    input passed: bool;\n    let later = F passed;\n    goal three = 3;\n    goal soon = X passed;\n    goal eventually = later;\n    goal tested = tool == test && passed;\n    property p = tested;\n    goal passed = true;\n}\n",
        &["E0409", "E0301", "E0409", "E0200", "E0201"],
    );
}
