//! The Committer: a proposal opens a decision; at the proposal's receipt
//! and at every report received while it is open, the Committer makes a
//! choice by its guards ([`crate::policy::decide`]) and tells the
//! Orchestrator. Merge and block close the proposal; re-run keeps it open.

use super::{sent, Actor, Delivery, Effect};
use crate::event::{Changes, Event, EventKind};
use crate::lifeline::Lifeline;
use crate::message::Payload;
use crate::policy::decide;
use crate::review::Committer as lifeline;
use hindsight_runtime::stamp::StampError;
use std::convert::Infallible;

const ME: Lifeline = Lifeline::Committer;

/// The Committer actor.
#[derive(Debug, Default)]
pub struct Committer {
    monitor: lifeline::Monitor,
    /// The candidate of the open proposal.
    open: Option<i64>,
}

impl Committer {
    /// Before its first event, no proposal open.
    pub fn new() -> Self {
        Self::default()
    }

    /// A choice on the open proposal `cand`, then the decision sent to the Orchestrator.
    fn choose(&mut self, cand: i64, out: &mut Vec<Effect>) {
        let guards = self.monitor.on_choice(&lifeline::Changes::default());
        let decision = decide(guards);
        out.push(Effect::Event(Event {
            lifeline: ME,
            kind: EventKind::Choice { guards, decision },
            changes: Changes::default(),
        }));
        if decision.is_final() {
            self.open = None;
        }
        let stamp = self.monitor.on_send(&lifeline::Changes::default());
        let verdict = Payload::Verdict { cand, decision };
        out.push(sent(ME, Lifeline::Orchestrator, verdict, stamp));
    }
}

impl Actor for Committer {
    /// The Committer only reacts to messages.
    type Task = Infallible;

    fn lifeline(&self) -> Lifeline {
        ME
    }

    fn task(&mut self, task: Infallible, _: &mut Vec<Effect>) {
        match task {}
    }

    fn message(&mut self, got: Delivery<'_>, out: &mut Vec<Effect>) -> Result<(), StampError> {
        let proposed = match got.payload {
            Payload::Proposal { cand } => Some(cand),
            _ => None,
        };
        self.monitor
            .on_recv(got.stamp, &lifeline::Changes { cand: proposed })?;
        out.push(got.received(
            ME,
            Changes {
                cand: proposed,
                status: None,
            },
        ));
        self.open = proposed.or(self.open);
        if let Some(cand) = self.open {
            self.choose(cand, out);
        }
        Ok(())
    }
}
