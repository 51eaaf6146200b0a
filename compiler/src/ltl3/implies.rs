//! Syntactic implication between NNF nodes, used to drop obligations that other
//! obligations already imply (`F[0,3] q` in a term with `F[0,1] q`, `F q` with
//! `G F q`), so that residuals stay few before minimization.
//!
//! [`Implications::implies`] answers `true` only when `a → b` holds on every
//! position of every infinite and every nonempty finite trace (strong and weak
//! next read as in [`super::nnf`]); `false` means "not shown". The rules are the
//! usual structural ones of tableau simplifiers:
//!
//! | `a` | `b` | `a → b` if |
//! |---|---|---|
//! | any | `∧ ys` | `a → y` for every `y` |
//! | `∨ xs` | any | `x → b` for every `x` |
//! | `∧ xs` | any | `x → b` for some `x` |
//! | any | `∨ ys` | `a → y` for some `y` |
//! | `X x` / `Xw x` | `X y` / `Xw y` | `x → y`, and not weak → strong |
//! | `l U r` / `l R r` | `l' U r'` / `l' R r'` (same operator) | `l → l'` and `r → r'` |
//! | any | `l U r` | `a → r`; or `a = X x`, `a → l` and `x → l U r` |
//! | any | `l R r` | `a → l` and `a → r` |
//! | `l R r` | any | `r → b`; or `l = false`, `b = Xw y` and `a → y` |
//! | `l U r` | any | `l → b` and `r → b` |
//!
//! Every rule's premises are about strictly smaller pairs (an operand replaces
//! `a` or `b`, the other stays), so the goals form a finite acyclic graph. It is
//! searched with an explicit stack (unrolled windows nest thousands deep) and a
//! memo shared across queries; each goal costs [`GOAL_COST`] units of the [`Budget`].

use super::budget::{Budget, OutOfBudget};
use super::nnf::{Arena, Node, NodeId, FALSE, TRUE};
use std::collections::HashMap;

/// Work units of one goal: a memo entry and a frame with its alternatives,
/// several times the cost of a unit elsewhere.
const GOAL_COST: usize = 8;

/// A goal `a → b`.
type Goal = (NodeId, NodeId);

/// The memo of decided implications.
#[derive(Default)]
pub(crate) struct Implications {
    memo: HashMap<Goal, bool>,
}

/// A goal being decided: its alternatives (each a conjunction of sub-goals) and
/// the position reached in them.
struct Frame {
    goal: Goal,
    alternatives: Vec<Vec<Goal>>,
    alternative: usize,
    premise: usize,
}

impl Implications {
    /// Whether `a → b` is shown by the rules.
    pub(crate) fn implies(
        &mut self,
        arena: &Arena,
        budget: &mut Budget,
        a: NodeId,
        b: NodeId,
    ) -> Result<bool, OutOfBudget> {
        if let Some(known) = self.known((a, b)) {
            return Ok(known);
        }
        let mut stack = vec![self.frame(arena, budget, (a, b))?];
        let mut answer: Option<bool> = None;
        while let Some(frame) = stack.last_mut() {
            if let Some(holds) = answer.take() {
                frame.advance(holds);
            }
            let pending = loop {
                let Some(premises) = frame.alternatives.get(frame.alternative) else {
                    break Err(false);
                };
                let Some(&goal) = premises.get(frame.premise) else {
                    break Err(true);
                };
                match self.known(goal) {
                    Some(holds) => frame.advance(holds),
                    None => break Ok(goal),
                }
            };
            match pending {
                Ok(goal) => {
                    let frame = self.frame(arena, budget, goal)?;
                    stack.push(frame);
                }
                Err(holds) => {
                    self.memo.insert(frame.goal, holds);
                    answer = Some(holds);
                    stack.pop();
                }
            }
        }
        Ok(self.known((a, b)).unwrap_or(false))
    }

