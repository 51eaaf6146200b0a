//! P3, `G (request -> F grant)`, three ways: the generated LTL3 automaton, a
//! hand-written monitor (one pending flag) and formula progression.

use hindsight_runtime::Verdict;

use crate::progression::{Formula, Progression};
use crate::trace::{has, Event, GRANT, REQUEST};

hindsight_runtime::include_monitors!("response");

/// A monitor of P3 fed the standard trace's events.
pub trait ResponseMonitor {
    /// Consumes one event; the LTL3 verdict after it.
    fn step(&mut self, e: Event) -> Verdict;

    /// The finite-trace verdict: no request left without a grant.
    fn finish(&self) -> Verdict;
}

impl ResponseMonitor for p3::Monitor {
    #[inline]
    fn step(&mut self, e: Event) -> Verdict {
        let input = p3::Input {
            request: has(e, REQUEST),
            grant: has(e, GRANT),
        };
        self.step(&input).p3
    }

    #[inline]
    fn finish(&self) -> Verdict {
        p3::Monitor::finish(self).p3
    }
}

/// The hand-written monitor: whether a request waits for its grant.
#[derive(Clone, Debug, Default)]
pub struct Pending {
    pending: bool,
}

impl ResponseMonitor for Pending {
    #[inline]
    fn step(&mut self, e: Event) -> Verdict {
        self.pending = (self.pending | has(e, REQUEST)) & !has(e, GRANT);
        // No prefix decides G (request -> F grant).
        Verdict::Unknown
    }

    #[inline]
    fn finish(&self) -> Verdict {
        Verdict::from(!self.pending)
    }
}

/// P3 as a progression formula over atoms 0 = request, 1 = grant.
pub fn formula() -> Formula {
    Formula::globally(Formula::implies(0, Formula::eventually(Formula::Atom(1))))
}

/// The progression monitor of P3.
pub fn progression() -> Progression {
    Progression::new(formula(), false)
}

impl ResponseMonitor for Progression {
    #[inline]
    fn step(&mut self, e: Event) -> Verdict {
        let bits = [REQUEST, GRANT];
        Progression::step(self, &|k| bits.get(k).is_some_and(|&b| has(e, b)))
    }

    #[inline]
    fn finish(&self) -> Verdict {
        Progression::finish(self)
    }
}

/// Steps `monitor` through `trace`: how many verdicts were `Unknown`, and the
/// finite-trace verdict at the end (which depends on the monitor's state, so
/// the state updates cannot be optimised away when every verdict is `Unknown`).
#[inline]
pub fn count_unknown<M: ResponseMonitor>(monitor: &mut M, trace: &[Event]) -> (usize, Verdict) {
    let unknown = trace
        .iter()
        .filter(|&&e| monitor.step(e) == Verdict::Unknown)
        .count();
    (unknown, monitor.finish())
}
