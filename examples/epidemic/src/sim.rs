//! The simulation: a seeded, deterministic SIR model.
//!
//! Each day every infected agent meets a few random agents; a susceptible
//! agent it meets is infected with some probability (halved during a
//! lockdown). An infected agent recovers after a number of days that grows
//! with its age, and is immune afterwards. A lockdown starts when 20 or more
//! agents are infected and ends when fewer than 10 are.

use crate::epidemic::{Agent, Globals};
use crate::Health;

/// The parameters of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Number of agents.
    pub agents: usize,
    /// Days simulated (steps of the trace).
    pub days: u32,
    /// Seed of the random generator: the same seed gives the same run.
    pub seed: u64,
    /// Agents infected on day 0.
    pub initially_infected: usize,
    /// Agents each infected agent meets per day.
    pub contacts: usize,
    /// Chance in percent that a meeting infects a susceptible agent.
    pub infect_percent: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            agents: 200,
            days: 60,
            seed: 7,
            initially_infected: 3,
            contacts: 2,
            infect_percent: 35,
        }
    }
}

/// Infected agents at which a lockdown starts.
pub const LOCKDOWN_FROM: usize = 20;
/// Infected agents below which a lockdown ends.
pub const LOCKDOWN_UNTIL: usize = 10;

/// A running simulation.
#[derive(Clone, Debug)]
pub struct Simulation {
    config: Config,
    rng: SplitMix64,
    agents: Vec<Agent>,
    /// Per agent: days left until recovery while infected.
    sick_days_left: Vec<u32>,
    globals: Globals,
}

impl Simulation {
    /// Day 0: agents with random sex and age, `initially_infected` of them infected.
    pub fn new(config: Config) -> Self {
        let mut rng = SplitMix64(config.seed);
        let agents: Vec<Agent> = (0..config.agents)
            .map(|_| Agent {
                health: Health::susceptible,
                female: rng.below(2) == 0,
                age: 5 + rng.below(85) as i64,
            })
            .collect();
        let mut sim = Simulation {
            sick_days_left: vec![0; agents.len()],
            agents,
            rng,
            globals: Globals {
                day: 0,
                lockdown: false,
            },
            config,
        };
        for _ in 0..config.initially_infected.min(config.agents) {
            let who = sim.rng.below(config.agents);
            sim.infect(who);
        }
        sim.update_lockdown();
        sim
    }

    /// The agents today.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// The globals today.
    pub fn globals(&self) -> &Globals {
        &self.globals
    }

    /// Number of agents infected today.
    pub fn infected(&self) -> usize {
        self.agents
            .iter()
            .filter(|a| a.health == Health::infected)
            .count()
    }

    /// Simulates one more day; `false` once the configured days are over.
    pub fn advance(&mut self) -> bool {
        if self.globals.day + 1 >= i64::from(self.config.days) {
            return false;
        }
        let spreaders: Vec<usize> = (0..self.agents.len())
            .filter(|&i| self.agents[i].health == Health::infected)
            .collect();
        let percent = if self.globals.lockdown {
            self.config.infect_percent / 2
        } else {
            self.config.infect_percent
        };
        let mut newly = Vec::new();
        for _ in &spreaders {
            for _ in 0..self.config.contacts {
                let met = self.rng.below(self.agents.len());
                if self.agents[met].health == Health::susceptible
                    && self.rng.below(100) < percent as usize
                {
                    newly.push(met);
                }
            }
        }
        for i in spreaders {
            self.sick_days_left[i] -= 1;
            if self.sick_days_left[i] == 0 {
                self.agents[i].health = Health::recovered;
            }
        }
        for i in newly {
            self.infect(i);
        }
        self.globals.day += 1;
        self.update_lockdown();
        true
    }

    fn infect(&mut self, i: usize) {
        if self.agents[i].health == Health::susceptible {
            self.agents[i].health = Health::infected;
            // 4 to 7 days, one more per 20 years of age.
            self.sick_days_left[i] =
                4 + self.rng.below(4) as u32 + (self.agents[i].age / 20) as u32;
        }
    }

    fn update_lockdown(&mut self) {
        let infected = self.infected();
        if infected >= LOCKDOWN_FROM {
            self.globals.lockdown = true;
        } else if infected < LOCKDOWN_UNTIL {
            self.globals.lockdown = false;
        }
    }
}

/// The splitmix64 generator (Steele, Lea and Flood): small and seedable.
#[derive(Clone, Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
