//! The explanation lines of `hindsight check --explain`, written after the
//! verdict lines by a [`hindsight_trace::Observer`] of the interpreter (see
//! [`hindsight_compiler::interp::explain`] for when a line appears and what it says):
//!
//! ```text
//! {"explain": "responds", "step": 3, "verdict": "?", "why": "still required: F grant"}
//! {"explain": "responds", "end": true, "verdict": "false", "why": "the trace ended with F grant still required"}
//! ```

use hindsight_compiler::interp::explain::{parts_now, Explainer, Explanation};
use hindsight_compiler::interp::system::SystemInterpreter;
use hindsight_compiler::interp::{Interpreter, PopulationInterpreter};
use hindsight_compiler::ir::population::PropertyVerdict;
use hindsight_compiler::ir::protocol::ProtocolTable;
use hindsight_compiler::ir::table::{Op, Source, Table};
use hindsight_compiler::ir::{PopulationTables, SystemTables};
use hindsight_compiler::Verdict;
use hindsight_trace::json;
use hindsight_trace::system::EventObserver;
use hindsight_trace::Observer;
use std::io::{self, Write};

/// Writes one JSON line per explanation of an [`Explainer`], remembering
/// each property's first `"false"` explanation (a summary's `why`).
#[derive(Clone)]
pub struct ExplainLines<'t> {
    explainer: Explainer<'t>,
    /// Per property: its name as a JSON string.
    names: Vec<String>,
    /// Per property: why it was first false.
    first_false: FirstFalse,
}

/// Per property: the explanation of its first `"false"` verdict, if any.
#[derive(Clone, Debug, Default)]
struct FirstFalse(Vec<Option<String>>);

impl FirstFalse {
    /// Room for `properties` properties.
    fn new(properties: usize) -> Self {
        FirstFalse(vec![None; properties])
    }

    /// Remembers `why` property `p` is `verdict`, if it is the first `"false"`.
    fn note(&mut self, p: usize, verdict: Verdict, why: &str) {
        if let (Verdict::False, Some(slot @ None)) = (verdict, self.0.get_mut(p)) {
            *slot = Some(why.to_string());
        }
    }

    /// Why property `p` was first false.
    fn get(&self, p: usize) -> Option<String> {
        self.0.get(p).cloned().flatten()
    }
}

impl<'t> ExplainLines<'t> {
    /// Explanation lines for an interpreter of `table`.
    pub fn new(table: &'t Table) -> Self {
        ExplainLines {
            explainer: Explainer::new(table),
            names: table
                .outputs
                .iter()
                .map(|o| json::string(&o.name))
                .collect(),
            first_false: FirstFalse::new(table.outputs.len()),
        }
    }

    /// `{"explain": NAME, WHEN, "verdict": V, "why": W}` and a newline.
    fn write(&mut self, out: &mut dyn Write, when: &str, e: &Explanation) -> io::Result<()> {
        self.first_false.note(e.output, e.verdict, &e.why);
        let name = self.names.get(e.output).map_or("\"\"", String::as_str);
        writeln!(
            out,
            "{{\"explain\": {name}, {when}, \"verdict\": \"{}\", \"why\": {}}}",
            e.verdict.as_str(),
            json::string(&e.why)
        )
    }
}

impl<'t> Observer<Interpreter<'t>> for ExplainLines<'t> {
    fn after_step(
        &mut self,
        monitor: &Interpreter<'t>,
        step: u64,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let when = format!("\"step\": {step}");
        for e in self.explainer.step(monitor, step, verdicts) {
            self.write(out, &when, &e)?;
        }
        Ok(())
    }

    fn after_end(
        &mut self,
        monitor: &Interpreter<'t>,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for e in self.explainer.end(monitor, verdicts) {
            self.write(out, "\"end\": true", &e)?;
        }
        Ok(())
    }

    fn why(&self, k: usize) -> Option<String> {
        self.first_false.get(k)
    }
}

