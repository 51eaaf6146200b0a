//! Hand-computed traces for every operator. Traces are written one digit per step,
//! step 0 first; the expected verdicts are worked out in the comments.

use crate::interp_support::*;

use hindsight_compiler::hir::Value;

#[track_caller]
fn check(f: hindsight_compiler::hir::Expr, ps: &str, qs: &str, expected: &str) {
    assert_eq!(run(f, &t(ps), &t(qs)), t(expected));
}

#[test]
fn boolean_connectives() {
    //        p: 0 0 1 1, q: 0 1 0 1
    check(not(p()), "0 0 1 1", "", "1 1 0 0");
    check(and(p(), q()), "0 0 1 1", "0 1 0 1", "0 0 0 1");
    check(or(p(), q()), "0 0 1 1", "0 1 0 1", "0 1 1 1");
    use hindsight_compiler::hir::BoolOp::{Iff, Implies};
    check(boolop(Implies, p(), q()), "0 0 1 1", "0 1 0 1", "1 1 0 1");
    check(boolop(Iff, p(), q()), "0 0 1 1", "0 1 0 1", "1 0 0 1");
    check(konst(Value::Bool(true)), "0 0", "", "1 1");
    check(konst(Value::Bool(false)), "1 1", "", "0 0");
}

#[test]
fn yesterday_is_false_at_step_0() {
    // p:   1 0 0 1 0 0 0
    // Y p: 0 1 0 0 1 0 0   (step 0 has no previous step: false)
    check(y(p()), "1 0 0 1 0 0 0", "", "0 1 0 0 1 0 0");
    check(y(p()), "1 1", "", "0 1");
}

#[test]
fn weak_yesterday_is_true_at_step_0() {
    // p:   1 0 0 1 0 0 0
    // Z p: 1 1 0 0 1 0 0   (step 0: true even though nothing came before)
    check(z(p()), "1 0 0 1 0 0 0", "", "1 1 0 0 1 0 0");
    check(z(p()), "0 0", "", "1 0");
    // Y Y p: p two steps back, false at steps 0 and 1.
    check(y(y(p())), "1 1 0 1", "", "0 0 1 1");
}

#[test]
fn once() {
    // O p: false until the first p, true ever after.
    check(o(p()), "0 0 1 0 0", "", "0 0 1 1 1");
    check(o(p()), "1 0 0", "", "1 1 1");
    check(o(p()), "0 0 0", "", "0 0 0");
    // O[0,inf] is O.
    check(ob(0, None, p()), "0 0 1 0 0", "", "0 0 1 1 1");
}

#[test]
fn historically() {
    // H p: true while p has held at every step so far.
    check(h(p()), "1 1 0 1", "", "1 1 0 0");
    check(h(p()), "0 1 1", "", "0 0 0");
    check(h(p()), "1 1 1", "", "1 1 1");
    check(hb(0, None, p()), "1 1 0 1", "", "1 1 0 0");
}

#[test]
fn since() {
    // q S p with p: 1 0 0 1 0 0 0, q: 1 1 0 1 1 1 0
    // i0: p -> 1; i1: q, pre 1 -> 1; i2: !q, !p -> 0; i3: p -> 1;
    // i4, i5: q, pre 1 -> 1; i6: !q, !p -> 0.
    check(
        s(q(), p()),
        "1 0 0 1 0 0 0",
        "1 1 0 1 1 1 0",
        "1 1 0 1 1 1 0",
    );
    // Step 0: holds iff the right side holds (q alone is not enough).
    check(s(q(), p()), "0 1 0", "1 1 1", "0 1 1");
    check(sb(0, None, q(), p()), "0 1 0", "1 1 1", "0 1 1");
}

#[test]
fn once_within_zero_lower_bound() {
    // O[0,2] p: p at some step of [i-2, i] (clipped at 0).
    // p: 1 0 0 0 1 0 0 0
    // i0 [0,0] 1; i1 [0,1] 1; i2 [0,2] 1; i3 [1,3] 0; i4 [2,4] 1; i5 [3,5] 1;
    // i6 [4,6] 1; i7 [5,7] 0.
    check(
        ob(0, Some(2), p()),
        "1 0 0 0 1 0 0 0",
        "",
        "1 1 1 0 1 1 1 0",
    );
    // Never seen: false from the start.
    check(ob(0, Some(2), p()), "0 0 0 0", "", "0 0 0 0");
    // O[0,1] across a long gap: the counter saturates and stays false.
    check(ob(0, Some(1), p()), "1 0 0 0 0 0 1", "", "1 1 0 0 0 0 1");
    // O[0,0] p = p.
    check(ob(0, Some(0), p()), "1 0 1", "", "1 0 1");
}

