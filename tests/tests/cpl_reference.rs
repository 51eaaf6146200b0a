//! The CPL test oracle checked on its own: the paper's Figure 2 scenarios
//! worked out by hand, the causal order and the operators on a small MSC
//! worked out by hand, and properties every CPL semantics must have (a value
//! depends only on the causal past; the linearization does not matter).

use hindsight_compiler::ast::{BinaryTemporal, Span, UnaryTemporal};
use hindsight_compiler::hir::{ArithOp, Bound, CmpOp, EnumDef, Expr, ExprKind, System, Ty, Value};
use hindsight_tests::cpl::gen::{execution, linearization, system_spec};
use hindsight_tests::cpl::msc::{Event, EventKind, Execution, MscError};
use hindsight_tests::cpl::print::{formula_source, system_source, trace_lines, verdict_lines};
use hindsight_tests::cpl::reference::{eval, guard_table};
use hindsight_tests::cpl::scenarios::{self, COMMITTER, FAILED, PASSED, SECURITY, TEST_RUNNER};
use hindsight_tests::hir::{expr as e, input, lifeline};
use proptest::prelude::*;

// ------------------------------------------------------------ HIR helpers

fn int(c: i64) -> Expr {
    e(ExprKind::Const(Value::Int(c)), Ty::Int)
}

fn tru() -> Expr {
    e(ExprKind::Const(Value::Bool(true)), Ty::Bool)
}

fn var(k: usize, ty: Ty) -> Expr {
    e(ExprKind::Input(k), ty)
}

fn remote(lifeline: usize, var: usize, ty: Ty) -> Expr {
    e(ExprKind::Remote { lifeline, var }, ty)
}

fn eq(a: Expr, b: Expr) -> Expr {
    e(ExprKind::Cmp(CmpOp::Eq, Box::new(a), Box::new(b)), Ty::Bool)
}

fn not(a: Expr) -> Expr {
    e(ExprKind::Not(Box::new(a)), Ty::Bool)
}

fn at(lifeline: usize, arg: Expr) -> Expr {
    e(
        ExprKind::At {
            lifeline,
            arg: Box::new(arg),
        },
        Ty::Bool,
    )
}

fn unary(op: UnaryTemporal, bound: Option<(u64, u64)>, a: Expr) -> Expr {
    let bound = bound.map(|(lo, hi)| Bound::steps(lo, Some(hi)));
    e(ExprKind::Unary(op, bound, Box::new(a)), Ty::Bool)
}

fn y(a: Expr) -> Expr {
    unary(UnaryTemporal::Yesterday, None, a)
}

fn since(bound: Option<(u64, u64)>, a: Expr, b: Expr) -> Expr {
    let bound = bound.map(|(lo, hi)| Bound::steps(lo, Some(hi)));
    let kind = ExprKind::Binary(BinaryTemporal::Since, bound, Box::new(a), Box::new(b));
    e(kind, Ty::Bool)
}

// ------------------------------------------------------------ the paper's scenarios

/// The code-review guard and its parts at the last event (the Committer's choice).
struct Decision {
    may_merge: bool,
    tests_same_candidate: bool,
    security_same_candidate: bool,
    tests_clean: bool,
    security_clean: bool,
}

fn decision(exec: &Execution) -> Decision {
    let choice = exec.events().len() - 1;
    assert_eq!(exec.events()[choice].lifeline, COMMITTER);
    assert_eq!(exec.events()[choice].kind, EventKind::Choice);
    let at_choice = |f: &Expr| eval(exec, f, choice);
    let table = guard_table(&scenarios::code_review(), exec);
    assert_eq!(table[choice][0], Some(at_choice(&scenarios::may_merge())));
    Decision {
        may_merge: at_choice(&scenarios::may_merge()),
        tests_same_candidate: at_choice(&scenarios::same_candidate(TEST_RUNNER)),
        security_same_candidate: at_choice(&scenarios::same_candidate(SECURITY)),
        tests_clean: at_choice(&scenarios::clean_since(TEST_RUNNER, FAILED, PASSED)),
        security_clean: at_choice(&scenarios::clean_since(
            SECURITY,
            scenarios::CRITICAL,
            scenarios::CLEARED,
        )),
    }
}

/// The decision at the end of `exec`, after asserting the latest TestRunner
/// event visible at each of some events: `(event, latest)` pairs.
fn decision_seeing(exec: &Execution, test_runner: &[(usize, usize)]) -> Decision {
    for &(event, latest) in test_runner {
        let visible = exec.latest_visible(TEST_RUNNER, event);
        assert_eq!(visible, Some(latest), "at event {event}");
    }
    decision(exec)
}

