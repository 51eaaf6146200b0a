//! The actors: one thread each, owning its lifeline's generated monitor. An
//! actor receives [`Input`]s on its mailbox and answers each with a
//! [`Report`] of what it did, in order.

mod committer;
mod orchestrator;
mod reviewer;

pub use committer::Committer;
pub use orchestrator::{Orchestrator, OrchestratorTask};
pub use reviewer::Reviewer;

use crate::event::{Changes, Event, EventKind, MsgId, Refusal};
use crate::lifeline::Lifeline;
use crate::message::{Envelope, Payload, WireStamp};
use crate::review::Stamp;
use hindsight_runtime::stamp::StampError;
use std::sync::mpsc::{Receiver, Sender};
use std::thread::{self, JoinHandle};

/// What an actor is asked to do.
#[derive(Clone, Copy, Debug)]
pub enum Input<T> {
    /// Its next scripted task.
    Task(T),
    /// A message delivered to it.
    Message(MsgId, Envelope),
}

/// One thing an actor did, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A non-send event.
    Event(Event),
    /// A send event: the message (numbered by the network).
    Sent(Envelope),
    /// Something it refused.
    Refused(Refusal),
}

/// An actor's answer to its `seq`-th input.
#[derive(Debug)]
pub struct Report {
    /// The actor.
    pub lifeline: Lifeline,
    /// Which input (0 for its first).
    pub seq: usize,
    /// What it did.
    pub effects: Vec<Effect>,
}

/// The behaviour of one lifeline.
pub trait Actor: Send + 'static {
    /// The scripted tasks it takes.
    type Task: Send + 'static;

    /// Its lifeline.
    fn lifeline(&self) -> Lifeline;

    /// Does `task`, pushing what it did.
    fn task(&mut self, task: Self::Task, out: &mut Vec<Effect>);

    /// Receives a message, pushing what it did; an error means the monitor
    /// refused the stamp and nothing happened.
    fn message(&mut self, got: Delivery<'_>, out: &mut Vec<Effect>) -> Result<(), StampError>;
}

/// A message delivered to an actor, its stamp decoded.
#[derive(Clone, Copy, Debug)]
pub struct Delivery<'a> {
    /// The message.
    pub msg: MsgId,
    /// What it says.
    pub payload: Payload,
    /// Its decoded stamp.
    pub stamp: &'a Stamp,
}

impl Delivery<'_> {
    /// The effect of the receive event of this message on `lifeline` with `changes`.
    fn received(&self, lifeline: Lifeline, changes: Changes) -> Effect {
        Effect::Event(Event {
            lifeline,
            kind: EventKind::Recv { msg: self.msg },
            changes,
        })
    }
}

/// Runs `actor` on its own thread until its mailbox closes (or the network
/// stops listening); returns the mailbox and the thread.
pub fn spawn<A: Actor>(
    mut actor: A,
    reports: Sender<Report>,
) -> (Sender<Input<A::Task>>, JoinHandle<()>) {
    let (mailbox, inbox) = std::sync::mpsc::channel();
    let handle = thread::spawn(move || serve(&mut actor, &inbox, &reports));
    (mailbox, handle)
}

fn serve<A: Actor>(actor: &mut A, inbox: &Receiver<Input<A::Task>>, reports: &Sender<Report>) {
    for (seq, input) in inbox.iter().enumerate() {
        let mut effects = Vec::new();
        match input {
            Input::Task(task) => actor.task(task, &mut effects),
            Input::Message(msg, envelope) => {
                let received = envelope.stamp.decode().and_then(|stamp| {
                    let payload = envelope.payload;
                    actor.message(
                        Delivery {
                            msg,
                            payload,
                            stamp: &stamp,
                        },
                        &mut effects,
                    )
                });
                if let Err(error) = received {
                    effects.push(Effect::Refused(Refusal::Rejected { msg, error }));
                }
            }
        }
        let report = Report {
            lifeline: actor.lifeline(),
            seq,
            effects,
        };
        if reports.send(report).is_err() {
            return;
        }
    }
}

/// The effect of a local action with `changes`.
fn acted(lifeline: Lifeline, changes: Changes) -> Effect {
    Effect::Event(Event {
        lifeline,
        kind: EventKind::Act,
        changes,
    })
}

/// The effect of a send of `payload` from `from` to `to`, given the monitor's
/// answer to the send event.
fn sent(
    from: Lifeline,
    to: Lifeline,
    payload: Payload,
    stamp: Result<Stamp, StampError>,
) -> Effect {
    match stamp.and_then(|stamp| WireStamp::encode(&stamp)) {
        Ok(stamp) => Effect::Sent(Envelope {
            from,
            to,
            payload,
            stamp,
        }),
        Err(error) => Effect::Refused(Refusal::SendFailed(error)),
    }
}
