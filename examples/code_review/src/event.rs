//! The recorded run: every event of every lifeline in one linearization,
//! with the store changes it made — what the CPL oracle and the JSON Lines
//! trace are built from.

use crate::lifeline::Lifeline;
use crate::policy::Decision;
use crate::review::Committer::Guards;
use crate::Status;
use hindsight_runtime::stamp::StampError;

/// A message's number: messages are numbered in the order they are sent.
pub type MsgId = u32;

/// What an event assigns, over the variables all lifelines share by name
/// (`cand` everywhere, `status` on the reviewers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// A new `cand`.
    pub cand: Option<i64>,
    /// A new `status`.
    pub status: Option<Status>,
}

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// Sends message `msg` to `to`.
    Send {
        /// The receiver.
        to: Lifeline,
        /// The message.
        msg: MsgId,
    },
    /// Receives message `msg`.
    Recv {
        /// The message.
        msg: MsgId,
    },
    /// A local action.
    Act,
    /// A Committer decision: its guards and the branch taken.
    Choice {
        /// The guards at the choice.
        guards: Guards,
        /// The branch the policy took.
        decision: Decision,
    },
}

/// One event of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its lifeline.
    pub lifeline: Lifeline,
    /// What it does.
    pub kind: EventKind,
    /// What it assigns.
    pub changes: Changes,
}

/// Something an actor did not turn into an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A message whose stamp was refused: it is dropped unprocessed (in the
    /// recorded execution it stays in transit).
    Rejected {
        /// The message.
        msg: MsgId,
        /// Why.
        error: StampError,
    },
    /// A task the actor cannot do now (say, a check with no candidate assigned).
    Skipped(&'static str),
    /// The monitor refused a send (its clock is saturated); nothing was sent.
    SendFailed(StampError),
}

/// A refusal, with where it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    /// The round it happened in.
    pub round: usize,
    /// How many events were recorded before it.
    pub after: usize,
    /// The lifeline that refused.
    pub lifeline: Lifeline,
    /// What it refused.
    pub refusal: Refusal,
}
