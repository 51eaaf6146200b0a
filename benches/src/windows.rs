//! `G (request -> F[0,b] grant) with reset` for b = 10, 1,000 and 1,000,000
//! over the standard trace: the generated deadlines and a hand-written
//! monitor (the oldest unanswered request's step), each counting violations.

use hindsight_runtime::Verdict;

use crate::trace::{has, Event, GRANT, REQUEST};

hindsight_runtime::include_monitors!("windows");

/// The window lengths benchmarked, as in `specs/windows.hind`.
pub const LENGTHS: [u64; 3] = [10, 1_000, 1_000_000];

/// A monitor of the response within a window, fed the standard trace.
pub trait WindowMonitor {
    /// Consumes one event; whether it decided a violation (and restarted).
    fn violated(&mut self, e: Event) -> bool;
}

/// The hand-written monitor: the step of the oldest unanswered request.
#[derive(Clone, Debug)]
pub struct Oldest {
    length: u64,
    step: u64,
    oldest: Option<u64>,
}

impl Oldest {
    /// Before the first step, for windows of `length` steps.
    pub fn new(length: u64) -> Self {
        Oldest {
            length,
            step: 0,
            oldest: None,
        }
    }
}

impl WindowMonitor for Oldest {
    #[inline]
    fn violated(&mut self, e: Event) -> bool {
        let now = self.step;
        self.step += 1;
        if has(e, GRANT) {
            self.oldest = None;
            return false;
        }
        if has(e, REQUEST) && self.oldest.is_none() {
            self.oldest = Some(now);
        }
        // Decided at the window's last step; `with reset` starts afresh.
        let late = self.oldest.is_some_and(|o| now - o >= self.length);
        if late {
            self.oldest = None;
        }
        late
    }
}

macro_rules! generated {
    ($($m:ident),*) => {$(
        impl WindowMonitor for $m::Monitor {
            #[inline]
            fn violated(&mut self, e: Event) -> bool {
                let input = $m::Input {
                    request: has(e, REQUEST),
                    grant: has(e, GRANT),
                };
                self.step(&input).r == Verdict::False
            }
        }
    )*};
}

generated!(w10, w1000, w1000000);

/// The violations `monitor` counts over `trace`.
pub fn count_violations(monitor: &mut impl WindowMonitor, trace: &[Event]) -> usize {
    trace.iter().filter(|&&e| monitor.violated(e)).count()
}
