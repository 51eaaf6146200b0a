//! The population interpreter: runs [`PopulationTables`] over a trace whose
//! steps give every agent's attributes and the globals.
//!
//! Per step: each stratum's table runs once per agent: one evaluation engine
//! per stratum, and every agent's state as a row of bytes in one array per
//! stratum (allocated at the first step, when the number of agents is known;
//! no heap object per agent), laid out as `hindsight explain` reports it;
//! after every agent stepped a stratum, its signals are aggregated over the
//! members; then the top table steps on the globals and the signals, and each
//! property's verdict is read off the top table or its skeleton.
//!
//! A combined property ([`PropertyVerdict::Combined`]) runs from a start step
//! (the first, or the step after a decided verdict `with reset`): there its
//! future quantifiers' members are fixed, its latched leaves take their values
//! and (on a restart) its per-agent body automata and future leaves go back to
//! their initial states. Leaves combine with Kleene logic.

use crate::interp::{Engine, Interpreter, Row, RowLayout};
use crate::ir::population::{
    Aggregate, FutureQuantifierId, PopulationTables, PropertyVerdict, SignalId, Skeleton, StratumId,
};
use crate::ir::table::OutputId;
use crate::types::{Ty, Value};
use crate::Verdict;
use hindsight_runtime::population::PopulationError;
use hindsight_runtime::ResetCounts;

/// Executes a population's tables over a trace.
#[derive(Clone, Debug)]
pub struct PopulationInterpreter<'t> {
    tables: &'t PopulationTables,
    /// The number of agents, fixed by the first step of the trace.
    agents: Option<usize>,
    /// Per stratum: its engine and every agent's state.
    strata: Vec<StratumRun<'t>>,
    top: Interpreter<'t>,
    /// Scratch: one agent's stratum inputs (attributes, globals, signals).
    input: Vec<Value>,
    /// Scratch: the top table's inputs (globals, signals).
    top_input: Vec<Value>,
    /// Per signal: its value at this step.
    signals: Vec<Value>,
    /// Per signal: members and members whose body holds, at this step.
    tally: Vec<(u64, u64)>,
    /// Per future quantifier.
    future: Vec<FutureRun>,
    /// Per property.
    runs: Vec<Run>,
    /// Per top output: the value latched at its property's run start.
    latched: Vec<Verdict>,
    /// Per property: the verdict at the last step.
    verdicts: Vec<Verdict>,
    steps: u64,
    /// Per signal, then per future quantifier: witnesses of the last step;
    /// empty (nothing recorded) unless [`Self::with_witnesses`] asked for them.
    witnesses: Vec<Witnesses>,
}

/// One stratum's evaluation: an engine, shared by the agents, and each agent's
/// state as a row of `layout.bytes()` bytes, agent `a` at `a * stride`.
#[derive(Clone, Debug)]
struct StratumRun<'t> {
    engine: Engine<'t>,
    layout: RowLayout,
    /// The rows of every agent, back to back.
    rows: Vec<u8>,
    /// The initial row.
    initial: Vec<u8>,
}

impl<'t> StratumRun<'t> {
    fn new(table: &'t crate::ir::table::Table) -> Self {
        let mut engine = Engine::new(table);
        let layout = RowLayout::new(table);
        let mut initial = vec![0u8; layout.bytes()];
        engine.init(&mut Row {
            bytes: &mut initial[..],
            layout: &layout,
        });
        StratumRun {
            engine,
            layout,
            rows: Vec::new(),
            initial,
        }
    }

    /// Every agent's row back to the initial state.
    fn allocate(&mut self, agents: usize) {
        self.rows.clear();
        self.rows
            .reserve_exact(agents.saturating_mul(self.initial.len()));
        for _ in 0..agents {
            self.rows.extend_from_slice(&self.initial);
        }
    }

    /// The bytes of agent `a`'s row.
    fn range(&self, a: usize) -> std::ops::Range<usize> {
        let stride = self.initial.len();
        a * stride..(a + 1) * stride
    }
}

/// The most agents named on each side of a quantifier's tally.
pub const WITNESSES: usize = 8;

