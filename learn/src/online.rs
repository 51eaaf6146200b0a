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
}

impl<'m> ModelLines<'m> {
    /// The observer of runs read with `features` under `model`.
    pub fn new(model: &'m Model, features: &'m Features) -> Self {
        ModelLines {
            features,
            tracker: Tracker::new(model),
            row: Vec::with_capacity(features.list.len()),
            automata: Vec::new(),
        }
    }
}

/// A number as JSON: `null` for `-∞` (an unseen transition) or NaN.
fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "null".to_string()
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
            number(s.log_likelihood),
            s.anomalous
        )?;
        for (g, b) in model.bounds.iter().enumerate() {
            let sep = if g == 0 { "" } else { ", " };
            write!(
                out,
                "{sep}{}: {{\"p\": {}, \"pmin\": {}, \"pmax\": {}}}",
                serde_json::Value::String(b.goal.clone()),
                number(b.observed.value(s.state)),
                number(b.min.value(s.state)),
                number(b.max.value(s.state))
            )?;
        }
        write!(out, "}}")?;
        if !model.predictions.is_empty() {
            write!(out, ", \"ends_false\": {{")?;
            let all = monitor.automaton_states();
            for (k, p) in model.predictions.iter().enumerate() {
                self.automata.clear();
                self.automata
                    .extend(p.automata.iter().map(|&g| all.get(g).copied().unwrap_or(0)));
                let sep = if k == 0 { "" } else { ", " };
                let name = serde_json::Value::String(p.property.clone());
                match p.find(s.state, &self.automata) {
                    Some(i) => write!(
                        out,
                        "{sep}{name}: {{\"p\": {}, \"pmin\": {}, \"pmax\": {}}}",
                        number(p.observed.value(i)),
                        number(p.min.value(i)),
                        number(p.max.value(i))
                    )?,
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
            number(ll)
        )
    }
}
