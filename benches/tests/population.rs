//! The population benchmark is honest: on its workload the generated,
//! interpreted and hand-written `herd` monitors (and, for what it expresses,
//! the generated monitor of the quantifier-free expansion) give the verdicts of
//! a direct evaluation of the properties' definitions at every step, at the
//! end and in the reset counts; the workload makes every property non-trivial.

use std::collections::HashSet;

use hindsight_benches::population::hand::{self, K};
use hindsight_benches::population::workload::{Workload, P_EXPOSED, P_INFECTED};
use hindsight_benches::population::{
    compiled, tally, Expanded, Generated, Hand, Interpreted, PopulationMonitor,
};
use hindsight_runtime::{ResetCounts, Verdict};

/// The verdicts of the four properties straight from their definitions.
struct Oracle {
    steps: Vec<[Verdict; 4]>,
    end: [Verdict; 4],
    k_counts: ResetCounts,
}

fn oracle(w: &Workload) -> Oracle {
    let n = w.agents;
    let mut steps = Vec::new();
    let mut run_start = 0;
    let mut counts = ResetCounts::default();
    let mut fresh = false;
    for t in 0..w.steps {
        let now = w.step(t);
        // `a.infected -> O[0,9] a.exposed` for every agent.
        let ok = (0..n)
            .all(|a| !now[a].infected || (t.saturating_sub(9)..=t).any(|j| w.step(j)[a].exposed));
        let infected = now.iter().filter(|a| a.infected).count() as i64;
        // `atleast K a: F a.infected` over the run started at `run_start`.
        let hit: HashSet<usize> = (run_start..=t)
            .flat_map(|j| (0..n).filter(move |&a| w.step(j)[a].infected))
            .collect();
        let k = if hit.len() as u64 >= K {
            Verdict::True
        } else {
            Verdict::Unknown
        };
        fresh = k != Verdict::Unknown;
        if fresh {
            counts.record(k);
            run_start = t + 1;
        }
        steps.push([
            Verdict::from(ok),
            Verdict::from(infected <= w.limit),
            Verdict::Unknown,
            k,
        ]);
    }
    let last = steps.last().copied().unwrap_or([Verdict::Unknown; 4]);
    // Every exposure of every agent is followed (at or after it) by an infection.
    let answered = (0..n).all(|a| {
        (0..w.steps).all(|j| !w.step(j)[a].exposed || (j..w.steps).any(|i| w.step(i)[a].infected))
    });
    let k_end = if fresh {
        last[3]
    } else {
        let hit: HashSet<usize> = (run_start..w.steps)
            .flat_map(|j| (0..n).filter(move |&a| w.step(j)[a].infected))
            .collect();
        Verdict::from(hit.len() as u64 >= K)
    };
    if !fresh {
        counts.record(k_end);
    }
    Oracle {
        steps,
        end: [last[0], last[1], Verdict::from(answered), k_end],
        k_counts: counts,
    }
}

/// Runs `monitor` through `w`, comparing with the oracle on properties `checked`.
fn check<M: PopulationMonitor>(
    name: &str,
    monitor: &mut M,
    w: &Workload,
    o: &Oracle,
    checked: &[usize],
) {
    for (t, expected) in o.steps.iter().enumerate() {
        let got = monitor.step(t);
        for &p in checked {
            assert_eq!(got[p], expected[p], "{name}: property {p} at step {t}");
        }
    }
    let end = monitor.finish();
    for &p in checked {
        assert_eq!(end[p], o.end[p], "{name}: end verdict of property {p}");
    }
    if checked.contains(&3) {
        assert_eq!(monitor.counts()[3], o.k_counts, "{name}: k_infected counts");
    }
    let _ = w;
}

fn all_agree<const N: usize>(w: &Workload) -> Oracle {
    let o = oracle(w);
    let compiled = compiled();
    let tables = compiled.program.population("herd").unwrap();
    let values = w.values();
    let all = [0, 1, 2, 3];
    check("generated", &mut Generated::<N>::new(w), w, &o, &all);
    check("hand-written", &mut Hand::new(w), w, &o, &all);
    check(
        "interpreter",
        &mut Interpreted::new(tables, w, &values),
        w,
        &o,
        &all,
    );
    o
}

#[test]
fn monitors_agree_with_the_definitions_on_64_agents() {
    let w = Workload::new(64, 1_500);
    let o = all_agree::<64>(&w);
    // The expanded monitor on what it expresses.
    let inputs = Expanded::inputs(&w);
    check("expanded", &mut Expanded::new(&inputs), &w, &o, &[0, 2]);
    // Every property is non-trivial on this workload.
    let count = |p: usize, v: Verdict| o.steps.iter().filter(|s| s[p] == v).count();
    for p in [0, 1] {
        for v in [Verdict::True, Verdict::False] {
            assert!(
                count(p, v) > 150,
                "property {p} is {v:?} at {} steps",
                count(p, v)
            );
        }
    }
    assert_eq!(count(2, Verdict::Unknown), 1_500);
    // 32 of 64 agents infected takes about ln 2 / 0.02 ≈ 35 steps.
    let runs = o.k_counts.satisfactions;
    assert!((20..=70).contains(&runs), "{runs} k_infected runs");
    assert!(count(3, Verdict::Unknown) > 1_000);
}

#[test]
fn monitors_agree_with_the_definitions_on_1000_agents() {
    let w = Workload::new(1_000, 40);
    let o = all_agree::<1_000>(&w);
    // About 20 infections a step: 32 distinct agents within two steps.
    assert!(o.k_counts.satisfactions >= 13, "{:?}", o.k_counts);
    assert_eq!(o.end[2], Verdict::False);
}

