//! Hash-consed negation normal form: the formulas the construction works on.
//!
//! Every node is built through a smart constructor that flattens, sorts and
//! deduplicates `And`/`Or`, absorbs constants and complementary pairs, so equal
//! formulas up to those laws share one [`NodeId`]. Bounded operators are unrolled
//! into chains of next-steps. There are two next operators: `Next { strong: true }`
//! (`X`, false at the last step of a finite trace) and `Next { strong: false }`
//! (weak next, true there); on infinite words they coincide. With them negation is
//! exact in both semantics: `!X φ = Xw !φ`, `!(φ U ψ) = !φ R !ψ`.

use super::formula::Formula;
use super::Ltl3Error;
use rustc_hash::FxHashMap as HashMap;

/// Index of a node in the [`Arena`].
pub(crate) type NodeId = u32;

/// The node `true`.
pub(crate) const TRUE: NodeId = 0;
/// The node `false`.
pub(crate) const FALSE: NodeId = 1;

/// Largest bound a bounded operator may have (its unrolling has that many nodes).
const MAX_BOUND: u32 = 100_000;

/// One NNF node; `And`/`Or` operands are sorted, distinct, and at least two.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    True,
    False,
    /// Dense atom index (see [`Arena::user_atom`]) with its polarity.
    Lit {
        atom: u32,
        positive: bool,
    },
    And(Vec<NodeId>),
    Or(Vec<NodeId>),
    Next {
        strong: bool,
        body: NodeId,
    },
    Until(NodeId, NodeId),
    Release(NodeId, NodeId),
}

/// The node store, with negations and the user sub-formula each node came from.
pub(crate) struct Arena {
    nodes: Vec<Node>,
    ids: HashMap<Node, NodeId>,
    negations: HashMap<NodeId, NodeId>,
    /// Dense atom index -> user atom.
    atoms: Vec<u32>,
    dense: HashMap<u32, u32>,
    /// For each node, the index in `sources` of the temporal sub-formula that built it.
    origins: Vec<Option<usize>>,
    sources: Vec<Formula>,
}

impl Arena {
    /// Converts `formula` to NNF; returns the arena and the root node.
    pub(crate) fn from_formula(formula: &Formula) -> Result<(Arena, NodeId), Ltl3Error> {
        let mut arena = Arena {
            nodes: Vec::new(),
            ids: HashMap::default(),
            negations: HashMap::default(),
            atoms: Vec::new(),
            dense: HashMap::default(),
            origins: Vec::new(),
            sources: Vec::new(),
        };
        arena.intern(Node::True);
        arena.intern(Node::False);
        arena.negations.insert(TRUE, FALSE);
        arena.negations.insert(FALSE, TRUE);
        let root = arena.convert(formula)?;
        Ok((arena, root))
    }

    /// The node with this id.
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Number of distinct atoms (dense indices are `0..atom_count()`).
    pub(crate) fn atom_count(&self) -> usize {
        self.atoms.len()
    }

    /// The user atom of a dense atom index.
    pub(crate) fn user_atom(&self, dense: u32) -> u32 {
        self.atoms[dense as usize]
    }

    /// The user sub-formula that built `id`, if known.
    pub(crate) fn origin(&self, id: NodeId) -> Option<&Formula> {
        self.origins[id as usize].map(|i| &self.sources[i])
    }

    fn intern(&mut self, node: Node) -> NodeId {
        if let Some(&id) = self.ids.get(&node) {
            return id;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node.clone());
        self.origins.push(None);
        self.ids.insert(node, id);
        id
    }

