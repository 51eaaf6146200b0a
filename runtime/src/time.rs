//! The step rules of operators with duration bounds, called by the
//! interpreter and by generated code alike (as [`crate::rules`] is for step
//! bounds).
//!
//! Times are `i64` microseconds, never decreasing from one step to the next
//! (a monitor takes the largest time so far as the step's time, its *clock*).
//! A window `[lo, hi]` holds the steps whose time differs from the current
//! step's (past operators) or from the anchoring step's (future operators) by
//! `lo ..= hi` microseconds, `hi == None` for no upper end.
//!
//! # Past operators and their state
//!
//! | operator | cell | value now |
//! |---|---|---|
//! | `l S[0,hi] r` | time of the latest `r` with `l` at every later step | `r`, or `l` and `now - cell <= hi` |
//! | `l S[lo,inf] r`, `lo > 0` | time of the first `r` since `l` last failed | `l` and `now - cell >= lo` |
//! | `l S[lo,hi] r`, `0 < lo` | a ring of witness times ([`witnessed`]) | `l` and a kept time in `[now - hi, now - lo]` |
//!
//! `O[lo,hi] a` is `true S[lo,hi] a` (the rules take `l = true`), and `H`
//! the dual of `O` (`H[lo,hi] a = !O[lo,hi] !a`). A one-time cell holds
//! [`NEVER`] until its first witness.
//!
//! # Future operators
//!
//! A [`Deadline`] monitors `F`, `G` or `U` with a duration bound, at the first
//! step only or, under `G (trigger -> …)`, at every step where the trigger
//! holds (see [`Pattern`]); its verdicts are exact LTL3 verdicts over
//! continuations whose time grows without bound.

use crate::Verdict;

/// The content of a one-time cell before its first witness, and of a
/// monitor's clock before its first step; not a valid time (the readers never
/// give it, and a program feeding a generated monitor must not).
pub const NEVER: i64 = i64::MIN;

/// Whether a time cell's witness at `then` lies at most `hi` microseconds
/// before `now` (`now >= then` for a witness; never for [`NEVER`]).
#[inline(always)]
fn within(then: i64, now: i64, hi: u64) -> bool {
    then != NEVER && now.abs_diff(then) <= hi
}

/// Whether a time cell's witness at `then` lies at least `lo` microseconds
/// before `now` (never for [`NEVER`]).
#[inline(always)]
fn aged(then: i64, now: i64, lo: u64) -> bool {
    then != NEVER && then <= now && now.abs_diff(then) >= lo
}

/// `lhs S[0,hi] rhs`: `rhs` now, or `lhs` now and the latest chain witness
/// (`cell`) at most `hi` ago.
#[inline(always)]
pub fn since_recent(lhs: bool, rhs: bool, cell: i64, now: i64, hi: u64) -> bool {
    rhs | (lhs & within(cell, now, hi))
}

/// The cell of `lhs S[0,hi] rhs` for the next step: the time `rhs` last held
/// with `lhs` at every step since, or [`NEVER`] once `lhs` broke the chain.
#[inline(always)]
pub fn since_recent_next(lhs: bool, rhs: bool, cell: i64, now: i64) -> i64 {
    if rhs {
        now
    } else if lhs {
        cell
    } else {
        NEVER
    }
}

/// `lhs S[lo,inf] rhs`, `lo > 0`: `lhs` now and the first chain witness
/// (`cell`) at least `lo` ago.
#[inline(always)]
pub fn since_aged(lhs: bool, cell: i64, now: i64, lo: u64) -> bool {
    lhs & aged(cell, now, lo)
}

/// The cell of `lhs S[lo,inf] rhs` for the next step: the first time `rhs`
/// held since `lhs` last failed ([`NEVER`] if it has not).
#[inline(always)]
pub fn since_aged_next(lhs: bool, rhs: bool, cell: i64, now: i64) -> i64 {
    let kept = if lhs { cell } else { NEVER };
    if rhs && kept == NEVER {
        now
    } else {
        kept
    }
}

/// Word storage of a witness ring, read: word 0 is the header (`start | len
/// << 32`), words `1..` the ring of times, oldest at `start`. All zeros is the
/// empty ring. Generated code stores `[i64; N]`; the interpreter adapts its
/// state.
pub trait Words {
    /// The number of words (the ring's capacity plus one).
    fn words(&self) -> usize;
    /// Word `i` (0 beyond the end).
    fn word(&self, i: usize) -> i64;
}

