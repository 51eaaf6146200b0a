//! Why a verdict changed: the witnesses auditors read next to the verdict lines
//! (`hindsight check --explain`), computed from the interpreter's state.
//!
//! After each step, every property whose verdict changed (at step 0: from `?`)
//! is explained; a `with reset` property's decided verdicts each end a run of
//! their own, so every one of them is explained:
//!
//! - a past-time property by the values of its parts at this step
//!   (`alarm = true, !grant S request = false`);
//! - a future-time property still `?` by its residual obligation
//!   (`still required: F grant`);
//! - a future-time property decided at this step by the obligation before the
//!   step and the values of the atoms that obligation reads
//!   (`required grant; at this step grant = false`).
//!
//! A future-time property with a duration bound is explained by its open
//! obligation and how long ago it started (`still required: F[0,30s] result
//! after call 12s ago`), and when decided by the obligation and the operand
//! values at this step.
//!
//! At the end of the trace, every property whose finite-trace verdict differs
//! from its last step verdict, or is `false`, is explained.

use crate::interp::Interpreter;
use crate::ir::table::{
    pattern_window_text, Automaton, Combination, FutureId, Op, Output, Part, Source, Table,
    TimedFuture, TimedId,
};
use crate::surface::{is_compound, value_text};
use crate::types::Ty;
use crate::{Value, Verdict};
use hindsight_grammar::ast::duration_text;
use hindsight_runtime::time::{Deadline, Kind};

/// Why one property has the verdict it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The property: an index into [`Table::outputs`].
    pub output: usize,
    /// The verdict explained.
    pub verdict: Verdict,
    /// The reason, in surface syntax.
    pub why: String,
}

/// Why past-time output `output` of `table` has its value at the step
/// `interpreter` (an interpreter of `table`) just took: the values of its
/// parts, as `--explain` words them (`alarm = true, !grant S request = false`).
/// A system's guards are explained so, at each choice.
pub fn parts_now(table: &Table, interpreter: &Interpreter<'_>, output: usize) -> String {
    table
        .outputs
        .get(output)
        .map(|out| parts_text(table, interpreter, &out.parts))
        .unwrap_or_default()
}

/// The parts [`parts_now`] words, each as its text and its value's text
/// (`("alarm", "true")`): what a picture lists beside a guard's verdict.
pub fn parts_values(
    table: &Table,
    interpreter: &Interpreter<'_>,
    output: usize,
) -> Vec<(String, String)> {
    table
        .outputs
        .get(output)
        .map(|out| part_values(table, interpreter, &out.parts))
        .unwrap_or_default()
}

/// Follows an [`Interpreter`] step by step and explains its verdict changes.
#[derive(Clone, Debug)]
pub struct Explainer<'t> {
    table: &'t Table,
    /// Per output: the verdict at the previous step (`Unknown` before step 0).
    last: Vec<Verdict>,
    /// Per automaton: its state before the current step.
    before: Vec<u32>,
    /// Per timed property: its state before the current step.
    deadlines_before: Vec<Deadline>,
    /// Per output: the step and reason of its latest decided verdict.
    decided: Vec<Option<(u64, String)>>,
    /// Per output: how many steps it was false at, and the first of them.
    false_steps: Vec<(u64, Option<u64>)>,
    /// The step explained last.
    last_step: Option<u64>,
}

impl<'t> Explainer<'t> {
    /// An explainer for an interpreter of `table`, before step 0.
    pub fn new(table: &'t Table) -> Self {
        Explainer {
            table,
            last: vec![Verdict::Unknown; table.outputs.len()],
            before: vec![0; table.automata.len()],
            deadlines_before: vec![Deadline::NEW; table.timed.len()],
            decided: vec![None; table.outputs.len()],
            false_steps: vec![(0, None); table.outputs.len()],
            last_step: None,
        }
    }

