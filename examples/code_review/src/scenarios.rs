//! The paper's Figure 2 and its variants as scripts: every step is its own
//! round, and `Deliver(k)` releases message `k` (messages are numbered in
//! the order they are sent; the numbers in each script were worked out by
//! hand from the steps before it).

use crate::actors::OrchestratorTask::{Assign, Propose};
use crate::lifeline::Reviewer::{Security, TestRunner};
use crate::network::Step::{Check, Damage, Deliver, Orchestrate};
use crate::network::{Log, Network, RunError, Step};
use crate::Status::{cleared, failed, passed};

/// A scripted run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// A short identifier.
    pub name: &'static str,
    /// What it shows.
    pub story: &'static str,
    /// The script.
    pub steps: Vec<Step>,
}

impl Scenario {
    /// Runs the script on fresh actors, one step per round.
    pub fn run(&self) -> Result<Log, RunError> {
        let mut network = Network::start();
        for &step in &self.steps {
            network.round(&[step])?;
        }
        Ok(network.finish())
    }
}

/// The steps shared by Figure 2 and its failure-first variant: candidate 7 is
/// assigned (m0, m1), passes the tests (report m2) and clears security (m3),
/// both reports reach the Committer, then a regression is found (m4).
fn figure2_prefix() -> Vec<Step> {
    vec![
        Orchestrate(Assign(7)), // m0 → TestRunner, m1 → Security
        Deliver(0),
        Deliver(1),
        Check(TestRunner, passed), // m2
        Check(Security, cleared),  // m3
        Deliver(2),
        Deliver(3),
        Check(TestRunner, failed), // m4
    ]
}

/// Figure 2: the failure report m4 is still in transit when the proposal
/// arrives. Decision: MERGE.
pub fn figure2() -> Scenario {
    let mut steps = figure2_prefix();
    steps.extend([Orchestrate(Propose), Deliver(5)]); // proposal m5
    Scenario {
        name: "figure2",
        story: "Figure 2: the pass and the clearance reached the Committer; the \
                regression report is still in transit when the proposal arrives",
        steps,
    }
}

/// Figure 2 with the failure report delivered before the proposal. Decision: BLOCK.
pub fn failure_delivered_first() -> Scenario {
    let mut steps = figure2_prefix();
    steps.extend([Deliver(4), Orchestrate(Propose), Deliver(5)]);
    Scenario {
        name: "failure-first",
        story: "Figure 2, but the regression report reaches the Committer before the proposal",
        steps,
    }
}

/// The TestRunner passes candidate 6 (m2), then candidate 7 (m5); the report
/// for 6 reaches the Committer last. The causally latest TestRunner state is
/// still the one for 7. Decision: MERGE.
pub fn stale_report() -> Scenario {
    Scenario {
        name: "stale-report",
        story: "the pass report for candidate 6, sent before the one for 7, reaches \
                the Committer last; the latest TestRunner state it can see is still the pass for 7",
        steps: vec![
            Orchestrate(Assign(6)), // m0 → TestRunner, m1 → Security (never delivered)
            Deliver(0),
            Check(TestRunner, passed), // m2: 6 passed
            Orchestrate(Assign(7)),    // m3 → TestRunner, m4 → Security
            Deliver(3),
            Check(TestRunner, passed), // m5: 7 passed
            Deliver(4),
            Check(Security, cleared), // m6
            Deliver(5),
            Deliver(6),
            Deliver(2),           // the stale report arrives last
            Orchestrate(Propose), // m7
            Deliver(7),
        ],
    }
}

/// The only test report the Committer has seen is for candidate 6, the
/// proposal is for 7: RE-RUN (m7 to the Orchestrator), which re-assigns 7
/// (m8, m9); the TestRunner passes it (m10), and at that report: MERGE.
pub fn wrong_candidate() -> Scenario {
    Scenario {
        name: "wrong-candidate",
        story: "the visible test pass concerns candidate 6 while 7 is proposed; the \
                Committer asks for a re-run and merges once the pass for 7 is visible",
        steps: vec![
            Orchestrate(Assign(6)), // m0 → TestRunner, m1 → Security (never delivered)
            Deliver(0),
            Check(TestRunner, passed), // m2: 6 passed
            Orchestrate(Assign(7)),    // m3 → TestRunner (never delivered), m4 → Security
            Deliver(4),
            Check(Security, cleared), // m5
            Deliver(2),
            Deliver(5),
            Orchestrate(Propose), // m6
            Deliver(6),           // choice: RE-RUN, m7 → Orchestrator
            Deliver(7),           // re-assigns 7: m8 → TestRunner, m9 → Security
            Deliver(8),
            Check(TestRunner, passed), // m10
            Deliver(10),               // choice: MERGE, m11
        ],
    }
}

/// The pass report's stamp is damaged in transit: the Committer rejects the
/// message, so no TestRunner state is visible at the proposal. Decision: RE-RUN.
pub fn damaged_stamp() -> Scenario {
    Scenario {
        name: "damaged-stamp",
        story: "the pass report's stamp is damaged in transit; the Committer rejects \
                the message instead of merging its contents",
        steps: vec![
            Orchestrate(Assign(7)), // m0, m1
            Deliver(0),
            Deliver(1),
            Check(TestRunner, passed), // m2
            Check(Security, cleared),  // m3
            Damage(2),
            Deliver(2), // rejected
            Deliver(3),
            Orchestrate(Propose), // m4
            Deliver(4),
        ],
    }
}

/// Every scenario, in the order `cargo run` shows them.
pub fn all() -> Vec<Scenario> {
    vec![
        figure2(),
        failure_delivered_first(),
        stale_report(),
        wrong_candidate(),
        damaged_stamp(),
    ]
}