/// Word storage of a witness ring, written.
pub trait WordsMut: Words {
    /// Sets word `i` (nothing beyond the end).
    fn set_word(&mut self, i: usize, value: i64);
}

impl Words for [i64] {
    #[inline(always)]
    fn words(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn word(&self, i: usize) -> i64 {
        self.get(i).copied().unwrap_or(0)
    }
}

impl WordsMut for [i64] {
    #[inline(always)]
    fn set_word(&mut self, i: usize, value: i64) {
        if let Some(w) = self.get_mut(i) {
            *w = value;
        }
    }
}

impl<const N: usize> Words for [i64; N] {
    #[inline(always)]
    fn words(&self) -> usize {
        N
    }

    #[inline(always)]
    fn word(&self, i: usize) -> i64 {
        self.as_slice().word(i)
    }
}

impl<const N: usize> WordsMut for [i64; N] {
    #[inline(always)]
    fn set_word(&mut self, i: usize, value: i64) {
        self.as_mut_slice().set_word(i, value);
    }
}

/// The ring of witness times of `O[lo,hi]` or `S[lo,hi]` with `0 < lo`,
/// over its [`Words`].
struct Ring<'w, W: ?Sized> {
    words: &'w mut W,
    start: usize,
    len: usize,
}

/// Reads a ring's header: where its oldest time is and how many it holds.
#[inline(always)]
fn header<W: Words + ?Sized>(words: &W) -> (usize, usize) {
    let h = words.word(0) as u64;
    ((h & 0xffff_ffff) as usize, (h >> 32) as usize)
}

/// The `k`-th oldest time of a ring with header `(start, len)` (`k < len`).
#[inline(always)]
fn nth<W: Words + ?Sized>(words: &W, start: usize, k: usize) -> i64 {
    let capacity = words.words().saturating_sub(1).max(1);
    words.word(1 + (start + k) % capacity)
}

/// `O[lo,hi]` / `S[lo,hi]` with `0 < lo`: whether the ring keeps a witness
/// time in `[now - hi, now - lo]`. (Times older than `now - hi` not yet
/// dropped are skipped; the first younger one decides, as times are sorted.)
#[inline]
pub fn witnessed<W: Words + ?Sized>(words: &W, now: i64, lo: u64, hi: u64) -> bool {
    let (start, len) = header(words);
    for k in 0..len {
        let age = now.abs_diff(nth(words, start, k));
        if age <= hi {
            return age >= lo;
        }
    }
    false
}

/// The ring of `O[lo,hi] arg` (`chain == true`) or `lhs S[lo,hi] rhs`
/// (`chain == lhs`, `witness == rhs`) for the next step, `0 < lo <= hi`.
///
/// It keeps the least set of times that answers every later query exactly:
/// times older than `now - hi` are dropped (no later window reaches them); of
/// the times already old enough (`<= now - lo`) only the newest is kept (it
/// stays in every later window the older ones are in); a broken chain drops
/// all; and of three times within `hi - lo` of each other the middle one is
/// dropped (a window of width `hi - lo` holding it holds one of the others).
/// Then at most `2 * ceil(lo / (hi - lo)) + 1` times are kept, which is how
/// the compiler sizes the ring ([`ring_capacity`]).
#[inline]
pub fn witness_next<W: WordsMut + ?Sized>(
    words: &mut W,
    chain: bool,
    witness: bool,
    now: i64,
    lo: u64,
    hi: u64,
) {
    let (start, len) = header(words);
    let capacity = words.words().saturating_sub(1);
    let mut ring = Ring { words, start, len };
    if !chain {
        ring.len = 0;
    }
    // Too old for any later window.
    while ring.len > 0 && now.abs_diff(ring.oldest()) > hi {
        ring.pop_oldest();
    }
    // Old enough now: only the newest such time matters from here on.
    while ring.len > 1 && now.abs_diff(ring.get(1)) >= lo {
        ring.pop_oldest();
    }
    if witness && capacity > 0 && (ring.len == 0 || ring.newest() < now) {
        let width = hi - lo;
        if ring.len >= 2 && now.abs_diff(ring.get(ring.len - 2)) <= width {
            ring.len -= 1;
        }
        // Never full here: the ring holds at most `ring_capacity` times
        // (see above), which is how the compiler sized it.
        debug_assert!(ring.len < capacity, "a witness ring of {capacity} is full");
        if ring.len < capacity {
            ring.push(now);
        }
    }
    let (start, len) = (ring.start, ring.len);
    ring.words
        .set_word(0, (start as u64 | (len as u64) << 32) as i64);
}

