//! Interval iteration (`hindsight_learn::bounds`) against the exact oracle
//! of `hindsight_tests::mdp` on random MDPs with end components: every
//! interval holds the exact value and is at most the precision wide.

use hindsight_learn::bounds::{reach, Objective};
use hindsight_learn::mdp::{Choice, Mdp};
use hindsight_tests::mdp::exact;
use proptest::prelude::*;

/// Random MDPs: up to 6 states, up to 3 choices each (some states have
/// none), up to 3 successors per choice with small counts (self-loops and
/// cycles, so end components, are common).
fn random_mdp() -> impl Strategy<Value = (Mdp, Vec<bool>)> {
    (2usize..=6).prop_flat_map(|n| {
        let choice = (prop::collection::vec((0..n, 1u64..4), 1..=3), 0usize..4);
        let state = prop::collection::vec(choice, 0..=3);
        (
            prop::collection::vec(state, n),
            prop::collection::vec(prop::bool::weighted(0.25), n),
        )
            .prop_map(move |(states, target)| {
                let mut choices = Vec::new();
                for (s, cs) in states.into_iter().enumerate() {
                    let mut actions = std::collections::BTreeMap::new();
                    for (succ, action) in cs {
                        let mut to: std::collections::BTreeMap<usize, u64> = Default::default();
                        for (t, c) in succ {
                            *to.entry(t).or_default() += c;
                        }
                        actions.entry(action).or_insert(to);
                    }
                    for (action, to) in actions {
                        let to: Vec<(usize, u64)> = to.into_iter().collect();
                        choices.push(Choice {
                            from: s,
                            action,
                            count: to.iter().map(|&(_, c)| c).sum(),
                            to,
                        });
                    }
                }
                let mdp = Mdp {
                    states: n,
                    actions: 4,
                    choices,
                };
                (mdp, target)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Interval iteration's intervals hold the exact values and are at most
    /// the precision wide.
    #[test]
    fn bounds_hold_the_exact_values((mdp, target) in random_mdp()) {
        prop_assert!(mdp.is_well_formed());
        for objective in [Objective::Max, Objective::Min] {
            let want = exact(&mdp, &target, objective);
            let got = reach(&mdp, &target, objective, 1e-9, 1_000_000);
            prop_assert!(got.width() < 1e-9, "{objective:?}: width {}", got.width());
            for (s, &want) in want.iter().enumerate() {
                prop_assert!(
                    got.lo[s] <= want + 1e-9 && want <= got.hi[s] + 1e-9,
                    "{objective:?} state {s}: exact {} not in [{}, {}]\n{mdp:?} {target:?}",
                    want, got.lo[s], got.hi[s]
                );
            }
        }
    }
}