/// Writes, after each choice of a system run, one JSON line per guard the
/// choosing lifeline owns: the values of the guard's parts at that choice and
/// the events of the other lifelines it sees — for each, the last of its
/// events in the choosing lifeline's causal past, as a trace event index:
///
/// ```text
/// {"explain": "may_merge", "event": 15, "lifeline": "Committer", "verdict": "true", "why": "TestRunner.cand == cand = true, ...; sees Orchestrator up to event 0, TestRunner up to event 9, Security up to event 12"}
/// ```
///
/// It keeps every event's index per lifeline (8 bytes an event), so that a
/// lagging view can be placed.
#[derive(Clone)]
pub struct GuardLines {
    /// Per lifeline: its name as written in the spec, and as a JSON string.
    lifelines: Vec<(String, String)>,
    /// Per protocol: its name as a JSON string and its central monitor's
    /// state after the last event.
    protocols: Vec<(String, u32)>,
    /// Per lifeline: its guards' names as JSON strings.
    guards: Vec<Vec<String>>,
    /// Per lifeline: the trace indices of its events so far.
    events: Vec<Vec<u64>>,
}

impl GuardLines {
    /// Explanation lines for the guards of `system`.
    pub fn new(system: &SystemTables) -> Self {
        GuardLines {
            lifelines: system
                .lifelines
                .iter()
                .map(|l| (l.name.clone(), json::string(&l.name)))
                .collect(),
            protocols: system
                .protocols
                .iter()
                .map(|p| (json::string(&p.name), p.initial))
                .collect(),
            guards: system
                .lifelines
                .iter()
                .map(|l| {
                    l.guards
                        .iter()
                        .filter_map(|&g| g.get(&system.guards))
                        .map(|g| json::string(&g.name))
                        .collect()
                })
                .collect(),
            events: vec![Vec::new(); system.lifelines.len()],
        }
    }

    /// One line per protocol whose state event `event` (of `lifeline`)
    /// changed: a violation names the event types the protocol expected,
    /// otherwise what it still requires.
    fn explain_protocols(
        &mut self,
        monitors: &SystemInterpreter<'_>,
        event: u64,
        lifeline: usize,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let names: Vec<String> = self.lifelines.iter().map(|l| l.0.clone()).collect();
        let lifeline_name = self
            .lifelines
            .get(lifeline)
            .map_or("\"\"", |l| l.1.as_str());
        for (k, (name, last)) in self.protocols.iter_mut().enumerate() {
            let Some((table, state)) = monitors.protocol_state(k) else {
                continue;
            };
            if state == *last {
                continue;
            }
            let before = std::mem::replace(last, state);
            let why = protocol_why(table, before, state, &names);
            writeln!(
                out,
                "{{\"explain\": {name}, \"event\": {event}, \"lifeline\": {lifeline_name}, \
                 \"verdict\": \"{}\", \"why\": {}}}",
                table.verdict(state).as_str(),
                json::string(&why)
            )?;
        }
        Ok(())
    }

    /// `sees L up to event N, ...` for the other lifelines, by `clock`.
    fn seen(&self, me: usize, clock: &[u64]) -> String {
        let seen: Vec<String> = self
            .lifelines
            .iter()
            .zip(&self.events)
            .zip(clock)
            .enumerate()
            .filter(|&(l, _)| l != me)
            .map(|(_, (((name, _), events), &count))| {
                match count.checked_sub(1).and_then(|k| events.get(k as usize)) {
                    Some(event) => format!("{name} up to event {event}"),
                    None => format!("no event of {name}"),
                }
            })
            .collect();
        format!("sees {}", seen.join(", "))
    }
}

