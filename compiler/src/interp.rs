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

pub mod explain;
pub mod population;
pub mod protocol;
pub mod system;

pub use population::PopulationInterpreter;

use crate::ir::table::state_width;
use crate::ir::table::{
    AutomatonId, AutomatonState, CellId, CellKind, FutureId, Op, OutputId, SlotId, Source, Table,
    Temporal, TimedId,
};
use crate::types::{ArithOp, BoolOp, CmpOp, Ty, Value};
use crate::Verdict;
use hindsight_runtime::time::{self, Deadline, Words, WordsMut, NEVER};
use hindsight_runtime::{rules, ResetCounts, StepMonitor};
use std::ops::{Deref, DerefMut};

/// Executes one [`Table`] over a trace.
#[derive(Clone, Debug)]
pub struct Interpreter<'t> {
    engine: Engine<'t>,
    state: Owned,
    /// Per output: steps read by the current run of a future-time property (a
    /// `with reset` one restarts at 0 after each decided verdict), and the
    /// decided verdicts a `with reset` property counted.
    book: RunBook,
    steps: u64,
}

/// Per output, the runs of `with reset` properties.
#[derive(Clone, Debug)]
pub(crate) struct RunBook {
    run_steps: Vec<u64>,
    counts: Vec<ResetCounts>,
}

impl<'t> Interpreter<'t> {
    /// An interpreter in the initial state (before step 0).
    pub fn new(table: &'t Table) -> Self {
        let mut me = Interpreter {
            engine: Engine::new(table),
            state: Owned::new(table),
            book: RunBook {
                run_steps: vec![0; table.outputs.len()],
                counts: vec![ResetCounts::default(); table.outputs.len()],
            },
            steps: 0,
        };
        me.reset();
        me
    }

    /// Back to the initial state, as if no step had happened.
    pub fn reset(&mut self) {
        self.engine.init(&mut self.state);
        self.book.run_steps.fill(0);
        self.book.counts.fill(ResetCounts::default());
        self.steps = 0;
    }

    /// Puts future-time output `output`'s automata back in their initial state
    /// and its run's step count to 0, for restarts driven from outside (a
    /// population's combined properties `with reset`); state cells keep their
    /// history. Does nothing for a past-time output or an index out of range.
    pub fn restart(&mut self, output: OutputId) {
        if self.engine.restart_output(&mut self.state, output) {
            set(&mut self.book.run_steps, output.index(), 0);
        }
    }

    /// Steps taken since creation or the last [`reset`](Self::reset).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The value of every slot at the last step (initial placeholders before step 0).
    pub fn slot_values(&self) -> &[Value] {
        &self.engine.slots
    }

    /// Consumes one step's inputs; returns one verdict per output, in output order.
    pub fn step(&mut self, inputs: &[Value]) -> &[Verdict] {
        let steps = self.steps;
        self.steps = self.steps.saturating_add(1);
        self.engine
            .step(&mut self.state, steps, inputs, Some(&mut self.book))
    }

    /// The finite-trace verdicts (the trace ended after the last step): a past-time
    /// property's value at the last step; a future-time property's end verdict (for
    /// a `with reset` one whose run just restarted, the verdict that ended the run);
    /// `Unknown` for every property of an empty trace.
    pub fn finish(&self) -> Vec<Verdict> {
        (0..self.engine.table.outputs.len())
            .map(|k| self.end_verdict(k))
            .collect()
    }

    /// The decided verdicts counted per output (see [`StepMonitor::finish_counts`]).
    pub fn counts(&self) -> Vec<ResetCounts> {
        (0..self.engine.table.outputs.len())
            .map(|k| self.end_counts(k))
            .collect()
    }

    /// The current state of every automaton, in [`Table::automata`] order.
    pub fn automaton_states(&self) -> &[u32] {
        &self.state.automata
    }

    /// The current state of every timed property, in [`Table::timed`] order.
    pub fn deadlines(&self) -> &[Deadline] {
        &self.state.deadlines
    }

