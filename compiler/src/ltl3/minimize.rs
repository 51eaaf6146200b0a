//! Moore partition refinement of a complete DFA whose states carry labels.

use std::collections::HashMap;
use std::hash::Hash;

/// The coarsest partition of the states that respects `labels` and the
/// transitions. Returns each state's class; classes are numbered in order of their
/// lowest state, so state 0's class is 0 and each class's lowest state is its
/// representative.
pub(crate) fn minimize<L: Hash + Eq>(transitions: &[Vec<usize>], labels: &[L]) -> Vec<usize> {
    let mut class = number(labels.iter());
    let mut count = class.iter().max().map_or(0, |m| m + 1);
    loop {
        let signatures: Vec<(usize, Vec<usize>)> = transitions
            .iter()
            .enumerate()
            .map(|(s, row)| (class[s], row.iter().map(|&t| class[t]).collect()))
            .collect();
        let refined = number(signatures.iter());
        let refined_count = refined.iter().max().map_or(0, |m| m + 1);
        // Refinement only splits classes, so an unchanged count means a fixpoint.
        if refined_count == count {
            return refined;
        }
        class = refined;
        count = refined_count;
    }
}

/// Numbers the distinct keys in order of first appearance.
fn number<'a, K: Hash + Eq + 'a>(keys: impl Iterator<Item = &'a K>) -> Vec<usize> {
    let mut ids: HashMap<&K, usize> = HashMap::new();
    keys.map(|k| {
        let next = ids.len();
        *ids.entry(k).or_insert(next)
    })
    .collect()
}
