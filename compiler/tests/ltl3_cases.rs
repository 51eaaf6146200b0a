//! Hand-worked LTL3 monitors: the anticipatory examples of language.md, bounded
//! windows, automaton sizes, residual explanations, analyses and errors.

use crate::ltl3_support::*;

use hindsight_compiler::ltl3::{is_satisfiable, is_valid, Automaton, Formula, Limits, Ltl3Error};
use hindsight_compiler::Verdict::{self, False, True, Unknown};

fn build(f: &Formula) -> Automaton {
    Automaton::build(f, &Limits::default()).expect("the construction succeeds")
}

/// Verdict and end verdict after reading `letters`.
fn after(a: &Automaton, letters: &[u32]) -> (Verdict, Verdict) {
    let s = &a.states[a.run(letters)];
    (s.verdict, s.end_verdict)
}

const P: u32 = 1;
const NONE: u32 = 0;

#[test]
fn contradictory_eventually_is_false_before_any_letter() {
    let a = build(&and(eventually(atom(0)), always(not(atom(0)))));
    assert_eq!(after(&a, &[]), (False, Unknown));
    assert_eq!(after(&a, &[P]), (False, False));
    assert_eq!(after(&a, &[NONE]), (False, False));
    assert_eq!(a.states.len(), 2);
}

#[test]
fn next_of_a_tautology_is_true_before_any_letter() {
    let a = build(&next(or(atom(0), not(atom(0)))));
    assert_eq!(after(&a, &[]), (True, Unknown));
    // The trace may not end before the next step: strong X.
    assert_eq!(after(&a, &[NONE]), (True, False));
    assert_eq!(after(&a, &[NONE, P]), (True, True));
    assert_eq!(a.states.len(), 3);
}

#[test]
fn infinitely_often_and_finally_never_is_false_before_any_letter() {
    let p = atom(0);
    let a = build(&and(
        always(eventually(p.clone())),
        eventually(always(not(p))),
    ));
    assert_eq!(after(&a, &[]).0, False);
    assert_eq!(a.states.len(), 2);
}

#[test]
fn response_is_never_decided_and_ends_by_pending_requests() {
    let (request, grant) = (atom(0), atom(1));
    let a = build(&always(implies(request, eventually(grant))));
    let (req, grt, both) = (1, 2, 3);
    for w in words(2, 4) {
        assert_eq!(a.states[a.run(&w)].verdict, Unknown, "after {w:?}");
    }
    assert_eq!(after(&a, &[req]), (Unknown, False));
    assert_eq!(after(&a, &[req, NONE]), (Unknown, False));
    assert_eq!(after(&a, &[req, grt]), (Unknown, True));
    assert_eq!(after(&a, &[both]), (Unknown, True));
    assert_eq!(after(&a, &[NONE]), (Unknown, True));
    // Initial (empty trace), no request pending, request pending.
    assert_eq!(a.states.len(), 3);
    let names = |i: u32| ["request", "grant"][i as usize].to_string();
    let pending = &a.states[a.run(&[req])].residual;
    assert_eq!(pending.render(&names), "F grant && G (request -> F grant)");
    let idle = &a.states[a.run(&[NONE])].residual;
    assert_eq!(idle.render(&names), "G (request -> F grant)");
}

#[test]
fn eventually_within_two_to_three_steps() {
    let a = build(&eventually_in(2, 3, atom(0)));
    assert_eq!(after(&a, &[]), (Unknown, Unknown));
    assert_eq!(after(&a, &[P]), (Unknown, False));
    assert_eq!(after(&a, &[P, P]), (Unknown, False));
    assert_eq!(after(&a, &[NONE, NONE, P]), (True, True));
    assert_eq!(after(&a, &[NONE, NONE, NONE]), (Unknown, False));
    assert_eq!(after(&a, &[NONE, NONE, NONE, P]), (True, True));
    assert_eq!(after(&a, &[P, P, NONE, NONE]), (False, False));
    // Initial, after 1, 2, 3 letters without witness, true, false.
    assert_eq!(a.states.len(), 6);
    assert_eq!(a.states[a.run(&[NONE])].residual.to_string(), "F[1,2] p0");
    assert_eq!(a.states[a.run(&[NONE; 3])].residual.to_string(), "p0");
}

#[test]
fn always_within_the_next_three_steps() {
    let a = build(&always_in(0, 2, atom(0)));
    assert_eq!(after(&a, &[P]), (Unknown, True));
    assert_eq!(after(&a, &[P, P]), (Unknown, True));
    assert_eq!(after(&a, &[P, P, P]), (True, True));
    assert_eq!(after(&a, &[P, NONE]), (False, False));
    assert_eq!(after(&a, &[P, P, P, NONE]), (True, True));
    assert_eq!(a.states.len(), 5);
    assert_eq!(a.states[a.run(&[P])].residual.to_string(), "G[0,1] p0");
}

