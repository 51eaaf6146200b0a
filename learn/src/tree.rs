//! The predicate tree: a decision tree over the concrete state whose leaves
//! are the abstract states, grown greedily by information gain on the next
//! action (ID3, as in TriCEGAR section 4.1.3).
//!
//! Goals come first: the top levels split on each goal in declaration
//! order, whatever their gain, so every leaf decides every goal (a leaf's
//! goal labels are exact, not a majority). Then the atoms of the predicted
//! properties, each where both of its values occur among the node's
//! samples (so every visited leaf decides every atom). Below them the tree
//! grows best split first: the open leaf whose best predicate gains most is
//! split next, until no split gains `min_gain` bits, a leaf is `max_depth`
//! splits below the forced ones, or the tree has `max_leaves` leaves (not
//! counting the extra leaves the forced splits made: `max_leaves - 1`
//! splits are grown at most).
//!
//! Candidate predicates by feature type: `x` for a bool; `x == V` for each
//! variant of an enum; `x > θ` for ints and floats, θ the midpoint between
//! two neighbouring values observed at the node (every such threshold is
//! tried, by one sweep over the values in order).

use crate::features::{Feature, FeatureType};
use serde::{Deserialize, Serialize};

/// A test on one feature.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Test {
    /// A bool feature is true.
    Is,
    /// A number is greater than the threshold.
    Above(f64),
    /// An enum feature is this variant (its index).
    Equals(u32),
}

/// A predicate of the tree: a test of one feature.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Predicate {
    /// The feature's index.
    pub feature: usize,
    /// The test.
    pub test: Test,
}

impl Predicate {
    /// Whether the predicate holds of a concrete state's feature values.
    #[inline]
    pub fn holds(&self, row: &[f64]) -> bool {
        let x = row.get(self.feature).copied().unwrap_or(0.0);
        match self.test {
            Test::Is => x > 0.5,
            Test::Above(theta) => x > theta,
            Test::Equals(v) => x == f64::from(v),
        }
    }

    /// The predicate as written in the spec's terms (`tests_passed`,
    /// `edits > 2`, `tool == Test`).
    pub fn text(&self, features: &[Feature]) -> String {
        let Some(f) = features.get(self.feature) else {
            return format!("feature {}", self.feature);
        };
        match (&self.test, &f.ty) {
            (Test::Is, _) => f.name.clone(),
            (Test::Above(theta), FeatureType::Int) => format!("{} > {}", f.name, theta.floor()),
            (Test::Above(theta), _) => format!("{} > {theta}", f.name),
            (Test::Equals(v), FeatureType::Enum { variants, .. }) => {
                let variant = variants.get(*v as usize).map_or("?", String::as_str);
                format!("{} == {variant}", f.name)
            }
            (Test::Equals(v), _) => format!("{} == {v}", f.name),
        }
    }
}

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Node {
    /// An inner node: where to go when its predicate is false or true.
    Split {
        /// The predicate.
        predicate: Predicate,
        /// The child when it is false.
        #[serde(rename = "false")]
        if_false: usize,
        /// The child when it is true.
        #[serde(rename = "true")]
        if_true: usize,
    },
    /// A leaf: an abstract state, numbered from 0 in the order leaves were made.
    Leaf(usize),
}

