//! Reachability probabilities of an MDP, `Pmax(◇ G)` and `Pmin(◇ G)` from
//! every state, as sound intervals by interval iteration (Haddad and
//! Monmege, "Interval iteration algorithm for MDPs and IMDPs", TCS 2018;
//! Baier et al., CAV 2017): a lower bound iterated up from 0 and an upper
//! bound iterated down from 1 until they are `precision` apart. Both stay
//! bounds at every iteration, so the answer is an interval that holds the
//! exact value, not a guess from a stopping rule.
//!
//! The upper iteration converges only once the end components that could
//! trap it are gone:
//! - `Pmin`: the states from which some scheduler avoids `G` forever get
//!   0 first (a graph fixpoint); what remains has no such trap.
//! - `Pmax`: the states that cannot reach `G` get 0, and every maximal end
//!   component outside `G` is collapsed into one state keeping only the
//!   choices that leave it (staying inside forever never reaches `G`).
//!
//! `G` is absorbing (the goal was reached); a state with no choice (the
//! terminal state, a leaf never visited) is absorbing too.

use crate::mdp::Mdp;
use serde::{Deserialize, Serialize};

/// Which scheduler: the one that reaches `G` most or least likely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// `Pmax`.
    Max,
    /// `Pmin`.
    Min,
}

/// The probability of reaching `G` from each state: within `[lo, hi]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower bounds, per state.
    pub lo: Vec<f64>,
    /// Upper bounds, per state.
    pub hi: Vec<f64>,
}

impl Interval {
    /// The widest interval.
    pub fn width(&self) -> f64 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(l, h)| h - l)
            .fold(0.0, f64::max)
    }

    /// The midpoint at state `s` (within half the width of the exact value).
    pub fn value(&self, s: usize) -> f64 {
        match (self.lo.get(s), self.hi.get(s)) {
            (Some(l), Some(h)) => (l + h) / 2.0,
            _ => 0.0,
        }
    }
}

/// An MDP's choices as probability lists over (possibly collapsed) states.
struct Problem {
    /// Per state, its choices, each a list of (successor, probability).
    choices: Vec<Vec<Vec<(usize, f64)>>>,
    /// Per state, its value if it is decided before iterating.
    fixed: Vec<Option<f64>>,
}

/// `Pmax(◇ G)` or `Pmin(◇ G)` (`target[s]`: `s ∈ G`) from every state of
/// `mdp`, as intervals at most `precision` wide, or as narrow as
/// `max_iterations` sweeps make them (see [`Interval::width`]).
pub fn reach(
    mdp: &Mdp,
    target: &[bool],
    objective: Objective,
    precision: f64,
    max_iterations: usize,
) -> Interval {
    let n = mdp.states;
    let is_target = |s: usize| target.get(s).copied().unwrap_or(false);
    // Per state, its choices as (successor, probability) lists; targets absorb.
    let choices: Vec<Vec<Vec<(usize, f64)>>> = (0..n)
        .map(|s| {
            if is_target(s) {
                return Vec::new();
            }
            mdp.choices_of(s)
                .iter()
                .map(|c| c.probabilities().filter(|&(t, _)| t < n).collect())
                .collect()
        })
        .collect();
    let (problem, class) = match objective {
        Objective::Min => {
            let zero = avoidable(&choices, &is_target);
            let fixed = (0..n)
                .map(
                    |s| match (is_target(s), zero.get(s).copied().unwrap_or(true)) {
                        (true, _) => Some(1.0),
                        (false, true) => Some(0.0),
                        (false, false) => None,
                    },
                )
                .collect();
            (Problem { choices, fixed }, (0..n).collect::<Vec<_>>())
        }
        Objective::Max => collapse(choices, &is_target),
    };
    let solved = iterate(&problem, objective, precision, max_iterations);
    let pick = |values: &[f64]| -> Vec<f64> {
        class
            .iter()
            .map(|&c| values.get(c).copied().unwrap_or(0.0))
            .collect()
    };
    Interval {
        lo: pick(&solved.lo),
        hi: pick(&solved.hi),
    }
}

