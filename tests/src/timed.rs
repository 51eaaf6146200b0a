//! The textbook semantics of future-time properties with a duration bound,
//! over timestamped traces: point-based metric temporal logic, with LTL3
//! verdicts on prefixes and the finite-trace verdicts of `finish`. It shares
//! nothing with `hindsight_runtime::time`: windows are sets of positions, and
//! a verdict on a prefix asks whether some, or every, continuation satisfies
//! the formula.
//!
//! A continuation is any sequence of further steps whose times do not go
//! below the prefix's last and grow without bound, and whose operands (the
//! past-time sub-formulas, taken as independent letters) take any values.
//! So, for a window `[lo,hi]` anchored at position `i` (time `t_i`) of a
//! prefix ending at time `t_n`:
//! - a later step can still fall in the window iff `t_n <= t_i + hi` (a step
//!   at time `max(t_n, t_i + lo)` does);
//! - a later step can always fall outside it (at a time beyond `t_i + hi`),
//!   and can always carry any letter.

use crate::gen::INPUTS;
use crate::reference::{eval_timed, Step};
use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{BoolOp, BoundUnit, Expr, ExprKind, Value};
use hindsight_runtime::{ResetCounts, Verdict};

/// The future operator of a timed property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `F[lo,hi] target`.
    Eventually,
    /// `G[lo,hi] target`.
    Always,
    /// `lhs U[lo,hi] target`.
    Until,
}

/// A timed future-time property: `M`, `α -> M`, `G M` or `G (α -> M)`.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// Under `G`: evaluated at every position.
    pub every: bool,
    /// `α`, if any.
    pub trigger: Option<Expr>,
    /// The operator `M`.
    pub op: Op,
    /// Its window, microseconds.
    pub lo: u64,
    /// Its window's upper end, microseconds.
    pub hi: u64,
    /// The left operand of `U`.
    pub lhs: Option<Expr>,
    /// The operand of `F`/`G`, the right operand of `U`.
    pub target: Expr,
}

impl Pattern {
    /// The pattern `formula` has, if it is one.
    pub fn of(formula: &Expr) -> Option<Pattern> {
        let (every, body) = match &formula.kind {
            ExprKind::Unary(UnaryTemporal::Globally, None, body) => (true, &**body),
            _ => (false, formula),
        };
        let (trigger, m) = match &body.kind {
            ExprKind::Bool(BoolOp::Implies, a, m) => (Some((**a).clone()), &**m),
            _ => (None, body),
        };
        let (op, bound, lhs, target) = match &m.kind {
            ExprKind::Unary(UnaryTemporal::Eventually, Some(b), a) => (Op::Eventually, b, None, a),
            ExprKind::Unary(UnaryTemporal::Globally, Some(b), a) => (Op::Always, b, None, a),
            ExprKind::Binary(BinaryTemporal::Until, Some(b), l, r) => {
                (Op::Until, b, Some((**l).clone()), r)
            }
            _ => return None,
        };
        (bound.unit == BoundUnit::Time).then(|| Pattern {
            every,
            trigger,
            op,
            lo: bound.lo,
            hi: bound.hi.unwrap_or(bound.lo),
            lhs,
            target: (**target).clone(),
        })
    }
}

/// The operands' values over a whole trace.
struct Letters {
    times: Vec<i64>,
    trigger: Vec<bool>,
    lhs: Vec<bool>,
    target: Vec<bool>,
}

impl Letters {
    fn new(p: &Pattern, trace: &[Step], times: &[i64]) -> Self {
        let values = |e: &Option<Expr>| -> Vec<bool> {
            (0..trace.len())
                .map(|i| {
                    e.as_ref()
                        .is_none_or(|e| eval_timed(e, trace, times, i).as_bool())
                })
                .collect()
        };
        Letters {
            times: times.to_vec(),
            trigger: values(&p.trigger),
            lhs: values(&p.lhs),
            target: values(&Some(p.target.clone())),
        }
    }
}

/// Whether `M` at position `i` is satisfied by some / by every continuation
/// of the prefix `i..=n`, or (`finished`) holds on the trace ending at `n`.
#[derive(Clone, Copy, Debug)]
struct Outlook {
    some: bool,
    every: bool,
    finished: bool,
}

