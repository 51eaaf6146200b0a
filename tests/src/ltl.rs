//! A slow, obviously-correct evaluator of future-time formulas (with past
//! sub-formulas), straight from the definitions of language.md section 4, over
//! two kinds of words: ultimately periodic infinite words (lassos
//! `stem · cycle^ω`) and finite traces (LTLf, with the end-of-trace rules). On
//! top of it, the LTL3 verdict by brute force over lasso continuations.
//!
//! It shares nothing with `hindsight_compiler::ltl3` or the table IR: past
//! sub-formulas go to [`crate::reference::eval`] on the concrete word, future
//! operators are evaluated by walking the word's positions. It is the oracle the
//! monitor automata are tested against.

use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{Bound, Expr, ExprKind};
use hindsight_compiler::Verdict;

use crate::hir::system_construct;
use crate::reference::{bool_op, eval, Step};

/// A word the evaluator walks: finitely many distinct positions `0..len`, each
/// with a successor in an infinite word, or none at the end of a finite trace.
#[derive(Clone, Debug)]
pub struct Word {
    /// The steps at positions `0..len`. For a lasso: the stem, then the cycle
    /// unrolled until every past sub-formula is periodic, then one cycle.
    steps: Vec<Step>,
    /// For a lasso, the position the last one continues with; `None` for a finite trace.
    loop_start: Option<usize>,
}

impl Word {
    /// The finite trace `trace`.
    pub fn finite(trace: &[Step]) -> Self {
        Word {
            steps: trace.to_vec(),
            loop_start: None,
        }
    }

    /// The infinite word `stem · cycle^ω` (`cycle` not empty), laid out so that
    /// every past sub-formula of `formula` repeats with the cycle from the
    /// loop start on: the cycle is unrolled [`past_settling`] positions past the stem.
    pub fn lasso(stem: &[Step], cycle: &[Step], formula: &Expr) -> Self {
        assert!(!cycle.is_empty(), "a lasso needs a non-empty cycle");
        let unrolled = past_settling(formula, cycle.len()).div_ceil(cycle.len());
        let mut steps = Vec::with_capacity(stem.len() + (unrolled + 1) * cycle.len());
        steps.extend_from_slice(stem);
        for _ in 0..=unrolled {
            steps.extend_from_slice(cycle);
        }
        let loop_start = steps.len() - cycle.len();
        Word {
            steps,
            loop_start: Some(loop_start),
        }
    }

    /// The number of distinct positions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the word has no position (only an empty finite trace).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The positions `i, i+1, i+2, ...` of the word, folded into `0..len`: endless
    /// for a lasso, up to the last step for a finite trace.
    fn walk(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(i), move |&k| {
            if k + 1 < self.steps.len() {
                Some(k + 1)
            } else {
                self.loop_start
            }
        })
    }

    /// The value of `e` at every position `0..len`.
    ///
    /// Past-time sub-formulas (no future operator inside) are evaluated by the
    /// reference evaluator on the steps up to the position — on a lasso, the
    /// unrolling makes them agree with the infinite word. Future operators walk
    /// the word; `len` steps of a walk reach every position it ever reaches, so
    /// unbounded operators look that far and no further (the first witness or
    /// counterexample along a walk is always within it).
    pub fn values(&self, e: &Expr) -> Vec<bool> {
        let n = self.len();
        if !e.is_future() {
            return (0..n).map(|i| eval(e, &self.steps, i).as_bool()).collect();
        }
        match &e.kind {
            ExprKind::Not(a) => self.values(a).iter().map(|&x| !x).collect(),
            ExprKind::Bool(op, a, b) => {
                let (a, b) = (self.values(a), self.values(b));
                (0..n).map(|i| bool_op(*op, a[i], b[i])).collect()
            }
            ExprKind::Unary(op, bound, a) => {
                let a = self.values(a);
                (0..n)
                    .map(|i| match op {
                        UnaryTemporal::Next => self.walk(i).nth(1).is_some_and(|k| a[k]),
                        UnaryTemporal::Eventually => self.window(i, *bound).any(|k| a[k]),
                        UnaryTemporal::Globally => self.window(i, *bound).all(|k| a[k]),
                        past => {
                            panic!("{past:?} over a future operator is rejected by the checker")
                        }
                    })
                    .collect()
            }
            ExprKind::Binary(op, bound, a, b) => {
                let (a, b) = (self.values(a), self.values(b));
                (0..n)
                    .map(|i| match op {
                        BinaryTemporal::Until => self.until(i, *bound, &a, &b),
                        BinaryTemporal::WeakUntil => {
                            self.until(i, None, &a, &b) || self.window(i, None).all(|k| a[k])
                        }
                        BinaryTemporal::Release => self.release(i, &a, &b),
                        BinaryTemporal::Since => {
                            panic!("S over a future operator is rejected by the checker")
                        }
                    })
                    .collect()
            }
            other => panic!("a future formula of type bool cannot be {other:?}"),
        }
    }

    /// The positions at offsets `lo..=hi` of the walk from `i` (`0..len` unbounded).
    fn window(&self, i: usize, bound: Option<Bound>) -> impl Iterator<Item = usize> + '_ {
        let (lo, hi) = offsets(bound, self.len());
        self.walk(i).skip(lo).take(hi + 1 - lo)
    }

    /// `φ U[lo,hi] ψ` at `i`: ψ at some offset in the window, φ at every earlier offset.
    fn until(&self, i: usize, bound: Option<Bound>, phi: &[bool], psi: &[bool]) -> bool {
        let (lo, hi) = offsets(bound, self.len());
        let mut phi_so_far = true; // φ at every offset before `k`
        for (k, m) in self.walk(i).take(hi + 1).enumerate() {
            if k >= lo && psi[m] && phi_so_far {
                return true;
            }
            phi_so_far &= phi[m];
        }
        false
    }

    /// `φ R ψ` at `i`: ψ at every offset up to and including the first φ (or
    /// forever), that is: no offset where ψ fails before any φ.
    fn release(&self, i: usize, phi: &[bool], psi: &[bool]) -> bool {
        let mut phi_before = false; // φ at some offset before `m`
        for m in self.window(i, None) {
            if !psi[m] && !phi_before {
                return false;
            }
            phi_before |= phi[m];
        }
        true
    }
}

