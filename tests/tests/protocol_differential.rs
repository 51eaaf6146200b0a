//! DecAMon's theorem, tested: for random protocols over four lifelines and
//! random traces, every minimal monitoring-safe partition's group monitors
//! report a violation (some group's verdict `false`) exactly when the
//! central monitor does; and partitions the analysis does not call safe
//! (refine none it reports) are unsafe: verification finds a trace each
//! misses, and the random traces find one for most of them (the rate is
//! printed). This test found the two gaps in the paper's conditions that
//! the analysis now fills (analysis/partitions.rs).
//!
//! The central monitor is the protocol's automaton, itself held to the
//! reference of `hindsight_tests::protocol` (the verdict after every prefix
//! of every trace, from the protocol's language built by the textbook
//! definitions); a group's monitor is
//! the projection of the protocol on the events involving the group
//! (`GroupMonitor`, the set of states the hidden events may have reached).
//! Traces are walks of the automaton, then mutated (an event dropped,
//! swapped with the next or replaced), so most are conformant prefixes
//! with one mistake: the violations that lose sequence or exclusion.

use crate::common::deterministic_runner;
use hindsight_compiler::analysis::partitions::{safe_partitions, verify, Partition, Verification};
use hindsight_compiler::compile::check_source;
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_compiler::ir::protocol::{ProtocolTable, VIOLATION};
use hindsight_compiler::{compile, Verdict};
use hindsight_tests::protocol::{
    language, repeated_verdict, verdict, Expected, Language, Message, Proto, LIFELINES,
};
use proptest::prelude::*;
use std::cell::Cell;

/// A random trace expression over messages between the four lifelines,
/// labels `m` and `n`.
fn protocol() -> impl Strategy<Value = Proto> {
    let event = (0usize..4, 0usize..3, prop::bool::ANY)
        .prop_map(|(from, hop, n)| Proto::Event((from, (from + 1 + hop) % 4, n)));
    let leaf = prop_oneof![6 => event, 1 => Just(Proto::Skip)];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let pair = || (inner.clone(), inner.clone());
        prop_oneof![
            4 => pair().prop_map(|(x, y)| Proto::Seq(Box::new(x), Box::new(y))),
            3 => pair().prop_map(|(x, y)| Proto::Choice(Box::new(x), Box::new(y))),
            1 => pair().prop_map(|(x, y)| Proto::Shuffle(Box::new(x), Box::new(y))),
            1 => pair().prop_map(|(x, y)| Proto::Inter(Box::new(x), Box::new(y))),
        ]
    })
}

/// A spec of one system with the four lifelines and protocol `p`; with
/// `loop_` also a repetition `p = (body) . p + skip` instead of `body`.
fn spec(body: &str, repeat: bool) -> String {
    let protocol = if repeat {
        format!("protocol p = ({body}) . a -> b: n . p + skip;")
    } else {
        format!("protocol p = {body};")
    };
    format!(
        "system s {{\n    lifeline a {{}} lifeline b {{}} lifeline c {{}} lifeline d {{}}\n    {protocol}\n}}\n"
    )
}

/// A trace of event indices: a walk of the automaton from its start,
/// `choices` picking among the transitions, then one mutation.
fn trace(table: &ProtocolTable, choices: &[u8], mutation: (u8, u8, u8)) -> Vec<usize> {
    let mut state = table.initial;
    let mut events = Vec::new();
    for &c in choices {
        if state == VIOLATION {
            break;
        }
        let next: Vec<usize> = (0..table.events.len())
            .filter(|&e| table.next(state, e) != VIOLATION)
            .collect();
        let Some(&e) = next.get(usize::from(c) % next.len().max(1)) else {
            break;
        };
        events.push(e);
        state = table.next(state, e);
    }
    let (kind, at, other) = mutation;
    if !events.is_empty() && !table.events.is_empty() {
        let at = usize::from(at) % events.len();
        match kind % 4 {
            0 => {
                events.remove(at);
            }
            1 if at + 1 < events.len() => events.swap(at, at + 1),
            2 => events[at] = usize::from(other) % table.events.len(),
            _ => events.insert(at, usize::from(other) % table.events.len()),
        }
    }
    events
}

