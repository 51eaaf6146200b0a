//! Moore partition refinement of a complete DFA whose states carry labels and
//! whose transitions are labelled with sets of letters.

use super::budget::{Budget, OutOfBudget};
use super::letters::Letters;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeMap;
use std::hash::Hash;

/// The coarsest partition of the states that respects `labels` and the
/// transitions (`transitions[s]`: disjoint letter sets covering the alphabet,
/// each with its target). Returns each state's class; classes are numbered in
/// order of their lowest state, so state 0's class is 0 and each class's lowest
/// state is its representative.
pub(crate) fn minimize<L: Hash + Eq>(
    transitions: &[Vec<(Letters, usize)>],
    labels: &[L],
    budget: &mut Budget,
) -> Result<Vec<usize>, OutOfBudget> {
    let mut class = number(labels.iter());
    let mut count = class.iter().max().map_or(0, |m| m + 1);
    loop {
        let mut signatures = Vec::with_capacity(transitions.len());
        for (s, row) in transitions.iter().enumerate() {
            // Each transition is an insertion into an ordered map (and a
            // copy of its letters), hashed again when rows are numbered.
            let words: usize = row.iter().map(|(l, _)| l.words_len()).sum();
            budget.spend(4 * (row.len() + 1) + words)?;
            // The letters leading into each class, merged: a canonical row.
            let mut into: BTreeMap<usize, Letters> = BTreeMap::new();
            for (letters, t) in row {
                match into.get_mut(&class[*t]) {
                    Some(merged) => merged.or_assign(letters),
                    None => {
                        into.insert(class[*t], letters.clone());
                    }
                }
            }
            signatures.push((class[s], into.into_iter().collect::<Vec<_>>()));
        }
        let refined = number(signatures.iter());
        let refined_count = refined.iter().max().map_or(0, |m| m + 1);
        // Refinement only splits classes, so an unchanged count means a fixpoint.
        if refined_count == count {
            return Ok(refined);
        }
        class = refined;
        count = refined_count;
    }
}

/// Numbers the distinct keys in order of first appearance.
fn number<'a, K: Hash + Eq + 'a>(keys: impl Iterator<Item = &'a K>) -> Vec<usize> {
    let mut ids: HashMap<&K, usize> = HashMap::default();
    keys.map(|k| {
        let next = ids.len();
        *ids.entry(k).or_insert(next)
    })
    .collect()
}