/// A predicate tree; node 0 is the root, and every child's index is
/// greater than its parent's (so a walk from the root ends).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    /// The nodes.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// The leaf a concrete state falls into (its abstract state); `None`
    /// only for a malformed tree.
    #[inline]
    pub fn leaf(&self, row: &[f64]) -> Option<usize> {
        let mut at = 0;
        loop {
            match self.nodes.get(at)? {
                Node::Leaf(k) => return Some(*k),
                Node::Split {
                    predicate,
                    if_false,
                    if_true,
                } => {
                    let next = if predicate.holds(row) {
                        *if_true
                    } else {
                        *if_false
                    };
                    if next <= at {
                        return None;
                    }
                    at = next;
                }
            }
        }
    }

    /// Splits leaf `leaf` on `predicate`: its concrete states where the
    /// predicate is false stay leaf `leaf`, the others become a new leaf,
    /// numbered after every other; the new leaf's number (`None` if there
    /// is no such leaf).
    pub fn split_leaf(&mut self, leaf: usize, predicate: Predicate) -> Option<usize> {
        let at = self
            .nodes
            .iter()
            .position(|n| matches!(n, Node::Leaf(k) if *k == leaf))?;
        let fresh = self.leaves();
        let if_false = self.nodes.len();
        self.nodes.push(Node::Leaf(leaf));
        let if_true = self.nodes.len();
        self.nodes.push(Node::Leaf(fresh));
        if let Some(n) = self.nodes.get_mut(at) {
            *n = Node::Split {
                predicate,
                if_false,
                if_true,
            };
        }
        Some(fresh)
    }

    /// How many leaves it has.
    pub fn leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf(_)))
            .count()
    }

    /// Per leaf, the predicates on its path from the root and their outcomes.
    pub fn paths(&self) -> Vec<Vec<(Predicate, bool)>> {
        let mut paths = vec![Vec::new(); self.leaves()];
        let mut stack = vec![(0usize, Vec::new())];
        while let Some((at, path)) = stack.pop() {
            match self.nodes.get(at) {
                Some(Node::Leaf(k)) => {
                    if let Some(slot) = paths.get_mut(*k) {
                        *slot = path;
                    }
                }
                Some(Node::Split {
                    predicate,
                    if_false,
                    if_true,
                }) if *if_false > at && *if_true > at => {
                    let mut f = path.clone();
                    f.push((*predicate, false));
                    let mut t = path;
                    t.push((*predicate, true));
                    stack.push((*if_true, t));
                    stack.push((*if_false, f));
                }
                _ => {}
            }
        }
        paths
    }

    /// Whether every split's children come after it and every leaf number
    /// below [`Tree::leaves`] appears exactly once.
    pub fn is_well_formed(&self, features: usize) -> bool {
        let leaves = self.leaves();
        let mut seen = vec![false; leaves];
        for (at, node) in self.nodes.iter().enumerate() {
            match node {
                Node::Leaf(k) => match seen.get_mut(*k) {
                    Some(s) if !*s => *s = true,
                    _ => return false,
                },
                Node::Split {
                    predicate,
                    if_false,
                    if_true,
                } => {
                    let in_range = |c: usize| c > at && c < self.nodes.len();
                    if !in_range(*if_false) || !in_range(*if_true) || predicate.feature >= features
                    {
                        return false;
                    }
                }
            }
        }
        !self.nodes.is_empty()
    }
}

/// How far the tree grows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    /// The least information gain (bits) a split must bring.
    pub min_gain: f64,
    /// The most splits on a path below the goals.
    pub max_depth: usize,
    /// The most leaves, beyond the extra ones the forced splits make.
    pub max_leaves: usize,
}

impl Default for Growth {
    fn default() -> Self {
        Growth {
            min_gain: 0.01,
            max_depth: 8,
            max_leaves: 32,
        }
    }
}

/// The training samples: per concrete state its feature values (`width`
/// of them, row after row) and the next action (a label below `labels`).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// Values per row.
    pub width: usize,
    /// The rows.
    pub values: Vec<f64>,
    /// The label of each row.
    pub labels: Vec<u32>,
    /// How many labels there are.
    pub n_labels: usize,
}

impl Samples {
    /// The feature values of sample `i`.
    pub(crate) fn row(&self, i: u32) -> &[f64] {
        let i = i as usize;
        self.values
            .get(i * self.width..(i + 1) * self.width)
            .unwrap_or_default()
    }

    fn value(&self, i: u32, feature: usize) -> f64 {
        self.values
            .get(i as usize * self.width + feature)
            .copied()
            .unwrap_or(0.0)
    }
}

/// A leaf still open for splitting.
struct Open {
    node: usize,
    samples: Vec<u32>,
    depth: usize,
    best: Option<(f64, Predicate)>,
}

