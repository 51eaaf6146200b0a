//! Interaction protocols of a system as the back ends run them: each
//! protocol's trace expression compiled to a deterministic automaton over
//! its event types (docs/language.md, section 4e).
//!
//! A state is the rest of the protocol after the events seen (a derivative
//! of the trace expression); every state kept can still be continued
//! (by finitely many events to an accepting state, or forever), so a
//! prefix leaves the protocol exactly when its event has no transition.
//! One table serves the central monitor (one state) and every group of a
//! decentralized monitor (a set of states: those the events hidden from the
//! group may have reached).

use crate::Verdict;
use hindsight_grammar::ast::Span;
use hindsight_runtime::protocol;

/// How a protocol's events come from a system's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Communication {
    /// One event per message (`A -> B: m`), involving sender and receiver.
    Synchronous,
    /// A send (`send A -> B: m`, involving the sender) and a receipt
    /// (`receive A -> B: m`, involving the receiver) per message.
    Asynchronous,
}

impl Communication {
    /// `sync` or `async`, as the spec writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Communication::Synchronous => "sync",
            Communication::Asynchronous => "async",
        }
    }
}

pub use hindsight_runtime::protocol::{EventKind, VIOLATION};

/// An event type: the interaction, send or receipt of a message with a
/// label between two lifelines (indices in declaration order).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventType {
    /// Interaction, send or receipt.
    pub kind: EventKind,
    /// The sender.
    pub from: usize,
    /// The receiver.
    pub to: usize,
    /// The message's label.
    pub label: String,
}

impl EventType {
    /// The lifelines the event involves (the DecAMon paper's `involved`):
    /// sender and receiver of an interaction, the sender of a send, the
    /// receiver of a receipt.
    pub fn involved(&self) -> impl Iterator<Item = usize> {
        let (first, second) = match self.kind {
            EventKind::Interaction => (self.from, Some(self.to)),
            EventKind::Send => (self.from, None),
            EventKind::Receive => (self.to, None),
        };
        std::iter::once(first).chain(second.filter(|&s| s != first))
    }

    /// Whether the event involves lifeline `l`.
    pub fn involves(&self, l: usize) -> bool {
        self.involved().any(|i| i == l)
    }

    /// The event type as the spec writes it, lifelines named by `names`.
    pub fn text(&self, names: &[String]) -> String {
        let name = |l: usize| names.get(l).map_or("?", String::as_str);
        let direction = match self.kind {
            EventKind::Interaction => "",
            EventKind::Send => "send ",
            EventKind::Receive => "receive ",
        };
        format!(
            "{direction}{} -> {}: {}",
            name(self.from),
            name(self.to),
            self.label
        )
    }
}

/// One protocol compiled: its event types and the automaton over them.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolTable {
    /// The protocol's name.
    pub name: String,
    /// The declaration.
    pub span: Span,
    /// How its events come from messages.
    pub model: Communication,
    /// Its alphabet, sorted: the event types it names (events of other
    /// types are not its business and leave it as it is).
    pub events: Vec<EventType>,
    /// The states; every one can still be continued.
    pub states: Vec<ProtocolState>,
    /// The state before any event, or [`VIOLATION`] if no trace conforms.
    pub initial: u32,
    /// Per state, per event type: the next state or [`VIOLATION`]
    /// (`transitions[state * events.len() + event]`).
    pub transitions: Vec<u32>,
}

/// One state of a protocol's automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolState {
    /// Whether the trace may end here (the paper's `may_halt`).
    pub accepting: bool,
    /// What is still required, as a trace expression.
    pub residual: String,
}

impl ProtocolTable {
    /// The event type index of `event`, if it is one of the protocol's.
    pub fn event_index(&self, event: &EventType) -> Option<usize> {
        self.events.binary_search(event).ok()
    }

    /// The event type index of a message event, if the protocol has that
    /// type: a send is an interaction of a synchronous protocol (whose
    /// receipts it does not constrain), a send or a receipt of an
    /// asynchronous one. No allocation (the label is compared in place).
    pub fn message_index(&self, send: bool, from: usize, to: usize, label: &str) -> Option<usize> {
        let kind = match (self.model, send) {
            (Communication::Synchronous, true) => EventKind::Interaction,
            (Communication::Synchronous, false) => return None,
            (Communication::Asynchronous, true) => EventKind::Send,
            (Communication::Asynchronous, false) => EventKind::Receive,
        };
        self.events
            .binary_search_by(|e| {
                (e.kind, e.from, e.to, e.label.as_str()).cmp(&(kind, from, to, label))
            })
            .ok()
    }

