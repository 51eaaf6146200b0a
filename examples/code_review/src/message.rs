//! What travels between actors: a payload and the sender's stamp as bytes,
//! the way it would sit in a real transport's message header.

use crate::lifeline::Lifeline;
use crate::policy::Decision;
use crate::review::Stamp;
use crate::Status;
use hindsight_runtime::stamp::StampError;
use std::fmt;

/// What a message says. The Committer's decisions never read a report's
/// fields: they come from its guards; the fields are for the transcripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Orchestrator → reviewer: review this candidate.
    Assign {
        /// The candidate.
        cand: i64,
    },
    /// Orchestrator → Committer: this candidate is proposed for merging.
    Proposal {
        /// The candidate.
        cand: i64,
    },
    /// Reviewer → Committer: the reviewer's result for its candidate.
    Report {
        /// The candidate the reviewer was working on.
        cand: i64,
        /// Its result.
        status: Status,
    },
    /// Committer → Orchestrator: the decision on a proposal.
    Verdict {
        /// The proposed candidate.
        cand: i64,
        /// What the Committer decided.
        decision: Decision,
    },
}

impl fmt::Display for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Payload::Assign { cand } => write!(f, "review candidate {cand}"),
            Payload::Proposal { cand } => write!(f, "merge proposal for {cand}"),
            Payload::Report { cand, status } => write!(f, "report: {cand} {status:?}"),
            Payload::Verdict { cand, decision } => write!(f, "decision on {cand}: {decision}"),
        }
    }
}

/// A stamp encoded for the wire: [`Stamp::BYTES`] bytes of room, `len` used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireStamp {
    bytes: [u8; Stamp::BYTES],
    len: usize,
}

impl WireStamp {
    /// Encodes `stamp`.
    pub fn encode(stamp: &Stamp) -> Result<WireStamp, StampError> {
        let mut bytes = [0; Stamp::BYTES];
        let len = stamp.to_bytes(&mut bytes)?;
        Ok(WireStamp { bytes, len })
    }

    /// Decodes the stamp; every malformed, foreign or damaged encoding is an error.
    pub fn decode(&self) -> Result<Stamp, StampError> {
        Stamp::from_bytes(self.as_bytes())
    }

    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.get(..self.len).unwrap_or(&[])
    }

    /// Damages the encoding in transit: the spec fingerprint's first byte
    /// (right after the version byte) is flipped.
    pub fn damage(&mut self) {
        if let Some(byte) = self.bytes.get_mut(1) {
            *byte ^= 0xff;
        }
    }
}

/// One message: who sends it to whom, what it says, and the sender's stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The sender.
    pub from: Lifeline,
    /// The receiver.
    pub to: Lifeline,
    /// What it says.
    pub payload: Payload,
    /// The sender's stamp after the send event.
    pub stamp: WireStamp,
}
