//! The `hindsight` command as a library: trace decoding and verdict output are
//! reusable by other front ends (e.g. generated standalone monitors), and the
//! `check` command runs a spec's monitor over a JSON Lines trace.

pub mod check;
pub mod compile;
pub mod json;
pub mod output;
pub mod report;
pub mod trace;