    /// The explanations of step `step`, just taken by `interpreter` (an
    /// interpreter of this explainer's table), which gave `verdicts`.
    pub fn step(
        &mut self,
        interpreter: &Interpreter<'_>,
        step: u64,
        verdicts: &[Verdict],
    ) -> Vec<Explanation> {
        let mut explanations = Vec::new();
        for (audit, _) in self
            .false_steps
            .iter_mut()
            .zip(verdicts)
            .filter(|(_, &v)| v == Verdict::False)
        {
            audit.0 = audit.0.saturating_add(1);
            audit.1.get_or_insert(step);
        }
        for (k, (out, &verdict)) in self.table.outputs.iter().zip(verdicts).enumerate() {
            let last = self.last.get(k).copied().unwrap_or(Verdict::Unknown);
            let new_run = out.reset && verdict != Verdict::Unknown;
            if verdict == last && !new_run {
                continue;
            }
            let why = match out.source {
                Source::Slot(_) => parts_text(self.table, interpreter, &out.parts),
                Source::Future(f) => self.future_why(interpreter, out, f, verdict),
                Source::Timed(t) => self.timed_why(interpreter, out, t, verdict, step),
            };
            if verdict != Verdict::Unknown {
                if let Some(d) = self.decided.get_mut(k) {
                    *d = Some((step, why.clone()));
                }
            }
            explanations.push(Explanation {
                output: k,
                verdict,
                why,
            });
        }
        for (last, &v) in self.last.iter_mut().zip(verdicts) {
            *last = v;
        }
        self.last_step = Some(step);
        for (before, &s) in self.before.iter_mut().zip(interpreter.automaton_states()) {
            *before = s;
        }
        for (before, &d) in self
            .deadlines_before
            .iter_mut()
            .zip(interpreter.deadlines())
        {
            *before = d;
        }
        explanations
    }

    /// The explanations of the finite-trace `verdicts` of `interpreter`, after
    /// its last step: the future-time properties whose end verdict differs
    /// from their last step verdict or is `false`, and the past-time ones that
    /// did not hold at every step (how often they failed, and first when).
    pub fn end(&self, interpreter: &Interpreter<'_>, verdicts: &[Verdict]) -> Vec<Explanation> {
        let mut explanations = Vec::new();
        for (k, (out, &verdict)) in self.table.outputs.iter().zip(verdicts).enumerate() {
            let last = self.last.get(k).copied().unwrap_or(Verdict::Unknown);
            // A past-time property's end verdict is an audit of its steps:
            // only a failed one needs saying.
            let unchanged = verdict == last && verdict != Verdict::False;
            if unchanged || (out.is_past() && verdict != Verdict::False) {
                continue;
            }
            let why = match (out.source, self.decided.get(k)) {
                (Source::Slot(_), _) => self.audit_why(k),
                (Source::Future(_) | Source::Timed(_), Some(Some((step, why))))
                    if verdict == last =>
                {
                    format!("decided at step {step}: {why}")
                }
                (Source::Timed(t), _) => self.timed_end_why(interpreter, out, t, verdict),
                (Source::Future(f), _) => {
                    let residual = self.residual(f, interpreter.automaton_states());
                    match verdict {
                        Verdict::False => {
                            format!("the trace ended with {residual} still required")
                        }
                        Verdict::True => format!(
                            "the trace ended with only {residual} required, which holds at the end of a trace"
                        ),
                        Verdict::Unknown => "no step was read".to_string(),
                    }
                }
            };
            explanations.push(Explanation {
                output: k,
                verdict,
                why,
            });
        }
        explanations
    }

    /// Why past-time output `k` has its end verdict: whether it held at every
    /// step, and if not, at how many and from which step on.
    fn audit_why(&self, k: usize) -> String {
        match self.false_steps.get(k).copied().unwrap_or_default() {
            (0, _) => "held at every step".to_string(),
            (n, first) => {
                let steps = if n == 1 { "step" } else { "steps" };
                let first = first.unwrap_or_default();
                format!("false at {n} {steps}, the first at step {first}")
            }
        }
    }