    /// The time of the last step (the largest so far; [`NEVER`] before step
    /// 0 or when the steps have no time).
    pub fn clock(&self) -> i64 {
        self.state.clock
    }

    fn end_verdict(&self, k: usize) -> Verdict {
        let Some(out) = self.engine.table.outputs.get(k) else {
            return Verdict::Unknown;
        };
        if out.reset && self.book.run_steps.get(k) == Some(&0) {
            return self
                .engine
                .verdicts
                .get(k)
                .copied()
                .unwrap_or(Verdict::Unknown);
        }
        self.engine.end_verdict(&self.state, OutputId::new(k))
    }

    fn end_counts(&self, k: usize) -> ResetCounts {
        let mut counts = self.book.counts.get(k).copied().unwrap_or_default();
        if let Some(out) = self.engine.table.outputs.get(k) {
            if out.reset && self.book.run_steps.get(k).is_some_and(|&r| r > 0) {
                counts.record(self.engine.end_verdict(&self.state, OutputId::new(k)));
            }
        }
        counts
    }
}

/// What survives from one step to the next, read: the state cells, delay
/// rings and automaton states of one instance of a table. The interpreter owns
/// its own ([`Owned`]); a population keeps every agent's as a row of bytes
/// ([`Row`]), so the same [`Engine`] runs both.
pub(crate) trait StateRead {
    /// A bool cell (0 or 1) or a counter.
    fn cell(&self, k: CellId) -> u64;
    /// Bit `pos` of delay ring `k`.
    fn ring_bit(&self, k: CellId, pos: u64) -> bool;
    /// The state of automaton `a`.
    fn automaton(&self, a: AutomatonId) -> u32;
    /// Word `i` of witness ring `k`.
    fn ring_word(&self, k: CellId, i: usize) -> i64;
    /// The clock: the largest step time so far ([`NEVER`] before step 0).
    fn clock(&self) -> i64;
    /// The state of timed property `t`.
    fn deadline(&self, t: TimedId) -> Deadline;
}

/// What survives from one step to the next, written.
pub(crate) trait State: StateRead {
    /// Sets a bool cell (0 or 1) or a counter.
    fn set_cell(&mut self, k: CellId, v: u64);
    /// Sets bit `pos` of delay ring `k`.
    fn set_ring_bit(&mut self, k: CellId, pos: u64, bit: bool);
    /// Sets the state of automaton `a`.
    fn set_automaton(&mut self, a: AutomatonId, state: u32);
    /// Sets word `i` of witness ring `k`.
    fn set_ring_word(&mut self, k: CellId, i: usize, word: i64);
    /// Sets the clock.
    fn set_clock(&mut self, now: i64);
    /// Sets the state of timed property `t`.
    fn set_deadline(&mut self, t: TimedId, deadline: Deadline);
}

/// Witness ring `cell` of a table's state as the runtime's [`Words`]
/// (through `&S`) and [`WordsMut`] (through `&mut S`).
struct Ring<R> {
    state: R,
    cell: CellId,
    words: usize,
}

impl<R: Deref<Target: StateRead>> Words for Ring<R> {
    fn words(&self) -> usize {
        self.words
    }

    fn word(&self, i: usize) -> i64 {
        self.state.ring_word(self.cell, i)
    }
}

impl<R: DerefMut<Target: State>> WordsMut for Ring<R> {
    fn set_word(&mut self, i: usize, value: i64) {
        self.state.set_ring_word(self.cell, i, value);
    }
}

/// The number of words of the witness ring `window` needs (0 for a window
/// kept in one time).
fn ring_words(window: crate::ir::table::Window) -> usize {
    window.cell_kind().map_or(0, CellKind::ring_words)
}

