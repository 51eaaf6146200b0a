//! The network between the actors, and the harness that drives them: it
//! holds every message in transit until a step releases it, hands scripted
//! tasks to the actors, and records the run.
//!
//! Steps come in rounds. The steps of one round go to the actors at once and
//! run concurrently; the network waits for all of them before the next
//! round. A round can create no causal edge between two actors (a message
//! sent in a round is delivered in a later one), so recording the round's
//! events actor by actor, in declaration order, is a linearization of the
//! run — and the same script always gives the same run.

use crate::actors::{
    self, Committer, Effect, Input, Orchestrator, OrchestratorTask, Report, Reviewer,
};
use crate::event::{Event, EventKind, MsgId, Note};
use crate::lifeline::{self, Lifeline};
use crate::message::Envelope;
use crate::Status;
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long the network waits for an actor's answer before giving it up.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// One step of a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A task of the Orchestrator.
    Orchestrate(OrchestratorTask),
    /// A reviewer's check, with its outcome.
    Check(lifeline::Reviewer, Status),
    /// Release message `k` now: deliver it to its receiver.
    Deliver(MsgId),
    /// Damage the stamp of message `k`, still in transit (not an event).
    Damage(MsgId),
}

/// Why a step could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The message was never sent, or is no longer in transit.
    NotInTransit(MsgId),
    /// An actor's thread is gone or stopped answering.
    ActorLost(Lifeline),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NotInTransit(msg) => write!(f, "message m{msg} is not in transit"),
            RunError::ActorLost(l) => write!(f, "actor {l} stopped answering"),
        }
    }
}

impl std::error::Error for RunError {}

/// Everything a run recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    /// The events, in a linearization of the run.
    pub events: Vec<Event>,
    /// Every message sent, by number.
    pub messages: Vec<Envelope>,
    /// What the actors refused, in order.
    pub notes: Vec<Note>,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
}

/// One round of a run: its steps and where its events start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The steps handed out.
    pub steps: Vec<Step>,
    /// The index in [`Log::events`] of the round's first event.
    pub first_event: usize,
}

impl Log {
    /// The messages sent among the first `events` events and not received among them.
    pub fn in_transit_after(&self, events: usize) -> Vec<MsgId> {
        let mut open = BTreeMap::new();
        for event in self.events.iter().take(events) {
            match event.kind {
                EventKind::Send { msg, .. } => {
                    open.insert(msg, ());
                }
                EventKind::Recv { msg } => {
                    open.remove(&msg);
                }
                EventKind::Act | EventKind::Choice { .. } => {}
            }
        }
        open.into_keys().collect()
    }

    /// The message numbered `msg`.
    pub fn message(&self, msg: MsgId) -> Option<&Envelope> {
        self.messages.get(usize::try_from(msg).ok()?)
    }
}

/// The running actors and the messages between them.
pub struct Network {
    orchestrator: Sender<Input<OrchestratorTask>>,
    test_runner: Sender<Input<Status>>,
    security: Sender<Input<Status>>,
    committer: Sender<Input<Infallible>>,
    reports: Receiver<Report>,
    threads: Vec<JoinHandle<()>>,
    /// Sent, not yet delivered (nor dropped by a receiver).
    in_transit: BTreeMap<MsgId, Envelope>,
    log: Log,
}

impl Network {
    /// Starts the four actors, each before its first event.
    pub fn start() -> Network {
        let (report, reports) = std::sync::mpsc::channel();
        let (orchestrator, o) = actors::spawn(Orchestrator::new(), report.clone());
        let (test_runner, t) = actors::spawn(
            Reviewer::new(lifeline::Reviewer::TestRunner),
            report.clone(),
        );
        let (security, s) =
            actors::spawn(Reviewer::new(lifeline::Reviewer::Security), report.clone());
        let (committer, c) = actors::spawn(Committer::new(), report);
        Network {
            orchestrator,
            test_runner,
            security,
            committer,
            reports,
            threads: vec![o, t, s, c],
            in_transit: BTreeMap::new(),
            log: Log::default(),
        }
    }

    /// The record so far.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The messages in transit, by number.
    pub fn in_transit(&self) -> &BTreeMap<MsgId, Envelope> {
        &self.in_transit
    }