    fn convert(&mut self, f: &Formula) -> Result<NodeId, Ltl3Error> {
        use Formula::*;
        Ok(match f {
            True => TRUE,
            False => FALSE,
            Atom(a) => {
                let next = self.atoms.len() as u32;
                let dense = *self.dense.entry(*a).or_insert(next);
                if dense == next {
                    self.atoms.push(*a);
                }
                self.lit(dense)
            }
            Not(a) => {
                let a = self.convert(a)?;
                self.negate(a)
            }
            And(a, b) => {
                let (a, b) = (self.convert(a)?, self.convert(b)?);
                self.and(vec![a, b])
            }
            Or(a, b) => {
                let (a, b) = (self.convert(a)?, self.convert(b)?);
                self.or(vec![a, b])
            }
            Implies(a, b) => {
                let (a, b) = (self.convert(a)?, self.convert(b)?);
                let not_a = self.negate(a);
                self.or(vec![not_a, b])
            }
            Iff(a, b) => {
                let (a, b) = (self.convert(a)?, self.convert(b)?);
                let (not_a, not_b) = (self.negate(a), self.negate(b));
                let both = self.and(vec![a, b]);
                let neither = self.and(vec![not_a, not_b]);
                self.or(vec![both, neither])
            }
            Next(_) => self.temporal(f, |s, a, _| Ok(s.next(true, a)))?,
            Until(..) => self.temporal(f, |s, a, b| Ok(s.until(a, b)))?,
            Release(..) => self.temporal(f, |s, a, b| Ok(s.release(a, b)))?,
            WeakUntil(..) => self.temporal(f, |s, a, b| {
                let either = s.or(vec![a, b]);
                Ok(s.release(b, either))
            })?,
            Eventually(_) => self.temporal(f, |s, a, _| Ok(s.until(TRUE, a)))?,
            Always(_) => self.temporal(f, |s, a, _| Ok(s.release(FALSE, a)))?,
            EventuallyIn { lo, hi, .. } => {
                self.temporal(f, |s, a, _| s.window(f, true, (*lo, *hi), a))?
            }
            AlwaysIn { lo, hi, .. } => {
                self.temporal(f, |s, a, _| s.window(f, false, (*lo, *hi), a))?
            }
            UntilIn { lo, hi, .. } => self.temporal(f, |s, a, b| {
                check_bounds(f, *lo, *hi)?;
                let mut w = b;
                for _ in *lo..*hi {
                    let later = s.next(true, w);
                    let hold = s.and(vec![a, later]);
                    w = s.or(vec![b, hold]);
                }
                for _ in 0..*lo {
                    let later = s.next(true, w);
                    w = s.and(vec![a, later]);
                }
                Ok(w)
            })?,
        })
    }

    /// Converts the operands of the temporal operator `f` (the second defaults to the
    /// first), then builds it with `build`; the nodes `build` creates (not the
    /// operands') remember `f` as their origin.
    fn temporal(
        &mut self,
        f: &Formula,
        build: impl FnOnce(&mut Arena, NodeId, NodeId) -> Result<NodeId, Ltl3Error>,
    ) -> Result<NodeId, Ltl3Error> {
        let operands = f
            .children()
            .into_iter()
            .map(|c| self.convert(c))
            .collect::<Result<Vec<_>, _>>()?;
        let first = operands.first().copied().unwrap_or(TRUE);
        let second = operands.get(1).copied().unwrap_or(first);
        let mark = self.nodes.len();
        let id = build(self, first, second)?;
        self.claim(mark, f);
        Ok(id)
    }

    /// Records `f` as the origin of the nodes created since `mark`.
    fn claim(&mut self, mark: usize, f: &Formula) {
        if mark < self.nodes.len() {
            let source = self.sources.len();
            self.sources.push(f.clone());
            for origin in &mut self.origins[mark..] {
                origin.get_or_insert(source);
            }
        }
    }

    /// The positive literal of a dense atom (its negation is registered too).
    fn lit(&mut self, atom: u32) -> NodeId {
        let pos = self.intern(Node::Lit {
            atom,
            positive: true,
        });
        let neg = self.intern(Node::Lit {
            atom,
            positive: false,
        });
        self.negations.insert(pos, neg);
        self.negations.insert(neg, pos);
        pos
    }

    /// `F[lo,hi] a` (`strong`: `a` at some step of the window, unrolled with
    /// strong nexts) or `G[lo,hi] a` (`a` at every step, with weak nexts);
    /// `f` is the formula, for the error if the bounds are invalid.
    fn window(
        &mut self,
        f: &Formula,
        strong: bool,
        (lo, hi): (u32, u32),
        a: NodeId,
    ) -> Result<NodeId, Ltl3Error> {
        check_bounds(f, lo, hi)?;
        let mut w = a;
        for _ in lo..hi {
            let later = self.next(strong, w);
            w = if strong {
                self.or(vec![a, later])
            } else {
                self.and(vec![a, later])
            };
        }
        Ok(self.nexts(strong, lo, w))
    }

    /// `n` nested next-steps around `body`.
    fn nexts(&mut self, strong: bool, n: u32, mut body: NodeId) -> NodeId {
        for _ in 0..n {
            body = self.next(strong, body);
        }
        body
    }

    /// Conjunction, flattened and simplified.
    pub(crate) fn and(&mut self, parts: Vec<NodeId>) -> NodeId {
        self.junction(parts, true)
    }

