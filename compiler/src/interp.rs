//! The interpreter: executes a [`Table`] one step at a time, with all buffers
//! allocated once in [`Interpreter::new`] and no allocation per step.
//!
//! Conventions:
//! - Inputs arrive as [`Value`]s in input declaration order. A value of the wrong
//!   type, or a missing one (slice too short), is read as the declared type's
//!   default (`false`, `0`, `0.0`, the first variant); extra values are ignored.
//!   The CLI validates inputs, so this never happens there; it only keeps the
//!   interpreter total.
//! - After the slots of a step, every automaton (future-time property) takes one
//!   transition on the letter its atom slots spell; a `with reset` one restarts
//!   after a decided verdict and counts it.
//! - [`Interpreter::finish`] gives the finite-trace verdicts: for past-time
//!   properties the value at the last step, for future-time ones the automaton's
//!   end verdict; [`Verdict::Unknown`] for every property of an empty trace (no
//!   step has happened, so there is no position to evaluate at).

use crate::hir::{ArithOp, BoolOp, CmpOp, Ty, Value};
use crate::table::{AutomatonState, CellKind, Op, Source, Table, Temporal};
use crate::Verdict;
use hindsight_runtime::{ResetCounts, StepMonitor};

/// Executes one [`Table`] over a trace.
#[derive(Clone, Debug)]
pub struct Interpreter<'t> {
    table: &'t Table,
    /// The value of every slot at the current step.
    slots: Vec<Value>,
    /// Per state cell: a bool (0/1) or a counter; unused for delay cells.
    cells: Vec<u64>,
    /// Per state cell: the first word of its ring in `delay_words` (delay cells only).
    delay_offsets: Vec<usize>,
    /// All delay rings, back to back.
    delay_words: Vec<u64>,
    /// The verdict of every output at the last step.
    verdicts: Vec<Verdict>,
    /// Per automaton: its current state.
    automaton_states: Vec<u32>,
    /// Per output: steps read by the current run of a future-time property (a
    /// `with reset` one restarts at 0 after each decided verdict).
    run_steps: Vec<u64>,
    /// Per output: decided verdicts counted by a `with reset` property.
    counts: Vec<ResetCounts>,
    steps: u64,
}

impl<'t> Interpreter<'t> {
    /// An interpreter in the initial state (before step 0).
    pub fn new(table: &'t Table) -> Self {
        let mut delay_offsets = Vec::with_capacity(table.state.len());
        let mut words = 0usize;
        for cell in &table.state {
            delay_offsets.push(words);
            words = words.saturating_add(cell.kind.delay_words());
        }
        let mut me = Interpreter {
            table,
            slots: vec![Value::Bool(false); table.slots.len()],
            cells: vec![0; table.state.len()],
            delay_offsets,
            delay_words: vec![0; words],
            verdicts: vec![Verdict::Unknown; table.outputs.len()],
            automaton_states: vec![0; table.automata.len()],
            run_steps: vec![0; table.outputs.len()],
            counts: vec![ResetCounts::default(); table.outputs.len()],
            steps: 0,
        };
        me.reset();
        me
    }

    /// Back to the initial state, as if no step had happened.
    pub fn reset(&mut self) {
        for (k, cell) in self.table.state.iter().enumerate() {
            match cell.kind {
                CellKind::Bool { init } => set(&mut self.cells, k, u64::from(init)),
                CellKind::Counter { init } => set(&mut self.cells, k, init),
                CellKind::Delay { init, .. } => {
                    let start = self.delay_offsets.get(k).copied().unwrap_or(0);
                    let end = start.saturating_add(cell.kind.delay_words());
                    if let Some(ring) = self.delay_words.get_mut(start..end) {
                        ring.fill(if init { u64::MAX } else { 0 });
                    }
                }
            }
        }
        self.verdicts.fill(Verdict::Unknown);
        self.automaton_states.fill(0);
        self.run_steps.fill(0);
        self.counts.fill(ResetCounts::default());
        self.steps = 0;
    }

    /// Puts future-time output `output`'s automata back in their initial state
    /// and its run's step count to 0, for restarts driven from outside (a
    /// population's combined properties `with reset`); state cells keep their
    /// history. Does nothing for a past-time output or an index out of range.
    pub fn restart(&mut self, output: usize) {
        if let Some(Source::Future(f)) = self.table.outputs.get(output).map(|o| o.source) {
            self.restart_future(f);
            set(&mut self.run_steps, output, 0);
        }
    }