/// The state of one table instance in vectors: a `u64` per cell, rings back to
/// back in `u64` words, a `u32` per automaton.
#[derive(Clone, Debug)]
struct Owned {
    /// Per state cell: a bool (0/1) or a counter; unused for delay cells.
    cells: Vec<u64>,
    /// Per state cell: the first word of its ring in `delay_words` (delay cells only).
    delay_offsets: Vec<usize>,
    /// All rings (delays and witness times), back to back.
    delay_words: Vec<u64>,
    /// Per automaton: its current state.
    automata: Vec<u32>,
    /// The clock.
    clock: i64,
    /// Per timed property: its state.
    deadlines: Vec<Deadline>,
}

impl Owned {
    fn new(table: &Table) -> Owned {
        let mut delay_offsets = Vec::with_capacity(table.state.len());
        let mut words = 0usize;
        for cell in &table.state {
            delay_offsets.push(words);
            words = words.saturating_add(cell.kind.ring_words());
        }
        Owned {
            cells: vec![0; table.state.len()],
            delay_offsets,
            delay_words: vec![0; words],
            automata: vec![0; table.automata.len()],
            clock: NEVER,
            deadlines: vec![Deadline::NEW; table.timed.len()],
        }
    }

    /// The word index and bit mask of `pos` in ring `k`.
    fn ring_position(&self, k: CellId, pos: u64) -> (usize, u64) {
        let offset = self.delay_offsets.get(k.index()).copied().unwrap_or(0);
        let word = offset.saturating_add(usize::try_from(pos / 64).unwrap_or(usize::MAX));
        (word, 1u64 << (pos % 64))
    }
}

impl StateRead for Owned {
    fn cell(&self, k: CellId) -> u64 {
        self.cells.get(k.index()).copied().unwrap_or(0)
    }

    fn ring_bit(&self, k: CellId, pos: u64) -> bool {
        let (word, mask) = self.ring_position(k, pos);
        self.delay_words.get(word).is_some_and(|w| w & mask != 0)
    }

    fn automaton(&self, a: AutomatonId) -> u32 {
        self.automata.get(a.index()).copied().unwrap_or(0)
    }

    fn ring_word(&self, k: CellId, i: usize) -> i64 {
        let offset = self.delay_offsets.get(k.index()).copied().unwrap_or(0);
        self.delay_words
            .get(offset.saturating_add(i))
            .map_or(0, |&w| w as i64)
    }

    fn clock(&self) -> i64 {
        self.clock
    }

    fn deadline(&self, t: TimedId) -> Deadline {
        self.deadlines.get(t.index()).copied().unwrap_or_default()
    }
}

impl State for Owned {
    fn set_cell(&mut self, k: CellId, v: u64) {
        set(&mut self.cells, k.index(), v);
    }

    fn set_ring_bit(&mut self, k: CellId, pos: u64, bit: bool) {
        let (word, mask) = self.ring_position(k, pos);
        if let Some(w) = self.delay_words.get_mut(word) {
            if bit {
                *w |= mask;
            } else {
                *w &= !mask;
            }
        }
    }

    fn set_automaton(&mut self, a: AutomatonId, state: u32) {
        set(&mut self.automata, a.index(), state);
    }

    fn set_ring_word(&mut self, k: CellId, i: usize, word: i64) {
        let offset = self.delay_offsets.get(k.index()).copied().unwrap_or(0);
        set(&mut self.delay_words, offset.saturating_add(i), word as u64);
    }

    fn set_clock(&mut self, now: i64) {
        self.clock = now;
    }

    fn set_deadline(&mut self, t: TimedId, deadline: Deadline) {
        set(&mut self.deadlines, t.index(), deadline);
    }
}

/// Where each piece of a table instance's state lies in a row of bytes: bool
/// cells as bits at the front, then counters (8 bytes each), delay rings
/// (`⌈bits / 8⌉` bytes each) and automaton states in the narrowest width that
/// holds their largest state (1, 2 or 4 bytes) — the sizes `hindsight
/// explain` reports for a population's agents.
#[derive(Clone, Debug)]
pub(crate) struct RowLayout {
    cells: Vec<CellPlace>,
    automata: Vec<(usize, usize)>,
    /// The byte offset of the clock (if the table keeps one) and of each
    /// timed property's two words.
    clock: Option<usize>,
    deadlines: usize,
    bytes: usize,
}

