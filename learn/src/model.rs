//! Learning a model from runs, and the model file: versioned JSON that
//! holds everything online use needs (the features and the tree to map a
//! concrete state to its abstract state, the MDP, the reachability bounds
//! per goal and state, the likelihood statistics) and what it was learned
//! from.

use crate::bounds::{reach, Interval, Objective};
use crate::features::{ActionType, Feature, Features, Run};
use crate::likelihood::Likelihood;
use crate::mdp::{Mdp, INITIAL};
use crate::predict::{predict, Prediction};
use crate::refine::{refine, Refinement};
use crate::tree::{grow, Growth, Samples, Test, Tree};
use crate::trie::Trie;
use hindsight_runtime::Value;
use serde::{Deserialize, Serialize};

/// What the model file says it is.
pub const FORMAT: &str = "hindsight-model";

/// The model file's version; a file of another version is refused.
pub const VERSION: u32 = 1;

/// The `end` action's name.
pub const END: &str = "end";

/// How a model is learned.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// How far the tree grows.
    #[serde(flatten)]
    pub growth: Growth,
    /// `z` of the low-likelihood rule.
    pub z: f64,
    /// Checkpoints every this many steps.
    pub every: u64,
    /// The widest interval a bound may have.
    pub precision: f64,
    /// The most sweeps of interval iteration.
    pub max_iterations: usize,
    /// The most counterexample-guided refinements ([`crate::refine`]).
    pub refinements: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            growth: Growth::default(),
            // z_{0.99}: one run in a hundred flagged if ℓ were normal.
            z: 2.326,
            every: 10,
            precision: 1e-6,
            max_iterations: 1_000_000,
            refinements: 0,
        }
    }
}

/// An abstract state of the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// `initial`, `s1` … `sL` (the leaves), `terminal`.
    pub name: String,
    /// Its tree leaf, if it is one.
    pub leaf: Option<usize>,
    /// Per goal, whether it holds in the state (the tree decides it).
    pub goals: Vec<bool>,
    /// Concrete states of the training runs it abstracts (runs, for the
    /// initial and terminal states).
    pub visits: u64,
}

/// The bounds of one goal: from every state, `Pmin(◇ goal)` and
/// `Pmax(◇ goal)` over every way of choosing the actions, and the
/// probability under the policy the runs showed, as intervals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalBounds {
    /// The goal's name.
    pub goal: String,
    /// `Pmin(◇ goal)` per state.
    pub min: Interval,
    /// `Pmax(◇ goal)` per state.
    pub max: Interval,
    /// `P(◇ goal)` per state when actions are chosen as often as the
    /// training runs chose them ([`Mdp::observed`]).
    pub observed: Interval,
}

/// What the model was learned from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Training {
    /// Runs (traces, or sessions with a key).
    pub runs: u64,
    /// Steps of all runs.
    pub steps: u64,
    /// Prefixes in the trace trie of the abstract runs.
    pub trie_nodes: u64,
    /// Training runs the low-likelihood rule flags (about α of them if
    /// the run log-likelihoods were normal).
    pub flagged: u64,
    /// The learning options.
    pub options: Options,
}

/// A learned behaviour model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The monitor block it was learned for.
    pub block: String,
    /// The input taken as the action.
    pub action: String,
    /// The concrete state's features.
    pub features: Vec<Feature>,
    /// The actions' names by code; `end` last.
    pub actions: Vec<String>,
    /// The goals' names.
    pub goals: Vec<String>,
    /// The predicate tree.
    pub tree: Tree,
    /// The abstract states: initial, the leaves, terminal.
    pub states: Vec<State>,
    /// The MDP over them.
    pub mdp: Mdp,
    /// Per goal, its reachability bounds.
    pub bounds: Vec<GoalBounds>,
    /// Per future-time property predicted, the chance it ends `false`.
    pub predictions: Vec<Prediction>,
    /// The future-time properties not predicted: their product with the
    /// MDP passed `predict::MAX_PRODUCT_STATES` states.
    pub unpredicted: Vec<String>,
    /// The counterexample-guided refinements made while learning.
    pub refinements: Vec<Refinement>,
    /// The run-likelihood statistics.
    pub likelihood: Likelihood,
    /// What it was learned from.
    pub training: Training,
}

