//! Population benchmarks: the `herd` population of `specs/population.hind`
//! over a deterministic workload ([`workload`]), run by the generated monitor,
//! the population interpreter, a hand-written monitor ([`hand`]) and, for 64
//! agents, the generated monitor of the quantifier-free expansion
//! ([`expanded`]); see docs/benchmarks.md, "Populations".

pub mod expanded;
pub mod generated;
pub mod hand;
pub mod past;
pub mod workload;

use hindsight_compiler::interp::PopulationInterpreter;
use hindsight_compiler::ir::PopulationTables;
use hindsight_compiler::Compiled;
use hindsight_runtime::{ResetCounts, Value, Verdict};

use generated::{herd, herd64};
use workload::Workload;

/// The population spec's source.
pub const SPEC: &str = include_str!("../../specs/population.hind");

/// The population spec compiled to tables ([`crate::compile_spec`]).
pub fn compiled() -> Compiled {
    crate::compile_spec("population.hind", SPEC)
}

/// A monitor of the four `herd` properties (`infected_after_exposure`,
/// `few_infected`, `exposure_answered`, `k_infected`) stepping through a workload.
pub trait PopulationMonitor {
    /// Consumes step `t` of its workload; the four verdicts (`Unknown` for a
    /// property the monitor does not compute).
    fn step(&mut self, t: usize) -> [Verdict; 4];
    /// The finite-trace verdicts.
    fn finish(&self) -> [Verdict; 4];
    /// The decided verdicts counted by `with reset` properties (none for a
    /// monitor that computes no such property).
    fn counts(&self) -> [ResetCounts; 4] {
        [ResetCounts::default(); 4]
    }
}

/// Per property, how many steps gave `[true, false, "?"]`.
pub type Tally = [[u64; 3]; 4];

/// Steps `monitor` through steps `0..steps`, tallying its verdicts.
#[inline]
pub fn tally<M: PopulationMonitor>(monitor: &mut M, steps: usize) -> Tally {
    let mut tally = [[0; 3]; 4];
    for t in 0..steps {
        for (row, v) in tally.iter_mut().zip(monitor.step(t)) {
            let k = match v {
                Verdict::True => 0,
                Verdict::False => 1,
                Verdict::Unknown => 2,
            };
            if let Some(c) = row.get_mut(k) {
                *c += 1;
            }
        }
    }
    tally
}

/// The generated monitor for at most `N` agents on a workload.
pub struct Generated<'w, const N: usize> {
    monitor: Box<herd::Monitor<N>>,
    globals: herd::Globals,
    workload: &'w Workload,
}

impl<'w, const N: usize> Generated<'w, N> {
    /// A fresh monitor on `workload`.
    pub fn new(workload: &'w Workload) -> Self {
        Generated {
            monitor: Box::default(),
            globals: herd::Globals {
                limit: workload.limit,
            },
            workload,
        }
    }

    /// Bytes of monitor state per agent: `size_of::<Monitor<N>>() / N`.
    pub const AGENT_BYTES: usize = core::mem::size_of::<herd::Monitor<N>>() / N;
}

impl<const N: usize> PopulationMonitor for Generated<'_, N> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        match self.monitor.step(self.workload.step(t), &self.globals) {
            Ok(v) => v.to_array(),
            Err(_) => [Verdict::Unknown; 4],
        }
    }
    fn finish(&self) -> [Verdict; 4] {
        self.monitor.finish().to_array()
    }
    fn counts(&self) -> [ResetCounts; 4] {
        self.monitor.counts().to_array()
    }
}

/// The hand-written monitor on a workload.
pub struct Hand<'w> {
    monitor: hand::Herd,
    workload: &'w Workload,
}

impl<'w> Hand<'w> {
    /// A fresh monitor on `workload`.
    pub fn new(workload: &'w Workload) -> Self {
        Hand {
            monitor: hand::Herd::default(),
            workload,
        }
    }
}

