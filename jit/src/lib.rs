//! Monitor tables compiled to machine code at run time: the fast path of
//! `hindsight check`, which would otherwise interpret the table.
//!
//! [`JitMonitor::new`] lowers a [`Table`] to one Cranelift function, a loop
//! over any number of steps (`lower`), and runs it (`code`, the crate's only
//! `unsafe`). It gives exactly the interpreter's verdicts — the differential
//! tests hold it to that — for every table without duration-bounded past
//! operators; for those [`JitMonitor::new`] says why not ([`Unsupported`])
//! and callers interpret. Deadlines (counted windows, metric future
//! operators) are stepped here, in Rust, from operand bits the code writes.

mod code;
mod lower;

use std::fmt;
use std::sync::Arc;

use hindsight_compiler::ir::table::{Source, Table, TimedFuture, TimedId};
use hindsight_compiler::{Value, Verdict};
use hindsight_runtime::time::{Deadline, NEVER};
use hindsight_runtime::{ResetCounts, StepMonitor};

use code::Code;

/// Why a table is not compiled: the feature the machine code does not cover
/// (interpret the table instead).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not compiled to machine code: {}", self.0)
    }
}

/// A monitor table compiled to machine code, with its own state; clones share
/// the code and start from the clone's state.
pub struct JitMonitor {
    compiled: Arc<Compiled>,
    /// Cells, automaton states, `with reset` runs (`lower`'s layout).
    state: Vec<u64>,
    /// A step's inputs padded to one value per input, when given fewer.
    padded: Vec<Value>,
    /// The last step's verdict bytes.
    verdicts: Vec<u8>,
    /// The verdict bytes of the steps of [`JitMonitor::step_rows`].
    rows: Vec<u8>,
    /// Per output monitored by a deadline (in [`Compiled::timed`] order): its
    /// deadline, stepped here from the operand bits the code writes.
    deadlines: Vec<Deadline>,
    /// The time of the last step (as the interpreter's clock).
    clock: i64,
}

impl Clone for JitMonitor {
    fn clone(&self) -> Self {
        JitMonitor {
            compiled: Arc::clone(&self.compiled),
            state: self.state.clone(),
            padded: self.padded.clone(),
            verdicts: self.verdicts.clone(),
            rows: Vec::new(),
            deadlines: self.deadlines.clone(),
            clock: self.clock,
        }
    }

    /// Copies `source` into this monitor's buffers: a copy taken before
    /// every peek allocates nothing once the buffers have their size.
    fn clone_from(&mut self, source: &Self) {
        self.compiled = Arc::clone(&source.compiled);
        self.state.clone_from(&source.state);
        self.padded.clone_from(&source.padded);
        self.verdicts.clone_from(&source.verdicts);
        self.deadlines.clone_from(&source.deadlines);
        self.clock = source.clock;
    }
}

/// What every clone shares.
struct Compiled {
    code: Code,
    table: Table,
    /// The initial state.
    init: Vec<u64>,
    /// The state word of the first automaton.
    automata: usize,
    /// Per output: the first state word of a `with reset` property's run.
    runs: Vec<Option<usize>>,
    /// The outputs monitored by a deadline: (output, its timed property).
    timed: Vec<(usize, TimedId)>,
}

