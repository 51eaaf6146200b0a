//! One-step expansion (the tableau rule): a set of NNF formulas that must hold now,
//! rewritten as a disjunction of branches "letter constraint ∧ obligations for the
//! next step", using `φ U ψ = ψ ∨ (φ ∧ X(φ U ψ))` and `φ R ψ = ψ ∧ (φ ∨ Xw(φ R ψ))`.
//! Letter constraints are cubes, so letters are never enumerated here. The
//! tableau decides satisfiability on infinite words, where strong and weak next
//! coincide, so obligations are plain nodes.

use super::budget::{Budget, OutOfBudget};
use super::nnf::{Arena, Node, NodeId};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// One disjunct of an expansion.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Branch {
    /// What the rest of the trace must satisfy: sorted, distinct. First field, so
    /// that sorting groups branches by obligations.
    pub next: Vec<NodeId>,
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

    fn conjoin(&self, other: &Branch) -> Option<Branch> {
        let (pos, neg) = (self.pos | other.pos, self.neg | other.neg);
        (pos & neg == 0).then(|| Branch {
            pos,
            neg,
            next: merge_sorted(&self.next, &other.next),
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
    pub(crate) fn expand_all(
        &mut self,
        arena: &Arena,
        budget: &mut Budget,
        formulas: &[NodeId],
    ) -> Result<Vec<Branch>, OutOfBudget> {
        let mut branches = vec![Branch::top()];
        for &f in formulas {
            let expansion = self.expand(arena, budget, f)?;
            branches = product(budget, &branches, &expansion)?;
        }
        Ok(branches)
    }

    /// The expansion of one node.
    pub(crate) fn expand(
        &mut self,
        arena: &Arena,
        budget: &mut Budget,
        id: NodeId,
    ) -> Result<Rc<Vec<Branch>>, OutOfBudget> {
        if let Some(done) = self.memo.get(&id) {
            return Ok(done.clone());
        }
        let obligation = |node| Branch {
            next: vec![node],
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
            Node::And(xs) => self.expand_all(arena, budget, xs)?,
            Node::Or(xs) => {
                let mut all = vec![];
                for &x in xs {
                    all.extend(self.expand(arena, budget, x)?.iter().cloned());
                }
                prune(budget, all)?
            }
            Node::Next { body, .. } => vec![obligation(*body)],
            Node::Until(left, right) => {
                let postpone = Branch {
                    postponed: vec![id],
                    ..obligation(id)
                };
                let mut all = self.expand(arena, budget, *right)?.to_vec();
                let left = self.expand(arena, budget, *left)?;
                all.extend(product(budget, &left, &[postpone])?);
                prune(budget, all)?
            }
            Node::Release(left, right) => {
                let mut stop_or_wait = self.expand(arena, budget, *left)?.to_vec();
                stop_or_wait.push(obligation(id));
                let stop_or_wait = prune(budget, stop_or_wait)?;
                let right = self.expand(arena, budget, *right)?;
                product(budget, &right, &stop_or_wait)?
            }
        };
        let branches = Rc::new(branches);
        self.memo.insert(id, branches.clone());
        Ok(branches)
    }
}

/// Work units per conjoined pair of branches: allocating (and later freeing)
/// the new branch.
const PAIR_UNITS: usize = 3;

/// List elements merged per work unit when two branches are conjoined. A unit
/// is calibrated to some 20 ns of release-build work (docs/limits.md); merging
/// sorted lists of ids touches elements in cache, a few nanoseconds each.
const MERGED_PER_UNIT: usize = 4;

/// List elements compared per work unit when branches are sorted (as
/// [`MERGED_PER_UNIT`]: element comparisons are cheap).
const COMPARED_PER_UNIT: usize = 8;

fn product(budget: &mut Budget, a: &[Branch], b: &[Branch]) -> Result<Vec<Branch>, OutOfBudget> {
    // Each pair allocates a branch (PAIR_UNITS) and merges both branches'
    // lists, MERGED_PER_UNIT elements to a unit.
    let weight = |xs: &[Branch]| -> usize {
        xs.iter()
            .map(|x| 4 + x.next.len() + x.postponed.len())
            .sum()
    };
    let merged = weight(a).saturating_mul(b.len()) + weight(b).saturating_mul(a.len());
    let pairs = a.len().saturating_mul(b.len());
    budget.spend(pairs.saturating_mul(PAIR_UNITS) + merged / MERGED_PER_UNIT)?;
    prune(
        budget,
        a.iter()
            .flat_map(|x| b.iter().filter_map(move |y| x.conjoin(y)))
            .collect(),
    )
}

/// Drops duplicate and subsumed branches.
fn prune(budget: &mut Budget, mut all: Vec<Branch>) -> Result<Vec<Branch>, OutOfBudget> {
    // Sorting compares whole branches: n log n comparisons of their lists,
    // COMPARED_PER_UNIT elements to a unit.
    let log = usize::BITS - all.len().leading_zeros();
    let length: usize = all
        .iter()
        .map(|x| 2 + x.next.len() + x.postponed.len())
        .sum();
    budget.spend(all.len() + length.saturating_mul(log as usize) / COMPARED_PER_UNIT)?;
    all.sort_unstable();
    all.dedup();
    // Only branches with equal obligations (adjacent after sorting) can subsume each
    // other, and after dedup two distinct branches never subsume each other.
    let mut kept = Vec::with_capacity(all.len());
    for group in all.chunk_by(|a, b| a.next == b.next) {
        budget.spend(group.len() * group.len())?;
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
    Ok(kept)
}