impl PopulationMonitor for Hand<'_> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        self.monitor
            .step(self.workload.step(t), self.workload.limit)
    }
    fn finish(&self) -> [Verdict; 4] {
        self.monitor.finish()
    }
    fn counts(&self) -> [ResetCounts; 4] {
        self.monitor.counts()
    }
}

/// The population interpreter on a workload's precomputed values
/// ([`Workload::values`]).
pub struct Interpreted<'t> {
    interp: PopulationInterpreter<'t>,
    values: &'t [Value],
    agents: usize,
    globals: [Value; 1],
}

impl<'t> Interpreted<'t> {
    /// A fresh interpreter of `tables` (population `herd`) reading `values`
    /// for `workload`.
    pub fn new(tables: &'t PopulationTables, workload: &Workload, values: &'t [Value]) -> Self {
        Interpreted {
            interp: PopulationInterpreter::new(tables),
            values,
            agents: workload.agents,
            globals: [Value::Int(workload.limit)],
        }
    }
}

/// The first four verdicts of `verdicts` (`Unknown` for missing ones).
fn four(verdicts: &[Verdict]) -> [Verdict; 4] {
    let mut out = [Verdict::Unknown; 4];
    for (o, v) in out.iter_mut().zip(verdicts) {
        *o = *v;
    }
    out
}

impl PopulationMonitor for Interpreted<'_> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        let width = self.agents * 2;
        let start = t.saturating_mul(width);
        let row = self
            .values
            .get(start..start.saturating_add(width))
            .unwrap_or(&[]);
        match self.interp.step(self.agents, row, &self.globals) {
            Ok(v) => four(v),
            Err(_) => [Verdict::Unknown; 4],
        }
    }
    fn finish(&self) -> [Verdict; 4] {
        four(&self.interp.finish())
    }
    fn counts(&self) -> [ResetCounts; 4] {
        let mut out = [ResetCounts::default(); 4];
        for (o, c) in out.iter_mut().zip(self.interp.counts()) {
            *o = c;
        }
        out
    }
}

/// The generated monitor of the quantifier-free expansion for 64 agents on
/// precomputed inputs ([`Expanded::inputs`]): `infected_after_exposure` and
/// `exposure_answered` (the Kleene conjunction of the per-agent properties);
/// `Unknown` for the other two, which it does not express.
pub struct Expanded<'w> {
    monitor: herd64::Monitor,
    inputs: &'w [herd64::Input],
}

impl<'w> Expanded<'w> {
    /// Every step's input of the expanded monitor (agents past 64 ignored).
    pub fn inputs(workload: &Workload) -> Vec<herd64::Input> {
        (0..workload.steps)
            .map(|t| generated::expanded_input(workload.step(t)))
            .collect()
    }

    /// A fresh monitor reading `inputs`.
    pub fn new(inputs: &'w [herd64::Input]) -> Self {
        Expanded {
            monitor: herd64::Monitor::new(),
            inputs,
        }
    }

    /// Bytes of monitor state per agent: `size_of::<herd64::Monitor>() / 64`.
    pub const AGENT_BYTES: usize = core::mem::size_of::<herd64::Monitor>() / expanded::AGENTS;

    /// The two verdicts it expresses, from the expanded monitor's verdicts.
    fn verdicts(v: herd64::Verdicts) -> [Verdict; 4] {
        let all = v.to_array();
        let answered = all.iter().skip(1).fold(Verdict::True, |acc, &v| acc.and(v));
        [
            v.infected_after_exposure,
            Verdict::Unknown,
            answered,
            Verdict::Unknown,
        ]
    }
}

impl PopulationMonitor for Expanded<'_> {
    #[inline]
    fn step(&mut self, t: usize) -> [Verdict; 4] {
        match self.inputs.get(t) {
            Some(input) => Expanded::verdicts(self.monitor.step(input)),
            None => [Verdict::Unknown; 4],
        }
    }
    fn finish(&self) -> [Verdict; 4] {
        Expanded::verdicts(self.monitor.finish())
    }
}
