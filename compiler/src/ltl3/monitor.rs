//! The monitor of a whole future-time formula: one minimal automaton per
//! independent part ([`super::split()`]), verdicts combined three-valued.

use super::automaton::{Automaton, Limits};
use super::budget::Budget;
use super::formula::Formula;
use super::split::{split, Combination};
use super::Ltl3Error;
use crate::Verdict;

/// The exact LTL3 monitor of a formula, as independent automata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Monitor {
    /// One automaton per independent part.
    pub parts: Vec<MonitorPart>,
    /// How the parts' verdicts combine into the formula's verdict.
    pub combination: Combination,
}

/// The automaton of one independent part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonitorPart {
    /// Its minimal automaton, over the part's own atoms.
    pub automaton: Automaton,
    /// The formula's atom for each of the part's atoms (bit `i` of the part's
    /// letter is atom `atoms[i]` of the formula).
    pub atoms: Vec<u32>,
}

impl Monitor {
    /// Builds the monitor of `formula` with a fresh budget of `limits.max_work` units.
    pub fn build(formula: &Formula, limits: &Limits) -> Result<Monitor, Ltl3Error> {
        Monitor::build_spending(formula, limits, &mut Budget::new(limits.max_work))
    }

    /// Builds the monitor of `formula`, spending `budget`; each part is held to
    /// `limits` on its own. Errors name sub-formulas with the formula's atoms.
    pub fn build_spending(
        formula: &Formula,
        limits: &Limits,
        budget: &mut Budget,
    ) -> Result<Monitor, Ltl3Error> {
        let (parts, combination) = split(formula);
        let parts = parts
            .into_iter()
            .map(|part| {
                let automaton =
                    Automaton::build_spending(&part.formula, limits, budget).map_err(|e| {
                        e.map_atoms(&|a| part.atoms.get(a as usize).copied().unwrap_or(a))
                    })?;
                Ok(MonitorPart {
                    automaton,
                    atoms: part.atoms,
                })
            })
            .collect::<Result<_, Ltl3Error>>()?;
        Ok(Monitor { parts, combination })
    }

    /// The initial state of every part.
    pub fn initial(&self) -> Vec<usize> {
        self.parts.iter().map(|p| p.automaton.initial).collect()
    }

    /// Every part's state after `letter` (bit `i` = the formula's atom `i`).
    pub fn step(&self, states: &mut [usize], letter: u64) {
        for (state, part) in states.iter_mut().zip(&self.parts) {
            let own = part
                .atoms
                .iter()
                .enumerate()
                .fold(0u32, |l, (i, &a)| l | (((letter >> a) & 1) as u32) << i);
            *state = part.automaton.step(*state, own);
        }
    }

    /// The LTL3 verdict in `states`.
    pub fn verdict(&self, states: &[usize]) -> Verdict {
        self.combined(states, |s| s.verdict)
    }

    /// The finite-trace verdict in `states` (the trace ends here).
    pub fn end_verdict(&self, states: &[usize]) -> Verdict {
        self.combined(states, |s| s.end_verdict)
    }

    fn combined(&self, states: &[usize], of: fn(&super::State) -> Verdict) -> Verdict {
        self.combination.verdict(&|i| {
            let state = states.get(i).copied().unwrap_or(0);
            self.parts
                .get(i)
                .and_then(|p| p.automaton.states.get(state))
                .map_or(Verdict::Unknown, of)
        })
    }
}