    /// Puts the automata of future `f` back in their initial state.
    fn restart_future(&mut self, f: usize) {
        let table = self.table;
        for &a in table.futures.get(f).map_or(&[][..], |f| &f.automata) {
            set(&mut self.automaton_states, a, 0);
        }
    }

    /// Steps taken since creation or the last [`reset`](Self::reset).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The value of every slot at the last step (initial placeholders before step 0).
    pub fn slot_values(&self) -> &[Value] {
        &self.slots
    }

    /// Consumes one step's inputs; returns one verdict per output, in output order.
    pub fn step(&mut self, inputs: &[Value]) -> &[Verdict] {
        self.compute(inputs);
        self.update();
        self.steps = self.steps.saturating_add(1);
        for (k, out) in self.table.outputs.iter().enumerate() {
            let verdict = match out.source {
                Source::Slot(slot) => Verdict::from(bool_at(&self.slots, slot)),
                Source::Future(f) => self.advance(f, k, out.reset),
            };
            set(&mut self.verdicts, k, verdict);
        }
        &self.verdicts
    }

    /// One transition of every automaton of future `f` (the verdict source of
    /// output `k`); a decided verdict of a `with reset` output is counted and
    /// restarts the run.
    fn advance(&mut self, f: usize, k: usize, reset: bool) -> Verdict {
        let table = self.table;
        let Some(future) = table.futures.get(f) else {
            return Verdict::Unknown;
        };
        for &a in &future.automata {
            let (Some(automaton), Some(&state)) =
                (table.automata.get(a), self.automaton_states.get(a))
            else {
                continue;
            };
            let letter = automaton
                .atoms
                .iter()
                .enumerate()
                .fold(0u32, |l, (i, &slot)| {
                    l | (u32::from(bool_at(&self.slots, slot)) << i)
                });
            set(&mut self.automaton_states, a, automaton.next(state, letter));
        }
        let verdict = self.future_verdict(f, |s| s.verdict);
        let restart = reset && verdict != Verdict::Unknown;
        if restart {
            self.restart_future(f);
        }
        if let (Some(run), Some(counts)) = (self.run_steps.get_mut(k), self.counts.get_mut(k)) {
            *run = if restart { 0 } else { run.saturating_add(1) };
            if restart {
                counts.record(verdict);
            }
        }
        verdict
    }

    /// The finite-trace verdicts (the trace ended after the last step): a past-time
    /// property's value at the last step; a future-time property's end verdict (for
    /// a `with reset` one whose run just restarted, the verdict that ended the run);
    /// `Unknown` for every property of an empty trace.
    pub fn finish(&self) -> Vec<Verdict> {
        (0..self.table.outputs.len())
            .map(|k| self.end_verdict(k))
            .collect()
    }

    /// The decided verdicts counted per output (see [`StepMonitor::finish_counts`]).
    pub fn counts(&self) -> Vec<ResetCounts> {
        (0..self.table.outputs.len())
            .map(|k| self.end_counts(k))
            .collect()
    }

    /// The current state of every automaton, in [`Table::automata`] order.
    pub fn automaton_states(&self) -> &[u32] {
        &self.automaton_states
    }

    fn end_verdict(&self, k: usize) -> Verdict {
        let last = self.verdicts.get(k).copied().unwrap_or(Verdict::Unknown);
        let Some(out) = self.table.outputs.get(k) else {
            return Verdict::Unknown;
        };
        match out.source {
            Source::Slot(_) => last,
            Source::Future(_) if out.reset && self.run_steps.get(k) == Some(&0) => last,
            Source::Future(f) => self.future_verdict(f, |s| s.end_verdict),
        }
    }

    /// The combined verdict of future `f` in the automata's current states,
    /// reading `of` from each automaton's state.
    fn future_verdict(&self, f: usize, of: fn(&AutomatonState) -> Verdict) -> Verdict {
        let Some(future) = self.table.futures.get(f) else {
            return Verdict::Unknown;
        };
        future.verdict(&|a| {
            let state = self.automaton_states.get(a).copied().unwrap_or(0);
            self.table
                .automata
                .get(a)
                .and_then(|automaton| automaton.states.get(state as usize))
                .map_or(Verdict::Unknown, of)
        })
    }

