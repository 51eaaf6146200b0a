//! Running a protocol's automaton ([`ProtocolTable`]): centrally (one
//! monitor sees every event of the protocol) and decentralized (one monitor
//! per group of lifelines sees the events involving its group).
//!
//! A group's monitor keeps the set of states the protocol may be in given
//! the events it saw ([`Projection`]): the projection of the protocol on the
//! group, run without building an automaton per group, so one table serves
//! every partition.

use crate::ir::protocol::{Projection, ProtocolTable};
use crate::Verdict;

/// The central monitor of one protocol: its state.
#[derive(Clone, Debug)]
pub struct ProtocolMonitor<'t> {
    table: &'t ProtocolTable,
    state: u32,
}

impl<'t> ProtocolMonitor<'t> {
    /// A monitor before any event.
    pub fn new(table: &'t ProtocolTable) -> Self {
        ProtocolMonitor {
            table,
            state: table.initial,
        }
    }

    /// Takes event type `event` (an index into the table's events).
    pub fn step(&mut self, event: usize) {
        self.state = self.table.next(self.state, event);
    }

    /// The verdict after the events taken.
    pub fn verdict(&self) -> Verdict {
        self.table.verdict(self.state)
    }

    /// The verdict if the trace ended now.
    pub fn end_verdict(&self) -> Verdict {
        self.table.end_verdict(self.state)
    }

    /// The current state ([`crate::ir::protocol::VIOLATION`] after a
    /// violation).
    pub fn state(&self) -> u32 {
        self.state
    }

    /// Back to the state before any event.
    pub fn reset(&mut self) {
        self.state = self.table.initial;
    }
}

/// The monitor of one group of lifelines: the set of states the protocol
/// may be in, given the events the group saw.
#[derive(Clone, Debug)]
pub struct GroupMonitor<'t> {
    table: &'t ProtocolTable,
    projection: Projection,
    states: Vec<u64>,
    next: Vec<u64>,
}

impl<'t> GroupMonitor<'t> {
    /// The monitor of the group of lifelines `group` before any event.
    pub fn new(table: &'t ProtocolTable, group: &[usize]) -> Self {
        let projection = Projection::new(table, group);
        let words = projection.words();
        let mut monitor = GroupMonitor {
            table,
            projection,
            states: vec![0; words],
            next: vec![0; words],
        };
        monitor.reset();
        monitor
    }

    /// Whether the group sees event type `event`.
    pub fn sees(&self, event: usize) -> bool {
        self.projection.sees(event)
    }

    /// Takes event type `event`, which the group sees (the events it does
    /// not see are accounted for by the set).
    pub fn step(&mut self, event: usize) {
        self.projection
            .step(self.table, &self.states, event, &mut self.next);
        std::mem::swap(&mut self.states, &mut self.next);
    }

    /// `false` when no state is left, `true` when one accepts, else `?`.
    pub fn verdict(&self) -> Verdict {
        self.projection.verdict(self.table, &self.states)
    }

    /// The verdict if the trace ended now: whether a state of the set
    /// accepts.
    pub fn end_verdict(&self) -> Verdict {
        match self.verdict() {
            Verdict::True => Verdict::True,
            _ => Verdict::False,
        }
    }

    /// Back to the states before any event.
    pub fn reset(&mut self) {
        self.projection.start(self.table, &mut self.states);
    }
}