    /// Runs one round: hands out `steps` (in order per actor), waits for
    /// every answer and records the round. A step naming a message not in
    /// transit fails the round before anything is handed out; after
    /// `ActorLost` the network is unusable.
    pub fn round(&mut self, steps: &[Step]) -> Result<(), RunError> {
        self.check_messages(steps)?;
        let mut asked = 0;
        for &step in steps {
            match step {
                Step::Damage(msg) => {
                    let envelope = self
                        .in_transit
                        .get_mut(&msg)
                        .ok_or(RunError::NotInTransit(msg))?;
                    envelope.stamp.damage();
                }
                _ => {
                    self.hand_out(step)?;
                    asked += 1;
                }
            }
        }
        let mut answers = Vec::with_capacity(asked);
        for _ in 0..asked {
            match self.reports.recv_timeout(ANSWER_TIMEOUT) {
                Ok(report) => answers.push(report),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return Err(RunError::ActorLost(self.silent_actor(&answers, steps)));
                }
            }
        }
        answers.sort_by_key(|report| (report.lifeline, report.seq));
        self.log.rounds.push(Round {
            steps: steps.to_vec(),
            first_event: self.log.events.len(),
        });
        for report in answers {
            self.record(report);
        }
        Ok(())
    }

    /// Stops the actors and returns the record.
    pub fn finish(self) -> Log {
        let Network {
            orchestrator,
            test_runner,
            security,
            committer,
            threads,
            log,
            ..
        } = self;
        drop((orchestrator, test_runner, security, committer));
        for thread in threads {
            // An actor that panicked has already lost its answers, which the
            // round that asked for them reported.
            let _ = thread.join();
        }
        log
    }

    /// Every message a step names is in transit, and not delivered by an earlier step.
    fn check_messages(&self, steps: &[Step]) -> Result<(), RunError> {
        let mut delivered = Vec::new();
        for step in steps {
            if let Step::Deliver(msg) | Step::Damage(msg) = *step {
                if !self.in_transit.contains_key(&msg) || delivered.contains(&msg) {
                    return Err(RunError::NotInTransit(msg));
                }
                if matches!(step, Step::Deliver(_)) {
                    delivered.push(msg);
                }
            }
        }
        Ok(())
    }

    /// Sends `step` to the actor it concerns.
    fn hand_out(&mut self, step: Step) -> Result<(), RunError> {
        let sent = match step {
            Step::Orchestrate(task) => (
                Lifeline::Orchestrator,
                self.orchestrator.send(Input::Task(task)).is_ok(),
            ),
            Step::Check(reviewer, outcome) => {
                let mailbox = match reviewer {
                    lifeline::Reviewer::TestRunner => &self.test_runner,
                    lifeline::Reviewer::Security => &self.security,
                };
                (
                    reviewer.lifeline(),
                    mailbox.send(Input::Task(outcome)).is_ok(),
                )
            }
            Step::Deliver(msg) => {
                let envelope = self
                    .in_transit
                    .remove(&msg)
                    .ok_or(RunError::NotInTransit(msg))?;
                let input = (msg, envelope);
                let ok = match envelope.to {
                    Lifeline::Orchestrator => deliver(&self.orchestrator, input),
                    Lifeline::TestRunner => deliver(&self.test_runner, input),
                    Lifeline::Security => deliver(&self.security, input),
                    Lifeline::Committer => deliver(&self.committer, input),
                };
                (envelope.to, ok)
            }
            Step::Damage(_) => return Ok(()),
        };
        match sent {
            (_, true) => Ok(()),
            (lifeline, false) => Err(RunError::ActorLost(lifeline)),
        }
    }

    /// An actor asked in this round that has not answered (best effort, for the error).
    fn silent_actor(&self, answers: &[Report], steps: &[Step]) -> Lifeline {
        let mut asked = steps.iter().filter_map(|step| match step {
            Step::Orchestrate(_) => Some(Lifeline::Orchestrator),
            Step::Check(reviewer, _) => Some(reviewer.lifeline()),
            Step::Deliver(msg) => self.log.message(*msg).map(|e| e.to),
            Step::Damage(_) => None,
        });
        asked
            .find(|l| !answers.iter().any(|a| a.lifeline == *l))
            .unwrap_or(Lifeline::Orchestrator)
    }

    /// Appends one answer to the log, numbering the messages it sent.
    fn record(&mut self, report: Report) {
        for effect in report.effects {
            match effect {
                Effect::Event(event) => self.log.events.push(event),
                Effect::Sent(envelope) => {
                    let msg = MsgId::try_from(self.log.messages.len()).unwrap_or(MsgId::MAX);
                    self.log.messages.push(envelope);
                    self.in_transit.insert(msg, envelope);
                    self.log.events.push(Event {
                        lifeline: envelope.from,
                        kind: EventKind::Send {
                            to: envelope.to,
                            msg,
                        },
                        changes: Default::default(),
                    });
                }
                Effect::Refused(refusal) => self.log.notes.push(Note {
                    round: self.log.rounds.len().saturating_sub(1),
                    after: self.log.events.len(),
                    lifeline: report.lifeline,
                    refusal,
                }),
            }
        }
    }
}

/// Puts message `msg` into `mailbox`; false if the actor is gone.
fn deliver<T>(mailbox: &Sender<Input<T>>, (msg, envelope): (MsgId, Envelope)) -> bool {
    mailbox.send(Input::Message(msg, envelope)).is_ok()
}
