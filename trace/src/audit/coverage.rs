//! What a run checked, so that it never ends "clean" having checked nothing.
//!
//! Each trace checked to its end reports its [`Coverage`]: how many steps
//! (events) it gave, why a part of it gave none, and the places of the spec
//! that none of its lines matched (an input's pointer, a lifeline's
//! variable, a filter, a guard owner that never chose). [`Findings`] gathers
//! them over every trace of a run: a place is *vacuous* when it matched in
//! no trace of the whole run (with several traces, one that matched in some
//! traces only is reported with how many, as information). A run is vacuous
//! when a trace or session gave no step or a place is vacuous; with
//! `--fail-on-violation` (and without `--allow-vacuous`) it then exits with
//! [`EXIT_VACUOUS`](crate::run::EXIT_VACUOUS).

use super::Tally;
use crate::json::Excerpt;
use std::collections::HashMap;

/// The most places, and traces without a step, named one by one in the
/// warnings at the end of a run; the rest are counted.
pub const MAX_NAMED: usize = 20;

/// A place of the spec that no line of a trace matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    /// The place, and what it missed: `input `tool` reads "/x", which no
    /// line had a value at`. Places are told apart by it.
    pub place: String,
    /// What the trace had instead: the closest key seen, or the keys seen
    /// there.
    pub hint: Option<String>,
}

impl Unmatched {
    /// `place`, with no hint.
    pub fn new(place: impl Into<String>) -> Self {
        Unmatched {
            place: place.into(),
            hint: None,
        }
    }

    /// The same place, with `hint` (if any).
    pub fn with_hint(mut self, hint: Option<String>) -> Self {
        self.hint = hint;
        self
    }

    /// The warning's text: the place, then `; HINT`.
    pub fn text(&self) -> String {
        match &self.hint {
            Some(hint) => format!("{}; {hint}", self.place),
            None => self.place.clone(),
        }
    }
}

/// What one trace's check covered (a trace stopped by an error has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Why parts of the trace gave no step, one message per part: the whole
    /// trace (`no line was a step: ...`), or the sessions of an export that
    /// gave none. Empty when every part gave steps.
    pub idle: Vec<String>,
    /// Traces or sessions that gave no step.
    pub idle_parts: u64,
    /// The places of the spec no line of the trace matched.
    pub unmatched: Vec<Unmatched>,
}

impl Coverage {
    /// Notes that the whole trace, of `lines` lines (or records: `unit`),
    /// gave no step; `why` says what would have made one (`the step filter
    /// held on none of them`).
    pub fn no_step(&mut self, lines: usize, unit: &str, why: Option<&str>) {
        let mut text = match lines {
            0 => "the trace is empty: nothing was checked".to_string(),
            1 => format!("its one {unit} gave no step: nothing was checked"),
            n => format!("none of its {n} {unit}s gave a step: nothing was checked"),
        };
        if let (Some(why), true) = (why, lines > 0) {
            text.push_str(" (");
            text.push_str(why);
            text.push(')');
        }
        self.idle.push(text);
        self.idle_parts += 1;
    }
}

/// The coverage of every trace of a run, gathered in the order the traces
/// are printed, and the warnings it makes at the end.
#[derive(Debug, Default)]
pub struct Findings {
    /// Traces checked to their end (the denominator of "every trace").
    covered: usize,
    /// Per trace with idle parts: its name and why, in order.
    idle: Vec<(String, String)>,
    /// Traces or sessions that gave no step.
    idle_parts: u64,
    /// Each unmatched place: its first trace, its hint there, and in how
    /// many traces it went unmatched; in order of first appearance.
    unmatched: Vec<(Unmatched, String, usize)>,
    by_place: HashMap<String, usize>,
}

impl Findings {
    /// No trace yet.
    pub fn new() -> Self {
        Findings::default()
    }

