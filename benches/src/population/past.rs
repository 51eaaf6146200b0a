//! The `herd_past` population (one-bit state only, so the generated code
//! evaluates it 64 agents per `u64` word): `reexposed` =
//! `forall a in agents: a.infected -> Y (!a.infected S a.exposed)` and
//! `few_infected`; the generated monitor through its bit-lane `step` and its
//! per-agent `step_scalar`, and two hand-written monitors: one `bool` per
//! agent, and one bit per agent in `u64` words.

use hindsight_runtime::Verdict;

use super::generated::herd_past;
use super::workload::Workload;
use super::PopulationMonitor;

/// The workload's rows as `herd_past` agents.
pub fn rows(workload: &Workload) -> Vec<herd_past::Agent> {
    workload
        .rows
        .iter()
        .map(|a| herd_past::Agent {
            infected: a.infected,
            exposed: a.exposed,
        })
        .collect()
}

/// Step `t` of `rows` for `agents` agents (empty past the end).
fn step_of(rows: &[herd_past::Agent], agents: usize, t: usize) -> &[herd_past::Agent] {
    let start = t.saturating_mul(agents);
    rows.get(start..start.saturating_add(agents)).unwrap_or(&[])
}

/// The generated `herd_past` monitor for at most `N` agents on precomputed
/// rows ([`rows`]): bit lanes, or one agent at a time (`step_scalar`).
pub struct Generated<'w, const N: usize> {
    monitor: Box<herd_past::Monitor<N>>,
    globals: herd_past::Globals,
    rows: &'w [herd_past::Agent],
    agents: usize,
    scalar: bool,
}

impl<'w, const N: usize> Generated<'w, N> {
    /// A fresh monitor on `rows` of `workload`; `scalar` selects `step_scalar`.
    pub fn new(workload: &Workload, rows: &'w [herd_past::Agent], scalar: bool) -> Self {
        Generated {
            monitor: Box::default(),
            globals: herd_past::Globals {
                limit: workload.limit,
            },
            rows,
            agents: workload.agents,
            scalar,
        }
    }

    /// Bytes of monitor state per agent: `size_of::<Monitor<N>>() / N`.
    pub const AGENT_BYTES: f64 = core::mem::size_of::<herd_past::Monitor<N>>() as f64 / N as f64;
}

/// `reexposed` and `few_infected`, then two `Unknown`s.
fn two(a: Verdict, b: Verdict) -> [Verdict; 4] {
    [a, b, Verdict::Unknown, Verdict::Unknown]
}

impl<const N: usize> PopulationMonitor for Generated<'_, N> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        let agents = step_of(self.rows, self.agents, t);
        let v = if self.scalar {
            self.monitor.step_scalar(agents, &self.globals)
        } else {
            self.monitor.step(agents, &self.globals)
        };
        match v {
            Ok(v) => two(v.reexposed, v.few_infected),
            Err(_) => [Verdict::Unknown; 4],
        }
    }
    fn finish(&self) -> [Verdict; 4] {
        let v = self.monitor.finish();
        two(v.reexposed, v.few_infected)
    }
}

/// The verdicts of `herd_past` at a step where `all_ok` tells whether every
/// infected agent was exposed since and `infected` agents are infected.
fn verdicts(all_ok: bool, infected: u64, workload: &Workload) -> [Verdict; 4] {
    two(
        Verdict::from(all_ok),
        Verdict::from(infected as i128 <= i128::from(workload.limit)),
    )
}

/// Hand-written `herd_past`, one `bool` per agent: `!infected S exposed` at
/// the previous step.
pub struct Hand<'w> {
    since: Vec<bool>,
    workload: &'w Workload,
    last: [Verdict; 4],
}

impl<'w> Hand<'w> {
    /// A fresh monitor on `workload`.
    pub fn new(workload: &'w Workload) -> Self {
        Hand {
            since: vec![false; workload.agents],
            workload,
            last: [Verdict::Unknown; 4],
        }
    }
}

impl PopulationMonitor for Hand<'_> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        let mut all_ok = true;
        let mut infected = 0u64;
        for (a, s) in self.workload.step(t).iter().zip(self.since.iter_mut()) {
            all_ok &= !a.infected | *s;
            infected += u64::from(a.infected);
            *s = a.exposed | (!a.infected & *s);
        }
        self.last = verdicts(all_ok, infected, self.workload);
        self.last
    }
    fn finish(&self) -> [Verdict; 4] {
        self.last
    }
}

/// Hand-written `herd_past`, bit-parallel: the same state as [`Hand`], one bit
/// per agent in `u64` words; each step packs 64 agents' attributes into two
/// words and updates them with word operations.
pub struct HandLanes<'w> {
    since: Vec<u64>,
    workload: &'w Workload,
    last: [Verdict; 4],
}

impl<'w> HandLanes<'w> {
    /// A fresh monitor on `workload`.
    pub fn new(workload: &'w Workload) -> Self {
        HandLanes {
            since: vec![0; workload.agents.div_ceil(64)],
            workload,
            last: [Verdict::Unknown; 4],
        }
    }
}

impl PopulationMonitor for HandLanes<'_> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        let mut all_ok = true;
        let mut infected = 0u64;
        for (chunk, s) in self.workload.step(t).chunks(64).zip(self.since.iter_mut()) {
            let (mut inf, mut exp) = (0u64, 0u64);
            for (b, a) in chunk.iter().enumerate() {
                inf |= u64::from(a.infected) << b;
                exp |= u64::from(a.exposed) << b;
            }
            all_ok &= inf & !*s == 0;
            infected += u64::from(inf.count_ones());
            *s = exp | (!inf & *s);
        }
        self.last = verdicts(all_ok, infected, self.workload);
        self.last
    }
    fn finish(&self) -> [Verdict; 4] {
        self.last
    }
}