impl fmt::Debug for JitMonitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JitMonitor")
            .field("table", &self.compiled.table.name)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl JitMonitor {
    /// `table` compiled for this processor, in its initial state; or why it
    /// cannot be.
    pub fn new(table: &Table) -> Result<JitMonitor, Unsupported> {
        let layout = lower::Layout::new(table);
        lower::supported(table, &layout)?;
        let code = lower::compile(table, &layout)?;
        let init = layout.initial(table);
        let compiled = Compiled {
            code,
            table: table.clone(),
            init: init.clone(),
            automata: layout.automata,
            runs: layout.runs,
            timed: table
                .outputs
                .iter()
                .enumerate()
                .filter_map(|(k, o)| match o.source {
                    Source::Timed(t) => Some((k, t)),
                    _ => None,
                })
                .collect(),
        };
        let deadlines = vec![Deadline::NEW; compiled.timed.len()];
        Ok(JitMonitor {
            deadlines,
            clock: NEVER,
            state: init,
            padded: Vec::new(),
            verdicts: vec![lower::verdict_byte(Verdict::Unknown); table.outputs.len()],
            rows: Vec::new(),
            compiled: Arc::new(compiled),
        })
    }

    /// The table it runs.
    pub fn table(&self) -> &Table {
        &self.compiled.table
    }

    /// One step: `inputs` one value per input in declaration order (missing or
    /// mistyped ones read as the type's default, as in the interpreter);
    /// writes one verdict per property into `verdicts`.
    pub fn step(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
        let width = self.compiled.table.inputs.len();
        let inputs = if inputs.len() >= width {
            inputs
        } else {
            // Missing values read as the default of any type.
            self.padded.clear();
            self.padded.extend_from_slice(inputs);
            self.padded.resize(width, Value::Bool(false));
            &self.padded
        };
        let compiled = &*self.compiled;
        compiled
            .code
            .run(&mut self.state, inputs, &mut self.verdicts, 1);
        if !compiled.timed.is_empty() {
            let (state, deadlines) = (&mut self.state, &mut self.deadlines);
            self.clock =
                compiled.after_code(state, deadlines, self.clock, inputs, &mut self.verdicts);
        }
        for (v, &byte) in verdicts.iter_mut().zip(&self.verdicts) {
            *v = verdict_of(byte);
        }
    }

    /// `steps` steps at once ([`StepMonitor::step_rows`]): the machine code
    /// loops over them in one call when each row of `inputs` holds one value
    /// per input and each row of `verdicts` one verdict per property (other
    /// rows are stepped one by one); with no deadline, it writes the
    /// verdicts where they go.
    pub fn step_rows(&mut self, steps: usize, inputs: &[Value], verdicts: &mut [Verdict]) {
        let compiled = &*self.compiled;
        let (width, outputs) = (compiled.table.inputs.len(), compiled.table.outputs.len());
        let fits = |len: usize, per_step: usize| steps.checked_mul(per_step) == Some(len);
        if steps == 0 || !fits(inputs.len(), width) || !fits(verdicts.len(), outputs) {
            hindsight_runtime::step_each_row(self, steps, inputs, verdicts);
            return;
        }
        let code = &compiled.code;
        if !code.run_verdicts(&mut self.state, inputs, verdicts, steps) {
            self.rows.resize(steps * outputs, 0);
            code.run(&mut self.state, inputs, &mut self.rows, steps);
            let rows = self.rows.chunks_exact_mut(outputs.max(1));
            for (k, (bytes, out)) in rows
                .zip(verdicts.chunks_exact_mut(outputs.max(1)))
                .enumerate()
            {
                let row = inputs.get(k * width..(k + 1) * width).unwrap_or_default();
                let (state, deadlines) = (&mut self.state, &mut self.deadlines);
                self.clock = compiled.after_code(state, deadlines, self.clock, row, bytes);
                for (v, &byte) in out.iter_mut().zip(&*bytes) {
                    *v = verdict_of(byte);
                }
            }
        }
        let last = verdicts.len() - outputs;
        for (byte, v) in self.verdicts.iter_mut().zip(&verdicts[last..]) {
            *byte = lower::verdict_byte(*v);
        }
    }

    /// The finite-trace verdicts after the last step: a past-time property's
    /// last value, a future-time one's end verdict (`Unknown` for every
    /// property of an empty trace).
    /// For a `with reset` property whose run just restarted, the verdict
    /// that ended the run.
    pub fn finish(&self, verdicts: &mut [Verdict]) {
        for (k, v) in verdicts.iter_mut().enumerate() {
            let last = self
                .verdicts
                .get(k)
                .map_or(Verdict::Unknown, |&b| verdict_of(b));
            *v = match self.run(k) {
                Some((0, _)) => last,
                _ => self.end_verdict(k).unwrap_or(last),
            };
        }
    }

    /// Output `k`'s deadline and its property, if a deadline monitors it.
    fn timed(&self, k: usize) -> Option<(&Deadline, &TimedFuture)> {
        let j = self.compiled.timed.iter().position(|&(o, _)| o == k)?;
        let (_, t) = self.compiled.timed[j];
        Some((self.deadlines.get(j)?, t.get(&self.compiled.table.timed)?))
    }

    /// The decided verdicts each `with reset` property counted, with the end
    /// verdict of its unfinished run (all zero for other properties).
    pub fn counts(&self, counts: &mut [ResetCounts]) {
        for (k, c) in counts.iter_mut().enumerate() {
            *c = ResetCounts::default();
            if let Some((steps, counted)) = self.run(k) {
                *c = counted;
                if steps > 0 {
                    c.record(self.end_verdict(k).unwrap_or(Verdict::Unknown));
                }
            }
        }
    }

    /// A `with reset` property's run: its steps so far and the decided
    /// verdicts counted.
    fn run(&self, k: usize) -> Option<(u64, ResetCounts)> {
        let at = self.compiled.runs.get(k).copied().flatten()?;
        let [steps, satisfactions, violations] = self.state.get(at..at + 3)?.try_into().ok()?;
        Some((
            steps,
            ResetCounts {
                satisfactions,
                violations,
            },
        ))
    }

    /// The end verdict of future-time output `k` in the automata's states
    /// (`None` for a past-time one).
    fn end_verdict(&self, k: usize) -> Option<Verdict> {
        let table = &self.compiled.table;
        if let Some((deadline, timed)) = self.timed(k) {
            return Some(deadline.end_verdict(timed.pattern));
        }
        let Source::Future(f) = table.outputs.get(k)?.source else {
            return None;
        };
        let future = f.get(&table.futures)?;
        Some(future.verdict(&|a| {
            let word = self.compiled.automata + a.index();
            let state = self.state.get(word).copied().unwrap_or(0);
            a.get(&table.automata)
                .and_then(|automaton| automaton.states.get(state as usize))
                .map_or(Verdict::Unknown, |s| s.end_verdict)
        }))
    }

    /// Back to the initial state.
    pub fn reset(&mut self) {
        self.state.copy_from_slice(&self.compiled.init);
        self.verdicts.fill(lower::verdict_byte(Verdict::Unknown));
        self.deadlines.fill(Deadline::NEW);
        self.clock = NEVER;
    }
}

