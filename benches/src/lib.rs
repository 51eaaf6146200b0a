//! Benchmarks of generated monitors against hand-written ones (the limit), the
//! interpreter and, for future-time properties, formula progression, on the
//! standard trace of `shared/bench` and a synthetic IPC-Trucks plan; and
//! Causal Past Logic lifeline monitors and their stamps ([`cpl`]), and the
//! trace readers on plain lines and on log records ([`records`]): see
//! `docs/benchmarks.md` for the results and `benches/*.rs` for the runs.

pub mod cpl;
pub mod generated;
pub mod hand;
pub mod hundred;
pub mod interpreted;
pub mod population;
pub mod progression;
pub mod protocol;
pub mod records;
pub mod response;
pub mod timed;
pub mod trace;
pub mod trucks;
pub mod windows;

use trace::{Event, ALARM, P, Q, R, REQUEST, RESET, S, T};

/// The spec `source` (the file `name` of `specs/`) compiled to tables. Panics
/// with the rendered diagnostics if it does not compile, which the build
/// script (generating code from the same file) rules out.
pub fn compile_spec(name: &str, source: &str) -> hindsight_compiler::Compiled {
    hindsight_compiler::compile(source)
        .unwrap_or_else(|d| panic!("{}", hindsight_compiler::diag::render(name, source, &d)))
}

/// A monitor of one benchmark spec, fed the standard trace one event at a time.
pub trait EventMonitor {
    /// Consumes one event; bit `k` of the result is whether property `k` holds.
    fn step(&mut self, event: Event) -> u8;
}

/// The trace bits the inputs of monitor `p1` read, in input order.
pub const P1_INPUTS: &[Event] = &[REQUEST, RESET, ALARM];
/// The trace bits the inputs of monitor `p2` read, in input order.
pub const P2_INPUTS: &[Event] = &[P, Q, R, S, T];
/// The trace bits the inputs `a b c d` of monitor `pt2` read.
pub const PT2_INPUTS: &[Event] = &[P, Q, R, S];

/// Steps `monitor` through `trace`: for properties 0 and 1, at how many steps each held.
#[inline]
pub fn count_true<M: EventMonitor>(monitor: &mut M, trace: &[Event]) -> [usize; 2] {
    let mut counts = [0; 2];
    for &event in trace {
        let bits = monitor.step(event);
        counts[0] += usize::from(bits & 1);
        counts[1] += usize::from(bits >> 1 & 1);
    }
    counts
}
