//! Populations (quantified formulas over agents) lowered to the same table IR
//! monitors use, plus the machinery that runs those tables once per agent.
//!
//! A checked `population` block becomes:
//! - **strata**: agent-level [`Table`]s, each instantiated once per agent.
//!   Stratum `s` evaluates the membership predicate and the body of every
//!   quantifier over a past-time body whose body contains quantifiers of lower
//!   strata only; those inner quantifiers arrive as inputs (their per-step
//!   values, the same for every agent). A quantifier whose body reads no other
//!   quantifier is in stratum 0. Quantifiers over future-time bodies all sit
//!   in one last stratum of their own (reading every signal), so the signal
//!   strata are past-time tables (which the generated code may evaluate as
//!   bit lanes, stratum by stratum).
//! - **signals**: the per-step value of each quantifier with a past-time body
//!   (a `bool`, or an `int` for `count`), aggregated over the members after
//!   every agent's instance of its stratum has stepped.
//! - **top**: one population-level [`Table`] whose inputs are the globals and
//!   then every signal; it holds the properties with no quantifier over a
//!   future-time body, unchanged, and the leaves of the others.
//! - **combined properties**: a property with a quantifier over a future-time
//!   body is a Boolean skeleton (the checker allows such quantifiers only
//!   under Boolean connectives) over three kinds of leaves: such quantifiers
//!   ([`FutureQuantifier`]: per-agent LTL3 verdicts counted k-of-n, membership
//!   fixed at the run's first step), future-time top outputs, and past-time
//!   top outputs latched at the run's first step. Leaves combine with
//!   three-valued (Kleene) logic, as in the source paper's obligation algebra.
//!
//! Input order of a stratum table: the agent's attributes, then the globals,
//! then the signals of lower strata (`signals[..Stratum::signals_before]`).

use super::table::{OutputId, Table};
use super::{Decl, Id};
use crate::types::{Quantifier, Ty};
use hindsight_grammar::ast::Span;
pub use hindsight_runtime::population::Threshold;

/// A population lowered to tables.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationTables {
    /// The population's name.
    pub name: String,
    /// The whole block.
    pub span: Span,
    /// Every agent's attributes, in declaration order.
    pub attributes: Vec<Decl>,
    /// The global inputs, in declaration order.
    pub globals: Vec<Decl>,
    /// The global that is the steps' time (microseconds), if declared.
    pub time: Option<usize>,
    /// The most agents a monitor holds.
    pub capacity: usize,
    /// Agent-level tables, stepped in this order, each once per agent.
    pub strata: Vec<Stratum>,
    /// Quantifiers over past-time bodies, ordered by stratum; their values are
    /// inputs of later strata and of [`PopulationTables::top`].
    pub signals: Vec<Signal>,
    /// Quantifiers over future-time bodies (leaves of combined properties).
    pub future_quantifiers: Vec<FutureQuantifier>,
    /// The population-level table: inputs are the globals, then every signal.
    pub top: Table,
    /// The population's properties in declaration order.
    pub properties: Vec<PopulationProperty>,
}

impl PopulationTables {
    /// Whether `property` is past-time: a top-table output over past-time
    /// formulas (a combined property has a future quantifier).
    pub fn is_past(&self, property: &PopulationProperty) -> bool {
        match property.verdict {
            PropertyVerdict::Top(i) => i.get(&self.top.outputs).is_some_and(|o| o.is_past()),
            PropertyVerdict::Combined(_) => false,
        }
    }

    /// The quantifiers property `p` reads: the signals (indices in
    /// [`Self::signals`]) through the top table, and the future quantifiers
    /// (indices in [`Self::future_quantifiers`]) of its skeleton.
    pub fn quantifiers_of(&self, p: usize) -> (Vec<SignalId>, Vec<FutureQuantifierId>) {
        let mut outputs = Vec::new();
        let mut futures = Vec::new();
        match self.properties.get(p).map(|prop| &prop.verdict) {
            Some(PropertyVerdict::Top(i)) => outputs.push(*i),
            Some(PropertyVerdict::Combined(sk)) => sk.leaves(&mut |leaf| match leaf {
                Skeleton::Quantifier(q) => futures.push(*q),
                Skeleton::Future(i) | Skeleton::Latched(i) => outputs.push(*i),
                _ => {}
            }),
            None => {}
        }
        let roots = outputs
            .iter()
            .filter_map(|&i| i.get(&self.top.outputs))
            .flat_map(|out| out.parts.iter().map(|part| part.slot));
        let globals = self.globals.len();
        let signals = self
            .top
            .inputs_read(roots)
            .into_iter()
            .filter_map(|input| input.checked_sub(globals).map(SignalId::new))
            .collect();
        futures.sort_unstable();
        futures.dedup();
        (signals, futures)
    }
}