    /// Why future-time output `out` (future `f`) has `verdict` after this step.
    fn future_why(
        &self,
        interpreter: &Interpreter<'_>,
        out: &Output,
        f: FutureId,
        verdict: Verdict,
    ) -> String {
        if verdict == Verdict::Unknown {
            let now = interpreter.automaton_states();
            return format!("still required: {}", self.residual(f, now));
        }
        let required = self.residual(f, &self.before);
        let Some(future) = f.get(&self.table.futures) else {
            return format!("required {required}");
        };
        let verdict_before = future.verdict(&|a| {
            let state = self.before.get(a.index()).copied().unwrap_or(0);
            a.get(&self.table.automata)
                .and_then(|automaton| automaton.states.get(state as usize))
                .map_or(Verdict::Unknown, |s| s.verdict)
        });
        if verdict_before == verdict {
            return match verdict {
                Verdict::False => format!("no trace can satisfy {required}"),
                _ => format!("every trace satisfies {required}"),
            };
        }
        // The parts read by the obligations before the step.
        let read: Vec<Part> = out
            .parts
            .iter()
            .filter(|p| {
                future.automata.iter().any(|&a| {
                    let (Some(automaton), Some(&state)) =
                        (a.get(&self.table.automata), self.before.get(a.index()))
                    else {
                        return false;
                    };
                    automaton
                        .atoms
                        .iter()
                        .position(|&slot| slot == p.slot)
                        .is_some_and(|i| reads_atom(automaton, state, i))
                })
            })
            .cloned()
            .collect();
        let shown = if read.is_empty() { &out.parts } else { &read };
        format!(
            "required {required}; at this step {}",
            parts_text(self.table, interpreter, shown)
        )
    }

    /// Timed property `t` of output `out`, the texts of its pieces and the
    /// time of the last step.
    fn timed_context(
        &self,
        interpreter: &Interpreter<'_>,
        out: &Output,
        t: TimedId,
    ) -> Option<(&'t TimedFuture, TimedTexts, i64)> {
        let timed = t.get(&self.table.timed)?;
        Some((timed, TimedTexts::new(out, timed), interpreter.clock()))
    }

    /// Why timed output `out` (timed property `t`) has `verdict` after step
    /// `step`: the obligation that decided it, from the step that raised it
    /// (or how long ago, in time), and the parts' values now.
    fn timed_why(
        &self,
        interpreter: &Interpreter<'_>,
        out: &Output,
        t: TimedId,
        verdict: Verdict,
        step: u64,
    ) -> String {
        let Some((timed, texts, now)) = self.timed_context(interpreter, out, t) else {
            return String::new();
        };
        let after = interpreter
            .deadlines()
            .get(t.index())
            .copied()
            .unwrap_or_default();
        let before = self
            .deadlines_before
            .get(t.index())
            .copied()
            .unwrap_or_default();
        let p = timed.pattern;
        if verdict == Verdict::Unknown {
            let age = after.open_age(p, now);
            return format!("still required: {}", texts.required(timed, age, step));
        }
        // Counting steps, the state before this step is one step younger.
        let age = before.open_age(p, now).map(|a| a + u64::from(p.steps));
        let outcome = match (verdict, p.kind) {
            (Verdict::True, Kind::Always) => "held through",
            (Verdict::True, _) => "met at",
            (_, Kind::Eventually) => "not met by",
            (_, _) => "broken at",
        };
        format!(
            "required {}: {outcome} step {step}; {}",
            texts.required(timed, age, step),
            parts_text(self.table, interpreter, &out.parts)
        )
    }

    /// Why timed output `out` (timed property `t`) has `verdict` at the end.
    fn timed_end_why(
        &self,
        interpreter: &Interpreter<'_>,
        out: &Output,
        t: TimedId,
        verdict: Verdict,
    ) -> String {
        let Some((timed, texts, now)) = self.timed_context(interpreter, out, t) else {
            return String::new();
        };
        let open = interpreter
            .deadlines()
            .get(t.index())
            .and_then(|d| d.open_age(timed.pattern, now));
        match (verdict, open, timed.pattern.kind) {
            (Verdict::Unknown, _, _) => "no step was read".to_string(),
            (Verdict::False, Some(age), _) => format!(
                "the trace ended with {} still required",
                texts.obligation(timed, age, self.last_step.unwrap_or_default())
            ),
            (_, _, Kind::Always) => format!(
                "the trace ended with no violation of {}: a window running past the end holds",
                texts.whole
            ),
            (_, _, _) => format!("the trace ended with no obligation of {} open", texts.whole),
        }
    }