/// Figure 2. The Committer's causal past at its choice (15) holds its own
/// events 9, 10, 14, the TestRunner's 3, 5, 6 (through m2), the Security's
/// 4, 7, 8 (through m3) and the Orchestrator's 0, 1, 2, 13; not the failure
/// (11, 12: m4 is in transit). The latest visible TestRunner event is the pass
/// report's send (6): cand 7, status passed — `passed` at 5 and `!= failed`
/// at 6, so the Since holds. Security likewise at 8 (cleared at 7). The
/// Committer's cand is 7 from the proposal (14). So `may_merge` is true, even
/// though the failure (11) comes before the choice in the linearization.
#[test]
fn figure2_pass_delivered_failure_in_transit_merges() {
    let exec = scenarios::figure2();
    assert_eq!(exec.latest_visible(TEST_RUNNER, 15), Some(6));
    assert_eq!(exec.latest_visible(SECURITY, 15), Some(8));
    assert!(!exec.precedes_or_equals(11, 15));
    assert_eq!(exec.in_transit(), vec![4]);
    assert!(decision(&exec).may_merge);
    // A sequential-log reading would see the failure: at the TestRunner's own
    // last event the Since is false.
    let tests_clean = scenarios::clean_since(TEST_RUNNER, FAILED, PASSED);
    assert!(!eval(&exec, &tests_clean, 12));
    // At the Committer's receives of the reports, before the proposal, its
    // cand is still unassigned: the equalities are false, so is the guard.
    let table = guard_table(&scenarios::code_review(), &exec);
    let committer: Vec<_> = [9, 10, 14, 15].iter().map(|&k| table[k][0]).collect();
    assert_eq!(
        committer,
        vec![Some(false), Some(false), Some(true), Some(true)]
    );
    assert_eq!(table[11][0], None, "event 11 is not on the owner");
}

/// The failure report m4 delivered (13) before the proposal: the latest
/// visible TestRunner event is 12 (status failed); `status != failed` is false
/// there and `status == passed` too, so the Since is false: no merge.
#[test]
fn failure_delivered_first_blocks() {
    let d = decision_seeing(&scenarios::failure_delivered_first(), &[(16, 12)]);
    assert!(!d.tests_clean);
    assert!(d.tests_same_candidate && d.security_same_candidate && d.security_clean);
    assert!(!d.may_merge);
}

/// The failure (sent at 8) overtakes the pass (sent at 6); the pass is the
/// last report received (12). CPL reads the TestRunner's latest visible event,
/// 8 (failed), not the last arrival: no merge.
#[test]
fn pass_arriving_after_the_failure_still_blocks() {
    let d = decision_seeing(&scenarios::pass_overtaken_by_failure(), &[(12, 8), (16, 8)]);
    assert!(!d.tests_clean && !d.may_merge);
}

/// The stale report for candidate 6 (sent at 4) arrives last (16), after the
/// report for 7 (sent at 9, received at 14). Event 4 precedes 9 on the
/// TestRunner, so the latest visible TestRunner event stays 9: cand 7,
/// passed. Security cleared 7; the proposal is 7: merge. (A monitor trusting
/// the last report received would compare candidate 6 and block.)
#[test]
fn stale_report_for_an_older_candidate_does_not_hide_the_newer_pass() {
    let exec = scenarios::stale_report_for_older_candidate();
    let d = decision_seeing(&exec, &[(14, 9), (16, 9)]);
    assert!(d.tests_same_candidate && d.tests_clean);
    assert!(d.may_merge);
}

/// The only visible test report is a pass for candidate 6 (latest visible
/// TestRunner event 4: cand 6, passed); the proposal is 7. The tests are clean
/// but for another candidate: `TestRunner.cand == cand` is 6 == 7, false.
#[test]
fn report_for_the_wrong_candidate_blocks() {
    let d = decision_seeing(&scenarios::wrong_candidate(), &[(14, 4)]);
    assert!(d.tests_clean && d.security_same_candidate && d.security_clean);
    assert!(!d.tests_same_candidate);
    assert!(!d.may_merge);
}

