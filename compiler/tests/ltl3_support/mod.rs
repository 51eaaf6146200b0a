//! Shared helpers of the LTL3 tests: formula constructors, and independent textbook
//! evaluators used as oracles — LTL on lassos `u·v^ω`, LTLf on finite words, and
//! LTL3 verdicts by brute force over short lasso continuations.

#![allow(dead_code)]

use hindsight_compiler::ltl3::Formula;
use hindsight_compiler::Verdict;
use proptest::prelude::*;

pub(crate) fn atom(i: u32) -> Formula {
    Formula::Atom(i)
}

/// One constructor per row `name => Variant(operands)`, for the operators
/// whose operands are all boxed formulas.
macro_rules! constructors {
    ($($name:ident => $variant:ident($($operand:ident),+);)*) => {$(
        pub(crate) fn $name($($operand: Formula),+) -> Formula {
            Formula::$variant($(Box::new($operand)),+)
        }
    )*};
}

constructors! {
    not => Not(a);
    and => And(a, b);
    or => Or(a, b);
    implies => Implies(a, b);
    iff => Iff(a, b);
    next => Next(a);
    until => Until(a, b);
    release => Release(a, b);
    weak_until => WeakUntil(a, b);
    eventually => Eventually(a);
    always => Always(a);
}
pub(crate) fn eventually_in(lo: u32, hi: u32, a: Formula) -> Formula {
    Formula::EventuallyIn {
        lo,
        hi,
        body: Box::new(a),
    }
}
pub(crate) fn always_in(lo: u32, hi: u32, a: Formula) -> Formula {
    Formula::AlwaysIn {
        lo,
        hi,
        body: Box::new(a),
    }
}
pub(crate) fn until_in(lo: u32, hi: u32, a: Formula, b: Formula) -> Formula {
    Formula::UntilIn {
        lo,
        hi,
        left: Box::new(a),
        right: Box::new(b),
    }
}

/// The conjunction of `parts` (`true` if empty).
pub(crate) fn all(parts: Vec<Formula>) -> Formula {
    parts.into_iter().reduce(and).unwrap_or(Formula::True)
}

/// An infinite word `letters[..loop_start] · letters[loop_start..]^ω`.
pub(crate) struct Lasso {
    pub letters: Vec<u32>,
    pub loop_start: usize,
}

impl Lasso {
    fn succ(&self, i: usize) -> usize {
        if i + 1 < self.letters.len() {
            i + 1
        } else {
            self.loop_start
        }
    }

    /// The positions `i, i+1, …` for `n` steps (following the loop).
    fn walk(&self, i: usize, n: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(n);
        let mut j = i;
        for _ in 0..n {
            out.push(j);
            j = self.succ(j);
        }
        out
    }

    /// Textbook LTL semantics at position `i`. Every position reachable from `i` is
    /// among the next `len` positions, which bounds the unbounded operators.
    pub(crate) fn holds(&self, f: &Formula, i: usize) -> bool {
        use Formula::*;
        let n = self.letters.len();
        match f {
            True => true,
            False => false,
            Atom(a) => self.letters[i] >> a & 1 == 1,
            Not(a) => !self.holds(a, i),
            And(a, b) => self.holds(a, i) && self.holds(b, i),
            Or(a, b) => self.holds(a, i) || self.holds(b, i),
            Implies(a, b) => !self.holds(a, i) || self.holds(b, i),
            Iff(a, b) => self.holds(a, i) == self.holds(b, i),
            Next(a) => self.holds(a, self.succ(i)),
            Until(a, b) => self.until(a, b, i, 0, n),
            Release(a, b) => {
                for j in self.walk(i, n) {
                    if !self.holds(b, j) {
                        return false;
                    }
                    if self.holds(a, j) {
                        return true;
                    }
                }
                true
            }
            WeakUntil(a, b) => {
                self.until(a, b, i, 0, n) || self.walk(i, n).iter().all(|&j| self.holds(a, j))
            }
            Eventually(a) => self.walk(i, n).iter().any(|&j| self.holds(a, j)),
            Always(a) => self.walk(i, n).iter().all(|&j| self.holds(a, j)),
            EventuallyIn { lo, hi, body } => self.walk(i, *hi as usize + 1)[*lo as usize..]
                .iter()
                .any(|&j| self.holds(body, j)),
            AlwaysIn { lo, hi, body } => self.walk(i, *hi as usize + 1)[*lo as usize..]
                .iter()
                .all(|&j| self.holds(body, j)),
            UntilIn {
                lo,
                hi,
                left,
                right,
            } => self.until(left, right, i, *lo as usize, *hi as usize + 1),
        }
    }

    /// Some step `k` in `lo..steps` after `i` satisfies `b`, with `a` at every step before.
    fn until(&self, a: &Formula, b: &Formula, i: usize, lo: usize, steps: usize) -> bool {
        for (k, j) in self.walk(i, steps).into_iter().enumerate() {
            if k >= lo && self.holds(b, j) {
                return true;
            }
            if !self.holds(a, j) {
                return false;
            }
        }
        false
    }
}