/// Per state, whether some scheduler avoids `G` forever from it (`Pmin = 0`):
/// the greatest set of non-`G` states each with no choice or a choice whose
/// successors all stay in the set.
fn avoidable(choices: &[Vec<Vec<(usize, f64)>>], is_target: &dyn Fn(usize) -> bool) -> Vec<bool> {
    let n = choices.len();
    let mut z: Vec<bool> = (0..n).map(|s| !is_target(s)).collect();
    loop {
        let mut changed = false;
        for s in 0..n {
            if !z[s] || choices[s].is_empty() {
                continue;
            }
            let stays = choices[s]
                .iter()
                .any(|c| c.iter().all(|&(t, _)| z.get(t).copied().unwrap_or(false)));
            if !stays {
                z[s] = false;
                changed = true;
            }
        }
        if !changed {
            return z;
        }
    }
}

/// The `Pmax` problem: states that cannot reach `G` decided 0, and each
/// maximal end component outside `G` collapsed into one state. Returns the
/// problem and each state's class in it.
fn collapse(
    choices: Vec<Vec<Vec<(usize, f64)>>>,
    is_target: &dyn Fn(usize) -> bool,
) -> (Problem, Vec<usize>) {
    let n = choices.len();
    // Backward reachability of G.
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (s, cs) in choices.iter().enumerate() {
        for c in cs {
            for &(t, _) in c {
                if let Some(p) = predecessors.get_mut(t) {
                    p.push(s);
                }
            }
        }
    }
    let mut reaches: Vec<bool> = (0..n).map(is_target).collect();
    let mut stack: Vec<usize> = (0..n).filter(|&s| is_target(s)).collect();
    while let Some(t) = stack.pop() {
        for &s in predecessors.get(t).map(Vec::as_slice).unwrap_or_default() {
            if !reaches[s] {
                reaches[s] = true;
                stack.push(s);
            }
        }
    }
    let components = end_components(&choices, &|s| is_target(s) || !reaches[s]);
    // Classes: one per end component, one per other state.
    let mut class = vec![usize::MAX; n];
    let mut members: Vec<Vec<usize>> = Vec::new();
    for component in &components {
        for &s in component {
            class[s] = members.len();
        }
        members.push(component.clone());
    }
    for (s, c) in class.iter_mut().enumerate() {
        if *c == usize::MAX {
            *c = members.len();
            members.push(vec![s]);
        }
    }
    let mut quotient = Vec::with_capacity(members.len());
    let mut fixed = Vec::with_capacity(members.len());
    for group in &members {
        let first = group.first().copied().unwrap_or(0);
        fixed.push(if is_target(first) {
            Some(1.0)
        } else if !reaches[first] {
            Some(0.0)
        } else {
            None
        });
        let own = class[first];
        let mut out: Vec<Vec<(usize, f64)>> = Vec::new();
        for &s in group {
            for c in &choices[s] {
                // A choice that stays inside its end component is dropped
                // (only an end component has one).
                if c.iter().all(|&(t, _)| class.get(t) == Some(&own)) {
                    continue;
                }
                out.push(
                    c.iter()
                        .map(|&(t, p)| (class.get(t).copied().unwrap_or(own), p))
                        .collect(),
                );
            }
        }
        quotient.push(out);
    }
    (
        Problem {
            choices: quotient,
            fixed,
        },
        class,
    )
}

/// The maximal end components among the states `excluded` does not rule
/// out: sets where each state keeps a choice whose successors stay in the
/// set, and every state reaches every other (strongly connected).
pub(crate) fn end_components(
    choices: &[Vec<Vec<(usize, f64)>>],
    excluded: &dyn Fn(usize) -> bool,
) -> Vec<Vec<usize>> {
    let n = choices.len();
    let mut alive: Vec<bool> = (0..n).map(|s| !excluded(s)).collect();
    let mut active: Vec<Vec<bool>> = choices.iter().map(|cs| vec![true; cs.len()]).collect();
    loop {
        let scc = strongly_connected(n, &|s, out: &mut Vec<usize>| {
            if !alive[s] {
                return;
            }
            for (c, on) in choices[s].iter().zip(&active[s]) {
                if *on {
                    out.extend(c.iter().map(|&(t, _)| t).filter(|&t| alive[t]));
                }
            }
        });
        let mut changed = false;
        for s in 0..n {
            if !alive[s] {
                continue;
            }
            for (c, on) in choices[s].iter().zip(active[s].iter_mut()) {
                if *on && !c.iter().all(|&(t, _)| alive[t] && scc[t] == scc[s]) {
                    *on = false;
                    changed = true;
                }
            }
            if !active[s].iter().any(|&on| on) {
                alive[s] = false;
                changed = true;
            }
        }
        if !changed {
            let mut by_component: std::collections::BTreeMap<usize, Vec<usize>> =
                Default::default();
            for s in (0..n).filter(|&s| alive[s]) {
                by_component.entry(scc[s]).or_default().push(s);
            }
            return by_component.into_values().collect();
        }
    }
}