impl<W: WordsMut + ?Sized> Ring<'_, W> {
    fn capacity(&self) -> usize {
        self.words.words().saturating_sub(1).max(1)
    }

    fn get(&self, k: usize) -> i64 {
        nth(&*self.words, self.start, k)
    }

    fn oldest(&self) -> i64 {
        self.get(0)
    }

    fn newest(&self) -> i64 {
        self.get(self.len - 1)
    }

    fn pop_oldest(&mut self) {
        self.start = (self.start + 1) % self.capacity();
        self.len -= 1;
    }

    fn push(&mut self, time: i64) {
        let at = 1 + (self.start + self.len) % self.capacity();
        self.words.set_word(at, time);
        self.len += 1;
    }
}

/// The ring capacity [`witness_next`] needs for the window `[lo, hi]`,
/// `0 < lo <= hi`: `2 * ceil(lo / (hi - lo)) + 1` times; `None` for a window
/// of width 0 (whose witnesses no bound on the number of times limits).
pub fn ring_capacity(lo: u64, hi: u64) -> Option<u64> {
    let width = hi.checked_sub(lo).filter(|&w| w > 0)?;
    lo.div_ceil(width).checked_mul(2)?.checked_add(1)
}

/// Which future operator a [`Deadline`] monitors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `F[lo,hi] target`.
    Eventually,
    /// `G[lo,hi] target`.
    Always,
    /// `lhs U[lo,hi] target`.
    Until,
}

/// A future operator with a bounded window, and where it is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// The operator.
    pub kind: Kind,
    /// `false`: the operator at the first step (`M` or `trigger -> M`);
    /// `true`: at every step where the trigger holds (`G (trigger -> M)`,
    /// `G M`), which needs `lo == 0`.
    pub every: bool,
    /// The window's lower end, microseconds (steps with `steps`).
    pub lo: u64,
    /// The window's upper end, microseconds (steps with `steps`).
    pub hi: u64,
    /// `true`: the window counts steps (`F[0,1000] q`) and the deadline counts
    /// the steps it is given, reading no time; since no two steps share a
    /// position, an obligation is decided at the last step of its window
    /// rather than at the first step after it.
    pub steps: bool,
}

impl Pattern {
    /// Whether a window `age` after its anchor has no step left once the
    /// current step is read: `age > hi` in time (another step may still
    /// come at the same time), `age >= hi` in steps.
    #[inline]
    fn closed(self, age: u64) -> bool {
        age > self.hi || (self.steps && age == self.hi)
    }
}

/// The state of a [`Pattern`]'s monitor: the anchor time of the oldest open
/// obligation ([`NEVER`] if none; at the first step only, the first step's
/// time) and the verdict once decided. Counting steps, the anchor is minus
/// the obligation's age in steps: every step moves it one back, and the
/// current step is at 0, so its state is 16 bytes whatever the window.
///
/// One anchor is enough: under `G` with `lo == 0`, a `target` step answers
/// every open `F`/`U` obligation at once (they are all younger than the
/// oldest), and a `G[0,hi]` obligation only needs the newest trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deadline {
    anchor: i64,
    started: bool,
    verdict: Verdict,
}

impl Default for Deadline {
    fn default() -> Self {
        Deadline::NEW
    }
}

impl Deadline {
    /// Before the first step.
    pub const NEW: Deadline = Deadline {
        anchor: NEVER,
        started: false,
        verdict: Verdict::Unknown,
    };

    /// The state as two words (for state kept in rows of bytes).
    pub fn to_words(self) -> [i64; 2] {
        let verdict = match self.verdict {
            Verdict::Unknown => 0,
            Verdict::True => 1,
            Verdict::False => 2,
        };
        [self.anchor, verdict | i64::from(self.started) << 2]
    }

    /// The state [`Deadline::to_words`] wrote.
    pub fn from_words([anchor, flags]: [i64; 2]) -> Self {
        let verdict = match flags & 3 {
            1 => Verdict::True,
            2 => Verdict::False,
            _ => Verdict::Unknown,
        };
        Deadline {
            anchor,
            started: flags & 4 != 0,
            verdict,
        }
    }

    /// How long ago the oldest open obligation was anchored, at time `now`
    /// (the last step's, ignored when `p` counts steps), if one is open.
    #[inline]
    pub fn open_age(&self, p: Pattern, now: i64) -> Option<u64> {
        let now = if p.steps { 0 } else { now };
        (self.anchor != NEVER && self.verdict == Verdict::Unknown)
            .then(|| now.abs_diff(self.anchor))
    }

