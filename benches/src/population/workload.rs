//! The population workload: `agents` agents with two Boolean attributes over
//! `steps` steps, drawn from the standard trace's generator (splitmix64 from
//! seed `0x5EED`): for each step, for each agent in id order, `infected` is
//! true iff the next output shifted right by 11 is below
//! [`P_INFECTED`]` × 2^53`, then `exposed` likewise with [`P_EXPOSED`].

use hindsight_runtime::Value;

use super::generated::herd::Agent;
use crate::trace::SplitMix64;

/// Probability that an agent is `infected` at a step.
pub const P_INFECTED: f64 = 0.02;
/// Probability that an agent is `exposed` at a step.
pub const P_EXPOSED: f64 = 0.10;
/// The seed (that of the standard trace).
pub const SEED: u64 = 0x5EED;
/// Agent-steps in one benchmark pass (`agents × steps`).
pub const AGENT_STEPS: usize = 4_000_000;
/// The population sizes benchmarked.
pub const SIZES: [usize; 3] = [64, 1_000, 10_000];

/// A precomputed population trace.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The number of agents (fixed for the trace).
    pub agents: usize,
    /// The number of steps.
    pub steps: usize,
    /// The global `limit` of `few_infected`: the expected number of infected
    /// agents at a step, `round(agents × P_INFECTED)`.
    pub limit: i64,
    /// Every step's agents, row-major: step `t` is `rows[t * agents..][..agents]`.
    pub rows: Vec<Agent>,
}

impl Workload {
    /// The workload of `agents` agents over `steps` steps.
    pub fn new(agents: usize, steps: usize) -> Self {
        let threshold = |p: f64| (p * (1u64 << 53) as f64) as u64;
        let (infected, exposed) = (threshold(P_INFECTED), threshold(P_EXPOSED));
        let mut rng = SplitMix64::new(SEED);
        let mut draw = |t: u64| (rng.next_u64() >> 11) < t;
        let rows = (0..agents.saturating_mul(steps))
            .map(|_| {
                let infected = draw(infected);
                Agent {
                    infected,
                    exposed: draw(exposed),
                }
            })
            .collect();
        let limit = (agents as f64 * P_INFECTED).round() as i64;
        Workload {
            agents,
            steps,
            limit,
            rows,
        }
    }

    /// The number of steps of the benchmark workload of `agents` agents:
    /// [`AGENT_STEPS`]` / agents`.
    pub const fn bench_steps(agents: usize) -> usize {
        AGENT_STEPS / if agents == 0 { 1 } else { agents }
    }

    /// The benchmark workload of `agents` agents ([`Workload::bench_steps`] steps).
    pub fn bench(agents: usize) -> Self {
        Workload::new(agents, Workload::bench_steps(agents))
    }

    /// The agents at step `t` (empty past the end).
    pub fn step(&self, t: usize) -> &[Agent] {
        let start = t.saturating_mul(self.agents);
        self.rows
            .get(start..start.saturating_add(self.agents))
            .unwrap_or(&[])
    }

    /// Every step's attributes as the interpreter reads them: per step
    /// `agents × 2` values (`infected`, `exposed` of agent 0 first).
    pub fn values(&self) -> Vec<Value> {
        self.rows
            .iter()
            .flat_map(|a| [Value::Bool(a.infected), Value::Bool(a.exposed)])
            .collect()
    }
}
