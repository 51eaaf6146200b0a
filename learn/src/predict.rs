//! Predictive verdicts: for a future-time property whose verdict is still
//! `?`, how likely it is to end `false`, on the product of the learned MDP
//! with the property's LTL3 automata.
//!
//! The tree decides every atom the automata read (the forced splits of
//! [`crate::tree`]), so each abstract state has one letter per automaton
//! and a step of the MDP moves each automaton deterministically. A product
//! state is an MDP state with the automata's states; it is a target when
//! the combined verdict is `false`, or when it is terminal (the run ended)
//! and the combined end-of-trace verdict is `false`. `P(◇ target)` over
//! every scheduler (min, max) and under the runs' own policy are the
//! chances the property ends violated from there.

use crate::bounds::{reach, Interval, Objective};
use crate::features::Predictable;
use crate::mdp::{Choice, Mdp, INITIAL};
use hindsight_runtime::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The most product states a prediction may have; a larger product is not
/// predicted (the model says so).
pub const MAX_PRODUCT_STATES: usize = 100_000;

/// A product state: an MDP state and the state of each of the property's
/// automata.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ProductState {
    /// The MDP state.
    pub state: usize,
    /// Per automaton of the property, its state.
    pub automata: Vec<u32>,
}

/// The chance a property ends `false`, per product state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The property's name.
    pub property: String,
    /// Its automata, as indices in the table's automata (what the
    /// interpreter's `automaton_states` is indexed by).
    pub automata: Vec<usize>,
    /// The product states reached from the initial one, sorted.
    pub states: Vec<ProductState>,
    /// `Pmin` of ending `false`, per product state.
    pub min: Interval,
    /// `Pmax` of ending `false`, per product state.
    pub max: Interval,
    /// `P` of ending `false` as the runs chose their actions.
    pub observed: Interval,
}

impl Prediction {
    /// The index of the product state (`state`, `automata`), if reached.
    pub fn find(&self, state: usize, automata: &[u32]) -> Option<usize> {
        self.states
            .binary_search_by(|p| (p.state, p.automata.as_slice()).cmp(&(state, automata)))
            .ok()
    }
}

/// Whether the property's combined verdict, given its automata's states
/// (`end`: the end-of-trace verdicts), is `false`.
fn is_false(property: &Predictable, states: &[u32], end: bool) -> bool {
    let verdict = property.combination.verdict(&|global| {
        let local = property.automata.iter().position(|(g, _, _)| *g == global);
        let state = local.and_then(|k| {
            let (_, automaton, _) = property.automata.get(k)?;
            automaton.states.get(*states.get(k)? as usize)
        });
        match (state, end) {
            (Some(s), false) => s.verdict,
            (Some(s), true) => s.end_verdict,
            (None, _) => Verdict::Unknown,
        }
    });
    verdict == Verdict::False
}

/// The prediction of `property` on `mdp`, whose state `s` has the feature
/// values `rows[s]` (any concrete state of its leaf; `None` for the initial
/// and terminal states and unvisited leaves). `None` when the product would
/// pass [`MAX_PRODUCT_STATES`].
pub fn predict(
    mdp: &Mdp,
    rows: &[Option<Vec<f64>>],
    property: &Predictable,
    precision: f64,
    max_iterations: usize,
) -> Option<Prediction> {
    let terminal = mdp.terminal();
    let step = |q: &[u32], s: usize| -> Vec<u32> {
        let row = rows.get(s).and_then(Option::as_ref);
        property
            .automata
            .iter()
            .zip(q)
            .map(|((_, automaton, atoms), &state)| {
                let letter = atoms.iter().enumerate().fold(0u32, |l, (bit, &f)| {
                    let holds = row.and_then(|r| r.get(f)).is_some_and(|&x| x > 0.5);
                    l | (u32::from(holds) << bit)
                });
                automaton.next(state, letter)
            })
            .collect()
    };
    let start = ProductState {
        state: INITIAL,
        automata: vec![0; property.automata.len()],
    };
    let mut index: HashMap<ProductState, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    index.insert(start, 0);
    let mut target = Vec::new();
    let mut choices = Vec::new();
    let mut at = 0;
    while let Some(p) = states.get(at).cloned() {
        let done = if p.state == terminal {
            is_false(property, &p.automata, true)
        } else {
            is_false(property, &p.automata, false)
        };
        target.push(done);
        if !done && p.state != terminal {
            for c in mdp.choices_of(p.state) {
                let mut to: Vec<(usize, u64)> = Vec::new();
                for &(t, n) in &c.to {
                    let next = ProductState {
                        state: t,
                        automata: if t == terminal {
                            p.automata.clone()
                        } else {
                            step(&p.automata, t)
                        },
                    };
                    let k = match index.get(&next) {
                        Some(&k) => k,
                        None => {
                            if states.len() >= MAX_PRODUCT_STATES {
                                return None;
                            }
                            states.push(next.clone());
                            index.insert(next, states.len() - 1);
                            states.len() - 1
                        }
                    };
                    match to.iter_mut().find(|(u, _)| *u == k) {
                        Some((_, m)) => *m += n,
                        None => to.push((k, n)),
                    }
                }
                choices.push(Choice {
                    from: at,
                    action: c.action,
                    count: c.count,
                    to,
                });
            }
        }
        at += 1;
    }
    let product = Mdp {
        states: states.len(),
        actions: mdp.actions,
        choices,
    };
    let chain = product.observed();
    let solve = |m: &Mdp, objective| reach(m, &target, objective, precision, max_iterations);
    let (min, max, observed) = (
        solve(&product, Objective::Min),
        solve(&product, Objective::Max),
        solve(&chain, Objective::Max),
    );
    // Sorted, for lookups by (state, automata).
    let mut order: Vec<usize> = (0..states.len()).collect();
    order.sort_by(|&a, &b| states[a].cmp(&states[b]));
    let permute = |i: &Interval| Interval {
        lo: order.iter().map(|&k| i.lo[k]).collect(),
        hi: order.iter().map(|&k| i.hi[k]).collect(),
    };
    Some(Prediction {
        property: property.name.clone(),
        automata: property.automata.iter().map(|(g, _, _)| *g).collect(),
        min: permute(&min),
        max: permute(&max),
        observed: permute(&observed),
        states: order.iter().map(|&k| states[k].clone()).collect(),
    })
}