/// Whether the central monitor ends the trace in a violation.
fn central_violates(table: &ProtocolTable, trace: &[usize]) -> bool {
    let mut m = ProtocolMonitor::new(table);
    for &e in trace {
        m.step(e);
    }
    m.verdict() == Verdict::False
}

/// Whether some group of `partition` ends the trace in a violation.
fn groups_violate(table: &ProtocolTable, partition: &Partition, trace: &[usize]) -> bool {
    partition.iter().any(|group| {
        let mut m = GroupMonitor::new(table, group);
        for &e in trace {
            if m.sees(e) {
                m.step(e);
            }
        }
        m.verdict() == Verdict::False
    })
}

/// Every partition of lifelines `0..n` (restricted growth strings).
fn all_partitions(n: usize) -> Vec<Partition> {
    fn grow(at: usize, n: usize, labels: &mut Vec<usize>, out: &mut Vec<Partition>) {
        if at == n {
            let groups = labels.iter().copied().max().map_or(0, |m| m + 1);
            let mut p: Partition = vec![Vec::new(); groups];
            for (l, &g) in labels.iter().enumerate() {
                p[g].push(l);
            }
            out.push(p);
            return;
        }
        let next = labels.iter().copied().max().map_or(0, |m| m + 1);
        for g in 0..=next {
            labels.push(g);
            grow(at + 1, n, labels, out);
            labels.pop();
        }
    }
    let mut out = Vec::new();
    grow(0, n, &mut Vec::new(), &mut out);
    out
}

/// Whether `coarse` joins groups of `fine` (each group of `fine` inside
/// one of `coarse`).
fn coarsens(coarse: &Partition, fine: &Partition) -> bool {
    fine.iter()
        .all(|g| coarse.iter().any(|c| g.iter().all(|l| c.contains(l))))
}

/// A walk of the automaton (the transition picked at each step) and a
/// mutation (kind, where, which event).
type Walk = (Vec<u8>, (u8, u8, u8));

#[derive(Default)]
struct Tally {
    cases: Cell<usize>,
    traces: Cell<usize>,
    violations: Cell<usize>,
    unsafe_partitions: Cell<usize>,
    unsafe_shown: Cell<usize>,
    unsafe_verified: Cell<usize>,
    /// Protocols and verdicts compared with the reference.
    referenced: Cell<usize>,
    reference_verdicts: Cell<usize>,
}

/// The most words the reference builds for one protocol.
const REFERENCE_WORDS: usize = 20_000;

/// The central monitor's verdict after every prefix of `trace` is the
/// reference's for the protocol `body` (repeated, with `repeat`); returns
/// how many verdicts were compared (none when the reference's language
/// would be too large).
fn compare_with_reference(
    table: &ProtocolTable,
    body: &Proto,
    repeat: bool,
    traces: &[Vec<usize>],
) -> Result<usize, TestCaseError> {
    let Some(words) = language(body, REFERENCE_WORDS) else {
        return Ok(0);
    };
    let closing: Message = (0, 1, true);
    let blocks: Language = words
        .iter()
        .map(|w| w.iter().copied().chain([closing]).collect())
        .collect();
    let message = |e: usize| -> Message {
        let t = &table.events[e];
        (t.from, t.to, t.label == "n")
    };
    let mut compared = 0;
    for trace in traces {
        let mut monitor = ProtocolMonitor::new(table);
        let mut word = Vec::new();
        for k in 0..=trace.len() {
            if k > 0 {
                monitor.step(trace[k - 1]);
                word.push(message(trace[k - 1]));
            }
            let expected = if repeat {
                repeated_verdict(&blocks, &word)
            } else {
                verdict(&words, &word)
            };
            let expected = match expected {
                Expected::Complete => Verdict::True,
                Expected::Violated => Verdict::False,
                Expected::Pending => Verdict::Unknown,
            };
            prop_assert_eq!(
                monitor.verdict(),
                expected,
                "after {:?}\n{}",
                word.iter()
                    .map(|&m| hindsight_tests::protocol::message_text(m))
                    .collect::<Vec<_>>(),
                spec(&body.to_string(), repeat)
            );
            compared += 1;
        }
    }
    Ok(compared)
}

