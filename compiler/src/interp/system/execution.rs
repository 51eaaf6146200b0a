//! All the lifelines of one execution in one place, with stamps carried from
//! send to receive by message id: how the CLI and the tests replay a trace.

use super::{LifelineMonitor, MonitorError, Stamp};
use crate::ir::system::SystemTables;
use crate::types::Value;
use crate::Verdict;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::Hash;

/// What an event does; `M` identifies messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind<M> {
    /// Sends message `msg` to lifeline `to`.
    Send {
        /// The receiver (index in the system's lifelines).
        to: usize,
        /// The message.
        msg: M,
    },
    /// Receives message `msg`, sent earlier to this lifeline.
    Recv {
        /// The message.
        msg: M,
    },
    /// A local action.
    Act,
    /// A decision, where the lifeline's guards are reported.
    Choice,
}

/// Why an event was refused (nothing changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemError {
    /// The event's lifeline, or a send's receiver, does not exist.
    UnknownLifeline(usize),
    /// A send reuses the id of a message already sent.
    DuplicateMessage,
    /// A receive of a message never sent.
    UnknownMessage,
    /// A receive of a message already received.
    AlreadyReceived,
    /// A receive of a message addressed to another lifeline.
    WrongReceiver {
        /// The lifeline the message was sent to.
        to: usize,
    },
    /// The lifeline's monitor refused the event.
    Monitor(MonitorError),
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SystemError::UnknownLifeline(l) => write!(f, "unknown lifeline #{l}"),
            SystemError::DuplicateMessage => f.write_str("message id already sent"),
            SystemError::UnknownMessage => f.write_str("receive of a message never sent"),
            SystemError::AlreadyReceived => f.write_str("message already received"),
            SystemError::WrongReceiver { to } => {
                write!(f, "message addressed to lifeline #{to}")
            }
            SystemError::Monitor(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SystemError {}

impl From<MonitorError> for SystemError {
    fn from(e: MonitorError) -> Self {
        SystemError::Monitor(e)
    }
}

/// The monitors of every lifeline of a system and the messages in flight.
#[derive(Clone, Debug)]
pub struct Replay<'t, M> {
    monitors: Vec<LifelineMonitor<'t>>,
    /// Sent, not yet received: the receiver and the stamp.
    in_flight: HashMap<M, (usize, Stamp)>,
    received: HashSet<M>,
}

impl<'t, M: Clone + Eq + Hash> Replay<'t, M> {
    /// Every lifeline before its first event, nothing in flight.
    pub fn new(system: &'t SystemTables) -> Self {
        Replay {
            monitors: (0..system.lifelines.len())
                .filter_map(|l| LifelineMonitor::new(system, l))
                .collect(),
            in_flight: HashMap::new(),
            received: HashSet::new(),
        }
    }

    /// The monitor of `lifeline`.
    pub fn lifeline(&self, lifeline: usize) -> Option<&LifelineMonitor<'t>> {
        self.monitors.get(lifeline)
    }

    /// The number of messages sent and not received.
    pub fn in_transit(&self) -> usize {
        self.in_flight.len()
    }

    /// One event of `lifeline` with its store `changes`; returns the verdicts
    /// of the guards `lifeline` owns after it (see [`LifelineMonitor::owned_guards`]).
    pub fn event(
        &mut self,
        lifeline: usize,
        kind: EventKind<M>,
        changes: &[(usize, Value)],
    ) -> Result<&[Verdict], SystemError> {
        let lifelines = self.monitors.len();
        let monitor = self
            .monitors
            .get_mut(lifeline)
            .ok_or(SystemError::UnknownLifeline(lifeline))?;
        match kind {
            EventKind::Send { to, msg } => {
                if to >= lifelines {
                    return Err(SystemError::UnknownLifeline(to));
                }
                if self.in_flight.contains_key(&msg) || self.received.contains(&msg) {
                    return Err(SystemError::DuplicateMessage);
                }
                let stamp = monitor.on_send(changes)?;
                self.in_flight.insert(msg, (to, stamp));
            }
            EventKind::Recv { msg } => {
                let (to, stamp) =
                    self.in_flight
                        .get(&msg)
                        .ok_or(if self.received.contains(&msg) {
                            SystemError::AlreadyReceived
                        } else {
                            SystemError::UnknownMessage
                        })?;
                if *to != lifeline {
                    return Err(SystemError::WrongReceiver { to: *to });
                }
                monitor.on_recv(stamp, changes)?;
                self.in_flight.remove(&msg);
                self.received.insert(msg);
            }
            EventKind::Act => monitor.on_act(changes)?,
            EventKind::Choice => {
                monitor.on_choice(changes)?;
            }
        }
        Ok(monitor.guards())
    }
}