#[test]
fn once_within_positive_lower_bound() {
    // O[2,3] p: p at some step of [i-3, i-2], j >= 0.
    // p: 1 0 0 0 0 1 0 0 0
    // i0 empty 0; i1 empty 0; i2 [0,0] 1; i3 [0,1] 1; i4 [1,2] 0; i5 [2,3] 0;
    // i6 [3,4] 0; i7 [4,5] 1; i8 [5,6] 1.
    check(
        ob(2, Some(3), p()),
        "1 0 0 0 0 1 0 0 0",
        "",
        "0 0 1 1 0 0 0 1 1",
    );
    // O[3,3] p = p three steps ago (false before).
    // p: 1 1 0 1 0 0 0 -> i3 = p0, i4 = p1, i5 = p2, i6 = p3.
    check(ob(3, Some(3), p()), "1 1 0 1 0 0 0", "", "0 0 0 1 1 0 1");
    // O[1,1] p = Y p.
    check(ob(1, Some(1), p()), "1 0 1 1", "", "0 1 0 1");
}

#[test]
fn once_unbounded_with_lower_bound() {
    // O[2,inf] p: p at some step of [0, i-2].
    // p: 0 1 0 0 0 -> i0 0; i1 0; i2 [0,0] 0; i3 [0,1] 1; i4 1.
    check(ob(2, None, p()), "0 1 0 0 0", "", "0 0 0 1 1");
}

#[test]
fn historically_within_zero_lower_bound() {
    // H[0,2] p: p at every step of [i-2, i] (clipped at 0).
    // p: 1 1 1 0 1 1 1 1
    // i0..i2 1; i3 has p3 = 0 -> 0; i4 [2,4] 0; i5 [3,5] 0; i6 [4,6] 1; i7 1.
    check(
        hb(0, Some(2), p()),
        "1 1 1 0 1 1 1 1",
        "",
        "1 1 1 0 0 0 1 1",
    );
    // Clipping at the start: p: 0 1 1 1 -> i0 [0,0] 0; i1 0; i2 [0,2] 0; i3 [1,3] 1.
    check(hb(0, Some(2), p()), "0 1 1 1", "", "0 0 0 1");
    check(hb(0, Some(0), p()), "0 1 0", "", "0 1 0");
}

#[test]
fn historically_within_positive_lower_bound() {
    // H[2,3] p: p at every step of [i-3, i-2]; vacuously true while empty.
    // p: 0 1 1 1 0 1 1 1 1
    // i0 empty 1; i1 empty 1; i2 [0,0] 0; i3 [0,1] 0; i4 [1,2] 1; i5 [2,3] 1;
    // i6 [3,4] 0; i7 [4,5] 0; i8 [5,6] 1.
    check(
        hb(2, Some(3), p()),
        "0 1 1 1 0 1 1 1 1",
        "",
        "1 1 0 0 1 1 0 0 1",
    );
    // H[2,2] p = p two steps ago, true before the start.
    check(hb(2, Some(2), p()), "0 1 0 1", "", "1 1 0 1");
}

#[test]
fn historically_unbounded_with_lower_bound() {
    // H[2,inf] p: p at every step of [0, i-2].
    // p: 1 1 0 1 1 -> i0 1; i1 1; i2 [0,0] 1; i3 [0,1] 1; i4 [0,2] 0.
    check(hb(2, None, p()), "1 1 0 1 1", "", "1 1 1 1 0");
}

#[test]
fn since_within_zero_lower_bound() {
    // q S[0,2] p: some j in [i-2, i] with p(j) and q on (j, i].
    // p: 1 0 0 0 0 1 0 0 1
    // q: 1 1 1 1 1 1 1 0 1
    // i0 j=0 1; i1 j=0 1; i2 j=0 1; i3 [1,3] no p 0; i4 0; i5 j=5 1; i6 j=5, q6 1;
    // i7 j=5 needs q7 = 0: 0; i8 j=8 1.
    check(
        sb(0, Some(2), q(), p()),
        "1 0 0 0 0 1 0 0 1",
        "1 1 1 1 1 1 1 0 1",
        "1 1 1 0 0 1 1 0 1",
    );
    // A q gap inside the window breaks it even though p is in range:
    // p: 1 0 0, q: 1 0 1 -> i0 1; i1 q1 = 0: 0; i2 j=0 needs q1: 0.
    check(sb(0, Some(2), q(), p()), "1 0 0", "1 0 1", "1 0 0");
    // S[0,0] = right side.
    check(sb(0, Some(0), q(), p()), "1 0 1", "1 1 1", "1 0 1");
}