/// Grows the tree over `samples` described by `features`; the features at
/// `goals`, then those at `atoms`, are split on first.
pub fn grow(
    samples: &Samples,
    features: &[Feature],
    goals: &[usize],
    atoms: &[usize],
    growth: Growth,
) -> Tree {
    let mut tree = Tree::default();
    let all: Vec<u32> = (0..samples.labels.len() as u32).collect();
    let mut open = Vec::new();
    split_goals(&mut tree, samples, goals, atoms, all, &mut open);
    let forced: Vec<usize> = goals.iter().chain(atoms).copied().collect();
    let goals = forced.as_slice();
    for o in &mut open {
        o.best = best_split(samples, features, goals, &o.samples);
    }
    let forced_leaves = tree.leaves();
    loop {
        let leaves = tree.leaves();
        if leaves >= forced_leaves + growth.max_leaves.max(1) - 1 {
            break;
        }
        let pick = open
            .iter()
            .enumerate()
            .filter(|(_, o)| o.depth < growth.max_depth)
            .filter_map(|(i, o)| o.best.map(|(gain, _)| (i, gain)))
            .filter(|&(_, gain)| gain >= growth.min_gain && gain > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        let Some((i, _)) = pick else {
            break;
        };
        let o = open.swap_remove(i);
        let Some((_, predicate)) = o.best else {
            continue;
        };
        let (yes, no): (Vec<u32>, Vec<u32>) = o
            .samples
            .iter()
            .partition(|&&s| predicate.holds(samples.row(s)));
        let leaf = match tree.nodes.get(o.node) {
            Some(Node::Leaf(k)) => *k,
            _ => continue,
        };
        let if_false = tree.nodes.len();
        tree.nodes.push(Node::Leaf(leaf));
        let if_true = tree.nodes.len();
        tree.nodes.push(Node::Leaf(leaves));
        if let Some(n) = tree.nodes.get_mut(o.node) {
            *n = Node::Split {
                predicate,
                if_false,
                if_true,
            };
        }
        for (node, part) in [(if_false, no), (if_true, yes)] {
            let best = best_split(samples, features, goals, &part);
            open.push(Open {
                node,
                samples: part,
                depth: o.depth + 1,
                best,
            });
        }
    }
    tree
}

/// Splits on each goal in turn (both sides kept, even empty ones), then on
/// each atom where both sides have samples, leaving the leaves below them
/// in `open`.
fn split_goals(
    tree: &mut Tree,
    samples: &Samples,
    goals: &[usize],
    atoms: &[usize],
    all: Vec<u32>,
    open: &mut Vec<Open>,
) {
    let root = tree.nodes.len();
    tree.nodes.push(Node::Leaf(0));
    let mut frontier = vec![(root, all)];
    let forced = goals
        .iter()
        .map(|&g| (g, true))
        .chain(atoms.iter().map(|&a| (a, false)));
    for (feature, keep_empty) in forced {
        let predicate = Predicate {
            feature,
            test: Test::Is,
        };
        let mut next = Vec::new();
        for (node, part) in frontier {
            let (yes, no): (Vec<u32>, Vec<u32>) = part
                .into_iter()
                .partition(|&s| predicate.holds(samples.row(s)));
            if !keep_empty && (yes.is_empty() || no.is_empty()) {
                let mut part = yes;
                part.extend(no);
                next.push((node, part));
                continue;
            }
            let if_false = tree.nodes.len();
            tree.nodes.push(Node::Leaf(0));
            let if_true = tree.nodes.len();
            tree.nodes.push(Node::Leaf(0));
            if let Some(n) = tree.nodes.get_mut(node) {
                *n = Node::Split {
                    predicate,
                    if_false,
                    if_true,
                };
            }
            next.push((if_false, no));
            next.push((if_true, yes));
        }
        frontier = next;
    }
    for (k, (node, part)) in frontier.into_iter().enumerate() {
        if let Some(n) = tree.nodes.get_mut(node) {
            *n = Node::Leaf(k);
        }
        open.push(Open {
            node,
            samples: part,
            depth: 0,
            best: None,
        });
    }
}

/// Shannon entropy (bits) of a label histogram with `total` samples.
fn entropy(counts: &[u64], total: u64) -> f64 {
    if total == 0 {
        return 0.0;
    }
    let n = total as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// The gain of splitting `total` (histogram `all`) into `yes` and the rest.
fn gain(all: &[u64], total: u64, yes: &[u64], yes_total: u64, scratch: &mut [u64]) -> f64 {
    if yes_total == 0 || yes_total == total {
        return 0.0;
    }
    for ((s, a), y) in scratch.iter_mut().zip(all).zip(yes) {
        *s = a - y;
    }
    let n = total as f64;
    entropy(all, total)
        - yes_total as f64 / n * entropy(yes, yes_total)
        - (total - yes_total) as f64 / n * entropy(scratch, total - yes_total)
}

/// The predicate that gains most on `part` (ties: the first feature, the
/// first variant, the lowest threshold), if any splits it.
pub(crate) fn best_split(
    samples: &Samples,
    features: &[Feature],
    goals: &[usize],
    part: &[u32],
) -> Option<(f64, Predicate)> {
    best_split_by(
        samples,
        &samples.labels,
        samples.n_labels,
        features,
        goals,
        part,
    )
}

/// [`best_split`] with other labels: `label_of[i]` (below `n_labels`) for
/// sample `i`.
pub(crate) fn best_split_by(
    samples: &Samples,
    label_of: &[u32],
    n_labels: usize,
    features: &[Feature],
    goals: &[usize],
    part: &[u32],
) -> Option<(f64, Predicate)> {
    let labels = n_labels.max(1);
    let label = |s: u32| label_of.get(s as usize).copied().unwrap_or(0) as usize;
    let mut all = vec![0u64; labels];
    for &s in part {
        if let Some(c) = all.get_mut(label(s)) {
            *c += 1;
        }
    }
    let total = part.len() as u64;
    if total < 2 || all.iter().filter(|&&c| c > 0).count() < 2 {
        return None;
    }
    let mut best: Option<(f64, Predicate)> = None;
    let mut consider = |g: f64, predicate: Predicate| {
        if g > 1e-12 && best.is_none_or(|(b, _)| g > b + 1e-12) {
            best = Some((g, predicate));
        }
    };
    let mut yes = vec![0u64; labels];
    let mut scratch = vec![0u64; labels];
    let mut pairs: Vec<(f64, usize)> = Vec::new();
    for (f, feature) in features.iter().enumerate() {
        if goals.contains(&f) {
            continue;
        }
        match &feature.ty {
            FeatureType::Bool => {
                yes.fill(0);
                let mut n = 0;
                for &s in part {
                    if samples.value(s, f) > 0.5 {
                        if let Some(c) = yes.get_mut(label(s)) {
                            *c += 1;
                        }
                        n += 1;
                    }
                }
                let predicate = Predicate {
                    feature: f,
                    test: Test::Is,
                };
                consider(gain(&all, total, &yes, n, &mut scratch), predicate);
            }
            FeatureType::Enum { variants, .. } => {
                let mut per = vec![0u64; variants.len() * labels];
                let mut sizes = vec![0u64; variants.len()];
                for &s in part {
                    let v = samples.value(s, f) as usize;
                    if let Some(c) = per.get_mut(v * labels + label(s)) {
                        *c += 1;
                    }
                    if let Some(n) = sizes.get_mut(v) {
                        *n += 1;
                    }
                }
                for (v, &n) in sizes.iter().enumerate() {
                    let Some(hist) = per.get(v * labels..(v + 1) * labels) else {
                        continue;
                    };
                    let predicate = Predicate {
                        feature: f,
                        test: Test::Equals(v as u32),
                    };
                    consider(gain(&all, total, hist, n, &mut scratch), predicate);
                }
            }
            FeatureType::Int | FeatureType::Float => {
                pairs.clear();
                pairs.extend(part.iter().map(|&s| (samples.value(s, f), label(s))));
                pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
                // `yes` counts the values above the threshold: start with all.
                yes.copy_from_slice(&all);
                let mut above = total;
                for i in 0..pairs.len() {
                    let (x, label) = pairs[i];
                    if let Some(c) = yes.get_mut(label) {
                        *c -= 1;
                    }
                    above -= 1;
                    let Some(&(next, _)) = pairs.get(i + 1) else {
                        break;
                    };
                    if next > x {
                        let predicate = Predicate {
                            feature: f,
                            test: Test::Above(x + (next - x) / 2.0),
                        };
                        consider(gain(&all, total, &yes, above, &mut scratch), predicate);
                    }
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::FeatureKind;

    fn feature(name: &str, ty: FeatureType) -> Feature {
        Feature {
            name: name.to_string(),
            kind: FeatureKind::Input,
            ty,
        }
    }

    /// Entropy and gain by hand: labels [a, a, b, b] split into [a, a] and
    /// [b, b] gain the whole bit; a split that keeps the mix gains nothing.
    #[test]
    fn gain_by_hand() {
        assert!((entropy(&[2, 2], 4) - 1.0).abs() < 1e-12);
        assert_eq!(entropy(&[4, 0], 4), 0.0);
        let mut scratch = [0; 2];
        assert!((gain(&[2, 2], 4, &[2, 0], 2, &mut scratch) - 1.0).abs() < 1e-12);
        assert!(gain(&[2, 2], 4, &[1, 1], 2, &mut scratch).abs() < 1e-12);
        // [a a a b] -> {a a} | {a b}: 0.8113 - 0.5 = 0.3113 bits.
        let g = gain(&[3, 1], 4, &[2, 0], 2, &mut scratch);
        assert!((g - (0.811_278_124_459_132_9 - 0.5)).abs() < 1e-9, "{g}");
    }

    /// The next action is `b` exactly when `n > 3`: the tree finds the
    /// threshold between 3 and 5 and stops (pure leaves), ignoring a bool
    /// that carries no information.
    #[test]
    fn finds_the_threshold() {
        let features = vec![
            feature("n", FeatureType::Int),
            feature("noise", FeatureType::Bool),
        ];
        let rows = [
            (1.0, 0.0, 0),
            (2.0, 1.0, 0),
            (3.0, 0.0, 0),
            (5.0, 1.0, 1),
            (8.0, 0.0, 1),
        ];
        let samples = Samples {
            width: 2,
            values: rows.iter().flat_map(|r| [r.0, r.1]).collect(),
            labels: rows.iter().map(|r| r.2).collect(),
            n_labels: 2,
        };
        let tree = grow(&samples, &features, &[], &[], Growth::default());
        assert_eq!(tree.leaves(), 2);
        assert_eq!(
            tree.nodes.first(),
            Some(&Node::Split {
                predicate: Predicate {
                    feature: 0,
                    test: Test::Above(4.0)
                },
                if_false: 1,
                if_true: 2
            })
        );
        assert_eq!(tree.leaf(&[3.0, 1.0]), Some(0));
        assert_eq!(tree.leaf(&[4.5, 0.0]), Some(1));
        assert!(tree.is_well_formed(2));
        let paths = tree.paths();
        assert_eq!(paths[1][0].0.text(&features), "n > 4");
    }

    /// Goals split first, both sides kept, and leaves never exceed the limit.
    #[test]
    fn goals_first_and_leaf_limit() {
        let features = vec![
            feature("x", FeatureType::Float),
            Feature {
                name: "done".into(),
                kind: FeatureKind::Goal,
                ty: FeatureType::Bool,
            },
        ];
        let values: Vec<f64> = (0..40).flat_map(|i| [f64::from(i), 0.0]).collect();
        let labels = (0..40).map(|i| (i % 4) as u32).collect();
        let samples = Samples {
            width: 2,
            values,
            labels,
            n_labels: 4,
        };
        let growth = Growth {
            min_gain: 0.0,
            max_depth: 10,
            max_leaves: 4,
        };
        let tree = grow(&samples, &features, &[1], &[], growth);
        // Two forced by the goal, three more grown.
        assert_eq!(tree.leaves(), 5);
        assert!(tree.is_well_formed(2));
        let root = tree.nodes.first().cloned();
        assert!(matches!(
            root,
            Some(Node::Split {
                predicate: Predicate {
                    feature: 1,
                    test: Test::Is
                },
                ..
            })
        ));
        // Every concrete state with `done` lands in the leaf under its true side.
        let done_leaf = tree.leaf(&[3.0, 1.0]);
        assert_eq!(tree.leaf(&[30.0, 1.0]), done_leaf);
    }
}
