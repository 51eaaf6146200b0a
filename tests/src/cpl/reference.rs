//! The denotational semantics of Causal Past Logic (the CPL paper's Section 4,
//! language.md section 4 "system"), evaluated straight from the definitions over
//! a whole [`Execution`]. It shares nothing with the compiler's lowering or
//! interpreter: it is the oracle the distributed monitor is tested against
//! (the paper's Theorem 5.1 as a test).
//!
//! A formula is always evaluated at an event `e`, on `e`'s lifeline: `@M`
//! moves to an `M`-event, and every other operator stays on the lifeline of the
//! event it is evaluated at.

use std::collections::HashMap;

use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{Bound, Expr, ExprKind, System, Value};

use super::msc::Execution;
use crate::reference::{arith, bool_op, compare, negate, timed_window};

/// Whether `formula` holds at `event`, evaluated on `event`'s lifeline (pass an
/// event of the guard's owner to evaluate a guard).
pub fn eval(execution: &Execution, formula: &Expr, event: usize) -> bool {
    Evaluator {
        execution,
        memo: HashMap::new(),
    }
    .holds(formula, event)
}

/// Every guard at every event: `table[e][g]` is guard `g`'s value at event `e`
/// when `e` is on `g`'s owner, `None` otherwise.
pub fn guard_table(system: &System, execution: &Execution) -> Vec<Vec<Option<bool>>> {
    let mut evaluator = Evaluator {
        execution,
        memo: HashMap::new(),
    };
    execution
        .events()
        .iter()
        .enumerate()
        .map(|(e, event)| {
            system
                .guards
                .iter()
                .map(|g| (g.owner == event.lifeline).then(|| evaluator.holds(&g.formula, e)))
                .collect()
        })
        .collect()
}

/// The evaluation of one execution; memoizes formula values per
/// (sub-formula, event) so nested temporal operators stay cheap. The cache
/// only avoids recomputation: every value is still the definition's.
struct Evaluator<'a> {
    execution: &'a Execution,
    /// Keyed by the sub-formula's address (stable: the formula is borrowed
    /// for the evaluator's lifetime) and the event.
    memo: HashMap<(*const Expr, usize), bool>,
}

