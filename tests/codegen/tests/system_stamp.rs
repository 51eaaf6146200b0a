//! The generated code of `specs/system_review.hind` (the code-review workflow)
//! and `specs/system_every.hind` through its typed API: the paper's Figure 2
//! run by hand, the stamp's bytes worked out by hand, the round trip, and every
//! rejection of a stamp (each leaving the receiver unchanged).

use hindsight_codegen_tests::system_every::every;
use hindsight_codegen_tests::system_review::review::{
    Committer, Orchestrator, Security, Stamp, TestRunner, FINGERPRINT,
};
use hindsight_codegen_tests::system_review::Status;
use hindsight_runtime::stamp::{StampError, CLOCK_LIMIT, VERSION};
use hindsight_runtime::Verdict;

fn encoded(stamp: &Stamp) -> Vec<u8> {
    let mut out = [0u8; Stamp::BYTES];
    let len = stamp.to_bytes(&mut out).expect("BYTES always suffices");
    out[..len].to_vec()
}

fn runner(cand: i64, status: Status) -> TestRunner::Changes {
    TestRunner::Changes {
        cand: Some(cand),
        status: Some(status),
    }
}

/// TestRunner reports `passed` for candidate 7 (its second event sends it).
fn pass_report(t: &mut TestRunner::Monitor) -> Stamp {
    t.on_act(&runner(7, Status::passed));
    t.on_send(&TestRunner::Changes::default()).expect("sends")
}

#[test]
fn figure2_through_the_generated_monitors() {
    let mut orchestrator = Orchestrator::Monitor::new();
    let mut t = TestRunner::Monitor::new();
    let mut s = Security::Monitor::new();
    let mut c = Committer::Monitor::default();
    let proposal = orchestrator
        .on_send(&Orchestrator::Changes { cand: Some(7) })
        .expect("sends");
    t.on_recv(&proposal, &TestRunner::Changes::default())
        .expect("consistent");
    let pass = pass_report(&mut t);
    s.on_act(&Security::Changes {
        cand: Some(7),
        status: Some(Status::cleared),
    });
    let cleared = s.on_send(&Security::Changes::default()).expect("sends");
    t.on_act(&TestRunner::Changes {
        status: Some(Status::failed),
        ..Default::default()
    });
    let failure = t.on_send(&TestRunner::Changes::default()).expect("sends");
    assert_eq!(c.guards().may_merge, Verdict::Unknown);
    c.on_act(&Committer::Changes { cand: Some(7) });
    assert_eq!(c.guards().may_merge, Verdict::False, "no report visible");
    c.on_recv(&pass, &Committer::Changes::default())
        .expect("consistent");
    c.on_recv(&cleared, &Committer::Changes::default())
        .expect("consistent");
    // Figure 2: the failure is still in transit.
    let choice = c.on_choice(&Committer::Changes::default());
    assert_eq!(choice.may_merge, Verdict::True);
    assert_eq!(c.clock(), &[1, 3, 2, 4]);
    c.on_recv(&failure, &Committer::Changes::default())
        .expect("consistent");
    assert_eq!(
        c.on_choice(&Committer::Changes::default()).may_merge,
        Verdict::False
    );
    assert_eq!(c.clock(), &[1, 5, 2, 6]);
    assert_eq!(c.store().cand, Some(7));
}

#[test]
fn the_bytes_of_a_pass_report() {
    let stamp = pass_report(&mut TestRunner::Monitor::new());
    assert_eq!(stamp.clock(), &[0, 2, 0, 0]);
    let mut expected = vec![VERSION];
    expected.extend(FINGERPRINT.to_le_bytes());
    // Clocks as varints; bits: e0 (`@TestRunner (...)`) true, e1
    // (`TestRunner.cand`) defined, e2 and e3 (Security's) not; then e1's value.
    expected.extend([0, 2, 0, 0, 0b0011]);
    expected.extend(7i64.to_le_bytes());
    assert_eq!(encoded(&stamp), expected);
    assert_eq!(expected.len(), 22);
    assert_eq!(Stamp::from_bytes(&expected), Ok(stamp));
}