    /// The sorted `nodes` without duplicates and without nodes another of them
    /// implies (of two nodes implying each other, the smaller stays): the same
    /// conjunction.
    pub(crate) fn drop_implied(
        &mut self,
        arena: &Arena,
        budget: &mut Budget,
        mut nodes: Vec<NodeId>,
    ) -> Result<Vec<NodeId>, OutOfBudget> {
        nodes.sort_unstable();
        nodes.dedup();
        let mut kept: Vec<NodeId> = Vec::with_capacity(nodes.len());
        'next: for n in nodes {
            for &k in &kept {
                if self.implies(arena, budget, k, n)? {
                    continue 'next;
                }
            }
            let mut i = 0;
            while i < kept.len() {
                if self.implies(arena, budget, n, kept[i])? {
                    kept.remove(i);
                } else {
                    i += 1;
                }
            }
            kept.push(n);
        }
        kept.sort_unstable();
        Ok(kept)
    }

    /// The answer to `goal` if it is trivial or already decided.
    fn known(&self, (a, b): Goal) -> Option<bool> {
        if a == b || a == FALSE || b == TRUE {
            return Some(true);
        }
        self.memo.get(&(a, b)).copied()
    }

    /// A new frame for `goal`, marked in the memo as not shown while it is open
    /// (the goal graph is acyclic, so the mark is never read before it is set).
    fn frame(
        &mut self,
        arena: &Arena,
        budget: &mut Budget,
        goal: Goal,
    ) -> Result<Frame, OutOfBudget> {
        budget.spend(GOAL_COST)?;
        self.memo.insert(goal, false);
        Ok(Frame {
            goal,
            alternatives: alternatives(arena, goal),
            alternative: 0,
            premise: 0,
        })
    }
}

impl Frame {
    /// Moves on after the current premise turned out to hold or not.
    fn advance(&mut self, holds: bool) {
        if holds {
            self.premise += 1;
        } else {
            self.alternative += 1;
            self.premise = 0;
        }
    }
}

/// The ways `a → b` can be shown, each a list of premises (see the module table).
fn alternatives(arena: &Arena, (a, b): Goal) -> Vec<Vec<Goal>> {
    let mut all: Vec<Vec<Goal>> = Vec::new();
    let (na, nb) = (arena.node(a), arena.node(b));
    if let Node::And(ys) = nb {
        all.push(ys.iter().map(|&y| (a, y)).collect());
    }
    match na {
        Node::Or(xs) => all.push(xs.iter().map(|&x| (x, b)).collect()),
        Node::And(xs) => all.extend(xs.iter().map(|&x| vec![(x, b)])),
        _ => {}
    }
    if let Node::Or(ys) = nb {
        all.extend(ys.iter().map(|&y| vec![(a, y)]));
    }
    match (na, nb) {
        (
            &Node::Next {
                strong: sa,
                body: x,
            },
            &Node::Next {
                strong: sb,
                body: y,
            },
        ) if sa || !sb => all.push(vec![(x, y)]),
        (&Node::Until(la, ra), &Node::Until(lb, rb))
        | (&Node::Release(la, ra), &Node::Release(lb, rb)) => all.push(vec![(la, lb), (ra, rb)]),
        _ => {}
    }
    match *nb {
        Node::Until(l, r) => {
            all.push(vec![(a, r)]);
            if let Node::Next {
                strong: true,
                body: x,
            } = *na
            {
                all.push(vec![(a, l), (x, b)]);
            }
        }
        Node::Release(l, r) => all.push(vec![(a, l), (a, r)]),
        _ => {}
    }
    match *na {
        Node::Release(l, r) => {
            all.push(vec![(r, b)]);
            if let (
                FALSE,
                Node::Next {
                    strong: false,
                    body: y,
                },
            ) = (l, nb)
            {
                all.push(vec![(a, *y)]);
            }
        }
        Node::Until(l, r) => all.push(vec![(l, b), (r, b)]),
        _ => {}
    }
    all
}