/// Action codes: an enum's variant index, `false`/`true` as 0/1, ints
/// coded in order of first appearance.
struct Actions {
    names: Vec<String>,
    ints: Vec<i64>,
    kind: ActionType,
}

impl Actions {
    fn new(kind: &ActionType) -> Self {
        let names = match kind {
            ActionType::Bool => vec!["false".to_string(), "true".to_string()],
            ActionType::Enum(variants) => variants.clone(),
            ActionType::Int => Vec::new(),
        };
        Actions {
            names,
            ints: Vec::new(),
            kind: kind.clone(),
        }
    }

    fn code(&mut self, value: Value) -> usize {
        match (&self.kind, value) {
            (ActionType::Int, Value::Int(i)) => match self.ints.iter().position(|&x| x == i) {
                Some(k) => k,
                None => {
                    self.ints.push(i);
                    self.names.push(i.to_string());
                    self.ints.len() - 1
                }
            },
            (_, Value::Bool(b)) => usize::from(b),
            (_, Value::Enum(v)) => v as usize,
            (_, _) => 0,
        }
    }
}

/// The action code of `value` under a learned model's actions (`None` for
/// a value the training runs never took, or of another type).
pub fn action_code(model: &Model, value: Value) -> Option<usize> {
    let known = model.actions.len().saturating_sub(1);
    let code = match value {
        Value::Bool(b) => usize::from(b),
        Value::Enum(v) => v as usize,
        // Int actions are named by their decimal text: parsed, not
        // printed, so a step allocates nothing.
        Value::Int(i) => {
            return model
                .actions
                .iter()
                .take(known)
                .position(|a| a.parse::<i64>() == Ok(i));
        }
        Value::Float(_) => return None,
    };
    (code < known).then_some(code)
}

/// Learns a model of `runs` (recorded with `features`) for monitor `block`.
pub fn learn(
    block: &str,
    action: &str,
    features: &Features,
    runs: &[Run],
    options: Options,
) -> Result<Model, String> {
    if runs.is_empty() {
        return Err("no runs to learn from: the traces hold no run".to_string());
    }
    let width = features.list.len();
    let mut actions = Actions::new(&features.action_type);
    let codes: Vec<Vec<usize>> = runs
        .iter()
        .map(|r| r.actions.iter().map(|&a| actions.code(a)).collect())
        .collect();
    let end = actions.names.len();
    let mut names = actions.names;
    names.push(END.to_string());
    // Samples: each concrete state, labelled with the action after it.
    let mut samples = Samples {
        width,
        values: Vec::new(),
        labels: Vec::new(),
        n_labels: names.len(),
    };
    for (run, codes) in runs.iter().zip(&codes) {
        samples.values.extend_from_slice(&run.values);
        samples.labels.extend(
            codes
                .iter()
                .skip(1)
                .chain(std::iter::once(&end))
                .map(|&c| c as u32),
        );
    }
    let mut tree = grow(
        &samples,
        &features.list,
        &features.goals,
        &features.atoms,
        options.growth,
    );
    let coded = Coded {
        runs,
        codes: &codes,
        width,
        actions: names.len(),
    };
    let mut refinements = Vec::new();
    let Abstraction {
        paths,
        mdp,
        trie,
        states,
        bounds,
    } = loop {
        let abstraction = abstraction(&tree, &coded, features, &options);
        if refinements.len() >= options.refinements {
            break abstraction;
        }
        match refine(&mut tree, &samples, features, &abstraction, &refinements) {
            Some(r) => refinements.push(r),
            None => break abstraction,
        }
    };
    let leaves = tree.leaves();
    // A concrete state of each visited leaf: what the leaf decides of the
    // atoms (every concrete state of the leaf agrees on them).
    let mut rows: Vec<Option<Vec<f64>>> = vec![None; leaves + 2];
    for i in 0..samples.labels.len() {
        let row = samples
            .values
            .get(i * width..(i + 1) * width)
            .unwrap_or_default();
        if let Some(slot) = tree
            .leaf(row)
            .and_then(|k| rows.get_mut(Mdp::leaf_state(k)))
        {
            slot.get_or_insert_with(|| row.to_vec());
        }
    }
    let mut predictions = Vec::new();
    let mut unpredicted = Vec::new();
    for property in &features.predictable {
        match predict(
            &mdp,
            &rows,
            property,
            options.precision,
            options.max_iterations,
        ) {
            Some(p) => predictions.push(p),
            None => unpredicted.push(property.name.clone()),
        }
    }
    let log_paths: Vec<Vec<f64>> = paths
        .iter()
        .map(|path| {
            let mut at = INITIAL;
            path.iter()
                .map(|&(a, to)| {
                    let p = mdp.step_probability(at, a, to);
                    at = to;
                    p.ln()
                })
                .collect()
        })
        .collect();
    let likelihood = Likelihood::learn(&log_paths, options.z, options.every);
    let flagged = log_paths
        .iter()
        .filter(|p| likelihood.run_is_anomalous(p.iter().sum()))
        .count() as u64;
    let goals = features
        .goals
        .iter()
        .filter_map(|&f| features.list.get(f).map(|f| f.name.clone()))
        .collect();
    Ok(Model {
        format: FORMAT.to_string(),
        version: VERSION,
        block: block.to_string(),
        action: action.to_string(),
        features: features.list.clone(),
        actions: names,
        goals,
        tree,
        states,
        mdp,
        bounds,
        predictions,
        unpredicted,
        refinements,
        likelihood,
        training: Training {
            runs: runs.len() as u64,
            steps: runs.iter().map(|r| r.len() as u64).sum(),
            trie_nodes: trie.len() as u64,
            flagged,
            options,
        },
    })
}

