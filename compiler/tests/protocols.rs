//! Protocols of systems (DecAMon): checking, automata by derivatives, the
//! central and group monitors, and the minimal monitoring-safe partitions
//! of the paper's examples, worked out by hand from the paper.

use hindsight_compiler::analysis::partitions::{critical_points, minimal_partitions, Condition};
use hindsight_compiler::compile::check_source;
use hindsight_compiler::hir::System;
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_compiler::ir::protocol::{EventKind, EventType, ProtocolTable};
use hindsight_compiler::{compile, Verdict};

/// The system `s` of `source`, checked.
fn system(source: &str) -> System {
    let checked = check_source(source).unwrap_or_else(|d| {
        panic!(
            "{}",
            hindsight_compiler::diag::render("spec.hind", source, &d)
        )
    });
    checked.spec.systems.into_iter().next().expect("a system")
}

/// The protocol tables of the first system of `source`.
fn tables(source: &str) -> Vec<ProtocolTable> {
    let compiled = compile(source).unwrap_or_else(|d| {
        panic!(
            "{}",
            hindsight_compiler::diag::render("spec.hind", source, &d)
        )
    });
    compiled.program.systems[0].protocols.clone()
}

/// The minimal partitions of protocol `k`, by lifeline names.
fn partitions(source: &str, k: usize) -> Vec<Vec<Vec<String>>> {
    let system = system(source);
    let names: Vec<String> = system.lifelines.iter().map(|l| l.name.clone()).collect();
    let points = critical_points(&system, k);
    let found = minimal_partitions(&points, &names, system.span).expect("a bounded search");
    found
        .iter()
        .map(|p| {
            p.iter()
                .map(|g| g.iter().map(|&l| names[l].clone()).collect())
                .collect()
        })
        .collect()
}

fn p(groups: &[&[&str]]) -> Vec<Vec<String>> {
    groups
        .iter()
        .map(|g| g.iter().map(|s| s.to_string()).collect())
        .collect()
}

const AIP1: &str = "system aip1 {
    lifeline alice {} lifeline bob {} lifeline carol {} lifeline dave {}
    protocol aip1 = alice -> dave: meet + carol -> bob: meet;
}";

const AIP2: &str = "system aip2 {
    lifeline aamas {} lifeline alice {} lifeline carol {} lifeline dave {}
    protocol aip2 = alice -> aamas: submit . (alice -> aamas: submit + skip) . carol -> dave: submitted;
}";

/// AIP1 (section 2): the choice between `alice -> dave` and `carol -> bob`
/// is one critical point; a group must hold one of alice, dave and one of
/// carol, bob. The paper lists the four minimal partitions (section 3);
/// they come sorted by their groups' names.
#[test]
fn aip1_has_the_papers_four_minimal_partitions() {
    let system = system(AIP1);
    let points = critical_points(&system, 0);
    assert_eq!(points.len(), 1);
    assert_eq!(points[0].condition, Condition::UniqueChoice);
    assert_eq!(
        partitions(AIP1, 0),
        vec![
            p(&[&["alice"], &["bob"], &["carol", "dave"]]),
            p(&[&["alice"], &["bob", "dave"], &["carol"]]),
            p(&[&["alice", "bob"], &["carol"], &["dave"]]),
            p(&[&["alice", "carol"], &["bob"], &["dave"]]),
        ]
    );
}

/// AIP2: the sequence from alice's submissions (`alice -> aamas`) to
/// `carol -> dave` is one critical point (section 3: "{{alice, dave},
/// {aamas}, {carol}}" is one of its four).
#[test]
fn aip2_has_four_minimal_partitions_one_of_them_the_papers() {
    let system = system(AIP2);
    let points = critical_points(&system, 0);
    assert_eq!(points.len(), 1, "{points:?}");
    assert_eq!(points[0].condition, Condition::Sequence);
    let found = partitions(AIP2, 0);
    assert_eq!(found.len(), 4);
    assert!(found.contains(&p(&[&["aamas"], &["alice", "dave"], &["carol"]])));
}

