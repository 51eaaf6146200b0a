//! Counterexample-guided refinement (TriCEGAR section 4.1.5, which leaves
//! it as future work): when a scheduler that attains a goal's bound reaches
//! the goal along an abstract path no training run took — each of its
//! transitions was observed, but never one after the other — the path is
//! an artefact of a leaf that merges concrete states of different
//! histories. The leaf where the path leaves the trace trie is split by
//! information gain on the next action (where no predicate gains on that,
//! by information gain on the abstract state the step leads to, which is
//! what the witness got wrong), and the model learned again; up to
//! `Options::refinements` times, or until every witness is supported.
//!
//! The witness of a bound is the most probable path from the initial state
//! to the goal using only choices that attain the bound (a choice attains
//! it when its expected value equals the state's, within 10 × the
//! precision): Dijkstra's algorithm on `-log P(s, a, s')`.

use crate::bounds::Interval;
use crate::features::Features;
use crate::mdp::{Mdp, INITIAL};
use crate::model::{Abstraction, State};
use crate::tree::{best_split, best_split_by, Samples, Tree};
use serde::{Deserialize, Serialize};

/// One refinement: the witness that was not supported and the split made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refinement {
    /// The goal whose bound the witness attains.
    pub goal: String,
    /// `"max"` or `"min"`.
    pub bound: String,
    /// The witness: the states from the initial one to the goal.
    pub witness: Vec<String>,
    /// How many of its steps some training run took in a row.
    pub supported_steps: usize,
    /// The state split (named as before the split).
    pub state: String,
    /// The predicate it was split on.
    pub predicate: String,
}

/// Finds the first unsupported witness over the goals (max, then min) and
/// splits the leaf where it leaves the trie; the refinement made, or `None`
/// when every witness is supported or no leaf where one leaves can be split
/// (every concrete state there alike, or one next action).
pub(crate) fn refine(
    tree: &mut Tree,
    samples: &Samples,
    features: &Features,
    abstraction: &Abstraction,
    made: &[Refinement],
) -> Option<Refinement> {
    let forced: Vec<usize> = features
        .goals
        .iter()
        .chain(&features.atoms)
        .copied()
        .collect();
    for (g, bounds) in abstraction.bounds.iter().enumerate() {
        let target: Vec<bool> = abstraction
            .states
            .iter()
            .map(|s| s.goals.get(g).copied().unwrap_or(false))
            .collect();
        for (interval, name) in [(&bounds.max, "max"), (&bounds.min, "min")] {
            let Some(path) = witness(&abstraction.mdp, &target, interval) else {
                continue;
            };
            let (supported, _) = abstraction.trie.supported(&path);
            if supported >= path.len() || supported == 0 {
                continue;
            }
            // The state the path was in when it left the trie: a leaf.
            let Some(&(_, state)) = path.get(supported - 1) else {
                continue;
            };
            let Some(leaf) = state.checked_sub(1) else {
                continue;
            };
            let part: Vec<u32> = (0..samples.labels.len() as u32)
                .filter(|&i| tree.leaf(samples.row(i)) == Some(leaf))
                .collect();
            // By the next action (TriCEGAR); where that does not split the
            // leaf, by where its steps lead: what makes the witness spurious.
            let split = best_split(samples, &features.list, &forced, &part).or_else(|| {
                let successors = successors(tree, samples);
                let states = tree.leaves() + 2;
                best_split_by(samples, &successors, states, &features.list, &forced, &part)
            });
            let Some((_, predicate)) = split else {
                continue;
            };
            let names = |s: usize| -> String {
                abstraction
                    .states
                    .get(s)
                    .map_or_else(|| format!("#{s}"), |st: &State| st.name.clone())
            };
            let refinement = Refinement {
                goal: bounds.goal.clone(),
                bound: name.to_string(),
                witness: std::iter::once(INITIAL)
                    .chain(path.iter().map(|&(_, s)| s))
                    .map(names)
                    .collect(),
                supported_steps: supported,
                state: names(state),
                predicate: predicate.text(&features.list),
            };
            // The same split twice would mean the split changed nothing.
            if made.contains(&refinement) {
                continue;
            }
            tree.split_leaf(leaf, predicate)?;
            return Some(refinement);
        }
    }
    None
}

/// Per sample, the abstract state after it: the next sample's leaf's, or
/// the terminal state after a run's last step (labelled `end`).
fn successors(tree: &Tree, samples: &Samples) -> Vec<u32> {
    let terminal = (tree.leaves() + 1) as u32;
    let end = samples.n_labels.saturating_sub(1) as u32;
    (0..samples.labels.len())
        .map(|i| match samples.labels.get(i) {
            Some(&l) if l != end => tree
                .leaf(samples.row(i as u32 + 1))
                .map_or(terminal, |k| Mdp::leaf_state(k) as u32),
            _ => terminal,
        })
        .collect()
}

/// The most probable path from the initial state to a target using only
/// choices that attain `interval`'s values (of the maximum or the
/// minimum): its `(action, state)` steps; `None` when no target is reached
/// that way.
pub(crate) fn witness(
    mdp: &Mdp,
    target: &[bool],
    interval: &Interval,
) -> Option<Vec<(usize, usize)>> {
    let n = mdp.states;
    let value = |s: usize| interval.value(s);
    let tolerance = 10.0 * (interval.width() + 1e-12);
    let mut cost = vec![f64::INFINITY; n];
    let mut previous: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut done = vec![false; n];
    *cost.get_mut(INITIAL)? = 0.0;
    loop {
        let next = (0..n)
            .filter(|&s| !done[s] && cost[s].is_finite())
            .min_by(|&a, &b| cost[a].total_cmp(&cost[b]));
        let s = next?;
        if target.get(s).copied().unwrap_or(false) {
            let mut path = Vec::new();
            let mut at = s;
            while let Some((from, action)) = previous[at] {
                path.push((action, at));
                at = from;
            }
            path.reverse();
            return Some(path);
        }
        done[s] = true;
        for c in mdp.choices_of(s) {
            let expected: f64 = c.probabilities().map(|(t, p)| p * value(t)).sum();
            if (expected - value(s)).abs() > tolerance {
                continue;
            }
            for (t, p) in c.probabilities() {
                let through = cost[s] - p.ln();
                if t < n && p > 0.0 && through < cost[t] {
                    cost[t] = through;
                    previous[t] = Some((s, c.action));
                }
            }
        }
    }
}
