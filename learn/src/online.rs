//! A learned model following a run as it goes: after each step, the
//! abstract state of the concrete state, the log-likelihood of the run so
//! far, whether it is anomalous (the checkpoint rule, or a transition the
//! model never saw), and per goal the probabilities of reaching it from
//! here; when the run ends, the whole run's log-likelihood (`end`
//! included) against the run-level rule.
//!
//! [`Tracker`] does no allocation per step: the model is read, never
//! grown. [`ModelLines`] is the [`Observer`] `hindsight check --model`
//! runs, writing one JSON line after each verdict line and after the end.

use crate::features::{Features, Recording};
use crate::mdp::INITIAL;
use crate::model::{action_code, Model};
use hindsight_runtime::{Value, Verdict};
use hindsight_trace::Observer;
use std::io::{self, Write};

/// Where a run stands under the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// The abstract state (an index into [`Model::states`]).
    pub state: usize,
    /// The log-likelihood of the run so far (`-∞` after an unseen transition).
    pub log_likelihood: f64,
    /// Steps taken.
    pub steps: u64,
    /// Whether the run is anomalous: an unseen transition, or below a
    /// checkpoint's threshold at some checkpoint so far.
    pub anomalous: bool,
}

/// The chance of an outcome from a state: as the training runs chose their
/// actions, and the least and most over every choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    /// As observed.
    pub p: f64,
    /// `Pmin`.
    pub pmin: f64,
    /// `Pmax`.
    pub pmax: f64,
}

impl Model {
    /// Per goal (in [`Model::bounds`] order), the chances of reaching it
    /// from abstract state `state`.
    pub fn goal_chances(&self, state: usize) -> impl Iterator<Item = Chances> + '_ {
        self.bounds.iter().map(move |b| Chances {
            p: b.observed.value(state),
            pmin: b.min.value(state),
            pmax: b.max.value(state),
        })
    }

    /// The chances that predicted property `k` ends false from abstract
    /// state `state` with the table's automata in states `automata` (the
    /// interpreter's `automaton_states`); `None` where the training runs
    /// never reached that product state. `scratch` is reused, so nothing
    /// is allocated once it has grown.
    pub fn ends_false(
        &self,
        k: usize,
        state: usize,
        automata: &[u32],
        scratch: &mut Vec<u32>,
    ) -> Option<Chances> {
        let p = self.predictions.get(k)?;
        scratch.clear();
        scratch.extend(
            p.automata
                .iter()
                .map(|&g| automata.get(g).copied().unwrap_or(0)),
        );
        let i = p.find(state, scratch)?;
        Some(Chances {
            p: p.observed.value(i),
            pmin: p.min.value(i),
            pmax: p.max.value(i),
        })
    }
}

/// Follows one run under a model.
#[derive(Clone, Debug)]
pub struct Tracker<'m> {
    model: &'m Model,
    standing: Standing,
}

impl<'m> Tracker<'m> {
    /// A run before its first step.
    pub fn new(model: &'m Model) -> Self {
        Tracker {
            model,
            standing: Standing {
                state: INITIAL,
                log_likelihood: 0.0,
                steps: 0,
                anomalous: false,
            },
        }
    }

    /// The run's standing.
    pub fn standing(&self) -> Standing {
        self.standing
    }

    /// One step: the action taken and the feature values after it.
    pub fn step(&mut self, action: Value, row: &[f64]) -> Standing {
        let model = self.model;
        let to = model
            .tree
            .leaf(row)
            .map_or(INITIAL, crate::mdp::Mdp::leaf_state);
        let p = action_code(model, action).map_or(0.0, |a| {
            model.mdp.step_probability(self.standing.state, a, to)
        });
        let s = &mut self.standing;
        s.log_likelihood += p.ln();
        s.state = to;
        s.steps += 1;
        s.anomalous |= model
            .likelihood
            .prefix_is_anomalous(s.steps, s.log_likelihood);
        *s
    }

    /// The run ended: its log-likelihood with the `end` transition, and
    /// whether the run-level rule flags it (or it was flagged on the way).
    pub fn finish(&self) -> (f64, bool) {
        let model = self.model;
        let end = model.mdp.end();
        let p = model
            .mdp
            .step_probability(self.standing.state, end, model.mdp.terminal());
        let ll = self.standing.log_likelihood + p.ln();
        (
            ll,
            self.standing.anomalous || model.likelihood.run_is_anomalous(ll),
        )
    }