impl Skeleton {
    /// Calls `f` on every leaf.
    pub fn leaves(&self, f: &mut impl FnMut(&Skeleton)) {
        match self {
            Skeleton::Not(a) => a.leaves(f),
            Skeleton::And(a, b) | Skeleton::Or(a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            leaf => f(leaf),
        }
    }
}

/// Index of a stratum in [`PopulationTables::strata`].
pub type StratumId = Id<Stratum>;
/// Index of a signal in [`PopulationTables::signals`].
pub type SignalId = Id<Signal>;
/// Index of a quantifier in [`PopulationTables::future_quantifiers`].
pub type FutureQuantifierId = Id<FutureQuantifier>;

/// One agent-level table.
#[derive(Clone, Debug, PartialEq)]
pub struct Stratum {
    /// Inputs: attributes, globals, then `signals[..signals_before]`.
    pub table: Table,
    /// How many signals (of lower strata) it reads.
    pub signals_before: usize,
}

/// Where a quantifier's membership and body are evaluated in its stratum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantified {
    /// Which quantifier (`count` only for signals).
    pub quantifier: Quantifier,
    /// The stratum it is evaluated in.
    pub stratum: StratumId,
    /// The output of the stratum table giving membership; `None` for all agents.
    pub member: Option<OutputId>,
    /// The output of the stratum table giving the body's verdict.
    pub body: OutputId,
}

/// How a quantifier combines its members' bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// A k-of-n rule: `forall exists atleast atmost`.
    Threshold(Threshold),
    /// `count`: how many members satisfy the body (an int).
    Count,
}

impl Quantified {
    /// How the quantifier combines its members' bodies: the one place a
    /// quantifier becomes a runtime [`Threshold`].
    pub fn aggregate(&self) -> Aggregate {
        Aggregate::Threshold(match self.quantifier {
            Quantifier::Forall => Threshold::All,
            Quantifier::Exists => Threshold::Any,
            Quantifier::AtLeast(k) => Threshold::AtLeast(k),
            Quantifier::AtMost(k) => Threshold::AtMost(k),
            Quantifier::Count => return Aggregate::Count,
        })
    }
}

/// A quantifier over a past-time body: one value per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal {
    /// Its quantifier and where its parts are evaluated.
    pub of: Quantified,
    /// `bool`, or `int` for `count`.
    pub ty: Ty,
    /// The quantifier as written (the first one, when equal ones share the
    /// signal), as its HIR span.
    pub span: Span,
}

/// A quantifier over a future-time body: the body's output is an LTL3
/// automaton per agent; members are fixed at the first step of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FutureQuantifier {
    /// Its quantifier (never `count`) and where its parts are evaluated.
    pub of: Quantified,
    /// Its k-of-n rule over the members' three-valued verdicts.
    pub threshold: Threshold,
    /// The quantifier as written, as its HIR span.
    pub span: Span,
}

/// One property of a population.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationProperty {
    /// Its name.
    pub name: String,
    /// Its declaration.
    pub span: Span,
    /// Where its verdict comes from.
    pub verdict: PropertyVerdict,
    /// Whether `with reset` was given.
    pub reset: bool,
}

/// Where a population property's verdict comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum PropertyVerdict {
    /// Output `i` of [`PopulationTables::top`] (which handles `with reset` itself).
    Top(OutputId),
    /// A Boolean skeleton over leaves, evaluated at the run's first step.
    Combined(Skeleton),
}

/// The Boolean skeleton of a property with quantifiers over future-time bodies.
#[derive(Clone, Debug, PartialEq)]
pub enum Skeleton {
    /// [`PopulationTables::future_quantifiers`]`[i]`, counted k-of-n.
    Quantifier(FutureQuantifierId),
    /// A future-time output of the top table (restarted with the property).
    Future(OutputId),
    /// A past-time output of the top table, its value at the run's first step.
    Latched(OutputId),
    /// `!s`
    Not(Box<Skeleton>),
    /// `a && b`
    And(Box<Skeleton>, Box<Skeleton>),
    /// `a || b`
    Or(Box<Skeleton>, Box<Skeleton>),
}

mod lanes;

pub use lanes::{lane_kinds, LaneKind};
use std::fmt;

/// Bytes of state one agent needs, as generated code stores it (and, within
/// that, the interpreter: [`crate::interp::PopulationInterpreter::state_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentState {
    /// The strata's state cells: a bit per cell of a lane stratum (rounded up
    /// to bytes), [`super::table::Table::state_bytes`] for the others.
    pub cells: u64,
    /// The body automata's states, each in the narrowest width holding it.
    pub automata: u64,
    /// A membership byte per future quantifier.
    pub memberships: u64,
}

impl AgentState {
    /// All of it.
    pub fn total(&self) -> u64 {
        self.cells + self.automata + self.memberships
    }
}

impl PopulationTables {
    /// The state one agent needs ([`AgentState`]).
    pub fn state_per_agent(&self) -> AgentState {
        let lanes = self.lane_strata();
        let cells = self
            .strata
            .iter()
            .zip(&lanes)
            .map(|(s, &lane)| {
                if lane {
                    (s.table.state.len() as u64).div_ceil(8)
                } else {
                    s.table.state_bytes()
                }
            })
            .sum();
        let automata = self
            .strata
            .iter()
            .flat_map(|s| &s.table.automata)
            .map(|a| super::table::state_width(a.states.len()) as u64)
            .sum();
        AgentState {
            cells,
            automata,
            memberships: self.future_quantifiers.len() as u64,
        }
    }