    /// Adds what trace `trace` covered.
    pub fn add(&mut self, trace: &str, coverage: &Coverage) {
        self.covered += 1;
        self.idle_parts += coverage.idle_parts;
        for why in &coverage.idle {
            self.idle.push((trace.to_string(), why.clone()));
        }
        for place in &coverage.unmatched {
            let next = self.unmatched.len();
            let at = *self.by_place.entry(place.place.clone()).or_insert(next);
            match self.unmatched.get_mut(at) {
                Some((_, _, n)) => *n += 1,
                None => self.unmatched.push((place.clone(), trace.to_string(), 1)),
            }
        }
    }

    /// Traces or sessions that gave no step.
    pub fn idle_parts(&self) -> u64 {
        self.idle_parts
    }

    /// Places of the spec that no line of any trace matched.
    pub fn vacuous_places(&self) -> u64 {
        self.unmatched_everywhere().count() as u64
    }

    /// The places of the spec that no line of any trace matched, in the
    /// order they were first met (each with its hint in its first trace).
    pub fn unmatched_everywhere(&self) -> impl Iterator<Item = &Unmatched> {
        let every = self.covered;
        self.unmatched
            .iter()
            .filter(move |(_, _, n)| *n == every)
            .map(|(place, _, _)| place)
    }

    /// Whether the run checked nothing somewhere: a trace or session gave no
    /// step, or a place of the spec matched no line of any trace.
    pub fn is_vacuous(&self) -> bool {
        self.idle_parts > 0 || self.vacuous_places() > 0
    }

    /// The warnings to print at the end of a run of `traces` traces (without
    /// `warning: `): the traces without a step, then each unmatched place
    /// (with several traces, in how many it went unmatched), each list
    /// cut at [`MAX_NAMED`] with a count of the rest.
    pub fn warnings(&self, traces: usize) -> Vec<String> {
        let mut lines: Vec<String> = self
            .idle
            .iter()
            .take(MAX_NAMED)
            .map(|(trace, why)| format!("{trace}: {why}"))
            .collect();
        if self.idle.len() > MAX_NAMED {
            lines.push(format!(
                "{} more traces had parts that gave no step",
                self.idle.len() - MAX_NAMED
            ));
        }
        for (place, trace, n) in self.unmatched.iter().take(MAX_NAMED) {
            lines.push(match traces {
                1 => format!("{trace}: {}", place.text()),
                _ if *n == self.covered => format!("{} (in every trace)", place.text()),
                _ => format!("{} (in {n} of {traces} traces)", place.text()),
            });
        }
        if self.unmatched.len() > MAX_NAMED {
            lines.push(format!(
                "{} more places of the spec matched no line",
                self.unmatched.len() - MAX_NAMED
            ));
        }
        lines
    }

    /// The closing warning of a vacuous run (without `warning: `), saying
    /// what it means for the exit status; `None` if the run is not vacuous.
    pub fn verdict(&self) -> Option<String> {
        if !self.is_vacuous() {
            return None;
        }
        let mut parts = Vec::new();
        if self.idle_parts > 0 {
            parts.push(
                count(self.idle_parts, "trace or session", "traces or sessions") + " gave no step",
            );
        }
        let places = self.vacuous_places();
        if places > 0 {
            parts.push(
                count(places, "place of the spec", "places of the spec") + " matched no line",
            );
        }
        Some(format!(
            "vacuous run: {}; its verdicts say nothing about what was not checked \
             (--fail-on-violation exits 3 for it; --allow-vacuous accepts it)",
            parts.join(", ")
        ))
    }
}

/// The key of `candidates` closest to `key` by edit distance (a swap of
/// two neighbours counting one), if one is close enough to be a likely typo:
/// at most a third of the key's length, and at least one edit allowed.
pub fn closest_key<'a>(key: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = key.chars().count() / 3;
    candidates
        .map(|c| (strsim::osa_distance(key, c), c))
        .filter(|&(d, c)| d <= limit.max(1) && c != key)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The most names a hint lists.
const MAX_LISTED: usize = 12;