/// The runs with their action codes, as the abstraction reads them.
struct Coded<'r> {
    runs: &'r [Run],
    codes: &'r [Vec<usize>],
    width: usize,
    /// Actions, `end` included (the last).
    actions: usize,
}

/// What a tree abstracts the runs to: their abstract paths, the MDP, the
/// trace trie, the states and the goals' bounds.
pub(crate) struct Abstraction {
    pub(crate) paths: Vec<Vec<(usize, usize)>>,
    pub(crate) mdp: Mdp,
    pub(crate) trie: Trie,
    pub(crate) states: Vec<State>,
    pub(crate) bounds: Vec<GoalBounds>,
}

/// The abstraction of `coded` under `tree`.
fn abstraction(
    tree: &Tree,
    coded: &Coded<'_>,
    features: &Features,
    options: &Options,
) -> Abstraction {
    let leaves = tree.leaves();
    let terminal = leaves + 1;
    let end = coded.actions.saturating_sub(1);
    let paths: Vec<Vec<(usize, usize)>> = coded
        .runs
        .iter()
        .zip(coded.codes)
        .map(|(run, codes)| {
            let mut path: Vec<(usize, usize)> = codes
                .iter()
                .enumerate()
                .map(|(j, &a)| {
                    let leaf = tree.leaf(run.row(j, coded.width)).unwrap_or(0);
                    (a, Mdp::leaf_state(leaf))
                })
                .collect();
            path.push((end, terminal));
            path
        })
        .collect();
    let mdp = Mdp::count(leaves, coded.actions, paths.iter().map(Vec::as_slice));
    let trie = Trie::of(paths.iter().map(Vec::as_slice));
    let states = states(
        tree,
        &features.goals,
        &paths,
        leaves,
        coded.runs.len() as u64,
    );
    let chain = mdp.observed();
    let solve = |m: &Mdp, target: &[bool], objective| {
        reach(
            m,
            target,
            objective,
            options.precision,
            options.max_iterations,
        )
    };
    let bounds = features
        .goals
        .iter()
        .enumerate()
        .map(|(g, &f)| {
            let target: Vec<bool> = states
                .iter()
                .map(|s| s.goals.get(g).copied().unwrap_or(false))
                .collect();
            GoalBounds {
                goal: features
                    .list
                    .get(f)
                    .map(|f| f.name.clone())
                    .unwrap_or_default(),
                min: solve(&mdp, &target, Objective::Min),
                max: solve(&mdp, &target, Objective::Max),
                observed: solve(&chain, &target, Objective::Max),
            }
        })
        .collect();
    Abstraction {
        paths,
        mdp,
        trie,
        states,
        bounds,
    }
}

