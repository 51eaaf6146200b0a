//! Exploration of the residuals reachable from a formula: the unminimized monitor.
//!
//! A residual is a positive Boolean combination of obligations on the rest of
//! the trace, kept in a normal form ([`Solver::absorb`]) so that equal
//! residuals are found equal and few residuals exist:
//!
//! - a **term** is a conjunction of nodes that must hold from the next letter
//!   on, with one strength: since `X a ∧ Xw b = X (a ∧ b)`, a term with any
//!   strong obligation is strong as a whole (it needs a next letter);
//! - inside a term, a node implied by another node of the term is dropped
//!   ([`Implications`]), so `F[0,1] q ∧ F[0,3] q` is `F[0,1] q` and the pending
//!   deadlines of `G (p -> F[0,b] q)` are one obligation, not a set of them;
//! - a residual is a disjunction of terms, none implying another.
//!
//! Successors are computed on sets of letters ([`Letters`]), never letter by
//! letter: each node's successor table maps a partition of the alphabet to the
//! residual each block leads to, built bottom-up over the node's structure
//! (`φ U ψ = ψ ∨ (φ ∧ X(φ U ψ))`, `φ R ψ = ψ ∧ (φ ∨ Xw(φ R ψ))`) with blocks that
//! lead to the same residual merged after every product. A residual's table is
//! the product of its nodes' tables. Each residual is labelled with its LTL3
//! verdict (satisfiable / valid, decided by the [`Tableau`]) and its
//! end-of-trace verdict (some term is weak).

use super::budget::{Budget, OutOfBudget};
use super::expand::Expander;
use super::implies::{keep_uncovered, Implications};
use super::letters::{Alphabet, Letters};
use super::nnf::{Arena, Node, NodeId, FALSE, TRUE};
use super::tableau::Tableau;
use super::Ltl3Error;
use crate::Verdict;
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// A conjunction of nodes that must hold from the next letter on; a `strong`
/// term also needs a next letter to exist (it is false if the trace ends).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Term {
    /// Whether the term needs a next letter.
    pub strong: bool,
    /// The nodes, sorted, none implied by another, never `true`; `false` only
    /// alone, in a weak term (the trace must end before the next letter).
    pub nodes: Vec<NodeId>,
}

/// A residual: a disjunction of terms in normal form, sorted; `[]` is `false`.
pub(crate) type Residual = Vec<Term>;

/// A partition of (part of) the alphabet: each block of letters and the
/// residual it leads to, blocks with equal residuals merged.
type Table = Vec<(Letters, Residual)>;

/// The reachable residuals, in breadth-first order from the initial one (index 0).
pub(crate) struct Explored {
    pub residuals: Vec<Residual>,
    /// Per residual, its successors: disjoint letter sets covering the alphabet,
    /// each with the residual it leads to.
    pub transitions: Vec<Vec<(Letters, usize)>>,
    /// LTL3 verdict of each residual.
    pub verdicts: Vec<Verdict>,
    /// End-of-trace verdict of each residual (`Unknown` for the initial one).
    pub end_verdicts: Vec<Verdict>,
}

/// The machinery shared by the construction and the satisfiability queries.
pub(crate) struct Solver<'b> {
    pub arena: Arena,
    pub expander: Expander,
    pub tableau: Tableau,
    pub budget: &'b mut Budget,
    implications: Implications,
    tables: HashMap<NodeId, Rc<Table>>,
}