/// Where one cell lies in a row.
#[derive(Clone, Copy, Debug)]
enum CellPlace {
    /// Bit index of a bool cell.
    Bit(usize),
    /// Byte offset of a counter (8 bytes, little-endian).
    Counter(usize),
    /// Byte offset of a ring (`⌈bits / 8⌉` bytes).
    Ring(usize),
}

impl RowLayout {
    /// The layout of `table`'s state.
    pub(crate) fn new(table: &Table) -> RowLayout {
        let bools = table
            .state
            .iter()
            .filter(|c| matches!(c.kind, CellKind::Bool { .. }))
            .count();
        let mut bit = 0;
        let mut offset = bools.div_ceil(8);
        let cells = table
            .state
            .iter()
            .map(|c| match c.kind {
                CellKind::Bool { .. } => {
                    bit += 1;
                    CellPlace::Bit(bit - 1)
                }
                CellKind::Counter { .. } | CellKind::Time => {
                    offset += 8;
                    CellPlace::Counter(offset - 8)
                }
                CellKind::Delay { bits, .. } => {
                    let len = usize::try_from(bits.div_ceil(8)).unwrap_or(usize::MAX);
                    offset = offset.saturating_add(len);
                    CellPlace::Ring(offset - len)
                }
                CellKind::Witnesses { .. } => {
                    let len = c.kind.ring_words().saturating_mul(8);
                    offset = offset.saturating_add(len);
                    CellPlace::Ring(offset - len)
                }
            })
            .collect();
        let clock = table.has_clock().then_some(offset);
        if clock.is_some() {
            offset += 8;
        }
        let deadlines = offset;
        offset = deadlines.saturating_add(16 * table.timed.len());
        let automata = table
            .automata
            .iter()
            .map(|a| {
                let width = state_width(a.states.len());
                offset += width;
                (offset - width, width)
            })
            .collect();
        RowLayout {
            cells,
            automata,
            clock,
            deadlines,
            bytes: offset,
        }
    }

    /// Bytes per row.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }
}

/// One instance's state as a row of bytes laid out by a [`RowLayout`].
pub(crate) struct Row<'a, B> {
    /// The row's bytes (`&[u8]` to read, `&mut [u8]` to write).
    pub bytes: B,
    /// Its layout.
    pub layout: &'a RowLayout,
}

impl<B: AsRef<[u8]>> Row<'_, B> {
    fn read(&self, offset: usize, width: usize) -> u64 {
        let bytes = self.bytes.as_ref();
        (0..width).fold(0u64, |v, i| {
            v | u64::from(bytes.get(offset + i).copied().unwrap_or(0)) << (8 * i)
        })
    }
}

impl<B: AsMut<[u8]>> Row<'_, B> {
    fn write(&mut self, offset: usize, width: usize, value: u64) {
        let bytes = self.bytes.as_mut();
        for i in 0..width {
            set(bytes, offset + i, (value >> (8 * i)) as u8);
        }
    }
}

