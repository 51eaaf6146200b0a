//! The flattened bottom-up evaluation table: the single IR of a monitor, executed
//! by the interpreter and emitted as straight-line code by the code generator.
//!
//! Past-time properties are slots of the table. A future-time property is an
//! [`Automaton`] built at compile time whose letters are the values of slots: the
//! maximal sub-formulas without future operators (atoms, comparisons, past-time
//! formulas) are computed by the table at every step and read as one letter, so
//! past sub-formulas are evaluated exactly at the positions the future operators
//! place them. After the slots of a step are computed, each automaton takes one
//! transition. A future-time property whose top-level connectives join parts
//! over disjoint atoms has one automaton per part ([`Future`]), their verdicts
//! combined three-valued.
//!
//! # Shape
//!
//! A [`Table`] is a list of [`Slot`]s in post-order: every operand of slot `k` is a
//! slot with a smaller index, so one pass in index order evaluates everything. Each
//! temporal slot owns exactly one [`StateCell`], the only data that survives from one
//! step to the next. Structurally equal sub-formulas share one slot (hash-consing in
//! lowering), so a `let` used twice is computed once.
//!
//! # Evaluation of one step (two phases)
//!
//! At step `i` (`i = 0` first), with inputs `x`:
//!
//! 1. **Compute**: for `k = 0, 1, …` in order, `value[k]` is computed from the inputs,
//!    earlier slots of this step, and the *previous* contents of the state cells
//!    (the contents after step `i - 1`, or the cells' initial values at step 0).
//! 2. **Update**: every state cell is overwritten from the new slot values of this
//!    step, using the update rule of the temporal op that owns it.
//!
//! The rules, where `c` is the cell's previous content and `b` the op's bound:
//!
//! | op | value now | new `c` | init |
//! |---|---|---|---|
//! | `Prev { arg, init }` (`Y`/`Z`) | `c` | `arg` | `init` |
//! | `Once(arg)` | `arg \|\| c` | value now | `false` |
//! | `Hist(arg)` | `arg && c` | value now | `true` |
//! | `Since(l, r)` | `r \|\| (l && c)` | value now | `false` |
//! | `OnceWithin { arg, b }` | `arg \|\| c < b` | `arg ? 0 : min(c + 1, b)` | `b` |
//! | `HistWithin { arg, b }` | `arg && c >= b` | `!arg ? 0 : min(c + 1, b)` | `b` |
//! | `SinceWithin { l, r, b }` | `r \|\| (l && c < b)` | `r ? 0 : l ? min(c + 1, b) : b` | `b` |
//! | `Delay { arg, steps: n, init }` | `arg` at step `i - n`, `init` if `i < n` | shift in `arg` | all `init` |
//!
//! Counters are "steps since the event last happened", saturating at `b`: the value
//! `b` stands for "`b` or more steps ago, or never", which is all the test `c < b`
//! needs. `OnceWithin` counts steps since `arg` held, `HistWithin` since `arg` failed,
//! `SinceWithin` since the latest step where `r` held with `l` holding at every step
//! after it. A `Delay` of `n` steps is a ring of `n` bits in `⌈n/64⌉` u64 words; the bit
//! for step `i` lives at position `i mod n`: read it (written at step `i - n`), then
//! overwrite it with `arg`.
//!
//! # Time
//!
//! A table whose steps have a time (`reading.time`) keeps a *clock*: the
//! largest time so far, which is the step's time (a time below the previous
//! step's is read as the previous step's). `TimedOnce` and `TimedSince` (the
//! operators with a duration bound) and the [`TimedFuture`]s with a duration
//! bound read it; their rules are those of `hindsight_runtime::time`. A
//! [`TimedFuture`] with a step window counts its own steps and reads no time.

use super::Decl;
pub use crate::ltl3::Combination;
use crate::types::{ArithOp, BoolOp, CmpOp, EnumDef, Ty, Value};
use crate::Verdict;
use hindsight_grammar::ast::Span;
use hindsight_runtime::record::{FilterOp, JsonString, Literal};
use std::fmt;

/// Index of a slot in [`Table::slots`].
pub type SlotId = super::Id<Slot>;
/// Index of a state cell in [`Table::state`].
pub type CellId = super::Id<StateCell>;
/// Index of an automaton in [`Table::automata`].
pub type AutomatonId = super::Id<Automaton>;
/// Index of a future-time property's monitor in [`Table::futures`].
pub type FutureId = super::Id<Future>;
/// Index of an output in [`Table::outputs`].
pub type OutputId = super::Id<Output>;
/// Index of a timed future-time property in [`Table::timed`].
pub type TimedId = super::Id<TimedFuture>;

/// A monitor's past-time properties as one flattened evaluation table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The monitor's name.
    pub name: String,
    /// The block it was lowered from.
    pub span: Span,
    /// The inputs in declaration order, with their types; [`Op::Input`] indexes this list.
    pub inputs: Vec<Decl>,
    /// The slots in evaluation (post-) order.
    pub slots: Vec<Slot>,
    /// The state cells; each is owned by exactly one temporal slot.
    pub state: Vec<StateCell>,
    /// One output per property, in declaration order.
    pub outputs: Vec<Output>,
    /// The spec's enums, which [`Ty::Enum`] and [`Value::Enum`] index (for display
    /// and code generation).
    pub enums: Vec<EnumDef>,
    /// The LTL3 automata of the future-time properties (each property's are
    /// listed by its [`Future`]).
    pub automata: Vec<Automaton>,
    /// The future-time properties' monitors ([`Source::Future`]).
    pub futures: Vec<Future>,
    /// How trace readers read its steps; its `time` is also the input the
    /// table's clock reads.
    pub reading: super::Reading,
    /// The future-time properties with a duration bound ([`Source::Timed`]).
    pub timed: Vec<TimedFuture>,
    /// The goals (`goal NAME = COND;`), each a bool slot.
    pub goals: Vec<NamedSlot>,
    /// The past-time `let`s, each a slot of its type: lowered only for
    /// learning ([`crate::lower::lower_with_lets`]), else empty.
    pub lets: Vec<NamedSlot>,
}