impl EventObserver<SystemInterpreter<'_>> for GuardLines {
    fn after_event(
        &mut self,
        monitors: &SystemInterpreter<'_>,
        event: u64,
        lifeline: usize,
        guards: Option<&[Verdict]>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if let Some(events) = self.events.get_mut(lifeline) {
            events.push(event);
        }
        self.explain_protocols(monitors, event, lifeline, out)?;
        let (Some(verdicts), Some(monitor)) = (guards, monitors.monitor(lifeline)) else {
            return Ok(());
        };
        let names = self.guards.get(lifeline).map_or(&[][..], Vec::as_slice);
        let lifeline_name = self
            .lifelines
            .get(lifeline)
            .map_or("\"\"", |l| l.1.as_str());
        let seen = self.seen(lifeline, monitor.clock());
        for (k, (name, verdict)) in names.iter().zip(verdicts).enumerate() {
            let parts = parts_now(monitor.table(), monitor.interpreter(), k);
            writeln!(
                out,
                "{{\"explain\": {name}, \"event\": {event}, \"lifeline\": {lifeline_name}, \
                 \"verdict\": \"{}\", \"why\": {}}}",
                verdict.as_str(),
                json::string(&format!("{parts}; {seen}"))
            )?;
        }
        Ok(())
    }
}

/// Writes, after the verdict lines of a population run, one JSON line per
/// property whose verdict changed (at step 0: from `?`; with `with reset`,
/// every decided verdict) and, after the end line, per property whose end
/// verdict differs from its last step's or is `false` — as for monitors, with
/// the quantifiers the property reads and which agents decided them:
///
/// ```text
/// {"explain": "few_sick", "step": 2, "verdict": "false", "why": "(count a in agents: a.sick) <= 1 = false; count a in agents: a.sick: 2 of 3 members hold (agents 0, 2), 1 does not (agent 1)"}
/// ```
///
/// At most [`hindsight_compiler::interp::population::WITNESSES`] agents are
/// named on each side; `…` marks more.
#[derive(Clone)]
pub struct PopulationLines<'t> {
    tables: &'t PopulationTables,
    /// Per property: its name as a JSON string.
    names: Vec<String>,
    /// Per signal, then per future quantifier: the quantifier as written.
    texts: Vec<String>,
    /// Per property: the verdict at the previous step.
    last: Vec<Verdict>,
    /// Explains the top table's future-time outputs as monitors are explained.
    top: Explainer<'t>,
    /// Per top output: this step's explanation by `top`, if it gave one.
    top_why: Vec<Option<String>>,
    /// Per property: why it was first false.
    first_false: FirstFalse,
}