    fn end_counts(&self, k: usize) -> ResetCounts {
        let mut counts = self.counts.get(k).copied().unwrap_or_default();
        if let Some(out) = self.table.outputs.get(k) {
            if out.reset && self.run_steps.get(k).is_some_and(|&r| r > 0) {
                if let Source::Future(f) = out.source {
                    counts.record(self.future_verdict(f, |s| s.end_verdict));
                }
            }
        }
        counts
    }

    /// Phase 1: every slot in order, reading the state left by the previous step.
    fn compute(&mut self, inputs: &[Value]) {
        let table = self.table;
        for (k, slot) in table.slots.iter().enumerate() {
            let s = &self.slots;
            let v = match slot.op {
                Op::Const(v) => v,
                Op::Input(i) => input(inputs.get(i).copied(), slot.ty, table),
                Op::Not(a) => Value::Bool(!bool_at(s, a)),
                Op::Neg(a) => neg(value_at(s, a)),
                Op::BoolToInt(a) => Value::Int(i64::from(bool_at(s, a))),
                Op::Bool(op, a, b) => Value::Bool(bool_op(op, bool_at(s, a), bool_at(s, b))),
                Op::Cmp(op, a, b) => Value::Bool(compare(op, value_at(s, a), value_at(s, b))),
                Op::Arith(op, a, b) => arith(op, value_at(s, a), value_at(s, b)),
                Op::Temporal(t, c) => Value::Bool(self.temporal_now(t, c)),
            };
            set(&mut self.slots, k, v);
        }
    }

    /// The value of a temporal op at this step, from its operands and its cell.
    fn temporal_now(&self, t: Temporal, cell: usize) -> bool {
        let s = &self.slots;
        let c = self.cells.get(cell).copied().unwrap_or(0);
        match t {
            Temporal::Prev { .. } => c != 0,
            Temporal::Once(a) => bool_at(s, a) || c != 0,
            Temporal::Hist(a) => bool_at(s, a) && c != 0,
            Temporal::Since(l, r) => bool_at(s, r) || (bool_at(s, l) && c != 0),
            Temporal::OnceWithin { arg, bound } => bool_at(s, arg) || c < bound,
            Temporal::HistWithin { arg, bound } => bool_at(s, arg) && c >= bound,
            Temporal::SinceWithin { lhs, rhs, bound } => {
                bool_at(s, rhs) || (bool_at(s, lhs) && c < bound)
            }
            Temporal::Delay { steps, .. } => {
                let (word, mask) = self.ring_position(cell, steps);
                self.delay_words.get(word).is_some_and(|w| w & mask != 0)
            }
        }
    }

    /// Phase 2: every state cell from the slot values of this step.
    fn update(&mut self) {
        let table = self.table;
        for (k, cell) in table.state.iter().enumerate() {
            let Some(Op::Temporal(t, _)) = table.slots.get(cell.owner).map(|s| s.op) else {
                continue;
            };
            let s = &self.slots;
            let now = bool_at(s, cell.owner);
            let c = self.cells.get(k).copied().unwrap_or(0);
            let next = match t {
                Temporal::Prev { arg, .. } => u64::from(bool_at(s, arg)),
                Temporal::Once(_) | Temporal::Hist(_) | Temporal::Since(..) => u64::from(now),
                Temporal::OnceWithin { arg, bound } => count(bool_at(s, arg), c, bound),
                Temporal::HistWithin { arg, bound } => count(!bool_at(s, arg), c, bound),
                Temporal::SinceWithin { lhs, rhs, bound } => {
                    if bool_at(s, rhs) {
                        0
                    } else if bool_at(s, lhs) {
                        c.saturating_add(1).min(bound)
                    } else {
                        bound
                    }
                }
                Temporal::Delay { arg, steps, .. } => {
                    let bit = bool_at(s, arg);
                    let (word, mask) = self.ring_position(k, steps);
                    if let Some(w) = self.delay_words.get_mut(word) {
                        if bit {
                            *w |= mask;
                        } else {
                            *w &= !mask;
                        }
                    }
                    continue;
                }
            };
            set(&mut self.cells, k, next);
        }
    }

    /// The word index and bit mask of this step's position in a delay ring.
    fn ring_position(&self, cell: usize, steps: u64) -> (usize, u64) {
        let pos = self.steps.checked_rem(steps).unwrap_or(0);
        let offset = self.delay_offsets.get(cell).copied().unwrap_or(0);
        let word = offset.saturating_add(usize::try_from(pos / 64).unwrap_or(usize::MAX));
        (word, 1u64 << (pos % 64))
    }
}