#[test]
fn the_largest_stamp_takes_exactly_bytes() {
    // Every clock component at 2^63 - 1, the largest (nine varint bytes),
    // every entry set.
    let mut bytes = vec![VERSION];
    bytes.extend(FINGERPRINT.to_le_bytes());
    for _ in 0..4 {
        bytes.extend([0xff; 8]);
        bytes.push(0x7f);
    }
    bytes.push(0b1111);
    bytes.extend((-1i64).to_le_bytes());
    bytes.extend(i64::MIN.to_le_bytes());
    assert_eq!(bytes.len(), Stamp::BYTES);
    let stamp = Stamp::from_bytes(&bytes).expect("well formed");
    assert_eq!(stamp.clock(), &[CLOCK_LIMIT - 1; 4]);
    assert_eq!(encoded(&stamp), bytes);
}

#[test]
fn rejected_bytes() {
    let good = encoded(&pass_report(&mut TestRunner::Monitor::new()));
    let with = |k: usize, byte: u8| {
        let mut bad = good.clone();
        bad[k] = byte;
        Stamp::from_bytes(&bad)
    };
    assert_eq!(with(0, VERSION + 1), Err(StampError::WrongVersion));
    assert_eq!(with(1, good[1] ^ 1), Err(StampError::WrongSpec));
    for len in 0..good.len() {
        assert_eq!(
            Stamp::from_bytes(&good[..len]),
            Err(StampError::Malformed),
            "truncated to {len}"
        );
    }
    let mut trailing = good.clone();
    trailing.push(0);
    assert_eq!(Stamp::from_bytes(&trailing), Err(StampError::Malformed));
    // Bit 4 is padding (four entries).
    assert_eq!(with(13, 0b1_0011), Err(StampError::Malformed));
    // e2 (Security's formula) set though no Security event was seen.
    assert_eq!(with(13, 0b0111), Err(StampError::Malformed));
    // An overlong varint for TestRunner's component (0x82 0x00 would be 2).
    let mut overlong = good[..10].to_vec();
    overlong.extend([0x82, 0x00]);
    overlong.extend(&good[11..]);
    assert_eq!(Stamp::from_bytes(&overlong), Err(StampError::Malformed));
    let mut small = [0u8; 21];
    let stamp = Stamp::from_bytes(&good).expect("well formed");
    assert_eq!(stamp.to_bytes(&mut small), Err(StampError::BufferTooSmall));
}

#[test]
fn rejected_values_of_every_type() {
    let mut a = every::A::Monitor::new();
    let stamp = a
        .on_send(&every::A::Changes {
            on: Some(true),
            n: Some(-3),
            x: Some(f64::NAN),
            mode: Some(hindsight_codegen_tests::system_every::Mode::busy),
        })
        .expect("sends");
    let mut out = [0u8; every::Stamp::BYTES];
    let len = stamp.to_bytes(&mut out).expect("fits");
    let good = &out[..len];
    // Header 9, clocks [1, 0, 0], bits e0..e8 (two bytes), then on (1 byte),
    // n (8), x (8), mode (1).
    assert_eq!(len, 9 + 3 + 2 + 1 + 8 + 8 + 1);
    assert_eq!(
        every::Stamp::from_bytes(good),
        Ok(stamp),
        "NaN bits survive"
    );
    let with = |k: usize, byte: u8| {
        let mut bad = good.to_vec();
        bad[k] = byte;
        every::Stamp::from_bytes(&bad)
    };
    assert_eq!(with(14, 2), Err(StampError::Malformed), "a bool byte of 2");
    assert_eq!(
        with(len - 1, 2),
        Err(StampError::Malformed),
        "Mode has 2 variants"
    );
    assert_eq!(with(len - 1, 0).map(|_| ()), Ok(()), "Mode::idle");
}

#[test]
fn a_stamp_ahead_of_the_receiver_is_inconsistent_and_not_merged() {
    let mut c = Committer::Monitor::new();
    c.on_act(&Committer::Changes { cand: Some(7) });
    let mut t = TestRunner::Monitor::new();
    let from_committer = c.on_send(&Committer::Changes::default()).expect("sends");
    t.on_recv(&from_committer, &TestRunner::Changes::default())
        .expect("consistent");
    let pass = pass_report(&mut t);
    // A fresh Committer has had no event, yet the stamp has seen two of it.
    let mut fresh = Committer::Monitor::new();
    fresh.on_act(&Committer::Changes { cand: Some(7) });
    let before = fresh.clone();
    assert_eq!(
        fresh.on_recv(&pass, &Committer::Changes { cand: Some(8) }),
        Err(StampError::Inconsistent)
    );
    assert_eq!(fresh, before);
    // The real Committer accepts it.
    c.on_recv(&pass, &Committer::Changes::default())
        .expect("consistent");
    assert_eq!(c.clock(), &[0, 3, 0, 3]);
}

