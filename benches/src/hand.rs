//! Hand-written monitors of the benchmark properties: the fewest state bits and
//! branch-free Boolean updates (`&`, `|` rather than `&&`, `||`), the limit
//! generated code is measured against. Each returns its properties' truth as
//! bits of a byte (bit `k` = property `k`).

use crate::trace::{has, Event, ALARM, P, Q, R, REQUEST, RESET, S, T};
use crate::EventMonitor;

/// `p1 = alarm -> (!reset S request)`.
#[derive(Clone, Debug, Default)]
pub struct P1 {
    /// `!reset S request` at the previous step.
    since: bool,
}

impl EventMonitor for P1 {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        self.since = has(e, REQUEST) | (!has(e, RESET) & self.since);
        u8::from(!has(e, ALARM) | self.since)
    }
}

/// `p2 = Y p && (q S (r || (s S t)))`.
#[derive(Clone, Debug, Default)]
pub struct P2 {
    /// `p` at the previous step (`Y p` is false at step 0).
    prev_p: bool,
    /// `s S t` at the previous step.
    inner: bool,
    /// `q S (r || (s S t))` at the previous step.
    outer: bool,
}

impl EventMonitor for P2 {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        self.inner = has(e, T) | (has(e, S) & self.inner);
        self.outer = has(e, R) | self.inner | (has(e, Q) & self.outer);
        let verdict = self.prev_p & self.outer;
        self.prev_p = has(e, P);
        u8::from(verdict)
    }
}

/// `pt2a = ((a S b) && H (c || !d)) -> (O (a && c) || (!b S (c && d)))` and
/// `pt2b = H (a -> O b) && !(d S (a && !c))`, with `a b c d` = `p q r s`.
#[derive(Clone, Debug)]
pub struct Pt2 {
    a_since_b: bool,
    always_c_or_not_d: bool,
    once_a_and_c: bool,
    not_b_since_c_and_d: bool,
    once_b: bool,
    always_a_implies_once_b: bool,
    d_since_a_and_not_c: bool,
}

impl Default for Pt2 {
    fn default() -> Self {
        Pt2 {
            a_since_b: false,
            // `H` is true before the first step.
            always_c_or_not_d: true,
            once_a_and_c: false,
            not_b_since_c_and_d: false,
            once_b: false,
            always_a_implies_once_b: true,
            d_since_a_and_not_c: false,
        }
    }
}

impl EventMonitor for Pt2 {
    #[inline]
    fn step(&mut self, e: Event) -> u8 {
        let (a, b, c, d) = (has(e, P), has(e, Q), has(e, R), has(e, S));
        self.a_since_b = b | (a & self.a_since_b);
        self.always_c_or_not_d &= c | !d;
        self.once_a_and_c |= a & c;
        self.not_b_since_c_and_d = (c & d) | (!b & self.not_b_since_c_and_d);
        self.once_b |= b;
        self.always_a_implies_once_b &= !a | self.once_b;
        self.d_since_a_and_not_c = (a & !c) | (d & self.d_since_a_and_not_c);
        let pt2a = !(self.a_since_b & self.always_c_or_not_d)
            | self.once_a_and_c
            | self.not_b_since_c_and_d;
        let pt2b = self.always_a_implies_once_b & !self.d_since_a_and_not_c;
        u8::from(pt2a) | u8::from(pt2b) << 1
    }
}