    /// The residual obligation of future `f` with its automata in `states`
    /// (indexed like [`Table::automata`]), without parentheses around the
    /// whole of it: the combination of its parts' residuals, leaving out parts
    /// that no longer matter (a satisfied conjunct, a violated disjunct).
    fn residual(&self, f: FutureId, states: &[u32]) -> String {
        let Some(future) = f.get(&self.table.futures) else {
            return "?".to_string();
        };
        let state = |a: usize| {
            let s = states.get(a).copied().unwrap_or(0);
            self.table
                .automata
                .get(a)
                .and_then(|automaton| automaton.states.get(s as usize))
        };
        let text = combined_residual(&future.combination, &state);
        unwrapped(&text).to_string()
    }
}

/// `age` steps (`1 step`, `12 steps`) with `steps`; else `age` microseconds
/// as a duration literal when it is one (`30s`), else in seconds with their
/// fraction (`12.5s`).
fn age_text(age: u64, steps: bool) -> String {
    if steps {
        return match age {
            1 => "1 step".to_string(),
            _ => format!("{age} steps"),
        };
    }
    if age.is_multiple_of(1_000_000) || (age < 1_000_000 && age.is_multiple_of(1_000)) {
        duration_text(age)
    } else {
        format!("{}s", age as f64 / 1e6)
    }
}

/// The texts of a timed property's pieces, from its parts.
struct TimedTexts {
    /// The whole formula.
    whole: String,
    /// The operator `M` with its operands (`F[0,30s] result`).
    operator: String,
    /// The trigger, if any.
    trigger: Option<String>,
}

impl TimedTexts {
    fn new(out: &Output, timed: &TimedFuture) -> Self {
        let text = |slot| {
            out.parts
                .iter()
                .find(|p| p.slot == slot)
                .map_or_else(|| format!("s{slot}"), |p| enclosed(p.text.clone()))
        };
        let p = timed.pattern;
        let window = pattern_window_text(p);
        let target = text(timed.target);
        let operator = match p.kind {
            Kind::Eventually => format!("F{window} {target}"),
            Kind::Always => format!("G{window} {target}"),
            Kind::Until => {
                let lhs = timed.lhs.map_or_else(|| "true".to_string(), text);
                format!("{lhs} U{window} {target}")
            }
        };
        let trigger = timed.trigger.map(text);
        let body = match &trigger {
            Some(trigger) => format!("{trigger} -> {operator}"),
            None => operator.clone(),
        };
        let whole = match (p.every, &trigger) {
            (true, Some(_)) => format!("G ({body})"),
            (true, None) => format!("G {body}"),
            (false, _) => body,
        };
        TimedTexts {
            whole,
            operator,
            trigger,
        }
    }

    /// What is still required at step `step`: the open obligation of age
    /// `age`, or the whole formula when none is open.
    fn required(&self, timed: &TimedFuture, age: Option<u64>, step: u64) -> String {
        match age {
            Some(age) => self.obligation(timed, age, step),
            None => self.whole.clone(),
        }
    }

    /// The open obligation at step `step`, anchored `age` steps or
    /// microseconds before: `F[0,3] result after call at step 2` (steps are
    /// named), `F[0,30s] result after call 12s ago` (times are not steps),
    /// `... from step 2` under `G` without a trigger, `... from the first
    /// step` (`..., 1.5s ago` in time) otherwise.
    fn obligation(&self, timed: &TimedFuture, age: u64, step: u64) -> String {
        // Where the obligation starts, as the object of `from` and of `after`.
        let (from, at) = match (timed.pattern.steps, step.checked_sub(age)) {
            (true, Some(origin)) => (format!("step {origin}"), format!("at step {origin}")),
            _ if age == 0 => ("this step".to_string(), "at this step".to_string()),
            _ => {
                let ago = format!("{} ago", age_text(age, timed.pattern.steps));
                (format!("the step {ago}"), ago)
            }
        };
        match (&self.trigger, timed.pattern.every) {
            (Some(trigger), true) => format!("{} after {trigger} {at}", self.operator),
            (None, true) => format!("{} from {from}", self.operator),
            // The first step is step 0: only a time needs saying.
            (_, false) if timed.pattern.steps => format!("{} from the first step", self.operator),
            (_, false) => format!("{} from the first step, {at}", self.operator),
        }
    }
}