#[test]
fn reset_and_error_display() {
    let mut t = TestRunner::Monitor::new();
    pass_report(&mut t);
    t.reset();
    assert_eq!(t, TestRunner::Monitor::new());
    assert_eq!(
        StampError::WrongSpec.to_string(),
        "stamp from another spec (fingerprint mismatch)"
    );
}

/// The generated `Monitors` through the runtime's `SystemMonitor`, as trace
/// drivers run it: Figure 2 again, lifelines and variables by index, values
/// untyped; an unknown lifeline or variable and a mistyped value are refused.
#[test]
fn figure2_through_the_system_monitor_interface() {
    use hindsight_codegen_tests::system_review::review::{Monitors, SCHEMA};
    use hindsight_runtime::system::{MonitorError, SystemMonitor};
    use hindsight_runtime::Value;
    let names: Vec<&str> = SCHEMA.lifelines.iter().map(|l| l.name).collect();
    assert_eq!(
        names,
        ["Orchestrator", "TestRunner", "Security", "Committer"]
    );
    assert_eq!(SCHEMA.lifelines[3].guards, ["may_merge"]);
    let (orchestrator, runner, security, committer) = (0, 1, 2, 3);
    let passed = Value::Enum(Status::passed.index());
    let cleared = Value::Enum(Status::cleared.index());
    let mut m = Monitors::new();
    let mut guards = [Verdict::Unknown];
    let proposal = m
        .on_send(orchestrator, &[(0, Value::Int(7))])
        .expect("send");
    m.on_recv(runner, &proposal, &[(0, Value::Int(7))])
        .expect("recv");
    m.on_recv(security, &proposal, &[(0, Value::Int(7))])
        .expect("recv");
    m.on_recv(committer, &proposal, &[(0, Value::Int(7))])
        .expect("recv");
    m.on_act(runner, &[(1, passed)]).expect("act");
    let tests = m.on_send(runner, &[]).expect("send");
    m.on_choice(committer, &[], &mut guards).expect("choice");
    assert_eq!(guards, [Verdict::False], "no report received yet");
    m.on_recv(committer, &tests, &[]).expect("recv");
    m.on_act(security, &[(1, cleared)]).expect("act");
    let scan = m.on_send(security, &[]).expect("send");
    m.on_recv(committer, &scan, &[]).expect("recv");
    m.on_choice(committer, &[], &mut guards).expect("choice");
    assert_eq!(guards, [Verdict::True], "both reports seen");
    assert_eq!(m.Committer.guards().may_merge, Verdict::True);

    let before = m.clone();
    assert_eq!(m.on_act(4, &[]), Err(MonitorError::MalformedStamp));
    assert_eq!(
        m.on_act(runner, &[(2, Value::Int(1))]),
        Err(MonitorError::UnknownVar(2))
    );
    assert_eq!(
        m.on_act(runner, &[(0, Value::Bool(true))]),
        Err(MonitorError::WrongType(0))
    );
    assert_eq!(
        m.on_act(runner, &[(1, Value::Enum(9))]),
        Err(MonitorError::WrongType(1))
    );
    assert_eq!(m, before, "refused events change nothing");
    // A stamp claiming more of the receiver's own events (4) than it has had
    // (1) is refused, with both counts.
    let mut fresh = Monitors::new();
    fresh.on_act(committer, &[]).expect("act");
    let mut other = Monitors::new();
    for _ in 0..3 {
        other.on_act(committer, &[]).expect("act");
    }
    let ahead = other.on_send(committer, &[]).expect("send");
    assert_eq!(
        fresh.on_recv(committer, &ahead, &[]),
        Err(MonitorError::StampAhead { own: 1, stamp: 4 })
    );
    m.reset();
    assert_eq!(m, Monitors::new());
}
