//! Exact LTL3 monitors for future-time LTL, built at compile time.
//!
//! [`Automaton::build`] turns a [`Formula`] over abstract atoms into a minimal
//! deterministic automaton over letters (valuations of the atoms) whose states carry
//! the exact LTL3 verdict, the finite-trace verdict and a residual obligation.
//!
//! # Algorithm
//!
//! 1. **NNF** ([`nnf`]): the formula is put in negation normal form over hash-consed
//!    nodes (`And`/`Or` flattened, sorted, deduplicated, constants and complementary
//!    pairs absorbed). `F`, `G`, `W` become `U`/`R`; bounded operators are unrolled
//!    into chains of next-steps. A strong next (`X`) and a weak next (`Xw`, true at
//!    the last step) keep negation exact for finite traces: `F[a,b]` unrolls with `X`,
//!    `G[a,b]` with `Xw`.
//! 2. **Expansion** ([`expand`]): a set of formulas that must hold now is rewritten
//!    into branches "cube over the atoms ∧ obligations on the next step"
//!    (`φ U ψ = ψ ∨ (φ ∧ X(φ U ψ))`, `φ R ψ = ψ ∧ (φ ∨ Xw(φ R ψ))`), each branch
//!    recording the untils it postpones.
//! 3. **Residuals** ([`explore`]): a monitor state is a positive Boolean combination of
//!    obligations in its unique minimal DNF; its successor on a letter is the
//!    disjunction of the next-obligations of the branches the letter satisfies. The
//!    obligations are drawn from a finite closure, so exploration terminates. Letters
//!    range over the atoms the formula uses only; each obligation's expansion splits
//!    them once into classes (letters admitting the same branches), and letters in
//!    the same class for every obligation share one successor computation.
//! 4. **Verdicts** ([`tableau`]): a residual is `False` iff unsatisfiable and `True`
//!    iff its negation is unsatisfiable, decided exactly on a lazily built
//!    transition-based generalized Büchi tableau (nodes: sets of formulas, edges:
//!    expansion branches, one acceptance set per until: "not postponed"); a node is
//!    nonempty iff it reaches a nontrivial SCC meeting every acceptance set (iterative
//!    Tarjan, memoized across queries). The end verdict of a residual is true iff some
//!    DNF term has only weak obligations (LTLf with strong `X`).
//! 5. **Minimization** ([`minimize`]): Moore refinement on (verdict, end verdict);
//!    each class keeps the residual of its earliest explored state as explanation.
//!    Verdicts are semantic, so decided states only reach states with the same verdict.

mod automaton;
mod budget;
mod expand;
mod explore;
mod formula;
mod implies;
mod letters;
mod minimize;
mod monitor;
mod nnf;
mod residual;
mod split;
mod tableau;

pub use automaton::{Automaton, Limits, State, MAX_ATOMS};
pub use budget::Budget;
pub use formula::Formula;
pub use monitor::{Monitor, MonitorPart};
pub use split::{split, Combination, Part};

use explore::Solver;
use nnf::Arena;
use std::fmt;

/// Most distinct atoms a satisfiability query may use.
pub const MAX_QUERY_ATOMS: usize = 64;

/// Why an automaton or a satisfiability answer could not be produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ltl3Error {
    /// The formula uses more atoms than the construction supports.
    TooManyAtoms {
        /// Atoms needed (largest atom index + 1, or distinct atoms for queries).
        atoms: u32,
        /// The supported maximum.
        max: u32,
    },
    /// A bounded operator has `lo > hi` or a bound above `max`.
    InvalidBounds {
        /// The offending bounded sub-formula.
        formula: Formula,
        /// The largest bound supported.
        max: u32,
    },
    /// More than `limit` residuals were reachable.
    TooManyStates {
        /// The state limit.
        limit: usize,
        /// The temporal sub-formula contributing the most distinct obligations.
        culprit: Option<Formula>,
    },
    /// The minimal automaton's transition table would exceed `limit` entries.
    TableTooLarge {
        /// States of the minimal automaton.
        states: usize,
        /// Atoms it reads (each state has `2^atoms` transitions).
        atoms: u32,
        /// The most entries allowed.
        limit: usize,
    },
    /// The construction ran out of its work budget.
    TooMuchWork {
        /// The budget, in work units.
        limit: u64,
        /// The temporal sub-formula contributing the most distinct obligations
        /// when the budget ran out, if known.
        culprit: Option<Formula>,
    },
}

