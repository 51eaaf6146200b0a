//! Automaton sizes of the TRAC specification patterns and a ten-rule IPC-Trucks set,
//! checked against hand-derived minimal automata; construction times are printed
//! (`cargo test --release -p hindsight-compiler --test all ltl3_sizes -- --nocapture`).

use crate::ltl3_support::*;

use hindsight_compiler::ltl3::{Automaton, Formula, Limits};
use hindsight_compiler::Verdict;
use std::time::Instant;

fn measure(name: &str, f: &Formula) -> Automaton {
    let start = Instant::now();
    let a = Automaton::build(f, &Limits::default()).expect("the construction succeeds");
    println!(
        "{name:<28} {:>5} states  {:>9.3} ms   {f}",
        a.states.len(),
        start.elapsed().as_secs_f64() * 1e3
    );
    a
}

#[test]
fn trac_patterns() {
    let (p, q, r) = (atom(0), atom(1), atom(2));
    // Each count: the initial state (end verdict unknown) plus the hand-derived
    // states after at least one letter.
    let cases = [
        // fine, violated
        ("universality G p", always(p.clone()), 3),
        ("absence G !p", always(not(p.clone())), 3),
        // nothing pending, a request pending
        (
            "response",
            always(implies(p.clone(), eventually(q.clone()))),
            3,
        ),
        // idle, q seen (no p yet), p after q (an r now violates), violated
        (
            "absence between",
            always(implies(
                all(vec![q.clone(), not(r.clone()), eventually(r.clone())]),
                until(not(p.clone()), r.clone()),
            )),
            5,
        ),
        // idle, waiting for r (q forbidden), violated
        (
            "constrained response",
            always(implies(p.clone(), until(not(q.clone()), r.clone()))),
            4,
        ),
        // before a, after a, after a then b1/b2, satisfied
        (
            "tree (b=2, d=1)",
            eventually(and(
                atom(0),
                next(eventually(or(
                    and(atom(1), next(eventually(atom(3)))),
                    and(atom(2), next(eventually(atom(3)))),
                ))),
            )),
            5,
        ),
    ];
    for (name, f, states) in cases {
        assert_eq!(measure(name, &f).states.len(), states, "{name}");
    }
}

/// Ten IPC-Trucks-style rules over twelve atoms: deliveries d1..d4, loads l1..l3,
/// unload, area a1, refuel, drive, look.
fn trucks_rules() -> Vec<(&'static str, Formula)> {
    let d = |i: u32| atom(i - 1);
    let l = |i: u32| atom(3 + i);
    let (unload, in_a1, refuel, drive, look) = (atom(7), atom(8), atom(9), atom(10), atom(11));
    let at_most_once = |x: Formula| always(implies(x.clone(), next(always(not(x)))));
    vec![
        ("package2 before package1", weak_until(not(d(1)), d(2))),
        ("package3 before package2", weak_until(not(d(2)), d(3))),
        ("package4 before package3", weak_until(not(d(3)), d(4))),
        ("package1 loaded once", at_most_once(l(1))),
        ("package2 loaded once", at_most_once(l(2))),
        ("package1 delivered", eventually(d(1))),
        ("load only in a1", always(implies(l(3), in_a1.clone()))),
        ("deliver after unload", always(implies(d(4), unload))),
        (
            "refuel within 3 drives",
            always(implies(drive, eventually_in(0, 3, refuel))),
        ),
        (
            "never look twice",
            always(implies(look.clone(), next(not(look)))),
        ),
    ]
}

#[test]
fn trucks_rule_set() {
    let rules = trucks_rules();
    let start = Instant::now();
    let sizes: Vec<usize> = rules
        .iter()
        .map(|(name, f)| measure(name, f).states.len())
        .collect();
    println!(
        "10 rules, one automaton each: {:.3} ms in total",
        start.elapsed().as_secs_f64() * 1e3
    );
    // Hand-derived, each with the initial state: W rules: waiting, satisfied,
    // violated; at most once: not loaded, loaded at the last step (end false: the
    // strong X has no next step), loaded earlier, violated; F: waiting, satisfied;
    // invariants: fine, violated; refuel: idle, refuel due within 3, 2, 1 steps (end
    // false), violated; look: idle, looked at the last step (end false), violated.
    assert_eq!(sizes, vec![4, 4, 4, 5, 5, 3, 3, 3, 6, 4]);
}

/// The ten rules as one formula (about 2 s in a debug build, 0.4 s in a
/// release build) build within the default limits, and the one automaton
/// agrees with the ten separate ones wherever they decide: all ten true makes
/// the conjunction true, any one false makes it false (the conjunction may
/// decide earlier, where the rules interact, but never the other way).
#[test]
fn trucks_rules_as_one_formula() {
    let rules = trucks_rules();
    let parts: Vec<Automaton> = rules.iter().map(|(name, f)| measure(name, f)).collect();
    let conjunction = all(rules.into_iter().map(|(_, f)| f).collect());
    let whole = measure("all 10 rules as one formula", &conjunction);
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as u32
    };
    for _ in 0..300 {
        let mut states: Vec<usize> = parts.iter().map(|a| a.initial).collect();
        let mut state = whole.initial;
        for _ in 0..40 {
            let letter = next();
            for (s, a) in states.iter_mut().zip(&parts) {
                *s = a.step(*s, letter);
            }
            state = whole.step(state, letter);
            let verdicts: Vec<Verdict> = states
                .iter()
                .zip(&parts)
                .map(|(&s, a)| a.states[s].verdict)
                .collect();
            let got = whole.states[state].verdict;
            if verdicts.iter().all(|&v| v == Verdict::True) {
                assert_eq!(got, Verdict::True, "every rule holds");
            }
            if verdicts.contains(&Verdict::False) {
                assert_eq!(got, Verdict::False, "some rule is violated");
            }
        }
    }
}

/// The bounded response `G (p -> F[0,b] q)` has b+3 states: the initial state,
/// nothing pending, a deadline with j = 0..b-1 steps left after a `p` without
/// `q`, and violated. (An explicit construction needs 2^b residuals before
/// minimisation: pending deadlines must be pruned as the earliest implies the
/// others.) The same shape over twelve atoms, the antecedent a conjunction of
/// six and the response a disjunction of six, is a 23-state automaton at b = 20.
#[test]
fn bounded_response_is_linear_in_the_bound() {
    for b in [1, 2, 5, 12, 100] {
        let f = always(implies(atom(0), eventually_in(0, b, atom(1))));
        let name = format!("bounded response b={b}");
        assert_eq!(measure(&name, &f).states.len(), b as usize + 3, "{name}");
    }
    let antecedent = all((0..6).map(atom).collect());
    let response = (7..12).fold(atom(6), |acc, i| or(acc, atom(i)));
    let f = always(implies(antecedent, eventually_in(0, 20, response)));
    assert_eq!(measure("response over 12 atoms", &f).states.len(), 23);
}