impl Compiled {
    /// What a step does after its machine code ran, given its `inputs`
    /// and the verdict `bytes` the code wrote: steps the deadlines from
    /// the operand bits the code wrote for them (replacing those with
    /// their verdicts) and their `with reset` runs. Returns the step's time.
    fn after_code(
        &self,
        state: &mut [u64],
        deadlines: &mut [Deadline],
        clock: i64,
        inputs: &[Value],
        bytes: &mut [u8],
    ) -> i64 {
        let now = self.now(inputs, clock);
        for (deadline, &(k, t)) in deadlines.iter_mut().zip(&self.timed) {
            let (Some(byte), Some(timed)) = (bytes.get_mut(k), t.get(&self.table.timed)) else {
                continue;
            };
            let bit = |i: u8| *byte & (1 << i) != 0;
            let verdict = deadline.step(timed.pattern, now, bit(0), bit(1), bit(2));
            *byte = lower::verdict_byte(verdict);
            // A `with reset` run, in the words the code keeps a future's in.
            let at = self.runs.get(k).copied().flatten();
            if let Some([steps, satisfactions, violations]) =
                at.and_then(|at| state.get_mut(at..at + 3))
            {
                let mut counts = ResetCounts {
                    satisfactions: *satisfactions,
                    violations: *violations,
                };
                let decided = verdict != Verdict::Unknown;
                *steps = if decided { 0 } else { steps.saturating_add(1) };
                if decided {
                    counts.record(verdict);
                    (*satisfactions, *violations) = (counts.satisfactions, counts.violations);
                    *deadline = Deadline::NEW;
                }
            }
        }
        now
    }

    /// The time of a step with `inputs` after one at `clock`: its time
    /// input, never below the clock (`0` when steps have no time), as the
    /// interpreter's clock reads it.
    fn now(&self, inputs: &[Value], clock: i64) -> i64 {
        match self.table.reading.time.map(|t| inputs.get(t)) {
            Some(Some(&Value::Int(time))) => time.max(clock),
            Some(_) => clock.max(0),
            None => 0,
        }
    }
}

/// The verdict of a verdict byte (`lower`'s encoding).
fn verdict_of(byte: u8) -> Verdict {
    match byte {
        0 => Verdict::False,
        2 => Verdict::True,
        _ => Verdict::Unknown,
    }
}

impl StepMonitor for JitMonitor {
    fn step_values(&mut self, inputs: &[Value], verdicts: &mut [Verdict]) {
        self.step(inputs, verdicts);
    }

    fn step_rows(&mut self, steps: usize, inputs: &[Value], verdicts: &mut [Verdict]) {
        JitMonitor::step_rows(self, steps, inputs, verdicts);
    }

    fn finish_values(&self, verdicts: &mut [Verdict]) {
        self.finish(verdicts);
    }

    fn finish_counts(&self, counts: &mut [ResetCounts]) {
        self.counts(counts);
    }

    fn reset(&mut self) {
        JitMonitor::reset(self);
    }
}
