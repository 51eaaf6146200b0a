//! Exact LTL satisfiability on infinite words: a transition-based generalized Büchi
//! tableau whose nodes are sets of NNF formulas, built lazily from [`Expander`]
//! branches. A node's language is nonempty iff it reaches a nontrivial strongly
//! connected component in which, for every until, some internal edge does not
//! postpone it. Results are memoized per node across queries.

use super::budget::{Budget, OutOfBudget};
use super::expand::{is_subset, Expander};
use super::implies::Implications;
use super::nnf::{Arena, NodeId};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

/// An edge of the tableau: target node and the untils it postpones.
struct Edge {
    to: usize,
    postponed: Vec<NodeId>,
}

/// The lazily built tableau with its emptiness memo.
#[derive(Default)]
pub(crate) struct Tableau {
    keys: Vec<Vec<NodeId>>,
    index: HashMap<Vec<NodeId>, usize>,
    edges: Vec<Option<Rc<Vec<Edge>>>>,
    nonempty: Vec<Option<bool>>,
}

/// What a query works with besides the tableau.
struct Tools<'a> {
    arena: &'a Arena,
    expander: &'a mut Expander,
    implications: &'a mut Implications,
    budget: &'a mut Budget,
}

/// Per-query state of Tarjan's algorithm.
#[derive(Default)]
struct Search {
    order: HashMap<usize, usize>,
    low: HashMap<usize, usize>,
    stack: Vec<usize>,
    on_stack: HashSet<usize>,
}

impl Tableau {
    /// Whether some infinite word satisfies the conjunction of `formulas`.
    pub(crate) fn satisfiable(
        &mut self,
        arena: &Arena,
        expander: &mut Expander,
        implications: &mut Implications,
        budget: &mut Budget,
        formulas: &[NodeId],
    ) -> Result<bool, OutOfBudget> {
        let mut tools = Tools {
            arena,
            expander,
            implications,
            budget,
        };
        let root = self.intern(&mut tools, formulas.to_vec())?;
        if let Some(known) = self.nonempty[root] {
            return Ok(known);
        }
        self.decide_from(&mut tools, root)?;
        Ok(self.nonempty[root].unwrap_or(false))
    }

    /// The node for the conjunction of `formulas`, with formulas implied by
    /// others dropped (the same conjunction, so the same language; this keeps
    /// e.g. the pending deadlines of unrolled windows one node each).
    fn intern(
        &mut self,
        tools: &mut Tools<'_>,
        formulas: Vec<NodeId>,
    ) -> Result<usize, OutOfBudget> {
        let key = tools
            .implications
            .drop_implied(tools.arena, tools.budget, formulas)?;
        let budget = &mut *tools.budget;
        if let Some(&id) = self.index.get(&key) {
            return Ok(id);
        }
        budget.spend(key.len() + 1)?;
        let id = self.keys.len();
        self.keys.push(key.clone());
        self.index.insert(key, id);
        self.edges.push(None);
        self.nonempty.push(None);
        Ok(id)
    }

    fn edges(&mut self, tools: &mut Tools<'_>, v: usize) -> Result<Rc<Vec<Edge>>, OutOfBudget> {
        if let Some(done) = &self.edges[v] {
            return Ok(done.clone());
        }
        let branches =
            tools
                .expander
                .expand_all(tools.arena, tools.budget, &self.keys[v].clone())?;
        let mut edges: Vec<Edge> = Vec::new();
        for b in branches {
            tools.budget.spend(edges.len() / 8 + 1)?;
            let to = self.intern(tools, b.next)?;
            // Keep, per target, only the edges with minimal postponement sets.
            if edges
                .iter()
                .any(|e| e.to == to && is_subset(&e.postponed, &b.postponed))
            {
                continue;
            }
            edges.retain(|e| !(e.to == to && is_subset(&b.postponed, &e.postponed)));
            edges.push(Edge {
                to,
                postponed: b.postponed,
            });
        }
        let edges = Rc::new(edges);
        self.edges[v] = Some(edges.clone());
        Ok(edges)
    }

    /// Iterative Tarjan from `root` over undecided nodes; each completed component is
    /// decided when it is popped (its successors outside are decided by then).
    fn decide_from(&mut self, tools: &mut Tools<'_>, root: usize) -> Result<(), OutOfBudget> {
        let mut search = Search::default();
        let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
        search.enter(root);
        while let Some(&(v, next_edge)) = calls.last() {
            let edges = self.edges(tools, v)?;
            if let Some(edge) = edges.get(next_edge) {
                if let Some(top) = calls.last_mut() {
                    top.1 += 1;
                }
                let w = edge.to;
                if self.nonempty[w].is_some() {
                    continue;
                }
                match search.order.get(&w) {
                    None => {
                        search.enter(w);
                        calls.push((w, 0));
                    }
                    Some(&order_w) if search.on_stack.contains(&w) => search.lower(v, order_w),
                    Some(_) => {}
                }
                continue;
            }
            calls.pop();
            if search.low[&v] == search.order[&v] {
                let mut component = vec![];
                while let Some(x) = search.stack.pop() {
                    search.on_stack.remove(&x);
                    component.push(x);
                    if x == v {
                        break;
                    }
                }
                let verdict = self.component_nonempty(tools.budget, &component)?;
                for x in component {
                    self.nonempty[x] = Some(verdict);
                }
            }
            if let Some(&(parent, _)) = calls.last() {
                let low_v = search.low[&v];
                search.lower(parent, low_v);
            }
        }
        Ok(())
    }

    /// A completed component is nonempty iff it leaves to a nonempty node or is
    /// accepting: it has an internal edge, and every until postponed inside it has
    /// an internal edge not postponing it.
    fn component_nonempty(
        &self,
        budget: &mut Budget,
        component: &[usize],
    ) -> Result<bool, OutOfBudget> {
        let members: HashSet<usize> = component.iter().copied().collect();
        let mut internal: Vec<&Edge> = vec![];
        for &m in component {
            for e in self.edges[m].iter().flat_map(|es| es.iter()) {
                if members.contains(&e.to) {
                    internal.push(e);
                } else if self.nonempty[e.to] == Some(true) {
                    return Ok(true);
                }
            }
        }
        let postponed: HashSet<NodeId> = internal
            .iter()
            .flat_map(|e| e.postponed.iter().copied())
            .collect();
        budget.spend(component.len() + internal.len() * (postponed.len() + 1))?;
        Ok(!internal.is_empty()
            && postponed
                .iter()
                .all(|u| internal.iter().any(|e| !e.postponed.contains(u))))
    }
}

impl Search {
    fn enter(&mut self, v: usize) {
        let n = self.order.len();
        self.order.insert(v, n);
        self.low.insert(v, n);
        self.stack.push(v);
        self.on_stack.insert(v);
    }

    fn lower(&mut self, v: usize, to: usize) {
        if let Some(low) = self.low.get_mut(&v) {
            *low = (*low).min(to);
        }
    }
}