/// Which agents made a quantifier's tally at one step: the first
/// [`WITNESSES`] members whose body held, and the first whose body did not
/// (for a future quantifier: decided true, decided false), in agent order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witnesses {
    /// Agents whose body held (decided true).
    pub held: Vec<usize>,
    /// Agents whose body did not hold (decided false).
    pub failed: Vec<usize>,
}

impl Witnesses {
    fn clear(&mut self) {
        self.held.clear();
        self.failed.clear();
    }

    fn record(&mut self, agent: usize, held: bool) {
        let side = if held {
            &mut self.held
        } else {
            &mut self.failed
        };
        if side.len() < WITNESSES {
            side.push(agent);
        }
    }
}

/// The run of one future quantifier.
#[derive(Clone, Debug)]
struct FutureRun {
    /// The property it belongs to.
    owner: usize,
    /// Per agent: whether it was a member at the run's start.
    members: Vec<bool>,
    /// Members decided true / false at this step.
    trues: u64,
    falses: u64,
    members_count: u64,
    verdict: Verdict,
}

/// The run of one property.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// The next step starts a run (the first step, or after a decided verdict `with reset`).
    start: bool,
    /// Decided verdicts counted by a combined property `with reset`.
    counts: ResetCounts,
}

impl Default for Run {
    fn default() -> Self {
        Run {
            start: true,
            counts: ResetCounts::default(),
        }
    }
}

impl<'t> PopulationInterpreter<'t> {
    /// An interpreter in the initial state (before step 0).
    pub fn new(tables: &'t PopulationTables) -> Self {
        let mut future: Vec<FutureRun> = tables
            .future_quantifiers
            .iter()
            .map(|_| FutureRun {
                owner: 0,
                members: Vec::new(),
                trues: 0,
                falses: 0,
                members_count: 0,
                verdict: Verdict::Unknown,
            })
            .collect();
        for (p, prop) in tables.properties.iter().enumerate() {
            if let PropertyVerdict::Combined(sk) = &prop.verdict {
                sk.leaves(&mut |leaf| {
                    if let Skeleton::Quantifier(q) = leaf {
                        if let Some(f) = future.get_mut(q.index()) {
                            f.owner = p;
                        }
                    }
                });
            }
        }
        let n_signals = tables.signals.len();
        let n_in = tables.attributes.len() + tables.globals.len() + n_signals;
        PopulationInterpreter {
            tables,
            agents: None,
            strata: tables
                .strata
                .iter()
                .map(|s| StratumRun::new(&s.table))
                .collect(),
            top: Interpreter::new(&tables.top),
            input: vec![Value::Bool(false); n_in],
            top_input: vec![Value::Bool(false); tables.globals.len() + n_signals],
            signals: tables.signals.iter().map(|s| default_value(s.ty)).collect(),
            tally: vec![(0, 0); n_signals],
            future,
            runs: vec![Run::default(); tables.properties.len()],
            latched: vec![Verdict::Unknown; tables.top.outputs.len()],
            verdicts: vec![Verdict::Unknown; tables.properties.len()],
            steps: 0,
            witnesses: Vec::new(),
        }
    }

    /// The same interpreter, recording at each step which agents made each
    /// quantifier's tally ([`Self::signal_tally`], [`Self::future_tally`]):
    /// what `--explain` reports. The buffers are allocated here, at full size,
    /// so steps still allocate nothing; without this, steps record nothing.
    pub fn with_witnesses(mut self) -> Self {
        let tables = self.tables;
        self.witnesses = (0..tables.signals.len() + tables.future_quantifiers.len())
            .map(|_| Witnesses {
                held: Vec::with_capacity(WITNESSES),
                failed: Vec::with_capacity(WITNESSES),
            })
            .collect();
        self
    }

