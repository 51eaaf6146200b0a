//! The distributed CPL monitor (the compiler's `system` lowering run by the
//! interpreter) against the denotational reference: the CPL paper's Theorem
//! 5.1 as a property test, the paper's code-review scenarios, and the
//! rejection of bad stamps and store changes.

use hindsight_compiler::hir::{Spec, System, Value};
use hindsight_compiler::interp::system::{
    EventKind as Kind, LifelineMonitor, MonitorError, Replay, Stamp, SystemError,
};
use hindsight_compiler::ir::system::{EntryKind, SystemTables};
use hindsight_compiler::lower;
use hindsight_compiler::Verdict;
use hindsight_tests::cpl::gen::{execution, linearization, system_spec};
use hindsight_tests::cpl::msc::{EventKind, Execution, MsgId};
use hindsight_tests::cpl::reference::guard_table;
use hindsight_tests::cpl::scenarios::{self, COMMITTER};
use hindsight_tests::pipeline::system_tables;
use proptest::prelude::*;

/// The guard verdicts of the distributed monitor after every event of
/// `exec` (in its order), in the reference's shape: `table[e][g]` for the
/// guards `g` of `e`'s lifeline, `None` for the others.
fn monitor_table(tables: &SystemTables, exec: &Execution) -> Vec<Vec<Option<bool>>> {
    let mut monitor: Replay<'_, MsgId> = Replay::new(tables);
    exec.events()
        .iter()
        .map(|ev| {
            let kind = match ev.kind {
                EventKind::Send { to, msg } => Kind::Send { to, msg },
                EventKind::Recv { msg } => Kind::Recv { msg },
                EventKind::Act => Kind::Act,
                EventKind::Choice => Kind::Choice,
            };
            let verdicts = monitor
                .event(ev.lifeline, kind, &ev.changes)
                .unwrap_or_else(|e| panic!("a valid execution is refused: {e}"))
                .to_vec();
            let owned = monitor
                .lifeline(ev.lifeline)
                .expect("lifeline")
                .owned_guards();
            let mut row = vec![None; tables.guards.len()];
            for (&g, verdict) in owned.iter().zip(verdicts) {
                row[g.index()] = Some(verdict.decided().expect("guards are decided"));
            }
            row
        })
        .collect()
}

fn lowered(spec: &Spec) -> SystemTables {
    lower::system::lower(spec, &spec.systems[0], &mut Default::default())
        .unwrap_or_else(|d| panic!("{d:?}"))
}