    /// One step at time `now` (never below the last; ignored when `p` counts
    /// steps): the trigger, the left operand of `U` (`true` for `F`/`G`) and
    /// the target at this step; the LTL3 verdict after it. A decided verdict
    /// stays.
    #[inline]
    pub fn step(
        &mut self,
        p: Pattern,
        now: i64,
        trigger: bool,
        lhs: bool,
        target: bool,
    ) -> Verdict {
        if self.verdict != Verdict::Unknown {
            return self.verdict;
        }
        let now = if p.steps {
            // The current step is at 0: an open anchor is one step older.
            if self.anchor != NEVER {
                self.anchor = self.anchor.saturating_sub(1).max(NEVER + 1);
            }
            0
        } else {
            now
        };
        let first = !self.started;
        self.started = true;
        self.verdict = if p.every {
            self.every_step(p, now, trigger, lhs, target)
        } else if first && !trigger {
            Verdict::True
        } else {
            if first {
                self.anchor = now;
            }
            self.first_step_only(p, now.abs_diff(self.anchor), lhs, target)
        };
        self.verdict
    }

    /// The operator at the first step, `age` after it.
    #[inline]
    fn first_step_only(&self, p: Pattern, age: u64, lhs: bool, target: bool) -> Verdict {
        let inside = age >= p.lo && age <= p.hi;
        match p.kind {
            Kind::Eventually if inside && target => Verdict::True,
            Kind::Eventually if p.closed(age) => Verdict::False,
            Kind::Always if inside && !target => Verdict::False,
            Kind::Always if p.closed(age) => Verdict::True,
            Kind::Until if inside && target => Verdict::True,
            Kind::Until if p.closed(age) || !lhs => Verdict::False,
            _ => Verdict::Unknown,
        }
    }

    /// `G (trigger -> M)` with `lo == 0`: only a violation is ever decided.
    #[inline]
    fn every_step(
        &mut self,
        p: Pattern,
        now: i64,
        trigger: bool,
        lhs: bool,
        target: bool,
    ) -> Verdict {
        let open = self.anchor != NEVER;
        let late = open && now.abs_diff(self.anchor) > p.hi;
        match p.kind {
            Kind::Eventually | Kind::Until => {
                if late {
                    return Verdict::False;
                }
                if target {
                    self.anchor = NEVER;
                    return Verdict::Unknown;
                }
                if trigger && !open {
                    self.anchor = now;
                }
                let still_open = self.anchor != NEVER;
                if still_open && p.kind == Kind::Until && !lhs {
                    return Verdict::False;
                }
                // Counting steps, the window may end at this very step.
                if still_open && p.closed(now.abs_diff(self.anchor)) {
                    return Verdict::False;
                }
                Verdict::Unknown
            }
            Kind::Always => {
                let covered = trigger || (open && !late);
                if trigger {
                    self.anchor = now;
                }
                if covered && !target {
                    Verdict::False
                } else {
                    Verdict::Unknown
                }
            }
        }
    }