    /// Consumes one step: `attributes` holds `agents` × `attributes.len()`
    /// values, row-major (agent 0's attributes first), `globals` the globals in
    /// declaration order (missing or mistyped values read as the type's
    /// default, as in [`Interpreter`]). Returns one verdict per property.
    /// Refuses, leaving the state unchanged, more agents than the capacity or
    /// a number of agents different from the first step's.
    pub fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError> {
        let tables = self.tables;
        if agents > tables.capacity {
            return Err(PopulationError::OverCapacity {
                agents,
                capacity: tables.capacity,
            });
        }
        if let Some(expected) = self.agents {
            if expected != agents {
                return Err(PopulationError::AgentCountChanged {
                    expected,
                    found: agents,
                });
            }
        } else {
            self.allocate(agents);
        }
        self.restart_runs();
        let n_attr = tables.attributes.len();
        let n_glob = tables.globals.len();
        // Globals, after the attributes, in every agent's inputs.
        for (g, global) in tables.globals.iter().enumerate() {
            let v = typed(globals.get(g).copied(), global.ty);
            set(&mut self.input, n_attr + g, v);
            set(&mut self.top_input, g, v);
        }
        // Tallies of this step's member verdicts, filled by each quantifier's stratum.
        for f in &mut self.future {
            f.trues = 0;
            f.falses = 0;
        }
        for w in &mut self.witnesses {
            w.clear();
        }
        for (s, stratum) in StratumId::range(tables.strata.len()).zip(&tables.strata) {
            self.step_stratum(s, stratum, agents, attributes);
        }
        for (q, f) in tables.future_quantifiers.iter().zip(&mut self.future) {
            f.verdict = q.threshold.verdict(f.members_count, f.trues, f.falses);
        }
        for (j, v) in self.signals.iter().enumerate() {
            set(&mut self.top_input, n_glob + j, *v);
        }
        let top = self.top.step(&self.top_input);
        for (p, prop) in tables.properties.iter().enumerate() {
            let verdict = match &prop.verdict {
                PropertyVerdict::Top(i) => top.get(i.index()).copied().unwrap_or(Verdict::Unknown),
                PropertyVerdict::Combined(sk) => {
                    let Some(run) = self.runs.get_mut(p) else {
                        continue;
                    };
                    if run.start {
                        let latched = &mut self.latched;
                        sk.leaves(&mut |leaf| {
                            if let Skeleton::Latched(i) = leaf {
                                let v = top.get(i.index()).copied().unwrap_or(Verdict::Unknown);
                                set(latched, i.index(), v);
                            }
                        });
                        run.start = false;
                    }
                    let future = &self.future;
                    let latched = &self.latched;
                    let verdict = eval(sk, &|leaf| match leaf {
                        Skeleton::Quantifier(q) => future
                            .get(q.index())
                            .map_or(Verdict::Unknown, |f| f.verdict),
                        Skeleton::Future(i) => {
                            top.get(i.index()).copied().unwrap_or(Verdict::Unknown)
                        }
                        Skeleton::Latched(i) => {
                            latched.get(i.index()).copied().unwrap_or(Verdict::Unknown)
                        }
                        _ => Verdict::Unknown,
                    });
                    if prop.reset && verdict != Verdict::Unknown {
                        run.counts.record(verdict);
                        run.start = true;
                    }
                    verdict
                }
            };
            set(&mut self.verdicts, p, verdict);
        }
        self.steps = self.steps.saturating_add(1);
        Ok(&self.verdicts)
    }

    /// The first step of a trace: every agent's row in its initial state,
    /// member sets sized.
    fn allocate(&mut self, agents: usize) {
        for run in &mut self.strata {
            run.allocate(agents);
        }
        for f in &mut self.future {
            f.members.clear();
            f.members.resize(agents, false);
        }
        self.agents = Some(agents);
    }

    /// For every combined property starting a run at this step: its members
    /// are recaptured, its per-agent body automata and future leaves restarted.
    fn restart_runs(&mut self) {
        let tables = self.tables;
        for (q, f) in tables.future_quantifiers.iter().zip(&mut self.future) {
            if !self.runs.get(f.owner).is_some_and(|r| r.start) {
                continue;
            }
            f.members.fill(false);
            f.members_count = 0;
            // At the first step every row is in its initial state already.
            if self.steps == 0 {
                continue;
            }
            if let Some(run) = self.strata.get_mut(q.of.stratum.index()) {
                for a in 0..self.agents.unwrap_or(0) {
                    let range = run.range(a);
                    if let Some(bytes) = run.rows.get_mut(range) {
                        let mut row = Row {
                            bytes,
                            layout: &run.layout,
                        };
                        run.engine.restart_output(&mut row, q.of.body);
                    }
                }
            }
        }
        for (prop, run) in tables.properties.iter().zip(&self.runs) {
            if let (PropertyVerdict::Combined(sk), true) = (&prop.verdict, run.start) {
                let top = &mut self.top;
                sk.leaves(&mut |leaf| {
                    if let Skeleton::Future(i) = leaf {
                        top.restart(*i);
                    }
                });
            }
        }
    }