/// A named value the table computes at every step: a goal or a `let`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedSlot {
    /// Its name.
    pub name: String,
    /// Its declaration.
    pub span: Span,
    /// The slot holding its value after each step.
    pub slot: SlotId,
    /// Its type.
    pub ty: Ty,
}

/// One computed value per step.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// How the value is computed.
    pub op: Op,
    /// The value's type.
    pub ty: Ty,
}

/// A small operation over earlier slots (every operand index is below the slot's own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// A literal or enum variant.
    Const(Value),
    /// Input `i` of the current step.
    Input(usize),
    /// Boolean negation.
    Not(SlotId),
    /// `&&`, `||`, `->`, `<->`.
    Bool(BoolOp, SlotId, SlotId),
    /// A comparison of two values of the same type.
    Cmp(CmpOp, SlotId, SlotId),
    /// `+ - *`: wrapping on int, IEEE on float.
    Arith(ArithOp, SlotId, SlotId),
    /// Unary minus: wrapping on int, IEEE on float.
    Neg(SlotId),
    /// A Boolean as an int, `1` or `0` (an expanded `count` sums these).
    BoolToInt(SlotId),
    /// A temporal operator and the state cell it owns.
    Temporal(Temporal, CellId),
}

/// The temporal operators of the table; see the module docs for their exact rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Temporal {
    /// `Y arg` (`init == false`) or `Z arg` (`init == true`): `arg` at the previous step.
    Prev {
        /// The delayed slot.
        arg: SlotId,
        /// The value at step 0.
        init: bool,
    },
    /// `O arg`: `arg` held at some step so far.
    Once(SlotId),
    /// `H arg`: `arg` held at every step so far.
    Hist(SlotId),
    /// `lhs S rhs`.
    Since(SlotId, SlotId),
    /// `O[0,bound] arg`, `bound >= 1`.
    OnceWithin {
        /// The watched slot.
        arg: SlotId,
        /// The window's upper end.
        bound: u64,
    },
    /// `H[0,bound] arg`, `bound >= 1`.
    HistWithin {
        /// The watched slot.
        arg: SlotId,
        /// The window's upper end.
        bound: u64,
    },
    /// `lhs S[0,bound] rhs`, `bound >= 1`.
    SinceWithin {
        /// The left operand (must hold after the witness).
        lhs: SlotId,
        /// The right operand (the witness).
        rhs: SlotId,
        /// The window's upper end.
        bound: u64,
    },
    /// `arg` as it was `steps` steps ago (`steps >= 2`), `init` before the trace start.
    Delay {
        /// The delayed slot.
        arg: SlotId,
        /// How many steps back.
        steps: u64,
        /// The value for the first `steps` steps.
        init: bool,
    },
    /// `O[lo,hi] arg` with a duration bound (`lo > 0` or `hi` finite).
    TimedOnce {
        /// The watched slot.
        arg: SlotId,
        /// The window.
        window: Window,
    },
    /// `lhs S[lo,hi] rhs` with a duration bound (`lo > 0` or `hi` finite).
    TimedSince {
        /// The left operand (must hold after the witness).
        lhs: SlotId,
        /// The right operand (the witness).
        rhs: SlotId,
        /// The window.
        window: Window,
    },
}

/// The window of a duration bound, in microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// The lower end.
    pub lo: u64,
    /// The upper end, `None` for none.
    pub hi: Option<u64>,
}

impl Window {
    /// The state a timed past operator over this window keeps: one time for
    /// `[0,hi]` (the latest witness) and `[lo,inf]` (the first), a ring of
    /// witness times for `[lo,hi]` with `0 < lo` (`None` if no ring size can
    /// be derived: a window of width 0).
    pub fn cell_kind(self) -> Option<CellKind> {
        match self.hi {
            Some(hi) if self.lo > 0 => hindsight_runtime::time::ring_capacity(self.lo, hi)
                .map(|capacity| CellKind::Witnesses { capacity }),
            _ => Some(CellKind::Time),
        }
    }
}

impl Op {
    /// The slots this operation reads.
    pub fn operands(self) -> (Option<SlotId>, Option<SlotId>) {
        match self {
            Op::Const(_) | Op::Input(_) => (None, None),
            Op::Not(a) | Op::Neg(a) | Op::BoolToInt(a) => (Some(a), None),
            Op::Bool(_, a, b) | Op::Cmp(_, a, b) | Op::Arith(_, a, b) => (Some(a), Some(b)),
            Op::Temporal(t, _) => {
                let (a, b) = t.operands();
                (Some(a), b)
            }
        }
    }
}