/// The abstract states with their goal labels (from the tree's paths) and
/// visit counts.
fn states(
    tree: &Tree,
    goals: &[usize],
    paths: &[Vec<(usize, usize)>],
    leaves: usize,
    runs: u64,
) -> Vec<State> {
    let mut visits = vec![0u64; leaves + 2];
    for path in paths {
        for &(_, s) in path.iter().take(path.len().saturating_sub(1)) {
            if let Some(v) = visits.get_mut(s) {
                *v += 1;
            }
        }
    }
    let tree_paths = tree.paths();
    let mut states = vec![State {
        name: "initial".to_string(),
        leaf: None,
        goals: vec![false; goals.len()],
        visits: runs,
    }];
    for (k, path) in tree_paths.iter().enumerate() {
        let labels = goals
            .iter()
            .map(|&g| {
                path.iter()
                    .any(|(p, outcome)| p.feature == g && p.test == Test::Is && *outcome)
            })
            .collect();
        states.push(State {
            name: format!("s{}", k + 1),
            leaf: Some(k),
            goals: labels,
            visits: visits.get(k + 1).copied().unwrap_or(0),
        });
    }
    states.push(State {
        name: "terminal".to_string(),
        leaf: None,
        goals: vec![false; goals.len()],
        visits: runs,
    });
    states
}

impl Model {
    /// The model as JSON text (pretty, one field per line).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a model file's text, refusing another format or version and
    /// anything inconsistent (so that using it never indexes out of range).
    pub fn from_json(text: &str) -> Result<Model, String> {
        #[derive(Deserialize)]
        struct Header {
            format: Option<String>,
            version: Option<u32>,
        }
        let header: Header =
            serde_json::from_str(text).map_err(|e| format!("not a model file: {e}"))?;
        if header.format.as_deref() != Some(FORMAT) {
            return Err(format!(
                "not a model file: its \"format\" is not \"{FORMAT}\" (write one with `hindsight learn`)"
            ));
        }
        if header.version != Some(VERSION) {
            return Err(format!(
                "model file version {} is not supported: this hindsight reads version {VERSION} \
                 (learn the model again)",
                header
                    .version
                    .map_or("(none)".to_string(), |v| v.to_string())
            ));
        }
        let model: Model =
            serde_json::from_str(text).map_err(|e| format!("malformed model file: {e}"))?;
        model.validate()?;
        Ok(model)
    }

    fn validate(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("malformed model file: {what}"));
        let leaves = self.tree.leaves();
        if !self.tree.is_well_formed(self.features.len()) {
            return bad("the tree is not well formed");
        }
        if self.mdp.states != leaves + 2 || self.states.len() != leaves + 2 {
            return bad("its states do not match the tree's leaves");
        }
        if self.mdp.actions != self.actions.len()
            || self.actions.last().map(String::as_str) != Some(END)
        {
            return bad("its actions do not match the MDP");
        }
        if !self.mdp.is_well_formed() {
            return bad("the MDP's choices are not well formed");
        }
        if self.bounds.len() != self.goals.len()
            || self
                .states
                .iter()
                .any(|s| s.goals.len() != self.goals.len())
        {
            return bad("its goals do not match");
        }
        let n = self.mdp.states;
        if self.bounds.iter().any(|b| {
            [&b.min, &b.max, &b.observed]
                .iter()
                .any(|i| i.lo.len() != n || i.hi.len() != n)
        }) {
            return bad("its bounds do not cover every state");
        }
        if self.predictions.iter().any(|p| {
            let n = p.states.len();
            p.states.windows(2).any(|w| w[0] >= w[1])
                || [&p.min, &p.max, &p.observed]
                    .iter()
                    .any(|i| i.lo.len() != n || i.hi.len() != n)
        }) {
            return bad("a prediction's states and intervals do not match");
        }
        if self.likelihood.every == 0 {
            return bad("checkpoints every 0 steps");
        }
        Ok(())
    }
}