/// The central monitor of AIP1: either meeting, not both.
#[test]
fn aip1_central_monitor() {
    let table = &tables(AIP1)[0];
    let event = |from: &str, to: &str| {
        let names = ["alice", "bob", "carol", "dave"];
        let index = |n: &str| names.iter().position(|&x| x == n).unwrap();
        table
            .event_index(&EventType {
                kind: EventKind::Interaction,
                from: index(from),
                to: index(to),
                label: "meet".to_string(),
            })
            .unwrap()
    };
    let mut m = ProtocolMonitor::new(table);
    assert_eq!(m.verdict(), Verdict::Unknown);
    m.step(event("alice", "dave"));
    assert_eq!(m.verdict(), Verdict::True);
    m.step(event("carol", "bob"));
    assert_eq!(m.verdict(), Verdict::False);
    // Fully decentralized, alice's and carol's monitors each see one
    // meeting and find nothing wrong: the point the partition must cover.
    let (alice, carol) = (0, 2);
    let mut ga = GroupMonitor::new(table, &[alice]);
    let mut gc = GroupMonitor::new(table, &[carol]);
    ga.step(event("alice", "dave"));
    gc.step(event("carol", "bob"));
    assert_eq!((ga.verdict(), gc.verdict()), (Verdict::True, Verdict::True));
    // Together they see both.
    let mut g = GroupMonitor::new(table, &[alice, carol]);
    g.step(event("alice", "dave"));
    g.step(event("carol", "bob"));
    assert_eq!(g.verdict(), Verdict::False);
}

/// The paper's conditions are not sufficient (analysis/partitions.rs): in
/// `(c -> d: m + c -> a: m) . a -> b: n` the one critical point (`c -> d`,
/// `a -> b`) is satisfied by `{a}, {b, d}, {c}`, yet `a -> b` first goes
/// unnoticed: `{a}` takes it for the `c -> d` branch, `{b, d}` for the
/// `c -> a` one. Verification finds that trace, and the analysis only
/// reports partitions where one group sees both branches and `a -> b`.
#[test]
fn sequence_after_a_choice_needs_one_group_for_both_branches() {
    use hindsight_compiler::analysis::partitions::{safe_partitions, verify, Verification};
    let source = "system s {
    lifeline a {} lifeline b {} lifeline c {} lifeline d {}
    protocol p = (c -> d: m + c -> a: m) . a -> b: n;
}";
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let paper = partitions(source, 0);
    assert!(paper.contains(&p(&[&["a"], &["b", "d"], &["c"]])));
    let table = &tables(source)[0];
    let missed = verify(table, &vec![vec![0], vec![1, 3], vec![2]]);
    let Verification::Unsafe(trace) = missed else {
        panic!("{missed:?}")
    };
    let trace: Vec<String> = trace
        .iter()
        .map(|&e| table.events[e].text(&names))
        .collect();
    assert_eq!(trace, ["a -> b: n"]);
    let system = system(source);
    let safe: Vec<Vec<Vec<String>>> = safe_partitions(&system, 0, table, &names)
        .expect("bounded")
        .iter()
        .map(|s| {
            s.groups
                .iter()
                .map(|g| g.iter().map(|&l| names[l].clone()).collect())
                .collect()
        })
        .collect();
    // Every safe partition has a group with a or b, c or d, and a or c
    // (both branches' ends and a -> b): {a, c}, {a, d}, {b, c}.
    assert_eq!(
        safe,
        vec![
            p(&[&["a"], &["b", "c"], &["d"]]),
            p(&[&["a", "c"], &["b"], &["d"]]),
            p(&[&["a", "d"], &["b"], &["c"]]),
        ]
    );
}

/// For AIP1 and AIP2 the paper's lists are exactly the minimal safe
/// partitions: verification confirms each and finds none finer.
#[test]
fn the_papers_partitions_verify() {
    use hindsight_compiler::analysis::partitions::safe_partitions;
    for (source, k) in [(AIP1, 0), (AIP2, 0)] {
        let system = system(source);
        let names: Vec<String> = system.lifelines.iter().map(|l| l.name.clone()).collect();
        let table = &tables(source)[k];
        let safe: Vec<Vec<Vec<String>>> = safe_partitions(&system, k, table, &names)
            .expect("bounded")
            .iter()
            .map(|s| {
                s.groups
                    .iter()
                    .map(|g| g.iter().map(|&l| names[l].clone()).collect())
                    .collect()
            })
            .collect();
        assert_eq!(safe, partitions(source, k), "{source}");
    }
}

