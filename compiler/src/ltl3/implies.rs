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
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Work units of one goal: a memo entry and a frame with its alternatives,
/// about 0.8 µs, where a unit elsewhere is about 25 ns (measured on the
/// 2-core machine, release build, `G (p -> F[0,1000] q)`).
const GOAL_COST: usize = 32;

/// A goal `a → b`.
type Goal = (NodeId, NodeId);

/// The memo of decided implications.
#[derive(Default)]
pub(crate) struct Implications {
    memo: FxHashMap<Goal, bool>,
}

/// The ways to show a goal: alternatives, each a conjunction of premises,
/// stored back to back (`ends[i]` is where alternative `i` ends in `premises`).
#[derive(Default)]
struct Alternatives {
    premises: SmallVec<[Goal; 8]>,
    ends: SmallVec<[usize; 8]>,
}

impl Alternatives {
    fn push(&mut self, premises: impl IntoIterator<Item = Goal>) {
        self.premises.extend(premises);
        self.ends.push(self.premises.len());
    }

    fn get(&self, i: usize) -> Option<&[Goal]> {
        let end = *self.ends.get(i)?;
        let start = i.checked_sub(1).and_then(|p| self.ends.get(p)).copied();
        self.premises.get(start.unwrap_or(0)..end)
    }

    fn extend_each(&mut self, goals: impl Iterator<Item = Goal>) {
        for g in goals {
            self.push([g]);
        }
    }
}

/// A goal being decided: its alternatives (each a conjunction of sub-goals) and
/// the position reached in them.
struct Frame {
    goal: Goal,
    alternatives: Alternatives,
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
        // In a conjunction, a node is redundant beside a node that implies it.
        keep_uncovered(nodes, |stronger, weaker| {
            self.implies(arena, budget, *stronger, *weaker)
        })
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
fn alternatives(arena: &Arena, (a, b): Goal) -> Alternatives {
    let mut all = Alternatives::default();
    let (na, nb) = (arena.node(a), arena.node(b));
    if let Node::And(ys) = nb {
        all.push(ys.iter().map(|&y| (a, y)));
    }
    match na {
        Node::Or(xs) => all.push(xs.iter().map(|&x| (x, b))),
        Node::And(xs) => all.extend_each(xs.iter().map(|&x| (x, b))),
        _ => {}
    }
    if let Node::Or(ys) = nb {
        all.extend_each(ys.iter().map(|&y| (a, y)));
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
        ) if sa || !sb => all.push([(x, y)]),
        (&Node::Until(la, ra), &Node::Until(lb, rb))
        | (&Node::Release(la, ra), &Node::Release(lb, rb)) => all.push([(la, lb), (ra, rb)]),
        _ => {}
    }
    match *nb {
        Node::Until(l, r) => {
            all.push([(a, r)]);
            if let Node::Next {
                strong: true,
                body: x,
            } = *na
            {
                all.push([(a, l), (x, b)]);
            }
        }
        Node::Release(l, r) => all.push([(a, l), (a, r)]),
        _ => {}
    }
    match *na {
        Node::Release(l, r) => {
            all.push([(r, b)]);
            if let (
                FALSE,
                Node::Next {
                    strong: false,
                    body: y,
                },
            ) = (l, nb)
            {
                all.push([(a, *y)]);
            }
        }
        Node::Until(l, r) => all.push([(l, b), (r, b)]),
        _ => {}
    }
    all
}

/// `items` without the redundant ones, sorted: going through `items` in
/// order, an item that a kept one covers is dropped, and kept items that it
/// covers are dropped in its favour. `covers(a, b)` says whether `b` adds
/// nothing beside `a`; it may fail (a spent budget), which ends the search.
pub(super) fn keep_uncovered<T: Ord, E>(
    items: Vec<T>,
    mut covers: impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<Vec<T>, E> {
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    'next: for item in items {
        for k in &kept {
            if covers(k, &item)? {
                continue 'next;
            }
        }
        let mut i = 0;
        while i < kept.len() {
            if covers(&item, &kept[i])? {
                kept.remove(i);
            } else {
                i += 1;
            }
        }
        kept.push(item);
    }
    kept.sort_unstable();
    Ok(kept)
}
