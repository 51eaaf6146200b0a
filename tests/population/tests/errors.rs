//! Refused steps leave a generated population monitor exactly as it was, and
//! the typed API behaves as documented (capacity `N`, counts, reset).

use hindsight_population_tests::generated::spec_combined::combined;
use hindsight_population_tests::generated::spec_reset::reset;
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::{ResetCounts, Verdict};

fn agent(sick: bool, well: bool) -> combined::Agent {
    combined::Agent { sick, well }
}

#[test]
fn over_capacity_is_refused_without_change() {
    let mut m = combined::Monitor::<4>::new();
    let globals = combined::Globals::default();
    let five = [agent(true, false); 5];
    let before = m.clone();
    assert_eq!(
        m.step(&five, &globals),
        Err(PopulationError::OverCapacity {
            agents: 5,
            capacity: 4
        })
    );
    assert_eq!(m, before);
    assert_eq!(m.agents(), None);
    assert_eq!(m.finish(), combined::Verdicts::UNKNOWN);
    // Four fit.
    assert!(m.step(&five[..4], &globals).is_ok());
    assert_eq!(m.agents(), Some(4));
    assert_eq!(combined::CAPACITY, 64);
}

#[test]
fn a_changed_agent_count_is_refused_without_change() {
    let mut m = combined::Monitor::<8>::new();
    let mut twin = combined::Monitor::<8>::new();
    let g = combined::Globals {
        alarm: false,
        quiet: true,
    };
    let three = [agent(true, false), agent(false, false), agent(true, true)];
    assert_eq!(m.step(&three, &g), twin.step(&three, &g));
    let before = m.clone();
    for wrong in [&three[..2], &[agent(false, true); 4][..], &[]] {
        assert_eq!(
            m.step(wrong, &g),
            Err(PopulationError::AgentCountChanged {
                expected: 3,
                found: wrong.len()
            })
        );
        assert_eq!(m, before);
    }
    // It goes on exactly like a monitor that never saw the refused steps.
    let healed = [agent(false, true); 3];
    for _ in 0..3 {
        assert_eq!(m.step(&healed, &g), twin.step(&healed, &g));
    }
    assert_eq!(m, twin);
    assert_eq!(m.finish(), twin.finish());
    // `both`: every agent got well (F a.well) and one never was sick? Agent 1
    // was never sick, so `exists a: G !a.sick` is open: `?` while running,
    // true at the end (agent 1 stayed healthy inside the trace).
    assert_eq!(m.step(&healed, &g).unwrap().both, Verdict::Unknown);
    assert_eq!(m.finish().both, Verdict::True);
    // After reset any number of agents is accepted again.
    m.reset();
    assert_eq!(m, combined::Monitor::<8>::new());
    assert!(m.step(&three[..1], &g).is_ok());
}

/// `recover_all` after a step of `m` with two agents, each `(sick, well)`.
fn recover_all(m: &mut reset::Monitor<2>, agents: [(bool, bool); 2]) -> Verdict {
    let agents = agents.map(|(sick, well)| reset::Agent { sick, well });
    let globals = reset::Globals { tick: false };
    m.step(&agents, &globals).unwrap().recover_all
}

#[test]
fn reset_counts_by_hand() {
    // `recover_all = forall a in sick_now: F a.well with reset`, two agents.
    let mut m = reset::Monitor::<2>::new();
    let (sick, well, neither) = ((true, false), (false, true), (false, false));
    let counts = |satisfactions, violations| ResetCounts {
        satisfactions,
        violations,
    };
    // Step 0: agent 0 sick (the only member), nobody well: `?`.
    assert_eq!(recover_all(&mut m, [sick, neither]), Verdict::Unknown);
    // Step 1: agent 0 well: decided true, counted; the run restarts at step 2.
    assert_eq!(recover_all(&mut m, [well, neither]), Verdict::True);
    // Ended at the last step: the end verdict is the one that ended the run.
    assert_eq!(m.finish().recover_all, Verdict::True);
    assert_eq!(m.counts().recover_all, counts(1, 0));
    // Step 2: nobody sick: no members, `forall` over none is true at once.
    assert_eq!(recover_all(&mut m, [neither, neither]), Verdict::True);
    // Step 3: agent 1 sick and stays unwell: pending; at the end, false.
    assert_eq!(recover_all(&mut m, [neither, sick]), Verdict::Unknown);
    assert_eq!(m.finish().recover_all, Verdict::False);
    assert_eq!(m.counts().recover_all, counts(2, 1));
    // `plain` (no reset) counts nothing.
    assert_eq!(m.counts().plain, ResetCounts::default());
}