impl Temporal {
    /// The slots this operator reads.
    pub fn operands(self) -> (SlotId, Option<SlotId>) {
        match self {
            Temporal::Prev { arg, .. }
            | Temporal::Once(arg)
            | Temporal::Hist(arg)
            | Temporal::OnceWithin { arg, .. }
            | Temporal::HistWithin { arg, .. }
            | Temporal::Delay { arg, .. }
            | Temporal::TimedOnce { arg, .. } => (arg, None),
            Temporal::Since(lhs, rhs)
            | Temporal::SinceWithin { lhs, rhs, .. }
            | Temporal::TimedSince { lhs, rhs, .. } => (lhs, Some(rhs)),
        }
    }

    /// The function of `hindsight_runtime::rules` that gives this operator's
    /// value now (and, with `_next` appended, a counter's next content), for
    /// `O H S` and their bounded forms; `None` for the delays `Y Z` and rings,
    /// whose value is their cell.
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Temporal::Once(_) => Some("once"),
            Temporal::Hist(_) => Some("historically"),
            Temporal::Since(..) => Some("since"),
            Temporal::OnceWithin { .. } => Some("once_within"),
            Temporal::HistWithin { .. } => Some("historically_within"),
            Temporal::SinceWithin { .. } => Some("since_within"),
            Temporal::Prev { .. }
            | Temporal::Delay { .. }
            | Temporal::TimedOnce { .. }
            | Temporal::TimedSince { .. } => None,
        }
    }

    /// A duration-bounded operator as `chain S[lo,hi] witness`: its left
    /// operand (`None` for `O`, whose chain is `true`), its witness and its
    /// window; `None` for other operators.
    pub fn timed(self) -> Option<(Option<SlotId>, SlotId, Window)> {
        match self {
            Temporal::TimedOnce { arg, window } => Some((None, arg, window)),
            Temporal::TimedSince { lhs, rhs, window } => Some((Some(lhs), rhs, window)),
            _ => None,
        }
    }

    /// The window's upper end of a bounded operator.
    pub fn bound(self) -> Option<u64> {
        match self {
            Temporal::OnceWithin { bound, .. }
            | Temporal::HistWithin { bound, .. }
            | Temporal::SinceWithin { bound, .. } => Some(bound),
            _ => None,
        }
    }

    /// The kind and initial content of the state cell this operator needs.
    pub fn cell_kind(self) -> CellKind {
        match self {
            Temporal::Prev { init, .. } => CellKind::Bool { init },
            Temporal::Once(_) | Temporal::Since(..) => CellKind::Bool { init: false },
            Temporal::Hist(_) => CellKind::Bool { init: true },
            Temporal::OnceWithin { bound, .. }
            | Temporal::HistWithin { bound, .. }
            | Temporal::SinceWithin { bound, .. } => CellKind::Counter { init: bound },
            Temporal::Delay { steps, init, .. } => CellKind::Delay { bits: steps, init },
            Temporal::TimedOnce { window, .. } | Temporal::TimedSince { window, .. } => {
                window.cell_kind().unwrap_or(CellKind::Time)
            }
        }
    }
}

/// Data kept from one step to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateCell {
    /// What is stored.
    pub kind: CellKind,
    /// The temporal slot that reads and updates this cell.
    pub owner: SlotId,
}

/// The type and initial content of a state cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// One bit.
    Bool {
        /// Content before step 0.
        init: bool,
    },
    /// A saturating u64 step counter.
    Counter {
        /// Content before step 0 (the saturation value: "never").
        init: u64,
    },
    /// A ring of `bits` bits stored in `⌈bits/64⌉` u64 words.
    Delay {
        /// Ring length = delay in steps.
        bits: u64,
        /// Every bit's content before step 0.
        init: bool,
    },
    /// A time in microseconds, `hindsight_runtime::time::NEVER` before step 0.
    Time,
    /// A ring of up to `capacity` witness times after a header word
    /// (`hindsight_runtime::time::Words`), all zeros before step 0.
    Witnesses {
        /// The most times kept.
        capacity: u64,
    },
}

impl CellKind {
    /// Bits of information the cell holds.
    pub fn bits(self) -> u64 {
        match self {
            CellKind::Bool { .. } => 1,
            CellKind::Counter { .. } | CellKind::Time => 64,
            CellKind::Delay { bits, .. } => bits,
            CellKind::Witnesses { capacity } => 64 * (capacity + 1),
        }
    }

    /// The number of u64 words a ring needs (a delay's bits or a witness
    /// ring's header and times; 0 for other cells).
    pub fn ring_words(self) -> usize {
        let words = match self {
            CellKind::Delay { bits, .. } => bits.div_ceil(64),
            CellKind::Witnesses { capacity } => capacity + 1,
            _ => 0,
        };
        usize::try_from(words).unwrap_or(usize::MAX)
    }
}

/// A property's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The property's name.
    pub name: String,
    /// The property's declaration.
    pub span: Span,
    /// Where its verdict comes from.
    pub source: Source,
    /// Whether `with reset` was given: a future-time property restarts after each
    /// decided verdict and counts them (past-time verdicts are recomputed at every
    /// step anyway, so the flag does nothing for them).
    pub reset: bool,
    /// Sub-formulas whose values explain a verdict: for a past-time property the
    /// operands under its top-level Boolean connectives, for a future-time one the
    /// atoms of its automaton.
    pub parts: Vec<Part>,
}

