//! Generated monitors never allocate: a counting global allocator sees no
//! allocation over 10^6 calls each of `step`, `peek`, `finish` and `step_values`
//! of the generated trucks monitor (the `#![no_std]` crate's code).
//! The same holds for the lifeline monitors and stamps of a generated system
//! and for the central and group monitors of a generated protocol.

use hindsight_tests::alloc_count::{allocations, assert_counting, Counting};
use std::hint::black_box;

use hindsight_no_std_monitor::trucks::{Input, Monitor};
use hindsight_no_std_monitor::{Action, Area};
use hindsight_runtime::{StepMonitor, Value, Verdict};

#[global_allocator]
static GLOBAL: Counting = Counting;

const CALLS: usize = 1_000_000;

/// A varied input for step `i`: every action, area and a few packages.
fn input(i: usize) -> Input {
    let action = Action::from_index((i.wrapping_mul(7) / 3 % 6) as u32).unwrap_or_default();
    let area = Area::from_index((i % 3) as u32).unwrap_or_default();
    Input {
        action,
        area,
        pkg: (i % 4) as i64,
    }
}

#[test]
fn the_counter_sees_allocations() {
    assert_counting();
}

#[test]
fn step_peek_and_finish_never_allocate() {
    let mut monitor = Monitor::new();
    let mut violations = 0usize;
    let before = allocations();
    for i in 0..CALLS {
        let peeked = monitor.peek(black_box(&input(i)));
        let stepped = monitor.step(black_box(&input(i)));
        let finished = monitor.finish();
        violations += stepped
            .to_array()
            .iter()
            .filter(|v| v.is_violation())
            .count();
        black_box((peeked, finished));
    }
    assert_eq!(allocations() - before, 0);
    // The inputs exercise the monitor: some steps violate a rule, most do not.
    assert!(
        violations > 0 && violations < CALLS * 6,
        "{violations} violations"
    );
}

#[test]
fn step_values_never_allocates() {
    let mut monitor = Monitor::new();
    let mut verdicts = [Verdict::Unknown; 6];
    let mut violations = 0usize;
    let before = allocations();
    for i in 0..CALLS {
        let typed = input(i);
        let values = [
            Value::Enum(typed.action.index()),
            Value::Enum(typed.area.index()),
            Value::Int(typed.pkg),
        ];
        monitor.step_values(black_box(&values), &mut verdicts);
        violations += verdicts.iter().filter(|v| v.is_violation()).count();
    }
    monitor.finish_values(&mut verdicts);
    StepMonitor::reset(&mut monitor);
    assert_eq!(allocations() - before, 0);
    assert!(violations > 0, "{violations} violations");
}

/// Lifeline monitors of the code-review system (`tests/codegen/specs/system_review.hind`):
/// act, send, encode, decode, receive and choose, 10^6 rounds of two reports.
#[test]
fn lifeline_monitors_and_stamps_never_allocate() {
    use hindsight_codegen_tests::system_review::review::{Committer, Security, Stamp, TestRunner};
    use hindsight_codegen_tests::system_review::Status;

    let mut runner = TestRunner::Monitor::new();
    let mut security = Security::Monitor::new();
    let mut committer = Committer::Monitor::new();
    let mut bytes = [0u8; Stamp::BYTES];
    let mut merges = 0usize;
    let before = allocations();
    for i in 0..CALLS {
        let status = if i % 3 == 0 {
            Status::failed
        } else {
            Status::passed
        };
        runner.on_act(black_box(&TestRunner::Changes {
            cand: Some((i % 4) as i64),
            status: Some(status),
        }));
        let stamp = runner
            .on_send(&TestRunner::Changes::default())
            .unwrap_or_else(|_| unreachable!("the clock cannot saturate here"));
        let review = security
            .on_send(&Security::Changes {
                cand: Some((i % 4) as i64),
                status: Some(Status::cleared),
            })
            .unwrap_or_else(|_| unreachable!("the clock cannot saturate here"));
        let changes = Committer::Changes {
            cand: Some((i % 4) as i64),
        };
        for stamp in [stamp, review] {
            let len = stamp.to_bytes(&mut bytes).unwrap_or(0);
            if let Ok(stamp) = Stamp::from_bytes(black_box(&bytes[..len])) {
                if committer.on_recv(&stamp, &changes).is_err() {
                    committer.on_act(&Committer::Changes::default());
                }
            }
        }
        let guards = committer.on_choice(&Committer::Changes::default());
        merges += usize::from(guards.may_merge == Verdict::True);
    }
    assert_eq!(allocations() - before, 0);
    // A third of the reports are failures: some rounds merge, some do not.
    assert!(merges > 0 && merges < CALLS, "{merges} merges");
}

/// Protocol monitors of the alternating-bit protocol
/// (`examples/protocols/abp.hind`): the central monitor and the monitors of
/// three groups see 10^6 message events, some out of order; each is reset
/// when it finds a violation.
#[test]
fn protocol_monitors_never_allocate() {
    use hindsight_no_std_monitor::abp_spec::abp::protocols::abp::{Group, Monitor};

    // Lifelines alice 0, bob 1, carol 2, dave 3, emma 4, frank 5; a round of
    // the protocol, then every so often a message out of turn.
    const ROUND: [(usize, usize, &str); 6] = [
        (0, 1, "m1"),
        (1, 0, "a1"),
        (2, 3, "m2"),
        (3, 2, "a2"),
        (4, 5, "m3"),
        (5, 4, "a3"),
    ];
    let mut central = Monitor::new();
    let mut groups = [
        Group::new(&[0, 2]),
        Group::new(&[1, 4]),
        Group::new(&[3, 5]),
    ];
    let mut violations = 0usize;
    let before = allocations();
    for i in 0..CALLS {
        let (from, to, label) = if i % 97 == 96 {
            ROUND[(i + 2) % 6]
        } else {
            ROUND[i % 6]
        };
        for send in [true, false] {
            central.on_message(black_box(send), from, to, black_box(label));
            for group in &mut groups {
                group.on_message(send, from, to, label);
                if group.verdict() == Verdict::False {
                    group.reset();
                }
            }
        }
        if central.verdict() == Verdict::False {
            violations += 1;
            central.reset();
        }
        black_box(central.finish());
    }
    assert_eq!(allocations() - before, 0);
    // The out-of-turn messages violate the protocol, the rounds do not.
    assert!(
        violations > 0 && violations < CALLS / 10,
        "{violations} violations"
    );
}