/// `M` anchored at `i` on the prefix ending at `n`.
fn outlook(p: &Pattern, l: &Letters, i: usize, n: usize) -> Outlook {
    let age = |j: usize| (l.times[j] - l.times[i]) as u64;
    let inside = |j: usize| age(j) >= p.lo && age(j) <= p.hi;
    let open = age(n) <= p.hi;
    match p.op {
        Op::Eventually => {
            let witnessed = (i..=n).any(|j| inside(j) && l.target[j]);
            Outlook {
                some: witnessed || open,
                every: witnessed,
                finished: witnessed,
            }
        }
        Op::Always => {
            let violated = (i..=n).any(|j| inside(j) && !l.target[j]);
            Outlook {
                some: !violated,
                every: !violated && !open,
                finished: !violated,
            }
        }
        Op::Until => {
            let witnessed = (i..=n).any(|j| inside(j) && l.target[j] && (i..j).all(|k| l.lhs[k]));
            let chain = (i..=n).all(|k| l.lhs[k]);
            Outlook {
                some: witnessed || (chain && open),
                every: witnessed,
                finished: witnessed,
            }
        }
    }
}

/// The LTL3 verdict, and the finite-trace verdict, of `p` evaluated at
/// position `start` on the prefix `start..=n`.
fn verdicts(p: &Pattern, l: &Letters, start: usize, n: usize) -> (Verdict, Verdict) {
    let at = |i: usize| {
        if l.trigger[i] {
            outlook(p, l, i, n)
        } else {
            Outlook {
                some: true,
                every: true,
                finished: true,
            }
        }
    };
    if !p.every {
        let o = at(start);
        let verdict = match (o.every, o.some) {
            (true, _) => Verdict::True,
            (false, false) => Verdict::False,
            _ => Verdict::Unknown,
        };
        return (verdict, Verdict::from(o.finished));
    }
    // Under `G` (and `lo == 0`): the open obligations can all be met at once
    // by one step at the last time carrying the target (or, for `G`, by no
    // step within any window), and a new triggering step can always be
    // violated: never `true` before the end.
    let all_possible = (start..=n).all(|i| at(i).some);
    let verdict = if all_possible {
        Verdict::Unknown
    } else {
        Verdict::False
    };
    let finished = (start..=n).all(|i| at(i).finished);
    (verdict, Verdict::from(finished))
}

/// What a monitor reports after each step of `trace` (with `times`) for
/// the timed property `p`: the step's verdict, the finite-trace verdict if
/// the trace ended there, and the reset counts it would end with. With
/// `reset`, a decided verdict restarts the evaluation at the next position.
pub fn reports(
    p: &Pattern,
    reset: bool,
    trace: &[Step],
    times: &[i64],
) -> Vec<(Verdict, Verdict, ResetCounts)> {
    let letters = Letters::new(p, trace, times);
    let mut start = 0;
    let mut counts = ResetCounts::default();
    let mut out = Vec::new();
    for n in 0..trace.len() {
        let (verdict, finished) = verdicts(p, &letters, start, n);
        if reset && verdict != Verdict::Unknown {
            counts.record(verdict);
            start = n + 1;
            // The run restarted at the very last step: its end verdict is the
            // verdict that ended it, and no unfinished run adds to the counts.
            out.push((verdict, verdict, counts));
        } else if reset {
            let mut with_end = counts;
            with_end.record(finished);
            out.push((verdict, finished, with_end));
        } else {
            out.push((verdict, finished, ResetCounts::default()));
        }
    }
    out
}

/// The step times of a timed trace (the value after the [`INPUTS`]), as a
/// monitor reads them: a time below an earlier step's is that step's.
pub fn times(trace: &[Step]) -> Vec<i64> {
    let mut latest = i64::MIN;
    trace
        .iter()
        .map(|step| match step.get(INPUTS.len()) {
            Some(Value::Int(t)) => {
                latest = latest.max(*t);
                latest
            }
            other => panic!("a timed step ends with its time, not {other:?}"),
        })
        .collect()
}

/// Per property, what the reference expects after each step: the verdict,
/// the finite-trace verdict and the reset counts.
pub fn expected(
    properties: &[(hindsight_compiler::hir::Expr, bool)],
    trace: &[Step],
) -> Vec<Vec<(Verdict, Verdict, ResetCounts)>> {
    let times = times(trace);
    properties
        .iter()
        .map(|(formula, reset)| match Pattern::of(formula) {
            Some(pattern) => reports(&pattern, *reset, trace, &times),
            None => (0..trace.len())
                .map(|i| {
                    let v = Verdict::from(eval_timed(formula, trace, &times, i).as_bool());
                    (v, v, ResetCounts::default())
                })
                .collect(),
        })
        .collect()
}