impl Output {
    /// Whether it is a past-time property (its value is a slot's).
    pub fn is_past(&self) -> bool {
        matches!(self.source, Source::Slot(_))
    }
}

/// Where a property's verdict comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A past-time property: the value of this bool slot at the current step.
    Slot(SlotId),
    /// A future-time property: the combined verdict of [`Table::futures`]`[f]`.
    Future(FutureId),
    /// A future-time property monitored by a deadline: the verdict of
    /// [`Table::timed`]`[t]`.
    Timed(TimedId),
}

/// A future-time property monitored by deadlines
/// (`hindsight_runtime::time::Deadline`): `M`, `trigger -> M`, `G M` or
/// `G (trigger -> M)` where `M` is `F`, `G` or `U` with a duration bound or a
/// step window and every operand is a slot (a past-time sub-formula).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedFuture {
    /// The operator, its window, and whether it is under `G`.
    pub pattern: hindsight_runtime::time::Pattern,
    /// The trigger (`None`: always).
    pub trigger: Option<SlotId>,
    /// The left operand of `U` (`None` for `F` and `G`).
    pub lhs: Option<SlotId>,
    /// The operand of `F` or `G`, the right operand of `U`.
    pub target: SlotId,
}

/// The LTL3 monitor of one future-time property: automata over disjoint sets of
/// atoms (the property's independent parts, [`crate::ltl3::split`]), each
/// taking one transition per step, whose verdicts combine three-valued into
/// the property's exact verdict. Most properties have a single automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Future {
    /// How the verdicts combine; its parts are indices in [`Table::automata`].
    pub combination: Combination,
    /// The automata it reads, in order of first use in `combination`.
    pub automata: Vec<AutomatonId>,
}

impl Future {
    /// The combined verdict, given each automaton's.
    pub fn verdict(&self, automaton: &dyn Fn(AutomatonId) -> Verdict) -> Verdict {
        self.combination
            .verdict(&|k| automaton(AutomatonId::new(k)))
    }
}

/// A labelled sub-formula, for explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The sub-formula in surface syntax.
    pub text: String,
    /// The slot computing it.
    pub slot: SlotId,
}

/// The LTL3 monitor of one future-time property: a minimal deterministic
/// automaton whose letters are the values of past-table slots (its atoms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Bit `i` of a letter is the value of slot `atoms[i]` at the current step.
    pub atoms: Vec<SlotId>,
    /// The states; state 0 is the initial one (before any step).
    pub states: Vec<AutomatonState>,
    /// The successor of state `s` on letter `l` is `transitions[(s << atoms.len()) | l]`.
    pub transitions: Vec<u32>,
}

impl Automaton {
    /// Letters per state: `2^atoms`.
    pub fn letters(&self) -> usize {
        1usize << self.atoms.len()
    }

    /// The successor of `state` on `letter` (state 0 for out-of-range arguments).
    pub fn next(&self, state: u32, letter: u32) -> u32 {
        let index = ((state as usize) << self.atoms.len()) | letter as usize;
        self.transitions.get(index).copied().unwrap_or(0)
    }
}

/// One state of an [`Automaton`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutomatonState {
    /// The LTL3 verdict after a prefix leading here.
    pub verdict: Verdict,
    /// The finite-trace verdict if the trace ends here (`Unknown` for state 0).
    pub end_verdict: Verdict,
    /// What the rest of the trace must still satisfy, in surface syntax.
    pub residual: String,
}

/// How much state a table keeps between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateSummary {
    /// One-bit cells.
    pub bools: usize,
    /// u64 counter cells.
    pub counters: usize,
    /// Delay rings.
    pub delays: usize,
    /// Total ring length of all delays, in bits.
    pub delay_bits: u64,
    /// One-time cells of duration-bounded operators.
    pub times: usize,
    /// Witness rings of duration-bounded operators.
    pub rings: usize,
    /// Total capacity of all witness rings, in times.
    pub ring_times: u64,
    /// Whether the table keeps a clock (its steps have a time).
    pub clock: bool,
}

impl StateSummary {
    /// Bits of information: one per bool, 64 per counter, time and clock,
    /// one per delay position, 64 per witness ring slot and header.
    pub fn bits(&self) -> u64 {
        self.bools as u64
            + 64 * (self.counters + self.times + usize::from(self.clock)) as u64
            + self.delay_bits
            + 64 * (self.ring_times + self.rings as u64)
    }

    /// Bytes as a straightforward struct stores it: a byte per bool, 8 per
    /// counter and time, whole u64 words per ring, plus 8 for the step counter
    /// when there are delays and 8 for the clock.
    pub fn bytes(&self, table: &Table) -> u64 {
        let words: u64 = table.state.iter().map(|c| c.kind.ring_words() as u64).sum();
        let step = if self.delays > 0 { 8 } else { 0 };
        let clock = if self.clock { 8 } else { 0 };
        self.bools as u64 + 8 * (self.counters + self.times) as u64 + 8 * words + step + clock
    }
}

impl Table {
    /// Every slot with its id, in evaluation order.
    pub fn enumerate_slots(&self) -> impl Iterator<Item = (SlotId, &Slot)> {
        SlotId::range(self.slots.len()).zip(&self.slots)
    }

    /// Every state cell with its id, in order.
    pub fn enumerate_cells(&self) -> impl Iterator<Item = (CellId, &StateCell)> {
        CellId::range(self.state.len()).zip(&self.state)
    }

