//! Generated lifeline monitors of random systems give, at every event, the
//! guard verdicts of the compiler's executable `Replay` and of the
//! denotational reference, along random executions (non-FIFO delivery,
//! messages left in transit, random store changes) in random linearizations.
//! Every stamp also travels through its byte encoding.
#![deny(warnings)]

use hindsight_compiler::interp::system::{EventKind as Kind, Replay};
use hindsight_compiler::ir::SystemTables;
use hindsight_runtime::stamp::StampError;
use hindsight_runtime::{Value, Verdict};
use hindsight_tests::cpl::gen::{execution, linearization};
use hindsight_tests::cpl::msc::{EventKind, Execution, MsgId};
use hindsight_tests::cpl::reference::guard_table;
use hindsight_tests::pipeline::system_tables;
use proptest::prelude::*;

#[path = "support/seeded_systems.rs"]
mod seeded_systems;

/// A random system's generated monitors behind one object-safe interface.
pub(crate) trait Generated {
    /// One event of `lifeline`; the verdicts of the guards it owns after it.
    fn event(
        &mut self,
        lifeline: usize,
        kind: &EventKind,
        changes: &[(usize, Value)],
    ) -> Result<Vec<Verdict>, StampError>;
}

/// The generated code of the random systems (see build.rs), public as a
/// user's would be.
#[allow(unreachable_pub)]
mod generated {
    use super::{
        bool_change, enum_change, int_change, EventKind, Generated, MsgId, StampError, Value,
        Verdict,
    };

    include!(concat!(env!("OUT_DIR"), "/systems.rs"));
}

/// The change of variable `var`, if the event makes one.
fn change(changes: &[(usize, Value)], var: usize) -> Option<Value> {
    changes
        .iter()
        .find(|(v, _)| *v == var)
        .map(|&(_, value)| value)
}

/// A bool variable's change.
pub(crate) fn bool_change(changes: &[(usize, Value)], var: usize) -> Option<bool> {
    match change(changes, var)? {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

/// An int variable's change.
pub(crate) fn int_change(changes: &[(usize, Value)], var: usize) -> Option<i64> {
    match change(changes, var)? {
        Value::Int(i) => Some(i),
        _ => None,
    }
}

/// An enum variable's change, as a variant index.
pub(crate) fn enum_change(changes: &[(usize, Value)], var: usize) -> Option<u32> {
    match change(changes, var)? {
        Value::Enum(i) => Some(i),
        _ => None,
    }
}

/// The compiled systems, in seed order, with their HIR (for the reference).
fn systems() -> &'static [(hindsight_compiler::hir::Spec, SystemTables)] {
    static SYSTEMS: std::sync::OnceLock<Vec<(hindsight_compiler::hir::Spec, SystemTables)>> =
        std::sync::OnceLock::new();
    SYSTEMS.get_or_init(|| {
        seeded_systems::systems()
            .into_iter()
            .map(|(spec, source)| (spec, system_tables(&source)))
            .collect()
    })
}

/// A random system (by index), an execution of it and a linearization.
fn case() -> impl Strategy<Value = (usize, Execution)> {
    (0..seeded_systems::SYSTEM_COUNT)
        .prop_flat_map(|k| (Just(k), execution(&systems()[k].0.systems[0], 40)))
        .prop_flat_map(|(k, exec)| (Just(k), Just(exec.clone()), linearization(&exec)))
        .prop_map(|(k, exec, order)| (k, exec.reordered(&order).expect("a linear extension")))
}

fn kind(kind: EventKind) -> Kind<MsgId> {
    match kind {
        EventKind::Send { to, msg } => Kind::Send { to, msg },
        EventKind::Recv { msg } => Kind::Recv { msg },
        EventKind::Act => Kind::Act,
        EventKind::Choice => Kind::Choice,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn generated_monitors_equal_the_executable_monitor((k, exec) in case()) {
        let (spec, tables) = &systems()[k];
        let reference = guard_table(&spec.systems[0], &exec);
        let mut interpreted: Replay<'_, MsgId> = Replay::new(tables);
        let mut generated = generated::SYSTEMS[k]();
        for (e, ev) in exec.events().iter().enumerate() {
            let expected = interpreted
                .event(ev.lifeline, kind(ev.kind), &ev.changes)
                .expect("a valid execution")
                .to_vec();
            let got = generated
                .event(ev.lifeline, &ev.kind, &ev.changes)
                .expect("a valid execution");
            prop_assert_eq!(&got, &expected, "system {}, event {} of {:?}", k, e, exec.events());
            let owned = interpreted.lifeline(ev.lifeline).expect("lifeline").owned_guards();
            for (&g, verdict) in owned.iter().zip(&got) {
                prop_assert_eq!(verdict.decided(), reference[e][g.index()], "system {}, event {}, guard {}", k, e, g);
            }
        }
    }
}
