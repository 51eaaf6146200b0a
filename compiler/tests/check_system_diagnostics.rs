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