/// A random system, a random execution of it, and a random linearization.
fn case() -> impl Strategy<Value = (Spec, Execution, Vec<usize>)> {
    system_spec()
        .prop_flat_map(|spec| {
            let exec = execution(&spec.systems[0], 30);
            (Just(spec), exec)
        })
        .prop_flat_map(|(spec, exec)| {
            let order = linearization(&exec);
            (Just(spec), Just(exec), order)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Theorem 5.1: run along any linearization of any execution, the
    /// distributed monitor's value of every guard at every event of its owner
    /// is the guard's denotational value at that event.
    #[test]
    fn distributed_monitor_equals_the_semantics((spec, exec, order) in case()) {
        let tables = lowered(&spec);
        let reference = guard_table(&spec.systems[0], &exec);
        let relinearized = exec.reordered(&order).expect("a linear extension");
        let monitored = monitor_table(&tables, &relinearized);
        for (k, &e) in order.iter().enumerate() {
            prop_assert_eq!(
                &monitored[k], &reference[e],
                "event {} (taken {}th) of {:?}", e, k, exec.events()
            );
        }
    }
}

// ------------------------------------------------------------ the paper's scenarios

/// The code-review system compiled from its source text.
fn review() -> SystemTables {
    let tables = system_tables(scenarios::SOURCE);
    let names: Vec<&str> = tables.lifelines.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        ["Orchestrator", "TestRunner", "Security", "Committer"]
    );
    tables
}

/// `may_merge` at the scenario's last event (the Committer's choice), after
/// checking the whole run against the reference.
fn may_merge_at_choice(exec: &Execution) -> bool {
    let tables = review();
    let monitored = monitor_table(&tables, exec);
    assert_eq!(monitored, guard_table(&scenarios::code_review(), exec));
    let last = exec.events().last().expect("events");
    assert_eq!((last.lifeline, last.kind), (COMMITTER, EventKind::Choice));
    monitored
        .last()
        .and_then(|row| row[0])
        .expect("the Committer owns may_merge")
}

/// One test per row, `name(scenario) => merges`: whether the Committer may
/// merge at its choice, the last event of `scenarios::scenario()`.
macro_rules! choice_tests {
    ($($(#[$doc:meta])* $name:ident($scenario:ident) => $merges:expr;)*) => {$(
        $(#[$doc])*
        #[test]
        fn $name() {
            assert_eq!(may_merge_at_choice(&scenarios::$scenario()), $merges);
        }
    )*};
}

choice_tests! {
    /// Figure 2: the pass report was delivered, the failure is in transit: merge.
    figure2_merges(figure2) => true;
    /// The failure report delivered before the proposal: no merge.
    failure_delivered_first_blocks(failure_delivered_first) => false;
    /// The failure overtakes the pass; the stale pass arriving last does not count.
    pass_overtaken_by_failure_blocks(pass_overtaken_by_failure) => false;
    /// A stale report for an older candidate arriving last does not hide the newer pass.
    stale_report_for_older_candidate_merges(stale_report_for_older_candidate) => true;
    /// The only visible test report is for another candidate: no merge.
    wrong_candidate_blocks(wrong_candidate) => false;
    /// No test report visible yet: `TestRunner.cand` is undefined, no merge.
    no_report_yet_blocks(no_report_yet) => false;
}

// ------------------------------------------------------------ refused events

/// `guard seen at B = @A (x == 1)`: B learns A's state only through stamps.
fn two_lifelines() -> SystemTables {
    let src =
        "system s { lifeline A { x: int } lifeline B { y: bool } guard seen at B = @A (x == 1); }";
    system_tables(src)
}

/// A's stamp after setting x = 1 and sending.
fn stamp_from_a(tables: &SystemTables) -> Stamp {
    let mut a = LifelineMonitor::new(tables, 0).expect("A");
    a.on_act(&[(0, Value::Int(1))]).expect("act");
    a.on_send(&[]).expect("send")
}

#[test]
fn a_stamp_ahead_of_the_receiver_is_refused_and_nothing_is_merged() {
    let tables = two_lifelines();
    let good = stamp_from_a(&tables);
    assert_eq!(good.clock, [2, 0]);
    let mut b = LifelineMonitor::new(&tables, 1).expect("B");
    b.on_act(&[]).expect("act");
    // Claims to have seen 2 events of B, which has had 1.
    let mut ahead = good.clone();
    ahead.clock[1] = 2;
    assert_eq!(
        b.on_recv(&ahead, &[]),
        Err(MonitorError::StampAhead { own: 1, stamp: 2 })
    );
    assert_eq!(b.clock(), [0, 1], "nothing merged, no event");
    assert_eq!(b.on_choice(&[]).expect("choice"), [Verdict::False]);
    // After the choice B has had 2 events: the same stamp is now consistent.
    b.on_recv(&ahead, &[]).expect("consistent now");
    assert_eq!(b.clock(), [2, 3]);
    assert_eq!(b.guards(), [Verdict::True]);
}

#[test]
fn foreign_and_malformed_stamps_are_refused() {
    let tables = two_lifelines();
    let good = stamp_from_a(&tables);
    let mut b = LifelineMonitor::new(&tables, 1).expect("B");
    let refused = |b: &mut LifelineMonitor<'_>, stamp: Stamp| b.on_recv(&stamp, &[]).unwrap_err();

    let foreign = Stamp {
        fingerprint: good.fingerprint ^ 1,
        ..good.clone()
    };
    assert_eq!(refused(&mut b, foreign), MonitorError::ForeignStamp);
    let short_clock = Stamp {
        clock: vec![2],
        ..good.clone()
    };
    assert_eq!(refused(&mut b, short_clock), MonitorError::MalformedStamp);
    let no_entries = Stamp {
        entries: Vec::new(),
        ..good.clone()
    };
    assert_eq!(refused(&mut b, no_entries), MonitorError::MalformedStamp);
    let int_for_a_formula = Stamp {
        entries: vec![Some(Value::Int(1))],
        ..good.clone()
    };
    assert_eq!(
        refused(&mut b, int_for_a_formula),
        MonitorError::MalformedStamp
    );
    assert_eq!(b.clock(), [0, 0], "nothing merged, no event");
    b.on_recv(&good, &[]).expect("the real stamp");
    assert_eq!(b.guards(), [Verdict::True]);
}

#[test]
fn a_stamp_from_another_spec_is_refused() {
    let tables = two_lifelines();
    let src =
        "system s { lifeline A { x: int } lifeline B { y: bool } guard seen at B = @A (x == 2); }";
    let other = hindsight_compiler::compile(src).expect("compiles");
    let other = &other.program.systems[0];
    assert_eq!(other.layout.entries.len(), tables.layout.entries.len());
    let mut b = LifelineMonitor::new(other, 1).expect("B");
    assert_eq!(
        b.on_recv(&stamp_from_a(&tables), &[]),
        Err(MonitorError::ForeignStamp)
    );
}

#[test]
fn bad_store_changes_are_refused() {
    let tables = two_lifelines();
    let mut a = LifelineMonitor::new(&tables, 0).expect("A");
    assert_eq!(
        a.on_act(&[(1, Value::Int(1))]),
        Err(MonitorError::UnknownVar(1))
    );
    assert_eq!(
        a.on_act(&[(0, Value::Bool(true))]),
        Err(MonitorError::WrongType(0))
    );
    assert_eq!(a.clock(), [0, 0]);
}

#[test]
fn system_monitor_refuses_bad_message_flow() {
    let tables = two_lifelines();
    let mut run: Replay<'_, &str> = Replay::new(&tables);
    let send = |to, msg| Kind::Send { to, msg };
    assert_eq!(
        run.event(2, Kind::Act, &[]).unwrap_err(),
        SystemError::UnknownLifeline(2)
    );
    assert_eq!(
        run.event(0, send(5, "m"), &[]).unwrap_err(),
        SystemError::UnknownLifeline(5)
    );
    assert_eq!(
        run.event(1, Kind::Recv { msg: "m" }, &[]).unwrap_err(),
        SystemError::UnknownMessage
    );
    run.event(0, send(1, "m"), &[(0, Value::Int(1))])
        .expect("send");
    assert_eq!(
        run.event(0, send(1, "m"), &[]).unwrap_err(),
        SystemError::DuplicateMessage
    );
    assert_eq!(
        run.event(0, Kind::Recv { msg: "m" }, &[]).unwrap_err(),
        SystemError::WrongReceiver { to: 1 }
    );
    assert_eq!(run.in_transit(), 1);
    assert_eq!(
        run.event(1, Kind::Recv { msg: "m" }, &[]).expect("recv"),
        [Verdict::True]
    );
    assert_eq!(
        run.event(1, Kind::Recv { msg: "m" }, &[]).unwrap_err(),
        SystemError::AlreadyReceived
    );
    assert_eq!(run.in_transit(), 0);
    // The refused events left no trace: one event of A, one of B.
    assert_eq!(run.lifeline(0).expect("A").clock(), [1, 0]);
    assert_eq!(run.lifeline(1).expect("B").clock(), [1, 1]);
}

/// The generated systems the property test draws from include every kind of
/// view entry (a sanity check that the test exercises the stamp).
#[test]
fn generated_systems_exchange_entries() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut formulas, mut vars) = (0, 0);
    for _ in 0..200 {
        let spec = system_spec().new_tree(&mut runner).expect("tree").current();
        let system: &System = &spec.systems[0];
        for entry in &lowered(&spec).layout.entries {
            assert!(entry.owner.index() < system.lifelines.len());
            match entry.kind {
                EntryKind::Formula => formulas += 1,
                EntryKind::Var { .. } => vars += 1,
            }
        }
    }
    assert!(
        formulas > 50 && vars > 50,
        "{formulas} formulas, {vars} variables"
    );
}
