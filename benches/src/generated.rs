//! The generated monitors of `specs/bench.hind` (written by the build script),
//! fed the standard trace's events.

use hindsight_runtime::Verdict;

use crate::trace::{has, Event, ALARM, P, Q, R, REQUEST, RESET, S, T};
use crate::EventMonitor;

hindsight_runtime::include_monitors!("bench");

/// Bit 0 of a byte: whether `v` is `True`.
#[inline]
fn bit(v: Verdict) -> u8 {
    u8::from(v == Verdict::True)
}

impl EventMonitor for p1::Monitor {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        let input = p1::Input {
            request: has(e, REQUEST),
            reset: has(e, RESET),
            alarm: has(e, ALARM),
        };
        bit(self.step(&input).p1)
    }
}

impl EventMonitor for p2::Monitor {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        let input = p2::Input {
            p: has(e, P),
            q: has(e, Q),
            r: has(e, R),
            s: has(e, S),
            t: has(e, T),
        };
        bit(self.step(&input).p2)
    }
}

impl EventMonitor for pt2::Monitor {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        let input = pt2::Input {
            a: has(e, P),
            b: has(e, Q),
            c: has(e, R),
            d: has(e, S),
        };
        let v = self.step(&input);
        bit(v.pt2a) | bit(v.pt2b) << 1
    }
}
