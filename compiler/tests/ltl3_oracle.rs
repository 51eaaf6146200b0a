//! The monitors against independent oracles on random small formulas: LTL3
//! verdicts by brute force over lasso continuations of the prefix, end verdicts by a
//! direct LTLf evaluator, satisfiability by brute force over lassos.

use crate::ltl3_support::*;

use hindsight_compiler::ltl3::{is_satisfiable, Automaton, Combination, Formula, Limits, Monitor};
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

proptest! {
    // A fixed seed: the single automaton over six atoms that this test
    // compares with can take minutes in a debug build for a rare formula, so
    // a random seed made the test's time vary from 10 s to over 25 minutes.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5EED),
        ..ProptestConfig::default()
    })]

    /// A formula of three sub-formulas over the disjoint atom pairs {0,1},
    /// {2,3}, {4,5}, joined by random connectives, is split into independent
    /// automata; at every prefix of random words the combined verdict equals
    /// the single automaton's, and the combined end verdict the LTLf oracle's.
    #[test]
    fn split_monitors_match_the_single_automaton(
        (f, parts) in (
            formula_strategy(ATOMS, 3, 2),
            formula_strategy(ATOMS, 3, 2),
            formula_strategy(ATOMS, 3, 2),
            0..6u8,
        ).prop_map(|(a, b, c, shape)| {
            let shift = |f: Formula, by: u32| f.map_atoms(&mut |x| x + by);
            let (b, c) = (shift(b, 2), shift(c, 4));
            let f = match shape {
                0 => and(a, and(b, c)),
                1 => or(a, or(b, c)),
                2 => implies(and(a, b), c),
                3 => not(or(and(a, b), c)),
                4 => and(or(a, b), not(c)),
                _ => or(not(a), and(b, c)),
            };
            (f, shape)
        }),
        words in prop::collection::vec(prop::collection::vec(0..64u32, 1..=5), 4),
    ) {
        let single = build(&f);
        let split = Monitor::build(&f, &Limits::default()).expect("small formulas build");
        prop_assert_eq!(split.verdict(&split.initial()), single.states[single.initial].verdict);
        for w in &words {
            let mut states = split.initial();
            let mut state = single.initial;
            for (i, &letter) in w.iter().enumerate() {
                split.step(&mut states, u64::from(letter));
                state = single.step(state, letter);
                prop_assert_eq!(split.verdict(&states), single.states[state].verdict, "{} on {:?}", f, &w[..=i]);
                let expected = Verdict::from(holds_finite(&f, &w[..=i], 0));
                prop_assert_eq!(split.end_verdict(&states), expected, "{} on {:?} (shape {})", f, &w[..=i], parts);
            }
        }
    }
}

#[test]
fn independent_conjuncts_are_separate_automata() {
    // G F a0 && ... && G F a11: twelve 3-state automata, combined by `&&`.
    let f = all((0..12).map(|i| always(eventually(atom(i)))).collect());
    let m = Monitor::build(&f, &Limits::default()).expect("builds");
    assert_eq!(m.parts.len(), 12);
    assert!(m
        .parts
        .iter()
        .all(|p| p.automaton.states.len() == 3 && p.atoms.len() == 1));
    assert!(matches!(&m.combination, Combination::And(cs) if cs.len() == 12));
    // Sharing an atom joins two conjuncts into one part.
    let f = and(
        and(always(atom(0)), eventually(atom(1))),
        always(or(atom(1), atom(2))),
    );
    let m = Monitor::build(&f, &Limits::default()).expect("builds");
    assert_eq!(m.parts.len(), 2);
    assert_eq!(m.parts[1].atoms, vec![1, 2]);
    // `<->` is not split; a single part is the whole formula.
    let f = iff(always(atom(0)), eventually(atom(1)));
    assert_eq!(
        Monitor::build(&f, &Limits::default())
            .expect("builds")
            .parts
            .len(),
        1
    );
}
