//! The scripted scenarios: the Committer's decisions and guards, worked out
//! by hand from the paper's section 2 and the spec, and the same guards
//! checked against the CPL reference semantics. Also: `figure2.jsonl` is the
//! recorded Figure 2 run as a JSON Lines system trace (language.md section 6)
//! for `hindsight check review.hind --trace figure2.jsonl`; regenerate it with
//! `UPDATE_TRACES=1 cargo test -p code-review`.

use crate::common;

use code_review::event::{EventKind, Refusal};
use code_review::network::Log;
use code_review::policy::Decision::{self, Block, Merge, Rerun};
use code_review::scenarios::{self, Scenario};
use hindsight_runtime::stamp::StampError;
use hindsight_runtime::Verdict::{self, False as F, True as T};
use hindsight_tests::cpl::print::{trace_lines, verdict_lines};

fn run(scenario: Scenario) -> Log {
    let log = scenario.run().expect("the script runs");
    assert!(
        common::assert_guards_match_oracle(&log) > 0,
        "{} makes a choice",
        scenario.name
    );
    log
}

/// `(event, may_merge, failure_seen, decision)` at every Committer choice.
fn choices(log: &Log) -> Vec<(usize, Verdict, Verdict, Decision)> {
    log.events
        .iter()
        .enumerate()
        .filter_map(|(e, event)| match event.kind {
            EventKind::Choice { guards, decision } => {
                Some((e, guards.may_merge, guards.failure_seen, decision))
            }
            _ => None,
        })
        .collect()
}

/// Figure 2: the latest TestRunner state visible at the choice (e15) is the
/// pass for 7 (e5, reported by m2); the failure (e11) is only in m4, still in
/// transit. Security cleared 7 (e7, m3). So may_merge holds and no failure is visible.
#[test]
fn figure2_merges_with_the_failure_in_transit() {
    let log = run(scenarios::figure2());
    assert_eq!(choices(&log), [(15, T, F, Merge)]);
    assert_eq!(
        log.in_transit_after(15),
        [4],
        "only the failure report m4 is in transit"
    );
}

/// The failure report m4 arrives (e13) before the proposal: the latest visible
/// TestRunner state is `failed` for 7, so the since-formula is false and the
/// failure is visible.
#[test]
fn a_delivered_failure_blocks() {
    let log = run(scenarios::failure_delivered_first());
    assert_eq!(choices(&log), [(16, F, T, Block)]);
}

/// The stale pass for 6 (m2) is received last (e17), but its TestRunner event
/// (e4) is causally before the pass for 7 (e10, via m5): the latest visible
/// TestRunner state is still cand 7, passed.
#[test]
fn a_stale_report_arriving_last_does_not_hide_the_newer_one() {
    let log = run(scenarios::stale_report());
    assert_eq!(choices(&log), [(20, T, F, Merge)]);
}

/// At the proposal (e16) the only visible TestRunner state is cand 6, passed:
/// `TestRunner.cand == cand` fails and nothing failed, so RE-RUN. After the
/// re-assignment and the pass for 7 (m10, received at e24): MERGE.
#[test]
fn a_report_for_the_wrong_candidate_asks_for_a_rerun() {
    let log = run(scenarios::wrong_candidate());
    assert_eq!(choices(&log), [(16, F, F, Rerun), (25, T, F, Merge)]);
}

/// The damaged stamp of m2 is rejected (nothing merged, no receive event), so
/// no TestRunner event is visible at the proposal: neither guard holds.
#[test]
fn a_damaged_stamp_is_rejected_and_its_report_not_seen() {
    let log = run(scenarios::damaged_stamp());
    assert_eq!(choices(&log), [(12, F, F, Rerun)]);
    let rejections: Vec<_> = log
        .notes
        .iter()
        .map(|n| (n.lifeline.name(), n.refusal))
        .collect();
    assert_eq!(
        rejections,
        [(
            "Committer",
            Refusal::Rejected {
                msg: 2,
                error: StampError::WrongSpec
            }
        )]
    );
}

/// Threads or not, a script always gives the same run.
#[test]
fn a_script_gives_the_same_run_every_time() {
    let first = scenarios::wrong_candidate().run().expect("runs");
    for _ in 0..5 {
        assert_eq!(scenarios::wrong_candidate().run().expect("runs"), first);
    }
}

/// The oracle comparison can fail: a Committer that had merged on a false
/// guard is caught.
#[test]
#[should_panic(expected = "guards at event 15")]
fn a_guard_differing_from_the_reference_is_caught() {
    let mut log = scenarios::figure2().run().expect("runs");
    if let Some(EventKind::Choice { guards, .. }) = log.events.get_mut(15).map(|e| &mut e.kind) {
        guards.may_merge = F;
    }
    common::assert_guards_match_oracle(&log);
}

const TRACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/figure2.jsonl");

#[test]
fn figure2_jsonl_is_the_recorded_figure2_run() {
    let (system, enums) = common::system();
    let log = scenarios::figure2().run().expect("runs");
    let execution = common::execution(&system, &log);
    let expected = trace_lines(&enums, &system, &execution);
    if std::env::var_os("UPDATE_TRACES").is_some() {
        std::fs::write(TRACE, &expected).expect("writes figure2.jsonl");
    }
    let committed = std::fs::read_to_string(TRACE).expect("figure2.jsonl exists");
    assert_eq!(committed, expected, "figure2.jsonl is stale: regenerate it");
    // What `hindsight check` must print for it: the one Committer choice
    // (line 15) by the reference semantics, as worked out in tests/scenarios.rs.
    assert_eq!(
        verdict_lines(&system, &execution),
        "{\"event\": 15, \"lifeline\": \"Committer\", \"may_merge\": \"true\", \"failure_seen\": \"false\"}\n"
    );
}

/// A script naming a message not in transit fails without running anything.
#[test]
fn releasing_a_message_twice_is_an_error() {
    use code_review::network::{Network, RunError, Step};
    let mut network = Network::start();
    let assign = Step::Orchestrate(code_review::actors::OrchestratorTask::Assign(7));
    network.round(&[assign]).expect("runs");
    let twice = [Step::Deliver(0), Step::Deliver(0)];
    assert_eq!(network.round(&twice), Err(RunError::NotInTransit(0)));
    assert_eq!(
        network.round(&[Step::Deliver(9)]),
        Err(RunError::NotInTransit(9))
    );
    network
        .round(&[Step::Deliver(0)])
        .expect("m0 is still in transit");
    let log = network.finish();
    assert_eq!(log.rounds.len(), 2);
    assert_eq!(log.events.len(), 4, "act, two sends, one receive");
}