    /// The inputs (indices) that the slots `roots` read, directly or through
    /// other slots, in increasing order.
    pub fn inputs_read(&self, roots: impl IntoIterator<Item = SlotId>) -> Vec<usize> {
        let mut reached = vec![false; self.slots.len()];
        for root in roots {
            if let Some(r) = reached.get_mut(root.index()) {
                *r = true;
            }
        }
        let mut inputs = Vec::new();
        // Operands come before the slots reading them: one pass downwards.
        for k in (0..self.slots.len()).rev() {
            if reached.get(k) != Some(&true) {
                continue;
            }
            let Some(slot) = self.slots.get(k) else {
                continue;
            };
            if let Op::Input(i) = slot.op {
                inputs.push(i);
            }
            let (a, b) = slot.op.operands();
            for operand in [a, b].into_iter().flatten() {
                if let Some(r) = reached.get_mut(operand.index()) {
                    *r = true;
                }
            }
        }
        inputs.sort_unstable();
        inputs.dedup();
        inputs
    }

    /// Counts the state cells by kind.
    pub fn state_summary(&self) -> StateSummary {
        let mut s = StateSummary::default();
        for cell in &self.state {
            match cell.kind {
                CellKind::Bool { .. } => s.bools += 1,
                CellKind::Counter { .. } => s.counters += 1,
                CellKind::Time => s.times += 1,
                CellKind::Witnesses { capacity } => {
                    s.rings += 1;
                    s.ring_times += capacity;
                }
                CellKind::Delay { bits, .. } => {
                    s.delays += 1;
                    s.delay_bits += bits;
                }
            }
        }
        s.clock = self.has_clock();
        s
    }

    /// Bits of state kept between steps (see [`StateSummary::bits`]).
    pub fn state_bits(&self) -> u64 {
        self.state_summary().bits()
    }

    /// Bytes of state as generated code stores it (see [`StateSummary::bytes`]).
    pub fn state_bytes(&self) -> u64 {
        self.state_summary().bytes(self)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.state_summary();
        let mut kinds = Vec::new();
        if s.bools > 0 {
            kinds.push(plural(s.bools, "bool", "bools"));
        }
        if s.counters > 0 {
            kinds.push(plural(s.counters, "counter", "counters"));
        }
        if s.delays > 0 {
            kinds.push(format!(
                "{} ({} bits)",
                plural(s.delays, "delay", "delays"),
                s.delay_bits
            ));
        }
        if s.times > 0 {
            kinds.push(plural(s.times, "time", "times"));
        }
        if s.rings > 0 {
            kinds.push(format!(
                "{} ({} times)",
                plural(s.rings, "witness ring", "witness rings"),
                s.ring_times
            ));
        }
        if s.clock {
            kinds.push("a clock".to_string());
        }
        let kinds = if kinds.is_empty() {
            String::new()
        } else {
            format!(": {}", kinds.join(", "))
        };
        writeln!(
            f,
            "monitor {}: {}, {}, {}{}; {} state bits",
            self.name,
            plural(self.inputs.len(), "input", "inputs"),
            plural(self.slots.len(), "slot", "slots"),
            plural(self.state.len(), "state cell", "state cells"),
            kinds,
            s.bits()
        )?;
        for line in self.reading_text() {
            writeln!(f, "  {line}")?;
        }
        let width = self
            .slots
            .iter()
            .map(|s| self.ty_name(s.ty).len())
            .max()
            .unwrap_or(0);
        for (k, slot) in self.slots.iter().enumerate() {
            let op = self.op_text(slot);
            let line = format!("  s{k:<3} {:<width$} {op}", self.ty_name(slot.ty));
            match slot.op {
                Op::Temporal(_, c) => {
                    let cell = c
                        .get(&self.state)
                        .map_or_else(|| "?".to_owned(), |c| cell_text(c.kind));
                    writeln!(f, "{line:<40} c{c}: {cell}")?
                }
                _ => writeln!(f, "{line}")?,
            }
        }
        let outs: Vec<String> = self
            .outputs
            .iter()
            .map(|o| {
                let reset = if o.reset { " (with reset)" } else { "" };
                match o.source {
                    Source::Slot(slot) => format!("{} = s{slot}{reset}", o.name),
                    Source::Future(f) => format!("{} = {}{reset}", o.name, self.future_text(f)),
                    Source::Timed(t) => format!("{} = deadline d{t}{reset}", o.name),
                }
            })
            .collect();
        if outs.is_empty() {
            writeln!(f, "outputs: none")?;
        } else {
            writeln!(f, "outputs: {}", outs.join(", "))?;
        }
        for (label, named) in [("goals", &self.goals), ("lets", &self.lets)] {
            if !named.is_empty() {
                let list: Vec<String> = named
                    .iter()
                    .map(|n| format!("{} = s{}", n.name, n.slot.index()))
                    .collect();
                writeln!(f, "{label}: {}", list.join(", "))?;
            }
        }
        for (k, t) in self.timed.iter().enumerate() {
            writeln!(f, "deadline d{k}: {}", self.timed_text(t))?;
        }
        for (k, a) in self.automata.iter().enumerate() {
            let atoms: Vec<String> = a.atoms.iter().map(|s| format!("s{s}")).collect();
            writeln!(
                f,
                "automaton a{k}: {}, atoms [{}]",
                plural(a.states.len(), "state", "states"),
                atoms.join(", ")
            )?;
            writeln!(f, "  {}", self.letters_legend(a))?;
            for (q, state) in a.states.iter().enumerate() {
                let row = a.transitions.get(q * a.letters()..(q + 1) * a.letters());
                let succ: Vec<String> = row
                    .unwrap_or_default()
                    .iter()
                    .map(|t| format!("q{t}"))
                    .collect();
                writeln!(
                    f,
                    "  q{q}  {:<5} end {:<5} -> [{}]  {}",
                    state.verdict.as_str(),
                    state.end_verdict.as_str(),
                    succ.join(" "),
                    state.residual
                )?;
            }
        }
        Ok(())
    }
}

