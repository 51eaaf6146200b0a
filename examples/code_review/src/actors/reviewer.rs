//! The two reviewers, TestRunner and Security: one behaviour over either
//! lifeline's generated monitor. An assignment resets `status` to `pending`
//! for the new candidate; a check records its scripted outcome and reports
//! it to the Committer.

use super::{acted, sent, Actor, Delivery, Effect};
use crate::event::{Changes, Refusal};
use crate::lifeline::{self, Lifeline};
use crate::message::Payload;
use crate::review::{self, Stamp};
use crate::Status;
use hindsight_runtime::stamp::StampError;

/// The generated monitor of a reviewer lifeline, as the reviewer uses it.
trait ReviewerMonitor: Send + 'static {
    fn recv(&mut self, stamp: &Stamp, changes: Changes) -> Result<(), StampError>;
    fn act(&mut self, changes: Changes);
    fn send(&mut self) -> Result<Stamp, StampError>;
    fn cand(&self) -> Option<i64>;
}

/// Implements [`ReviewerMonitor`] for the monitor of lifeline module `$l`.
macro_rules! reviewer_monitor {
    ($l:ident) => {
        impl ReviewerMonitor for review::$l::Monitor {
            fn recv(&mut self, stamp: &Stamp, c: Changes) -> Result<(), StampError> {
                self.on_recv(
                    stamp,
                    &review::$l::Changes {
                        cand: c.cand,
                        status: c.status,
                    },
                )
            }
            fn act(&mut self, c: Changes) {
                self.on_act(&review::$l::Changes {
                    cand: c.cand,
                    status: c.status,
                })
            }
            fn send(&mut self) -> Result<Stamp, StampError> {
                self.on_send(&review::$l::Changes::default())
            }
            fn cand(&self) -> Option<i64> {
                self.store().cand
            }
        }
    };
}

reviewer_monitor!(TestRunner);
reviewer_monitor!(Security);

/// A reviewer actor.
pub struct Reviewer {
    me: Lifeline,
    monitor: Box<dyn ReviewerMonitor>,
}

impl Reviewer {
    /// The reviewer `who` before its first event.
    pub fn new(who: lifeline::Reviewer) -> Self {
        let monitor: Box<dyn ReviewerMonitor> = match who {
            lifeline::Reviewer::TestRunner => Box::new(review::TestRunner::Monitor::new()),
            lifeline::Reviewer::Security => Box::new(review::Security::Monitor::new()),
        };
        Reviewer {
            me: who.lifeline(),
            monitor,
        }
    }
}

impl Actor for Reviewer {
    /// A check with this outcome.
    type Task = Status;

    fn lifeline(&self) -> Lifeline {
        self.me
    }

    fn task(&mut self, outcome: Status, out: &mut Vec<Effect>) {
        let Some(cand) = self.monitor.cand() else {
            out.push(Effect::Refused(Refusal::Skipped("no candidate assigned")));
            return;
        };
        let changes = Changes {
            cand: None,
            status: Some(outcome),
        };
        self.monitor.act(changes);
        out.push(acted(self.me, changes));
        let stamp = self.monitor.send();
        let report = Payload::Report {
            cand,
            status: outcome,
        };
        out.push(sent(self.me, Lifeline::Committer, report, stamp));
    }

    fn message(&mut self, got: Delivery<'_>, out: &mut Vec<Effect>) -> Result<(), StampError> {
        let changes = match got.payload {
            Payload::Assign { cand } => Changes {
                cand: Some(cand),
                status: Some(Status::pending),
            },
            _ => Changes::default(),
        };
        self.monitor.recv(got.stamp, changes)?;
        out.push(got.received(self.me, changes));
        Ok(())
    }
}