/// The pass report is in transit: no TestRunner event is visible at the
/// choice, so `@TestRunner φ` is false for every φ (even `true`), and the atom
/// `TestRunner.cand == cand` is false (undefined term) — while its negation
/// is true.
#[test]
fn no_report_yet_blocks() {
    let exec = scenarios::no_report_yet();
    let choice = 12;
    assert_eq!(exec.latest_visible(TEST_RUNNER, choice), None);
    assert!(!eval(&exec, &at(TEST_RUNNER, tru()), choice));
    let same = scenarios::same_candidate(TEST_RUNNER);
    assert!(!eval(&exec, &same, choice));
    assert!(eval(&exec, &not(same), choice));
    let d = decision(&exec);
    assert!(d.security_same_candidate && d.security_clean);
    assert!(!d.tests_clean && !d.may_merge);
}

// ------------------------------------------------------------ printers

#[test]
fn code_review_prints_as_the_language_example() {
    let system = scenarios::code_review();
    let enums = [scenarios::status_enum()];
    let guard = formula_source(&enums, &system, COMMITTER, &scenarios::may_merge());
    assert_eq!(
        guard.as_deref(),
        Some(
            "TestRunner.cand == cand && Security.cand == cand \
             && @TestRunner (status != Status::failed S status == Status::passed) \
             && @Security (status != Status::critical S status == Status::cleared)"
        )
    );
    let source = system_source(&enums, &system).expect("printable");
    assert!(source.contains("    lifeline TestRunner { cand: int, status: Status }\n"));
    hindsight_grammar::parse(&source).unwrap_or_else(|d| panic!("{d:?}\n{source}"));
}

#[test]
fn figure2_as_trace_and_verdict_lines() {
    let exec = scenarios::figure2();
    let system = scenarios::code_review();
    let trace = trace_lines(&[scenarios::status_enum()], &system, &exec);
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), 16);
    assert_eq!(
        lines[0],
        r#"{"lifeline": "Orchestrator", "kind": "act", "store": {"cand": 7}}"#
    );
    assert_eq!(
        lines[1],
        r#"{"lifeline": "Orchestrator", "kind": "send", "to": "TestRunner", "msg": "m0"}"#
    );
    assert_eq!(
        lines[3],
        r#"{"lifeline": "TestRunner", "kind": "recv", "msg": "m0", "store": {"cand": 7, "status": "pending"}}"#
    );
    assert_eq!(lines[15], r#"{"lifeline": "Committer", "kind": "choice"}"#);
    assert_eq!(
        verdict_lines(&system, &exec),
        "{\"event\": 15, \"lifeline\": \"Committer\", \"may_merge\": \"true\"}\n"
    );
}

// ------------------------------------------------------------ a small MSC by hand

const A: usize = 0;
const B: usize = 1;
const C: usize = 2;

/// Lifelines A { x: int, p: bool }, B { x: int }, C { x: int }; no guards.
fn abc() -> System {
    System {
        name: "abc".into(),
        lifelines: vec![
            lifeline("A", vec![input("x", Ty::Int), input("p", Ty::Bool)]),
            lifeline("B", vec![input("x", Ty::Int)]),
            lifeline("C", vec![input("x", Ty::Int)]),
        ],
        guards: Vec::new(),
        time: None,
        let_names: Default::default(),
        protocols: Vec::new(),
        span: Span::default(),
    }
}

fn ev(lifeline: usize, kind: EventKind, changes: &[(usize, Value)]) -> Event {
    Event {
        lifeline,
        kind,
        changes: changes.to_vec(),
    }
}

fn x(c: i64) -> (usize, Value) {
    (0, Value::Int(c))
}

fn send(to: usize, msg: u32) -> EventKind {
    EventKind::Send { to, msg }
}

fn recv(msg: u32) -> EventKind {
    EventKind::Recv { msg }
}

/// ```text
///  A: 0 act x=1 | 1 send m0→B | 3 act x=2,p | 4 send m1→C | 9 act x=3 | 10 send m3→B (in transit)
///  B: 2 act x=5 | 7 recv m2 x=6 | 8 recv m0
///  C: 5 recv m1 x=9 | 6 send m2→B
/// ```
fn small() -> Execution {
    Execution::new(
        &abc(),
        vec![
            ev(A, EventKind::Act, &[x(1)]),                         // 0
            ev(A, send(B, 0), &[]),                                 // 1
            ev(B, EventKind::Act, &[x(5)]),                         // 2
            ev(A, EventKind::Act, &[x(2), (1, Value::Bool(true))]), // 3
            ev(A, send(C, 1), &[]),                                 // 4
            ev(C, recv(1), &[x(9)]),                                // 5
            ev(C, send(B, 2), &[]),                                 // 6
            ev(B, recv(2), &[x(6)]),                                // 7
            ev(B, recv(0), &[]),                                    // 8
            ev(A, EventKind::Act, &[x(3)]),                         // 9
            ev(A, send(B, 3), &[]),                                 // 10
        ],
    )
    .expect("valid")
}

