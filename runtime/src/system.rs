//! The event-level interface of a system's monitors: one lifeline event at a
//! time, store changes and verdicts as untyped values. Generated systems
//! (their `System` struct) and the compiler's executable monitor implement
//! [`SystemMonitor`], so one trace driver runs either.

use crate::stamp::StampError;
use crate::{InputDecl, Value, Verdict};
use core::fmt;

/// The monitors of a system's lifelines, stepped one event at a time.
///
/// Lifelines are indices in declaration order (those of [`SystemSchema`]);
/// `changes` are an event's store changes, `(variable index, new value)`,
/// variables indexed in the lifeline's declaration order.
pub trait SystemMonitor {
    /// What a send piggybacks on its message.
    type Stamp;

    /// A send on `lifeline`; returns the stamp its message carries.
    fn on_send(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
    ) -> Result<Self::Stamp, MonitorError>;

    /// A receive on `lifeline` of a message carrying `stamp`.
    fn on_recv(
        &mut self,
        lifeline: usize,
        stamp: &Self::Stamp,
        changes: &[(usize, Value)],
    ) -> Result<(), MonitorError>;

    /// A local action on `lifeline`.
    fn on_act(&mut self, lifeline: usize, changes: &[(usize, Value)]) -> Result<(), MonitorError>;

    /// A choice on `lifeline`; writes the verdicts of the guards it owns, in
    /// declaration order, into `guards` (surplus slots are left as they are).
    fn on_choice(
        &mut self,
        lifeline: usize,
        changes: &[(usize, Value)],
        guards: &mut [Verdict],
    ) -> Result<(), MonitorError>;

    /// Back to the state before the first event.
    fn reset(&mut self);

    /// A message event, for the system's protocols (docs/language.md,
    /// section 4e): writes each protocol verdict after it into `verdicts`
    /// (in the order of [`SystemSchema::protocols`]); whether some protocol
    /// constrains the event. A system without protocols constrains none.
    fn on_message(&mut self, event: &MessageEvent<'_>, verdicts: &mut [Verdict]) -> bool {
        let _ = (event, verdicts);
        false
    }

    /// Each protocol verdict if the trace ended now: whether the protocol
    /// may end there.
    fn protocol_ends(&self, verdicts: &mut [Verdict]) {
        let _ = verdicts;
    }
}

/// Whether a message event is the message's send or its receipt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// Sent by the sender.
    Send,
    /// Received by the receiver.
    Receive,
}

/// A message's send or receipt, as the system's protocols see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageEvent<'a> {
    /// Send or receipt.
    pub kind: MessageKind,
    /// The sender (a lifeline index).
    pub from: usize,
    /// The receiver (a lifeline index).
    pub to: usize,
    /// The message's label (empty if it has none).
    pub label: &'a str,
}

/// Why a system's monitor refused an event (its state is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MonitorError {
    /// The stamp comes from another system or spec (its fingerprint differs).
    ForeignStamp,
    /// The stamp's shape or an entry's type does not match the layout, or the
    /// event names a lifeline the system does not have.
    MalformedStamp,
    /// The stamp is ahead of the receiver on the receiver's own component,
    /// which no real message can be.
    StampAhead {
        /// The receiver's own component.
        own: u64,
        /// That component in the stamp.
        stamp: u64,
    },
    /// A store change names a variable the lifeline does not have.
    UnknownVar(usize),
    /// A store change gives a variable a value of another type (or an enum
    /// index beyond its variants).
    WrongType(usize),
    /// The own clock component reached 2^63 - 1 (`CLOCK_LIMIT - 1`): no
    /// further genuine stamp can show progress.
    ClockSaturated,
    /// A sealed stamp's tag does not match its bytes under the key.
    Unauthenticated,
}

impl From<StampError> for MonitorError {
    /// A stamp's bytes refused by the codec, in the monitor's terms.
    fn from(e: StampError) -> Self {
        match e {
            StampError::Unauthenticated => MonitorError::Unauthenticated,
            StampError::WrongSpec | StampError::WrongVersion => MonitorError::ForeignStamp,
            StampError::ClockSaturated => MonitorError::ClockSaturated,
            _ => MonitorError::MalformedStamp,
        }
    }
}

impl fmt::Display for MonitorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MonitorError::ForeignStamp => f.write_str("the stamp comes from another spec"),
            MonitorError::MalformedStamp => f.write_str("the stamp does not match the layout"),
            MonitorError::StampAhead { own, stamp } => write!(
                f,
                "inconsistent stamp: it has seen {stamp} events of the receiver, which has had {own}"
            ),
            MonitorError::UnknownVar(var) => write!(f, "unknown store variable #{var}"),
            MonitorError::WrongType(var) => {
                write!(f, "store variable #{var} given a value of another type")
            }
            MonitorError::ClockSaturated => f.write_str("the clock component is saturated"),
            MonitorError::Unauthenticated => {
                f.write_str("the stamp is not authenticated: its tag does not match under the key")
            }
        }
    }
}

impl core::error::Error for MonitorError {}

/// What a generated system reads and reports: enough for a generic trace
/// runner to decode events and name guard verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SystemSchema {
    /// The system block's name.
    pub system: &'static str,
    /// Its lifelines in declaration order.
    pub lifelines: &'static [LifelineDecl],
    /// The store variable every lifeline has that is its events' time (an
    /// `int` of microseconds, read from a number of seconds or an RFC 3339
    /// string), if any.
    pub time: Option<&'static str>,
    /// The names of the protocol verdicts a message event gives (see
    /// [`SystemMonitor::on_message`]): the system's protocols in
    /// declaration order.
    pub protocols: &'static [&'static str],
}

/// One lifeline of a system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LifelineDecl {
    /// The lifeline's name in the spec.
    pub name: &'static str,
    /// Its store variables in declaration order.
    pub variables: &'static [InputDecl],
    /// The guards it owns (evaluated at its choices), in declaration order.
    pub guards: &'static [&'static str],
}
