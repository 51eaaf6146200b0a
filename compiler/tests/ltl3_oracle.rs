//! The monitors against independent oracles on random small formulas: LTL3
//! verdicts by brute force over lasso continuations of the prefix, end verdicts by a
//! direct LTLf evaluator, satisfiability by brute force over lassos.

mod ltl3_support;
use ltl3_support::*;

use hindsight_compiler::ltl3::{is_satisfiable, Automaton, Formula, Limits};
use hindsight_compiler::Verdict;
use proptest::prelude::*;

const ATOMS: u32 = 2;
/// The lasso oracle is complete only when every satisfying (or violating) word
/// has a lasso with a stem and a loop this short. Windows of width 2 break that
/// (`F (p <-> F[2,2] p)` is violated only by words of period 4, like (1100)^ω),
/// so the lasso-based tests use windows up to 1 step; the finite-trace test,
/// which is exhaustive, uses windows up to 3.
const MAX_STEM: usize = 3;
const LASSO_BOUND: u32 = 1;
const MAX_LOOP: usize = 3;

fn build(f: &Formula) -> Automaton {
    Automaton::build(f, &Limits::default()).expect("small formulas build")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn verdicts_match_brute_force_over_lassos(
        f in formula_strategy(ATOMS, 3, LASSO_BOUND),
        prefix in prop::collection::vec(0..1u32 << ATOMS, 0..=4),
    ) {
        let a = build(&f);
        let mut state = a.initial;
        for len in 0..=prefix.len() {
            if len > 0 {
                state = a.step(state, prefix[len - 1]);
            }
            let expected = brute_force_verdict(&f, &prefix[..len], ATOMS, MAX_STEM, MAX_LOOP);
            prop_assert_eq!(a.states[state].verdict, expected, "{} after {:?}", f, &prefix[..len]);
        }
    }

    #[test]
    fn end_verdicts_match_finite_trace_semantics(f in formula_strategy(ATOMS, 4, 3)) {
        let a = build(&f);
        prop_assert_eq!(a.states[a.initial].end_verdict, Verdict::Unknown);
        for len in 1..=4 {
            for w in words(ATOMS, len) {
                let expected = Verdict::from(holds_finite(&f, &w, 0));
                prop_assert_eq!(a.states[a.run(&w)].end_verdict, expected, "{} on {:?}", f, w);
            }
        }
    }

    #[test]
    fn satisfiability_matches_brute_force(f in formula_strategy(ATOMS, 3, LASSO_BOUND)) {
        let satisfiable = brute_force_verdict(&f, &[], ATOMS, MAX_STEM, MAX_LOOP) != Verdict::False;
        prop_assert_eq!(is_satisfiable(&f), Ok(satisfiable), "{}", f);
    }
}
