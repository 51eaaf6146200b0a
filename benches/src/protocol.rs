//! Protocol monitors (docs/language.md, section 4e) on the alternating-bit
//! protocol of `examples/protocols/abp.hind`: the generated central and
//! group monitors, the interpreter's, and a hand-written monitor of the
//! same protocol (the limit), fed the same messages.
//!
//! Lifelines, in declaration order: alice 0, bob 1, carol 2, dave 3,
//! emma 4, frank 5. Sender k (alice, carol, emma) sends `m{k}` to its
//! receiver, which acknowledges with `a{k}`; the `m`s go round in order.

use hindsight_compiler::interp::protocol::{GroupMonitor, ProtocolMonitor};
use hindsight_compiler::ir::protocol::ProtocolTable;
use hindsight_runtime::Verdict;

/// The generated code of `examples/protocols/abp.hind`.
pub mod generated {
    hindsight_runtime::include_monitors!("abp");
}

/// The spec's source.
pub const SOURCE: &str = include_str!("../../examples/protocols/abp.hind");

/// A message: sender, receiver, label.
pub type Message = (usize, usize, &'static str);

/// The messages of one round in a conforming order: each message, then its
/// acknowledgement.
pub const ROUND: [Message; 6] = [
    (0, 1, "m1"),
    (1, 0, "a1"),
    (2, 3, "m2"),
    (3, 2, "a2"),
    (4, 5, "m3"),
    (5, 4, "a3"),
];

/// `rounds` conforming rounds; with `mistake`, every `mistake`-th message
/// is replaced by the one two places later in its round (out of turn).
pub fn workload(rounds: usize, mistake: Option<usize>) -> Vec<Message> {
    (0..rounds * ROUND.len())
        .map(|i| match mistake {
            Some(every) if i % every == every - 1 => ROUND[(i + 2) % ROUND.len()],
            _ => ROUND[i % ROUND.len()],
        })
        .collect()
}

/// A protocol monitor fed synchronous messages (one event at the send).
pub trait ProtocolRun {
    /// Takes a message; the verdict after it.
    fn message(&mut self, message: Message) -> Verdict;
    /// Back to the state before any message.
    fn reset(&mut self);
}

/// The alternating-bit protocol written by hand: which `m` is next, and
/// per sender whether its acknowledgement is owed.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandAbp {
    next: u8,
    owed: [bool; 3],
    violated: bool,
}

impl ProtocolRun for HandAbp {
    #[inline]
    fn message(&mut self, (from, to, label): Message) -> Verdict {
        let ok = match (label, from, to) {
            ("m1", 0, 1) => self.send(0),
            ("m2", 2, 3) => self.send(1),
            ("m3", 4, 5) => self.send(2),
            ("a1", 1, 0) => self.ack(0),
            ("a2", 3, 2) => self.ack(1),
            ("a3", 5, 4) => self.ack(2),
            _ => true,
        };
        self.violated |= !ok;
        if self.violated {
            Verdict::False
        } else if self.next == 0 && self.owed == [false; 3] {
            Verdict::True
        } else {
            Verdict::Unknown
        }
    }

    fn reset(&mut self) {
        *self = HandAbp::default();
    }
}

impl HandAbp {
    /// Sender `k`'s message: its turn, and its last one acknowledged.
    #[inline]
    fn send(&mut self, k: usize) -> bool {
        let ok = usize::from(self.next) == k && !self.owed[k];
        self.next = ((k + 1) % 3) as u8;
        self.owed[k] = true;
        ok
    }

    /// Sender `k`'s acknowledgement: owed.
    #[inline]
    fn ack(&mut self, k: usize) -> bool {
        std::mem::replace(&mut self.owed[k], false)
    }
}

impl ProtocolRun for generated::abp::protocols::abp::Monitor {
    #[inline]
    fn message(&mut self, (from, to, label): Message) -> Verdict {
        self.on_message(true, from, to, label);
        self.verdict()
    }

    fn reset(&mut self) {
        generated::abp::protocols::abp::Monitor::reset(self);
    }
}

impl ProtocolRun for generated::abp::protocols::abp::Group {
    #[inline]
    fn message(&mut self, (from, to, label): Message) -> Verdict {
        self.on_message(true, from, to, label);
        self.verdict()
    }

    fn reset(&mut self) {
        generated::abp::protocols::abp::Group::reset(self);
    }
}

/// The `abp` protocol's table, compiled from [`SOURCE`].
pub fn table() -> ProtocolTable {
    let compiled = crate::compile_spec("abp.hind", SOURCE);
    let system = compiled.program.systems.into_iter().next();
    system
        .and_then(|s| s.protocols.into_iter().find(|p| p.name == "abp"))
        .expect("abp.hind declares protocol abp")
}

/// The interpreter's central monitor of a table.
pub struct InterpretedCentral<'t>(pub ProtocolMonitor<'t>, pub &'t ProtocolTable);

impl ProtocolRun for InterpretedCentral<'_> {
    #[inline]
    fn message(&mut self, (from, to, label): Message) -> Verdict {
        if let Some(event) = self.1.message_index(true, from, to, label) {
            self.0.step(event);
        }
        self.0.verdict()
    }

    fn reset(&mut self) {
        self.0.reset();
    }
}

/// The interpreter's monitor of one group of a table.
pub struct InterpretedGroup<'t>(pub GroupMonitor<'t>, pub &'t ProtocolTable);

impl ProtocolRun for InterpretedGroup<'_> {
    #[inline]
    fn message(&mut self, (from, to, label): Message) -> Verdict {
        if let Some(event) = self.1.message_index(true, from, to, label) {
            if self.0.sees(event) {
                self.0.step(event);
            }
        }
        self.0.verdict()
    }

    fn reset(&mut self) {
        self.0.reset();
    }
}

/// The group the benchmarks monitor: alice and carol, of the safe
/// partition `[[alice, carol], [bob, emma], [dave, frank]]`.
pub const GROUP: [usize; 2] = [0, 2];

/// Feeds `messages` to `run`, resetting it after each violation; how many
/// violations it found.
#[inline]
pub fn violations<R: ProtocolRun + ?Sized>(run: &mut R, messages: &[Message]) -> usize {
    let mut found = 0;
    for &m in messages {
        if run.message(m) == Verdict::False {
            found += 1;
            run.reset();
        }
    }
    found
}