impl<'b> Solver<'b> {
    /// A solver over the nodes of `arena`, spending `budget`.
    pub(crate) fn new(arena: Arena, budget: &'b mut Budget) -> Solver<'b> {
        Solver {
            arena,
            expander: Expander::default(),
            tableau: Tableau::default(),
            budget,
            implications: Implications::default(),
            tables: HashMap::default(),
        }
    }

    /// Whether some infinite word satisfies `node`.
    pub(crate) fn satisfiable(&mut self, node: NodeId) -> Result<bool, OutOfBudget> {
        self.tableau.satisfiable(
            &self.arena,
            &mut self.expander,
            &mut self.implications,
            self.budget,
            &[node],
        )
    }

    /// The LTL3 verdict of a residual: the obligations concern the rest of the
    /// trace, so it is true iff the residual is valid, false iff it is unsatisfiable.
    fn verdict(&mut self, residual: &Residual) -> Result<Verdict, OutOfBudget> {
        if residual.iter().any(|t| t.nodes.is_empty()) {
            return Ok(Verdict::True);
        }
        let mut satisfiable = false;
        for t in residual {
            if self.tableau.satisfiable(
                &self.arena,
                &mut self.expander,
                &mut self.implications,
                self.budget,
                &t.nodes,
            )? {
                satisfiable = true;
                break;
            }
        }
        if !satisfiable {
            return Ok(Verdict::False);
        }
        let clauses = residual
            .iter()
            .map(|t| {
                let negated = t.nodes.iter().map(|&n| self.arena.negate(n)).collect();
                self.arena.or(negated)
            })
            .collect();
        let negation = self.arena.and(clauses);
        Ok(if self.satisfiable(negation)? {
            Verdict::Unknown
        } else {
            Verdict::True
        })
    }

    /// Explores every residual reachable from `root` on letters over the dense atoms.
    pub(crate) fn explore(
        &mut self,
        root: NodeId,
        max_states: usize,
    ) -> Result<Explored, Ltl3Error> {
        self.explore_within(root, max_states)
            .map_err(|e| e.into_error(self, max_states))
    }

    fn explore_within(&mut self, root: NodeId, max_states: usize) -> Result<Explored, Stop> {
        let alphabet = Alphabet::new(self.arena.atom_count());
        let initial = vec![Term {
            strong: true,
            nodes: vec![root],
        }];
        let mut explored = Explored {
            residuals: vec![initial],
            transitions: vec![],
            verdicts: vec![],
            end_verdicts: vec![],
        };
        // The initial residual is not interned: a later residual with the same
        // formula still differs in its end verdict.
        let mut index: HashMap<Residual, usize> = HashMap::default();
        let mut queue = VecDeque::from([0usize]);
        while let Some(s) = queue.pop_front() {
            let residual = explored.residuals[s].clone();
            let mut table = self
                .residual_table(&alphabet, &residual)
                .map_err(|_| Stop::Work(explored.residuals.clone()))?;
            // New residuals are numbered in order of the smallest letter leading
            // to them, as if letters were enumerated one by one.
            table.sort_by_key(|(letters, _)| letters.first());
            let mut row = Vec::with_capacity(table.len());
            for (letters, successor) in table {
                let id = match index.get(&successor) {
                    Some(&id) => id,
                    None => {
                        let id = explored.residuals.len();
                        if id >= max_states {
                            return Err(Stop::States(explored.residuals));
                        }
                        self.budget
                            .spend(size(&successor))
                            .map_err(|_| Stop::Work(explored.residuals.clone()))?;
                        index.insert(successor.clone(), id);
                        explored.residuals.push(successor);
                        queue.push_back(id);
                        id
                    }
                };
                row.push((letters, id));
            }
            explored.transitions.push(row);
        }
        for s in 0..explored.residuals.len() {
            let residual = &explored.residuals[s];
            let ends_ok = residual.iter().any(|t| !t.strong);
            explored.end_verdicts.push(match s {
                0 => Verdict::Unknown,
                _ => Verdict::from(ends_ok),
            });
            let residual = residual.clone();
            let verdict = self
                .verdict(&residual)
                .map_err(|_| Stop::Work(explored.residuals.clone()))?;
            explored.verdicts.push(verdict);
        }
        Ok(explored)
    }

    /// The successor table of a residual: the disjunction of its terms' tables.
    fn residual_table(
        &mut self,
        alphabet: &Alphabet,
        residual: &Residual,
    ) -> Result<Table, OutOfBudget> {
        let mut table: Table = vec![(alphabet.all(), vec![])];
        for term in residual {
            let mut of_term: Table = vec![(alphabet.all(), vec![weak_true()])];
            for &node in &term.nodes {
                let of_node = self.node_table(alphabet, node)?;
                of_term = self.product(&of_term, &of_node, true)?;
            }
            table = self.product(&table, &of_term, false)?;
        }
        Ok(table)
    }

    /// The successor table of one node (memoized): what the rest of the trace
    /// must satisfy after each letter, for the node to hold at that letter.
    fn node_table(&mut self, alphabet: &Alphabet, id: NodeId) -> Result<Rc<Table>, OutOfBudget> {
        if let Some(done) = self.tables.get(&id) {
            return Ok(done.clone());
        }
        let everywhere = |residual: Residual| vec![(alphabet.all(), residual)];
        let table = match self.arena.node(id).clone() {
            Node::True => everywhere(vec![weak_true()]),
            Node::False => everywhere(vec![]),
            Node::Lit { atom, positive } => {
                let bit = 1u64 << atom;
                let holds = alphabet.cube(bit, 0);
                let fails = alphabet.all().and_not(&holds);
                let (yes, no) = if positive {
                    (holds, fails)
                } else {
                    (fails, holds)
                };
                [(yes, vec![weak_true()]), (no, vec![])]
                    .into_iter()
                    .filter(|(l, _)| !l.is_empty())
                    .collect()
            }
            Node::And(xs) | Node::Or(xs) => {
                let conjunction = matches!(self.arena.node(id), Node::And(_));
                let unit = if conjunction {
                    vec![weak_true()]
                } else {
                    vec![]
                };
                let mut table = everywhere(unit);
                for x in xs {
                    let of_x = self.node_table(alphabet, x)?;
                    table = self.product(&table, &of_x, conjunction)?;
                }
                table
            }
            Node::Next { strong, body } => {
                let term = self.term(strong, vec![body])?;
                everywhere(term.into_iter().collect())
            }
            Node::Until(left, right) => self.unfold_table(alphabet, id, true, left, right)?,
            Node::Release(left, right) => self.unfold_table(alphabet, id, false, left, right)?,
        };
        let table = Rc::new(table);
        self.tables.insert(id, table.clone());
        Ok(table)
    }

    /// The successor table of node `id`, `left U right` (`until`) or
    /// `left R right`, by its one-step unfolding: `right || (left && X id)`,
    /// or `right && (left || Xw id)`.
    fn unfold_table(
        &mut self,
        alphabet: &Alphabet,
        id: NodeId,
        until: bool,
        left: NodeId,
        right: NodeId,
    ) -> Result<Table, OutOfBudget> {
        let left = self.node_table(alphabet, left)?;
        let again = self.term(until, vec![id])?;
        let again = vec![(alphabet.all(), again.into_iter().collect())];
        let otherwise = self.product(&left, &again, until)?;
        let now = self.node_table(alphabet, right)?;
        self.product(&now, &otherwise, !until)
    }

    /// The conjunction (or disjunction) of two successor tables: blocks
    /// intersected, residuals combined, equal residuals merged.
    fn product(&mut self, a: &Table, b: &Table, conjunction: bool) -> Result<Table, OutOfBudget> {
        let words = a.first().map_or(1, |(l, _)| l.words_len());
        let mut out: Table = Vec::new();
        let mut index: HashMap<Residual, usize> = HashMap::default();
        for (la, ra) in a {
            for (lb, rb) in b {
                self.budget.spend(words)?;
                let letters = la.and(lb);
                if letters.is_empty() {
                    continue;
                }
                let residual = if conjunction {
                    self.conjoin(ra, rb)?
                } else {
                    self.disjoin(ra, rb)?
                };
                match index.get(&residual) {
                    Some(&i) => out[i].0.or_assign(&letters),
                    None => {
                        index.insert(residual.clone(), out.len());
                        out.push((letters, residual));
                    }
                }
            }
        }
        Ok(out)
    }

    /// `a ∧ b` in normal form.
    fn conjoin(&mut self, a: &Residual, b: &Residual) -> Result<Residual, OutOfBudget> {
        self.budget.spend(a.len() * b.len())?;
        let mut terms = Vec::with_capacity(a.len() * b.len());
        for ta in a {
            for tb in b {
                let mut nodes = ta.nodes.clone();
                nodes.extend_from_slice(&tb.nodes);
                if let Some(t) = self.term(ta.strong || tb.strong, nodes)? {
                    terms.push(t);
                }
            }
        }
        self.absorb(terms)
    }

    /// `a ∨ b` in normal form.
    fn disjoin(&mut self, a: &Residual, b: &Residual) -> Result<Residual, OutOfBudget> {
        let terms = a.iter().chain(b).cloned().collect();
        self.absorb(terms)
    }

    /// The term `nodes` (strong or weak) in normal form: conjunctions flattened,
    /// `true` dropped, implied nodes dropped. With `false` among the nodes a
    /// strong term is `None` (`X false` is false) and a weak one is `[false]`
    /// (`Xw false`: the trace must end here).
    fn term(&mut self, strong: bool, nodes: Vec<NodeId>) -> Result<Option<Term>, OutOfBudget> {
        let mut flat = Vec::with_capacity(nodes.len());
        for n in nodes {
            match self.arena.node(n) {
                Node::And(xs) => flat.extend_from_slice(xs),
                _ => flat.push(n),
            }
        }
        if flat.contains(&FALSE) {
            return Ok((!strong).then(|| Term {
                strong,
                nodes: vec![FALSE],
            }));
        }
        flat.retain(|&n| n != TRUE);
        let nodes = self
            .implications
            .drop_implied(&self.arena, self.budget, flat)?;
        Ok(Some(Term { strong, nodes }))
    }

    /// The disjunction of `terms` in normal form: sorted, without duplicates or
    /// terms that imply another term.
    fn absorb(&mut self, mut terms: Vec<Term>) -> Result<Residual, OutOfBudget> {
        terms.sort_unstable_by(|a, b| a.nodes.len().cmp(&b.nodes.len()).then_with(|| a.cmp(b)));
        terms.dedup();
        // Each pair of terms is compared (a subset test of their nodes): two
        // units a pair.
        self.budget.spend(2 * terms.len() * terms.len())?;
        // In a disjunction, a term is redundant beside a term it implies.
        keep_uncovered(terms, |weaker, stronger| {
            self.term_implies(stronger, weaker)
        })
    }

    /// Whether term `a` implies term `b`: `a` is at least as strong and each
    /// node of `b` is implied by a node of `a`.
    fn term_implies(&mut self, a: &Term, b: &Term) -> Result<bool, OutOfBudget> {
        if b.strong && !a.strong {
            return Ok(false);
        }
        for &y in &b.nodes {
            if !self.implied_by_any(&a.nodes, y)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn implied_by_any(&mut self, xs: &[NodeId], y: NodeId) -> Result<bool, OutOfBudget> {
        for &x in xs {
            if self.implies(x, y)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn implies(&mut self, a: NodeId, b: NodeId) -> Result<bool, OutOfBudget> {
        self.implications.implies(&self.arena, self.budget, a, b)
    }
}

/// The term `true` (no obligation, no next letter needed).
fn weak_true() -> Term {
    Term {
        strong: false,
        nodes: vec![],
    }
}

/// Memory units of a residual kept in the index.
fn size(residual: &Residual) -> usize {
    residual.iter().map(|t| t.nodes.len() + 1).sum::<usize>() + 1
}

/// Why an exploration stopped, with the residuals seen (to name a culprit).
enum Stop {
    States(Vec<Residual>),
    Work(Vec<Residual>),
}

impl Stop {
    fn into_error(self, solver: &Solver<'_>, max_states: usize) -> Ltl3Error {
        match self {
            Stop::States(residuals) => Ltl3Error::TooManyStates {
                limit: max_states,
                culprit: solver.culprit(&residuals),
            },
            Stop::Work(residuals) => Ltl3Error::TooMuchWork {
                limit: solver.budget.limit(),
                culprit: solver.culprit(&residuals),
            },
        }
    }
}

impl Solver<'_> {
    /// The temporal sub-formula whose nodes occur as the most distinct
    /// obligations among `residuals`.
    fn culprit(&self, residuals: &[Residual]) -> Option<super::Formula> {
        let mut per_origin: HashMap<&super::Formula, Vec<NodeId>> = HashMap::default();
        for &n in residuals.iter().flatten().flat_map(|t| &t.nodes) {
            if let Some(origin) = self.arena.origin(n) {
                per_origin.entry(origin).or_default().push(n);
            }
        }
        per_origin
            .into_iter()
            .map(|(origin, mut nodes)| {
                nodes.sort_unstable();
                nodes.dedup();
                (
                    nodes.len(),
                    origin.render(&|a| format!("p{a}")).len(),
                    origin,
                )
            })
            .max_by_key(|(count, size, _)| (*count, *size))
            .map(|(_, _, origin)| origin.clone())
    }
}
