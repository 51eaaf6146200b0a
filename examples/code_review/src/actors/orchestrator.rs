//! The Orchestrator: assigns candidates to both reviewers, proposes the
//! current one to the Committer, and re-assigns it when the Committer asks
//! for a re-run — unless it is no longer the current candidate or the
//! Committer has already decided it (a late re-run request).

use super::{acted, sent, Actor, Delivery, Effect};
use crate::event::{Changes, Refusal};
use crate::lifeline::{Lifeline, Reviewer};
use crate::message::Payload;
use crate::review::Orchestrator as lifeline;
use hindsight_runtime::stamp::StampError;

const ME: Lifeline = Lifeline::Orchestrator;

/// A scripted task of the Orchestrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrchestratorTask {
    /// Makes `cand` the current candidate (an action) and sends it to
    /// TestRunner, then Security.
    Assign(i64),
    /// Sends the current candidate to the Committer as a merge proposal.
    Propose,
}

/// The Orchestrator actor.
#[derive(Debug, Default)]
pub struct Orchestrator {
    monitor: lifeline::Monitor,
    /// The candidates the Committer has merged or blocked.
    decided: Vec<i64>,
}

impl Orchestrator {
    /// Before its first event.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sends the assignment of `cand` to both reviewers.
    fn assign_to_reviewers(&mut self, cand: i64, out: &mut Vec<Effect>) {
        for reviewer in Reviewer::ALL {
            let stamp = self.monitor.on_send(&lifeline::Changes::default());
            out.push(sent(
                ME,
                reviewer.lifeline(),
                Payload::Assign { cand },
                stamp,
            ));
        }
    }
}

impl Actor for Orchestrator {
    type Task = OrchestratorTask;

    fn lifeline(&self) -> Lifeline {
        ME
    }

    fn task(&mut self, task: OrchestratorTask, out: &mut Vec<Effect>) {
        match task {
            OrchestratorTask::Assign(cand) => {
                self.monitor.on_act(&lifeline::Changes { cand: Some(cand) });
                out.push(acted(
                    ME,
                    Changes {
                        cand: Some(cand),
                        status: None,
                    },
                ));
                self.assign_to_reviewers(cand, out);
            }
            OrchestratorTask::Propose => match self.monitor.store().cand {
                Some(cand) => {
                    let stamp = self.monitor.on_send(&lifeline::Changes::default());
                    out.push(sent(
                        ME,
                        Lifeline::Committer,
                        Payload::Proposal { cand },
                        stamp,
                    ));
                }
                None => out.push(Effect::Refused(Refusal::Skipped("no candidate to propose"))),
            },
        }
    }

    fn message(&mut self, got: Delivery<'_>, out: &mut Vec<Effect>) -> Result<(), StampError> {
        self.monitor
            .on_recv(got.stamp, &lifeline::Changes::default())?;
        out.push(got.received(ME, Changes::default()));
        if let Payload::Verdict { cand, decision } = got.payload {
            if decision.is_final() {
                self.decided.push(cand);
            } else if self.monitor.store().cand == Some(cand) && !self.decided.contains(&cand) {
                self.assign_to_reviewers(cand, out);
            }
        }
        Ok(())
    }
}