impl Evaluator<'_> {
    /// `e ⊨ φ`. A formula that is a term (a bool variable, `L.x` or a
    /// constant) holds when it is defined and true: an undefined atom is false.
    fn holds(&mut self, formula: &Expr, e: usize) -> bool {
        let key = (formula as *const Expr, e);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = self.term(formula, e) == Some(Value::Bool(true));
        self.memo.insert(key, v);
        v
    }

    /// The value of `expr` at event `e`, `None` when undefined. Formulas are
    /// always defined (their truth value); terms may be undefined.
    fn term(&mut self, expr: &Expr, e: usize) -> Option<Value> {
        let exec = self.execution;
        let truth = |b: bool| Some(Value::Bool(b));
        match &expr.kind {
            ExprKind::Const(v) => Some(*v),
            // Unqualified variable: the store of e's lifeline after e (the
            // event's own changes applied); undefined while never assigned.
            ExprKind::Input(var) => exec.store(e)[*var],
            // `M.x`: x in the store at the latest M-event visible from e (e
            // itself when e is on M); undefined if there is none.
            ExprKind::Remote { lifeline, var } => {
                let at = exec.latest_visible(*lifeline, e)?;
                exec.store(at)[*var]
            }
            // `@M φ`: φ at e if e is on M, otherwise at the latest M-event in
            // the causal past of e; false if there is none. (`latest_visible`
            // returns e itself when e is on M, which covers both cases.)
            ExprKind::At { lifeline, arg } => truth(match exec.latest_visible(*lifeline, e) {
                Some(at) => self.holds(arg, at),
                None => false,
            }),
            // Population-only: a checked system has none.
            ExprKind::Attribute(_) | ExprKind::Quant { .. } => None,
            // An expanded quantifier: the number of items that hold.
            ExprKind::Count(items) => {
                let n = items.iter().filter(|item| self.holds(item, e)).count();
                Some(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)))
            }
            ExprKind::Not(a) => truth(!self.holds(a, e)),
            ExprKind::Neg(a) => Some(negate(self.term(a, e)?)),
            ExprKind::Bool(op, a, b) => truth(bool_op(*op, self.holds(a, e), self.holds(b, e))),
            // An atom: false if any of its terms is undefined.
            ExprKind::Cmp(op, a, b) => {
                let (x, y) = (self.term(a, e), self.term(b, e));
                truth(matches!((x, y), (Some(x), Some(y)) if compare(*op, x, y)))
            }
            // Arithmetic is undefined when an operand is (and then so is any atom using it).
            ExprKind::Arith(op, a, b) => {
                let (x, y) = (self.term(a, e), self.term(b, e));
                Some(arith(*op, x?, y?))
            }
            ExprKind::Unary(op, bound, a) => truth(self.unary(*op, *bound, a, e)),
            ExprKind::Binary(BinaryTemporal::Since, bound, a, b) => {
                truth(self.since(*bound, a, b, e))
            }
            ExprKind::Binary(future, ..) => panic!("guards are past-time, got {future:?}"),
        }
    }

    /// Past unary operators along the local order of e's lifeline. `Y φ`: φ at
    /// the previous local event, false at the lifeline's first event; `Z φ`: the
    /// same but true there. `O[a,b] φ` / `H[a,b] φ`: φ at some / every local
    /// event of the window ([`Self::window`]; no bound = all of `0..=k`).
    fn unary(&mut self, op: UnaryTemporal, bound: Option<Bound>, a: &Expr, e: usize) -> bool {
        let exec = self.execution;
        let local = exec.lifeline_events(exec.events()[e].lifeline);
        match op {
            UnaryTemporal::Yesterday => exec.previous_local(e).is_some_and(|p| self.holds(a, p)),
            UnaryTemporal::WeakYesterday => exec.previous_local(e).is_none_or(|p| self.holds(a, p)),
            UnaryTemporal::Once => self.window(bound, e).any(|j| self.holds(a, local[j])),
            UnaryTemporal::Historically => self.window(bound, e).all(|j| self.holds(a, local[j])),
            future => panic!("guards are past-time, got {future:?}"),
        }
    }

    /// The local positions in `bound`'s window at e (e's local position `k`:
    /// `k-b ..= k-a` for steps, clipped at the lifeline's first event; the
    /// local events whose time lies `a ..= b` before e's for durations).
    fn window(&self, bound: Option<Bound>, e: usize) -> std::vec::IntoIter<usize> {
        let times = self.local_times(e);
        let k = self.execution.local_index(e);
        timed_window(bound, &times, k)
            .collect::<Vec<_>>()
            .into_iter()
    }

    /// The times of the local events of e's lifeline up to e, as its
    /// monitor reads them: the time variable (the lifeline's last, if the
    /// system has a time) after each event, 0 while undefined, never below
    /// an earlier event's. Empty for a system without time.
    fn local_times(&self, e: usize) -> Vec<i64> {
        let exec = self.execution;
        if !exec.timed() {
            return Vec::new();
        }
        let lifeline = exec.events()[e].lifeline;
        let var = exec.store(e).len() - 1;
        let mut latest = i64::MIN;
        exec.lifeline_events(lifeline)
            .iter()
            .map(|&event| {
                let t = match exec.store(event)[var] {
                    Some(Value::Int(t)) => t,
                    _ => 0,
                };
                latest = latest.max(t);
                latest
            })
            .collect()
    }

    /// `φ S[a,b] ψ` along the local order of e's lifeline: ψ at some local event
    /// j in the window (as for `O`), and φ at every local event after j up to e.
    fn since(&mut self, bound: Option<Bound>, a: &Expr, b: &Expr, e: usize) -> bool {
        let exec = self.execution;
        let local = exec.lifeline_events(exec.events()[e].lifeline);
        let k = exec.local_index(e);
        self.window(bound, e)
            .any(|j| self.holds(b, local[j]) && (j + 1..=k).all(|m| self.holds(a, local[m])))
    }
}