/// A hint for `missed`, a name the run never met: the closest of `seen` if
/// one is close (`did you mean `X`?`), else `seen` listed after `what`
/// (`attributes seen on its spans: a, b, ...`); `None` when nothing was seen.
pub fn hint(missed: &str, seen: &[String], what: &str) -> Option<String> {
    if let Some(close) = closest_key(missed, seen.iter().map(String::as_str)) {
        return Some(format!("did you mean `{}`?", Excerpt(close)));
    }
    if seen.is_empty() {
        return None;
    }
    let mut sorted: Vec<&str> = seen.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let listed: Vec<String> = sorted
        .iter()
        .take(MAX_LISTED)
        .map(|k| Excerpt(k).to_string())
        .collect();
    let more = if sorted.len() > MAX_LISTED {
        ", ..."
    } else {
        ""
    };
    Some(format!("{what}: {}{more}", listed.join(", ")))
}

impl Findings {
    /// Ends a run of `traces` traces: puts the vacuous counts into `total`
    /// and returns the warnings to print, each with `warning: ` (the
    /// closing one last when the run is vacuous).
    pub fn close(&self, traces: usize, total: &mut Tally) -> Vec<String> {
        total.vacuous = self.idle_parts();
        total.unmatched = self.vacuous_places();
        let mut lines = self.warnings(traces);
        lines.extend(self.verdict());
        lines.into_iter().map(|l| format!("warning: {l}")).collect()
    }
}

/// `n` and the noun that goes with it.
fn count(n: u64, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Coverage, Findings, Unmatched};

    fn unmatched(place: &str) -> Coverage {
        Coverage {
            unmatched: vec![Unmatched::new(place)],
            ..Coverage::default()
        }
    }

    #[test]
    fn a_place_unmatched_in_every_trace_is_vacuous() {
        let mut findings = Findings::new();
        findings.add("a.jsonl", &unmatched("input `x`"));
        findings.add("b.jsonl", &unmatched("input `x`"));
        assert_eq!(findings.vacuous_places(), 1);
        let places: Vec<&str> = findings
            .unmatched_everywhere()
            .map(|u| u.place.as_str())
            .collect();
        assert_eq!(places, ["input `x`"]);
        assert!(findings.is_vacuous());
        assert_eq!(findings.warnings(2), ["input `x` (in every trace)"]);
    }

    #[test]
    fn a_place_matched_in_one_trace_is_only_information() {
        let mut findings = Findings::new();
        findings.add("a.jsonl", &unmatched("input `x`"));
        findings.add("b.jsonl", &Coverage::default());
        assert_eq!(findings.vacuous_places(), 0);
        assert_eq!(findings.unmatched_everywhere().count(), 0);
        assert!(!findings.is_vacuous());
        assert_eq!(findings.warnings(2), ["input `x` (in 1 of 2 traces)"]);
        assert_eq!(findings.verdict(), None);
    }

    #[test]
    fn a_trace_without_a_step_makes_the_run_vacuous() {
        let mut findings = Findings::new();
        let mut idle = Coverage::default();
        idle.no_step(3, "line", Some("the step filter held on none"));
        findings.add("a.jsonl", &idle);
        findings.add("b.jsonl", &Coverage::default());
        assert!(findings.is_vacuous());
        assert_eq!(
            findings.warnings(2),
            ["a.jsonl: none of its 3 lines gave a step: nothing was checked (the step filter held on none)"]
        );
        assert!(findings
            .verdict()
            .is_some_and(|v| v.starts_with("vacuous run: 1 trace or session gave no step;")));
    }

    #[test]
    fn places_past_the_named_ones_are_counted() {
        let mut findings = Findings::new();
        let coverage = Coverage {
            unmatched: (0..25)
                .map(|k| Unmatched::new(format!("input `x{k}`")))
                .collect(),
            ..Coverage::default()
        };
        findings.add("a.jsonl", &coverage);
        let warnings = findings.warnings(1);
        assert_eq!(warnings.len(), 21);
        assert_eq!(warnings[20], "5 more places of the spec matched no line");
        assert_eq!(findings.vacuous_places(), 25);
    }
}
