//! Duration bounds on the standard trace with times: three rules of
//! `specs/timed.hind`, each generated and hand-written. The hand-written
//! monitors are what one would write for the one rule: the latest request's
//! time; the oldest unanswered request's time; the request times of the last
//! 5 seconds in a `VecDeque`.

use std::collections::VecDeque;

use hindsight_runtime::Verdict;

use crate::trace::{has, Event, SplitMix64, ALARM, GRANT, REQUEST};

hindsight_runtime::include_monitors!("timed");

/// Microseconds per millisecond.
const MS: i64 = 1_000;

/// The time of every step of a trace of `len` steps: step `i` at `i` × 250
/// ms plus a jitter below 250 ms (splitmix64, seed `0x7173`), in microseconds.
pub fn times(len: usize) -> Vec<i64> {
    let mut rng = SplitMix64::new(0x7173);
    (0..len as i64)
        .map(|i| i * 250 * MS + (rng.next_u64() % (250 * MS as u64)) as i64)
        .collect()
}

/// A monitor of one timed rule, fed timed events.
pub trait TimedMonitor {
    /// Consumes one event at time `t` (microseconds); the verdict after it.
    fn step(&mut self, t: i64, e: Event) -> Verdict;
}

/// Steps `monitor` through `trace` (events with their times): how many
/// verdicts were false.
#[inline]
pub fn count_false<M: TimedMonitor>(monitor: &mut M, trace: &[Event], times: &[i64]) -> usize {
    trace
        .iter()
        .zip(times)
        .filter(|&(&e, &t)| monitor.step(t, e) == Verdict::False)
        .count()
}

impl TimedMonitor for metric_past::Monitor {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        let input = metric_past::Input {
            t,
            request: has(e, REQUEST),
            alarm: has(e, ALARM),
        };
        metric_past::Monitor::step(self, &input).recent
    }
}

impl TimedMonitor for metric_response::Monitor {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        let input = metric_response::Input {
            t,
            request: has(e, REQUEST),
            grant: has(e, GRANT),
        };
        metric_response::Monitor::step(self, &input).answered
    }
}

impl TimedMonitor for metric_delayed::Monitor {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        let input = metric_delayed::Input {
            t,
            request: has(e, REQUEST),
            alarm: has(e, ALARM),
        };
        metric_delayed::Monitor::step(self, &input).settled
    }
}

/// `alarm -> O[0,5s] request` by hand: the latest request's time.
#[derive(Clone, Debug, Default)]
pub struct LastRequest {
    last: Option<i64>,
}

impl TimedMonitor for LastRequest {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        if has(e, REQUEST) {
            self.last = Some(t);
        }
        let recent = self.last.is_some_and(|r| t - r <= 5_000 * MS);
        Verdict::from(!has(e, ALARM) || recent)
    }
}

/// `G (request -> F[0,3s] grant) with reset` by hand: the oldest unanswered
/// request's time; a violation ends the run and starts the next afresh.
#[derive(Clone, Debug, Default)]
pub struct OldestRequest {
    open: Option<i64>,
}

impl TimedMonitor for OldestRequest {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        if self.open.is_some_and(|r| t - r > 3_000 * MS) {
            self.open = None;
            return Verdict::False;
        }
        if has(e, GRANT) {
            self.open = None;
        } else if has(e, REQUEST) && self.open.is_none() {
            self.open = Some(t);
        }
        Verdict::Unknown
    }
}

/// `alarm -> O[2s,5s] request` by hand: the request times of the last five
/// seconds.
#[derive(Clone, Debug, Default)]
pub struct RecentRequests {
    times: VecDeque<i64>,
}

impl TimedMonitor for RecentRequests {
    #[inline]
    fn step(&mut self, t: i64, e: Event) -> Verdict {
        while self.times.front().is_some_and(|&r| t - r > 5_000 * MS) {
            self.times.pop_front();
        }
        let settled = self.times.iter().any(|&r| t - r >= 2_000 * MS);
        if has(e, REQUEST) {
            self.times.push_back(t);
        }
        Verdict::from(!has(e, ALARM) || settled)
    }
}
