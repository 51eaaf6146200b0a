//! The trace trie (TriCEGAR Appendix A): the prefix tree of the training
//! runs' abstract paths, each node an observed `(action, state)` step after
//! its parent's prefix, counting the runs through it and remembering the
//! first (run, step) that realized it, so an abstract path can be checked
//! for support by the log and traced back to concrete steps.

use std::collections::HashMap;

/// A node: how many runs pass through it, and the first that did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrieNode {
    /// Runs through this prefix.
    pub runs: u64,
    /// The first run (index in training order) and its step (1-based).
    pub first: (usize, usize),
}

/// The prefix tree of abstract paths; node 0 is the empty prefix.
#[derive(Clone, Debug, Default)]
pub struct Trie {
    nodes: Vec<TrieNode>,
    children: HashMap<(u32, usize, usize), u32>,
}

impl Trie {
    /// The trie of `paths` (each a list of `(action, state)` steps).
    pub fn of<'p>(paths: impl IntoIterator<Item = &'p [(usize, usize)]>) -> Trie {
        let mut trie = Trie {
            nodes: vec![TrieNode {
                runs: 0,
                first: (0, 0),
            }],
            children: HashMap::new(),
        };
        for (run, path) in paths.into_iter().enumerate() {
            let mut at = 0u32;
            if let Some(root) = trie.nodes.get_mut(0) {
                root.runs += 1;
            }
            for (step, &(action, state)) in path.iter().enumerate() {
                let next = trie.nodes.len() as u32;
                let child = *trie.children.entry((at, action, state)).or_insert(next);
                if child == next {
                    trie.nodes.push(TrieNode {
                        runs: 0,
                        first: (run, step + 1),
                    });
                }
                if let Some(node) = trie.nodes.get_mut(child as usize) {
                    node.runs += 1;
                }
                at = child;
            }
        }
        trie
    }

    /// How many prefixes (nodes) it holds, the empty one included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it holds only the empty prefix.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The longest prefix of `path` some training run realized: how many of
    /// its steps, and the node at its end.
    pub fn supported(&self, path: &[(usize, usize)]) -> (usize, TrieNode) {
        let mut at = 0u32;
        for (k, &(action, state)) in path.iter().enumerate() {
            match self.children.get(&(at, action, state)) {
                Some(&child) => at = child,
                None => return (k, self.node(at)),
            }
        }
        (path.len(), self.node(at))
    }

    fn node(&self, at: u32) -> TrieNode {
        self.nodes.get(at as usize).copied().unwrap_or(TrieNode {
            runs: 0,
            first: (0, 0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two runs sharing their first step: 1 + 1 shared + 1 + 1 nodes; a
    /// path that leaves them is supported up to where it leaves.
    #[test]
    fn prefixes_by_hand() {
        let a = vec![(0, 1), (1, 2)];
        let b = vec![(0, 1), (2, 3)];
        let trie = Trie::of([a.as_slice(), b.as_slice()]);
        assert_eq!(trie.len(), 4);
        let (k, node) = trie.supported(&[(0, 1), (2, 3)]);
        assert_eq!((k, node.runs, node.first), (2, 1, (1, 2)));
        let (k, node) = trie.supported(&[(0, 1), (1, 3)]);
        assert_eq!((k, node.runs), (1, 2));
    }
}