/// The offsets `lo..=hi` of a bound; `0..=len-1` (every position a walk reaches) without one.
fn offsets(bound: Option<Bound>, len: usize) -> (usize, usize) {
    let to = |x: u64| usize::try_from(x).expect("small bounds");
    match bound {
        Some(Bound {
            lo, hi: Some(hi), ..
        }) => (to(lo), to(hi)),
        Some(Bound { lo, hi: None, .. }) => (to(lo), to(lo) + len),
        None => (0, len.saturating_sub(1)),
    }
}

/// How many positions past the stem of a lasso with a cycle of `cycle` steps the
/// past sub-formulas of `e` may need before they repeat with the cycle.
///
/// For a past operator whose operands repeat from position t on: `Y`, `Z` and
/// windows `[a,b]` with finite `b` read at most `b` steps back, so they repeat
/// from t+b+1; the unbounded `O`, `H`, `S` (and `[a,inf]`, which are the
/// unbounded operator `a` steps back) carry one bit from block to block of the
/// cycle, and that bit is settled after one block (it can go from true to false
/// or stay, never flip back and forth: without a witness in a block `O`/`S`
/// cannot become true, without a failure `H` cannot become false), so they repeat
/// from t+a+2·cycle+1. The sum over the nesting is a safe over-estimate.
pub fn past_settling(e: &Expr, cycle: usize) -> usize {
    let own = |bound: &Option<Bound>| -> usize {
        let to = |x: u64| usize::try_from(x).expect("small bounds");
        match bound {
            Some(Bound {
                lo, hi: Some(hi), ..
            }) => to(*lo).max(to(*hi)) + 1,
            Some(Bound { lo, hi: None, .. }) => to(*lo) + 2 * cycle + 1,
            None => 2 * cycle + 1,
        }
    };
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Input(_) => 0,
        ExprKind::Not(a) | ExprKind::Neg(a) => past_settling(a, cycle),
        ExprKind::Bool(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Arith(_, a, b) => {
            past_settling(a, cycle).max(past_settling(b, cycle))
        }
        ExprKind::Unary(op, bound, a) => {
            let inner = past_settling(a, cycle);
            match op {
                UnaryTemporal::Yesterday | UnaryTemporal::WeakYesterday => inner + 1,
                UnaryTemporal::Once | UnaryTemporal::Historically => inner + own(bound),
                UnaryTemporal::Next | UnaryTemporal::Eventually | UnaryTemporal::Globally => inner,
            }
        }
        ExprKind::Binary(op, bound, a, b) => {
            let inner = past_settling(a, cycle).max(past_settling(b, cycle));
            match op {
                BinaryTemporal::Since => inner + own(bound),
                _ => inner,
            }
        }
        system_construct!() => {
            unreachable!("monitor specs have no system constructs")
        }
    }
}

/// The finite-trace (LTLf) value of `e` at position `i` of `trace` (`i < trace.len()`).
pub fn holds_finite(e: &Expr, trace: &[Step], i: usize) -> bool {
    Word::finite(trace).values(e)[i]
}

