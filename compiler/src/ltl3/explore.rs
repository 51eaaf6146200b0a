//! Exploration of the residuals reachable from a formula: the unminimized monitor.
//!
//! A residual is a positive Boolean combination of obligations kept as its unique
//! minimal DNF (sorted terms, none containing another), so each residual has one
//! representation and there are finitely many. Each residual is labelled with its
//! LTL3 verdict (satisfiable / valid, decided by the [`Tableau`]) and its
//! end-of-trace verdict (some term has only weak obligations).

use super::expand::{merge_obligations, Expander, Obligation};
use super::nnf::{Arena, NodeId};
use super::tableau::Tableau;
use super::Ltl3Error;
use crate::Verdict;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// A conjunction of obligations, sorted.
pub(crate) type Term = Vec<Obligation>;
/// A residual: a disjunction of terms in minimal DNF, sorted.
pub(crate) type Residual = Vec<Term>;

/// The reachable residuals, in breadth-first order from the initial one (index 0).
pub(crate) struct Explored {
    pub residuals: Vec<Residual>,
    /// `transitions[s][l]`: successor of residual `s` on dense letter `l`.
    pub transitions: Vec<Vec<usize>>,
    /// LTL3 verdict of each residual.
    pub verdicts: Vec<Verdict>,
    /// End-of-trace verdict of each residual (`Unknown` for the initial one).
    pub end_verdicts: Vec<Verdict>,
}

/// The machinery shared by the construction and the satisfiability queries.
pub(crate) struct Solver {
    pub arena: Arena,
    pub expander: Expander,
    pub tableau: Tableau,
    letter_tables: HashMap<NodeId, Rc<LetterTable>>,
}

impl Solver {
    /// A solver over the nodes of `arena`.
    pub(crate) fn new(arena: Arena) -> Solver {
        Solver {
            arena,
            expander: Expander::default(),
            tableau: Tableau::default(),
            letter_tables: HashMap::new(),
        }
    }

    /// Whether some infinite word satisfies `node`.
    pub(crate) fn satisfiable(&mut self, node: NodeId) -> bool {
        self.tableau
            .satisfiable(&self.arena, &mut self.expander, &[node])
    }

    /// The LTL3 verdict of a residual: the obligations concern the rest of the
    /// trace, so it is true iff the residual is valid, false iff it is unsatisfiable.
    fn verdict(&mut self, residual: &Residual) -> Verdict {
        if residual.iter().any(|t| t.is_empty()) {
            return Verdict::True;
        }
        let satisfiable = residual.iter().any(|t| {
            let nodes: Vec<NodeId> = t.iter().map(|o| o.node).collect();
            self.tableau
                .satisfiable(&self.arena, &mut self.expander, &nodes)
        });
        if !satisfiable {
            return Verdict::False;
        }
        let clauses = residual
            .iter()
            .map(|t| {
                let negated = t.iter().map(|o| self.arena.negate(o.node)).collect();
                self.arena.or(negated)
            })
            .collect();
        let negation = self.arena.and(clauses);
        if self.satisfiable(negation) {
            Verdict::Unknown
        } else {
            Verdict::True
        }
    }

    /// Explores every residual reachable from `root` on letters over the dense atoms.
    pub(crate) fn explore(
        &mut self,
        root: NodeId,
        max_states: usize,
    ) -> Result<Explored, Ltl3Error> {
        let atoms = self.arena.atom_count();
        let initial: Residual = vec![vec![Obligation {
            node: root,
            strong: true,
        }]];
        let mut explored = Explored {
            residuals: vec![initial],
            transitions: vec![],
            verdicts: vec![],
            end_verdicts: vec![],
        };
        // The initial residual is not interned: a later residual with the same
        // formula still differs in its end verdict.
        let mut index: HashMap<Residual, usize> = HashMap::new();
        let mut queue = VecDeque::from([0usize]);
        while let Some(s) = queue.pop_front() {
            let residual = &explored.residuals[s];
            let mut nodes: Vec<NodeId> = residual.iter().flatten().map(|o| o.node).collect();
            nodes.sort_unstable();
            nodes.dedup();
            let tables: Vec<Rc<LetterTable>> =
                nodes.iter().map(|&n| self.letter_table(n, atoms)).collect();
            let terms: Vec<Vec<usize>> = residual
                .iter()
                .map(|t| {
                    t.iter()
                        .filter_map(|o| nodes.binary_search(&o.node).ok())
                        .collect()
                })
                .collect();
            // Letters that every obligation treats alike share one successor.
            let mut by_classes: HashMap<Vec<u32>, usize> = HashMap::new();
            let mut classes = vec![0u32; tables.len()];
            let mut row = Vec::with_capacity(1 << atoms);
            for letter in 0..1usize << atoms {
                for (class, table) in classes.iter_mut().zip(&tables) {
                    *class = table.class_of_letter[letter];
                }
                let id = match by_classes.get(&classes[..]) {
                    Some(&id) => id,
                    None => {
                        let successor = successor(&tables, &classes, &terms);
                        let id = match index.get(&successor) {
                            Some(&id) => id,
                            None => {
                                let id = explored.residuals.len();
                                if id >= max_states {
                                    return Err(
                                        self.too_many_states(&explored.residuals, max_states)
                                    );
                                }
                                index.insert(successor.clone(), id);
                                explored.residuals.push(successor);
                                queue.push_back(id);
                                id
                            }
                        };
                        by_classes.insert(classes.clone(), id);
                        id
                    }
                };
                row.push(id);
            }
            explored.transitions.push(row);
        }
        for (s, residual) in explored.residuals.iter().enumerate() {
            explored.verdicts.push(self.verdict(residual));
            let ends_ok = residual.iter().any(|t| t.iter().all(|o| !o.strong));
            explored.end_verdicts.push(match s {
                0 => Verdict::Unknown,
                _ => Verdict::from(ends_ok),
            });
        }
        Ok(explored)
    }