    /// The state after `event` in `state` ([`VIOLATION`] stays).
    pub fn next(&self, state: u32, event: usize) -> u32 {
        protocol::next(&self.transitions, self.events.len(), state, event)
    }

    /// The verdict in `state`: `false` after a violation, `true` where the
    /// trace may end, `?` where more events are needed.
    pub fn verdict(&self, state: u32) -> Verdict {
        match self.states.get(state as usize) {
            None => Verdict::False,
            Some(s) if s.accepting => Verdict::True,
            Some(_) => Verdict::Unknown,
        }
    }

    /// The verdict if the trace ended in `state`: whether it may end there.
    pub fn end_verdict(&self, state: u32) -> Verdict {
        protocol::end_of(self.verdict(state))
    }

    /// The transition table as the runtime's group rules read it.
    pub fn runtime_transitions(&self) -> protocol::Transitions<'_> {
        protocol::Transitions {
            table: &self.transitions,
            events: self.events.len(),
            states: self.states.len(),
        }
    }

    /// Per state: whether it accepts.
    pub fn accepting(&self) -> Vec<bool> {
        self.states.iter().map(|s| s.accepting).collect()
    }

    /// The event types `state` has a transition on, in alphabet order.
    pub fn expected(&self, state: u32) -> impl Iterator<Item = &EventType> + '_ {
        self.events
            .iter()
            .enumerate()
            .filter(move |&(e, _)| self.next(state, e) != VIOLATION)
            .map(|(_, t)| t)
    }
}

/// The projection of a protocol on a group of lifelines: which event
/// types the group sees (those involving one of its lifelines) and, from
/// every state, where the events hidden from it may lead. A group's monitor
/// keeps a set of states (a bit set of [`Projection::words`] words): after
/// each event it sees, every state some global trace consistent with what it
/// saw may be in. The rules are the runtime's ([`hindsight_runtime::protocol`]),
/// which generated monitors run too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projection {
    visible: Vec<bool>,
    /// Per state: the states reachable from it by hidden events, itself
    /// included.
    hidden_reach: Vec<u64>,
    accepting: Vec<bool>,
    words: usize,
}

impl Projection {
    /// The projection of `table` on the lifelines `group`.
    pub fn new(table: &ProtocolTable, group: &[usize]) -> Self {
        let states = table.states.len();
        let words = states.div_ceil(64).max(1);
        let visible: Vec<bool> = table
            .events
            .iter()
            .map(|e| e.involved().any(|l| group.contains(&l)))
            .collect();
        let mut hidden_reach = vec![0u64; states * words];
        let mut stack = vec![0u32; states];
        protocol::hidden_reach(
            table.runtime_transitions(),
            &|e| visible.get(e).copied().unwrap_or(false),
            words,
            &mut hidden_reach,
            &mut stack,
        );
        Projection {
            visible,
            hidden_reach,
            accepting: table.accepting(),
            words,
        }
    }

    /// The words of a set of states.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Whether the group sees event type `event`.
    pub fn sees(&self, event: usize) -> bool {
        self.visible.get(event).copied().unwrap_or(false)
    }

    /// The set before any event seen: what hidden events reach from the
    /// initial state (empty if no trace conforms).
    pub fn start(&self, table: &ProtocolTable, out: &mut [u64]) {
        protocol::group_start(&self.hidden_reach, self.words, table.initial, out);
    }

    /// The set after event `event`, which the group sees, from `from`.
    pub fn step(&self, table: &ProtocolTable, from: &[u64], event: usize, out: &mut [u64]) {
        protocol::group_step(
            table.runtime_transitions(),
            &self.hidden_reach,
            self.words,
            from,
            event,
            out,
        );
    }

    /// The verdict of a set: `false` if empty, `true` if a state of it
    /// accepts, else `?`.
    pub fn verdict(&self, _table: &ProtocolTable, set: &[u64]) -> Verdict {
        protocol::set_verdict(&self.accepting, set)
    }
}