    /// Back to before the first step.
    pub fn reset(&mut self) {
        *self = Tracker::new(self.model);
    }
}

/// The observer of `hindsight check --model`: follows the run with a
/// [`Tracker`] and writes, after each verdict line,
/// `{"step": N, "model": {"state": …, "log_likelihood": …, "anomalous": …,
/// "goals": {GOAL: {"p": …, "pmin": …, "pmax": …}}, "ends_false": {PROPERTY:
/// {"p": …, "pmin": …, "pmax": …}}}}` (`ends_false` when the model predicts
/// properties; a property is `null` where the run left the product the
/// training runs reached) and after the end
/// line `{"model": {"log_likelihood": …, "anomalous": …}}`.
#[derive(Clone, Debug)]
pub struct ModelLines<'m> {
    features: &'m Features,
    tracker: Tracker<'m>,
    row: Vec<f64>,
    automata: Vec<u32>,
    /// The goals' and the predicted properties' names as JSON strings,
    /// quoted once rather than at every step.
    goal_names: Vec<String>,
    property_names: Vec<String>,
}

impl<'m> ModelLines<'m> {
    /// The observer of runs read with `features` under `model`.
    pub fn new(model: &'m Model, features: &'m Features) -> Self {
        ModelLines {
            features,
            tracker: Tracker::new(model),
            row: Vec::with_capacity(features.list.len()),
            automata: Vec::new(),
            goal_names: model.goals.iter().map(|g| json_string(g)).collect(),
            property_names: model
                .predictions
                .iter()
                .map(|p| json_string(&p.property))
                .collect(),
        }
    }
}

/// A name as a JSON string.
fn json_string(name: &str) -> String {
    serde_json::Value::String(name.to_string()).to_string()
}

/// Chances as a JSON object.
struct Json(Chances);

impl std::fmt::Display for Json {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Chances { p, pmin, pmax } = self.0;
        write!(
            f,
            "{{\"p\": {}, \"pmin\": {}, \"pmax\": {}}}",
            Num(p),
            Num(pmin),
            Num(pmax)
        )
    }
}

/// A number as JSON: `null` for `-∞` (an unseen transition) or NaN.
struct Num(f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_finite() {
            write!(f, "{:.6}", self.0)
        } else {
            f.write_str("null")
        }
    }
}

impl Observer<Recording<'_>> for ModelLines<'_> {
    fn after_step(
        &mut self,
        monitor: &Recording<'_>,
        step: u64,
        _verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        self.features.read(monitor, &mut self.row);
        let s = self.tracker.step(self.features.action(monitor), &self.row);
        let model = self.tracker.model;
        let name = model.states.get(s.state).map_or("?", |st| st.name.as_str());
        write!(
            out,
            "{{\"step\": {step}, \"model\": {{\"state\": \"{name}\", \"log_likelihood\": {}, \"anomalous\": {}, \"goals\": {{",
            Num(s.log_likelihood),
            s.anomalous
        )?;
        for (g, (name, c)) in self
            .goal_names
            .iter()
            .zip(model.goal_chances(s.state))
            .enumerate()
        {
            let sep = if g == 0 { "" } else { ", " };
            write!(out, "{sep}{name}: {}", Json(c))?;
        }
        write!(out, "}}")?;
        if !model.predictions.is_empty() {
            write!(out, ", \"ends_false\": {{")?;
            let all = monitor.automaton_states();
            for (k, name) in self.property_names.iter().enumerate() {
                let sep = if k == 0 { "" } else { ", " };
                match model.ends_false(k, s.state, all, &mut self.automata) {
                    Some(c) => write!(out, "{sep}{name}: {}", Json(c))?,
                    None => write!(out, "{sep}{name}: null")?,
                }
            }
            write!(out, "}}")?;
        }
        writeln!(out, "}}}}")
    }

    fn after_end(
        &mut self,
        _monitor: &Recording<'_>,
        _verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let (ll, anomalous) = self.tracker.finish();
        self.tracker.reset();
        writeln!(
            out,
            "{{\"model\": {{\"log_likelihood\": {}, \"anomalous\": {anomalous}}}}}",
            Num(ll)
        )
    }
}
