//! One snapshot per kind of diagnostic a `system` block can get, each from a
//! variant of the code-review system, with the codes asserted by hand (so a
//! wrong or missing diagnostic fails even if a snapshot is accepted carelessly).

use crate::spec_support::rejected;

/// Checks `src` (which must parse), asserts the codes and that no spec comes
/// back, and snapshots the rendered diagnostics under `name`.
fn case(name: &str, src: &str, expected_codes: &[&str]) {
    insta::assert_snapshot!(name, rejected(src, expected_codes));
}

/// The review system's declarations followed by `rest` and the closing brace.
fn review(rest: &str) -> String {
    format!(
        "enum Status {{ pending, passed, failed, cleared, critical }}
system review {{
    lifeline Orchestrator {{ cand: int }}
    lifeline TestRunner {{ cand: int, status: Status }}
    lifeline Security {{ cand: int, status: Status }}
    lifeline Committer {{ cand: int }}
    group Reviewers = {{ TestRunner, Security }};
{rest}}}
"
    )
}

#[test]
fn unknown_lifeline_in_at() {
    case(
        "unknown_lifeline",
        &review("    guard g at Committer = @TestRuner (status == passed);\n"),
        &["E0200"],
    );
}

#[test]
fn unknown_remote_variable() {
    case(
        "unknown_remote_var",
        &review("    guard g at Committer = TestRunner.stauts == passed;\n"),
        &["E0200"],
    );
}

#[test]
fn bare_variable_of_another_lifeline() {
    case(
        "bare_var_elsewhere",
        &review("    guard g at Committer = status == passed && cand > 0;\n"),
        &["E0200"],
    );
}

#[test]
fn bare_variable_in_a_let() {
    case(
        "bare_var_in_let",
        &review("    let fresh = cand > 0;\n    guard g at Committer = fresh;\n"),
        &["E0200"],
    );
}

#[test]
fn future_operator_in_a_guard() {
    case(
        "future_in_guard",
        &review(
            "    guard g at Committer = @TestRunner (F status == passed) && (cand > 0 U cand == 0);\n",
        ),
        &["E0409", "E0409"],
    );
}

#[test]
fn future_operator_in_a_let_of_a_system() {
    case(
        "future_in_system_let",
        &review("    let eventually = @Security G status != critical;\n    guard g at Committer = eventually;\n"),
        &["E0409"],
    );
}

#[test]
fn duplicate_lifeline() {
    case(
        "duplicate_lifeline",
        &review("    lifeline Security { cand: int }\n"),
        &["E0201"],
    );
}

#[test]
fn duplicate_and_badly_typed_variables() {
    case(
        "duplicate_variable",
        &review("    lifeline Deployer { cand: int, cand: bool, passed: bool, env: Env }\n"),
        &["E0201", "E0201", "E0203"],
    );
}

#[test]
fn let_named_like_a_variable() {
    case(
        "let_named_like_variable",
        &review("    let cand = true;\n"),
        &["E0201"],
    );
}

#[test]
fn guard_at_unknown_lifeline() {
    case(
        "guard_at_unknown",
        &review("    guard g at Comitter = Committer.cand > 0;\n"),
        &["E0200"],
    );
}

#[test]
fn guard_at_a_group() {
    case(
        "guard_at_group",
        &review("    guard g at Reviewers = true;\n"),
        &["E0206"],
    );
}

#[test]
fn group_with_unknown_and_repeated_members() {
    case(
        "group_members",
        &review("    group Checks = { TestRunner, Linter, TestRunner };\n"),
        &["E0200", "E0201"],
    );
}

#[test]
fn type_error_on_a_remote_term() {
    case(
        "remote_type_error",
        &review(
            "    guard g at Committer = TestRunner.status == cand || Security.cand == passed;\n",
        ),
        &["E0300", "E0300"],
    );
}

#[test]
fn error_in_a_quantifier_body_is_reported_once() {
    case(
        "quantifier_body_error",
        &review(
            "    group Everyone = { TestRunner, Committer, Orchestrator };\n    guard g at Committer = forall l in Everyone: l.status != failed;\n",
        ),
        &["E0200"],
    );
}

#[test]
fn quantifier_over_agents_or_an_unknown_group() {
    case(
        "quantifier_groups",
        &review(
            "    guard g at Committer = (forall a in agents: a.cand == cand) && exists r in Reviewer: @r true;\n",
        ),
        &["E0403", "E0200"],
    );
}

#[test]
fn quantifier_variable_as_a_value() {
    case(
        "quantifier_variable_as_value",
        &review("    guard g at Committer = exists r in Reviewers: r;\n"),
        &["E0206"],
    );
}

#[test]
fn lifeline_as_a_value() {
    case(
        "lifeline_as_value",
        &review("    guard g at Committer = Security == cand;\n"),
        &["E0206"],
    );
}

#[test]
fn error_in_a_quantifier_over_an_empty_group() {
    case(
        "empty_group_body_error",
        &review("    group Nobody = {};\n    guard g at Committer = forall l in Nobody: @l (l.cand == unknown);\n"),
        &["E0200"],
    );
}

#[test]
fn bounds_in_guards() {
    case(
        "guard_bounds",
        &review("    guard g at Committer = @TestRunner (O[5,2] status == passed) && Y[1,2] cand > 0;\n"),
        &["E0400", "E0400"],
    );
}

#[test]
fn many_system_errors_are_all_reported() {
    case(
        "many_system_errors",
        &review(
            "    guard may_merge at Committer =
           TestRunner.cand == cand && Security.cand == status
        && @TestRunner (status != failed S status == passd)
        && @Securty (status != critical S status == cleared)
        && F cand > 0;
    guard may_merge at Orchestrator = true;
",
        ),
        &["E0200", "E0200", "E0200", "E0409", "E0201"],
    );
}
