//! Randomized runs: at every Committer choice, the generated monitors'
//! guards equal the CPL reference semantics over the recorded execution (the
//! paper's Theorem 5.1 on real concurrent actors), and a seed always gives
//! the same run.

use crate::common;

use code_review::policy::Decision;
use code_review::random;
use std::collections::HashSet;

const SEEDS: std::ops::Range<u64> = 0..40;

#[test]
fn guards_equal_the_reference_at_every_choice() {
    let mut compared = 0;
    let mut decisions = HashSet::new();
    for seed in SEEDS {
        let (_, log) = random::run(seed).expect("the run completes");
        compared += common::assert_guards_match_oracle(&log);
        decisions.extend(code_review::transcript::decisions(&log));
    }
    assert!(compared >= 40, "only {compared} choices compared");
    for d in [Decision::Merge, Decision::Block, Decision::Rerun] {
        assert!(decisions.contains(d.name()), "no run decided {d}");
    }
}

#[test]
fn a_seed_gives_the_same_run_every_time() {
    for seed in 0..5 {
        let first = random::run(seed).expect("runs");
        assert_eq!(random::run(seed).expect("runs"), first);
    }
}
