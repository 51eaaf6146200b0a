//! Compile-time analysis of population properties: findings worked out by
//! hand (asserted as codes, severities, labels and the words that carry the
//! meaning), plus snapshots of the rendered warnings, each read against the
//! comment above its test.

use crate::spec_support::{self, assert_contains, compiled, LANGUAGE_POPULATION};
use hindsight_compiler::diag::{Diag, LabelStyle, Severity};

/// A population over agents with bool attributes `x`, `y`, a bool global `go`
/// and the group `ys` (agents where `y`), with `decls` (one per line).
fn spec(decls: &str) -> String {
    format!(
        "population town {{\n    agent {{ x: bool, y: bool }}\n    global {{ go: bool }}\n    group ys = agents where y;\n{decls}}}\n"
    )
}

/// Compiles `decls`, asserts the codes and severities of the warnings, and
/// returns them with the rendered text.
fn warnings(decls: &str, expected: &[(&str, Severity)]) -> (Vec<Diag>, String) {
    let (warnings, rendered) = spec_support::warnings(&spec(decls), expected);
    assert!(
        !rendered.contains("_body") && !rendered.contains("f0") && !rendered.contains("q0"),
        "a synthetic name leaked: {rendered}"
    );
    (warnings, rendered)
}

/// The source text under the primary label of `d`.
fn primary_text<'s>(src: &'s str, d: &Diag) -> &'s str {
    let label = d
        .labels
        .iter()
        .find(|l| l.style == LabelStyle::Primary)
        .expect("a primary label");
    &src[label.range.clone()]
}

const W: Severity = Severity::Warning;

// ---- properties of the top table: exactly the monitor findings ----

/// `sick` (a past-time quantifier) can be eventually true and always false
/// only on no trace: W0101 at the property, named `p`.
#[test]
fn a_top_contradiction_is_unsatisfiable() {
    let decls = "    let sick = exists a in agents: a.x;\n    property p = F sick && G !sick;\n";
    let (d, r) = warnings(decls, &[("W0101", W)]);
    assert_eq!(
        primary_text(&spec(decls), &d[0]),
        "property p = F sick && G !sick;"
    );
    assert!(d[0].message.contains("property `p` can never be satisfied"));
    insta::assert_snapshot!("top_unsatisfiable", r);
}

/// `X (go || !go)` holds whatever comes next: W0102.
#[test]
fn a_top_tautology_is_valid() {
    let (d, r) = warnings("    property p = X (go || !go);\n", &[("W0102", W)]);
    assert!(d[0].message.contains("property `p` holds on every trace"));
    insta::assert_snapshot!("top_valid", r);
}

/// `exists .. || G F go`: step 0 with nobody `x` leaves `G F go`, which no
/// continuation decides. The automaton's atoms are the quantifier (a top
/// input named `q0`) and `go`; the BFS takes letter 0 first, so the prefix is
/// `[!(exists ..), !go]`, shown with the quantifier as written.
#[test]
fn a_top_prefix_shows_quantifiers_as_written() {
    let (_, r) = warnings(
        "    property p = (exists a in agents: a.x) || G F go;\n",
        &[("W0103", W)],
    );
    assert_contains(
        &r,
        "after [!(exists a in agents: a.x), !go], no continuation can decide it",
    );
    insta::assert_snapshot!("top_not_monitorable", r);
}

/// Signals are numbered by stratum: `count b in ys: b.y` (stratum 0, found
/// first), `count a in agents: a.y` (stratum 0, found third) and the `exists`
/// around the first count (stratum 1, found second) are `q0`, `q1`, `q2`. The
/// top automaton's atoms are `q2` and `q1 <= 0` (the lowering reads `> 0` as
/// the negation of `<= 0`); both must be replaced by the right quantifier.
/// Letter 0 (nobody `x`, and `count > 0`) leaves `G F ..` undecidable.
#[test]
fn signals_of_several_strata_are_named_by_their_own_quantifiers() {
    let (_, r) = warnings(
        "    property p = (exists a in agents: a.x && (count b in ys: b.y) > 1) || G F (count a in agents: a.y) > 0;\n",
        &[("W0103", W)],
    );
    assert_contains(&r, "after [!(exists a in agents: a.x && (count b in ys: b.y) > 1), !((count a in agents: a.y) <= 0)]");
}

/// A quantifier reached through a `let` is shown by the `let`'s name (the
/// span the inlined quantifier keeps), without parentheses.
#[test]
fn a_top_prefix_shows_a_let_by_its_name() {
    let (_, r) = warnings(
        "    let sick = exists a in agents: a.x;\n    property p = sick || G F go;\n",
        &[("W0103", W)],
    );
    assert_contains(&r, "after [!sick, !go], no continuation");
}

/// `G (go -> F sick)`: a response rule, never decided by a prefix: the W0104 note.
#[test]
fn a_top_response_rule_is_decided_at_the_end() {
    let (d, r) = warnings(
        "    property p = G (go -> F (exists a in agents: a.x));\n",
        &[("W0104", Severity::Note)],
    );
    assert!(d[0].message.contains("`p` is decided only at the end"));
    insta::assert_snapshot!("top_decided_at_end", r);
}

// ---- quantifiers over future-time bodies ----

