//! One-step expansion (the tableau rule): a set of NNF formulas that must hold now,
//! rewritten as a disjunction of branches "letter constraint ∧ obligations for the
//! next step", using `φ U ψ = ψ ∨ (φ ∧ X(φ U ψ))` and `φ R ψ = ψ ∧ (φ ∨ Xw(φ R ψ))`.
//! Letter constraints are cubes, so letters are never enumerated here.

use super::nnf::{Arena, Node, NodeId};
use std::collections::HashMap;
use std::rc::Rc;

/// A formula that must hold at the next step; `strong` obligations fail when the
/// trace ends instead, weak ones hold then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Obligation {
    pub node: NodeId,
    pub strong: bool,
}

/// One disjunct of an expansion.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Branch {
    /// What the rest of the trace must satisfy: sorted, at most one per node. First
    /// field, so that sorting groups branches by obligations.
    pub next: Vec<Obligation>,
    /// Dense atoms that must be true in the letter (bit i = dense atom i).
    pub pos: u64,
    /// Dense atoms that must be false in the letter.
    pub neg: u64,
    /// Untils whose fulfilment this branch postpones (sorted): the acceptance marks
    /// of the tableau's generalized Büchi condition.
    pub postponed: Vec<NodeId>,
}

impl Branch {
    fn top() -> Branch {
        Branch {
            pos: 0,
            neg: 0,
            next: vec![],
            postponed: vec![],
        }
    }

    /// Whether the letter (bit i = dense atom i) satisfies the branch's cube.
    pub(crate) fn admits(&self, letter: u64) -> bool {
        self.pos & !letter == 0 && self.neg & letter == 0
    }

    fn conjoin(&self, other: &Branch) -> Option<Branch> {
        let (pos, neg) = (self.pos | other.pos, self.neg | other.neg);
        (pos & neg == 0).then(|| Branch {
            pos,
            neg,
            next: merge_obligations(&self.next, &other.next),
            postponed: merge_sorted(&self.postponed, &other.postponed),
        })
    }

    /// Whether taking `self` instead of `other` loses nothing: same obligations, a
    /// weaker cube and fewer postponements.
    fn subsumes(&self, other: &Branch) -> bool {
        self.next == other.next
            && self.pos & !other.pos == 0
            && self.neg & !other.neg == 0
            && is_subset(&self.postponed, &other.postponed)
    }
}

/// Union of two sorted obligation lists; a strong obligation absorbs the weak one on
/// the same node (`X φ ∧ Xw φ = X φ`).
pub(crate) fn merge_obligations(a: &[Obligation], b: &[Obligation]) -> Vec<Obligation> {
    let mut all = merge_sorted(a, b);
    all.dedup_by(|later, earlier| {
        // Sorted by (node, strong): a weak entry directly precedes its strong twin.
        if later.node == earlier.node {
            earlier.strong |= later.strong;
            true
        } else {
            false
        }
    });
    all
}

fn merge_sorted<T: Ord + Copy>(a: &[T], b: &[T]) -> Vec<T> {
    let mut all = [a, b].concat();
    all.sort_unstable();
    all.dedup();
    all
}

/// Whether sorted `a` is a subset of sorted `b`.
pub(crate) fn is_subset<T: Ord>(a: &[T], b: &[T]) -> bool {
    a.iter().all(|x| b.binary_search(x).is_ok())
}

/// Expansions with a per-node memo.
#[derive(Default)]
pub(crate) struct Expander {
    memo: HashMap<NodeId, Rc<Vec<Branch>>>,
}

impl Expander {
    /// The expansion of the conjunction of `formulas`.
    pub(crate) fn expand_all(&mut self, arena: &Arena, formulas: &[NodeId]) -> Vec<Branch> {
        let mut branches = vec![Branch::top()];
        for &f in formulas {
            let expansion = self.expand(arena, f);
            branches = product(&branches, &expansion);
        }
        branches
    }

    /// The expansion of one node.
    pub(crate) fn expand(&mut self, arena: &Arena, id: NodeId) -> Rc<Vec<Branch>> {
        if let Some(done) = self.memo.get(&id) {
            return done.clone();
        }
        let obligation = |node, strong| Branch {
            next: vec![Obligation { node, strong }],
            ..Branch::top()
        };
        let branches = match arena.node(id) {
            Node::True => vec![Branch::top()],
            Node::False => vec![],
            Node::Lit { atom, positive } => {
                let bit = 1u64 << atom;
                let (pos, neg) = if *positive { (bit, 0) } else { (0, bit) };
                vec![Branch {
                    pos,
                    neg,
                    ..Branch::top()
                }]
            }
            Node::And(xs) => self.expand_all(arena, xs),
            Node::Or(xs) => {
                let mut all = vec![];
                for &x in xs {
                    all.extend(self.expand(arena, x).iter().cloned());
                }
                prune(all)
            }
            Node::Next { strong, body } => vec![obligation(*body, *strong)],
            Node::Until(left, right) => {
                let postpone = Branch {
                    postponed: vec![id],
                    ..obligation(id, true)
                };
                let mut all = self.expand(arena, *right).to_vec();
                all.extend(product(&self.expand(arena, *left), &[postpone]));
                prune(all)
            }
            Node::Release(left, right) => {
                let mut stop_or_wait = self.expand(arena, *left).to_vec();
                stop_or_wait.push(obligation(id, false));
                product(&self.expand(arena, *right), &prune(stop_or_wait))
            }
        };
        let branches = Rc::new(branches);
        self.memo.insert(id, branches.clone());
        branches
    }
}

fn product(a: &[Branch], b: &[Branch]) -> Vec<Branch> {
    prune(
        a.iter()
            .flat_map(|x| b.iter().filter_map(move |y| x.conjoin(y)))
            .collect(),
    )
}

/// Drops duplicate and subsumed branches.
fn prune(mut all: Vec<Branch>) -> Vec<Branch> {
    all.sort_unstable();
    all.dedup();
    // Only branches with equal obligations (adjacent after sorting) can subsume each
    // other, and after dedup two distinct branches never subsume each other.
    let mut kept = Vec::with_capacity(all.len());
    for group in all.chunk_by(|a, b| a.next == b.next) {
        for (i, b) in group.iter().enumerate() {
            if !group
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && o.subsumes(b))
            {
                kept.push(b.clone());
            }
        }
    }
    kept
}