impl Table {
    /// What the transition columns of automaton `a` read: each column a
    /// letter, the atoms it makes true (`columns: {} {request} {grant}
    /// {request, grant}`), or for more than three atoms the bit rule with
    /// each atom's bit.
    fn letters_legend(&self, a: &Automaton) -> String {
        let names = self.atom_names(a);
        if names.len() <= 3 {
            let columns: Vec<String> = (0..1usize << names.len())
                .map(|letter| {
                    let true_atoms: Vec<&str> = names
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| letter >> i & 1 == 1)
                        .map(|(_, n)| n.as_str())
                        .collect();
                    format!("{{{}}}", true_atoms.join(", "))
                })
                .collect();
            return format!(
                "columns: {} (the atoms true in each letter)",
                columns.join(" ")
            );
        }
        let bits: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("bit {i} {n}"))
            .collect();
        format!(
            "columns: column k reads the atoms whose bits are set in k ({})",
            bits.join(", ")
        )
    }

    /// The surface text of each of `a`'s atoms (bit `i` of a letter is
    /// atom `i`), or `sK` for a slot no output names.
    pub fn atom_names(&self, a: &Automaton) -> Vec<String> {
        let name = |slot: &SlotId| {
            self.outputs
                .iter()
                .flat_map(|o| &o.parts)
                .find(|p| p.slot == *slot)
                .map_or_else(|| format!("s{slot}"), |p| p.text.clone())
        };
        a.atoms.iter().map(name).collect()
    }

    /// Slot `slot`'s operation as the table listing words it (`since s10 s0`).
    pub fn slot_text(&self, slot: SlotId) -> String {
        self.slots
            .get(slot.index())
            .map_or_else(String::new, |s| self.op_text(s))
    }

    /// How output `out` is computed, in one line, as `hindsight explain`
    /// and the language server's hover show it:
    /// `past-time: slot s4; explained by `a`, `b`` or
    /// `future-time, with reset: 3 states, 12 transitions (3 states × 2^2 letters); atoms `a`, `b``.
    pub fn output_summary(&self, out: &Output) -> String {
        let table = self;
        let texts: Vec<String> = out.parts.iter().map(|p| format!("`{}`", p.text)).collect();
        let texts = texts.join(", ");
        match out.source {
            Source::Slot(slot) => format!("past-time: slot s{slot}; explained by {texts}"),
            Source::Timed(t) => {
                let reset = if out.reset { ", with reset" } else { "" };
                let timed = t.get(&table.timed);
                let shape = timed.map_or_else(String::new, |timed| table.timed_text(timed));
                let (kind, anchor) = match timed.is_some_and(|timed| timed.pattern.steps) {
                    true => ("counted", "its age in steps"),
                    false => ("timed", "an anchor time"),
                };
                format!(
                    "future-time{reset}, {kind}: deadline d{t} `{shape}` (one open obligation: {anchor} and the verdict); operands {texts}"
                )
            }
            Source::Future(f) => {
                let reset = if out.reset { ", with reset" } else { "" };
                let Some(future) = f.get(&table.futures) else {
                    return format!("future-time{reset}: future {f} missing");
                };
                let atoms = if out.parts.is_empty() {
                    "no atoms".to_string()
                } else {
                    format!("atoms {texts}")
                };
                let sizes: Vec<String> = future
                    .automata
                    .iter()
                    .filter_map(|&k| {
                        let a = k.get(&table.automata)?;
                        Some(format!(
                            "a{k}, {}, {} ({} × 2^{} letters)",
                            plural(a.states.len(), "state", "states"),
                            plural(a.transitions.len(), "transition", "transitions"),
                            plural(a.states.len(), "state", "states"),
                            a.atoms.len(),
                        ))
                    })
                    .collect();
                match (&future.combination, sizes.as_slice()) {
                    (Combination::Part(_), [one]) => {
                        format!("future-time{reset}: automaton {one}; {atoms}")
                    }
                    _ => format!(
                        "future-time{reset}: {} of independent parts, {}; {atoms}",
                        table.future_text(f),
                        sizes.join("; ")
                    ),
                }
            }
        }
    }

    /// `automaton a3`, or for a property split into independent automata
    /// their combination, e.g. `automata a3 && a4`.
    pub fn future_text(&self, f: FutureId) -> String {
        match f.get(&self.futures).map(|f| &f.combination) {
            Some(Combination::Part(k)) => format!("automaton a{k}"),
            Some(c) => format!("automata {}", c.render(&|k| format!("a{k}"))),
            None => format!("future #{f}"),
        }
    }

    /// The formula of future `f`: its automata's initial obligations, combined.
    pub fn future_formula(&self, f: FutureId) -> String {
        let Some(future) = f.get(&self.futures) else {
            return String::new();
        };
        let initial = |k: usize| {
            let text = self
                .automata
                .get(k)
                .and_then(|a| a.states.first())
                .map_or("", |s| s.residual.as_str());
            match future.combination {
                Combination::Part(_) => text.to_string(),
                _ if crate::surface::is_compound(text) => format!("({text})"),
                _ => text.to_string(),
            }
        };
        future.combination.render(&initial)
    }

    /// A timed future-time property over slots: `G (s3 -> F[0,30s] s5)`.
    pub fn timed_text(&self, t: &TimedFuture) -> String {
        use hindsight_runtime::time::Kind;
        let p = t.pattern;
        let window = pattern_window_text(p);
        let body = match (p.kind, t.lhs) {
            (Kind::Eventually, _) => format!("F{window} s{}", t.target),
            (Kind::Always, _) => format!("G{window} s{}", t.target),
            (Kind::Until, lhs) => format!(
                "s{} U{window} s{}",
                lhs.map_or_else(|| "true".to_string(), |l| l.to_string()),
                t.target
            ),
        };
        let body = match t.trigger {
            Some(trigger) => format!("s{trigger} -> {body}"),
            None => body,
        };
        match (p.every, t.trigger) {
            (true, Some(_)) => format!("G ({body})"),
            (true, None) => format!("G {body}"),
            (false, _) => body,
        }
    }

    /// Whether the table keeps a clock: its steps have a time that a
    /// duration-bounded operator reads.
    pub fn has_clock(&self) -> bool {
        self.reading.time.is_some()
            && (self.timed.iter().any(|t| !t.pattern.steps)
                || self
                    .state
                    .iter()
                    .any(|c| matches!(c.kind, CellKind::Time | CellKind::Witnesses { .. })))
    }

    /// A type as written in the spec.
    fn ty_name(&self, ty: Ty) -> String {
        match ty {
            Ty::Enum(e) => self
                .enums
                .get(e)
                .map_or_else(|| ty.to_string(), |d| d.name.clone()),
            _ => ty.to_string(),
        }
    }

    /// How the trace readers read the steps, one line per input read
    /// through a pointer or with an absence rule and one for the step
    /// filter; nothing for a plain reading.
    fn reading_text(&self) -> Vec<String> {
        use hindsight_runtime::record::{Absent, Source};
        let value = |v: Value, ty: Ty| match v {
            Value::Enum(i) => self
                .variant_name(ty, i)
                .map_or_else(|| value_text(v), str::to_string),
            _ => value_text(v),
        };
        let mut lines = Vec::new();
        if !self.reading.steps.is_empty() {
            lines.push(format!("steps where {}", filter_text(&self.reading.steps)));
        }
        if !self.reading.session_end.is_empty() {
            lines.push(format!(
                "sessions end where {}",
                filter_text(&self.reading.session_end)
            ));
        }
        for (k, (input, field)) in self.inputs.iter().zip(&self.reading.fields).enumerate() {
            let what = if self.reading.time == Some(k) {
                "time"
            } else {
                "input"
            };
            let source = match &field.source {
                Source::Key => String::new(),
                Source::Pointer(p) => format!(" from {}", JsonString(p)),
                Source::Present(p) => format!(" from present({})", JsonString(p)),
            };
            let absent = match field.absent {
                Absent::Error => String::new(),
                Absent::Default(v) => format!(" default {}", value(v, input.ty)),
                Absent::Hold(None) => " hold".to_string(),
                Absent::Hold(Some(v)) => format!(" hold initially {}", value(v, input.ty)),
            };
            if !source.is_empty() || !absent.is_empty() || what == "time" {
                lines.push(format!("{what} {}{source}{absent}", input.name));
            }
        }
        lines
    }

    /// The name of variant `index` of enum type `ty`, if it is one.
    fn variant_name(&self, ty: Ty, index: u32) -> Option<&str> {
        match ty {
            Ty::Enum(e) => self
                .enums
                .get(e)?
                .variants
                .get(index as usize)
                .map(String::as_str),
            _ => None,
        }
    }

    fn op_text(&self, slot: &Slot) -> String {
        match slot.op {
            Op::Const(Value::Enum(v)) => match self.variant_name(slot.ty, v) {
                Some(name) => format!("const {name}"),
                None => format!("const variant {v}"),
            },
            Op::Const(v) => format!("const {}", value_text(v)),
            Op::Input(i) => match self.inputs.get(i) {
                Some(input) => format!("input {}", input.name),
                None => format!("input #{i}"),
            },
            Op::Not(a) => format!("not s{a}"),
            Op::Neg(a) => format!("neg s{a}"),
            Op::BoolToInt(a) => format!("bool-to-int s{a}"),
            Op::Bool(op, a, b) => format!("{} s{a} s{b}", bool_op_name(op)),
            Op::Cmp(op, a, b) => format!("{} s{a} s{b}", cmp_op_name(op)),
            Op::Arith(op, a, b) => format!("{} s{a} s{b}", arith_op_name(op)),
            Op::Temporal(t, _) => temporal_text(t),
        }
    }
}