fn check(body: &Proto, repeat: bool, walks: &[Walk], tally: &Tally) -> Result<(), TestCaseError> {
    let source = spec(&body.to_string(), repeat);
    let Ok(compiled) = compile(&source) else {
        // Refused (an unbounded protocol): nothing to compare.
        return Ok(());
    };
    let table = &compiled.program.systems[0].protocols[0];
    let checked = check_source(&source).expect("compiled, so checked");
    let system = &checked.spec.systems[0];
    let names: Vec<String> = LIFELINES.iter().map(|s| s.to_string()).collect();
    let Ok(safe) = safe_partitions(system, 0, table, &names) else {
        // Too costly to verify: nothing to compare.
        return Ok(());
    };
    let minimal: Vec<Partition> = safe.into_iter().map(|s| s.groups).collect();
    prop_assert!(!minimal.is_empty(), "{}", source);
    tally.cases.set(tally.cases.get() + 1);
    let traces: Vec<Vec<usize>> = walks
        .iter()
        .map(|(choices, mutation)| trace(table, choices, *mutation))
        .collect();
    let compared = compare_with_reference(table, body, repeat, &traces)?;
    if compared > 0 {
        tally.referenced.set(tally.referenced.get() + 1);
        tally
            .reference_verdicts
            .set(tally.reference_verdicts.get() + compared);
    }
    for t in &traces {
        let central = central_violates(table, t);
        tally.traces.set(tally.traces.get() + 1);
        tally
            .violations
            .set(tally.violations.get() + usize::from(central));
        for p in &minimal {
            prop_assert_eq!(
                groups_violate(table, p, t),
                central,
                "partition {:?}, trace {:?}\n{}",
                p,
                t.iter()
                    .map(|&e| table.events[e].text(&names))
                    .collect::<Vec<_>>(),
                source
            );
        }
    }
    // Partitions no minimal one is refined by: is one of the traces a
    // violation they all miss?
    for p in all_partitions(LIFELINES.len()) {
        if minimal.iter().any(|m| coarsens(&p, m)) {
            continue;
        }
        tally
            .unsafe_partitions
            .set(tally.unsafe_partitions.get() + 1);
        // Exactly unsafe: verification finds a trace it misses.
        let exact = verify(table, &p);
        tally.unsafe_verified.set(
            tally.unsafe_verified.get() + usize::from(matches!(exact, Verification::Unsafe(_))),
        );
        let shown = traces
            .iter()
            .any(|t| central_violates(table, t) && !groups_violate(table, &p, t));
        tally
            .unsafe_shown
            .set(tally.unsafe_shown.get() + usize::from(shown));
    }
    Ok(())
}

#[test]
fn safe_partitions_detect_exactly_the_central_violations() {
    let mut runner = deterministic_runner(400);
    let tally = Tally::default();
    let walk = (
        prop::collection::vec(any::<u8>(), 0..8),
        any::<(u8, u8, u8)>(),
    );
    let strategy = (protocol(), any::<bool>(), prop::collection::vec(walk, 40));
    if let Err(e) = runner.run(&strategy, |(body, repeat, walks)| {
        check(&body, repeat, &walks, &tally)
    }) {
        panic!("{e}");
    }
    let (cases, traces, violations) = (
        tally.cases.get(),
        tally.traces.get(),
        tally.violations.get(),
    );
    let (unsafe_partitions, shown) = (tally.unsafe_partitions.get(), tally.unsafe_shown.get());
    let verified = tally.unsafe_verified.get();
    let (referenced, reference_verdicts) = (tally.referenced.get(), tally.reference_verdicts.get());
    println!(
        "{cases} protocols, {traces} traces ({violations} violations); \
         {shown} of {unsafe_partitions} unsafe partitions shown unsafe by a random trace, \
         {verified} by verification; central verdicts of {referenced} protocols at \
         {reference_verdicts} prefixes equal to the reference's"
    );
    assert!(cases > 300, "{cases} protocols compared");
    assert!(
        referenced * 10 > cases * 9,
        "{referenced} of {cases} protocols compared with the reference"
    );
    assert!(
        violations * 5 > traces,
        "{violations} of {traces} traces violate"
    );
    // Exact: every partition no minimal one refines misses a violation.
    assert_eq!(verified, unsafe_partitions);
    assert!(
        shown * 2 > unsafe_partitions,
        "{shown} of {unsafe_partitions} shown unsafe"
    );
}