/// The residual of a combination: each part's residual in its state, a
/// conjunction without its satisfied parts, a disjunction without its
/// violated ones.
fn combined_residual<'a>(
    c: &Combination,
    state: &dyn Fn(usize) -> Option<&'a crate::ir::table::AutomatonState>,
) -> String {
    let decided = |c: &Combination, v: Verdict| matches!(c, Combination::Part(a) if state(*a).map(|s| s.verdict) == Some(v));
    let group = |cs: &[Combination], skip: Verdict, op: &str, empty: &str| {
        let kept: Vec<String> = cs
            .iter()
            .filter(|c| !decided(c, skip))
            .map(|c| enclosed(combined_residual(c, state)))
            .collect();
        match kept.len() {
            0 => empty.to_string(),
            1 => unwrapped(&kept[0]).to_string(),
            _ => kept.join(op),
        }
    };
    match c {
        Combination::Part(a) => state(*a).map_or_else(|| "?".to_string(), |s| s.residual.clone()),
        Combination::Not(inner) => format!("!{}", enclosed(combined_residual(inner, state))),
        Combination::And(cs) => group(cs, Verdict::True, " && ", "true"),
        Combination::Or(cs) => group(cs, Verdict::False, " || ", "false"),
    }
}

/// Whether the successor of `state` depends on atom `i`: flipping it changes
/// the successor for some letter.
fn reads_atom(automaton: &Automaton, state: u32, i: usize) -> bool {
    let Some(bit) = u32::try_from(i).ok().and_then(|i| 1u32.checked_shl(i)) else {
        return false;
    };
    (0..automaton.letters() as u32)
        .any(|letter| automaton.next(state, letter) != automaton.next(state, letter ^ bit))
}

/// `a = true, x + 1 = 3`: each part's text and its value at the last step;
/// constants (the `10` of `x < 10`) are left out unless every part is one.
fn parts_text(table: &Table, interpreter: &Interpreter<'_>, parts: &[Part]) -> String {
    let shown: Vec<String> = part_values(table, interpreter, parts)
        .into_iter()
        .map(|(text, value)| format!("{text} = {value}"))
        .collect();
    shown.join(", ")
}

/// Each part's text and value; constant parts left out unless all are.
fn part_values(
    table: &Table,
    interpreter: &Interpreter<'_>,
    parts: &[Part],
) -> Vec<(String, String)> {
    let values = interpreter.slot_values();
    let is_const = |p: &&Part| matches!(table.slots.get(p.slot.index()), Some(s) if matches!(s.op, Op::Const(_)));
    let all_const = parts.iter().all(|p| is_const(&p));
    parts
        .iter()
        .filter(|p| all_const || !is_const(p))
        .map(|p| {
            let value = values
                .get(p.slot.index())
                .copied()
                .unwrap_or(Value::Bool(false));
            let ty = table.slots.get(p.slot.index()).map_or(Ty::Bool, |s| s.ty);
            (p.text.clone(), value_text(&table.enums, value, ty))
        })
        .collect()
}

/// `text` in parentheses unless it is one token or already enclosed in a pair.
fn enclosed(text: String) -> String {
    if is_compound(&text) || (text.contains(' ') && unwrapped(&text) == text) {
        format!("({text})")
    } else {
        text
    }
}

/// `text` without one pair of parentheses enclosing all of it: `(a == b)` is
/// `a == b`, but `(a) && (b)` stays as it is.
fn unwrapped(text: &str) -> &str {
    let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) else {
        return text;
    };
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return text,
            ')' => depth -= 1,
            _ => {}
        }
    }
    inner
}

#[cfg(test)]
mod tests {
    use super::unwrapped;

    #[test]
    fn only_parentheses_around_everything_are_dropped() {
        assert_eq!(unwrapped("(phase == busy)"), "phase == busy");
        assert_eq!(unwrapped("((a))"), "(a)");
        assert_eq!(unwrapped("(a) && (b)"), "(a) && (b)");
        assert_eq!(unwrapped("F grant"), "F grant");
        assert_eq!(unwrapped("()"), "");
        assert_eq!(unwrapped("("), "(");
    }
}