#[test]
fn bounded_until() {
    // p U[1,3] q: q at some step 1..=3, p at every step before it.
    let a = build(&until_in(1, 3, atom(0), atom(1)));
    let (p, q, pq) = (1, 2, 3);
    assert_eq!(after(&a, &[]).0, Unknown);
    assert_eq!(after(&a, &[NONE]), (False, False));
    assert_eq!(after(&a, &[q]), (False, False));
    assert_eq!(after(&a, &[p]), (Unknown, False));
    assert_eq!(after(&a, &[pq]), (Unknown, False));
    assert_eq!(after(&a, &[p, q]), (True, True));
    assert_eq!(after(&a, &[p, NONE]), (False, False));
    assert_eq!(after(&a, &[p, p, p]), (Unknown, False));
    assert_eq!(after(&a, &[p, p, p, q]), (True, True));
    assert_eq!(after(&a, &[p, p, p, p]), (False, False));
}

#[test]
fn small_automata_have_their_minimal_size() {
    let p = atom(0);
    // Initial, still fine (end true), violated.
    assert_eq!(build(&always(p.clone())).states.len(), 3);
    // Initial, waiting (end false), satisfied.
    assert_eq!(build(&eventually(p.clone())).states.len(), 3);
    // Initial, last letter had p (end true), last letter lacked p (end false).
    let a = build(&always(eventually(p.clone())));
    assert_eq!(a.states.len(), 3);
    // Constants: one state before the trace and one after.
    assert_eq!(build(&Formula::True).states.len(), 2);
}

#[test]
fn decided_states_are_sinks() {
    let f = and(
        until(atom(0), atom(1)),
        eventually_in(1, 2, and(atom(0), next(atom(1)))),
    );
    let a = build(&f);
    for (s, state) in a.states.iter().enumerate() {
        if state.verdict != Unknown {
            for &t in &a.transitions[s] {
                assert_eq!(a.states[t].verdict, state.verdict);
            }
        }
    }
}

#[test]
fn satisfiability_and_validity() {
    let (p, q) = (atom(0), atom(1));
    let sat = |f: &Formula| is_satisfiable(f).expect("query succeeds");
    let valid = |f: &Formula| is_valid(f).expect("query succeeds");
    assert!(sat(&always(eventually(p.clone()))));
    assert!(!sat(&and(
        always(eventually(p.clone())),
        eventually(always(not(p.clone())))
    )));
    assert!(!sat(&and(
        until(p.clone(), q.clone()),
        always(not(q.clone()))
    )));
    assert!(valid(&implies(always(p.clone()), eventually(p.clone()))));
    assert!(valid(&next(Formula::True)));
    assert!(valid(&iff(
        not(until(p.clone(), q.clone())),
        release(not(p.clone()), not(q.clone()))
    )));
    assert!(!valid(&implies(eventually(p.clone()), always(p.clone()))));
    assert!(valid(&implies(
        always_in(0, 3, p.clone()),
        eventually_in(2, 3, p.clone())
    )));
    assert!(!valid(&implies(
        eventually_in(2, 3, p.clone()),
        eventually_in(0, 2, p)
    )));
}

#[test]
fn errors_name_the_problem() {
    let too_wide = eventually(atom(12));
    assert_eq!(
        Automaton::build(&too_wide, &Limits::default()),
        Err(Ltl3Error::TooManyAtoms { atoms: 13, max: 12 })
    );
    let inverted = eventually_in(3, 2, atom(0));
    assert!(matches!(
        Automaton::build(&inverted, &Limits::default()),
        Err(Ltl3Error::InvalidBounds { formula, .. }) if formula == inverted
    ));
    // The pending deadlines of `G (p -> F[0,40] q)` are one obligation each
    // (the earliest implies the others): 43 residuals, more than 20.
    let window = eventually_in(0, 40, atom(1));
    let f = always(implies(atom(0), window.clone()));
    let limits = Limits {
        max_states: 20,
        ..Limits::default()
    };
    assert_eq!(
        Automaton::build(&f, &limits),
        Err(Ltl3Error::TooManyStates {
            limit: 20,
            culprit: Some(window)
        })
    );
}

#[test]
fn unused_atoms_do_not_matter() {
    // Atom 1 only widens the letters.
    let f = and(eventually(atom(0)), or(atom(1), not(atom(1))));
    let a = build(&f);
    assert_eq!(a.n_atoms, 2);
    assert_eq!(a.transitions[0].len(), 4);
    assert_eq!(after(&a, &[2]), after(&a, &[0]));
    assert_eq!(after(&a, &[3]), (True, True));
}