/// `F a.x && G !a.x` is false for every member from the start, so `forall`
/// over `ys` is false as soon as `ys` has a member. Labelled at the body.
#[test]
fn forall_over_an_unsatisfiable_body() {
    let decls = "    property p = forall a in ys: F a.x && G !a.x;\n";
    let (d, r) = warnings(decls, &[("W0101", W)]);
    assert_eq!(primary_text(&spec(decls), &d[0]), "F a.x && G !a.x");
    assert!(d[0].message.contains("property `p`"));
    assert!(d[0].message.contains("`forall a in ys`"));
    let note = &d[0].notes[0];
    assert_contains(note, "every member's verdict is \"false\"");
    assert_contains(note, "\"false\" as soon as `ys` has a member");
    insta::assert_snapshot!("forall_unsatisfiable", r);
}

/// `X (a.x || !a.x)` is true for every member: `exists` over all agents is
/// true exactly when there is an agent at the first step.
#[test]
fn exists_over_a_valid_body() {
    let (d, r) = warnings(
        "    property p = (exists a in agents: X (a.x || !a.x)) && go;\n",
        &[("W0102", W)],
    );
    assert!(d[0]
        .message
        .contains("`exists a in agents` holds on every trace"));
    assert!(d[0].notes[0].contains("\"true\" as soon as `agents` has a member"));
    insta::assert_snapshot!("exists_valid", r);
}

/// Every quantifier's consequence, worked out from the k-of-n rule with all
/// members `false` (unsatisfiable body) or all `true` (valid body).
#[test]
fn each_quantifier_says_what_a_decided_body_makes_of_it() {
    let unsat = "F a.x && G !a.x";
    let valid = "X (a.x || !a.x)";
    let cases: [(&str, &str, &str, &str); 10] = [
        ("forall", unsat, "W0101", "as soon as `ys` has a member"),
        (
            "forall",
            valid,
            "W0102",
            "\"true\" whatever the trace; it checks nothing",
        ),
        ("exists", unsat, "W0101", "\"false\" whatever the trace"),
        (
            "exists",
            valid,
            "W0102",
            "\"true\" as soon as `ys` has a member",
        ),
        ("atleast 2", unsat, "W0101", "\"false\" whatever the trace"),
        (
            "atleast 2",
            valid,
            "W0102",
            "when `ys` has at least 2 members at the run's first step",
        ),
        ("atleast 0", unsat, "W0101", "\"true\" whatever the trace"),
        (
            "atmost 2",
            unsat,
            "W0101",
            "\"true\" whatever the trace; it checks nothing",
        ),
        (
            "atmost 2",
            valid,
            "W0102",
            "when `ys` has at most 2 members at the run's first step",
        ),
        ("atmost 0", valid, "W0102", "at most 0 members"),
    ];
    for (q, body, code, says) in cases {
        let decls = format!("    property p = {q} a in ys: {body};\n");
        let c = compiled(&spec(&decls));
        assert_eq!(c.warnings.len(), 1, "{q} over {body}");
        let d = &c.warnings[0];
        assert_eq!(d.code.as_deref(), Some(code), "{q} over {body}");
        assert!(d.notes[0].contains(says), "{q} over {body}: {}", d.notes[0]);
        assert!(d.notes[0].contains(&format!("the body `{body}`")));
    }
}

/// `->` and `<->` are lowered to `!a || b` and `(a && b) || (!a && !b)`: the
/// warning still goes to the right quantifier, once.
#[test]
fn implications_and_equivalences_find_their_quantifiers() {
    let (d, _) = warnings(
        "    property p = (exists a in agents: F a.y) -> (forall a in ys: G a.x && F !a.x);\n",
        &[("W0101", W)],
    );
    assert!(d[0].message.contains("`forall a in ys`"));
    let (d, _) = warnings(
        "    property p = (exists a in ys: X (a.x || !a.x)) <-> (forall a in agents: F a.y);\n",
        &[("W0102", W)],
    );
    assert!(d[0].message.contains("`exists a in ys`"));
}

/// A quantifier written in a `let`: the body is labelled in the `let`, and
/// the property that uses it gets a secondary label.
#[test]
fn a_quantifier_from_a_let_is_labelled_where_it_is_written() {
    let decls =
        "    let never = forall a in agents: F a.x && G !a.x;\n    property p = never || go;\n";
    let (d, r) = warnings(decls, &[("W0101", W)]);
    assert_eq!(primary_text(&spec(decls), &d[0]), "F a.x && G !a.x");
    assert_eq!(d[0].labels.len(), 2);
    insta::assert_snapshot!("from_a_let", r);
}

/// Sound properties get nothing: bodies that some member can satisfy and
/// violate, top properties that prefixes decide, past-time properties.
#[test]
fn sound_properties_get_no_warnings() {
    warnings(
        "    property a = forall a in ys: F a.x;\n    property b = atleast 2 a in agents: G !a.x;\n    property c = G ((count a in agents: a.x) <= 3);\n    property d = exists a in ys: O a.x;\n",
        &[],
    );
}

/// The bundled epidemic example and the language.md example compile without
/// warnings (each body and top property can be decided either way).
#[test]
fn the_examples_have_no_warnings() {
    let epidemic = include_str!("../../examples/epidemic/epidemic.hind");
    assert!(compiled(epidemic).warnings.is_empty());
    assert!(compiled(LANGUAGE_POPULATION).warnings.is_empty());
}