    /// The finite-trace verdict if the trace ends here: a decided verdict;
    /// else an open `F`/`U` obligation is violated and a `G` one holds;
    /// `Unknown` before the first step.
    #[inline]
    pub fn end_verdict(&self, p: Pattern) -> Verdict {
        if self.verdict != Verdict::Unknown || !self.started {
            return self.verdict;
        }
        let open = self.anchor != NEVER;
        match p.kind {
            Kind::Eventually | Kind::Until if open => Verdict::False,
            _ => Verdict::True,
        }
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::vec;
    use std::vec::Vec;
    use Verdict::{False as F, True as T, Unknown as U};

    const S: i64 = 1_000_000;

    /// The verdicts of `p` after each `(time in seconds, trigger, lhs, target)`.
    fn run(p: Pattern, steps: &[(i64, bool, bool, bool)]) -> (Vec<Verdict>, Verdict) {
        let mut d = Deadline::NEW;
        let verdicts = steps
            .iter()
            .map(|&(t, trigger, lhs, target)| d.step(p, t * S, trigger, lhs, target))
            .collect();
        (verdicts, d.end_verdict(p))
    }

    fn pattern(kind: Kind, every: bool, lo: i64, hi: i64) -> Pattern {
        Pattern {
            kind,
            every,
            lo: (lo * S) as u64,
            hi: (hi * S) as u64,
            steps: false,
        }
    }

    /// The verdicts of `p` counting steps after each `(trigger, lhs, target)`;
    /// the time given is always 0 (a deadline counting steps reads none).
    fn run_steps(
        kind: Kind,
        every: bool,
        (lo, hi): (u64, u64),
        steps: &[(bool, bool, bool)],
    ) -> (Vec<Verdict>, Verdict) {
        let p = Pattern {
            kind,
            every,
            lo,
            hi,
            steps: true,
        };
        // The time given is ignored: every step at 0.
        let at_zero: Vec<_> = steps.iter().map(|&(t, l, g)| (0, t, l, g)).collect();
        run(p, &at_zero)
    }

    /// Counting steps, an obligation is decided at the last step of its
    /// window (no later step shares its position): `G (p -> F[0,2] q)` with
    /// `p` at step 0 and no `q` is false at step 2; `q` at step 2 answers it;
    /// `F[0,0] q` is `q` now; the open age counts steps.
    #[test]
    fn step_windows_decide_at_their_last_step() {
        let (call, idle, answer) = (
            (true, true, false),
            (false, true, false),
            (false, true, true),
        );
        let e = Kind::Eventually;
        assert_eq!(
            run_steps(e, true, (0, 2), &[call, idle, idle]),
            (vec![U, U, F], F)
        );
        assert_eq!(
            run_steps(e, true, (0, 2), &[call, idle, answer]),
            (vec![U, U, U], T)
        );
        assert_eq!(run_steps(e, true, (0, 2), &[call, idle]), (vec![U, U], F));
        assert_eq!(run_steps(e, true, (0, 0), &[call]), (vec![F], F));
        assert_eq!(run_steps(e, false, (0, 0), &[call]), (vec![F], F));
        // `F[2,3] q` from the first step: `q` at step 1 is too early.
        let (q, not_q) = ((true, true, true), (true, true, false));
        assert_eq!(
            run_steps(e, false, (2, 3), &[q, q, not_q, not_q]),
            (vec![U, U, U, F], F)
        );
        assert_eq!(
            run_steps(e, false, (2, 3), &[not_q, not_q, not_q, q]),
            (vec![U, U, U, T], T)
        );
        // Not triggered at the first step: the implication holds at once.
        assert_eq!(run_steps(e, false, (2, 3), &[idle]), (vec![T], T));
        let p = Pattern {
            kind: e,
            every: true,
            lo: 0,
            hi: 1000,
            steps: true,
        };
        let mut d = Deadline::NEW;
        for _ in 0..5 {
            d.step(p, 123, false, true, false);
        }
        d.step(p, 0, true, true, false);
        for _ in 0..7 {
            d.step(p, -5, false, true, false);
        }
        assert_eq!(d.open_age(p, 99), Some(7));
    }

    /// `G[1,2] q` counting steps is true at step 2 with `q` at 1 and 2; a
    /// `!q` at step 0 does not matter; `a U[0,2] b` fails at step 2 without `b`.
    #[test]
    fn step_windows_of_always_and_until() {
        let (yes, no) = ((true, true, true), (true, true, false));
        let g = Kind::Always;
        assert_eq!(
            run_steps(g, false, (1, 2), &[no, yes, yes]),
            (vec![U, U, T], T)
        );
        assert_eq!(run_steps(g, false, (1, 2), &[yes, no]), (vec![U, F], F));
        assert_eq!(run_steps(g, false, (1, 2), &[yes, yes]), (vec![U, U], T));
        assert_eq!(run_steps(g, true, (0, 1), &[no]), (vec![F], F));
        let busy = (true, true, false);
        let u = Kind::Until;
        assert_eq!(
            run_steps(u, false, (0, 2), &[busy, busy, busy]),
            (vec![U, U, F], F)
        );
        assert_eq!(
            run_steps(u, false, (0, 2), &[busy, busy, yes]),
            (vec![U, U, T], T)
        );
        assert_eq!(
            run_steps(u, true, (0, 2), &[busy, busy, busy]),
            (vec![U, U, F], F)
        );
        assert_eq!(
            run_steps(u, true, (0, 2), &[busy, (false, false, false)]),
            (vec![U, F], F)
        );
    }

    #[test]
    fn the_state_is_sixteen_bytes() {
        assert_eq!(core::mem::size_of::<Deadline>(), 16);
    }

    /// `G (call -> F[0,30s] result)`: a call at 0 answered at 30 (the window's
    /// end is in it); a call at 40 not answered by 70, so the step at 71 (its
    /// values do not matter) decides false; and a step at 70 would not have.
    #[test]
    fn response_by_hand() {
        let p = pattern(Kind::Eventually, true, 0, 30);
        let steps = [
            (0, true, true, false),
            (30, false, true, true),
            (40, true, true, false),
            (70, false, true, false),
            (70, false, true, false),
            (71, false, true, true),
        ];
        assert_eq!(run(p, &steps), (vec![U, U, U, U, U, F], F));
        // Ending at 70, the call of 40 is still open: violated at the end.
        assert_eq!(run(p, &steps[..5]).1, F);
        // Ending after the answer at 30: nothing open.
        assert_eq!(run(p, &steps[..2]).1, T);
    }

    /// `F[5s,10s] done` from the first step (at 100): `done` at 104 is too
    /// early, at 105 in time; alone, a step at 111 without it decides false.
    #[test]
    fn bounded_existence_by_hand() {
        let p = pattern(Kind::Eventually, false, 5, 10);
        let early = [(100, true, true, false), (104, true, true, true)];
        assert_eq!(run(p, &early), (vec![U, U], F));
        let steps = [
            (100, true, true, false),
            (104, true, true, true),
            (105, true, true, true),
        ];
        assert_eq!(run(p, &steps), (vec![U, U, T], T));
        let late = [(100, true, true, false), (111, true, true, true)];
        assert_eq!(run(p, &late), (vec![U, F], F));
    }

    /// `G[0,5s] quiet` from the first step: true once a step comes after 5 s
    /// with quiet throughout; `G (alarm -> G[0,5s] !noise)` is violated by a
    /// noise 5 s after an alarm (still in its window), not by one at 6 s.
    #[test]
    fn bounded_universality_and_absence_by_hand() {
        let p = pattern(Kind::Always, false, 0, 5);
        assert_eq!(
            run(
                p,
                &[
                    (0, true, true, true),
                    (5, true, true, true),
                    (6, true, true, false)
                ]
            ),
            (vec![U, U, T], T)
        );
        let absence = pattern(Kind::Always, true, 0, 5);
        let quiet = |t, alarm, noise: bool| (t, alarm, true, !noise);
        assert_eq!(
            run(absence, &[quiet(0, true, false), quiet(6, false, true)]),
            (vec![U, U], T)
        );
        assert_eq!(
            run(absence, &[quiet(0, true, false), quiet(5, false, true)]),
            (vec![U, F], F)
        );
    }

    /// `busy U[0,10s] done` from the first step: broken by a step that is
    /// neither busy nor done; satisfied by done at 10 s with busy before.
    #[test]
    fn bounded_until_by_hand() {
        let p = pattern(Kind::Until, false, 0, 10);
        assert_eq!(
            run(p, &[(0, true, true, false), (10, true, false, true)]),
            (vec![U, T], T)
        );
        assert_eq!(
            run(p, &[(0, true, true, false), (3, true, false, false)]),
            (vec![U, F], F)
        );
        // Not triggered at the first step: the implication holds at once.
        assert_eq!(run(p, &[(0, false, false, false)]), (vec![T], T));
    }

    /// A decided verdict stays, whatever follows; before any step the end
    /// verdict is unknown.
    #[test]
    fn decided_verdicts_stay() {
        let p = pattern(Kind::Eventually, true, 0, 1);
        assert_eq!(
            run(
                p,
                &[
                    (0, true, true, false),
                    (2, false, true, true),
                    (3, false, true, true)
                ]
            ),
            (vec![U, F, F], F)
        );
        assert_eq!(Deadline::NEW.end_verdict(p), U);
    }

    /// `O[2,5]` over integer times: a witness at 0 is in the window from 2
    /// to 5, and the ring never holds more than its capacity.
    #[test]
    fn witness_ring_by_hand() {
        let (lo, hi) = (2, 5);
        let capacity = ring_capacity(lo, hi).unwrap();
        assert_eq!(capacity, 3);
        let mut ring = [0i64; 4];
        let mut seen = [false; 8];
        for now in 0..8 {
            seen[now as usize] = witnessed(&ring, now, lo, hi);
            witness_next(&mut ring, true, now == 0, now, lo, hi);
        }
        assert_eq!(seen, [false, false, true, true, true, true, false, false]);
        assert_eq!(ring_capacity(5, 5), None);
    }
}