impl<B: AsRef<[u8]>> StateRead for Row<'_, B> {
    fn cell(&self, k: CellId) -> u64 {
        match self.layout.cells.get(k.index()) {
            Some(&CellPlace::Bit(b)) => (self.read(b / 8, 1) >> (b % 8)) & 1,
            Some(&CellPlace::Counter(at)) => self.read(at, 8),
            _ => 0,
        }
    }

    fn ring_bit(&self, k: CellId, pos: u64) -> bool {
        let Some(&CellPlace::Ring(at)) = self.layout.cells.get(k.index()) else {
            return false;
        };
        let byte = usize::try_from(pos / 8).unwrap_or(usize::MAX);
        (self.read(at.saturating_add(byte), 1) >> (pos % 8)) & 1 == 1
    }

    fn automaton(&self, a: AutomatonId) -> u32 {
        self.layout
            .automata
            .get(a.index())
            .map_or(0, |&(at, width)| self.read(at, width) as u32)
    }

    fn ring_word(&self, k: CellId, i: usize) -> i64 {
        let Some(&CellPlace::Ring(at)) = self.layout.cells.get(k.index()) else {
            return 0;
        };
        self.read(at.saturating_add(i.saturating_mul(8)), 8) as i64
    }

    fn clock(&self) -> i64 {
        self.layout
            .clock
            .map_or(NEVER, |at| self.read(at, 8) as i64)
    }

    fn deadline(&self, t: TimedId) -> Deadline {
        let at = self.layout.deadlines + 16 * t.index();
        Deadline::from_words([self.read(at, 8) as i64, self.read(at + 8, 8) as i64])
    }
}

impl<B: AsRef<[u8]> + AsMut<[u8]>> State for Row<'_, B> {
    fn set_cell(&mut self, k: CellId, v: u64) {
        match self.layout.cells.get(k.index()) {
            Some(&CellPlace::Bit(b)) => {
                let byte = self.read(b / 8, 1);
                let mask = 1u64 << (b % 8);
                let new = if v != 0 { byte | mask } else { byte & !mask };
                self.write(b / 8, 1, new);
            }
            Some(&CellPlace::Counter(at)) => self.write(at, 8, v),
            _ => {}
        }
    }

    fn set_ring_bit(&mut self, k: CellId, pos: u64, bit: bool) {
        let Some(&CellPlace::Ring(at)) = self.layout.cells.get(k.index()) else {
            return;
        };
        let at = at.saturating_add(usize::try_from(pos / 8).unwrap_or(usize::MAX));
        let byte = self.read(at, 1);
        let mask = 1u64 << (pos % 8);
        self.write(at, 1, if bit { byte | mask } else { byte & !mask });
    }

    fn set_automaton(&mut self, a: AutomatonId, state: u32) {
        if let Some(&(at, width)) = self.layout.automata.get(a.index()) {
            self.write(at, width, u64::from(state));
        }
    }

    fn set_ring_word(&mut self, k: CellId, i: usize, word: i64) {
        if let Some(&CellPlace::Ring(at)) = self.layout.cells.get(k.index()) {
            self.write(at.saturating_add(i.saturating_mul(8)), 8, word as u64);
        }
    }

    fn set_clock(&mut self, now: i64) {
        if let Some(at) = self.layout.clock {
            self.write(at, 8, now as u64);
        }
    }

    fn set_deadline(&mut self, t: TimedId, deadline: Deadline) {
        let at = self.layout.deadlines + 16 * t.index();
        let [anchor, flags] = deadline.to_words();
        self.write(at, 8, anchor as u64);
        self.write(at + 8, 8, flags as u64);
    }
}

/// The evaluation of one table: the slot values and verdicts of the current
/// step (scratch, shared by every instance it runs), over a [`State`].
#[derive(Clone, Debug)]
pub(crate) struct Engine<'t> {
    table: &'t Table,
    /// The value of every slot at the current step.
    slots: Vec<Value>,
    /// The verdict of every output at the last step.
    verdicts: Vec<Verdict>,
}

impl<'t> Engine<'t> {
    /// An engine for `table`, its buffers allocated once.
    pub(crate) fn new(table: &'t Table) -> Self {
        Engine {
            table,
            slots: vec![Value::Bool(false); table.slots.len()],
            verdicts: vec![Verdict::Unknown; table.outputs.len()],
        }
    }

