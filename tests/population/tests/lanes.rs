//! Bit lanes (`specs/lanes.hind`): `step` (64 agents per word) and
//! `step_scalar` (one agent at a time over the same bit state) leave equal
//! monitors and verdicts after every step; counts across the 64-agent word
//! boundaries by hand; state is two bytes per agent (10 one-bit cells).

use hindsight_population_tests::generated::spec_lanes::{lanes, Health};
use hindsight_runtime::Verdict;
use lanes::{Agent, Globals, Monitor};

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn random_agent(rng: &mut Rng) -> Agent {
    let r = rng.next();
    Agent {
        a: r & 1 == 0,
        b: r & 2 == 0,
        c: r & 4 == 0,
        health: Health::from_index(((r >> 3) % 3) as u32).unwrap(),
        age: ((r >> 8) % 100) as i64,
    }
}

#[test]
fn the_lanes_spec_uses_lanes() {
    // Two strata (the nested quantifiers), both in lanes.
    assert_eq!(lanes::BIT_LANES, [true, true]);
}

#[test]
fn past_strata_use_lanes_next_to_future_and_counter_strata() {
    use hindsight_population_tests::generated::{example_epidemic, spec_mixed};
    // The epidemic example: its past quantifiers (stratum 0) in lanes, its
    // future quantifiers (stratum 1, automata) one agent at a time.
    assert_eq!(example_epidemic::epidemic::BIT_LANES, [true, false]);
    // `mixed`: one-bit strata 0 and 2 in lanes; stratum 1 has a window
    // counter, stratum 3 the future quantifiers.
    assert_eq!(spec_mixed::mixed::BIT_LANES, [true, false, true, false]);
}

#[test]
fn mixed_step_and_step_scalar_leave_equal_monitors() {
    use hindsight_population_tests::generated::spec_mixed::mixed;
    for (t, n) in [1usize, 63, 64, 65, 130].into_iter().enumerate() {
        let mut rng = Rng(0x9876_5432 + t as u64);
        let mut wide = Box::new(mixed::Monitor::<130>::new());
        let mut narrow = Box::new(mixed::Monitor::<130>::new());
        let mut decided = 0;
        for step in 0..40 {
            let agents: Vec<mixed::Agent> = (0..n)
                .map(|_| {
                    let r = rng.next();
                    mixed::Agent {
                        a: r & 1 == 0,
                        b: r & 6 != 0,
                        c: r & 8 == 0,
                        age: ((r >> 8) % 100) as i64,
                    }
                })
                .collect();
            let r = rng.next();
            let globals = mixed::Globals {
                g: r & 1 == 0,
                day: (r >> 1) as i64 % 80,
            };
            let a = wide.step(&agents, &globals).unwrap();
            let b = narrow.step_scalar(&agents, &globals).unwrap();
            assert_eq!(a, b, "{n} agents, step {step}");
            assert!(*wide == *narrow, "{n} agents, state after step {step}");
            decided += a
                .to_array()
                .iter()
                .filter(|v| **v != Verdict::Unknown)
                .count();
        }
        assert!(decided > 40, "{n} agents: {decided} decided verdicts");
        assert_eq!(wide.finish(), narrow.finish());
        assert_eq!(wide.counts(), narrow.counts());
    }
}

#[test]
fn step_and_step_scalar_leave_equal_monitors() {
    for (t, n) in [0usize, 1, 2, 63, 64, 65, 127, 128, 129, 130]
        .into_iter()
        .enumerate()
    {
        let mut rng = Rng(0x1234_5678 + t as u64);
        let mut wide = Box::new(Monitor::<130>::new());
        let mut narrow = Box::new(Monitor::<130>::new());
        for step in 0..40 {
            let agents: Vec<Agent> = (0..n).map(|_| random_agent(&mut rng)).collect();
            let r = rng.next();
            let globals = Globals {
                g: r & 1 == 0,
                day: (r >> 1) as i64 % 8,
            };
            let a = wide.step(&agents, &globals).unwrap();
            let b = narrow.step_scalar(&agents, &globals).unwrap();
            assert_eq!(a, b, "{n} agents, step {step}");
            assert!(*wide == *narrow, "{n} agents, state after step {step}");
            if step == 20 {
                // `reset` in place, then a fresh run with the same agents.
                wide.reset();
                narrow.reset();
                assert!(*wide == *Box::new(Monitor::<130>::new()));
            }
        }
        assert_eq!(wide.finish(), narrow.finish());
        assert_eq!(wide.counts(), narrow.counts());
    }
}

/// 130 agents aged 70 (all in `olds`); `b` true for agents `from..`.
fn since_step(from: usize) -> Verdict {
    let agents: Vec<Agent> = (0..130)
        .map(|j| Agent {
            age: 70,
            b: j >= from,
            ..Agent::default()
        })
        .collect();
    let mut m = Box::new(Monitor::<130>::new());
    let v = m.step(&agents, &Globals::default()).unwrap();
    let mut s = Box::new(Monitor::<130>::new());
    assert_eq!(s.step_scalar(&agents, &Globals::default()).unwrap(), v);
    v.since
}

#[test]
fn counts_cross_word_boundaries() {
    // `since = atmost 5 x in olds: x.a S x.b`: at step 0, `a S b` is `b`.
    // Agents 125..129 straddle the second word (…127) and the tail (128, 129).
    assert_eq!(since_step(125), Verdict::True); // 5 agents
    assert_eq!(since_step(124), Verdict::False); // 6 agents
    assert_eq!(since_step(130), Verdict::True); // none
    assert_eq!(since_step(0), Verdict::False);
}

#[test]
fn hist_starts_true_in_every_word() {
    // `nested_count = forall x: x.b -> (count y: H !y.c) >= 2`: with `c`
    // false everywhere, `H !c` holds for all 130 agents (the complemented
    // cells start true, the tail block too); with `c` true for all but one
    // agent (agent 129, in the tail), only one agent counts.
    let run = |c_except: Option<usize>| {
        let agents: Vec<Agent> = (0..130)
            .map(|j| Agent {
                b: true,
                c: c_except.is_some_and(|k| k != j),
                ..Agent::default()
            })
            .collect();
        let mut m = Box::new(Monitor::<130>::new());
        m.step(&agents, &Globals::default()).unwrap().nested_count
    };
    assert_eq!(run(None), Verdict::True);
    assert_eq!(run(Some(129)), Verdict::False);
}

#[test]
fn two_bytes_per_agent() {
    // 10 one-bit cells: two byte groups per agent, plus a fixed tail of 10 words.
    let small = std::mem::size_of::<Monitor<64>>();
    let large = std::mem::size_of::<Monitor<6400>>();
    assert_eq!(large - small, (6400 - 64) * 2);
}
