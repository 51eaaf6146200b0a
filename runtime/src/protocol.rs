//! The rules of a protocol's automaton, shared by the interpreter and
//! generated monitors: a protocol compiled by the compiler to states and a
//! transition table over its event types (docs/language.md, section 4e).
//!
//! - The central monitor keeps one state: [`Automaton::next`] per event of
//!   the protocol's types, [`VIOLATION`] once an event has no transition.
//! - A group's monitor keeps the set of states the protocol may be in
//!   given the events involving its lifelines: after each, every state the
//!   hidden events (those involving none of them) may reach
//!   ([`hidden_reach`], [`group_step`], [`set_verdict`]). The sets are bit
//!   sets of `words` words per set.
//!
//! Nothing here allocates: callers own every buffer.

use crate::Verdict;

/// No transition: the event leaves the protocol.
pub const VIOLATION: u32 = u32::MAX;

/// What an event of a protocol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    /// A message as one event (synchronous protocols).
    Interaction,
    /// A message sent (asynchronous protocols).
    Send,
    /// A message received (asynchronous protocols).
    Receive,
}

/// An event type of a protocol: a message's interaction, send or receipt
/// with a label between two lifelines (indices in declaration order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventDecl {
    /// Interaction, send or receipt.
    pub kind: EventKind,
    /// The sender.
    pub from: usize,
    /// The receiver.
    pub to: usize,
    /// The label.
    pub label: &'static str,
}

impl EventDecl {
    /// Whether the event involves lifeline `l`: sender and receiver of an
    /// interaction, the sender of a send, the receiver of a receipt.
    pub fn involves(&self, l: usize) -> bool {
        match self.kind {
            EventKind::Interaction => self.from == l || self.to == l,
            EventKind::Send => self.from == l,
            EventKind::Receive => self.to == l,
        }
    }
}

/// A protocol's automaton, as generated code holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Whether each message is one event (else a send and a receipt).
    pub synchronous: bool,
    /// The event types, sorted by kind, sender, receiver and label.
    pub events: &'static [EventDecl],
    /// Per state: whether the trace may end there.
    pub accepting: &'static [bool],
    /// The state before any event, or [`VIOLATION`].
    pub initial: u32,
    /// `transitions[state * events.len() + event]`: the next state or
    /// [`VIOLATION`].
    pub transitions: &'static [u32],
}

impl Automaton {
    /// The state after event type `event` in `state` ([`VIOLATION`] stays).
    #[inline]
    pub fn next(&self, state: u32, event: usize) -> u32 {
        next(self.transitions, self.events.len(), state, event)
    }

    /// The event type of a message's send (`send`) or receipt, if the
    /// protocol has it (a synchronous protocol's events are the sends).
    #[inline]
    pub fn message(&self, send: bool, from: usize, to: usize, label: &str) -> Option<usize> {
        let kind = match (self.synchronous, send) {
            (true, true) => EventKind::Interaction,
            (true, false) => return None,
            (false, true) => EventKind::Send,
            (false, false) => EventKind::Receive,
        };
        self.events
            .binary_search_by(|e| (e.kind, e.from, e.to, e.label).cmp(&(kind, from, to, label)))
            .ok()
    }

    /// The verdict in `state`: `false` after a violation, `true` where the
    /// trace may end, `?` where more events are needed.
    #[inline]
    pub fn verdict(&self, state: u32) -> Verdict {
        match self.accepting.get(state as usize) {
            None => Verdict::False,
            Some(true) => Verdict::True,
            Some(false) => Verdict::Unknown,
        }
    }

    /// The verdict if the trace ended in `state`.
    #[inline]
    pub fn end_verdict(&self, state: u32) -> Verdict {
        end_of(self.verdict(state))
    }
}

/// The state after `event` in `state` in a table of `events` event types
/// per state ([`VIOLATION`] stays, and so does an index out of range).
#[inline]
pub fn next(transitions: &[u32], events: usize, state: u32, event: usize) -> u32 {
    if state == VIOLATION || event >= events {
        return VIOLATION;
    }
    (state as usize)
        .checked_mul(events)
        .and_then(|row| row.checked_add(event))
        .and_then(|at| transitions.get(at))
        .copied()
        .unwrap_or(VIOLATION)
}