/// A step filter (postfix) as the spec writes it, parenthesized only where
/// precedence needs it (`||` < `&&` < `!`); `!` of a comparison as `!=`.
fn filter_text(steps: &[FilterOp<String>]) -> String {
    /// An operand printed so far.
    #[derive(Default)]
    struct Shown {
        text: String,
        /// The connective at its top (`None`: an atom or a negation).
        top: Option<&'static str>,
        /// For a comparison: the pointer and the literal, to print `!=`.
        comparison: Option<(String, String)>,
    }
    let atom = |text: String| Shown {
        text,
        ..Shown::default()
    };
    let mut stack: Vec<Shown> = Vec::new();
    for op in steps {
        let shown = match op {
            FilterOp::Equals(p, literal) => {
                let literal = match literal {
                    Literal::Bool(b) => b.to_string(),
                    Literal::Int(i) => i.to_string(),
                    Literal::Float(x) => format!("{x:?}"),
                    Literal::Str(s) => JsonString(s).to_string(),
                };
                Shown {
                    text: format!("{} == {literal}", JsonString(p)),
                    top: None,
                    comparison: Some((JsonString(p).to_string(), literal)),
                }
            }
            FilterOp::Present(p) => atom(format!("present({})", JsonString(p))),
            FilterOp::Not => match stack.pop().unwrap_or_default() {
                Shown {
                    comparison: Some((p, literal)),
                    ..
                } => atom(format!("{p} != {literal}")),
                Shown {
                    text, top: None, ..
                } => atom(format!("!{text}")),
                Shown { text, .. } => atom(format!("!({text})")),
            },
            FilterOp::And | FilterOp::Or => {
                let b = stack.pop().unwrap_or_default();
                let a = stack.pop().unwrap_or_default();
                let op = if matches!(op, FilterOp::And) {
                    "&&"
                } else {
                    "||"
                };
                let wrap = |s: Shown| {
                    if op == "&&" && s.top == Some("||") {
                        format!("({})", s.text)
                    } else {
                        s.text
                    }
                };
                // Appended to the left operand: a long `a || b || ...` is
                // written in linear time.
                let mut text = wrap(a);
                text.push_str(&format!(" {op} "));
                text.push_str(&wrap(b));
                Shown {
                    text,
                    top: Some(op),
                    comparison: None,
                }
            }
        };
        stack.push(shown);
    }
    stack.pop().map(|s| s.text).unwrap_or_default()
}