    /// Puts `state` in the table's initial state (and the verdicts to `Unknown`).
    pub(crate) fn init(&mut self, state: &mut impl State) {
        for (k, cell) in self.table.enumerate_cells() {
            match cell.kind {
                CellKind::Bool { init } => state.set_cell(k, u64::from(init)),
                CellKind::Counter { init } => state.set_cell(k, init),
                CellKind::Delay { init, bits } => {
                    for pos in 0..bits {
                        state.set_ring_bit(k, pos, init);
                    }
                }
                CellKind::Time => state.set_cell(k, NEVER as u64),
                CellKind::Witnesses { .. } => {
                    for i in 0..cell.kind.ring_words() {
                        state.set_ring_word(k, i, 0);
                    }
                }
            }
        }
        for a in AutomatonId::range(self.table.automata.len()) {
            state.set_automaton(a, 0);
        }
        state.set_clock(NEVER);
        for t in TimedId::range(self.table.timed.len()) {
            state.set_deadline(t, Deadline::NEW);
        }
        self.verdicts.fill(Verdict::Unknown);
    }

    /// Puts future-time output `output`'s automata back in their initial
    /// state; whether it is one.
    pub(crate) fn restart_output(&self, state: &mut impl State, output: OutputId) -> bool {
        match output.get(&self.table.outputs).map(|o| o.source) {
            Some(Source::Future(f)) => self.restart_future(state, f),
            Some(Source::Timed(t)) => state.set_deadline(t, Deadline::NEW),
            _ => return false,
        }
        true
    }

    /// Puts the automata of future `f` back in their initial state.
    fn restart_future(&self, state: &mut impl State, f: FutureId) {
        let table = self.table;
        for &a in f.get(&table.futures).map_or(&[][..], |f| &f.automata) {
            state.set_automaton(a, 0);
        }
    }

    /// Step number `step` (0 first) of the instance whose state is `state`:
    /// one verdict per output. With `book`, a decided verdict of a `with
    /// reset` output is counted and restarts its run.
    pub(crate) fn step(
        &mut self,
        state: &mut impl State,
        step: u64,
        inputs: &[Value],
        mut book: Option<&mut RunBook>,
    ) -> &[Verdict] {
        let now = self.clock(&*state, inputs);
        self.compute(&*state, step, now, inputs);
        self.update(state, step, now);
        state.set_clock(now);
        for (k, out) in self.table.outputs.iter().enumerate() {
            let verdict = match out.source {
                Source::Slot(slot) => Verdict::from(bool_at(&self.slots, slot)),
                Source::Timed(t) => {
                    let verdict = self.advance_timed(state, t, now);
                    if let Some(book) = book.as_deref_mut() {
                        book.after_step(k, out.reset, verdict);
                        if out.reset && verdict != Verdict::Unknown {
                            state.set_deadline(t, Deadline::NEW);
                        }
                    }
                    verdict
                }
                Source::Future(f) => {
                    self.advance(state, f);
                    let verdict = self.future_verdict(&*state, f, |s| s.verdict);
                    if let Some(book) = book.as_deref_mut() {
                        book.after_step(k, out.reset, verdict);
                        if out.reset && verdict != Verdict::Unknown {
                            self.restart_future(state, f);
                        }
                    }
                    verdict
                }
            };
            set(&mut self.verdicts, k, verdict);
        }
        &self.verdicts
    }

    /// The finite-trace verdict of output `k` in `state` after the last step:
    /// a past-time output's value at the last step, a future-time one's end
    /// verdict.
    pub(crate) fn end_verdict(&self, state: &impl StateRead, k: OutputId) -> Verdict {
        match k.get(&self.table.outputs).map(|o| o.source) {
            Some(Source::Future(f)) => self.future_verdict(state, f, |s| s.end_verdict),
            Some(Source::Timed(t)) => t.get(&self.table.timed).map_or(Verdict::Unknown, |timed| {
                state.deadline(t).end_verdict(timed.pattern)
            }),
            Some(Source::Slot(_)) => self
                .verdicts
                .get(k.index())
                .copied()
                .unwrap_or(Verdict::Unknown),
            None => Verdict::Unknown,
        }
    }