#[test]
fn causal_order_by_hand() {
    let m = small();
    let past = |k| m.causal_past(k);
    assert_eq!(past(2), vec![2]);
    assert_eq!(past(5), vec![0, 1, 3, 4, 5]);
    assert_eq!(past(7), vec![0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(past(8), vec![0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(past(10), vec![0, 1, 3, 4, 9, 10]);
    assert!(m.precedes_or_equals(0, 6) && m.precedes_or_equals(6, 6));
    assert!(m.concurrent(0, 2) && m.concurrent(9, 8) && m.concurrent(5, 9));
    assert!(!m.concurrent(2, 8));
    assert_eq!(m.latest_visible(A, 7), Some(4));
    assert_eq!(m.latest_visible(A, 8), Some(4));
    assert_eq!(m.latest_visible(A, 2), None);
    assert_eq!(m.latest_visible(C, 8), Some(6));
    assert_eq!(m.latest_visible(B, 10), None);
    assert_eq!(m.latest_visible(A, 10), Some(10));
    assert_eq!(m.previous_local(7), Some(2));
    assert_eq!(m.previous_local(2), None);
    assert_eq!(m.local_index(8), 2);
    assert_eq!(m.lifeline_events(A), &[0, 1, 3, 4, 9, 10]);
    assert_eq!(m.in_transit(), vec![3]);
    assert_eq!(m.store(8), &[Some(Value::Int(6))]);
    assert_eq!(m.store(1), &[Some(Value::Int(1)), None]);
    assert_eq!(m.store(10), &[Some(Value::Int(3)), Some(Value::Bool(true))]);
}

#[test]
fn non_fifo_delivery_and_in_transit_messages() {
    let sys = abc();
    // A sends m0 then m1 to B; B receives m1 first: m0's send is already in
    // B's past (it precedes m1's send on A), before m0 itself arrives.
    let m = Execution::new(
        &sys,
        vec![
            ev(A, send(B, 0), &[]),
            ev(A, send(B, 1), &[]),
            ev(B, recv(1), &[]),
            ev(B, recv(0), &[]),
            ev(A, send(B, 2), &[]),
        ],
    )
    .expect("valid");
    assert_eq!(m.causal_past(2), vec![0, 1, 2]);
    assert_eq!(m.latest_visible(A, 2), Some(1));
    assert_eq!(m.latest_visible(A, 3), Some(1));
    assert!(m.concurrent(4, 3));
    assert_eq!(m.in_transit(), vec![2]);
}

#[test]
fn invalid_executions_are_rejected() {
    let sys = abc();
    let check = |events| Execution::new(&sys, events).err();
    assert_eq!(
        check(vec![ev(B, recv(0), &[])]),
        Some(MscError::UnknownMsg { event: 0 })
    );
    let twice = vec![
        ev(A, send(B, 0), &[]),
        ev(B, recv(0), &[]),
        ev(B, recv(0), &[]),
    ];
    assert_eq!(check(twice), Some(MscError::AlreadyReceived { event: 2 }));
    let misdelivered = vec![ev(A, send(B, 0), &[]), ev(C, recv(0), &[])];
    assert_eq!(
        check(misdelivered),
        Some(MscError::WrongReceiver { event: 1 })
    );
    let resent = vec![ev(A, send(B, 0), &[]), ev(C, send(B, 0), &[])];
    assert_eq!(check(resent), Some(MscError::DuplicateSend { event: 1 }));
    assert_eq!(
        check(vec![ev(3, EventKind::Act, &[])]),
        Some(MscError::UnknownLifeline { event: 0 })
    );
    assert_eq!(
        check(vec![ev(A, send(7, 0), &[])]),
        Some(MscError::UnknownLifeline { event: 0 })
    );
    assert_eq!(
        check(vec![ev(B, EventKind::Act, &[(1, Value::Int(0))])]),
        Some(MscError::UnknownVar { event: 0 })
    );
    assert_eq!(
        check(vec![ev(A, EventKind::Act, &[(1, Value::Int(0))])]),
        Some(MscError::WrongType { event: 0 })
    );

    let m = small();
    // 7 (B receives m2) before 6 (C sends it): not a linear extension.
    let swapped = [0, 1, 2, 3, 4, 5, 7, 6, 8, 9, 10];
    assert_eq!(
        m.reordered(&swapped).err(),
        Some(MscError::NotALinearExtension)
    );
    assert_eq!(
        m.reordered(&[0, 1]).err(),
        Some(MscError::NotALinearExtension)
    );
    // 9 (A) and 8 (B) are concurrent: swapping them is fine.
    let fine = [0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 10];
    assert!(m.reordered(&fine).is_ok());
}

#[test]
fn operators_by_hand() {
    let m = small();
    let holds = |f: &Expr, k| eval(&m, f, k);
    let ax = || remote(A, 0, Ty::Int);
    let bx_is = |c| eq(var(0, Ty::Int), int(c));

    // `A.x` at B's events: the latest visible A-event is 4 (x = 2) at 7 and 8;
    // none at 2, where the atom is false and its negation true.
    assert!(holds(&eq(ax(), int(2)), 7) && holds(&eq(ax(), int(2)), 8));
    assert!(!holds(&eq(ax(), int(2)), 2));
    assert!(holds(&not(eq(ax(), int(2))), 2));
    // Arithmetic over an undefined term is undefined: the atom is false.
    let ax_plus_1 = e(
        ExprKind::Arith(ArithOp::Add, Box::new(ax()), Box::new(int(1))),
        Ty::Int,
    );
    assert!(!holds(&eq(ax_plus_1.clone(), int(3)), 2));
    assert!(holds(&eq(ax_plus_1, int(3)), 7));

    // `@A` moves to event 4; Y then walks A's local order: 4 → 3 (x=2) → 1 (x=1) → 0.
    let a_x_is = |c| eq(var(0, Ty::Int), int(c));
    assert!(!holds(&at(A, y(a_x_is(1))), 7));
    assert!(holds(&at(A, y(y(a_x_is(1)))), 7));
    assert!(holds(&at(A, y(y(y(a_x_is(1))))), 7));
    assert!(
        !holds(&at(A, y(y(y(y(tru()))))), 7),
        "no event before A's first"
    );
    // Non-strict on its own lifeline: at 10, `@A` is 10 itself (x = 3).
    assert!(!holds(&at(A, a_x_is(2)), 10) && holds(&at(A, a_x_is(3)), 10));
    assert!(holds(&at(A, a_x_is(2)), 5), "C's receive sees A's event 4");
    // Nested: at 8, @C is 6, and from 6 @A is 4.
    assert!(holds(&at(C, at(A, a_x_is(2))), 8));
    // At 10, @A is 10, from which no B-event is visible.
    assert!(!holds(&at(A, at(B, tru())), 10));
    assert!(!holds(&at(C, tru()), 10) && holds(&at(C, eq(var(0, Ty::Int), int(9))), 8));

    // Y, Z at B's first event.
    assert!(!holds(&y(tru()), 2));
    let z_false = unary(UnaryTemporal::WeakYesterday, None, not(tru()));
    assert!(holds(&z_false, 2) && !holds(&z_false, 7));

    // B's x along its events 2, 7, 8: 5, 6, 6. Windows count B's events only.
    let once = |b, f| unary(UnaryTemporal::Once, b, f);
    let hist = |b, f| unary(UnaryTemporal::Historically, b, f);
    assert!(holds(&once(None, bx_is(5)), 8));
    assert!(!holds(&once(Some((0, 0)), bx_is(5)), 8));
    assert!(!holds(&once(Some((1, 1)), bx_is(5)), 8));
    assert!(holds(&once(Some((2, 2)), bx_is(5)), 8));
    assert!(
        !holds(&once(Some((3, 5)), tru()), 8),
        "window before B's first event"
    );
    assert!(holds(&hist(Some((0, 1)), bx_is(6)), 8));
    assert!(!holds(&hist(None, bx_is(6)), 8));
    assert!(holds(&hist(Some((3, 5)), not(tru())), 8), "empty window");
    assert!(holds(&since(None, bx_is(6), bx_is(5)), 8));
    assert!(!holds(&since(Some((0, 1)), bx_is(6), bx_is(5)), 8));
    assert!(holds(&since(Some((2, 2)), bx_is(6), bx_is(5)), 8));
    assert!(holds(&since(None, bx_is(6), bx_is(5)), 2), "ψ now suffices");
    // x == 6 at 7 is in the window [1,2] back from 8, but x == 5 fails at 8.
    assert!(!holds(&since(Some((1, 2)), bx_is(5), bx_is(6)), 8));

    // A's p: unassigned until 3. As a formula it is then false, its negation
    // true, and any comparison with it false (so its negation true).
    let p = || var(1, Ty::Bool);
    let p_is_false = eq(p(), e(ExprKind::Const(Value::Bool(false)), Ty::Bool));
    assert!(!holds(&p(), 0) && holds(&not(p()), 0));
    assert!(!holds(&p_is_false, 0) && holds(&not(p_is_false), 0));
    assert!(holds(&p(), 3) && holds(&p(), 10));
    // `A.p` at B's 7 reads A's event 4, whose store kept p = true from 3.
    assert!(holds(&remote(A, 1, Ty::Bool), 7) && !holds(&remote(A, 1, Ty::Bool), 2));

    // Count at B's events of [A.x == 2, B.x == 6, true]: 3 at 7, 1 at 2.
    let count = e(
        ExprKind::Count(vec![
            eq(ax(), int(2)),
            eq(remote(B, 0, Ty::Int), int(6)),
            tru(),
        ]),
        Ty::Int,
    );
    assert!(holds(&eq(count.clone(), int(3)), 7));
    assert!(holds(&eq(count, int(1)), 2));
}

// ------------------------------------------------------------ properties

/// A random system with a random execution of up to 24 events.
fn system_and_execution() -> impl Strategy<Value = (System, Execution)> {
    system_spec().prop_flat_map(|spec| {
        let system = spec.systems[0].clone();
        let exec = execution(&system, 24);
        (Just(system), exec)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// CPL is causal: a guard's value at e is the same on the sub-MSC made of
    /// e's causal past alone (every other event, including anything in
    /// transit towards e, is invisible at e).
    #[test]
    fn values_depend_only_on_the_causal_past((system, exec) in system_and_execution()) {
        let table = guard_table(&system, &exec);
        for (k, row) in table.iter().enumerate() {
            let (past, image) = exec.restricted_to_past(k);
            prop_assert_eq!(&guard_table(&system, &past)[image], row, "event {}", k);
        }
    }

    /// Reordering concurrent events (any other linear extension of the same
    /// MSC) changes no guard value at any event.
    #[test]
    fn values_do_not_depend_on_the_linearization(
        (system, exec, order) in system_and_execution().prop_flat_map(|(system, exec)| {
            let order = linearization(&exec);
            (Just(system), Just(exec), order)
        })
    ) {
        let reordered = exec.reordered(&order).expect("a linear extension");
        let (before, after) = (guard_table(&system, &exec), guard_table(&system, &reordered));
        for (k, &old) in order.iter().enumerate() {
            prop_assert_eq!(&after[k], &before[old], "event {} (was {})", k, old);
        }
    }

    /// `@L φ` is non-strict: on L's own events it is φ itself.
    #[test]
    fn at_own_lifeline_is_the_identity((system, exec) in system_and_execution()) {
        for guard in &system.guards {
            let wrapped = at(guard.owner, guard.formula.clone());
            for &k in exec.lifeline_events(guard.owner) {
                prop_assert_eq!(eval(&exec, &wrapped, k), eval(&exec, &guard.formula, k));
            }
        }
    }
}

// ------------------------------------------------------------ against the checker

/// The checked form of `source`'s one system, with its enums.
fn checked(source: &str) -> (Vec<EnumDef>, System) {
    let file = hindsight_grammar::parse(source).unwrap_or_else(|d| panic!("{d:?}\n{source}"));
    let (spec, diags) = hindsight_compiler::check::check(&file);
    let spec = spec.unwrap_or_else(|| panic!("{diags:?}\n{source}"));
    (spec.enums, spec.systems[0].clone())
}

/// The checker turns the language's example into the hand-built HIR the
/// scenarios use (compared as printed source, which ignores spans).
#[test]
fn checker_reads_the_code_review_source_as_the_hand_built_system() {
    let (enums, system) = checked(scenarios::SOURCE);
    let hand = scenarios::code_review();
    let names = |e: &[EnumDef]| {
        e.iter()
            .map(|d| (d.name.clone(), d.variants.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&enums), names(&[scenarios::status_enum()]));
    assert_eq!(system_source(&enums, &system), system_source(&enums, &hand));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Printing a generated system and checking it gives the same system back.
    #[test]
    fn generated_systems_round_trip_through_the_checker(spec in system_spec()) {
        let source = system_source(&spec.enums, &spec.systems[0]).expect("no counts generated");
        let (enums, system) = checked(&source);
        prop_assert_eq!(system_source(&enums, &system), Some(source));
    }
}
