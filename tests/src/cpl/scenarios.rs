//! The CPL paper's code-review workflow (its Section 2, language.md section 1)
//! as hand-built HIR, and the executions of its Figure 2 and variants. The
//! expected guard values, worked out by hand, are asserted in
//! `tests/cpl_reference.rs`; each execution's doc says what it shows.

use hindsight_compiler::ast::{BinaryTemporal, Span};
use hindsight_compiler::hir::{BoolOp, CmpOp, EnumDef, Expr, ExprKind, Guard, System, Ty, Value};

use self::{COMMITTER as C, ORCHESTRATOR as O, SECURITY as S, TEST_RUNNER as T};
use super::msc::{Event, EventKind, Execution, MsgId};
use crate::hir::{enum_def, expr, input, lifeline};

/// The system as source text, exactly as in language.md section 1.
pub const SOURCE: &str = "\
enum Status { pending, passed, failed, cleared, critical }

system review {
    lifeline Orchestrator { cand: int }
    lifeline TestRunner   { cand: int, status: Status }
    lifeline Security     { cand: int, status: Status }
    lifeline Committer    { cand: int }
    group Reviewers = { TestRunner, Security };

    guard may_merge at Committer =
           TestRunner.cand == cand && Security.cand == cand
        && @TestRunner (status != failed S status == passed)
        && @Security   (status != critical S status == cleared);
}
";

/// Lifeline `Orchestrator`.
pub const ORCHESTRATOR: usize = 0;
/// Lifeline `TestRunner`.
pub const TEST_RUNNER: usize = 1;
/// Lifeline `Security`.
pub const SECURITY: usize = 2;
/// Lifeline `Committer`.
pub const COMMITTER: usize = 3;

/// Variable `cand` (index 0 on every lifeline).
pub const CAND: usize = 0;
/// Variable `status` (index 1 on `TestRunner` and `Security`).
pub const STATUS: usize = 1;

/// `Status::pending`
pub const PENDING: Value = Value::Enum(0);
/// `Status::passed`
pub const PASSED: Value = Value::Enum(1);
/// `Status::failed`
pub const FAILED: Value = Value::Enum(2);
/// `Status::cleared`
pub const CLEARED: Value = Value::Enum(3);
/// `Status::critical`
pub const CRITICAL: Value = Value::Enum(4);

const STATUS_TY: Ty = Ty::Enum(0);

