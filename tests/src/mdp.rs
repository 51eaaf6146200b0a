//! An oracle for reachability in MDPs: the exact `Pmax`/`Pmin` of reaching
//! a set, as the best over every memoryless deterministic scheduler (which
//! attain both optima for reachability), each scheduler's Markov chain
//! solved as a linear system by Gaussian elimination. Exponential in the
//! states, obviously correct: for small MDPs only.

use hindsight_learn::bounds::Objective;
use hindsight_learn::mdp::{Choice, Mdp};

/// The exact `Pmax`/`Pmin` of reaching `target` from every state: the best
/// over all memoryless deterministic schedulers (which attain both optima
/// for reachability), each a Markov chain solved exactly.
pub fn exact(mdp: &Mdp, target: &[bool], objective: Objective) -> Vec<f64> {
    let n = mdp.states;
    let options: Vec<&[Choice]> = (0..n).map(|s| mdp.choices_of(s)).collect();
    let mut pick = vec![0usize; n];
    let mut best: Option<Vec<f64>> = None;
    loop {
        let values = solve_chain(n, target, |s| {
            options[s].get(pick[s]).map(|c| {
                c.to.iter()
                    .map(|&(t, k)| (t, k as f64 / c.count as f64))
                    .collect()
            })
        });
        best = Some(match best {
            None => values,
            Some(b) => b
                .iter()
                .zip(&values)
                .map(|(&x, &y)| match objective {
                    Objective::Max => x.max(y),
                    Objective::Min => x.min(y),
                })
                .collect(),
        });
        // Next scheduler (odometer over the states' choices).
        let mut s = 0;
        loop {
            if s == n {
                return best.unwrap_or_default();
            }
            pick[s] += 1;
            if pick[s] < options[s].len() {
                break;
            }
            pick[s] = 0;
            s += 1;
        }
    }
}

/// Reachability in the Markov chain `step` gives (`None`: absorbing),
/// targets absorbing: 0 where the target is unreachable, else the unique
/// solution of `x = P x` with targets at 1.
pub fn solve_chain(
    n: usize,
    target: &[bool],
    step: impl Fn(usize) -> Option<Vec<(usize, f64)>>,
) -> Vec<f64> {
    let rows: Vec<Option<Vec<(usize, f64)>>> = (0..n)
        .map(|s| if target[s] { None } else { step(s) })
        .collect();
    let mut reaches = target.to_vec();
    loop {
        let mut changed = false;
        for s in 0..n {
            if !reaches[s] {
                if let Some(row) = &rows[s] {
                    if row.iter().any(|&(t, p)| p > 0.0 && reaches[t]) {
                        reaches[s] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let unknown: Vec<usize> = (0..n).filter(|&s| reaches[s] && !target[s]).collect();
    let index = |s: usize| unknown.iter().position(|&u| u == s);
    let m = unknown.len();
    let mut a = vec![vec![0.0; m + 1]; m];
    for (i, &s) in unknown.iter().enumerate() {
        a[i][i] += 1.0;
        for &(t, p) in rows[s].as_deref().unwrap_or_default() {
            if target[t] {
                a[i][m] += p;
            } else if let Some(j) = index(t) {
                a[i][j] -= p;
            }
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let d = a[col][col];
        for x in &mut a[col][col..] {
            *x /= d;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[col];
            if r != col && f != 0.0 {
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..n)
        .map(|s| {
            if target[s] {
                1.0
            } else {
                index(s).map_or(0.0, |i| a[i][m])
            }
        })
        .collect()
}