/// A relay: `a` passes a message to `b`, then `b` one to `c`.
const RELAY: &str = "system relay {
    lifeline a {} lifeline b {} lifeline c {}
    protocol relay = a -> b: m . b -> c: n;
}";

/// A trace cut after `a -> b: m` (docs/language.md section 4e): the
/// protocol needs `b -> c: n` still, so its verdict is `?` and at the end
/// `false`. A group's monitor ends `true` only if a state it may be in
/// accepts: `{a}` cannot see `b -> c: n`, which may have happened, so
/// `true`; `{b}`, `{c}` and `{a, b, c}` would have seen it, so `false`
/// (`{c}`, seeing nothing, is still before it).
#[test]
fn a_protocol_cut_short_ends_false_in_every_group_that_would_see_the_rest() {
    let table = &tables(RELAY)[0];
    let first = table
        .event_index(&EventType {
            kind: EventKind::Interaction,
            from: 0,
            to: 1,
            label: "m".to_string(),
        })
        .expect("a -> b: m");
    let mut central = ProtocolMonitor::new(table);
    central.step(first);
    assert_eq!(
        (central.verdict(), central.end_verdict()),
        (Verdict::Unknown, Verdict::False)
    );
    let groups: [(&[usize], Verdict, Verdict); 4] = [
        (&[0], Verdict::True, Verdict::True),
        (&[1], Verdict::Unknown, Verdict::False),
        (&[2], Verdict::Unknown, Verdict::False),
        (&[0, 1, 2], Verdict::Unknown, Verdict::False),
    ];
    for (group, verdict, end) in groups {
        let mut monitor = GroupMonitor::new(table, group);
        if monitor.sees(first) {
            monitor.step(first);
        }
        assert_eq!(
            (monitor.verdict(), monitor.end_verdict()),
            (verdict, end),
            "group {group:?}"
        );
    }
}

/// `(a . (b + skip)) . c`, the module's own example of a concatenation
/// whose right side may be empty (analysis/partitions.rs; docs/language.md
/// section 4e): `a` then `c` is a trace, so the last events before `c` are
/// `b` and `a`. Worked by hand, the critical points are all connectedness
/// for sequence: (`a`, `c`) and (`b`, `c`) at the outer concatenation,
/// (`a`, `b`) at the inner one; the choice with `skip` has none (`skip`
/// has no first event). No lifeline takes part in two events, so none is
/// left out.
#[test]
fn partitions_connect_the_left_side_across_a_right_side_that_may_be_empty() {
    let source = "system s {
    lifeline alice {} lifeline bob {} lifeline carol {}
    lifeline dave {} lifeline erin {} lifeline frank {}
    protocol p = (alice -> bob: a . (carol -> dave: b + skip)) . erin -> frank: c;
}";
    let system = system(source);
    let names: Vec<String> = system.lifelines.iter().map(|l| l.name.clone()).collect();
    // Where each concatenation is written (a parenthesized one with its
    // parentheses): both from the first `(`, the inner one to its `)`, the
    // outer one to the end.
    let start = source.find("(alice").expect("the concatenations");
    let outer = (start, source.find(";\n}").expect("the end"));
    let inner = (
        start,
        source.find("skip))").expect("the choice") + "skip))".len(),
    );
    let mut points: Vec<(Condition, Vec<String>, (usize, usize))> = critical_points(&system, 0)
        .iter()
        .map(|p| {
            let events = p.events.iter().map(|e| e.text(&names)).collect();
            (p.condition, events, (p.span.start, p.span.end))
        })
        .collect();
    points.sort();
    let point = |x: &str, y: &str, at: (usize, usize)| {
        (Condition::Sequence, vec![x.to_string(), y.to_string()], at)
    };
    let (a, b, c) = ("alice -> bob: a", "carol -> dave: b", "erin -> frank: c");
    let mut expected = vec![point(a, c, outer), point(b, c, outer), point(a, b, inner)];
    expected.sort();
    assert_eq!(points, expected);
}
