//! The protocol benchmarks' monitors compute what they claim: on conforming
//! rounds and on rounds with messages out of turn, the hand-written
//! alternating-bit monitor, the generated and the interpreter's central
//! monitors give the same verdict after every message; the group monitors
//! (generated and interpreted) agree with each other, never report what the
//! central monitor does not, and under the safe partition some group
//! reports every violation at the same message.

use hindsight_benches::protocol::generated::abp::protocols::abp::{Group, Monitor};
use hindsight_benches::protocol::{
    table, workload, HandAbp, InterpretedCentral, InterpretedGroup, ProtocolRun,
};
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_runtime::Verdict;

/// The safe partition the benchmarks' group belongs to.
const PARTITION: [&[usize]; 3] = [&[0, 2], &[1, 4], &[3, 5]];

#[test]
fn hand_written_generated_and_interpreted_monitors_agree() {
    let table = table();
    for mistake in [None, Some(7), Some(13), Some(50)] {
        let messages = workload(200, mistake);
        let mut hand = HandAbp::default();
        let mut generated = Monitor::new();
        let mut interpreted = InterpretedCentral(ProtocolMonitor::new(&table), &table);
        let mut groups: Vec<(Group, InterpretedGroup<'_>)> = PARTITION
            .iter()
            .map(|g| {
                (
                    Group::new(g),
                    InterpretedGroup(GroupMonitor::new(&table, g), &table),
                )
            })
            .collect();
        let mut violations = 0;
        let mut last = Verdict::Unknown;
        for (at, &m) in messages.iter().enumerate() {
            let verdict = hand.message(m);
            last = verdict;
            assert_eq!(generated.message(m), verdict, "message {at} of {mistake:?}");
            assert_eq!(
                interpreted.message(m),
                verdict,
                "message {at} of {mistake:?}"
            );
            let mut caught = false;
            for (g, i) in &mut groups {
                let group = g.message(m);
                assert_eq!(i.message(m), group, "group, message {at} of {mistake:?}");
                caught |= group == Verdict::False;
            }
            assert_eq!(
                caught,
                verdict == Verdict::False,
                "message {at} of {mistake:?}"
            );
            if verdict == Verdict::False {
                violations += 1;
                hand.reset();
                generated.reset();
                interpreted.reset();
                for (g, i) in &mut groups {
                    g.reset();
                    i.reset();
                }
            }
        }
        // Conforming rounds end complete; each message out of turn is found.
        match mistake {
            None => assert_eq!((violations, last), (0, Verdict::True)),
            Some(_) => assert!(violations > 0, "{mistake:?}"),
        }
    }
}
