//! The minimized monitor automaton.

use super::budget::{Budget, OutOfBudget};
use super::explore::{Explored, Solver};
use super::formula::Formula;
use super::minimize::minimize;
use super::nnf::Arena;
use super::residual::residual_formula;
use super::Ltl3Error;
use crate::Verdict;

/// Most atoms a monitored formula may use (letters are `0..2^n_atoms`).
pub const MAX_ATOMS: u32 = 12;

/// Limits of the construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most residuals explored before minimization.
    pub max_states: usize,
    /// Most entries (states × letters) of a minimized automaton's transition table.
    pub max_table: usize,
    /// Work units one construction may spend (see [`Budget`]); callers that
    /// build several automata share one budget through [`Automaton::build_spending`].
    /// A unit is calibrated to 10–30 ns of work in a release build (on
    /// formulas exercising each charged step), so the default (70 million)
    /// bounds a whole spec's automata to about 2 s.
    pub max_work: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 10_000,
            max_table: 1 << 20,
            max_work: 70_000_000,
        }
    }
}

/// A budget of [`Limits::default`]'s `max_work` units.
impl Default for Budget {
    fn default() -> Self {
        Budget::new(Limits::default().max_work)
    }
}

/// One state of the monitor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// LTL3 verdict of the prefix read so far: `True` iff every infinite continuation
    /// satisfies the formula, `False` iff none does.
    pub verdict: Verdict,
    /// Finite-trace verdict if the trace ends here (language.md section 4, "End of
    /// trace"); `Unknown` for the initial state (the empty trace).
    pub end_verdict: Verdict,
    /// What the rest of the trace must satisfy (one representative of the class).
    pub residual: Formula,
}

/// A deterministic, minimal LTL3 monitor. A letter is a valuation of the atoms: bit
/// `i` is atom `i`. Decided states (`True`/`False`) only reach states with the same
/// verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// The states; `states[initial]` is the state before any letter.
    pub states: Vec<State>,
    /// Index of the initial state (always 0).
    pub initial: usize,
    /// Number of atoms: letters are `0..1 << n_atoms`.
    pub n_atoms: u32,
    /// `transitions[state][letter]`: the successor state.
    pub transitions: Vec<Vec<usize>>,
}

impl Automaton {
    /// Builds the minimal monitor of `formula`; atoms are `0..=max atom`.
    pub fn build(formula: &Formula, limits: &Limits) -> Result<Automaton, Ltl3Error> {
        Automaton::build_spending(formula, limits, &mut Budget::new(limits.max_work))
    }

    /// [`Automaton::build`], spending `budget` instead of a fresh one of
    /// `limits.max_work` units.
    pub fn build_spending(
        formula: &Formula,
        limits: &Limits,
        budget: &mut Budget,
    ) -> Result<Automaton, Ltl3Error> {
        let n_atoms = formula.max_atom().map_or(0, |a| a.saturating_add(1));
        if n_atoms > MAX_ATOMS {
            return Err(Ltl3Error::TooManyAtoms {
                atoms: n_atoms,
                max: MAX_ATOMS,
            });
        }
        let (arena, root) = Arena::from_formula(formula)?;
        let mut solver = Solver::new(arena, budget);
        let explored = solver.explore(root, limits.max_states)?;
        let labels: Vec<(Verdict, Verdict)> = explored
            .verdicts
            .iter()
            .copied()
            .zip(explored.end_verdicts.iter().copied())
            .collect();
        let out_of_budget = |_| Ltl3Error::TooMuchWork {
            limit: limits.max_work,
            culprit: None,
        };
        let class =
            minimize(&explored.transitions, &labels, solver.budget).map_err(out_of_budget)?;
        let states = class.iter().max().map_or(0, |m| m + 1);
        let entries = states.saturating_mul(1usize << n_atoms);
        if entries > limits.max_table {
            return Err(Ltl3Error::TableTooLarge {
                states,
                atoms: n_atoms,
                limit: limits.max_table,
            });
        }
        solver.budget.spend(entries).map_err(out_of_budget)?;
        assemble(
            formula,
            &mut solver.arena,
            &explored,
            &labels,
            &class,
            n_atoms,
            solver.budget,
        )
        .map_err(out_of_budget)
    }

    /// The state reached from `state` (a valid state index) on `letter`; bits at
    /// and above `n_atoms` are ignored.
    pub fn step(&self, state: usize, letter: u32) -> usize {
        let mask = 1u32.checked_shl(self.n_atoms).map_or(u32::MAX, |b| b - 1);
        self.transitions[state][(letter & mask) as usize]
    }

    /// The state reached from the initial state on `letters`.
    pub fn run(&self, letters: &[u32]) -> usize {
        letters
            .iter()
            .fold(self.initial, |state, &letter| self.step(state, letter))
    }
}

/// Work units per node of a rendered residual.
const RENDER_UNITS: usize = 4;

/// The minimized automaton: one state per class of explored residuals, letters
/// widened from the formula's dense atoms to all `n_atoms` atoms.
fn assemble(
    formula: &Formula,
    arena: &mut Arena,
    explored: &Explored,
    labels: &[(Verdict, Verdict)],
    class: &[usize],
    n_atoms: u32,
    budget: &mut Budget,
) -> Result<Automaton, OutOfBudget> {
    let count = class.iter().max().map_or(0, |m| m + 1);
    // Dense letter of each user letter: bit d set iff user atom `user_atom(d)` is.
    let dense_letter = |letter: usize| {
        (0..arena.atom_count()).fold(0usize, |acc, d| {
            let user = arena.user_atom(d as u32);
            acc | (((letter >> user) & 1) << d)
        })
    };
    let dense: Vec<usize> = (0..1usize << n_atoms).map(dense_letter).collect();
    let mut states = Vec::with_capacity(count);
    let mut transitions = Vec::with_capacity(count);
    for (s, &c) in class.iter().enumerate() {
        if c < states.len() {
            continue;
        }
        // Classes are numbered by their lowest (earliest explored) state.
        let residual = match s {
            0 => formula.clone(),
            _ => residual_formula(arena, &explored.residuals[s]),
        };
        // Rendering a residual costs some units per node of the result (shared
        // sub-formulas written out; windows recognised by walking their chains).
        budget.spend(RENDER_UNITS.saturating_mul(residual.size()))?;
        states.push(State {
            verdict: labels[s].0,
            end_verdict: labels[s].1,
            residual,
        });
        let mut by_dense = vec![0usize; 1 << arena.atom_count()];
        for (letters, t) in &explored.transitions[s] {
            for d in letters.iter() {
                by_dense[d] = class[*t];
            }
        }
        transitions.push(dense.iter().map(|&d| by_dense[d]).collect());
    }
    Ok(Automaton {
        states,
        initial: 0,
        n_atoms,
        transitions,
    })
}
