//! The `herd` properties written by hand, as a competent engineer would: one
//! small state record per agent in a `Vec`, one branch-free pass over the
//! agents per step, the k-of-n verdict from a running count.

use hindsight_runtime::{ResetCounts, Verdict};

use super::generated::herd::Agent;

/// The `atleast` threshold of `k_infected`.
pub const K: u64 = 32;
/// The window of `infected_after_exposure`: exposed within the last `WINDOW`
/// steps (`O[0,9]`).
const WINDOW: u8 = 10;

/// One agent's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentState {
    /// Steps since the agent was last exposed, saturating at `WINDOW`
    /// (`WINDOW`: not within the window, or never).
    since_exposed: u8,
    /// An exposure not yet followed by an infection (`G (exposed -> F infected)`).
    pending: bool,
    /// Infected since `k_infected`'s run started (`F infected` is true).
    hit: bool,
}

impl Default for AgentState {
    fn default() -> Self {
        AgentState {
            since_exposed: WINDOW,
            pending: false,
            hit: false,
        }
    }
}

/// The four properties of `herd` over any number of agents.
#[derive(Clone, Debug)]
pub struct Herd {
    /// Per agent; its length is fixed by the first step.
    agents: Vec<AgentState>,
    /// Whether a step has been taken.
    started: bool,
    /// Agents with `hit` set.
    hits: u64,
    /// `k_infected`'s run restarted after the last step.
    fresh: bool,
    /// `k_infected`'s decided verdicts.
    counts: ResetCounts,
    /// The last step's verdicts.
    last: [Verdict; 4],
}

impl Default for Herd {
    fn default() -> Self {
        Herd {
            agents: Vec::new(),
            started: false,
            hits: 0,
            fresh: false,
            counts: ResetCounts::default(),
            last: [Verdict::Unknown; 4],
        }
    }
}

impl Herd {
    /// One step over `agents` (the first step fixes their number; later steps
    /// with another number read only the first agents) and the global `limit`;
    /// the verdicts of `infected_after_exposure`, `few_infected`,
    /// `exposure_answered`, `k_infected`.
    #[inline]
    pub fn step(&mut self, agents: &[Agent], limit: i64) -> [Verdict; 4] {
        if !self.started {
            self.agents = vec![AgentState::default(); agents.len()];
            self.started = true;
        }
        let mut all_ok = true;
        let mut infected = 0u64;
        let mut hits = self.hits;
        for (a, s) in agents.iter().zip(self.agents.iter_mut()) {
            s.since_exposed = if a.exposed {
                0
            } else {
                (s.since_exposed + 1).min(WINDOW)
            };
            all_ok &= !a.infected | (s.since_exposed < WINDOW);
            infected += u64::from(a.infected);
            s.pending = (s.pending | a.exposed) & !a.infected;
            hits += u64::from(a.infected & !s.hit);
            s.hit |= a.infected;
        }
        let members = self.agents.len() as u64;
        // `forall` of a body whose LTL3 verdict is always "?": "?" unless empty.
        let answered = if members == 0 {
            Verdict::True
        } else {
            Verdict::Unknown
        };
        // `F infected` is never false before the end: true at `K` hits, false
        // only if there are fewer than `K` members.
        let k_infected = if hits >= K {
            Verdict::True
        } else if members < K {
            Verdict::False
        } else {
            Verdict::Unknown
        };
        self.fresh = k_infected != Verdict::Unknown;
        if self.fresh {
            self.counts.record(k_infected);
            self.agents.iter_mut().for_each(|s| s.hit = false);
            hits = 0;
        }
        self.hits = hits;
        self.last = [
            Verdict::from(all_ok),
            Verdict::from(infected as i128 <= i128::from(limit)),
            answered,
            k_infected,
        ];
        self.last
    }

    /// The finite-trace verdicts (all `Unknown` before the first step).
    pub fn finish(&self) -> [Verdict; 4] {
        if !self.started {
            return [Verdict::Unknown; 4];
        }
        let answered = Verdict::from(self.agents.iter().all(|s| !s.pending));
        let k_infected = if self.fresh {
            self.last[3]
        } else {
            Verdict::from(self.hits >= K)
        };
        [self.last[0], self.last[1], answered, k_infected]
    }

    /// The decided verdicts of `k_infected` including its unfinished run's end
    /// verdict; zero for the other properties.
    pub fn counts(&self) -> [ResetCounts; 4] {
        let mut k = self.counts;
        if self.started && !self.fresh {
            k.record(self.finish()[3]);
        }
        [
            ResetCounts::default(),
            ResetCounts::default(),
            ResetCounts::default(),
            k,
        ]
    }

    /// Bytes of state per agent (the `Vec`'s elements).
    pub const AGENT_BYTES: usize = core::mem::size_of::<AgentState>();
}
