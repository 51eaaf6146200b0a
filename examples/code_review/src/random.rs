//! A randomized run: a seeded program (which candidates, which check
//! outcomes) and a seeded schedule (each round releases one to three of the
//! enabled steps, in random order: any message in transit, the
//! Orchestrator's next task, a reviewer's next check once it has a
//! candidate). The same seed always gives the same run.

use crate::actors::OrchestratorTask::{self, Assign, Propose};
use crate::event::EventKind;
use crate::lifeline::Reviewer;
use crate::network::{Log, Network, RunError, Step};
use crate::Status;
use std::collections::VecDeque;
use std::fmt;

/// Rounds after which a run stops even if steps remain enabled (runs end far
/// sooner: every message is delivered at most once and the scripts are finite).
const MAX_ROUNDS: usize = 1_000;

/// The splitmix64 generator (Steele, Lea and Flood): small, seedable, enough for schedules.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).unwrap_or(u64::MAX);
        usize::try_from(self.next_u64().checked_rem(n).unwrap_or(0)).unwrap_or(0)
    }
}

/// What the actors are scripted to do in a randomized run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The Orchestrator's tasks: maybe an older candidate 6, then 7, then the proposal.
    pub orchestrator: Vec<OrchestratorTask>,
    /// The TestRunner's check outcomes (`passed` / `failed`), one to three.
    pub test_runner: Vec<Status>,
    /// The Security scanner's outcomes (`cleared` / `critical`), one or two.
    pub security: Vec<Status>,
}

impl Program {
    /// A program drawn from `rng`.
    pub fn random(rng: &mut SplitMix64) -> Program {
        let mut orchestrator = Vec::new();
        if rng.below(2) == 0 {
            orchestrator.push(Assign(6));
        }
        orchestrator.extend([Assign(7), Propose]);
        let mut outcomes = |max: usize, good: Status, bad: Status| -> Vec<Status> {
            let n = 1 + rng.below(max);
            (0..n)
                .map(|_| if rng.below(3) == 0 { bad } else { good })
                .collect()
        };
        let test_runner = outcomes(3, Status::passed, Status::failed);
        let security = outcomes(2, Status::cleared, Status::critical);
        Program {
            orchestrator,
            test_runner,
            security,
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tasks: Vec<String> = self
            .orchestrator
            .iter()
            .map(|task| match task {
                Assign(cand) => format!("assign {cand}"),
                Propose => "propose".into(),
            })
            .collect();
        let outcomes = |list: &[Status]| -> String {
            let names: Vec<String> = list.iter().map(|s| format!("{s:?}")).collect();
            names.join(", ")
        };
        write!(
            f,
            "Orchestrator: {}; TestRunner: {}; Security: {}",
            tasks.join(", "),
            outcomes(&self.test_runner),
            outcomes(&self.security)
        )
    }
}

/// The program and the record of the run for `seed`.
pub fn run(seed: u64) -> Result<(Program, Log), RunError> {
    let mut rng = SplitMix64::new(seed);
    let program = Program::random(&mut rng);
    let mut orchestrator: VecDeque<_> = program.orchestrator.iter().copied().collect();
    let mut checks: [(Reviewer, VecDeque<Status>); 2] = [
        (
            Reviewer::TestRunner,
            program.test_runner.iter().copied().collect(),
        ),
        (
            Reviewer::Security,
            program.security.iter().copied().collect(),
        ),
    ];
    let mut network = Network::start();
    for _ in 0..MAX_ROUNDS {
        let mut enabled: Vec<Step> = network
            .in_transit()
            .keys()
            .map(|&m| Step::Deliver(m))
            .collect();
        enabled.extend(orchestrator.front().map(|&task| Step::Orchestrate(task)));
        for (reviewer, queue) in &checks {
            if has_candidate(network.log(), *reviewer) {
                enabled.extend(
                    queue
                        .front()
                        .map(|&outcome| Step::Check(*reviewer, outcome)),
                );
            }
        }
        if enabled.is_empty() {
            break;
        }
        let size = 1 + rng.below(enabled.len().min(3));
        let round: Vec<Step> = (0..size)
            .map(|_| enabled.swap_remove(rng.below(enabled.len())))
            .collect();
        for step in &round {
            match step {
                Step::Orchestrate(_) => {
                    orchestrator.pop_front();
                }
                Step::Check(reviewer, _) => {
                    for (_, queue) in checks.iter_mut().filter(|(r, _)| r == reviewer) {
                        queue.pop_front();
                    }
                }
                Step::Deliver(_) | Step::Damage(_) => {}
            }
        }
        network.round(&round)?;
    }
    Ok((program, network.finish()))
}

/// Whether `reviewer` has received a message (only assignments are sent to reviewers).
fn has_candidate(log: &Log, reviewer: Reviewer) -> bool {
    log.events
        .iter()
        .any(|e| e.lifeline == reviewer.lifeline() && matches!(e.kind, EventKind::Recv { .. }))
}
