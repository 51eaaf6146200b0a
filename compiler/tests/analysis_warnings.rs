//! Compile-time analysis of future-time properties: hand-picked formulas whose
//! findings are worked out by hand (asserted as codes, severities and prefixes),
//! plus snapshots of the rendered warnings.

use crate::spec_support::{self, assert_contains, compiled};
use hindsight_compiler::analysis::{examine, prefix_text, Finding};
use hindsight_compiler::diag::Severity;
use hindsight_compiler::ir::table::{
    Automaton, AutomatonId, AutomatonState, Combination, Future, FutureId, Part, SlotId, Source,
    Table,
};
use hindsight_compiler::Verdict;

/// A monitor over bool inputs `p`, `q`, `request`, `grant` with `properties`
/// (one declaration per line).
fn spec(properties: &str) -> String {
    format!(
        "monitor m {{\n    input p: bool;\n    input q: bool;\n    input request: bool;\n    input grant: bool;\n{properties}}}\n"
    )
}

/// Compiles one property, asserts the codes and severities of the warnings,
/// and returns them rendered.
fn warnings(property: &str, expected: &[(&str, Severity)]) -> String {
    spec_support::warnings(&spec(&format!("    {property}\n")), expected).1
}

/// The finding about the only automaton of a one-property spec.
fn finding(property: &str) -> Option<Finding> {
    let c = compiled(&spec(&format!("    {property}\n")));
    let table = &c.program.monitors[0];
    let Source::Future(f) = table.outputs[0].source else {
        panic!("`{property}` is not a future-time property");
    };
    examine(table, f, &table.outputs[0].parts)
}

/// `examine` on a table holding `automaton` alone, as the future of a
/// property whose one atom is slot 0.
fn examine_alone(automaton: Automaton) -> Option<Finding> {
    let table = Table {
        name: "m".into(),
        span: Default::default(),
        inputs: vec![],
        slots: vec![],
        state: vec![],
        outputs: vec![],
        enums: vec![],
        automata: vec![automaton],
        futures: vec![Future {
            combination: Combination::Part(0),
            automata: vec![AutomatonId::new(0)],
        }],
        reading: Default::default(),
        timed: vec![],
        goals: vec![],
        lets: vec![],
    };
    let parts = [Part {
        text: "p".into(),
        slot: SlotId::new(0),
    }];
    examine(&table, FutureId::new(0), &parts)
}

#[test]
fn contradiction_is_unsatisfiable() {
    assert_eq!(
        finding("property a = F p && G !p;"),
        Some(Finding::Unsatisfiable)
    );
    let r = warnings("property a = F p && G !p;", &[("W0101", Severity::Warning)]);
    insta::assert_snapshot!("unsatisfiable", r);
}

#[test]
fn next_of_a_tautology_is_valid() {
    assert_eq!(finding("property b = X (p || !p);"), Some(Finding::Valid));
    let r = warnings("property b = X (p || !p);", &[("W0102", Severity::Warning)]);
    insta::assert_snapshot!("valid", r);
}

#[test]
fn response_is_decided_only_at_the_end_and_is_only_a_note() {
    // Any prefix can be continued with `grant` forever (satisfied) or with a
    // request never granted (violated): no state is ever decided.
    let p = "property responds = G (request -> F grant);";
    assert_eq!(finding(p), Some(Finding::DecidedAtEnd));
    let r = warnings(p, &[("W0104", Severity::Note)]);
    assert_contains(&r, "only decided at the end of the trace");
    insta::assert_snapshot!("decided_at_end", r);
}

#[test]
fn a_prefix_into_an_undecidable_state_is_shown() {
    // Atoms in order of appearance: p (bit 0), q (bit 1). Without p at step 0 the
    // property is false; with p, only `G F q` remains, which nothing decides.
    // Breadth-first over letters 0, 1, ...: letter 0 = [!p, !q] is decided,
    // letter 1 = [p, !q] is the first undecidable one.
    let p = "property r = p && G F q;";
    assert_eq!(
        finding(p),
        Some(Finding::NotMonitorable { prefix: vec![1] })
    );
    let r = warnings(p, &[("W0103", Severity::Warning)]);
    assert_contains(&r, "after [p, !q], no continuation can decide it");

    // Step 0 reads nothing the property needs, so the first letter [!p, !q]
    // leads on; at step 1, [!p, !q] falsifies `p` and [p, !q] is undecidable.
    let p = "property s = X p && G F q;";
    assert_eq!(
        finding(p),
        Some(Finding::NotMonitorable { prefix: vec![0, 1] })
    );
    let r = warnings(p, &[("W0103", Severity::Warning)]);
    assert_contains(
        &r,
        "after [!p, !q] then [p, !q], no continuation can decide it",
    );
    insta::assert_snapshot!("not_monitorable", r);
}

#[test]
fn monitorable_properties_get_no_warning() {
    // Falsifiable from every state (a request not granted at the next step).
    warnings("property next_grant = G (request -> X grant);", &[]);
    // Satisfiable from every state by one `p`.
    warnings("property eventually = F p;", &[]);
    // Falsified by a request left ungranted for three steps, from every state.
    warnings("property bounded = G (request -> F[0,2] grant);", &[]);
    // A past-time property is not analysed.
    warnings("property past = !grant S request;", &[]);
    assert_eq!(finding("property e = F p;"), None);
}

#[test]
fn warnings_come_in_source_order() {
    // The checker's W0100 (on the second property) and the analysis's W0101
    // (on the first) are merged by position.
    let src = spec(
        "    property a = F p && G !p;\n    property pending = !grant S request with reset;\n",
    );
    let c = compiled(&src);
    let codes: Vec<&str> = c
        .warnings
        .iter()
        .map(|d| d.code.as_deref().unwrap_or("-"))
        .collect();
    assert_eq!(codes, ["W0101", "W0100"]);
}

#[test]
fn prefixes_render_atoms_as_literals() {
    let parts = [
        Part {
            text: "request".into(),
            slot: SlotId::new(0),
        },
        Part {
            text: "phase == busy".into(),
            slot: SlotId::new(1),
        },
    ];
    assert_eq!(
        prefix_text(&[1, 2], &parts),
        "after [request, !(phase == busy)] then [!request, phase == busy]"
    );
}

#[test]
fn malformed_automata_do_not_panic() {
    let state = |verdict| AutomatonState {
        verdict,
        end_verdict: Verdict::Unknown,
        residual: String::new(),
    };
    let empty = Automaton {
        atoms: vec![],
        states: vec![],
        transitions: vec![],
    };
    assert_eq!(examine_alone(empty), None);
    // Transitions missing or pointing nowhere: treated as absent.
    let broken = Automaton {
        atoms: vec![SlotId::new(0)],
        states: vec![state(Verdict::Unknown), state(Verdict::False)],
        transitions: vec![7],
    };
    assert_eq!(examine_alone(broken), Some(Finding::DecidedAtEnd));
    let dangling = Automaton {
        atoms: vec![SlotId::new(0)],
        states: vec![
            state(Verdict::Unknown),
            state(Verdict::Unknown),
            state(Verdict::True),
        ],
        transitions: vec![1, 2, 1, 9],
    };
    // q0 -[0]-> q1 -[0]-> q1 (never decided), q0 -[1]-> q2 (decided).
    assert_eq!(
        examine_alone(dangling),
        Some(Finding::NotMonitorable { prefix: vec![0] })
    );
}
