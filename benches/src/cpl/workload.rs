//! The event sequences of the CPL benchmarks, as untyped store changes
//! (variable index, value) — what the interpreter takes; the generated runs
//! convert them to their typed `Changes` before timing.
//!
//! A workload first runs its prefix (messages from the other lifelines to the
//! guard owner, so that the guard reads defined views), then the benchmarks
//! repeat, cycling through their lists: local events of the owner (`on_act`,
//! `on_choice` with `acts[k % len]`) and messages from `sender` to the owner
//! (`messages[k % len]`: the sender's changes at the send, the owner's at the
//! receive).

use hindsight_compiler::Value;

/// Store changes of one event: (variable index in its lifeline, new value).
pub type Changes = Vec<(usize, Value)>;

/// One message of a prefix: from lifeline `from` to the workload's owner.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The sending lifeline (index in the system's lifelines).
    pub from: usize,
    /// The sender's changes at the send.
    pub send: Changes,
    /// The owner's changes at the receive.
    pub recv: Changes,
}

/// The events of one system's benchmarks.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// The spec's source.
    pub source: &'static str,
    /// The system's name in it.
    pub system: &'static str,
    /// The lifeline owning the benchmarked guard.
    pub owner: usize,
    /// The lifeline sending the benchmarked messages.
    pub sender: usize,
    /// Messages run before the benchmarks.
    pub prefix: Vec<Message>,
    /// The owner's changes at its local events, cycled.
    pub acts: Vec<Changes>,
    /// The sender's changes at a send and the owner's at its receive, cycled.
    pub messages: Vec<(Changes, Changes)>,
}

/// Variant indices of `Status` in `specs/review.hind`.
const PENDING: Value = Value::Enum(0);
const PASSED: Value = Value::Enum(1);
const FAILED: Value = Value::Enum(2);
const CLEARED: Value = Value::Enum(3);

/// `may_merge` of `specs/review.hind` (docs/language.md, 4b): both reviewers
/// report on candidate 7 (passed, cleared); then the Committer's candidate
/// moves between 7 and 8, and the TestRunner reports pending, failed,
/// passed and another candidate.
pub fn review() -> Workload {
    // Orchestrator 0, TestRunner 1, Security 2, Committer 3; `cand` is
    // variable 0 and `status` variable 1 of each.
    let (cand, status) = (0, 1);
    Workload {
        source: include_str!("../../specs/review.hind"),
        system: "review",
        owner: 3,
        sender: 1,
        prefix: vec![
            Message {
                from: 1,
                send: vec![(cand, Value::Int(7)), (status, PASSED)],
                recv: vec![(cand, Value::Int(7))],
            },
            Message {
                from: 2,
                send: vec![(cand, Value::Int(7)), (status, CLEARED)],
                recv: vec![],
            },
        ],
        acts: vec![
            vec![(cand, Value::Int(7))],
            vec![],
            vec![(cand, Value::Int(8))],
            vec![(cand, Value::Int(7))],
        ],
        messages: vec![
            (vec![(status, PASSED)], vec![]),
            (vec![(status, PENDING)], vec![]),
            (vec![(status, FAILED)], vec![]),
            (vec![(status, PASSED), (cand, Value::Int(8))], vec![]),
            (vec![(cand, Value::Int(7))], vec![(cand, Value::Int(7))]),
        ],
    }
}

/// `may_deploy` of `specs/deploy.hind`: both workers report success on
/// revision 3; then the Deployer's revision moves between 3 and 4, and the
/// Builder reports a lost `ok`, a failure, a recovery, too many warnings,
/// and another revision.
pub fn deploy() -> Workload {
    // Builder 0, Tester 1, Deployer 2; variables in declaration order.
    let (rev, ok, fail, warnings, flaky) = (0, 1, 2, 3, 3);
    Workload {
        source: include_str!("../../specs/deploy.hind"),
        system: "deploy",
        owner: 2,
        sender: 0,
        prefix: vec![
            Message {
                from: 0,
                send: vec![
                    (rev, Value::Int(3)),
                    (ok, Value::Bool(true)),
                    (fail, Value::Bool(false)),
                    (warnings, Value::Int(2)),
                ],
                recv: vec![(rev, Value::Int(3))],
            },
            Message {
                from: 1,
                send: vec![
                    (rev, Value::Int(3)),
                    (ok, Value::Bool(true)),
                    (fail, Value::Bool(false)),
                    (flaky, Value::Int(1)),
                ],
                recv: vec![],
            },
        ],
        acts: vec![
            vec![(rev, Value::Int(3))],
            vec![],
            vec![(rev, Value::Int(4))],
            vec![(rev, Value::Int(3))],
        ],
        messages: vec![
            (vec![(ok, Value::Bool(false))], vec![]),
            (vec![(fail, Value::Bool(true))], vec![]),
            (
                vec![(ok, Value::Bool(true)), (fail, Value::Bool(false))],
                vec![],
            ),
            (vec![(warnings, Value::Int(11))], vec![]),
            (vec![(warnings, Value::Int(2))], vec![]),
            (vec![(rev, Value::Int(4))], vec![(rev, Value::Int(4))]),
            (vec![(rev, Value::Int(3))], vec![(rev, Value::Int(3))]),
        ],
    }
}