fn value_text(v: Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x:?}"),
        Value::Enum(i) => format!("variant {i}"),
    }
}

fn bool_op_name(op: BoolOp) -> &'static str {
    match op {
        BoolOp::And => "and",
        BoolOp::Or => "or",
        BoolOp::Implies => "implies",
        BoolOp::Iff => "iff",
    }
}

fn cmp_op_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    }
}

fn arith_op_name(op: ArithOp) -> &'static str {
    match op {
        ArithOp::Add => "add",
        ArithOp::Sub => "sub",
        ArithOp::Mul => "mul",
    }
}

fn temporal_text(t: Temporal) -> String {
    match t {
        Temporal::Prev { arg, init: false } => format!("yesterday s{arg}"),
        Temporal::Prev { arg, init: true } => format!("weak-yesterday s{arg}"),
        Temporal::Once(a) => format!("once s{a}"),
        Temporal::Hist(a) => format!("historically s{a}"),
        Temporal::Since(l, r) => format!("since s{l} s{r}"),
        Temporal::OnceWithin { arg, bound } => format!("once[0,{bound}] s{arg}"),
        Temporal::HistWithin { arg, bound } => format!("historically[0,{bound}] s{arg}"),
        Temporal::SinceWithin { lhs, rhs, bound } => format!("since[0,{bound}] s{lhs} s{rhs}"),
        Temporal::Delay { arg, steps, .. } => format!("delay {steps} s{arg}"),
        Temporal::TimedOnce { arg, window } => format!("once{} s{arg}", window_text(window)),
        Temporal::TimedSince { lhs, rhs, window } => {
            format!("since{} s{lhs} s{rhs}", window_text(window))
        }
    }
}

/// `[lo,hi]` of a duration window, written with units.
fn window_text(window: Window) -> String {
    bound_text(window, hindsight_grammar::ast::BoundUnit::Time)
}

/// A deadline's window as written: `[0,30s]`, or `[0,1000]` counting steps.
pub fn pattern_window_text(p: hindsight_runtime::time::Pattern) -> String {
    use hindsight_grammar::ast::BoundUnit;
    let unit = if p.steps {
        BoundUnit::Steps
    } else {
        BoundUnit::Time
    };
    let window = Window {
        lo: p.lo,
        hi: Some(p.hi),
    };
    bound_text(window, unit)
}

fn bound_text(window: Window, unit: hindsight_grammar::ast::BoundUnit) -> String {
    hindsight_grammar::ast::Bound {
        lo: window.lo,
        hi: window.hi,
        unit,
        span: Span::default(),
    }
    .to_string()
}

fn cell_text(kind: CellKind) -> String {
    match kind {
        CellKind::Bool { init } => format!("bool init {init}"),
        CellKind::Counter { init } => format!("counter init {init}"),
        CellKind::Delay { bits, init } => format!("{bits} bits init {init}"),
        CellKind::Time => "time init never".to_string(),
        CellKind::Witnesses { capacity } => format!("ring of {capacity} times"),
    }
}

/// Bytes of an automaton state index for `states` states: 1, 2 or 4.
pub fn state_width(states: usize) -> usize {
    let largest = states.saturating_sub(1);
    if largest <= usize::from(u8::MAX) {
        1
    } else if largest <= usize::from(u16::MAX) {
        2
    } else {
        4
    }
}
