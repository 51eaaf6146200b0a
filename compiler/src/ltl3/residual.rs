//! Residuals back in surface syntax, for explanations: NNF nodes become [`Formula`]s,
//! with `F`, `G`, `W`, implications and unrolled `F[a,b]`/`G[a,b]` windows restored.

use super::explore::Residual;
use super::formula::Formula;
use super::nnf::{Arena, Node, NodeId};

/// The residual as the disjunction of its terms' conjunctions (a term's nodes
/// conjoined again first, so that a window flattened into a term is shown as
/// the window).
pub(crate) fn residual_formula(arena: &mut Arena, residual: &Residual) -> Formula {
    let terms = residual
        .iter()
        .map(|t| {
            let conjunction = arena.and(t.nodes.clone());
            node_formula(arena, conjunction)
        })
        .collect();
    fold(terms, false)
}

/// Left-nested `&&` (or `||`) of `parts`; the empty conjunction is `true`, the
/// empty disjunction `false`.
fn fold(parts: Vec<Formula>, conjunction: bool) -> Formula {
    let mut iter = parts.into_iter();
    let Some(first) = iter.next() else {
        return if conjunction {
            Formula::True
        } else {
            Formula::False
        };
    };
    iter.fold(first, |acc, f| {
        if conjunction {
            Formula::And(Box::new(acc), Box::new(f))
        } else {
            Formula::Or(Box::new(acc), Box::new(f))
        }
    })
}

/// The node in surface syntax.
pub(crate) fn node_formula(arena: &mut Arena, id: NodeId) -> Formula {
    if let Some(window) = window(arena, id) {
        return window;
    }
    let b = |f: Formula| Box::new(f);
    match arena.node(id).clone() {
        Node::True => Formula::True,
        Node::False => Formula::False,
        Node::Lit { atom, positive } => {
            let atom = Formula::Atom(arena.user_atom(atom));
            if positive {
                atom
            } else {
                Formula::Not(b(atom))
            }
        }
        Node::And(xs) => {
            let parts = xs.iter().map(|&x| node_formula(arena, x)).collect();
            fold(parts, true)
        }
        Node::Or(xs) => disjunction(arena, &xs),
        Node::Next { strong: true, body } => Formula::Next(b(node_formula(arena, body))),
        Node::Next {
            strong: false,
            body,
        } => {
            // Weak next: `!X !φ`.
            let negated = arena.negate(body);
            Formula::Not(b(Formula::Next(b(node_formula(arena, negated)))))
        }
        Node::Until(l, r) if l == super::nnf::TRUE => {
            Formula::Eventually(b(node_formula(arena, r)))
        }
        Node::Until(l, r) => Formula::Until(b(node_formula(arena, l)), b(node_formula(arena, r))),
        Node::Release(l, r) if l == super::nnf::FALSE => Formula::Always(b(node_formula(arena, r))),
        Node::Release(l, r) => match weak_until_left(arena, l, r) {
            Some(rest) => {
                Formula::WeakUntil(b(disjunction(arena, &rest)), b(node_formula(arena, l)))
            }
            None => Formula::Release(b(node_formula(arena, l)), b(node_formula(arena, r))),
        },
    }
}

/// `ψ R (φ || ψ)` is `φ W ψ`: the disjuncts of `φ`, if `r` has that shape.
fn weak_until_left(arena: &Arena, l: NodeId, r: NodeId) -> Option<Vec<NodeId>> {
    let Node::Or(xs) = arena.node(r) else {
        return None;
    };
    let rest: Vec<NodeId> = xs.iter().copied().filter(|&x| x != l).collect();
    (rest.len() < xs.len()).then_some(rest)
}

/// A disjunction, written `a && b -> rest` when some disjuncts are negated atoms.
fn disjunction(arena: &mut Arena, xs: &[NodeId]) -> Formula {
    let (negated, rest): (Vec<NodeId>, Vec<NodeId>) = xs.iter().partition(|&&x| {
        matches!(
            arena.node(x),
            Node::Lit {
                positive: false,
                ..
            }
        )
    });
    if negated.is_empty() || rest.is_empty() {
        let all = xs.iter().map(|&x| node_formula(arena, x)).collect();
        return fold(all, false);
    }
    // Each disjunct is rendered once: rendering one twice at every level of a
    // nested disjunction would take time exponential in its depth.
    let rest_formula: Vec<Formula> = rest.iter().map(|&x| node_formula(arena, x)).collect();
    let premises = negated
        .iter()
        .map(|&x| {
            let positive = arena.negate(x);
            node_formula(arena, positive)
        })
        .collect();
    Formula::Implies(
        Box::new(fold(premises, true)),
        Box::new(fold(rest_formula, false)),
    )
}

/// Recognizes an unrolled `F[lo,hi] φ` (strong nexts around `φ || X(φ || X(… φ))`)
/// or `G[lo,hi] φ` (weak nexts around `φ && Xw(φ && Xw(… φ))`) with `hi > lo`.
fn window(arena: &mut Arena, id: NodeId) -> Option<Formula> {
    for eventually in [true, false] {
        let mut lo = 0;
        let mut cur = id;
        while let Node::Next { strong, body } = *arena.node(cur) {
            if strong != eventually {
                break;
            }
            lo += 1;
            cur = body;
        }
        let Some((body, len)) = chain(arena, cur, eventually) else {
            continue;
        };
        let body = Box::new(body);
        let hi = lo + len;
        return Some(if eventually {
            Formula::EventuallyIn { lo, hi, body }
        } else {
            Formula::AlwaysIn { lo, hi, body }
        });
    }
    None
}

/// Matches `φ ∘ N(φ ∘ N(… φ))` (∘ = `||` with strong N, or `&&` with weak N) with at
/// least one N; returns `φ` and the number of N.
fn chain(arena: &mut Arena, id: NodeId, eventually: bool) -> Option<(Formula, u32)> {
    let parts_of = |arena: &Arena, id: NodeId| -> Vec<NodeId> {
        match arena.node(id) {
            Node::Or(xs) if eventually => xs.clone(),
            Node::And(xs) if !eventually => xs.clone(),
            _ => vec![id],
        }
    };
    let is_step = |arena: &Arena, x: NodeId| match *arena.node(x) {
        Node::Next { strong, body } if strong == eventually => Some(body),
        _ => None,
    };
    let top = parts_of(arena, id);
    for (i, &candidate) in top.iter().enumerate() {
        let Some(mut inner) = is_step(arena, candidate) else {
            continue;
        };
        let mut body_parts = top.clone();
        body_parts.remove(i);
        let mut len = 1;
        loop {
            let parts = parts_of(arena, inner);
            if parts == body_parts {
                let parts = body_parts.iter().map(|&x| node_formula(arena, x)).collect();
                return Some((fold(parts, !eventually), len));
            }
            let step = (0..parts.len()).find_map(|j| {
                let mut others = parts.clone();
                let next = is_step(arena, others.remove(j))?;
                (others == body_parts).then_some(next)
            });
            let Some(next) = step else { break };
            inner = next;
            len += 1;
        }
    }
    None
}
