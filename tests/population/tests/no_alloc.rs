//! Generated population monitors never allocate: a counting global allocator
//! sees no allocation over 10^5 steps (plus `finish` and `counts` calls) of
//! monitors with every kind of quantifier, combined properties and resets
//! (`combined` and `reset` step a stratum as bit lanes and another one agent
//! at a time).

use hindsight_compiler::ir::population::SignalId;
use hindsight_tests::alloc_count::{allocations, assert_counting, Counting};
use std::hint::black_box;

use hindsight_population_tests::generated::{
    spec_combined::combined, spec_reset::reset, spec_types::*,
};

#[global_allocator]
static GLOBAL: Counting = Counting;

const STEPS: usize = 100_000;
const AGENTS: usize = 6;

#[test]
fn the_counter_sees_allocations() {
    assert_counting();
}

#[test]
fn lane_steps_do_not_allocate() {
    use hindsight_population_tests::generated::spec_lanes::{lanes, Health as H};
    assert_eq!(lanes::BIT_LANES, [true, true]);
    let mut m = Box::new(lanes::Monitor::<130>::new());
    let mut agents = [lanes::Agent::default(); 130];
    let mut decided = 0usize;
    let before = allocations();
    for i in 0..2_000usize {
        for (j, a) in agents.iter_mut().enumerate() {
            let bits = i.wrapping_mul(2654435761).rotate_left(j as u32 * 5) >> 7;
            *a = lanes::Agent {
                a: bits & 1 == 0,
                b: bits & 2 == 0,
                c: bits & 4 == 0,
                health: H::from_index((bits % 3) as u32).unwrap_or_default(),
                age: (bits % 90) as i64,
            };
        }
        let g = lanes::Globals {
            g: i % 3 == 0,
            day: i as i64 % 9,
        };
        let v = if i % 2 == 0 {
            m.step(&agents, &g).unwrap()
        } else {
            m.step_scalar(&agents, &g).unwrap()
        };
        decided += v
            .to_array()
            .iter()
            .filter(|v| v.decided().is_some())
            .count();
        if i % 500 == 0 {
            black_box((m.finish(), m.counts()));
            m.reset();
        }
    }
    assert_eq!(allocations() - before, 0);
    assert!(decided > 2_000, "the monitor decided something");
}

#[test]
fn population_steps_do_not_allocate() {
    let mut c = Box::new(combined::Monitor::<8>::new());
    let mut r = Box::new(reset::Monitor::<8>::new());
    let mut t = Box::new(types::Monitor::<8>::new());
    let mut c_agents = [combined::Agent::default(); AGENTS];
    let mut r_agents = [reset::Agent::default(); AGENTS];
    let mut t_agents = [types::Agent::default(); AGENTS];
    let mut decided = 0usize;
    let before = allocations();
    for i in 0..STEPS {
        for (j, ((ca, ra), ta)) in c_agents
            .iter_mut()
            .zip(r_agents.iter_mut())
            .zip(t_agents.iter_mut())
            .enumerate()
        {
            let bits = i.wrapping_mul(2654435761).rotate_left(j as u32 * 5) >> 7;
            *ca = combined::Agent {
                sick: bits & 1 == 0,
                well: bits & 2 == 0,
            };
            *ra = reset::Agent {
                sick: bits & 4 == 0,
                well: bits & 8 == 0,
            };
            *ta = types::Agent {
                health: Health::from_index((bits % 3) as u32).unwrap_or_default(),
                age: (bits % 90) as i64,
                temp: 36.0 + (bits % 5) as f64,
                r#type: bits & 16 == 0,
            };
        }
        let tick = i % 7 == 0;
        let v = c
            .step(
                &c_agents,
                &combined::Globals {
                    alarm: tick,
                    quiet: !tick,
                },
            )
            .unwrap();
        decided += v
            .to_array()
            .iter()
            .filter(|v| v.decided().is_some())
            .count();
        let v = r.step(&r_agents, &reset::Globals { tick }).unwrap();
        decided += v
            .to_array()
            .iter()
            .filter(|v| v.decided().is_some())
            .count();
        let g = types::Globals {
            day: i as i64 % 40,
            zone: Zone::north,
            level: 1.5,
            r#match: tick,
        };
        black_box(t.step(&t_agents, &g).unwrap());
        if i % 1000 == 0 {
            black_box((c.finish(), c.counts(), r.finish(), r.counts(), t.finish()));
            r.reset();
        }
    }
    assert_eq!(allocations() - before, 0);
    assert!(decided > STEPS, "the monitors decided something");
}

/// The population interpreter keeps every agent's state in one array per
/// stratum: its first step allocates the same number of times for 10 agents
/// as for 10,000, and holds at most what `hindsight explain` reports per agent
/// (times the agents, within 2x: explain counts a byte per bool cell outside
/// bit lanes, the interpreter a bit).
#[test]
fn the_population_interpreter_allocates_per_stratum_not_per_agent() {
    use hindsight_compiler::hir::Value;
    use hindsight_compiler::interp::PopulationInterpreter;
    let source = "\
population crowd {
    capacity 10000;
    agent { sick: bool, age: int }
    global { day: int }
    group old = agents where age >= 65;
    property all_recover = forall a in agents: F !a.sick;
    property some_sick_twice = exists a in old: F (a.sick && X a.sick);
    property few = G ((count a in agents: a.sick && O[1,3] a.sick) <= 50);
    property watched = atleast 2 a in agents: G[0,5] (a.sick -> Y a.sick || H a.sick);
}
";
    let compiled = hindsight_compiler::compile(source).expect("compiles");
    let tables = &compiled.program.populations[0];
    let per_agent = tables.state_per_agent().total() as usize;
    let mut first_step = Vec::new();
    for agents in [10usize, 10_000] {
        let attributes: Vec<Value> = (0..agents)
            .flat_map(|a| [Value::Bool(a % 3 == 0), Value::Int((a % 90) as i64)])
            .collect();
        let mut interp = PopulationInterpreter::new(tables);
        let before = allocations();
        interp
            .step(agents, &attributes, &[Value::Int(0)])
            .expect("within the capacity");
        first_step.push(allocations() - before);
        // Recording witnesses (--explain) allocates nothing per step either.
        let mut witnessed = PopulationInterpreter::new(tables).with_witnesses();
        witnessed
            .step(agents, &attributes, &[Value::Int(0)])
            .expect("within the capacity");
        let before = allocations();
        for _ in 0..3 {
            interp
                .step(agents, &attributes, &[Value::Int(1)])
                .expect("same agents");
            witnessed
                .step(agents, &attributes, &[Value::Int(1)])
                .expect("same agents");
        }
        assert_eq!(allocations() - before, 0, "later steps allocate nothing");
        assert!(witnessed
            .signal_tally(SignalId::new(0))
            .is_some_and(|(_, w)| !w.held.is_empty()));
        assert!(
            interp.signal_tally(SignalId::new(0)).is_none(),
            "no witnesses unless asked"
        );
        assert!(
            interp.state_bytes() <= 2 * per_agent * agents,
            "{} bytes for {agents} agents, explain says {per_agent} per agent",
            interp.state_bytes()
        );
    }
    assert_eq!(
        first_step[0], first_step[1],
        "allocations at the first step"
    );
}