#[test]
fn bench_tally_is_the_same_for_every_monitor() {
    let w = Workload::new(64, 300);
    let compiled = compiled();
    let tables = compiled.program.population("herd").unwrap();
    let values = w.values();
    let hand = tally(&mut Hand::new(&w), w.steps);
    assert_eq!(tally(&mut Generated::<64>::new(&w), w.steps), hand);
    assert_eq!(
        tally(&mut Interpreted::new(tables, &w, &values), w.steps),
        hand
    );
    assert_eq!(
        hand.iter()
            .map(|r| r.iter().sum::<u64>())
            .collect::<Vec<_>>(),
        [300; 4]
    );
}

#[test]
fn workload_follows_its_probabilities() {
    let w = Workload::new(1_000, 1_000);
    assert_eq!((w.agents, w.steps, w.limit), (1_000, 1_000, 20));
    assert_eq!(w.rows.len(), 1_000_000);
    let infected = w.rows.iter().filter(|a| a.infected).count() as f64 / 1e6;
    let exposed = w.rows.iter().filter(|a| a.exposed).count() as f64 / 1e6;
    // Binomial standard deviations are 1.4e-4 and 3e-4: 10 sigma.
    assert!((infected - P_INFECTED).abs() < 0.0015, "{infected}");
    assert!((exposed - P_EXPOSED).abs() < 0.003, "{exposed}");
    assert_eq!(Workload::bench_steps(64), 62_500);
    assert_eq!(Workload::bench_steps(1_000), 4_000);
    assert_eq!(Workload::bench_steps(10_000), 400);
    assert_eq!(Workload::new(64, 1).limit, 1);
    assert_eq!(Workload::new(10_000, 1).limit, 200);
    // Deterministic: the same workload twice.
    assert_eq!(Workload::new(64, 10).rows, Workload::new(64, 10).rows);
}

#[test]
fn state_bytes_per_agent() {
    let generated = [
        Generated::<64>::AGENT_BYTES,
        Generated::<1_000>::AGENT_BYTES,
        Generated::<10_000>::AGENT_BYTES,
    ];
    println!(
        "bytes per agent: generated {generated:?}, hand-written {}, expanded {}",
        hand::Herd::AGENT_BYTES,
        Expanded::AGENT_BYTES
    );
    // A window counter, a pending flag and a hit flag.
    assert_eq!(hand::Herd::AGENT_BYTES, 3);
    // A counter, two automaton states, four last verdicts, plus a share of the
    // population-level fields.
    for g in generated {
        assert!((3..=16).contains(&g), "{g}");
    }
}

/// `herd_past`'s verdicts from the definitions: `reexposed` at `t` holds iff
/// every agent infected at `t` was exposed at some `j < t` with no infection
/// in `(j, t)` (an infection at `j` itself does not matter: `S`'s left operand
/// is not needed where its right one holds).
fn past_oracle(w: &Workload) -> Vec<[Verdict; 4]> {
    (0..w.steps)
        .map(|t| {
            let ok = (0..w.agents).all(|a| {
                !w.step(t)[a].infected
                    || (0..t)
                        .rev()
                        .map(|j| w.step(j)[a])
                        .find(|x| x.exposed || x.infected)
                        .is_some_and(|x| x.exposed)
            });
            let infected = w.step(t).iter().filter(|a| a.infected).count() as i64;
            [
                Verdict::from(ok),
                Verdict::from(infected <= w.limit),
                Verdict::Unknown,
                Verdict::Unknown,
            ]
        })
        .collect()
}

fn past_agree<const N: usize>(w: &Workload) -> Vec<[Verdict; 4]> {
    use hindsight_benches::population::past;
    let steps = past_oracle(w);
    let o = Oracle {
        end: steps.last().copied().unwrap(),
        steps,
        k_counts: ResetCounts::default(),
    };
    let rows = past::rows(w);
    let compiled = compiled();
    let tables = compiled.program.population("herd_past").unwrap();
    let values = w.values();
    let all = [0, 1, 2, 3];
    check("hand", &mut past::Hand::new(w), w, &o, &all);
    check("hand lanes", &mut past::HandLanes::new(w), w, &o, &all);
    check(
        "interpreter",
        &mut Interpreted::new(tables, w, &values),
        w,
        &o,
        &all,
    );
    check(
        "scalar",
        &mut past::Generated::<N>::new(w, &rows, true),
        w,
        &o,
        &all,
    );
    check(
        "lanes",
        &mut past::Generated::<N>::new(w, &rows, false),
        w,
        &o,
        &all,
    );
    o.steps
}

#[test]
fn past_monitors_agree_with_the_definitions() {
    // 100 agents: one full word and a partial one.
    let steps = past_agree::<64>(&Workload::new(64, 600));
    let count = |v: Verdict| steps.iter().filter(|s| s[0] == v).count();
    assert!(count(Verdict::True) > 100 && count(Verdict::False) > 100);
    past_agree::<1_000>(&Workload::new(1_000, 30));
    past_agree::<100>(&Workload::new(100, 300));
}

#[test]
fn past_monitors_use_bit_lanes() {
    use hindsight_benches::population::generated::herd_past;
    // `herd`: its past stratum has a window counter (`O[0,9]`) and its future
    // quantifiers' stratum automata, so both go one agent at a time.
    assert_eq!(herd_past::BIT_LANES, [true]);
    assert_eq!(
        hindsight_benches::population::generated::herd::BIT_LANES,
        [false, false]
    );
    let bytes = hindsight_benches::population::past::Generated::<10_000>::AGENT_BYTES;
    println!("herd_past bytes per agent: {bytes}");
    // Two one-bit cells per agent (`Y` and `S`), a byte each in the lanes.
    assert!(bytes < 3.0, "{bytes}");
}