/// The interpreter as a generic runner drives it (e.g. the CLI's trace loop).
impl StepMonitor for Interpreter<'_> {
    fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
        copy_verdicts(self.step(inputs), verdicts);
    }

    fn finish_values(&self, verdicts: &mut [Verdict]) {
        for (k, v) in verdicts.iter_mut().enumerate() {
            *v = self.end_verdict(k);
        }
    }

    fn finish_counts(&self, counts: &mut [ResetCounts]) {
        for (k, c) in counts.iter_mut().enumerate() {
            *c = self.end_counts(k);
        }
    }

    fn reset(&mut self) {
        Interpreter::reset(self);
    }
}

/// Copies as many verdicts as both slices hold.
fn copy_verdicts(from: &[Verdict], to: &mut [Verdict]) {
    for (to, from) in to.iter_mut().zip(from) {
        *to = *from;
    }
}

/// A step counter: back to 0 when `restart`, else one more, saturating at `bound`.
fn count(restart: bool, c: u64, bound: u64) -> u64 {
    if restart {
        0
    } else {
        c.saturating_add(1).min(bound)
    }
}

fn set<T>(buf: &mut [T], k: usize, v: T) {
    if let Some(place) = buf.get_mut(k) {
        *place = v;
    }
}

fn value_at(slots: &[Value], k: usize) -> Value {
    slots.get(k).copied().unwrap_or(Value::Bool(false))
}

fn bool_at(slots: &[Value], k: usize) -> bool {
    value_at(slots, k).as_bool()
}

/// An input value, or the type's default when it is missing or of the wrong type.
/// An enum index beyond the enum's variants reads as the first variant, as in
/// generated code (whose Rust enums cannot hold such an index).
fn input(v: Option<Value>, ty: Ty, table: &Table) -> Value {
    match (v, ty) {
        (Some(v @ Value::Bool(_)), Ty::Bool)
        | (Some(v @ Value::Int(_)), Ty::Int)
        | (Some(v @ Value::Float(_)), Ty::Float)
        | (Some(v @ Value::Enum(_)), Ty::Enum(_))
            if in_range(v, ty, table) =>
        {
            v
        }
        (_, Ty::Bool) => Value::Bool(false),
        (_, Ty::Int) => Value::Int(0),
        (_, Ty::Float) => Value::Float(0.0),
        (_, Ty::Enum(_)) => Value::Enum(0),
    }
}

fn in_range(v: Value, ty: Ty, table: &Table) -> bool {
    match (v, ty) {
        (Value::Enum(k), Ty::Enum(e)) => table
            .enums
            .get(e)
            .is_some_and(|d| (k as usize) < d.variants.len()),
        _ => true,
    }
}

fn bool_op(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Implies => !a || b,
        BoolOp::Iff => a == b,
    }
}

/// IEEE comparison on floats (anything with NaN is unordered: only `!=` holds);
/// values of different kinds (never in checked code) compare as unequal and unordered.
fn compare(op: CmpOp, a: Value, b: Value) -> bool {
    use std::cmp::Ordering;
    let ord = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.partial_cmp(&y),
        (Value::Int(x), Value::Int(y)) => x.partial_cmp(&y),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(&y),
        (Value::Enum(x), Value::Enum(y)) => x.partial_cmp(&y),
        _ => None,
    };
    match op {
        CmpOp::Eq => ord == Some(Ordering::Equal),
        CmpOp::Ne => ord != Some(Ordering::Equal),
        CmpOp::Lt => ord == Some(Ordering::Less),
        CmpOp::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
        CmpOp::Gt => ord == Some(Ordering::Greater),
        CmpOp::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
    }
}

/// Wrapping on int, IEEE on float; mismatched kinds (never in checked code) give the left operand.
fn arith(op: ArithOp, a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(match op {
            ArithOp::Add => x.wrapping_add(y),
            ArithOp::Sub => x.wrapping_sub(y),
            ArithOp::Mul => x.wrapping_mul(y),
        }),
        (Value::Float(x), Value::Float(y)) => Value::Float(match op {
            ArithOp::Add => x + y,
            ArithOp::Sub => x - y,
            ArithOp::Mul => x * y,
        }),
        _ => a,
    }
}

fn neg(a: Value) -> Value {
    match a {
        Value::Int(x) => Value::Int(x.wrapping_neg()),
        Value::Float(x) => Value::Float(-x),
        other => other,
    }
}