impl<'t> PopulationLines<'t> {
    /// Explanation lines for `tables`, whose spec text is `source`.
    pub fn new(tables: &'t PopulationTables, source: &str) -> Self {
        let text = |span: hindsight_compiler::ast::Span| {
            source
                .get(span.range())
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        PopulationLines {
            tables,
            names: tables
                .properties
                .iter()
                .map(|p| json::string(&p.name))
                .collect(),
            texts: tables
                .signals
                .iter()
                .map(|s| text(s.span))
                .chain(tables.future_quantifiers.iter().map(|q| text(q.span)))
                .collect(),
            last: vec![Verdict::Unknown; tables.properties.len()],
            top: Explainer::new(&tables.top),
            top_why: vec![None; tables.top.outputs.len()],
            first_false: FirstFalse::new(tables.properties.len()),
        }
    }

    /// The top table's outputs' verdicts: those of the properties they are.
    fn top_verdicts(&self, verdicts: &[Verdict]) -> Vec<Verdict> {
        let mut top = vec![Verdict::Unknown; self.tables.top.outputs.len()];
        for (property, &verdict) in self.tables.properties.iter().zip(verdicts) {
            if let PropertyVerdict::Top(i) = property.verdict {
                if let Some(v) = top.get_mut(i.index()) {
                    *v = verdict;
                }
            }
        }
        top
    }

    /// Records the top explainer's explanations of this step (or the end).
    fn record_top(&mut self, explanations: Vec<Explanation>) {
        self.top_why.fill(None);
        for e in explanations {
            if let Some(why) = self.top_why.get_mut(e.output) {
                *why = Some(e.why);
            }
        }
    }

    /// Why property `p` has its verdict after the last step of `interpreter`.
    fn reasons(&self, interpreter: &PopulationInterpreter<'_>, p: usize) -> String {
        let mut reasons = Vec::new();
        if let Some(PropertyVerdict::Top(i)) = self.tables.properties.get(p).map(|x| &x.verdict) {
            // Parts that are quantifiers alone are said by their tallies below.
            let top = &self.tables.top;
            let globals = self.tables.globals.len();
            let only_quantifiers = i.get(&top.outputs).is_some_and(|out| {
                out.parts
                    .iter()
                    .all(|part| match part.slot.get(&top.slots).map(|s| s.op) {
                        Some(Op::Input(k)) => k >= globals,
                        Some(Op::Const(_)) => true,
                        _ => false,
                    })
            });
            let future = i
                .get(&top.outputs)
                .is_some_and(|out| matches!(out.source, Source::Future(_)));
            let monitor_why = self.top_why.get(i.index()).cloned().flatten();
            if let (true, Some(why)) = (future, monitor_why) {
                // A future-time property: its obligation, as for monitors.
                reasons.push(self.quantifiers_written(&why));
            } else if !only_quantifiers {
                let parts = parts_now(top, interpreter.top(), i.index());
                reasons.push(self.quantifiers_written(&parts));
            }
        }
        let (signals, futures) = self.tables.quantifiers_of(p);
        for j in signals {
            if let (Some(((members, held), w)), Some(text)) =
                (interpreter.signal_tally(j), self.texts.get(j.index()))
            {
                reasons.push(format!(
                    "{text}: {held} of {members} members hold{}, {} {}{}",
                    agents(held, &w.held),
                    members - held,
                    if members - held == 1 {
                        "does not"
                    } else {
                        "do not"
                    },
                    agents(members - held, &w.failed),
                ));
            }
        }
        for q in futures {
            let text = self.texts.get(self.tables.signals.len() + q.index());
            if let (Some(((members, trues, falses), _, w)), Some(text)) =
                (interpreter.future_tally(q), text)
            {
                reasons.push(format!(
                    "{text}: of {members} members, {trues} decided true{}, {falses} decided \
                     false{}, {} undecided",
                    agents(trues, &w.held),
                    agents(falses, &w.failed),
                    members.saturating_sub(trues + falses),
                ));
            }
        }
        reasons.retain(|r| !r.is_empty());
        reasons.join("; ")
    }

    /// `text` (parts of the top table) with each signal's input name replaced
    /// by its quantifier as written, in parentheses.
    fn quantifiers_written(&self, text: &str) -> String {
        let globals = self.tables.globals.len();
        let written = |name: &str| {
            let j = self.tables.top.inputs.iter().position(|i| i.name == name)?;
            let text = self.texts.get(j.checked_sub(globals)?)?;
            Some(if text.starts_with('(') {
                text.clone()
            } else {
                format!("({text})")
            })
        };
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            out.push_str(&rest[..start]);
            let word = &rest[start..];
            let end = word
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(word.len());
            let (name, after) = word.split_at(end);
            match written(name) {
                Some(quantifier) => out.push_str(&quantifier),
                None => out.push_str(name),
            }
            rest = after;
        }
        out.push_str(rest);
        out
    }

    /// `{"explain": NAME, WHEN, "verdict": V, "why": W}` and a newline.
    fn write(
        &mut self,
        out: &mut dyn Write,
        interpreter: &PopulationInterpreter<'_>,
        p: usize,
        when: &str,
        verdict: Verdict,
        prefix: &str,
    ) -> io::Result<()> {
        let why = format!("{prefix}{}", self.reasons(interpreter, p));
        self.line(out, p, when, verdict, &why)
    }