/// The infinite continuations the LTL3 oracle tries: every `stem · cycle^ω`
/// with at most `max_stem` stem steps and 1 to `max_cycle` cycle steps over `letters`.
#[derive(Clone, Debug)]
pub struct Continuations {
    stems: Vec<Vec<Step>>,
    cycles: Vec<Vec<Step>>,
}

impl Continuations {
    /// All continuations of the given sizes over the given steps (`letters`
    /// pairwise different), each infinite word once: cycles that repeat a
    /// shorter cycle (`a a`) are left out, and so are stems ending in the cycle's
    /// last step (`s x · (c x)^ω` is `s · (x c)^ω`, a shorter stem with a rotated cycle).
    pub fn new(letters: &[Step], max_stem: usize, max_cycle: usize) -> Self {
        let mut cycles = words(letters, 1, max_cycle);
        cycles.retain(|c| is_primitive(c));
        Continuations {
            stems: words(letters, 0, max_stem),
            cycles,
        }
    }

    /// Every `(stem, cycle)` pair, once per infinite word.
    fn pairs(&self) -> impl Iterator<Item = (&[Step], &[Step])> {
        self.stems.iter().flat_map(move |stem| {
            self.cycles
                .iter()
                .filter(move |cycle| stem.last().is_none() || stem.last() != cycle.last())
                .map(move |cycle| (stem.as_slice(), cycle.as_slice()))
        })
    }

    /// How many continuations there are.
    pub fn count(&self) -> usize {
        self.pairs().count()
    }
}

/// Whether `cycle` is not a repetition of a shorter sequence.
fn is_primitive(cycle: &[Step]) -> bool {
    let n = cycle.len();
    (1..n).all(|d| !n.is_multiple_of(d) || (0..n).any(|k| cycle[k] != cycle[k % d]))
}

