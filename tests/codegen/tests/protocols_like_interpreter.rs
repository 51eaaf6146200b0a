//! The generated protocol monitors of examples/protocols (central and per
//! group) give, after every message event of random sequences, the
//! verdicts of the interpreter's monitors over the same compiled tables;
//! and so does the whole generated system through the runtime's
//! `SystemMonitor::on_message`, as standalone binaries run it.

use hindsight_codegen_tests as generated;
use hindsight_compiler::compile;
use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_compiler::interp::system::SystemInterpreter;
use hindsight_compiler::ir::protocol::{EventKind, ProtocolTable};
use hindsight_runtime::system::{MessageEvent, MessageKind, SystemMonitor};
use hindsight_runtime::Verdict;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A message event: its send (`send`) or receipt.
#[derive(Clone, Debug)]
struct Message {
    send: bool,
    from: usize,
    to: usize,
    label: String,
}

/// The message events of `table`'s event types.
fn events_of(table: &ProtocolTable) -> Vec<Message> {
    table
        .events
        .iter()
        .map(|e| Message {
            send: e.kind != EventKind::Receive,
            from: e.from,
            to: e.to,
            label: e.label.clone(),
        })
        .collect()
}

/// A generated protocol's central and group monitors behind one interface.
trait Protocol {
    fn central(&mut self, m: &Message) -> Verdict;
    fn group(&mut self, group: usize, m: &Message) -> Verdict;
    fn finish(&self) -> Verdict;
}

macro_rules! drive {
    ($module:path, $partition:expr) => {{
        use $module as p;
        struct Driven {
            central: p::Monitor,
            groups: Vec<p::Group>,
        }
        impl Protocol for Driven {
            fn central(&mut self, m: &Message) -> Verdict {
                self.central.on_message(m.send, m.from, m.to, &m.label);
                self.central.verdict()
            }
            fn group(&mut self, group: usize, m: &Message) -> Verdict {
                let g = &mut self.groups[group];
                g.on_message(m.send, m.from, m.to, &m.label);
                g.verdict()
            }
            fn finish(&self) -> Verdict {
                self.central.finish()
            }
        }
        let partition: Vec<Vec<usize>> = $partition;
        Box::new(Driven {
            central: p::Monitor::new(),
            groups: partition.iter().map(|g| p::Group::new(g)).collect(),
        }) as Box<dyn Protocol>
    }};
}

/// One example protocol: its spec, protocol index, the generated
/// monitors with the groups of a partition, and that partition.
type Case = (&'static str, usize, Box<dyn Protocol>, Vec<Vec<usize>>);

/// Every example protocol as a [`Case`].
fn cases() -> Vec<Case> {
    let aip1 = vec![vec![0, 2], vec![1], vec![3]];
    let aip2 = vec![vec![0], vec![1, 3], vec![2]];
    let abp = vec![vec![0, 2], vec![1, 4], vec![3, 5]];
    let review = vec![vec![0], vec![1], vec![2], vec![3]];
    vec![
        (
            include_str!("../../../examples/protocols/aip1.hind"),
            0,
            drive!(
                generated::protocols_aip1::aip1::protocols::aip1,
                aip1.clone()
            ),
            aip1,
        ),
        (
            include_str!("../../../examples/protocols/aip2.hind"),
            0,
            drive!(
                generated::protocols_aip2::aip2::protocols::aip2,
                aip2.clone()
            ),
            aip2,
        ),
        (
            include_str!("../../../examples/protocols/abp.hind"),
            4,
            drive!(generated::protocols_abp::abp::protocols::abp, abp.clone()),
            abp,
        ),
        (
            include_str!("../../../examples/protocols/review.hind"),
            1,
            drive!(
                generated::protocols_review::review::protocols::review,
                review.clone()
            ),
            review,
        ),
    ]
}

#[test]
fn generated_protocol_monitors_are_the_interpreters() {
    let config = Config {
        cases: 200,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    for (source, k, _, partition) in cases() {
        let compiled = compile(source).expect("the example compiles");
        let system = &compiled.program.systems[0];
        let table = &system.protocols[k];
        let events = events_of(table);
        let strategy = prop::collection::vec((0..events.len() + 1, any::<bool>()), 0..14);
        runner
            .run(&strategy, |picks| {
                let mut generated = cases()
                    .into_iter()
                    .find(|c| c.0 == source && c.1 == k)
                    .map(|c| c.2)
                    .expect("the case");
                let mut central = ProtocolMonitor::new(table);
                let mut groups: Vec<GroupMonitor<'_>> = partition
                    .iter()
                    .map(|g| GroupMonitor::new(table, g))
                    .collect();
                for (pick, flip) in picks {
                    // An event of the protocol, or one it does not name.
                    let m = events.get(pick).cloned().unwrap_or(Message {
                        send: flip,
                        from: 0,
                        to: 1,
                        label: "other".to_string(),
                    });
                    if let Some(e) = table.message_index(m.send, m.from, m.to, &m.label) {
                        central.step(e);
                        for g in groups.iter_mut().filter(|g| g.sees(e)) {
                            g.step(e);
                        }
                    }
                    prop_assert_eq!(generated.central(&m), central.verdict());
                    for (i, g) in groups.iter().enumerate() {
                        prop_assert_eq!(generated.group(i, &m), g.verdict(), "group {}", i);
                    }
                }
                prop_assert_eq!(generated.finish(), central.end_verdict());
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The whole generated system of AIP1 through the runtime's
/// `SystemMonitor`, as `hindsight build` runs it, and the interpreter.
#[test]
fn generated_systems_report_protocol_verdicts_as_the_interpreter() {
    let source = include_str!("../../../examples/protocols/abp.hind");
    let compiled = compile(source).expect("the example compiles");
    let system = &compiled.program.systems[0];
    let events = events_of(&system.protocols[4]);
    let mut interpreter = SystemInterpreter::new(system, None);
    let mut generated = generated::protocols_abp::abp::Monitors::new();
    let columns = system.protocols.len();
    assert_eq!(
        generated::protocols_abp::abp::SCHEMA.protocols.len(),
        columns
    );
    let (mut a, mut b) = (
        vec![Verdict::Unknown; columns],
        vec![Verdict::Unknown; columns],
    );
    // Round after round, then one round out of order.
    for k in [0, 2, 1, 4, 3, 5, 0, 2, 2, 4] {
        let m = &events[k % events.len()];
        let event = MessageEvent {
            kind: if m.send {
                MessageKind::Send
            } else {
                MessageKind::Receive
            },
            from: m.from,
            to: m.to,
            label: &m.label,
        };
        assert_eq!(
            interpreter.on_message(&event, &mut a),
            generated.on_message(&event, &mut b)
        );
        assert_eq!(a, b);
    }
    interpreter.protocol_ends(&mut a);
    generated.protocol_ends(&mut b);
    assert_eq!(a, b);
    assert!(a.contains(&Verdict::False), "{a:?}");
}