    /// The step's time: its time input, but never below the clock (`0`
    /// when the steps have no time; the clock then keeps nothing).
    fn clock(&self, state: &impl StateRead, inputs: &[Value]) -> i64 {
        match self.table.reading.time.map(|t| inputs.get(t)) {
            Some(Some(&Value::Int(time))) => time.max(state.clock()),
            // A missing or mistyped time reads as 0, as every int input does.
            Some(_) => state.clock().max(0),
            None => 0,
        }
    }

    /// One step of timed property `t` at time `now`: its verdict.
    fn advance_timed(&self, state: &mut impl State, t: TimedId, now: i64) -> Verdict {
        let Some(timed) = t.get(&self.table.timed) else {
            return Verdict::Unknown;
        };
        let s = &self.slots;
        let holds = |slot: Option<SlotId>| slot.is_none_or(|slot| bool_at(s, slot));
        let mut deadline = state.deadline(t);
        let verdict = deadline.step(
            timed.pattern,
            now,
            holds(timed.trigger),
            holds(timed.lhs),
            bool_at(s, timed.target),
        );
        state.set_deadline(t, deadline);
        verdict
    }

    /// One transition of every automaton of future `f`.
    fn advance(&self, state: &mut impl State, f: FutureId) {
        let table = self.table;
        let Some(future) = f.get(&table.futures) else {
            return;
        };
        for &a in &future.automata {
            let Some(automaton) = a.get(&table.automata) else {
                continue;
            };
            let letter = automaton
                .atoms
                .iter()
                .enumerate()
                .fold(0u32, |l, (i, &slot)| {
                    l | (u32::from(bool_at(&self.slots, slot)) << i)
                });
            let next = automaton.next(state.automaton(a), letter);
            state.set_automaton(a, next);
        }
    }

    /// The combined verdict of future `f` in the automata's states, reading
    /// `of` from each automaton's state.
    fn future_verdict(
        &self,
        state: &impl StateRead,
        f: FutureId,
        of: fn(&AutomatonState) -> Verdict,
    ) -> Verdict {
        let Some(future) = f.get(&self.table.futures) else {
            return Verdict::Unknown;
        };
        future.verdict(&|a| {
            a.get(&self.table.automata)
                .and_then(|automaton| automaton.states.get(state.automaton(a) as usize))
                .map_or(Verdict::Unknown, of)
        })
    }

    /// Phase 1: every slot in order, reading the state left by the previous step.
    fn compute(&mut self, state: &impl StateRead, step: u64, now: i64, inputs: &[Value]) {
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
                Op::Temporal(t, c) => Value::Bool(temporal_now(s, state, (step, now), t, c)),
            };
            set(&mut self.slots, k, v);
        }
    }

    /// Phase 2: every state cell from the slot values of this step.
    fn update(&self, state: &mut impl State, step: u64, now: i64) {
        let table = self.table;
        for (k, cell) in table.enumerate_cells() {
            let Some(Op::Temporal(t, _)) = cell.owner.get(&table.slots).map(|s| s.op) else {
                continue;
            };
            let s = &self.slots;
            let value = bool_at(s, cell.owner);
            let c = state.cell(k);
            let next = match t {
                Temporal::Prev { arg, .. } => u64::from(bool_at(s, arg)),
                Temporal::OnceWithin { arg, bound } => {
                    rules::once_within_next(bool_at(s, arg), c, bound)
                }
                Temporal::HistWithin { arg, bound } => {
                    rules::historically_within_next(bool_at(s, arg), c, bound)
                }
                Temporal::SinceWithin { lhs, rhs, bound } => {
                    rules::since_within_next(bool_at(s, lhs), bool_at(s, rhs), c, bound)
                }
                Temporal::Delay { arg, steps, .. } => {
                    let pos = step.checked_rem(steps).unwrap_or(0);
                    state.set_ring_bit(k, pos, bool_at(s, arg));
                    continue;
                }
                Temporal::TimedOnce { .. } | Temporal::TimedSince { .. } => {
                    let Some((lhs, witness, window)) = t.timed() else {
                        continue;
                    };
                    // `O[lo,hi] a` is `true S[lo,hi] a`.
                    let chain = lhs.is_none_or(|l| bool_at(s, l));
                    let (witness, c) = (bool_at(s, witness), c as i64);
                    let next = match (window.lo, window.hi) {
                        (0, _) => time::since_recent_next(chain, witness, c, now),
                        (_, None) => time::since_aged_next(chain, witness, c, now),
                        (lo, Some(hi)) => {
                            let words = ring_words(window);
                            let mut ring = Ring {
                                state: &mut *state,
                                cell: k,
                                words,
                            };
                            time::witness_next(&mut ring, chain, witness, now, lo, hi);
                            continue;
                        }
                    };
                    next as u64
                }
                // A one-bit cell (`O H S`) keeps the value now.
                _ => u64::from(value),
            };
            state.set_cell(k, next);
        }
    }
}