    /// The error for an exceeded state limit, naming the temporal sub-formula whose
    /// nodes occur as the most distinct obligations among the residuals seen.
    fn too_many_states(&self, residuals: &[Residual], limit: usize) -> Ltl3Error {
        let mut per_origin: HashMap<&super::Formula, Vec<NodeId>> = HashMap::new();
        for o in residuals.iter().flatten().flatten() {
            if let Some(origin) = self.arena.origin(o.node) {
                per_origin.entry(origin).or_default().push(o.node);
            }
        }
        let culprit = per_origin
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
            .map(|(_, _, origin)| origin.clone());
        Ltl3Error::TooManyStates { limit, culprit }
    }
}

/// How one obligation's expansion splits the letters.
pub(crate) struct LetterTable {
    /// The class of each dense letter: letters of one class admit the same branches.
    class_of_letter: Vec<u32>,
    /// Per class, the next-obligations of the branches its letters admit.
    class_nexts: Vec<Vec<Term>>,
}

impl Solver {
    /// The letter table of `node` over `atoms` dense atoms (memoized).
    fn letter_table(&mut self, node: NodeId, atoms: usize) -> Rc<LetterTable> {
        if let Some(table) = self.letter_tables.get(&node) {
            return table.clone();
        }
        let expansion = self.expander.expand(&self.arena, node);
        let mut class_ids: HashMap<Vec<usize>, u32> = HashMap::new();
        let mut class_nexts = vec![];
        let class_of_letter = (0..1u64 << atoms)
            .map(|letter| {
                let admitted: Vec<usize> = (0..expansion.len())
                    .filter(|&i| expansion[i].admits(letter))
                    .collect();
                *class_ids.entry(admitted).or_insert_with_key(|admitted| {
                    class_nexts.push(
                        admitted
                            .iter()
                            .map(|&i| expansion[i].next.clone())
                            .collect(),
                    );
                    (class_nexts.len() - 1) as u32
                })
            })
            .collect();
        let table = Rc::new(LetterTable {
            class_of_letter,
            class_nexts,
        });
        self.letter_tables.insert(node, table.clone());
        table
    }
}

/// The residual after a letter, given the letter's class in each obligation's table:
/// for each term, the conjunction over its obligations of the disjunction of their
/// admitted branches' next-obligations, kept in minimal DNF throughout.
fn successor(tables: &[Rc<LetterTable>], classes: &[u32], terms: &[Vec<usize>]) -> Residual {
    let mut all = vec![];
    for term in terms {
        let mut dnf: Vec<Term> = vec![vec![]];
        for &slot in term {
            let options = &tables[slot].class_nexts[classes[slot] as usize];
            let product = dnf
                .iter()
                .flat_map(|t| options.iter().map(move |next| merge_obligations(t, next)))
                .collect();
            dnf = absorb(product);
        }
        all.extend(dnf);
    }
    absorb(all)
}

/// The minimal DNF of a disjunction of terms: drops every term that implies another
/// (contains all its obligations, at least as strong).
fn absorb(mut terms: Vec<Term>) -> Residual {
    terms.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    terms.dedup();
    let mut kept: Vec<Term> = vec![];
    for t in terms {
        if !kept.iter().any(|k| implies(&t, k)) {
            kept.push(t);
        }
    }
    kept.sort_unstable();
    kept
}

/// Whether term `a` implies term `b` syntactically.
fn implies(a: &Term, b: &Term) -> bool {
    b.iter().all(|o| {
        a.iter()
            .any(|p| p.node == o.node && (p.strong || !o.strong))
    })
}