/// LTLf semantics on the nonempty finite word `w` at position `i` (language.md
/// section 4, "End of trace": strong `X`, witnesses inside the trace, `G`/`W`/`R` and
/// windows running past the end hold unless violated inside it, `F[a,b]` needs its
/// witness inside).
pub(crate) fn holds_finite(f: &Formula, w: &[u32], i: usize) -> bool {
    use Formula::*;
    let n = w.len();
    let hold = |g: &Formula, j: usize| holds_finite(g, w, j);
    let until = |a: &Formula, b: &Formula, lo: usize, hi: usize| {
        for j in i..n.min(i + hi + 1) {
            if j - i >= lo && hold(b, j) {
                return true;
            }
            if !hold(a, j) {
                return false;
            }
        }
        false
    };
    let window = |lo: u32, hi: u32| (i + lo as usize)..n.min(i + hi as usize + 1);
    match f {
        True => true,
        False => false,
        Atom(a) => w[i] >> a & 1 == 1,
        Not(a) => !hold(a, i),
        And(a, b) => hold(a, i) && hold(b, i),
        Or(a, b) => hold(a, i) || hold(b, i),
        Implies(a, b) => !hold(a, i) || hold(b, i),
        Iff(a, b) => hold(a, i) == hold(b, i),
        Next(a) => i + 1 < n && hold(a, i + 1),
        Until(a, b) => until(a, b, 0, n),
        Release(a, b) => {
            for j in i..n {
                if !hold(b, j) {
                    return false;
                }
                if hold(a, j) {
                    return true;
                }
            }
            true
        }
        WeakUntil(a, b) => until(a, b, 0, n) || (i..n).all(|j| hold(a, j)),
        Eventually(a) => (i..n).any(|j| hold(a, j)),
        Always(a) => (i..n).all(|j| hold(a, j)),
        EventuallyIn { lo, hi, body } => window(*lo, *hi).any(|j| hold(body, j)),
        AlwaysIn { lo, hi, body } => window(*lo, *hi).all(|j| hold(body, j)),
        UntilIn {
            lo,
            hi,
            left,
            right,
        } => until(left, right, *lo as usize, *hi as usize),
    }
}

/// All words of length `len` over `2^atoms` letters.
pub(crate) fn words(atoms: u32, len: usize) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|w| {
                (0..1u32 << atoms).map(move |l| {
                    let mut w = w.clone();
                    w.push(l);
                    w
                })
            })
            .collect();
    }
    out
}

/// The LTL3 verdict of `f` after `prefix`, judged over every continuation `v·w^ω`
/// with `|v| <= max_stem`, `1 <= |w| <= max_loop`.
pub(crate) fn brute_force_verdict(
    f: &Formula,
    prefix: &[u32],
    atoms: u32,
    max_stem: usize,
    max_loop: usize,
) -> Verdict {
    let (mut some_true, mut some_false) = (false, false);
    for stem_len in 0..=max_stem {
        for stem in words(atoms, stem_len) {
            for loop_len in 1..=max_loop {
                for cycle in words(atoms, loop_len) {
                    let mut letters = prefix.to_vec();
                    letters.extend(&stem);
                    let loop_start = letters.len();
                    letters.extend(&cycle);
                    if (Lasso {
                        letters,
                        loop_start,
                    })
                    .holds(f, 0)
                    {
                        some_true = true;
                    } else {
                        some_false = true;
                    }
                    if some_true && some_false {
                        return Verdict::Unknown;
                    }
                }
            }
        }
    }
    Verdict::from(some_true)
}

/// Random formulas over atoms `0..atoms` with at most `depth` nested operators and
/// window bounds up to `max_bound`.
pub(crate) fn formula_strategy(
    atoms: u32,
    depth: u32,
    max_bound: u32,
) -> impl Strategy<Value = Formula> {
    let leaf = prop_oneof![
        1 => Just(Formula::True),
        1 => Just(Formula::False),
        6 => (0..atoms).prop_map(Formula::Atom),
    ];
    let bounds = (0..=max_bound, 0..=max_bound).prop_map(|(a, b)| (a.min(b), a.max(b)));
    leaf.prop_recursive(depth, 32, 2, move |inner| {
        prop_oneof![
            inner.clone().prop_map(not),
            inner.clone().prop_map(next),
            inner.clone().prop_map(eventually),
            inner.clone().prop_map(always),
            (bounds.clone(), inner.clone()).prop_map(|((lo, hi), a)| eventually_in(lo, hi, a)),
            (bounds.clone(), inner.clone()).prop_map(|((lo, hi), a)| always_in(lo, hi, a)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| and(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| or(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| implies(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| iff(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| until(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| release(a, b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| weak_until(a, b)),
            (bounds.clone(), inner.clone(), inner.clone())
                .prop_map(|((lo, hi), a, b)| until_in(lo, hi, a, b)),
        ]
    })
}
