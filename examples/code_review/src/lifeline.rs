//! The four participants of the workflow, in the spec's declaration order.

use std::fmt;

/// A lifeline of `system review`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lifeline {
    /// Proposes candidates to the reviewers and the Committer.
    Orchestrator,
    /// Runs the test suite on the assigned candidate.
    TestRunner,
    /// Scans the assigned candidate for vulnerabilities.
    Security,
    /// Decides whether the proposed candidate may be merged.
    Committer,
}

impl Lifeline {
    /// Every lifeline, in declaration (and clock) order.
    pub const ALL: [Lifeline; 4] = [
        Lifeline::Orchestrator,
        Lifeline::TestRunner,
        Lifeline::Security,
        Lifeline::Committer,
    ];

    /// The lifeline's index in the spec (its clock component).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lifeline's name in the spec.
    pub const fn name(self) -> &'static str {
        match self {
            Lifeline::Orchestrator => "Orchestrator",
            Lifeline::TestRunner => "TestRunner",
            Lifeline::Security => "Security",
            Lifeline::Committer => "Committer",
        }
    }
}

impl fmt::Display for Lifeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the two reviewers (the members of `group Reviewers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reviewer {
    /// The TestRunner.
    TestRunner,
    /// The Security scanner.
    Security,
}

impl Reviewer {
    /// Both reviewers, in the group's order.
    pub const ALL: [Reviewer; 2] = [Reviewer::TestRunner, Reviewer::Security];

    /// The reviewer's lifeline.
    pub const fn lifeline(self) -> Lifeline {
        match self {
            Reviewer::TestRunner => Lifeline::TestRunner,
            Reviewer::Security => Lifeline::Security,
        }
    }
}
