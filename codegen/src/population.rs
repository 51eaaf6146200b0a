//! One population's module: `CAPACITY`, `Agent`, `Globals`, `Verdicts`,
//! `Counts` and `Monitor<const N: usize = CAPACITY>` (see
//! docs/generated-code.md, "Populations").
//!
//! The stratum tables and the top table become ordinary monitor modules
//! ([`super::monitor::generate`]) inside a private `tables` module, under
//! generated names (`stratum0`, `top`; inputs `i0…`, outputs `o0…`), so no spec
//! name can clash with them. The wrapper holds one stratum monitor per agent
//! (`[stratumK::Monitor; N]`), steps each stratum in one pass over the agents
//! while counting the members and true bodies of that stratum's quantifiers,
//! then the top monitor, then combines the properties with future-quantifier
//! leaves in Kleene logic, exactly as the population interpreter does.
//!
//! Each lane-able stratum ([`lanes`]) keeps bit lanes instead of per-agent
//! monitors and `step` runs it 64 agents per word; the other strata keep
//! their per-agent monitors in the same `step`. `step_scalar` is the same
//! step with every stratum one agent at a time (lane strata over their bits).

use super::monitor::{
    self, allowed_lints, input_decls, read_value, rust_type, serde_derives, type_name,
};
use super::names::ident;
use crate::step::local as indexed;
use hindsight_compiler::ir::population::{
    Aggregate, PopulationTables, PropertyVerdict, Quantified, Skeleton, Threshold,
};
use hindsight_compiler::ir::table::{Op, Table};
use hindsight_compiler::ir::Decl;
use hindsight_compiler::types::EnumDef;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use std::collections::BTreeSet;

mod lanes;

fn id(text: &str) -> Ident {
    Ident::new(text, Span::call_site())
}

/// A module name for a table that no enum of the spec has (the `tables`
/// module imports every enum).
fn fresh_name(base: &str, enums: &[EnumDef]) -> String {
    let mut name = base.to_owned();
    while enums.iter().any(|e| e.name == name) {
        name.push('_');
    }
    name
}

/// `table` under module name `name`, inputs `i0…` and outputs `o0…`.
fn renamed(table: &Table, name: String) -> Table {
    let mut table = table.clone();
    table.name = name;
    for (k, Decl { name: input, .. }) in table.inputs.iter_mut().enumerate() {
        *input = format!("i{k}");
    }
    for (k, output) in table.outputs.iter_mut().enumerate() {
        output.name = format!("o{k}");
    }
    table
}

/// Why a population cannot be generated (a lowering the wrapper does not
/// support); reported as an internal error by the caller.
pub(super) fn unsupported(tables: &PopulationTables) -> Option<String> {
    let mut users: Vec<Vec<(usize, bool)>> = vec![Vec::new(); tables.future_quantifiers.len()];
    let mut future_users: Vec<Vec<(usize, bool)>> = vec![Vec::new(); tables.top.outputs.len()];
    for (p, property) in tables.properties.iter().enumerate() {
        if let PropertyVerdict::Combined(skeleton) = &property.verdict {
            let mut leaves = Leaves::default();
            leaves.collect(skeleton);
            for q in leaves.quantifiers {
                match users.get_mut(q) {
                    Some(u) => u.push((p, property.reset)),
                    None => return Some(format!("future quantifier {q} does not exist")),
                }
            }
            for i in leaves.futures {
                match future_users.get_mut(i) {
                    Some(u) => u.push((p, property.reset)),
                    None => return Some(format!("top output {i} does not exist")),
                }
            }
        }
    }
    let shared = |u: &Vec<(usize, bool)>| u.len() > 1 && u.iter().any(|&(_, reset)| reset);
    if users.iter().any(shared) || future_users.iter().any(shared) {
        return Some("a leaf shared by properties with `with reset`".to_owned());
    }
    None
}

/// The leaves of a skeleton, each once, ascending.
#[derive(Default)]
struct Leaves {
    quantifiers: BTreeSet<usize>,
    futures: BTreeSet<usize>,
    latched: BTreeSet<usize>,
}

impl Leaves {
    fn collect(&mut self, s: &Skeleton) {
        match s {
            Skeleton::Quantifier(q) => {
                self.quantifiers.insert(q.index());
            }
            Skeleton::Future(i) => {
                self.futures.insert(i.index());
            }
            Skeleton::Latched(i) => {
                self.latched.insert(i.index());
            }
            Skeleton::Not(a) => self.collect(a),
            Skeleton::And(a, b) | Skeleton::Or(a, b) => {
                self.collect(a);
                self.collect(b);
            }
        }
    }
}

/// How `step` evaluates the strata.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Per-agent stratum monitors.
    Monitors,
    /// Bit lanes, 64 agents per word.
    Lanes,
    /// One agent at a time over the bit lanes' state.
    Bits,
}

