//! The `hindsight` command as a library: `check` runs a spec's monitor over a
//! JSON Lines trace through the interpreter (explaining verdict changes on
//! request), or a system's lifeline monitors over a system trace; `explain`
//! reports what a spec compiles to; `build` turns a monitor into a standalone
//! binary that does the same with generated code; `sample` prints lines a
//! trace of a block could hold. The trace and verdict I/O
//! both share lives in `hindsight-trace`.

pub mod audit;
pub mod check;
pub mod compile;
pub mod draw;
pub mod explain;
pub mod fmt;
pub mod learn;
pub mod partitions;
pub mod project;
pub mod report;
pub mod sample;
pub mod schema;
pub mod standalone;
pub mod why;