    /// Writes the explanation line of property `p`: `why` it has `verdict` `when`.
    fn line(
        &mut self,
        out: &mut dyn Write,
        p: usize,
        when: &str,
        verdict: Verdict,
        why: &str,
    ) -> io::Result<()> {
        self.first_false.note(p, verdict, why);
        let name = self.names.get(p).map_or("\"\"", String::as_str);
        writeln!(
            out,
            "{{\"explain\": {name}, {when}, \"verdict\": \"{}\", \"why\": {}}}",
            verdict.as_str(),
            json::string(why)
        )
    }

    /// The top explainer's end reason for past-time property `p` (whether it
    /// held at every step).
    fn audit_why(&self, p: usize) -> Option<String> {
        let PropertyVerdict::Top(i) = self.tables.properties.get(p)?.verdict else {
            return None;
        };
        self.top_why.get(i.index()).cloned().flatten()
    }
}

/// ` (agents 1, 4, …)` naming `listed` of `count` agents; empty for none.
fn agents(count: u64, listed: &[usize]) -> String {
    if count == 0 || listed.is_empty() {
        return String::new();
    }
    let names: Vec<String> = listed.iter().map(usize::to_string).collect();
    let more = if count > listed.len() as u64 {
        ", …"
    } else {
        ""
    };
    let noun = if count == 1 { "agent" } else { "agents" };
    format!(" ({noun} {}{more})", names.join(", "))
}

impl<'t> Observer<PopulationInterpreter<'t>> for PopulationLines<'_> {
    fn after_step(
        &mut self,
        monitor: &PopulationInterpreter<'t>,
        step: u64,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let top_verdicts = self.top_verdicts(verdicts);
        let explanations = self.top.step(monitor.top(), step, &top_verdicts);
        self.record_top(explanations);
        let when = format!("\"step\": {step}");
        for (p, &verdict) in verdicts.iter().enumerate() {
            let last = self.last.get(p).copied().unwrap_or(Verdict::Unknown);
            let reset = self.tables.properties.get(p).is_some_and(|x| x.reset);
            if verdict != last || (reset && verdict != Verdict::Unknown) {
                self.write(out, monitor, p, &when, verdict, "")?;
            }
        }
        self.last.clear();
        self.last.extend_from_slice(verdicts);
        Ok(())
    }

    fn after_end(
        &mut self,
        monitor: &PopulationInterpreter<'t>,
        verdicts: &[Verdict],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let top_verdicts = self.top_verdicts(verdicts);
        let explanations = self.top.end(monitor.top(), &top_verdicts);
        self.record_top(explanations);
        for (p, &verdict) in verdicts.iter().enumerate() {
            let last = self.last.get(p).copied().unwrap_or(Verdict::Unknown);
            let when = "\"end\": true";
            let past = self
                .tables
                .properties
                .get(p)
                .is_some_and(|x| self.tables.is_past(x));
            if past {
                // An audit of the steps: only a failed one needs saying.
                if let (Verdict::False, Some(why)) = (verdict, self.audit_why(p)) {
                    self.line(out, p, when, verdict, &why)?;
                }
            } else if verdict != last || verdict == Verdict::False {
                self.write(out, monitor, p, when, verdict, "at the last step: ")?;
            }
        }
        Ok(())
    }

    fn why(&self, k: usize) -> Option<String> {
        self.first_false.get(k)
    }
}

/// Why protocol `table` is in `state` after an event taken in `before`
/// (lifelines named `names`): at a violation, the event types it expected;
/// otherwise what it still requires (or allows, where it may end).
pub fn protocol_why(table: &ProtocolTable, before: u32, state: u32, names: &[String]) -> String {
    match table.states.get(state as usize) {
        None => {
            let expected: Vec<String> = table
                .expected(before)
                .map(|e| format!("`{}`", e.text(names)))
                .collect();
            match expected.as_slice() {
                [] => "the protocol was complete: it allowed no further event".to_string(),
                [one] => format!("expected {one}"),
                many => format!("expected one of {}", many.join(", ")),
            }
        }
        Some(s) if s.accepting => format!("may end here; still allowed: {}", s.residual),
        Some(s) => format!("still required: {}", s.residual),
    }
}