fn and(a: Expr, b: Expr) -> Expr {
    expr(
        ExprKind::Bool(BoolOp::And, Box::new(a), Box::new(b)),
        Ty::Bool,
    )
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    expr(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
}

fn status_is(op: CmpOp, v: Value) -> Expr {
    cmp(
        op,
        expr(ExprKind::Input(STATUS), STATUS_TY),
        expr(ExprKind::Const(v), STATUS_TY),
    )
}

/// `@reviewer (status != bad S status == good)`
pub fn clean_since(reviewer: usize, bad: Value, good: Value) -> Expr {
    let since = ExprKind::Binary(
        BinaryTemporal::Since,
        None,
        Box::new(status_is(CmpOp::Ne, bad)),
        Box::new(status_is(CmpOp::Eq, good)),
    );
    let arg = Box::new(expr(since, Ty::Bool));
    expr(
        ExprKind::At {
            lifeline: reviewer,
            arg,
        },
        Ty::Bool,
    )
}

/// `reviewer.cand == cand`
pub fn same_candidate(reviewer: usize) -> Expr {
    let theirs = ExprKind::Remote {
        lifeline: reviewer,
        var: CAND,
    };
    cmp(
        CmpOp::Eq,
        expr(theirs, Ty::Int),
        expr(ExprKind::Input(CAND), Ty::Int),
    )
}

/// The body of `may_merge`, as the checker produces it from [`SOURCE`]
/// (`&&` grouping to the left).
pub fn may_merge() -> Expr {
    and(
        and(
            and(same_candidate(TEST_RUNNER), same_candidate(SECURITY)),
            clean_since(TEST_RUNNER, FAILED, PASSED),
        ),
        clean_since(SECURITY, CRITICAL, CLEARED),
    )
}

/// The enum `Status` of [`SOURCE`].
pub fn status_enum() -> EnumDef {
    let variants = ["pending", "passed", "failed", "cleared", "critical"];
    enum_def("Status", &variants)
}

/// The system `review` of [`SOURCE`], with its one guard `may_merge`.
pub fn code_review() -> System {
    let var = input;
    System {
        name: "review".into(),
        lifelines: vec![
            lifeline("Orchestrator", vec![var("cand", Ty::Int)]),
            lifeline(
                "TestRunner",
                vec![var("cand", Ty::Int), var("status", STATUS_TY)],
            ),
            lifeline(
                "Security",
                vec![var("cand", Ty::Int), var("status", STATUS_TY)],
            ),
            lifeline("Committer", vec![var("cand", Ty::Int)]),
        ],
        guards: vec![Guard {
            name: "may_merge".into(),
            owner: COMMITTER,
            formula: may_merge(),
            span: Span::default(),
        }],
        time: None,
        let_names: Default::default(),
        protocols: Vec::new(),
        span: Span::default(),
    }
}

fn act(lifeline: usize, changes: &[(usize, Value)]) -> Event {
    Event {
        lifeline,
        kind: EventKind::Act,
        changes: changes.to_vec(),
    }
}

fn send(lifeline: usize, to: usize, msg: MsgId) -> Event {
    Event {
        lifeline,
        kind: EventKind::Send { to, msg },
        changes: Vec::new(),
    }
}

fn recv(lifeline: usize, msg: MsgId, changes: &[(usize, Value)]) -> Event {
    Event {
        lifeline,
        kind: EventKind::Recv { msg },
        changes: changes.to_vec(),
    }
}

fn choice(lifeline: usize) -> Event {
    Event {
        lifeline,
        kind: EventKind::Choice,
        changes: Vec::new(),
    }
}

fn candidate(c: i64) -> (usize, Value) {
    (CAND, Value::Int(c))
}

fn status(s: Value) -> (usize, Value) {
    (STATUS, s)
}

fn execution(events: Vec<Event>) -> Execution {
    Execution::new(&code_review(), events).expect("the scenarios are valid MSCs")
}

/// Five events: the Orchestrator picks candidate `c` and sends it to the
/// TestRunner (m0) and to Security (m1), which receive it in that order.
fn sent_to_both(c: i64) -> Vec<Event> {
    vec![
        act(O, &[candidate(c)]),
        send(O, T, 0),
        send(O, S, 1),
        recv(T, 0, &[candidate(c), status(PENDING)]),
        recv(S, 1, &[candidate(c), status(PENDING)]),
    ]
}

/// Six events after [`sent_to_both`]: the TestRunner passes (report m2),
/// Security clears (report m3), and the Committer receives both reports.
fn both_reports_received() -> Vec<Event> {
    vec![
        act(T, &[status(PASSED)]),
        send(T, C, 2),
        act(S, &[status(CLEARED)]),
        send(S, C, 3),
        recv(C, 2, &[]),
        recv(C, 3, &[]),
    ]
}

/// Four events: the Orchestrator sends candidate `c` to `reviewer` (message
/// `assign`), which receives it, records `outcome` and reports it (`report`).
fn reviewed(reviewer: usize, outcome: Value, c: i64, assign: MsgId, report: MsgId) -> Vec<Event> {
    vec![
        send(O, reviewer, assign),
        recv(reviewer, assign, &[candidate(c), status(PENDING)]),
        act(reviewer, &[status(outcome)]),
        send(reviewer, C, report),
    ]
}

/// The last three events of every execution: the Orchestrator proposes
/// candidate 7 for merging (message `proposal`), the Committer receives the
/// proposal and makes its choice.
fn merge_proposed(proposal: MsgId) -> Vec<Event> {
    vec![
        send(O, C, proposal),
        recv(C, proposal, &[candidate(7)]),
        choice(C),
    ]
}

/// Figure 2: candidate 7 passes the tests (report m2) and clears security (m3);
/// both reports reach the Committer; then the TestRunner finds a regression and
/// reports it (m4), but m4 is still in transit when the merge proposal (m5)
/// arrives. The last event (15) is the Committer's choice.
pub fn figure2() -> Execution {
    execution(
        [
            sent_to_both(7),         // 0-4
            both_reports_received(), // 5-10
            vec![
                act(T, &[status(FAILED)]), // 11
                send(T, C, 4),             // 12: the failure, never received
            ],
            merge_proposed(5), // 13-15: the merge proposal m5
        ]
        .concat(),
    )
}

/// Figure 2 with the failure report m4 delivered (event 13) before the merge
/// proposal. The last event (16) is the Committer's choice.
pub fn failure_delivered_first() -> Execution {
    execution(
        [
            sent_to_both(7),         // 0-4
            both_reports_received(), // 5-10
            vec![
                act(T, &[status(FAILED)]), // 11
                send(T, C, 4),             // 12
                recv(C, 4, &[]),           // 13: the failure arrives
            ],
            merge_proposed(5), // 14-16
        ]
        .concat(),
    )
}

/// Non-FIFO delivery of one candidate's reports: the TestRunner reports a pass
/// (m2) and then a failure (m3); the failure overtakes the pass, so the pass
/// is the last report the Committer receives (event 12). The last event (16)
/// is the Committer's choice.
pub fn pass_overtaken_by_failure() -> Execution {
    execution(
        [
            sent_to_both(7), // 0-4
            vec![
                act(T, &[status(PASSED)]),  // 5
                send(T, C, 2),              // 6: the pass report
                act(T, &[status(FAILED)]),  // 7
                send(T, C, 3),              // 8: the failure report
                act(S, &[status(CLEARED)]), // 9
                send(S, C, 4),              // 10
                recv(C, 3, &[]),            // 11: the failure arrives first
                recv(C, 2, &[]),            // 12: the stale pass arrives last
                recv(C, 4, &[]),            // 13
            ],
            merge_proposed(5), // 14-16
        ]
        .concat(),
    )
}

/// A stale report arriving out of order: the TestRunner passes candidate 6
/// (report m1), then candidate 7 (report m3); m3 reaches the Committer before
/// m1, so the last report received (event 16) is the stale one for candidate
/// 6. The merge proposal is for 7. The last event (19) is the Committer's choice.
pub fn stale_report_for_older_candidate() -> Execution {
    execution(
        [
            vec![act(O, &[candidate(6)])], // 0
            reviewed(T, PASSED, 6, 0, 1),  // 1-4: report m1 for 6
            vec![act(O, &[candidate(7)])], // 5
            reviewed(T, PASSED, 7, 2, 3),  // 6-9: report m3 for 7
            reviewed(S, CLEARED, 7, 4, 5), // 10-13
            vec![
                recv(C, 3, &[]), // 14: report for 7
                recv(C, 5, &[]), // 15
                recv(C, 1, &[]), // 16: stale report for 6
            ],
            merge_proposed(6), // 17-19
        ]
        .concat(),
    )
}

/// A report for the wrong candidate: the only test report the Committer has
/// seen is a pass for candidate 6; security cleared candidate 7; the proposal
/// is for 7. The last event (14) is the Committer's choice.
pub fn wrong_candidate() -> Execution {
    execution(
        [
            vec![act(O, &[candidate(6)])], // 0
            reviewed(T, PASSED, 6, 0, 1),  // 1-4: report m1 for 6
            vec![act(O, &[candidate(7)])], // 5
            reviewed(S, CLEARED, 7, 2, 3), // 6-9
            vec![
                recv(C, 1, &[]), // 10
                recv(C, 3, &[]), // 11
            ],
            merge_proposed(4), // 12-14
        ]
        .concat(),
    )
}

/// No test report yet: the TestRunner passed candidate 7 but its report (m2)
/// is still in transit, so no TestRunner event is visible to the Committer.
/// The last event (12) is the Committer's choice.
pub fn no_report_yet() -> Execution {
    execution(
        [
            vec![
                act(O, &[candidate(7)]),                      // 0
                send(O, T, 0),                                // 1
                send(O, S, 1),                                // 2
                recv(T, 0, &[candidate(7), status(PENDING)]), // 3
                act(T, &[status(PASSED)]),                    // 4
                send(T, C, 2),                                // 5: never received
                recv(S, 1, &[candidate(7), status(PENDING)]), // 6
                act(S, &[status(CLEARED)]),                   // 7
                send(S, C, 3),                                // 8
                recv(C, 3, &[]),                              // 9
            ],
            merge_proposed(4), // 10-12
        ]
        .concat(),
    )
}
