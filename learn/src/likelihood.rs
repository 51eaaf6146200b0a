//! Run likelihood under the learned MDP and the one-sided low-likelihood
//! rule of TriCEGAR's Appendix C.
//!
//! A run's log-likelihood is `ℓ(ρ) = Σ log P(a_i, s_{i+1} | s_i)` over its
//! abstract path, where `P(a, s' | s) = C(s, a, s') / Σ_b C(s, b)`: the
//! chance of the action as the runs chose it in `s`, times the paper's
//! `P(s, a, s')`. The paper's product of `P(s, a, s')` alone leaves the
//! choice of the action out, so a run that does one unusual thing over and
//! over (25 edits, each certain to stay in the editing state) would score
//! 0, the most likely run there is; the action is what the tree learned to
//! predict, and it is what makes such a run unlikely. Offline the path
//! includes the final `end` transition (a run that stops where runs rarely
//! stop is unlikely too, which catches runs that are too short). From the training runs: the mean and sample
//! deviation of `ℓ`; a run is anomalous when `ℓ < μ - z·σ`.
//!
//! Online, `ℓ` of a prefix shrinks as the run grows, so statistics are kept
//! per checkpoint `k` (every `every` steps): `μ_k`, `σ_k` of `ℓ_k`, the
//! log-likelihood of the first `k` steps, over the training runs at least
//! `k` steps long; at step `k` the current run is anomalous when `ℓ_k <
//! μ_k - z·σ_k`. A transition never observed has probability 0: `ℓ` is
//! `-∞` and the run is anomalous at once.

use serde::{Deserialize, Serialize};

/// Mean and sample deviation of some runs' log-likelihoods.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// How many runs.
    pub runs: u64,
    /// Their mean log-likelihood.
    pub mean: f64,
    /// The sample standard deviation (`n - 1` in the denominator; 0 for
    /// fewer than two runs).
    pub sd: f64,
}

impl Stats {
    /// The statistics of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Stats {
        // Welford's update: stable for long lists of similar values.
        let (mut n, mut mean, mut m2) = (0u64, 0.0f64, 0.0f64);
        for x in values {
            n += 1;
            let delta = x - mean;
            mean += delta / n as f64;
            m2 += delta * (x - mean);
        }
        let sd = if n > 1 {
            (m2 / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Stats { runs: n, mean, sd }
    }

    /// The lowest log-likelihood not flagged: `μ - z·σ` (needs two runs;
    /// `None` with fewer).
    pub fn threshold(&self, z: f64) -> Option<f64> {
        (self.runs > 1).then_some(self.mean - z * self.sd)
    }
}

/// The statistics at one checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The step count `k`.
    pub step: u64,
    /// `μ_k`, `σ_k` over the training runs at least `k` steps long.
    #[serde(flatten)]
    pub stats: Stats,
}

/// What the model knows of its training runs' likelihoods.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Likelihood {
    /// `z` of the rule (`z_{1-α}`).
    pub z: f64,
    /// Whole runs, `end` included.
    pub runs: Stats,
    /// The checkpoints' spacing in steps.
    pub every: u64,
    /// Per checkpoint `every, 2·every, …`, up to the longest training run.
    pub checkpoints: Vec<Checkpoint>,
}

impl Likelihood {
    /// The statistics of training runs given per run the log-probability of
    /// each transition (`end` last), checkpoints every `every` steps.
    pub fn learn(paths: &[Vec<f64>], z: f64, every: u64) -> Likelihood {
        let runs = Stats::of(paths.iter().map(|p| p.iter().sum::<f64>()));
        let every = every.max(1);
        let longest = paths
            .iter()
            .map(|p| p.len().saturating_sub(1))
            .max()
            .unwrap_or(0) as u64;
        let checkpoints = (1..=longest / every)
            .map(|i| {
                let k = i * every;
                let prefixes = paths
                    .iter()
                    .filter(|p| p.len().saturating_sub(1) as u64 >= k)
                    .map(|p| p.iter().take(k as usize).sum::<f64>());
                Checkpoint {
                    step: k,
                    stats: Stats::of(prefixes),
                }
            })
            .collect();
        Likelihood {
            z,
            runs,
            every,
            checkpoints,
        }
    }

    /// Whether a finished run of log-likelihood `ll` is anomalous.
    pub fn run_is_anomalous(&self, ll: f64) -> bool {
        ll == f64::NEG_INFINITY || self.runs.threshold(self.z).is_some_and(|t| ll < t)
    }

    /// The checkpoint at step `k`, if there is one.
    pub fn checkpoint(&self, k: u64) -> Option<&Checkpoint> {
        if k == 0 || !k.is_multiple_of(self.every) {
            return None;
        }
        self.checkpoints.get((k / self.every) as usize - 1)
    }

    /// Whether a run whose first `k` steps have log-likelihood `ll` is
    /// anomalous at step `k`: `-∞`, or below the threshold of checkpoint
    /// `k` (only at checkpoints with two runs or more).
    pub fn prefix_is_anomalous(&self, k: u64, ll: f64) -> bool {
        ll == f64::NEG_INFINITY
            || self
                .checkpoint(k)
                .and_then(|c| c.stats.threshold(self.z))
                .is_some_and(|t| ll < t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean and sample deviation by hand: [1, 2, 3, 4] has mean 2.5 and
    /// sd sqrt(5/3).
    #[test]
    fn stats_by_hand() {
        let s = Stats::of([1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.runs, 4);
        assert!((s.mean - 2.5).abs() < 1e-12);
        assert!((s.sd - (5.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(Stats::of([7.0]).threshold(2.0), None);
    }

    /// Checkpoints count only runs long enough, over their first k steps.
    #[test]
    fn checkpoints_by_hand() {
        // Three runs: 2, 3 and 4 steps (plus end), each step log 0.5.
        let h = 0.5f64.ln();
        let paths: Vec<Vec<f64>> = [2, 3, 4].iter().map(|&n| vec![h; n + 1]).collect();
        let l = Likelihood::learn(&paths, 2.0, 2);
        assert_eq!(l.checkpoints.len(), 2);
        assert_eq!(l.checkpoints[0].step, 2);
        assert_eq!(l.checkpoints[0].stats.runs, 3);
        assert!((l.checkpoints[0].stats.mean - 2.0 * h).abs() < 1e-12);
        assert_eq!(l.checkpoints[1].stats.runs, 1);
        assert!(l.checkpoint(3).is_none());
        assert!(l.prefix_is_anomalous(1, f64::NEG_INFINITY));
        assert!(!l.prefix_is_anomalous(2, 2.0 * h));
        assert!(l.run_is_anomalous(10.0 * h));
    }
}
