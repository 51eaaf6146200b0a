//! The abstract model: an MDP whose states are the tree's leaves plus an
//! initial state (before the first step) and a terminal one (after the
//! run ended), whose actions are the action input's values plus `end`, and
//! whose probabilities are observed frequencies, `P(s, a, s') = C(s, a, s')
//! / C(s, a)`, unobserved transitions absent (TriCEGAR section 4.2.4).
//!
//! A run of `n` steps is the abstract path `initial -a1-> x1 -a2-> ... -an->
//! xn -end-> terminal`, `xj` the leaf of the concrete state after step `j`.

use serde::{Deserialize, Serialize};

/// State 0: before the first step.
pub const INITIAL: usize = 0;

/// One observed choice: an action taken in a state, with the successors
/// seen after it and how often.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The state.
    pub from: usize,
    /// The action's code (the last code is `end`).
    pub action: usize,
    /// How often it was taken there, `C(s, a)`.
    pub count: u64,
    /// The successors and `C(s, a, s')`, by state.
    pub to: Vec<(usize, u64)>,
}

impl Choice {
    /// `P(s, a, s')` of each successor.
    pub fn probabilities(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        let total = self.count.max(1) as f64;
        self.to.iter().map(move |&(t, c)| (t, c as f64 / total))
    }

    /// `P(s, a, s')`, 0 when unobserved.
    pub fn probability(&self, to: usize) -> f64 {
        self.to
            .iter()
            .find(|&&(t, _)| t == to)
            .map_or(0.0, |&(_, c)| c as f64 / self.count.max(1) as f64)
    }
}

/// The learned MDP.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Mdp {
    /// States: initial (0), the leaves (1 ..= leaves), terminal (last).
    pub states: usize,
    /// Actions, `end` last.
    pub actions: usize,
    /// The observed choices, sorted by state and action.
    pub choices: Vec<Choice>,
}

impl Mdp {
    /// The terminal state.
    pub fn terminal(&self) -> usize {
        self.states.saturating_sub(1)
    }

    /// The `end` action.
    pub fn end(&self) -> usize {
        self.actions.saturating_sub(1)
    }

    /// The state of leaf `k`.
    pub fn leaf_state(k: usize) -> usize {
        k + 1
    }

    /// The MDP of `leaves` leaves and `actions` actions (`end` included)
    /// counting the abstract paths `paths` (each a list of `(action,
    /// state)` steps from the initial state).
    pub fn count<'p>(
        leaves: usize,
        actions: usize,
        paths: impl IntoIterator<Item = &'p [(usize, usize)]>,
    ) -> Mdp {
        let mut seen: std::collections::BTreeMap<(usize, usize, usize), u64> = Default::default();
        for path in paths {
            let mut at = INITIAL;
            for &(a, to) in path {
                *seen.entry((at, a, to)).or_default() += 1;
                at = to;
            }
        }
        let mut choices: Vec<Choice> = Vec::new();
        for ((from, action, to), c) in seen {
            match choices.last_mut() {
                Some(last) if last.from == from && last.action == action => {
                    last.count += c;
                    last.to.push((to, c));
                }
                _ => choices.push(Choice {
                    from,
                    action,
                    count: c,
                    to: vec![(to, c)],
                }),
            }
        }
        Mdp {
            states: leaves + 2,
            actions,
            choices,
        }
    }

    /// The Markov chain of the observed policy: in each state, the actions
    /// taken as often as the runs took them, so `P(s, s') = Σ_a C(s, a, s')
    /// / Σ_a C(s, a)` (one choice per state, action 0).
    pub fn observed(&self) -> Mdp {
        let mut choices: Vec<Choice> = Vec::new();
        for c in &self.choices {
            let merged = match choices.last_mut() {
                Some(last) if last.from == c.from => last,
                _ => {
                    choices.push(Choice {
                        from: c.from,
                        action: 0,
                        count: 0,
                        to: Vec::new(),
                    });
                    choices.last_mut().expect("just pushed")
                }
            };
            merged.count += c.count;
            for &(t, n) in &c.to {
                match merged.to.iter_mut().find(|(u, _)| *u == t) {
                    Some((_, m)) => *m += n,
                    None => merged.to.push((t, n)),
                }
            }
        }
        for c in &mut choices {
            c.to.sort_unstable();
        }
        Mdp {
            states: self.states,
            actions: 1,
            choices,
        }
    }

    /// The choices of `state`.
    pub fn choices_of(&self, state: usize) -> &[Choice] {
        let start = self.choices.partition_point(|c| c.from < state);
        let end = self.choices.partition_point(|c| c.from <= state);
        self.choices.get(start..end).unwrap_or_default()
    }

    /// The choice of `action` in `state`, if observed.
    pub fn choice(&self, state: usize, action: usize) -> Option<&Choice> {
        let at = self
            .choices
            .binary_search_by(|c| (c.from, c.action).cmp(&(state, action)))
            .ok()?;
        self.choices.get(at)
    }

    /// `P(s, a, s')`, 0 when unobserved.
    pub fn probability(&self, from: usize, action: usize, to: usize) -> f64 {
        self.choice(from, action).map_or(0.0, |c| c.probability(to))
    }

    /// The probability of the step `s -a-> s'` of a run: that the action
    /// is `a` in `s` (as often as the runs chose it there) and that it
    /// leads to `s'`, `C(s, a, s') / Σ_b C(s, b)`; 0 when unobserved.
    pub fn step_probability(&self, from: usize, action: usize, to: usize) -> f64 {
        let total: u64 = self.choices_of(from).iter().map(|c| c.count).sum();
        let Some(choice) = self.choice(from, action) else {
            return 0.0;
        };
        let seen = choice
            .to
            .iter()
            .find(|&&(t, _)| t == to)
            .map_or(0, |&(_, n)| n);
        seen as f64 / total.max(1) as f64
    }

    /// Whether the choices are sorted, name states and actions in range,
    /// and their counts add up.
    pub fn is_well_formed(&self) -> bool {
        let sorted = self
            .choices
            .windows(2)
            .all(|w| (w[0].from, w[0].action) < (w[1].from, w[1].action));
        sorted
            && self.choices.iter().all(|c| {
                c.from < self.states
                    && c.action < self.actions
                    && !c.to.is_empty()
                    && c.to.iter().all(|&(t, n)| t < self.states && n > 0)
                    && c.to.iter().map(|&(_, n)| n).sum::<u64>() == c.count
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two runs by hand: `a` to leaf 0 then end, and `a` to leaf 1, `b` to
    /// leaf 1, end. P(initial, a, leaf 0) = 1/2; leaf 1 ends once of two.
    #[test]
    fn counts_by_hand() {
        let (l0, l1, t) = (Mdp::leaf_state(0), Mdp::leaf_state(1), 3);
        let runs: Vec<Vec<(usize, usize)>> =
            vec![vec![(0, l0), (2, t)], vec![(0, l1), (1, l1), (2, t)]];
        let mdp = Mdp::count(2, 3, runs.iter().map(Vec::as_slice));
        assert!(mdp.is_well_formed());
        assert_eq!(mdp.terminal(), t);
        assert_eq!(mdp.probability(INITIAL, 0, l0), 0.5);
        assert_eq!(mdp.probability(INITIAL, 0, l1), 0.5);
        assert_eq!(mdp.probability(l1, 1, l1), 1.0);
        assert_eq!(mdp.probability(l1, 2, t), 1.0);
        assert_eq!(mdp.probability(l1, 0, t), 0.0);
        assert_eq!(mdp.choices_of(l1).len(), 2);
        assert_eq!(mdp.choices_of(t).len(), 0);
    }
}