    /// Steps stratum `s` for every agent (attributes in `attributes`,
    /// row-major) and tallies its signals and future quantifiers; the globals
    /// and lower strata's signals are already in the inputs.
    fn step_stratum(
        &mut self,
        s: StratumId,
        stratum: &crate::ir::population::Stratum,
        agents: usize,
        attributes: &[Value],
    ) {
        let tables = self.tables;
        let n_attr = tables.attributes.len();
        let n_glob = tables.globals.len();
        let n_signals = tables.signals.len();
        let first = tables.signals.iter().position(|x| x.of.stratum == s);
        let signal_range = first.map_or(0..0, |first| {
            let len = tables
                .signals
                .iter()
                .skip(first)
                .take_while(|x| x.of.stratum == s)
                .count();
            first..first + len
        });
        for t in self.tally.get_mut(signal_range.clone()).unwrap_or_default() {
            *t = (0, 0);
        }
        for j in 0..stratum.signals_before {
            let v = self.signals.get(j).copied().unwrap_or(Value::Bool(false));
            set(&mut self.input, n_attr + n_glob + j, v);
        }
        let Some(run) = self.strata.get_mut(s.index()) else {
            return;
        };
        for a in 0..agents {
            for (i, attribute) in tables.attributes.iter().enumerate() {
                let at = a.checked_mul(n_attr).and_then(|x| x.checked_add(i));
                let v = typed(at.and_then(|at| attributes.get(at)).copied(), attribute.ty);
                set(&mut self.input, i, v);
            }
            let range = run.range(a);
            let Some(bytes) = run.rows.get_mut(range) else {
                continue;
            };
            let mut row = Row {
                bytes,
                layout: &run.layout,
            };
            let out = run.engine.step(&mut row, self.steps, &self.input, None);
            let holds = |k: OutputId| out.get(k.index()) == Some(&Verdict::True);
            for j in signal_range.clone() {
                let (Some(sig), Some(t)) = (tables.signals.get(j), self.tally.get_mut(j)) else {
                    continue;
                };
                if sig.of.member.is_none_or(holds) {
                    t.0 += 1;
                    if holds(sig.of.body) {
                        t.1 += 1;
                    }
                    if let Some(w) = self.witnesses.get_mut(j) {
                        w.record(a, holds(sig.of.body));
                    }
                }
            }
            for (k, (q, f)) in tables
                .future_quantifiers
                .iter()
                .zip(&mut self.future)
                .enumerate()
            {
                if q.of.stratum != s {
                    continue;
                }
                let start = self.runs.get(f.owner).is_some_and(|r| r.start);
                if start {
                    let member = q.of.member.is_none_or(holds);
                    set(&mut f.members, a, member);
                    if member {
                        f.members_count += 1;
                    }
                }
                if f.members.get(a) == Some(&true) {
                    let decided = out.get(q.of.body.index()).and_then(|v| v.decided());
                    match decided {
                        Some(true) => f.trues += 1,
                        Some(false) => f.falses += 1,
                        None => {}
                    }
                    if let (Some(held), Some(w)) = (decided, self.witnesses.get_mut(n_signals + k))
                    {
                        w.record(a, held);
                    }
                }
            }
        }
        for j in signal_range {
            if let (Some(sig), Some(&(members, trues))) = (tables.signals.get(j), self.tally.get(j))
            {
                set(
                    &mut self.signals,
                    j,
                    aggregate(sig.of.aggregate(), members, trues),
                );
            }
        }
    }

    /// The finite-trace verdict of every property (the trace ended after the
    /// last step): a top output's end verdict; for a combined property, each
    /// future quantifier member's end verdict counted, latched leaves, future
    /// leaves' end verdicts (for a `with reset` one decided at the last step,
    /// the verdict that ended its run). `Unknown` for every property of an
    /// empty trace.
    pub fn finish(&self) -> Vec<Verdict> {
        if self.steps == 0 {
            return vec![Verdict::Unknown; self.tables.properties.len()];
        }
        let top = self.top.finish();
        (0..self.tables.properties.len())
            .map(|p| self.end_verdict(p, &top))
            .collect()
    }

