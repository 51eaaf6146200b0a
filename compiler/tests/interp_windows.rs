//! Bounded windows on random traces against their textbook definitions, evaluated
//! directly (quadratic loops over the trace) rather than through the table.

use crate::interp_support::*;

use proptest::prelude::*;

/// The steps `j` of the window `[i - hi, i - lo]` clipped to `j >= 0` (`hi = None`: from 0).
fn window(i: usize, lo: u64, hi: Option<u64>) -> std::ops::Range<usize> {
    let i = i as u64;
    if i < lo {
        return 0..0;
    }
    let start = hi.map_or(0, |h| i.saturating_sub(h));
    start as usize..(i - lo + 1) as usize
}

fn naive_once(p: &[bool], lo: u64, hi: Option<u64>) -> String {
    (0..p.len())
        .map(|i| bit(window(i, lo, hi).any(|j| p[j])))
        .collect()
}

fn naive_hist(p: &[bool], lo: u64, hi: Option<u64>) -> String {
    (0..p.len())
        .map(|i| bit(window(i, lo, hi).all(|j| p[j])))
        .collect()
}

fn naive_since(q: &[bool], p: &[bool], lo: u64, hi: Option<u64>) -> String {
    (0..p.len())
        .map(|i| bit(window(i, lo, hi).any(|j| p[j] && (j + 1..=i).all(|k| q[k]))))
        .collect()
}

fn bit(b: bool) -> char {
    if b {
        '1'
    } else {
        '0'
    }
}

fn digits(v: &[bool]) -> String {
    v.iter().map(|&b| bit(b)).collect()
}

fn bounds() -> impl Strategy<Value = (u64, Option<u64>)> {
    (0u64..5, prop::option::weighted(0.8, 0u64..6)).prop_map(|(lo, w)| (lo, w.map(|w| lo + w)))
}

proptest! {
    #[test]
    fn bounded_operators_match_their_definitions(
        pt in prop::collection::vec(any::<bool>(), 0..40),
        qt in prop::collection::vec(prop::bool::weighted(0.8), 40),
        (lo, hi) in bounds(),
    ) {
        let qt = &qt[..pt.len()];
        let (ps, qs) = (digits(&pt), digits(qt));
        prop_assert_eq!(run(ob(lo, hi, p()), &ps, &qs), naive_once(&pt, lo, hi));
        prop_assert_eq!(run(hb(lo, hi, p()), &ps, &qs), naive_hist(&pt, lo, hi));
        prop_assert_eq!(run(sb(lo, hi, q(), p()), &ps, &qs), naive_since(qt, &pt, lo, hi));
    }
}