/// The strongly connected component of each of `n` nodes (Tarjan's
/// algorithm, iterative), `edges(s, out)` listing `s`'s successors.
fn strongly_connected(n: usize, edges: &dyn Fn(usize, &mut Vec<usize>)) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![UNSEEN; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut next_component = 0;
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next successor position)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut at)) = work.last_mut() {
            if *at == 0 && index[v] == UNSEEN {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
                let mut out = Vec::new();
                edges(v, &mut out);
                successors[v] = out;
            }
            if let Some(&w) = successors[v].get(*at) {
                *at += 1;
                if index[w] == UNSEEN {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

/// Interval iteration (Gauss–Seidel sweeps) on `problem`.
fn iterate(problem: &Problem, objective: Objective, precision: f64, max: usize) -> Interval {
    let n = problem.choices.len();
    let mut lo: Vec<f64> = problem.fixed.iter().map(|f| f.unwrap_or(0.0)).collect();
    // Undecided states without a choice are absorbing outside G: 0.
    let mut hi: Vec<f64> = problem
        .fixed
        .iter()
        .zip(&problem.choices)
        .map(|(f, c)| f.unwrap_or(if c.is_empty() { 0.0 } else { 1.0 }))
        .collect();
    let best = |values: &[f64], choices: &[Vec<(usize, f64)>]| -> f64 {
        let sums = choices.iter().map(|c| {
            c.iter()
                .map(|&(t, p)| p * values.get(t).copied().unwrap_or(0.0))
                .sum::<f64>()
        });
        match objective {
            Objective::Max => sums.fold(0.0, f64::max),
            Objective::Min => sums.fold(1.0, f64::min),
        }
    };
    for _ in 0..max {
        let mut width: f64 = 0.0;
        for s in 0..n {
            if problem.fixed[s].is_some() || problem.choices[s].is_empty() {
                continue;
            }
            let l = best(&lo, &problem.choices[s]).clamp(0.0, 1.0);
            let h = best(&hi, &problem.choices[s]).clamp(0.0, 1.0);
            // Bounds only tighten: rounding never loosens them.
            lo[s] = lo[s].max(l);
            hi[s] = hi[s].min(h).max(lo[s]);
            width = width.max(hi[s] - lo[s]);
        }
        if width < precision {
            break;
        }
    }
    Interval { lo, hi }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdp::Choice;

    fn choice(from: usize, action: usize, to: &[(usize, u64)]) -> Choice {
        Choice {
            from,
            action,
            count: to.iter().map(|&(_, c)| c).sum(),
            to: to.to_vec(),
        }
    }

    /// A state with a choice that loops on itself and one that reaches the
    /// goal with 1/2 (else a sink): Pmax = 1/2 (the loop is an end
    /// component the upper bound would stick in without collapsing), Pmin
    /// = 0 (loop forever).
    #[test]
    fn end_component_by_hand() {
        let mdp = Mdp {
            states: 4,
            actions: 2,
            choices: vec![choice(0, 0, &[(0, 3)]), choice(0, 1, &[(1, 1), (2, 1)])],
        };
        let target = [false, true, false, false];
        let max = reach(&mdp, &target, Objective::Max, 1e-9, 10_000);
        assert!(
            (max.lo[0] - 0.5).abs() < 1e-9 && (max.hi[0] - 0.5).abs() < 1e-9,
            "{max:?}"
        );
        let min = reach(&mdp, &target, Objective::Min, 1e-9, 10_000);
        assert_eq!((min.lo[0], min.hi[0]), (0.0, 0.0));
        assert_eq!(max.value(1), 1.0);
    }

    /// A geometric loop: from 0, `a` goes to the goal with 1/3 and back to
    /// 0 with 2/3, so Pmin = Pmax = 1; the bounds close within precision.
    #[test]
    fn geometric_loop() {
        let mdp = Mdp {
            states: 3,
            actions: 1,
            choices: vec![choice(0, 0, &[(0, 2), (1, 1)])],
        };
        let target = [false, true, false];
        for objective in [Objective::Min, Objective::Max] {
            let r = reach(&mdp, &target, objective, 1e-8, 100_000);
            assert!(r.lo[0] <= 1.0 && r.hi[0] >= 1.0 - 1e-8, "{r:?}");
            assert!(r.width() < 1e-8);
        }
    }
}