/// Stratum `s`'s part of a pass over the agents ([`Gen::stratum_step`]).
struct StratumStep {
    /// Before the loop: its counters.
    before: TokenStream,
    /// In the loop, per agent: its monitor's step and the counting.
    per_agent: TokenStream,
    /// After the loop: its signals' values, the members captured.
    after: TokenStream,
    /// The per-agent membership fields the loop walks beside the agents.
    members: Vec<Ident>,
}

/// The generator's view of one population.
struct Gen<'a> {
    tables: &'a PopulationTables,
    runtime: &'a TokenStream,
    enums: &'a [EnumDef],
    /// Module names of the strata, then of the top table.
    strata: Vec<Ident>,
    top: Ident,
    /// Per future quantifier, the combined property whose run it belongs to.
    owner: Vec<Option<usize>>,
    /// Per property, its leaves (empty for `Top` properties).
    leaves: Vec<Leaves>,
    /// Per stratum, its bit-lane plan when it is lane-able.
    lanes: Vec<Option<lanes::Plan>>,
}

/// The module of one population; `enums` are the spec's, `runtime` the path of
/// the runtime crate.
pub(super) fn generate(
    tables: &PopulationTables,
    enums: &[EnumDef],
    runtime: &TokenStream,
) -> TokenStream {
    let strata: Vec<String> = (0..tables.strata.len())
        .map(|s| fresh_name(&format!("stratum{s}"), enums))
        .collect();
    let top = fresh_name("top", enums);
    let mut owner = vec![None; tables.future_quantifiers.len()];
    let mut leaves = Vec::new();
    for (p, property) in tables.properties.iter().enumerate() {
        let mut l = Leaves::default();
        if let PropertyVerdict::Combined(skeleton) = &property.verdict {
            l.collect(skeleton);
        }
        for &q in &l.quantifiers {
            if let Some(o) = owner.get_mut(q) {
                o.get_or_insert(p);
            }
        }
        leaves.push(l);
    }
    let lane_plan = lanes::plan(tables);
    let tables_mod = {
        let imports = enums.iter().map(|e| {
            let name = ident(&e.name);
            quote!(#[allow(unused_imports)] use super::super::#name;)
        });
        // Lane strata keep no per-agent monitors.
        let modules = tables
            .strata
            .iter()
            .zip(&strata)
            .zip(&lane_plan)
            .filter(|(_, plan)| plan.is_none())
            .map(|((s, name), _)| {
                let table = renamed(&s.table, name.clone());
                monitor::generate(&table, runtime, monitor::Caller::Population)
            })
            .chain([monitor::generate(
                &renamed(&tables.top, top.clone()),
                runtime,
                monitor::Caller::Population,
            )]);
        quote! {
            /// The stratum tables and the top table as ordinary monitors.
            mod tables {
                #(#imports)*
                #(#modules)*
            }
        }
    };
    let gen = Gen {
        tables,
        runtime,
        enums,
        strata: strata.iter().map(|s| ident(s)).collect(),
        top: ident(&top),
        owner,
        leaves,
        lanes: lane_plan,
    };
    let name = ident(&tables.name);
    let doc = format!(" population `{}` from the spec.", tables.name);
    let allow = allowed_lints();
    let capacity = Literal::usize_unsuffixed(tables.capacity);
    let agent = gen.inputs_struct(
        "Agent",
        &[
            "One agent's attributes at one step, one field per attribute in",
            "declaration order.",
        ],
        &tables.attributes,
        "attribute",
    );
    let globals = gen.inputs_struct(
        "Globals",
        &["One step's global inputs, one field per global in declaration order."],
        &tables.globals,
        "global",
    );
    let verdicts = gen.verdicts_struct();
    let monitor = gen.monitor();
    let driven = gen.population_monitor_impl();
    let schema = gen.schema();
    let lane_helpers = gen.lanes.iter().any(Option::is_some).then(lanes::helpers);
    let lanes_used = gen.lanes.iter().map(Option::is_some);
    let n_strata = Literal::usize_unsuffixed(tables.strata.len());
    quote! {
        #[doc = #doc]
        #allow
        pub mod #name {
            use #runtime::population::PopulationError;
            use #runtime::{rules, ResetCounts, Verdict};

            /// The most agents a `Monitor` holds by default (the spec's `capacity`).
            pub const CAPACITY: usize = #capacity;

            #agent
            #globals
            #verdicts
            #tables_mod
            #monitor
            #driven
            #schema
            #lane_helpers

            /// Per stratum (agent-level table), whether `Monitor::step` evaluates
            /// it as bit lanes (64 agents per `u64` word) rather than one agent at
            /// a time.
            #[doc(hidden)]
            pub const BIT_LANES: [bool; #n_strata] = [#(#lanes_used),*];

        }
    }
}

/// State of the generated `Monitor`: its fields, their initial values and
/// how `reset` restores them.
#[derive(Default)]
pub(super) struct StateFields {
    fields: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    resets: Vec<TokenStream>,
}

impl StateFields {
    /// One more field, with its initialiser and its reset statement.
    pub(super) fn add(&mut self, field: TokenStream, init: TokenStream, reset: TokenStream) {
        self.fields.push(field);
        self.inits.push(init);
        self.resets.push(reset);
    }
}

/// A signal's value from its stratum's counts (`trues`; `members` for `forall`).
fn signal_value(
    of: Quantified,
    trues: &Ident,
    members: &Ident,
    runtime: &TokenStream,
) -> TokenStream {
    match of.aggregate() {
        Aggregate::Threshold(t) => {
            let members = if t.reads_members() {
                quote!(#members)
            } else {
                quote!(0)
            };
            let t = threshold(t, runtime);
            quote!(#t.holds(#trues, #members))
        }
        Aggregate::Count => quote!(i64::try_from(#trues).unwrap_or(i64::MAX)),
    }
}

/// Whether a signal's code counts its members (see `Threshold::reads_members`).
fn counts_members(of: Quantified) -> bool {
    matches!(of.aggregate(), Aggregate::Threshold(t) if t.reads_members())
}

/// A runtime `Threshold` as an expression.
fn threshold(t: Threshold, runtime: &TokenStream) -> TokenStream {
    let variant = match t {
        Threshold::All => quote!(All),
        Threshold::Any => quote!(Any),
        Threshold::AtLeast(k) => {
            let k = Literal::u64_unsuffixed(k);
            quote!(AtLeast(#k))
        }
        Threshold::AtMost(k) => {
            let k = Literal::u64_unsuffixed(k);
            quote!(AtMost(#k))
        }
    };
    quote!(#runtime::population::Threshold::#variant)
}

impl Gen<'_> {
    fn fields(&self, inputs: &[Decl], what: &str) -> TokenStream {
        let fields = inputs.iter().map(|Decl { name, ty, .. }| {
            let doc = format!(" {what} `{name}: {}`", type_name(*ty, self.enums));
            let (name, ty) = (ident(name), rust_type(*ty, self.enums));
            quote!(#[doc = #doc] pub #name: #ty)
        });
        quote!(#(#fields,)*)
    }

    /// The runtime's `PopulationMonitor` for `Monitor`: agents and globals
    /// from untyped values (defaults for missing or mistyped ones, as for
    /// monitors), verdicts into slices.
    fn population_monitor_impl(&self) -> TokenStream {
        let runtime = self.runtime;
        let from_values = |decls: &[Decl], ty: TokenStream| {
            let fields = decls.iter().enumerate().map(|(i, d)| {
                let name = ident(&d.name);
                let value = read_value(i, d.ty, self.enums);
                quote!(#name: #value)
            });
            let prelude = if decls.is_empty() {
                quote!(let _ = inputs;)
            } else {
                quote!(use #runtime::Value;)
            };
            quote!(#prelude #ty { #(#fields,)* })
        };
        let agent = from_values(&self.tables.attributes, quote!(Agent));
        let globals = from_values(&self.tables.globals, quote!(Globals));
        quote! {
            impl<const N: usize> #runtime::population::PopulationMonitor for Monitor<N> {
                type Agent = Agent;
                type Globals = Globals;

                fn agent(inputs: &[#runtime::Value]) -> Agent {
                    #agent
                }

                fn globals(inputs: &[#runtime::Value]) -> Globals {
                    #globals
                }

                fn step_values(
                    &mut self,
                    agents: &[Agent],
                    globals: &Globals,
                    verdicts: &mut [Verdict],
                ) -> Result<(), PopulationError> {
                    let now = self.step(agents, globals)?;
                    for (out, verdict) in verdicts.iter_mut().zip(now.to_array()) {
                        *out = verdict;
                    }
                    Ok(())
                }

                fn finish_values(&self, verdicts: &mut [Verdict]) {
                    for (out, verdict) in verdicts.iter_mut().zip(self.finish().to_array()) {
                        *out = verdict;
                    }
                }

                fn finish_counts(&self, counts: &mut [ResetCounts]) {
                    for (out, c) in counts.iter_mut().zip(self.counts().to_array()) {
                        *out = c;
                    }
                }

                fn reset(&mut self) {
                    Monitor::reset(self);
                }
            }
        }
    }

    /// `SCHEMA`: attributes, globals, capacity and properties, for trace readers.
    fn schema(&self) -> TokenStream {
        let runtime = self.runtime;
        let population = &self.tables.name;
        let attributes = input_decls(&self.tables.attributes, self.enums, runtime);
        let globals = input_decls(&self.tables.globals, self.enums, runtime);
        let time = match self.tables.time {
            Some(t) => {
                let t = Literal::usize_unsuffixed(t);
                quote!(Some(#t))
            }
            None => quote!(None),
        };
        let properties = self.tables.properties.iter().map(|p| {
            let (name, reset, past) = (&p.name, p.reset, self.tables.is_past(p));
            quote!(#runtime::PropertyDecl { name: #name, reset: #reset, past: #past })
        });
        quote! {
            /// The trace schema: the attributes and globals with their types and
            /// enum variants, the capacity and the properties.
            pub const SCHEMA: #runtime::population::PopulationSchema =
                #runtime::population::PopulationSchema {
                    population: #population,
                    attributes: &[#(#attributes),*],
                    globals: &[#(#globals),*],
                    time: #time,
                    capacity: CAPACITY,
                    properties: &[#(#properties),*],
                };
        }
    }

    /// The struct `name` (documented by the lines `doc`) with one field per
    /// input of `inputs`, each a `what`, in declaration order.
    fn inputs_struct(&self, name: &str, doc: &[&str], inputs: &[Decl], what: &str) -> TokenStream {
        let name = ident(name);
        let doc = doc.iter().map(|line| format!(" {line}"));
        let fields = self.fields(inputs, what);
        let serde = serde_derives(self.runtime);
        quote! {
            #(#[doc = #doc])*
            #[derive(Clone, Copy, Debug, PartialEq, Default)]
            #serde
            pub struct #name {
                #fields
            }
        }
    }

    fn verdicts_struct(&self) -> TokenStream {
        let properties = &self.tables.properties;
        let names: Vec<_> = properties.iter().map(|p| ident(&p.name)).collect();
        let texts: Vec<&str> = properties.iter().map(|p| p.name.as_str()).collect();
        let docs: Vec<String> = properties
            .iter()
            .map(|p| format!(" property `{}`", p.name))
            .collect();
        let count = Literal::usize_unsuffixed(names.len());
        let serde = serde_derives(self.runtime);
        let verdicts = monitor::verdicts_struct(&texts, self.runtime);
        quote! {
            #verdicts

            /// Per property, the decided verdicts a `with reset` property counted,
            /// including its unfinished run's end verdict (zero for the others).
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            #serde
            pub struct Counts {
                #(#[doc = #docs] pub #names: ResetCounts,)*
            }

            impl Counts {
                /// The counts in declaration order.
                pub const fn to_array(self) -> [ResetCounts; #count] {
                    [#(self.#names),*]
                }
            }
        }
    }

    /// The module path of stratum `s`'s table.
    fn stratum_path(&self, s: usize) -> TokenStream {
        match self.strata.get(s) {
            Some(name) => quote!(tables::#name),
            None => quote!(tables::unknown_stratum),
        }
    }

    /// The future quantifiers (index, parts) of stratum `s` that some property uses.
    fn future_of(&self, s: usize) -> Vec<(usize, Quantified)> {
        self.tables
            .future_quantifiers
            .iter()
            .enumerate()
            .filter(|(q, f)| {
                f.of.stratum.index() == s && self.owner.get(*q).is_some_and(Option::is_some)
            })
            .map(|(q, f)| (q, f.of))
            .collect()
    }

    /// The `Monitor` struct's state beyond `agents` and `last`.
    fn state(&self) -> StateFields {
        let mut state = StateFields::default();
        for (s, name) in self.strata.iter().enumerate() {
            if self.lanes.get(s).is_some_and(Option::is_some) {
                if let Some(stratum) = self.tables.strata.get(s) {
                    lanes::fields(s, &stratum.table, &mut state);
                }
                continue;
            }
            let field = indexed("stratum", s);
            let doc = format!(" Stratum {s}'s table, once per agent.");
            state.add(
                quote!(#[doc = #doc] #field: [tables::#name::Monitor; N]),
                quote!(#field: {
                    const INIT: tables::#name::Monitor = tables::#name::Monitor::new();
                    [INIT; N]
                }),
                quote!(for m in self.#field.iter_mut() { m.reset(); }),
            );
        }
        for (q, f) in self.tables.future_quantifiers.iter().enumerate() {
            if self.owner.get(q).is_none_or(Option::is_none) {
                continue;
            }
            if f.of.member.is_some() {
                let member = indexed("member", q);
                state.add(
                    quote!(
                        /// Future quantifier's members, fixed at its run's first step.
                        #member: [bool; N]
                    ),
                    quote!(#member: [false; N]),
                    quote!(for b in self.#member.iter_mut() { *b = false; }),
                );
            }
            let members = indexed("members", q);
            state.add(
                quote!(
                    /// How many members the future quantifier's run has.
                    #members: u64
                ),
                quote!(#members: 0),
                quote!(self.#members = 0;),
            );
        }
        let top = &self.top;
        state.add(
            quote!(
                /// The population-level table.
                top: tables::#top::Monitor
            ),
            quote!(top: tables::#top::Monitor::new()),
            quote!(self.top.reset();),
        );
        for (p, property) in self.tables.properties.iter().enumerate() {
            if matches!(property.verdict, PropertyVerdict::Combined(_)) {
                self.run_state(p, property.reset, &mut state);
            }
        }
        state
    }

    /// The state of combined property `p`'s run: freshness, latched past-time
    /// leaves and (with `reset`) its counts.
    fn run_state(&self, p: usize, reset: bool, state: &mut StateFields) {
        let fresh = indexed("fresh", p);
        state.add(
            quote!(
                /// Whether the property's run has read no step since it (re)started.
                #fresh: bool
            ),
            quote!(#fresh: true),
            quote!(self.#fresh = true;),
        );
        for &i in self.leaves.get(p).map(|l| &l.latched).into_iter().flatten() {
            let latched = id(&format!("latched{p}_{i}"));
            state.add(
                quote!(
                    /// A past-time leaf's value at the run's first step.
                    #latched: bool
                ),
                quote!(#latched: false),
                quote!(self.#latched = false;),
            );
        }
        if reset {
            let counts = indexed("counts", p);
            state.add(
                quote!(
                    /// Decided verdicts counted so far.
                    #counts: ResetCounts
                ),
                quote!(#counts: ResetCounts { satisfactions: 0, violations: 0 }),
                quote!(self.#counts = ResetCounts { satisfactions: 0, violations: 0 };),
            );
        }
    }

    fn monitor(&self) -> TokenStream {
        let StateFields {
            fields,
            inits,
            resets,
        } = self.state();
        let (step, step_scalar) = if self.lanes.iter().any(Option::is_some) {
            (self.step_body(Pass::Lanes), self.step_body(Pass::Bits))
        } else {
            (
                self.step_body(Pass::Monitors),
                quote!(self.step(agents, globals)),
            )
        };
        let finish = self.finish_body();
        let counts = self.counts_body();
        quote! {
            /// The population monitor for up to `N` agents (by default `CAPACITY`).
            ///
            /// It holds every agent's state inline (no allocation ever), so its size
            /// grows linearly with `N`: for thousands of agents keep it in a `static`,
            /// a `Box` (built with `Box::new(Monitor::new())` in an optimized build)
            /// or another long-lived place rather than on a small stack.
            #[derive(Clone, Debug, PartialEq, Eq)]
            pub struct Monitor<const N: usize = CAPACITY> {
                /// The number of agents, fixed by the first step.
                agents: Option<usize>,
                #(#fields,)*
                /// The verdicts of the last step; `UNKNOWN` before the first.
                last: Verdicts,
            }

            impl<const N: usize> Monitor<N> {
                /// The initial state (before the first step).
                pub const fn new() -> Self {
                    Self {
                        agents: None,
                        #(#inits,)*
                        last: Verdicts::UNKNOWN,
                    }
                }

                /// Consumes one step: every agent's attributes (agent `j` is
                /// `agents[j]`; the number of agents is fixed by the first step) and the
                /// globals; returns the verdicts at that step. Refuses, leaving the state
                /// unchanged, more than `N` agents or a number of agents different from
                /// the first step's.
                pub fn step(&mut self, agents: &[Agent], globals: &Globals) -> Result<Verdicts, PopulationError> {
                    #step
                }

                /// `step` evaluating the strata one agent at a time (the same results and
                /// state; for measurements and tests of the bit lanes).
                #[doc(hidden)]
                pub fn step_scalar(&mut self, agents: &[Agent], globals: &Globals) -> Result<Verdicts, PopulationError> {
                    #step_scalar
                }

                /// Finite-trace verdicts (the trace ended after the last step); every
                /// one `Unknown` before the first step.
                pub fn finish(&self) -> Verdicts {
                    #finish
                }

                /// Per property, the decided verdicts a `with reset` property counted,
                /// including its unfinished run's end verdict (zero for the others).
                pub fn counts(&self) -> Counts {
                    #counts
                }

                /// The number of agents, fixed by the first step (`None` before it).
                pub fn agents(&self) -> Option<usize> {
                    self.agents
                }

                /// Back to the initial state (in place: no `N`-sized temporary).
                pub fn reset(&mut self) {
                    self.agents = None;
                    #(#resets)*
                    self.last = Verdicts::UNKNOWN;
                }
            }

            impl<const N: usize> Default for Monitor<N> {
                fn default() -> Self {
                    Self::new()
                }
            }
        }
    }

    /// The field initialiser of input `k` of a stratum table (attributes, globals, signals).
    fn stratum_input(&self, k: usize) -> TokenStream {
        let attributes = self.tables.attributes.len();
        let globals = self.tables.globals.len();
        if let Some(Decl { name, .. }) = self.tables.attributes.get(k) {
            let name = ident(name);
            quote!(agent.#name)
        } else if let Some(Decl { name, .. }) = self.tables.globals.get(k - attributes) {
            let name = ident(name);
            quote!(globals.#name)
        } else {
            let signal = indexed("signal", k - attributes - globals);
            quote!(#signal)
        }
    }

    /// The field initialiser of input `k` of the top table (globals, signals).
    fn top_input(&self, k: usize) -> TokenStream {
        if let Some(Decl { name, .. }) = self.tables.globals.get(k) {
            let name = ident(name);
            quote!(globals.#name)
        } else {
            let signal = indexed("signal", k - self.tables.globals.len());
            quote!(#signal)
        }
    }

    /// Whether future quantifier `q`'s run starts at this step (a local).
    fn capture(&self, q: usize) -> TokenStream {
        match self.owner.get(q).copied().flatten() {
            Some(p) => {
                let fresh = indexed("fresh", p);
                quote!(#fresh)
            }
            None => quote!(false),
        }
    }

    fn step_body(&self, pass: Pass) -> TokenStream {
        let tables = self.tables;
        let mut code = Vec::new();
        for (p, property) in tables.properties.iter().enumerate() {
            if matches!(property.verdict, PropertyVerdict::Combined(_)) {
                let fresh = indexed("fresh", p);
                code.push(quote!(let #fresh = self.#fresh;));
            }
        }
        // Strata of per-agent monitors next to each other share one loop
        // over the agents while none reads a signal another one of them
        // counts (signals are known only after the loop).
        let mut group: Vec<usize> = Vec::new();
        for (s, stratum) in tables.strata.iter().enumerate() {
            let plan = self.lanes.get(s).and_then(Option::as_ref);
            let lane = match (pass, plan) {
                (Pass::Lanes, Some(plan)) => {
                    Some(self.lane_pass(s, &stratum.table, plan, lanes::Width::Lanes))
                }
                (Pass::Bits, Some(plan)) => {
                    Some(self.lane_pass(s, &stratum.table, plan, lanes::Width::Scalar))
                }
                _ => None,
            };
            if lane.is_some() || group.iter().any(|&g| self.reads_signals_of(s, g)) {
                code.push(self.stratum_pass(&group));
                group.clear();
            }
            match lane {
                Some(lane) => code.push(lane),
                None => group.push(s),
            }
        }
        code.push(self.stratum_pass(&group));
        let top = &self.top;
        let top_inputs = (0..tables.top.inputs.len()).map(|k| {
            let field = indexed("i", k);
            let value = self.top_input(k);
            quote!(#field: #value)
        });
        code.push(quote!(let top = self.top.step(&tables::#top::Input { #(#top_inputs,)* });));
        let mut verdicts = Vec::new();
        for (p, property) in tables.properties.iter().enumerate() {
            let name = ident(&property.name);
            let skeleton = match &property.verdict {
                PropertyVerdict::Top(i) => {
                    let o = indexed("o", *i);
                    verdicts.push(quote!(#name: top.#o));
                    continue;
                }
                PropertyVerdict::Combined(skeleton) => skeleton,
            };
            let (fresh, verdict) = (indexed("fresh", p), indexed("verdict", p));
            let leaves = self.leaves.get(p);
            let latch = leaves.map(|l| &l.latched).into_iter().flatten().map(|&i| {
                let (latched, o) = (id(&format!("latched{p}_{i}")), indexed("o", i));
                quote!(self.#latched = top.#o == Verdict::True;)
            });
            let value = self.skeleton(p, skeleton);
            let latch: Vec<TokenStream> = latch.collect();
            if !latch.is_empty() {
                code.push(quote!(if #fresh { #(#latch)* }));
            }
            code.push(quote! {
                let #verdict = #value;
                self.#fresh = false;
            });
            if property.reset {
                let counts = indexed("counts", p);
                let restarts = self.restarts(p);
                code.push(quote! {
                    if #verdict != Verdict::Unknown {
                        self.#counts.record(#verdict);
                        self.#fresh = true;
                        #restarts
                    }
                });
            }
            verdicts.push(quote!(#name: #verdict));
        }
        quote! {
            let n = agents.len();
            if n > N {
                return Err(PopulationError::OverCapacity { agents: n, capacity: N });
            }
            if let Some(expected) = self.agents {
                if expected != n {
                    return Err(PopulationError::AgentCountChanged { expected, found: n });
                }
            }
            self.agents = Some(n);
            let count = n as u64;
            #(#code)*
            let verdicts = Verdicts { #(#verdicts,)* };
            self.last = verdicts;
            Ok(verdicts)
        }
    }

    /// Restarting property `p`'s run: its quantifiers' body automata in every
    /// agent and its future-time top leaves.
    fn restarts(&self, p: usize) -> TokenStream {
        let Some(leaves) = self.leaves.get(p) else {
            return quote!();
        };
        let agents = leaves.quantifiers.iter().filter_map(|&q| {
            let f = self.tables.future_quantifiers.get(q)?;
            let field = indexed("stratum", f.of.stratum);
            let body = Literal::usize_unsuffixed(f.of.body.index());
            Some(quote!(for m in self.#field.iter_mut().take(n) { m.restart_output(#body); }))
        });
        let top = leaves.futures.iter().map(|&i| {
            let i = Literal::usize_unsuffixed(i);
            quote!(self.top.restart_output(#i);)
        });
        quote!(#(#agents)* #(#top)*)
    }

    /// Whether stratum `s`'s table reads a signal of stratum `g`.
    fn reads_signals_of(&self, s: usize, g: usize) -> bool {
        let Some(stratum) = self.tables.strata.get(s) else {
            return false;
        };
        stratum.table.slots.iter().any(|slot| match slot.op {
            Op::Input(k) => self.signal_stratum(k) == Some(g),
            _ => false,
        })
    }

    /// The stratum counting the signal a stratum table's input `k` is, if
    /// it is one (inputs: attributes, globals, then signals).
    fn signal_stratum(&self, k: usize) -> Option<usize> {
        let signal = k.checked_sub(self.tables.attributes.len() + self.tables.globals.len())?;
        Some(self.tables.signals.get(signal)?.of.stratum.index())
    }

    /// One pass over the agents stepping the per-agent monitors of each
    /// stratum of `group` in turn, counting their quantifiers; then their
    /// signals' values as locals `signalK`.
    fn stratum_pass(&self, group: &[usize]) -> TokenStream {
        if group.is_empty() {
            return quote!();
        }
        let mut before = Vec::new();
        let mut per_agent = Vec::new();
        let mut after = Vec::new();
        let mut zips = quote!(agents.iter());
        let mut pattern = quote!(agent);
        for &s in group {
            let Some(stratum) = self.tables.strata.get(s) else {
                continue;
            };
            let monitor = indexed("monitor", s);
            let field = indexed("stratum", s);
            zips = quote!(#zips.zip(self.#field.iter_mut()));
            pattern = quote!((#pattern, #monitor));
            let step = self.stratum_step(s, &stratum.table, &monitor, group);
            before.push(step.before);
            per_agent.push(step.per_agent);
            after.push(step.after);
            for member in step.members {
                zips = quote!(#zips.zip(self.#member.iter_mut()));
                pattern = quote!((#pattern, #member));
            }
        }
        quote! {
            #(#before)*
            for #pattern in #zips {
                #(#per_agent)*
            }
            #(#after)*
        }
    }

    /// What stepping stratum `s`'s monitor of one agent (named `monitor`)
    /// takes in a pass over the agents: counting its quantifiers, then its
    /// signals' values as locals `signalK`.
    /// `group`: the strata stepped in the same pass.
    fn stratum_step(
        &self,
        s: usize,
        table: &Table,
        monitor: &Ident,
        group: &[usize],
    ) -> StratumStep {
        let path = self.stratum_path(s);
        let signals: Vec<(usize, Quantified)> = self
            .tables
            .signals
            .iter()
            .enumerate()
            .filter(|(_, g)| g.of.stratum.index() == s)
            .map(|(g, sig)| (g, sig.of))
            .collect();
        let futures = self.future_of(s);
        let mut before = Vec::new();
        let mut per_agent = Vec::new();
        let mut after = Vec::new();
        for &(g, of) in &signals {
            let (members, trues) = (indexed("smembers", g), indexed("strues", g));
            let body = indexed("o", of.body);
            before.push(quote!(let mut #trues = 0u64;));
            match of.member {
                // Only `forall` needs the number of members.
                Some(m) if counts_members(of) => {
                    let m = indexed("o", m);
                    before.push(quote!(let mut #members = 0u64;));
                    per_agent.push(quote! {
                        if v.#m == Verdict::True {
                            #members += 1;
                            if v.#body == Verdict::True {
                                #trues += 1;
                            }
                        }
                    });
                }
                Some(m) => {
                    let m = indexed("o", m);
                    per_agent.push(quote! {
                        if v.#m == Verdict::True && v.#body == Verdict::True {
                            #trues += 1;
                        }
                    });
                }
                None => {
                    if counts_members(of) {
                        before.push(quote!(let #members = count;));
                    }
                    per_agent.push(quote!(#trues += u64::from(v.#body == Verdict::True);));
                }
            }
            let signal = indexed("signal", g);
            let value = signal_value(of, &trues, &members, self.runtime);
            after.push(quote!(let #signal = #value;));
        }
        let mut walked = Vec::new();
        for &(q, of) in &futures {
            let capture = self.capture(q);
            let (members, trues, falses) = (
                indexed("members", q),
                indexed("trues", q),
                indexed("falses", q),
            );
            let body = indexed("o", of.body);
            let (counters, tally) = tally(&body, &trues, &falses);
            before.push(counters);
            match of.member {
                Some(m) => {
                    let member = indexed("member", q);
                    let captured = indexed("captured", q);
                    let m = indexed("o", m);
                    walked.push(member.clone());
                    before.push(quote!(let mut #captured = 0u64;));
                    per_agent.push(quote! {
                        if #capture {
                            *#member = v.#m == Verdict::True;
                            if *#member {
                                #captured += 1;
                            }
                        }
                        if *#member {
                            #tally
                        }
                    });
                    after.push(quote!(if #capture { self.#members = #captured; }));
                }
                None => {
                    per_agent.push(tally);
                    after.push(quote!(if #capture { self.#members = count; }));
                }
            }
        }
        let inputs = (0..table.inputs.len()).map(|k| {
            let name = indexed("i", k);
            // A signal counted in this same pass is one the table does
            // not read (or it would be in a later pass): any value will do.
            let unread = self.signal_stratum(k).is_some_and(|g| group.contains(&g));
            let value = match unread {
                true => quote!(::core::default::Default::default()),
                false => self.stratum_input(k),
            };
            quote!(#name: #value)
        });
        StratumStep {
            before: quote!(#(#before)*),
            per_agent: quote! {
                let v = #monitor.step(&#path::Input { #(#inputs,)* });
                #(#per_agent)*
            },
            after: quote!(#(#after)*),
            members: walked,
        }
    }

    /// The verdict of property `p`'s skeleton from the locals `trues…`,
    /// `falses…` and `top` (the step's, or `finish`'s end values).
    fn skeleton(&self, p: usize, s: &Skeleton) -> TokenStream {
        match s {
            Skeleton::Quantifier(q) => {
                let Some(f) = q.get(&self.tables.future_quantifiers) else {
                    return quote!(Verdict::Unknown);
                };
                let t = threshold(f.threshold, self.runtime);
                let (members, trues, falses) = (
                    indexed("members", *q),
                    indexed("trues", *q),
                    indexed("falses", *q),
                );
                quote!(#t.verdict(self.#members, #trues, #falses))
            }
            Skeleton::Future(i) => {
                let o = indexed("o", *i);
                quote!(top.#o)
            }
            Skeleton::Latched(i) => {
                let latched = id(&format!("latched{p}_{i}"));
                quote!(Verdict::from(self.#latched))
            }
            Skeleton::Not(a) => {
                let a = self.skeleton(p, a);
                quote!(#a.negate())
            }
            Skeleton::And(a, b) => {
                let (a, b) = (self.skeleton(p, a), self.skeleton(p, b));
                quote!(#a.and(#b))
            }
            Skeleton::Or(a, b) => {
                let (a, b) = (self.skeleton(p, a), self.skeleton(p, b));
                quote!(#a.or(#b))
            }
        }
    }

    fn finish_body(&self) -> TokenStream {
        let tables = self.tables;
        let mut code = Vec::new();
        for s in 0..tables.strata.len() {
            let futures = self.future_of(s);
            if futures.is_empty() {
                continue;
            }
            let field = indexed("stratum", s);
            let mut zips = quote!(self.#field.iter().take(n));
            let mut pattern = quote!(monitor);
            let mut per_agent = Vec::new();
            for &(q, of) in &futures {
                let (trues, falses) = (indexed("trues", q), indexed("falses", q));
                let body = indexed("o", of.body);
                let (counters, tally) = tally(&body, &trues, &falses);
                code.push(counters);
                if of.member.is_some() {
                    let member = indexed("member", q);
                    zips = quote!(#zips.zip(self.#member.iter()));
                    pattern = quote!((#pattern, #member));
                    per_agent.push(quote!(if *#member { #tally }));
                } else {
                    per_agent.push(tally);
                }
            }
            code.push(quote! {
                for #pattern in #zips {
                    let v = monitor.finish();
                    #(#per_agent)*
                }
            });
        }
        let verdicts = tables.properties.iter().enumerate().map(|(p, property)| {
            let name = ident(&property.name);
            match &property.verdict {
                PropertyVerdict::Top(i) => {
                    let o = indexed("o", *i);
                    quote!(#name: top.#o)
                }
                PropertyVerdict::Combined(skeleton) => {
                    let fresh = indexed("fresh", p);
                    let value = self.skeleton(p, skeleton);
                    quote!(#name: if self.#fresh { self.last.#name } else { #value })
                }
            }
        });
        quote! {
            let Some(n) = self.agents else {
                return Verdicts::UNKNOWN;
            };
            let top = self.top.finish();
            #(#code)*
            Verdicts { #(#verdicts,)* }
        }
    }

    fn counts_body(&self) -> TokenStream {
        let counts = self
            .tables
            .properties
            .iter()
            .enumerate()
            .map(|(p, property)| {
                let name = ident(&property.name);
                match &property.verdict {
                    PropertyVerdict::Top(i) => {
                        let i = Literal::usize_unsuffixed(i.index());
                        quote!(#name: top.get(#i).copied().unwrap_or_default())
                    }
                    PropertyVerdict::Combined(_) if property.reset => {
                        let (fresh, counts) = (indexed("fresh", p), indexed("counts", p));
                        quote!(#name: {
                            let mut counts = self.#counts;
                            if !self.#fresh {
                                counts.record(end.#name);
                            }
                            counts
                        })
                    }
                    PropertyVerdict::Combined(_) => quote!(#name: ResetCounts::default()),
                }
            });
        quote! {
            let end = self.finish();
            let top = self.top.counts();
            Counts { #(#counts,)* }
        }
    }
}

/// Counting the members' decided verdicts of a future quantifier's body
/// (the member table's output `body`): the declarations of the counters
/// `trues` and `falses`, and the match that counts one member's verdicts `v`.
fn tally(body: &Ident, trues: &Ident, falses: &Ident) -> (TokenStream, TokenStream) {
    let counters = quote!(let mut #trues = 0u64; let mut #falses = 0u64;);
    // Without branches: which verdict an agent gives is as good as random.
    let tally = quote! {
        #trues += u64::from(v.#body == Verdict::True);
        #falses += u64::from(v.#body == Verdict::False);
    };
    (counters, tally)
}