impl fmt::Display for Ltl3Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ltl3Error::TooManyAtoms { atoms, max } => {
                write!(
                    f,
                    "the formula uses {atoms} atoms, at most {max} are supported"
                )
            }
            Ltl3Error::InvalidBounds { formula, max } => {
                write!(f, "invalid bounds in `{formula}`: need lo <= hi <= {max}")
            }
            Ltl3Error::TooManyStates {
                limit,
                culprit: Some(culprit),
            } => write!(
                f,
                "the monitor needs more than {limit} states, mostly because of `{culprit}`"
            ),
            Ltl3Error::TooManyStates {
                limit,
                culprit: None,
            } => write!(f, "the monitor needs more than {limit} states"),
            Ltl3Error::TableTooLarge {
                states,
                atoms,
                limit,
            } => write!(
                f,
                "the monitor's transition table needs {states} states × 2^{atoms} letters, more than {limit} entries"
            ),
            Ltl3Error::TooMuchWork {
                limit,
                culprit: Some(culprit),
            } => write!(
                f,
                "building the monitor takes more than {limit} work units, mostly because of `{culprit}`"
            ),
            Ltl3Error::TooMuchWork {
                limit,
                culprit: None,
            } => write!(f, "building the monitor takes more than {limit} work units"),
        }
    }
}

impl std::error::Error for Ltl3Error {}

impl Ltl3Error {
    /// The same error with the atoms of the formulas it names renamed by `map`.
    pub fn map_atoms(self, map: &dyn Fn(u32) -> u32) -> Ltl3Error {
        let rename = |f: Formula| f.map_atoms(&mut |a| map(a));
        match self {
            Ltl3Error::InvalidBounds { formula, max } => Ltl3Error::InvalidBounds {
                formula: rename(formula),
                max,
            },
            Ltl3Error::TooManyStates { limit, culprit } => Ltl3Error::TooManyStates {
                limit,
                culprit: culprit.map(rename),
            },
            Ltl3Error::TooMuchWork { limit, culprit } => Ltl3Error::TooMuchWork {
                limit,
                culprit: culprit.map(rename),
            },
            other => other,
        }
    }
}

/// Whether some infinite word satisfies `formula` (within the default work budget).
pub fn is_satisfiable(formula: &Formula) -> Result<bool, Ltl3Error> {
    let (arena, root) = query_arena(formula)?;
    let mut budget = Budget::new(Limits::default().max_work);
    Solver::new(arena, &mut budget)
        .satisfiable(root)
        .map_err(|_| query_out_of_budget())
}

/// Whether every infinite word satisfies `formula` (within the default work budget).
pub fn is_valid(formula: &Formula) -> Result<bool, Ltl3Error> {
    let (mut arena, root) = query_arena(formula)?;
    let negation = arena.negate(root);
    let mut budget = Budget::new(Limits::default().max_work);
    Solver::new(arena, &mut budget)
        .satisfiable(negation)
        .map(|sat| !sat)
        .map_err(|_| query_out_of_budget())
}

/// Whether a formula holds on every word, on none, or on some and not others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// Every infinite word satisfies it.
    Valid,
    /// No infinite word satisfies it.
    Unsatisfiable,
    /// Some words satisfy it and some do not.
    Contingent,
}

/// The [`Truth`] of `formula`, spending `budget` (shared with the caller's
/// constructions, unlike [`is_satisfiable`]); `Ok(None)` when it reads more
/// than [`MAX_QUERY_ATOMS`] atoms.
pub fn truth_spending(formula: &Formula, budget: &mut Budget) -> Result<Option<Truth>, Ltl3Error> {
    let (mut arena, root) = match query_arena(formula) {
        Ok(query) => query,
        Err(Ltl3Error::TooManyAtoms { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let limit = budget.limit();
    let out_of_budget = |_| Ltl3Error::TooMuchWork {
        limit,
        culprit: None,
    };
    let negation = arena.negate(root);
    let mut solver = Solver::new(arena, budget);
    if !solver.satisfiable(root).map_err(out_of_budget)? {
        return Ok(Some(Truth::Unsatisfiable));
    }
    if !solver.satisfiable(negation).map_err(out_of_budget)? {
        return Ok(Some(Truth::Valid));
    }
    Ok(Some(Truth::Contingent))
}

fn query_out_of_budget() -> Ltl3Error {
    Ltl3Error::TooMuchWork {
        limit: Limits::default().max_work,
        culprit: None,
    }
}

fn query_arena(formula: &Formula) -> Result<(Arena, nnf::NodeId), Ltl3Error> {
    let (arena, root) = Arena::from_formula(formula)?;
    if arena.atom_count() > MAX_QUERY_ATOMS {
        return Err(Ltl3Error::TooManyAtoms {
            atoms: arena.atom_count() as u32,
            max: MAX_QUERY_ATOMS as u32,
        });
    }
    Ok((arena, root))
}
