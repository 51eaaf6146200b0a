//! Shared by the tests: the recorded log of a run as an execution of the
//! independent CPL oracle (`hindsight-tests`), and the comparison of the
//! Committer's guards with the oracle's at every choice.

use code_review::event::EventKind;
use code_review::network::Log;
use code_review::review::Committer::Guards;
use hindsight_compiler::hir::{EnumDef, System, Value};
use hindsight_runtime::Verdict;
use hindsight_tests::cpl::msc::{self, Execution};
use hindsight_tests::cpl::reference::guard_table;

/// The spec the actors' monitors were generated from.
pub(crate) const SPEC: &str = include_str!("../../review.hind");

/// The variable indices shared by every lifeline that has them.
const CAND: usize = 0;
const STATUS: usize = 1;

/// The checked `system review` and the spec's enums.
pub(crate) fn system() -> (System, Vec<EnumDef>) {
    let compiled = hindsight_compiler::compile(SPEC).expect("review.hind compiles");
    let system = compiled
        .spec
        .systems
        .iter()
        .find(|s| s.name == "review")
        .expect("system review")
        .clone();
    (system, compiled.program.enums)
}

/// The run as an MSC of `system` (a rejected message never received stays in transit).
pub(crate) fn execution(system: &System, log: &Log) -> Execution {
    let events = log
        .events
        .iter()
        .map(|e| {
            let mut changes = Vec::new();
            if let Some(cand) = e.changes.cand {
                changes.push((CAND, Value::Int(cand)));
            }
            if let Some(status) = e.changes.status {
                changes.push((STATUS, Value::Enum(status.index())));
            }
            let kind = match e.kind {
                EventKind::Send { to, msg } => msc::EventKind::Send {
                    to: to.index(),
                    msg,
                },
                EventKind::Recv { msg } => msc::EventKind::Recv { msg },
                EventKind::Act => msc::EventKind::Act,
                EventKind::Choice { .. } => msc::EventKind::Choice,
            };
            msc::Event {
                lifeline: e.lifeline.index(),
                kind,
                changes,
            }
        })
        .collect();
    Execution::new(system, events).expect("a recorded run is a valid MSC")
}

/// Every Committer choice of the run: its event index and guards.
pub(crate) fn choices(log: &Log) -> Vec<(usize, Guards)> {
    log.events
        .iter()
        .enumerate()
        .filter_map(|(e, event)| match event.kind {
            EventKind::Choice { guards, .. } => Some((e, guards)),
            _ => None,
        })
        .collect()
}

/// Asserts that at every Committer choice the generated monitor's guards
/// equal the reference semantics over the recorded execution; returns the
/// number of choices compared.
pub(crate) fn assert_guards_match_oracle(log: &Log) -> usize {
    let (system, _) = system();
    let table = guard_table(&system, &execution(&system, log));
    let choices = choices(log);
    for &(e, guards) in &choices {
        let oracle: Vec<Verdict> = table[e]
            .iter()
            .map(|v| Verdict::from(v.expect("a Committer event")))
            .collect();
        assert_eq!(guards.to_array().to_vec(), oracle, "guards at event {e}");
    }
    choices.len()
}