    /// Disjunction, flattened and simplified.
    pub(crate) fn or(&mut self, parts: Vec<NodeId>) -> NodeId {
        self.junction(parts, false)
    }

    fn junction(&mut self, parts: Vec<NodeId>, conjunction: bool) -> NodeId {
        let (unit, zero) = if conjunction {
            (TRUE, FALSE)
        } else {
            (FALSE, TRUE)
        };
        let mut flat = Vec::with_capacity(parts.len());
        for p in parts {
            match self.node(p) {
                Node::And(xs) if conjunction => flat.extend_from_slice(xs),
                Node::Or(xs) if !conjunction => flat.extend_from_slice(xs),
                _ if p == zero => return zero,
                _ if p == unit => {}
                _ => flat.push(p),
            }
        }
        flat.sort_unstable();
        flat.dedup();
        let complementary = flat.iter().any(|p| {
            self.negations
                .get(p)
                .is_some_and(|n| flat.binary_search(n).is_ok())
        });
        match flat.len() {
            _ if complementary => zero,
            0 => unit,
            1 => flat[0],
            _ if conjunction => self.intern(Node::And(flat)),
            _ => self.intern(Node::Or(flat)),
        }
    }

    /// Next-step, simplifying `Xw true = true` and `X false = false`.
    pub(crate) fn next(&mut self, strong: bool, body: NodeId) -> NodeId {
        match (strong, body) {
            (false, TRUE) => TRUE,
            (true, FALSE) => FALSE,
            _ => self.intern(Node::Next { strong, body }),
        }
    }

    fn until(&mut self, left: NodeId, right: NodeId) -> NodeId {
        if right == TRUE || right == FALSE || left == FALSE || left == right {
            return right;
        }
        self.intern(Node::Until(left, right))
    }

    fn release(&mut self, left: NodeId, right: NodeId) -> NodeId {
        if right == TRUE || right == FALSE || left == TRUE || left == right {
            return right;
        }
        self.intern(Node::Release(left, right))
    }

    fn operands(&self, id: NodeId) -> Vec<NodeId> {
        match self.node(id) {
            Node::True | Node::False | Node::Lit { .. } => vec![],
            Node::And(xs) | Node::Or(xs) => xs.clone(),
            Node::Next { body, .. } => vec![*body],
            Node::Until(a, b) | Node::Release(a, b) => vec![*a, *b],
        }
    }

    /// The NNF of `!root` (iterative: unrolled windows make deep chains).
    pub(crate) fn negate(&mut self, root: NodeId) -> NodeId {
        let mut stack = vec![(root, false)];
        while let Some((id, operands_done)) = stack.pop() {
            if self.negations.contains_key(&id) {
                continue;
            }
            if !operands_done {
                stack.push((id, true));
                for c in self.operands(id) {
                    if !self.negations.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let mark = self.nodes.len();
            let neg = |arena: &Arena, c: NodeId| arena.negations[&c];
            let negated = match self.node(id).clone() {
                // Constants and literals are registered at creation.
                Node::True => FALSE,
                Node::False => TRUE,
                Node::Lit { atom, positive } => self.intern(Node::Lit {
                    atom,
                    positive: !positive,
                }),
                Node::And(xs) => {
                    let ys = xs.iter().map(|&x| neg(self, x)).collect();
                    self.or(ys)
                }
                Node::Or(xs) => {
                    let ys = xs.iter().map(|&x| neg(self, x)).collect();
                    self.and(ys)
                }
                Node::Next { strong, body } => {
                    let body = neg(self, body);
                    self.next(!strong, body)
                }
                Node::Until(a, b) => {
                    let (a, b) = (neg(self, a), neg(self, b));
                    self.release(a, b)
                }
                Node::Release(a, b) => {
                    let (a, b) = (neg(self, a), neg(self, b));
                    self.until(a, b)
                }
            };
            let origin = self.origins[id as usize];
            for o in &mut self.origins[mark..] {
                *o = o.or(origin);
            }
            self.negations.insert(id, negated);
            self.negations.entry(negated).or_insert(id);
        }
        self.negations[&root]
    }
}

fn check_bounds(f: &Formula, lo: u32, hi: u32) -> Result<(), Ltl3Error> {
    if lo > hi || hi > MAX_BOUND {
        return Err(Ltl3Error::InvalidBounds {
            formula: f.clone(),
            max: MAX_BOUND,
        });
    }
    Ok(())
}