/// Every sequence of `letters` with a length in `min..=max`.
fn words(letters: &[Step], min: usize, max: usize) -> Vec<Vec<Step>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|w: &Vec<Step>| {
                letters.iter().map(move |l| {
                    let mut w = w.clone();
                    w.push(l.clone());
                    w
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all.retain(|w| w.len() >= min);
    all
}

/// The LTL3 verdict of `e` at position `position` after `prefix`: `True` if every
/// tried continuation satisfies it, `False` if none does, `Unknown` otherwise.
///
/// Exact when the continuations are rich enough to contain a witness of every
/// satisfiable residual and of every falsifiable one; `Unknown` is always right
/// (both witnesses were found).
pub fn ltl3(e: &Expr, prefix: &[Step], position: usize, continuations: &Continuations) -> Verdict {
    let (mut sat, mut unsat) = (false, false);
    let mut word = prefix.to_vec();
    for (stem, cycle) in continuations.pairs() {
        word.truncate(prefix.len());
        word.extend_from_slice(stem);
        if Word::lasso(&word, cycle, e).values(e)[position] {
            sat = true;
        } else {
            unsat = true;
        }
        if sat && unsat {
            return Verdict::Unknown;
        }
    }
    Verdict::from(sat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::bool_trace;
    use hindsight_compiler::ast::Span;
    use hindsight_compiler::hir::{BoolOp, Ty, Value};

    fn node(kind: ExprKind) -> Expr {
        Expr {
            kind,
            ty: Ty::Bool,
            span: Span::default(),
        }
    }
    fn p(k: usize) -> Expr {
        node(ExprKind::Input(k))
    }
    fn un(op: UnaryTemporal, bound: Option<(u64, u64)>, a: Expr) -> Expr {
        let bound = bound.map(|(lo, hi)| Bound::steps(lo, Some(hi)));
        node(ExprKind::Unary(op, bound, Box::new(a)))
    }
    fn bin(op: BinaryTemporal, a: Expr, b: Expr) -> Expr {
        node(ExprKind::Binary(op, None, Box::new(a), Box::new(b)))
    }
    fn finite(e: &Expr, columns: &[&str]) -> String {
        let t = bool_trace(columns);
        (0..t.len())
            .map(|i| if holds_finite(e, &t, i) { '1' } else { '0' })
            .collect()
    }
    fn letters(inputs: usize) -> Vec<Step> {
        (0..1usize << inputs)
            .map(|l| (0..inputs).map(|k| Value::Bool(l >> k & 1 == 1)).collect())
            .collect()
    }

    use BinaryTemporal::*;
    use UnaryTemporal::*;

    #[test]
    fn finite_traces_by_hand() {
        // p: 0 1 0 0, q: 0 0 1 0
        let cols = ["0100", "0010"];
        assert_eq!(finite(&un(Next, None, p(0)), &cols), "1000"); // X p false at the end
        assert_eq!(finite(&un(Eventually, None, p(0)), &cols), "1100");
        assert_eq!(
            finite(&un(Globally, None, un(Next, None, p(1))), &cols),
            "0000"
        );
        assert_eq!(finite(&un(Eventually, Some((1, 2)), p(1)), &cols), "1100");
        // G[1,2] !q: q at 2 fails it at 0 and 1; position 2 sees only position 3
        // (the window runs past the end), position 3 sees nothing.
        let not_q = node(ExprKind::Not(Box::new(p(1))));
        assert_eq!(finite(&un(Globally, Some((1, 2)), not_q), &cols), "0011");
        assert_eq!(finite(&bin(Until, p(0), p(1)), &cols), "0110"); // no q from 3 on
        assert_eq!(finite(&bin(WeakUntil, p(0), p(1)), &cols), "0110");
        // q R p: p up to and including the first q, or to the end.
        assert_eq!(finite(&bin(Release, p(1), p(0)), &cols), "0000");
        assert_eq!(finite(&bin(Release, p(0), p(1)), &["0", "1"]), "1");
        // Past inside future: F (p && Y p) on p: 1 1 0 (p && Y p only at 1).
        let yp = un(Yesterday, None, p(0));
        let and = node(ExprKind::Bool(BoolOp::And, Box::new(p(0)), Box::new(yp)));
        assert_eq!(finite(&un(Eventually, None, and), &["110"]), "110");
    }

    #[test]
    fn lassos_by_hand() {
        let t = |s: &str| bool_trace(&[s]);
        // p: 1 · (0 1)^ω = 1 0 1 0 ...: G F p true, F G p false, X X p true, X X X p false.
        let word = |e: &Expr| Word::lasso(&t("1"), &t("01"), e).values(e)[0];
        assert!(word(&un(Globally, None, un(Eventually, None, p(0)))));
        assert!(!word(&un(Eventually, None, un(Globally, None, p(0)))));
        assert!(word(&un(Next, None, un(Next, None, p(0)))));
        assert!(!word(&un(Next, None, un(Next, None, un(Next, None, p(0))))));
        // Y p alternates with the cycle: G (p -> X !p) holds, G (Y p -> !p) too.
        let yp = un(Yesterday, None, p(0));
        let not_p = node(ExprKind::Not(Box::new(p(0))));
        let imp = node(ExprKind::Bool(
            BoolOp::Implies,
            Box::new(yp),
            Box::new(not_p),
        ));
        assert!(word(&un(Globally, None, imp)));
    }

    #[test]
    fn the_anticipatory_examples_are_decided_at_once() {
        let c = Continuations::new(&letters(1), 2, 2);
        let not_p = || node(ExprKind::Not(Box::new(p(0))));
        let and = |a, b| node(ExprKind::Bool(BoolOp::And, Box::new(a), Box::new(b)));
        let or = |a, b| node(ExprKind::Bool(BoolOp::Or, Box::new(a), Box::new(b)));
        let first = t1();
        let f_and_g = and(un(Eventually, None, p(0)), un(Globally, None, not_p()));
        assert_eq!(ltl3(&f_and_g, &first, 0, &c), Verdict::False);
        let tautology = un(Next, None, or(p(0), not_p()));
        assert_eq!(ltl3(&tautology, &first, 0, &c), Verdict::True);
        let gf = un(Globally, None, un(Eventually, None, p(0)));
        let fg = un(Eventually, None, un(Globally, None, not_p()));
        assert_eq!(ltl3(&and(gf.clone(), fg), &first, 0, &c), Verdict::False);
        assert_eq!(ltl3(&gf, &first, 0, &c), Verdict::Unknown);
        assert_eq!(
            ltl3(&un(Eventually, None, p(0)), &first, 0, &c),
            Verdict::True
        );
    }

    /// One step with `p` true.
    fn t1() -> Vec<Step> {
        bool_trace(&["1"])
    }

    #[test]
    fn continuations_are_distinct_words() {
        // Over 2 letters: primitive cycles of length <= 2 are a, b, ab, ba; stems
        // of length <= 1 are "", a, b; a stem may not end in its cycle's last letter.
        // "" x 4, a x {b, ba}, b x {a, ab}: 8.
        assert_eq!(Continuations::new(&letters(1), 1, 2).count(), 8);
        assert!(is_primitive(&bool_trace(&["011"])));
        assert!(!is_primitive(&bool_trace(&["0101"])));
    }

    #[test]
    fn settling_covers_unbounded_past_operators() {
        // O p on 0 · (0 1)^ω: false at 0 and 1, true from 2 on.
        let e = un(Once, None, p(0));
        assert_eq!(past_settling(&e, 2), 5);
        let w = Word::lasso(&bool_trace(&["0"]), &bool_trace(&["01"]), &e);
        let v = w.values(&e);
        assert!(!v[0] && !v[1] && v[2..].iter().all(|&x| x));
        assert_eq!(w.loop_start, Some(w.len() - 2));
    }
}
