//! The Committer's policy: which branch a choice takes, given its guards.

use crate::review::Committer::Guards;
use hindsight_runtime::Verdict;
use std::fmt;

/// What the Committer does with the proposed candidate at a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// `may_merge` holds: merge, and close the proposal.
    Merge,
    /// `may_merge` does not hold and `failure_seen` does: block, and close the proposal.
    Block,
    /// Neither: the visible reviews do not settle the candidate yet; ask the
    /// Orchestrator to have it reviewed again, and keep the proposal open.
    Rerun,
}

impl Decision {
    /// The decision's name as the transcripts print it.
    pub const fn name(self) -> &'static str {
        match self {
            Decision::Merge => "MERGE",
            Decision::Block => "BLOCK",
            Decision::Rerun => "RE-RUN",
        }
    }

    /// Whether the decision closes the proposal.
    pub const fn is_final(self) -> bool {
        !matches!(self, Decision::Rerun)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Merge if `may_merge` is true, else block if `failure_seen` is true, else re-run.
pub fn decide(guards: Guards) -> Decision {
    if guards.may_merge == Verdict::True {
        Decision::Merge
    } else if guards.failure_seen == Verdict::True {
        Decision::Block
    } else {
        Decision::Rerun
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::{False as F, True as T, Unknown as U};

    fn guards(may_merge: Verdict, failure_seen: Verdict) -> Guards {
        Guards {
            may_merge,
            failure_seen,
        }
    }

    #[test]
    fn merge_wins_then_block_then_rerun() {
        assert_eq!(decide(guards(T, F)), Decision::Merge);
        assert_eq!(decide(guards(T, T)), Decision::Merge);
        assert_eq!(decide(guards(F, T)), Decision::Block);
        assert_eq!(decide(guards(F, F)), Decision::Rerun);
        assert_eq!(decide(guards(U, U)), Decision::Rerun);
    }
}