/// A transition table and its size: what the group rules read.
#[derive(Clone, Copy, Debug)]
pub struct Transitions<'a> {
    /// `table[state * events + event]`: the next state or [`VIOLATION`].
    pub table: &'a [u32],
    /// Event types per state.
    pub events: usize,
    /// States.
    pub states: usize,
}

/// `true` stays, anything else is `false`: a verdict at the end of a trace.
#[inline]
pub fn end_of(verdict: Verdict) -> Verdict {
    match verdict {
        Verdict::True => Verdict::True,
        _ => Verdict::False,
    }
}

#[inline]
fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

#[inline]
fn set_bit(bits: &mut [u64], i: usize) {
    if let Some(w) = bits.get_mut(i / 64) {
        *w |= 1 << (i % 64);
    }
}

/// Fills `reach` (a row of `words` words per state) with, per state, the
/// states reachable from it by the event types `visible` says are hidden
/// (`visible(event)` false), itself included. `stack` holds `states`
/// entries of scratch.
pub fn hidden_reach(
    transitions: Transitions<'_>,
    visible: &dyn Fn(usize) -> bool,
    words: usize,
    reach: &mut [u64],
    stack: &mut [u32],
) {
    let Transitions {
        table: transitions,
        events,
        states,
    } = transitions;
    reach.fill(0);
    for s in 0..states {
        let Some(row) = reach.get_mut(s * words..(s + 1) * words) else {
            return;
        };
        set_bit(row, s);
        let mut top = 0;
        if let Some(slot) = stack.get_mut(top) {
            *slot = s as u32;
            top += 1;
        }
        while top > 0 {
            top -= 1;
            let at = stack.get(top).copied().unwrap_or(VIOLATION);
            for e in (0..events).filter(|&e| !visible(e)) {
                let to = next(transitions, events, at, e);
                if to != VIOLATION && (to as usize) < states && !bit(row, to as usize) {
                    set_bit(row, to as usize);
                    if let Some(slot) = stack.get_mut(top) {
                        *slot = to;
                        top += 1;
                    }
                }
            }
        }
    }
}

/// The set before any event a group sees: what hidden events reach from
/// `initial` (empty if it is [`VIOLATION`]).
pub fn group_start(reach: &[u64], words: usize, initial: u32, out: &mut [u64]) {
    out.fill(0);
    add_row(reach, words, initial, out);
}

/// The set after `event` (one the group sees) from the set `from`.
#[inline]
pub fn group_step(
    transitions: Transitions<'_>,
    reach: &[u64],
    words: usize,
    from: &[u64],
    event: usize,
    out: &mut [u64],
) {
    out.fill(0);
    for s in members(from).take_while(|&s| s < transitions.states) {
        let to = next(transitions.table, transitions.events, s as u32, event);
        add_row(reach, words, to, out);
    }
}

/// The members of a bit set, in increasing order.
#[inline]
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        core::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + b
            })
        })
    })
}

/// Adds the states hidden events reach from `state` to `out`.
#[inline]
fn add_row(reach: &[u64], words: usize, state: u32, out: &mut [u64]) {
    if state == VIOLATION {
        return;
    }
    let at = state as usize * words;
    if let Some(row) = reach.get(at..at + words) {
        for (o, r) in out.iter_mut().zip(row) {
            *o |= r;
        }
    }
}

/// The verdict of a group's set: `false` if empty, `true` if a state of it
/// accepts, else `?`.
#[inline]
pub fn set_verdict(accepting: &[bool], set: &[u64]) -> Verdict {
    let mut any = false;
    for accepts in members(set).map_while(|s| accepting.get(s)) {
        if *accepts {
            return Verdict::True;
        }
        any = true;
    }
    if any {
        Verdict::Unknown
    } else {
        Verdict::False
    }
}
