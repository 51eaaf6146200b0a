//! The execution model of Causal Past Logic: a message sequence chart (the CPL
//! paper's Definition 1) given as its events in one linearization order.
//!
//! The causal order is computed by plain reachability over local-successor and
//! message edges — deliberately not with vector clocks, which the monitor under
//! test uses.

use std::fmt;

use hindsight_compiler::hir::{System, Ty, Value};

/// A message's identity: the `msg` of its send and of its (at most one) receive.
pub type MsgId = u32;

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// Sends message `msg` to lifeline `to` (an index in [`System::lifelines`]).
    Send {
        /// The intended receiver.
        to: usize,
        /// The message.
        msg: MsgId,
    },
    /// Receives message `msg`, sent earlier to this event's lifeline.
    Recv {
        /// The message.
        msg: MsgId,
    },
    /// A local action.
    Act,
    /// A decision of the lifeline: where its guards are reported.
    Choice,
}

/// One event: its lifeline, its kind and the store changes it makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The lifeline (index in [`System::lifelines`]).
    pub lifeline: usize,
    /// What it does.
    pub kind: EventKind,
    /// `(variable index, new value)` pairs; the other variables keep their values.
    pub changes: Vec<(usize, Value)>,
}

/// Why a list of events is not an execution of a system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MscError {
    /// Event `event` names a lifeline the system does not have.
    UnknownLifeline {
        /// The offending event.
        event: usize,
    },
    /// Event `event` changes a variable its lifeline does not have.
    UnknownVar {
        /// The offending event.
        event: usize,
    },
    /// Event `event` gives a variable a value of another type.
    WrongType {
        /// The offending event.
        event: usize,
    },
    /// Event `event` sends a message id already sent.
    DuplicateSend {
        /// The offending event.
        event: usize,
    },
    /// Event `event` receives a message not sent before it.
    UnknownMsg {
        /// The offending event.
        event: usize,
    },
    /// Event `event` receives a message already received.
    AlreadyReceived {
        /// The offending event.
        event: usize,
    },
    /// Event `event` receives a message addressed to another lifeline.
    WrongReceiver {
        /// The offending event.
        event: usize,
    },
    /// A reordering is not a permutation of the events preserving the causal order.
    NotALinearExtension,
}

impl fmt::Display for MscError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MscError::UnknownLifeline { event } => write!(f, "event {event}: unknown lifeline"),
            MscError::UnknownVar { event } => write!(f, "event {event}: unknown variable"),
            MscError::WrongType { event } => write!(f, "event {event}: value of the wrong type"),
            MscError::DuplicateSend { event } => write!(f, "event {event}: message sent twice"),
            MscError::UnknownMsg { event } => {
                write!(f, "event {event}: receive of an unsent message")
            }
            MscError::AlreadyReceived { event } => {
                write!(f, "event {event}: message already received")
            }
            MscError::WrongReceiver { event } => {
                write!(f, "event {event}: message addressed to another lifeline")
            }
            MscError::NotALinearExtension => {
                f.write_str("not a linear extension of the causal order")
            }
        }
    }
}

impl std::error::Error for MscError {}

/// A lifeline's store after an event: a value per variable, `None` while never assigned.
pub type Store = Vec<Option<Value>>;

/// A validated message sequence chart, with its derived structure precomputed.
///
/// Events are numbered by their position in the linearization given to
/// [`Execution::new`]; the local order of a lifeline is the order of its events
/// in that list, and every receive comes after its send.
#[derive(Clone, Debug, PartialEq)]
pub struct Execution {
    /// The variable types of each lifeline, to validate reorderings and restrictions.
    var_types: Vec<Vec<Ty>>,
    /// Whether every lifeline's last variable is its events' time.
    timed: bool,
    events: Vec<Event>,
    /// `stores[e]`: the store of `e`'s lifeline after `e`.
    stores: Vec<Store>,
    /// `on_lifeline[l]`: the events of lifeline `l` in local order.
    on_lifeline: Vec<Vec<usize>>,
    /// `local_index[e]`: the position of `e` in its lifeline's local order.
    local_index: Vec<usize>,
    /// `past[e][f]`: `f <= e` in the causal order.
    past: Vec<Vec<bool>>,
}

impl Execution {
    /// Validates `events` (one linearization of an MSC of `system`) and builds the execution.
    pub fn new(system: &System, events: Vec<Event>) -> Result<Execution, MscError> {
        let var_types = system
            .lifelines
            .iter()
            .map(|l| l.vars.iter().map(|v| v.ty).collect())
            .collect();
        Execution::build(var_types, system.time.is_some(), events)
    }