    fn end_verdict(&self, p: usize, top: &[Verdict]) -> Verdict {
        let (Some(prop), Some(run)) = (self.tables.properties.get(p), self.runs.get(p)) else {
            return Verdict::Unknown;
        };
        match &prop.verdict {
            PropertyVerdict::Top(i) => top.get(i.index()).copied().unwrap_or(Verdict::Unknown),
            PropertyVerdict::Combined(_) if prop.reset && run.start => {
                self.verdicts.get(p).copied().unwrap_or(Verdict::Unknown)
            }
            PropertyVerdict::Combined(sk) => eval(sk, &|leaf| match leaf {
                Skeleton::Quantifier(q) => self.future_end(*q),
                Skeleton::Future(i) => top.get(i.index()).copied().unwrap_or(Verdict::Unknown),
                Skeleton::Latched(i) => self
                    .latched
                    .get(i.index())
                    .copied()
                    .unwrap_or(Verdict::Unknown),
                _ => Verdict::Unknown,
            }),
        }
    }

    /// Future quantifier `q` over its members' finite-trace verdicts.
    fn future_end(&self, q: FutureQuantifierId) -> Verdict {
        let (Some(fq), Some(run)) = (
            q.get(&self.tables.future_quantifiers),
            self.future.get(q.index()),
        ) else {
            return Verdict::Unknown;
        };
        let (mut trues, mut falses) = (0, 0);
        if let Some(stratum) = self.strata.get(fq.of.stratum.index()) {
            for (a, _) in run.members.iter().enumerate().filter(|(_, &m)| m) {
                let row = Row {
                    bytes: stratum.rows.get(stratum.range(a)).unwrap_or_default(),
                    layout: &stratum.layout,
                };
                match stratum.engine.end_verdict(&row, fq.of.body) {
                    Verdict::True => trues += 1,
                    Verdict::False => falses += 1,
                    Verdict::Unknown => {}
                }
            }
        }
        fq.threshold.verdict(run.members_count, trues, falses)
    }

    /// Per property, the decided verdicts counted by a `with reset` property,
    /// including the end verdict of its unfinished run (zero otherwise).
    pub fn counts(&self) -> Vec<ResetCounts> {
        let top = self.top.counts();
        let top_end = self.top.finish();
        let tables = self.tables;
        tables
            .properties
            .iter()
            .zip(&self.runs)
            .enumerate()
            .map(|(p, (prop, run))| match &prop.verdict {
                PropertyVerdict::Top(i) => top.get(i.index()).copied().unwrap_or_default(),
                PropertyVerdict::Combined(_) if !prop.reset => ResetCounts::default(),
                PropertyVerdict::Combined(_) => {
                    let mut counts = run.counts;
                    if !run.start && self.steps > 0 {
                        counts.record(self.end_verdict(p, &top_end));
                    }
                    counts
                }
            })
            .collect()
    }

    /// Back to the initial state, as if no step had happened (the next step
    /// may have any number of agents up to the capacity).
    pub fn reset(&mut self) {
        self.agents = None;
        self.top.reset();
        for run in &mut self.strata {
            run.rows.clear();
        }
        for f in &mut self.future {
            f.members.fill(false);
            f.members_count = 0;
            f.trues = 0;
            f.falses = 0;
            f.verdict = Verdict::Unknown;
        }
        self.runs.fill(Run::default());
        for w in &mut self.witnesses {
            w.clear();
        }
        self.latched.fill(Verdict::Unknown);
        self.verdicts.fill(Verdict::Unknown);
        for (v, s) in self.signals.iter_mut().zip(&self.tables.signals) {
            *v = default_value(s.ty);
        }
        self.steps = 0;
    }

    /// Steps taken since creation or the last [`reset`](Self::reset).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The number of agents fixed by the trace's first step (`None` before it).
    pub fn agents(&self) -> Option<usize> {
        self.agents
    }

