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
fn unknown_name_with_suggestion() {
    case(
        "unknown_name",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    property ok = grant -> O reqest;\n}\n",
        &["E0200"],
    );
}

#[test]
fn property_used_as_a_name() {
    case(
        "property_as_name",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    property granted = O grant;\n    property ok = request -> granted;\n}\n",
        &["E0200"],
    );
}

#[test]
fn duplicate_items() {
    case(
        "duplicate_item",
        "enum door { open, closed }\nmonitor door {\n    input d: door;\n    property shut = d == closed;\n}\n",
        &["E0201"],
    );
}

#[test]
fn duplicate_variants() {
    case(
        "duplicate_variant",
        "enum Status { pending, passed, failed, passed }\n",
        &["E0201"],
    );
}

#[test]
fn duplicate_members() {
    case(
        "duplicate_member",
        "monitor door {\n    input request: bool;\n    let request = O request;\n    property request = request;\n}\n",
        &["E0201", "E0201"],
    );
}

#[test]
fn input_named_like_a_variant() {
    case(
        "input_named_like_variant",
        "enum Status { pending, passed, failed }\nmonitor ci {\n    input status: Status;\n    input passed: bool;\n    property ok = passed -> status != failed;\n}\n",
        &["E0201"],
    );
}

#[test]
fn unknown_variant() {
    case(
        "unknown_variant",
        "enum Status { pending, passed, failed }\nmonitor ci {\n    input status: Status;\n    property ok = status != Status::faild;\n}\n",
        &["E0202"],
    );
}

#[test]
fn unknown_input_type() {
    case(
        "unknown_type",
        "enum Status { pending, passed, failed }\nmonitor ci {\n    input status: Stauts;\n    property ok = status != failed;\n}\n",
        &["E0203"],
    );
}

#[test]
fn unknown_enum_in_qualified_variant() {
    case(
        "unknown_enum_qualified",
        "enum Status { pending, passed, failed }\nmonitor ci {\n    input status: Status;\n    property ok = status != State::failed;\n}\n",
        &["E0203"],
    );
}

#[test]
fn let_using_itself() {
    case(
        "recursive_let_self",
        "monitor latch {\n    input set: bool;\n    input reset: bool;\n    let on = set || (!reset && Y on);\n    property stays = on;\n}\n",
        &["E0204"],
    );
}

#[test]
fn lets_in_a_cycle() {
    case(
        "recursive_let_cycle",
        "monitor latch {\n    input set: bool;\n    let a = set || b;\n    let b = Y c;\n    let c = a;\n    property p = a;\n}\n",
        &["E0204"],
    );
}

#[test]
fn ambiguous_bare_variant() {
    case(
        "ambiguous_variant",
        "enum Light { red, amber, green }\nenum Team { red, blue }\nmonitor crossing {\n    input light: Light;\n    property stop = light == red;\n}\n",
        &["E0205"],
    );
}

#[test]
fn enum_used_as_a_value() {
    case(
        "enum_as_value",
        "enum Light { red, amber, green }\nmonitor crossing {\n    input light: Light;\n    property stop = light == Light;\n}\n",
        &["E0206"],
    );
}

#[test]
fn enum_compared_with_int() {
    case(
        "compare_enum_int",
        "enum Status { pending, passed, failed }\nmonitor ci {\n    input status: Status;\n    property ok = status == 2;\n}\n",
        &["E0300"],
    );
}

#[test]
fn different_enums_compared() {
    case(
        "compare_two_enums",
        "enum Status { pending, passed, failed }\nenum Verdict { accept, reject }\nmonitor ci {\n    input status: Status;\n    input verdict: Verdict;\n    property ok = status == verdict;\n}\n",
        &["E0300"],
    );
}

#[test]
fn int_input_with_float_input() {
    case(
        "compare_int_float",
        "monitor tank {\n    input level: int;\n    input limit: float;\n    property safe = level <= limit;\n}\n",
        &["E0300"],
    );
}

#[test]
fn int_property() {
    case(
        "property_not_bool",
        "monitor trucks {\n    input pkg: int;\n    property p = pkg;\n}\n",
        &["E0301"],
    );
}

#[test]
fn enum_operand_of_since() {
    case(
        "operand_not_bool",
        "enum Action { load, unload }\nmonitor trucks {\n    input action: Action;\n    input ok: bool;\n    property p = ok S action;\n}\n",
        &["E0301"],
    );
}

#[test]
fn ordering_on_enum() {
    case(
        "ordering_on_enum",
        "enum Level { low, mid, high }\nmonitor tank {\n    input level: Level;\n    property p = level < high;\n}\n",
        &["E0302", "E0302"],
    );
}

#[test]
fn arithmetic_on_bool() {
    case(
        "arithmetic_on_bool",
        "monitor counter {\n    input tick: bool;\n    input n: int;\n    property p = n + tick > 3;\n}\n",
        &["E0302"],
    );
}

#[test]
fn negated_bool() {
    case(
        "negated_bool",
        "monitor counter {\n    input tick: bool;\n    property p = -tick == tick;\n}\n",
        &["E0302"],
    );
}

#[test]
fn bound_reversed() {
    case(
        "bound_reversed",
        "monitor trucks {\n    input drive: bool;\n    input refuel: bool;\n    property fuelled = drive -> O[4,1] refuel;\n}\n",
        &["E0400"],
    );
}

#[test]
fn bound_on_yesterday() {
    case(
        "bound_on_yesterday",
        "monitor trucks {\n    input drive: bool;\n    input refuel: bool;\n    property fuelled = drive -> Y[1,4] refuel;\n}\n",
        &["E0400"],
    );
}

#[test]
fn future_inside_past() {
    case(
        "future_in_past",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    property p = O (request && F grant);\n}\n",
        &["E0401"],
    );
}

#[test]
fn future_inside_past_through_let() {
    case(
        "future_in_past_via_let",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    let answered = request -> F grant;\n    property p = H answered;\n}\n",
        &["E0401"],
    );
}

#[test]
fn infinite_future_bound() {
    case(
        "infinite_future_bound",
        "monitor door {\n    input request: bool;\n    input grant: bool;\n    property p = request -> F[0,inf] grant;\n}\n",
        &["E0402"],
    );
}

#[test]
fn at_lifeline_in_monitor() {
    case(
        "at_in_monitor",
        "enum Status { pending, passed, failed }\nmonitor merge {\n    input status: Status;\n    property p = @TestRunner (status == passed);\n}\n",
        &["E0403"],
    );
}

#[test]
fn lifeline_variable_in_monitor() {
    case(
        "field_in_monitor",
        "monitor merge {\n    input cand: int;\n    property p = TestRunner.cand == cand;\n}\n",
        &["E0403"],
    );
}

#[test]
fn quantifier_in_monitor() {
    case(
        "quantifier_in_monitor",
        "monitor merge {\n    input ok: bool;\n    property p = forall r in Reviewers: ok;\n}\n",
        &["E0403"],
    );
}

#[test]
fn bound_too_large() {
    case(
        "bound_too_large",
        "monitor trucks {\n    input drive: bool;\n    input refuel: bool;\n    property fuelled = drive -> O[100000,100001] refuel;\n}\n",
        &["E0404"],
    );
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