    /// Whether every lifeline's last variable is its events' time.
    pub fn timed(&self) -> bool {
        self.timed
    }

    fn build(
        var_types: Vec<Vec<Ty>>,
        timed: bool,
        events: Vec<Event>,
    ) -> Result<Execution, MscError> {
        let senders = match_messages(&var_types, &events)?;
        let mut on_lifeline = vec![Vec::new(); var_types.len()];
        let mut local_index = Vec::with_capacity(events.len());
        let mut stores: Vec<Store> = Vec::with_capacity(events.len());
        for (e, event) in events.iter().enumerate() {
            let mine: &mut Vec<usize> = &mut on_lifeline[event.lifeline];
            let mut store = match mine.last() {
                Some(&p) => stores[p].clone(),
                None => vec![None; var_types[event.lifeline].len()],
            };
            for &(var, value) in &event.changes {
                store[var] = Some(value);
            }
            local_index.push(mine.len());
            mine.push(e);
            stores.push(store);
        }
        // Immediate causal predecessors: the local predecessor and, for a
        // receive, its matching send.
        let preds: Vec<Vec<usize>> = (0..events.len())
            .map(|e| {
                let lifeline = &on_lifeline[events[e].lifeline];
                let local = local_index[e].checked_sub(1).map(|k| lifeline[k]);
                local.into_iter().chain(senders[e]).collect()
            })
            .collect();
        let past = (0..events.len()).map(|e| reachable(&preds, e)).collect();
        Ok(Execution {
            var_types,
            timed,
            events,
            stores,
            on_lifeline,
            local_index,
            past,
        })
    }

    /// The events, in the linearization order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The number of lifelines.
    pub fn lifeline_count(&self) -> usize {
        self.on_lifeline.len()
    }

    /// `a <= b` in the causal order (reflexive).
    pub fn precedes_or_equals(&self, a: usize, b: usize) -> bool {
        self.past[b][a]
    }

    /// Neither `a <= b` nor `b <= a`.
    pub fn concurrent(&self, a: usize, b: usize) -> bool {
        !self.precedes_or_equals(a, b) && !self.precedes_or_equals(b, a)
    }

    /// The causal past of `e` (including `e`), in linearization order.
    pub fn causal_past(&self, e: usize) -> Vec<usize> {
        (0..self.events.len())
            .filter(|&f| self.past[e][f])
            .collect()
    }

    /// The store of `e`'s lifeline after `e`.
    pub fn store(&self, e: usize) -> &[Option<Value>] {
        &self.stores[e]
    }

    /// The events of `lifeline` in local order.
    pub fn lifeline_events(&self, lifeline: usize) -> &[usize] {
        &self.on_lifeline[lifeline]
    }

    /// The position of `e` in its lifeline's local order (0 for its first event).
    pub fn local_index(&self, e: usize) -> usize {
        self.local_index[e]
    }

    /// The previous event of `e`'s lifeline, if any.
    pub fn previous_local(&self, e: usize) -> Option<usize> {
        let k = self.local_index[e].checked_sub(1)?;
        Some(self.on_lifeline[self.events[e].lifeline][k])
    }

    /// The latest `lifeline`-event in the causal past of `e` (`e` itself if it is
    /// on `lifeline`). Events of one lifeline are totally ordered, so the causally
    /// maximal visible one is the last visible one in local order.
    pub fn latest_visible(&self, lifeline: usize, e: usize) -> Option<usize> {
        self.on_lifeline[lifeline]
            .iter()
            .rev()
            .copied()
            .find(|&f| self.precedes_or_equals(f, e))
    }

    /// The messages sent but never received, in send order.
    pub fn in_transit(&self) -> Vec<MsgId> {
        let received: Vec<MsgId> = self
            .events
            .iter()
            .filter_map(|ev| match ev.kind {
                EventKind::Recv { msg } => Some(msg),
                _ => None,
            })
            .collect();
        self.events
            .iter()
            .filter_map(|ev| match ev.kind {
                EventKind::Send { msg, .. } if !received.contains(&msg) => Some(msg),
                _ => None,
            })
            .collect()
    }