    /// Bytes of per-agent state held (every stratum's rows): what `hindsight
    /// explain` reports per agent, times the agents, with bool cells as bits.
    pub fn state_bytes(&self) -> usize {
        self.strata.iter().map(|s| s.rows.len()).sum::<usize>()
            + self.future.iter().map(|f| f.members.len()).sum::<usize>()
    }

    /// The value of every signal at the last step, in
    /// [`PopulationTables::signals`] order.
    pub fn signal_values(&self) -> &[Value] {
        &self.signals
    }

    /// The interpreter of the population-level table, as of the last step.
    pub fn top(&self) -> &Interpreter<'t> {
        &self.top
    }

    /// Signal `j` at the last step: its members and those whose body held,
    /// and which agents they were (`None` without [`Self::with_witnesses`]).
    pub fn signal_tally(&self, j: SignalId) -> Option<((u64, u64), &Witnesses)> {
        Some((*self.tally.get(j.index())?, self.witnesses.get(j.index())?))
    }

    /// Future quantifier `q` at the last step: its members, those decided
    /// true and false, its verdict, and which agents decided (`None` without
    /// [`Self::with_witnesses`]).
    pub fn future_tally(
        &self,
        q: FutureQuantifierId,
    ) -> Option<((u64, u64, u64), Verdict, &Witnesses)> {
        let run = self.future.get(q.index())?;
        let witnesses = self.witnesses.get(self.tables.signals.len() + q.index())?;
        Some((
            (run.members_count, run.trues, run.falses),
            run.verdict,
            witnesses,
        ))
    }
}

/// The interpreter as trace drivers step a population.
impl hindsight_runtime::population::PopulationStepper for PopulationInterpreter<'_> {
    fn reset(&mut self) {
        PopulationInterpreter::reset(self);
    }

    fn step(
        &mut self,
        agents: usize,
        attributes: &[Value],
        globals: &[Value],
    ) -> Result<&[Verdict], PopulationError> {
        PopulationInterpreter::step(self, agents, attributes, globals)
    }

    fn finish(&self, out: &mut [Verdict]) {
        for (slot, verdict) in out.iter_mut().zip(PopulationInterpreter::finish(self)) {
            *slot = verdict;
        }
    }

    fn counts(&self, out: &mut [ResetCounts]) {
        for (slot, counts) in out.iter_mut().zip(PopulationInterpreter::counts(self)) {
            *slot = counts;
        }
    }
}

/// `sk` in Kleene logic over the leaf verdicts `leaf` gives.
fn eval(sk: &Skeleton, leaf: &impl Fn(&Skeleton) -> Verdict) -> Verdict {
    match sk {
        Skeleton::Not(a) => eval(a, leaf).negate(),
        Skeleton::And(a, b) => eval(a, leaf).and(eval(b, leaf)),
        Skeleton::Or(a, b) => eval(a, leaf).or(eval(b, leaf)),
        other => leaf(other),
    }
}

/// A past-time quantifier's value from its members and true bodies.
fn aggregate(rule: Aggregate, members: u64, trues: u64) -> Value {
    match rule {
        Aggregate::Count => Value::Int(i64::try_from(trues).unwrap_or(i64::MAX)),
        Aggregate::Threshold(t) => Value::Bool(t.holds(trues, members)),
    }
}

/// `v` if it has type `ty`, else the type's default.
fn typed(v: Option<Value>, ty: Ty) -> Value {
    match (v, ty) {
        (Some(v @ Value::Bool(_)), Ty::Bool)
        | (Some(v @ Value::Int(_)), Ty::Int)
        | (Some(v @ Value::Float(_)), Ty::Float)
        | (Some(v @ Value::Enum(_)), Ty::Enum(_)) => v,
        _ => default_value(ty),
    }
}

/// The default value of a type (`false`, `0`, `0.0`, the first variant).
fn default_value(ty: Ty) -> Value {
    match ty {
        Ty::Bool => Value::Bool(false),
        Ty::Int => Value::Int(0),
        Ty::Float => Value::Float(0.0),
        Ty::Enum(_) => Value::Enum(0),
    }
}

fn set<T>(buf: &mut [T], k: usize, v: T) {
    if let Some(place) = buf.get_mut(k) {
        *place = v;
    }
}