    /// The name of signal `j` (its input name in the top table).
    pub fn signal_name(&self, j: usize) -> Option<&str> {
        self.top
            .inputs
            .get(self.globals.len().checked_add(j)?)
            .map(|input| input.name.as_str())
    }

    /// The skeleton in surface-like syntax: `f<k>` for future quantifier `k`,
    /// top outputs by name, latched ones as `latched(name)`.
    pub fn skeleton_text(&self, sk: &Skeleton) -> String {
        let out = |i: OutputId| {
            i.get(&self.top.outputs)
                .map_or_else(|| format!("#{i}"), |o| o.name.clone())
        };
        match sk {
            Skeleton::Quantifier(k) => format!("f{k}"),
            Skeleton::Future(i) => out(*i),
            Skeleton::Latched(i) => format!("latched({})", out(*i)),
            Skeleton::Not(a) => format!("!{}", self.skeleton_text(a)),
            Skeleton::And(a, b) => {
                format!("({} && {})", self.skeleton_text(a), self.skeleton_text(b))
            }
            Skeleton::Or(a, b) => {
                format!("({} || {})", self.skeleton_text(a), self.skeleton_text(b))
            }
        }
    }
}

impl PopulationTables {
    /// `forall in stratum 0, members f0_member, body f0_body (automaton a0: F x)`:
    /// a quantifier's stratum outputs by name, and a future-time body's
    /// formula (its automaton's initial obligation).
    fn quantified_text(&self, q: &Quantified) -> String {
        let table = q.stratum.get(&self.strata).map(|s| &s.table);
        let output = |i: OutputId| table.and_then(|t| i.get(&t.outputs));
        let name = |i: OutputId| output(i).map_or_else(|| format!("o{i}"), |o| o.name.clone());
        let member = q.member.map_or_else(
            || "all agents".to_owned(),
            |m| format!("members {}", name(m)),
        );
        use crate::ir::table::Source;
        let body = match (output(q.body).map(|o| o.source), table) {
            (Some(Source::Future(f)), Some(t)) => {
                format!(
                    "{} ({}: {})",
                    name(q.body),
                    t.future_text(f),
                    t.future_formula(f)
                )
            }
            (Some(Source::Timed(d)), Some(t)) => match d.get(&t.timed) {
                Some(timed) => format!("{} (deadline d{d}: {})", name(q.body), t.timed_text(timed)),
                None => name(q.body),
            },
            _ => name(q.body),
        };
        format!(
            "{} in stratum {}, {member}, body {body}",
            q.quantifier.head(),
            q.stratum
        )
    }
}

/// `1 stratum`, `2 strata`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for PopulationTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ty_name = |t: Ty| match t {
            Ty::Enum(e) => self
                .top
                .enums
                .get(e)
                .map_or_else(|| t.to_string(), |d| d.name.clone()),
            _ => t.to_string(),
        };
        let list = |items: &[Decl]| {
            items
                .iter()
                .map(|d| format!("{}: {}", d.name, ty_name(d.ty)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(
            f,
            "population {}: capacity {}, {}, {}, {}",
            self.name,
            self.capacity,
            plural(self.strata.len(), "stratum", "strata"),
            plural(self.signals.len(), "signal", "signals"),
            plural(
                self.future_quantifiers.len(),
                "future quantifier",
                "future quantifiers"
            )
        )?;
        writeln!(f, "attributes: {}", list(&self.attributes))?;
        writeln!(f, "globals: {}", list(&self.globals))?;
        if let Some(time) = self.time.and_then(|t| self.globals.get(t)) {
            writeln!(f, "time: {} (microseconds, the steps' time)", time.name)?;
        }
        for (j, s) in self.signals.iter().enumerate() {
            let name = self.signal_name(j).unwrap_or("?");
            writeln!(
                f,
                "signal {name} ({}): {}",
                s.ty,
                self.quantified_text(&s.of)
            )?;
        }
        for (k, q) in self.future_quantifiers.iter().enumerate() {
            writeln!(f, "future quantifier f{k}: {}", self.quantified_text(&q.of))?;
        }
        for p in &self.properties {
            let reset = if p.reset { " (with reset)" } else { "" };
            match &p.verdict {
                PropertyVerdict::Top(i) => writeln!(f, "property {} = top o{i}{reset}", p.name)?,
                PropertyVerdict::Combined(sk) => {
                    writeln!(f, "property {} = {}{reset}", p.name, self.skeleton_text(sk))?
                }
            }
        }
        for (s, stratum) in self.strata.iter().enumerate() {
            writeln!(f, "stratum {s} (reads {} signals):", stratum.signals_before)?;
            write!(f, "{}", stratum.table)?;
        }
        writeln!(f, "top:")?;
        write!(f, "{}", self.top)
    }
}