impl RunBook {
    /// Records output `k`'s verdict after a step: a `with reset` output's
    /// decided verdict is counted and ends its run.
    fn after_step(&mut self, k: usize, reset: bool, verdict: Verdict) {
        let restart = reset && verdict != Verdict::Unknown;
        if let (Some(run), Some(counts)) = (self.run_steps.get_mut(k), self.counts.get_mut(k)) {
            *run = if restart { 0 } else { run.saturating_add(1) };
            if restart {
                counts.record(verdict);
            }
        }
    }
}

/// The value of a temporal op at step `step`, from its operands and its cell.
fn temporal_now(
    s: &[Value],
    state: &impl StateRead,
    (step, now): (u64, i64),
    t: Temporal,
    cell: CellId,
) -> bool {
    let c = state.cell(cell);
    match t {
        Temporal::Prev { .. } => c != 0,
        Temporal::Once(a) => rules::once(bool_at(s, a), c != 0),
        Temporal::Hist(a) => rules::historically(bool_at(s, a), c != 0),
        Temporal::Since(l, r) => rules::since(bool_at(s, l), bool_at(s, r), c != 0),
        Temporal::OnceWithin { arg, bound } => rules::once_within(bool_at(s, arg), c, bound),
        Temporal::HistWithin { arg, bound } => {
            rules::historically_within(bool_at(s, arg), c, bound)
        }
        Temporal::SinceWithin { lhs, rhs, bound } => {
            rules::since_within(bool_at(s, lhs), bool_at(s, rhs), c, bound)
        }
        Temporal::Delay { steps, .. } => state.ring_bit(cell, step.checked_rem(steps).unwrap_or(0)),
        Temporal::TimedOnce { .. } | Temporal::TimedSince { .. } => {
            let Some((lhs, witness, window)) = t.timed() else {
                return false;
            };
            // `O[lo,hi] a` is `true S[lo,hi] a`.
            let chain = lhs.is_none_or(|l| bool_at(s, l));
            let (witness, c) = (bool_at(s, witness), c as i64);
            match (window.lo, window.hi) {
                (0, hi) => time::since_recent(chain, witness, c, now, hi.unwrap_or(u64::MAX)),
                (lo, None) => time::since_aged(chain, c, now, lo),
                (lo, Some(hi)) => {
                    let words = ring_words(window);
                    let ring = Ring { state, cell, words };
                    chain && time::witnessed(&ring, now, lo, hi)
                }
            }
        }
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

fn set<T>(buf: &mut [T], k: usize, v: T) {
    if let Some(place) = buf.get_mut(k) {
        *place = v;
    }
}

fn value_at(slots: &[Value], k: SlotId) -> Value {
    slots.get(k.index()).copied().unwrap_or(Value::Bool(false))
}

fn bool_at(slots: &[Value], k: SlotId) -> bool {
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