    /// The same MSC linearized as `order` (`order[k]` is the old index of the new
    /// `k`-th event), which must be a linear extension of the causal order.
    pub fn reordered(&self, order: &[usize]) -> Result<Execution, MscError> {
        let n = self.events.len();
        let mut seen = vec![false; n];
        for &e in order {
            if e >= n || std::mem::replace(&mut seen[e], true) {
                return Err(MscError::NotALinearExtension);
            }
        }
        let mut position = vec![0; n];
        for (k, &e) in order.iter().enumerate() {
            position[e] = k;
        }
        let respects =
            |a: usize, b: usize| !self.precedes_or_equals(a, b) || position[a] <= position[b];
        if order.len() != n || !(0..n).all(|a| (0..n).all(|b| respects(a, b))) {
            return Err(MscError::NotALinearExtension);
        }
        let events = order.iter().map(|&e| self.events[e].clone()).collect();
        Execution::build(self.var_types.clone(), self.timed, events)
    }

    /// The sub-MSC of the causal past of `e` (a causally closed prefix), and the
    /// index `e` has in it.
    pub fn restricted_to_past(&self, e: usize) -> (Execution, usize) {
        let kept = self.causal_past(e);
        let events = kept.iter().map(|&f| self.events[f].clone()).collect();
        let restricted = Execution::build(self.var_types.clone(), self.timed, events)
            .expect("a causally closed subset of a valid MSC is a valid MSC");
        (restricted, kept.len() - 1)
    }

    /// A linear extension of the causal order built by repeatedly taking one of
    /// the events whose causal predecessors are all taken: the `k`-th time,
    /// `pick(k, n)` chooses among the `n` candidates (taken modulo `n`).
    pub fn linear_extension(&self, mut pick: impl FnMut(usize, usize) -> usize) -> Vec<usize> {
        let n = self.events.len();
        let mut taken = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for k in 0..n {
            let ready: Vec<usize> = (0..n)
                .filter(|&e| !taken[e] && (0..n).all(|f| f == e || taken[f] || !self.past[e][f]))
                .collect();
            let e = ready[pick(k, ready.len()) % ready.len()];
            taken[e] = true;
            order.push(e);
        }
        order
    }
}

/// Checks lifelines, variables and message matching; returns each event's
/// matching send (for receives).
fn match_messages(var_types: &[Vec<Ty>], events: &[Event]) -> Result<Vec<Option<usize>>, MscError> {
    // (message id, send event, receiver, received yet) per message sent so far.
    let mut sent: Vec<(MsgId, usize, usize, bool)> = Vec::new();
    let mut senders = Vec::with_capacity(events.len());
    for (e, event) in events.iter().enumerate() {
        let types = var_types
            .get(event.lifeline)
            .ok_or(MscError::UnknownLifeline { event: e })?;
        for &(var, value) in &event.changes {
            let ty = types.get(var).ok_or(MscError::UnknownVar { event: e })?;
            if !has_type(value, *ty) {
                return Err(MscError::WrongType { event: e });
            }
        }
        senders.push(match event.kind {
            EventKind::Send { to, msg } => {
                if to >= var_types.len() {
                    return Err(MscError::UnknownLifeline { event: e });
                }
                if sent.iter().any(|s| s.0 == msg) {
                    return Err(MscError::DuplicateSend { event: e });
                }
                sent.push((msg, e, to, false));
                None
            }
            EventKind::Recv { msg } => {
                let entry = sent
                    .iter_mut()
                    .find(|s| s.0 == msg)
                    .ok_or(MscError::UnknownMsg { event: e })?;
                if entry.2 != event.lifeline {
                    return Err(MscError::WrongReceiver { event: e });
                }
                if std::mem::replace(&mut entry.3, true) {
                    return Err(MscError::AlreadyReceived { event: e });
                }
                Some(entry.1)
            }
            EventKind::Act | EventKind::Choice => None,
        });
    }
    Ok(senders)
}

fn has_type(value: Value, ty: Ty) -> bool {
    matches!(
        (value, ty),
        (Value::Bool(_), Ty::Bool)
            | (Value::Int(_), Ty::Int)
            | (Value::Float(_), Ty::Float)
            | (Value::Enum(_), Ty::Enum(_))
    )
}

/// The events reachable backwards from `e` over `preds`, `e` included, as a
/// membership vector (depth-first search).
fn reachable(preds: &[Vec<usize>], e: usize) -> Vec<bool> {
    let mut seen = vec![false; preds.len()];
    let mut stack = vec![e];
    while let Some(f) = stack.pop() {
        if !std::mem::replace(&mut seen[f], true) {
            stack.extend(&preds[f]);
        }
    }
    seen
}