#[test]
fn since_within_positive_lower_bound() {
    // q S[2,4] p: some j in [i-4, i-2], j >= 0, with p(j) and q on (j, i].
    // p: 1 0 0 0 0 0 1 0 0 0 0 0
    // q: 1 1 1 1 1 1 1 1 1 1 0 1
    // i0, i1: window empty 0; i2 [0,0] j=0 1; i3 [0,1] j=0 1; i4 [0,2] j=0 1;
    // i5 [1,3] 0; i6 [2,4] 0; i7 [3,5] 0; i8 [4,6] j=6, q7 q8 1; i9 [5,7] j=6 1;
    // i10 [6,8] j=6 needs q10 = 0: 0; i11 [7,9] no p 0.
    check(
        sb(2, Some(4), q(), p()),
        "1 0 0 0 0 0 1 0 0 0 0 0",
        "1 1 1 1 1 1 1 1 1 1 0 1",
        "0 0 1 1 1 0 0 0 1 1 0 0",
    );
    // q S[1,1] p: p(i-1) and q(i).
    // p: 1 0 1 1, q: 1 1 0 1 -> i0 0; i1 p0 q1 1; i2 p1 = 0: 0; i3 p2 q3 1.
    check(sb(1, Some(1), q(), p()), "1 0 1 1", "1 1 0 1", "0 1 0 1");
}

#[test]
fn since_unbounded_with_lower_bound() {
    // q S[2,inf] p: some j in [0, i-2] with p(j) and q on (j, i].
    // p: 1 0 0 0 0 0 1 0 0 0 0 0
    // q: 1 1 1 1 1 1 1 1 1 1 0 1
    // i0, i1 0; i2..i9 j=0 with q1..qi all 1: 1; i10 q10 = 0 and j <= 8: 0;
    // i11 needs j >= 10 but j <= 9: 0.
    check(
        sb(2, None, q(), p()),
        "1 0 0 0 0 0 1 0 0 0 0 0",
        "1 1 1 1 1 1 1 1 1 1 0 1",
        "0 0 1 1 1 1 1 1 1 1 0 0",
    );
}

#[test]
fn nested_temporal_operators() {
    // H (q -> O p): every q so far was preceded (or accompanied) by a p.
    // p: 0 1 0 0, q: 0 0 1 0 -> O p: 0 1 1 1; q -> O p: 1 1 1 1; H: 1 1 1 1.
    use hindsight_compiler::hir::BoolOp::Implies;
    check(
        h(boolop(Implies, q(), o(p()))),
        "0 1 0 0",
        "0 0 1 0",
        "1 1 1 1",
    );
    // p: 0 0 1 0, q: 0 1 0 0 -> q -> O p at i1 is 0, so H is 0 from i1 on.
    check(
        h(boolop(Implies, q(), o(p()))),
        "0 0 1 0",
        "0 1 0 0",
        "1 0 0 0",
    );
    // O[0,1] Y p: p at i-1 or i-2. p: 1 0 0 0 -> Y p: 0 1 0 0 -> 0 1 1 0.
    check(ob(0, Some(1), y(p())), "1 0 0 0", "", "0 1 1 0");
}

#[test]
fn long_delay_crosses_word_boundaries() {
    // O[70,70] p = p seventy steps ago: checked against the trace itself.
    let n = 300;
    let ps: String = (0..n)
        .map(|i| if (i * 7 + i / 3) % 5 < 2 { '1' } else { '0' })
        .collect();
    let expected: String = (0..n)
        .map(|i| {
            if i >= 70 && ps.as_bytes()[i - 70] == b'1' {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    assert_eq!(run(ob(70, Some(70), p()), &ps, ""), expected);
    // H[65,65]: the same, but true before step 65.
    let expected: String = (0..n)
        .map(|i| {
            if i < 65 || ps.as_bytes()[i - 65] == b'1' {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    assert_eq!(run(hb(65, Some(65), p()), &ps, ""), expected);
}

#[test]
fn largest_bounds_do_not_overflow() {
    let big = 1u64 << 32;
    // O[0,2^32] p: once seen, true for the whole (short) trace.
    check(ob(0, Some(big), p()), "0 1 0 0", "", "0 1 1 1");
    // H[0,2^32] p: once violated, false for the whole trace.
    check(hb(0, Some(big), p()), "1 0 1 1", "", "1 0 0 0");
    check(sb(0, Some(big), q(), p()), "1 0 0", "1 1 0", "1 1 0");
    // O[65536, 2^32] p: the window is still empty.
    check(ob(65536, Some(big), p()), "1 1 1", "", "0 0 0");
    check(hb(65536, None, p()), "0 0 0", "", "1 1 1");
}
