//! The CPL paper's code-review workflow (its section 2) as concurrent actors:
//! an Orchestrator, a TestRunner, a Security scanner and a Committer, each a
//! thread holding the lifeline monitor generated from `review.hind`, talking
//! only through messages that carry the sender's encoded stamp. The Committer
//! decides merge / block / re-run by the guards `may_merge` and
//! `failure_seen`, evaluated over what is causally visible to it.
//!
//! A [`network::Network`] stands between the actors: it holds every message
//! in transit and releases it when a script ([`scenarios`]) or a seeded
//! random schedule ([`random`]) says so, which makes every run reproducible.

pub mod actors;
pub mod event;
pub mod lifeline;
pub mod message;
pub mod network;
pub mod policy;
pub mod random;
pub mod scenarios;
pub mod transcript;

/// The monitors generated from `review.hind` by build.rs.
pub mod monitors {
    hindsight_runtime::include_monitors!("review");
}

pub use monitors::{review, Status};
