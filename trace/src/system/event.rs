//! One decoded line of a system trace.

use hindsight_runtime::Value;

/// What an event does, with the message it sends or receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind<'a> {
    /// Sends message `msg` to lifeline `to` (an index in the schema's lifelines).
    Send {
        /// The intended receiver.
        to: usize,
        /// The message id.
        msg: &'a str,
    },
    /// Receives message `msg`.
    Recv {
        /// The message id.
        msg: &'a str,
    },
    /// A local action.
    Act,
    /// A decision of the lifeline: where its guards are reported.
    Choice,
}

/// The kind of an event without its message id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `send`
    Send,
    /// `recv`
    Recv,
    /// `act`
    Act,
    /// `choice`
    Choice,
}

impl Kind {
    /// The kinds, as trace lines spell them.
    pub(super) const NAMES: [(&'static str, Kind); 4] = [
        ("send", Kind::Send),
        ("recv", Kind::Recv),
        ("act", Kind::Act),
        ("choice", Kind::Choice),
    ];

    /// The kind as trace lines spell it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Send => "send",
            Kind::Recv => "recv",
            Kind::Act => "act",
            Kind::Choice => "choice",
        }
    }
}

/// A decoded system trace line, reused from line to line (its message id and
/// store changes keep their allocations).
#[derive(Clone, Debug, PartialEq)]
pub struct SystemEvent {
    pub(super) lifeline: usize,
    pub(super) kind: Kind,
    pub(super) to: usize,
    pub(super) msg: String,
    /// The message's label (a send's or receipt's `"label"`), or empty.
    pub(super) label: String,
    pub(super) changes: Vec<(usize, Value)>,
}

impl Default for SystemEvent {
    fn default() -> Self {
        SystemEvent {
            lifeline: 0,
            kind: Kind::Act,
            to: 0,
            msg: String::new(),
            label: String::new(),
            changes: Vec::new(),
        }
    }
}

impl SystemEvent {
    /// The lifeline the event happens on (an index in the schema's lifelines).
    pub fn lifeline(&self) -> usize {
        self.lifeline
    }

    /// What the event does.
    pub fn kind(&self) -> EventKind<'_> {
        match self.kind {
            Kind::Send => EventKind::Send {
                to: self.to,
                msg: &self.msg,
            },
            Kind::Recv => EventKind::Recv { msg: &self.msg },
            Kind::Act => EventKind::Act,
            Kind::Choice => EventKind::Choice,
        }
    }

    /// The label a send or receipt gives its message (`"label"`), or empty.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The store changes of the event, `(variable index, new value)`, in the
    /// lifeline's declaration order; its other variables keep their values.
    pub fn changes(&self) -> &[(usize, Value)] {
        &self.changes
    }
}
