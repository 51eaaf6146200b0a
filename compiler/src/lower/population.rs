//! Lowering of a checked population into [`PopulationTables`]: the population's
//! formulas are rewritten into synthetic [`hir::Monitor`]s, which the monitor
//! lowering ([`crate::lower::lower`]) turns into ordinary tables.
//!
//! - A quantifier over a past-time body has **stratum** 0 when its body and
//!   its group's predicate contain no quantifier, else one more than the
//!   highest stratum of the quantifiers they contain. Quantifiers over
//!   past-time bodies that are equal once spans are ignored (same quantifier,
//!   group and body) share one signal (its span: the first one met, in
//!   post-order over the properties). Each quantifier over a future-time body
//!   is its own [`FutureQuantifier`] (its restarts follow its property's), and
//!   all of them sit in one last stratum of their own, after every signal
//!   stratum: so signal strata hold past-time tables only.
//! - In a stratum table `Attribute(i)` becomes `Input(i)`, global `Input(g)`
//!   becomes `Input(attributes + g)` and an inner quantifier the input of its
//!   signal; in the top table globals keep their index and a quantifier
//!   becomes `Input(globals + signal)`.
//!
//! # Synthetic names
//!
//! Table inputs are named after the attributes and globals; a signal input is
//! named `q0`, `q1`, … (its index in [`PopulationTables::signals`]). Stratum
//! outputs are `q<j>_member` / `q<j>_body` for signal `j` and `f<k>_member` /
//! `f<k>_body` for future quantifier `k`. Top outputs are the properties
//! without future quantifiers (under their own names) and the leaves of
//! combined properties, `<property>_<n>` (`n` counting that property's leaves
//! from 0). Stratum tables are named `<population>_stratum<s>`, the top table
//! after the population. Every synthetic name is a plain identifier; one that
//! would equal an attribute, global, group, property or earlier synthetic
//! name gets `_` appended until it is unique, so names never clash.

use crate::diag::{Diag, Label};
use crate::hir::{self, BoolOp, Expr, ExprKind, Quantifier, Ty};
use crate::ir::population::{
    Aggregate, FutureQuantifier, FutureQuantifierId, PopulationProperty, PopulationTables,
    PropertyVerdict, Quantified, Signal, Skeleton, Stratum, StratumId,
};
use crate::ir::table::OutputId;
use crate::ltl3::Budget;
use crate::walk::{children, map_children, without_spans};
use hindsight_grammar::ast::Span;
use std::collections::HashSet;

/// Lowers `population` (`spec` supplies the enums) to tables: one per
/// stratum, run once per agent, and the population-level top table.
///
/// Errors of the monitor lowering (an automaton too large, E0407/E0408, or a
/// bound that does not fit, E0404) pass through; a formula the checker should
/// have refused (a future-time quantifier under a temporal operator, an index
/// out of range) is reported as an internal error rather than trusted.
pub fn lower(
    spec: &hir::Spec,
    population: &hir::Population,
    budget: &mut Budget,
) -> Result<PopulationTables, Vec<Diag>> {
    let mut l = Lowering::new(population);
    let mut diags = Vec::new();
    // Pass 1: every signal, with its stratum; then their final order.
    for prop in &population.properties {
        if let Err(d) = l.depth(&prop.formula) {
            diags.push(d);
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    l.order_signals();
    // Pass 2: properties (top outputs, skeletons and future quantifiers).
    let mut properties = Vec::with_capacity(population.properties.len());
    for prop in &population.properties {
        match l.property(prop) {
            Ok(p) => properties.push(p),
            Err(d) => diags.push(d),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    l.build(spec, properties, budget)
}

/// A quantifier over a past-time body, before the final signal order.
struct SignalDraft {
    quantifier: Quantifier,
    group: Option<usize>,
    /// The body without spans (the sharing key) and as written.
    key: Expr,
    body: Expr,
    stratum: usize,
    /// The first quantifier as written.
    span: Span,
}

/// A quantifier over a future-time body.
struct FutureDraft {
    quantifier: Quantifier,
    group: Option<usize>,
    body: Expr,
    /// The quantifier as written.
    span: Span,
}

/// Where a rewritten formula is evaluated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// An agent-level (stratum) table.
    Agent,
    /// The population-level table.
    Top,
}

struct Lowering<'p> {
    population: &'p hir::Population,
    drafts: Vec<SignalDraft>,
    /// `final_index[d]`: the index in [`PopulationTables::signals`] of draft `d`.
    final_index: Vec<usize>,
    /// Draft ids in final order.
    order: Vec<usize>,
    future: Vec<FutureDraft>,
    /// Top outputs: name, formula (rewritten), `with reset`.
    top: Vec<hir::Property>,
    names: HashSet<String>,
}

impl<'p> Lowering<'p> {
    fn new(population: &'p hir::Population) -> Self {
        let mut names = HashSet::new();
        names.insert(population.name.clone());
        names.extend(population.attributes.iter().map(|a| a.name.clone()));
        names.extend(population.globals.iter().map(|g| g.name.clone()));
        names.extend(population.groups.iter().map(|g| g.name.clone()));
        names.extend(population.properties.iter().map(|p| p.name.clone()));
        Lowering {
            population,
            drafts: Vec::new(),
            final_index: Vec::new(),
            order: Vec::new(),
            future: Vec::new(),
            top: Vec::new(),
            names,
        }
    }

    /// `base`, or `base` with `_` appended until it is unused; reserved.
    fn fresh(&mut self, base: String) -> String {
        let mut name = base;
        while self.names.contains(&name) {
            name.push('_');
        }
        self.names.insert(name.clone());
        name
    }

    fn n_attr(&self) -> usize {
        self.population.attributes.len()
    }

    fn n_glob(&self) -> usize {
        self.population.globals.len()
    }

    /// The membership predicate of `group` (`None` for all agents).
    fn group_member(&self, group: Option<usize>, at: Span) -> Result<Option<&'p Expr>, Diag> {
        match group {
            None => Ok(None),
            Some(g) => self
                .population
                .groups
                .get(g)
                .map(|g| Some(&g.member))
                .ok_or_else(|| internal("a quantifier over a group that does not exist", at)),
        }
    }

    /// The highest stratum of the quantifiers in `e` (not looking inside
    /// them), registering every quantifier over a past-time body found on the
    /// way as a signal draft; `None` when `e` has no quantifier.
    fn depth(&mut self, e: &Expr) -> Result<Option<usize>, Diag> {
        if let ExprKind::Quant {
            quantifier,
            group,
            body,
        } = &e.kind
        {
            let stratum = self.stratum_of(*group, body, e.span)?;
            if !body.is_future() {
                self.signal_draft(*quantifier, *group, body, stratum, e.span);
            }
            return Ok(Some(stratum));
        }
        let mut deepest = None;
        for c in children(e) {
            deepest = deepest.max(self.depth(c)?);
        }
        Ok(deepest)
    }

    /// The stratum of a quantifier over `group` with `body`.
    fn stratum_of(&mut self, group: Option<usize>, body: &Expr, at: Span) -> Result<usize, Diag> {
        let inner = self.depth(body)?;
        let inner = match self.group_member(group, at)? {
            Some(member) => inner.max(self.depth(member)?),
            None => inner,
        };
        Ok(inner.map_or(0, |d| d.saturating_add(1)))
    }

    /// The draft id of the signal `quantifier` over `group` with `body`, added if new.
    fn signal_draft(
        &mut self,
        quantifier: Quantifier,
        group: Option<usize>,
        body: &Expr,
        stratum: usize,
        span: Span,
    ) -> usize {
        let key = without_spans(body);
        if let Some(d) = self.find_draft(quantifier, group, &key) {
            return d;
        }
        self.drafts.push(SignalDraft {
            quantifier,
            group,
            key,
            body: body.clone(),
            stratum,
            span,
        });
        self.drafts.len() - 1
    }

    fn find_draft(
        &self,
        quantifier: Quantifier,
        group: Option<usize>,
        key: &Expr,
    ) -> Option<usize> {
        self.drafts
            .iter()
            .position(|d| d.quantifier == quantifier && d.group == group && d.key == *key)
    }

    /// Fixes the signal order: by stratum, then in order of discovery.
    fn order_signals(&mut self) {
        let mut order: Vec<usize> = (0..self.drafts.len()).collect();
        order.sort_by_key(|&d| self.drafts.get(d).map_or(0, |s| s.stratum));
        let mut final_index = vec![0; order.len()];
        for (j, &d) in order.iter().enumerate() {
            if let Some(slot) = final_index.get_mut(d) {
                *slot = j;
            }
        }
        self.order = order;
        self.final_index = final_index;
    }

    /// The final index of the signal of the quantifier expression `e`.
    fn signal_index(&self, e: &Expr) -> Result<usize, Diag> {
        let ExprKind::Quant {
            quantifier,
            group,
            body,
        } = &e.kind
        else {
            return Err(internal("expected a quantifier", e.span));
        };
        if body.is_future() {
            return Err(internal(
                "a quantifier over a future-time body may only sit under Boolean connectives at the top of a property",
                e.span,
            ));
        }
        self.find_draft(*quantifier, *group, &without_spans(body))
            .and_then(|d| self.final_index.get(d).copied())
            .ok_or_else(|| internal("a quantifier that was not collected", e.span))
    }

    /// `e` rewritten for evaluation at `level` (see the module docs).
    fn rewrite(&self, e: &Expr, level: Level) -> Result<Expr, Diag> {
        let mut error = None;
        let out = self.rewrite_into(e, level, &mut error);
        match error {
            Some(d) => Err(d),
            None => Ok(out),
        }
    }

    fn rewrite_into(&self, e: &Expr, level: Level, error: &mut Option<Diag>) -> Expr {
        let input = |i: usize| Expr {
            kind: ExprKind::Input(i),
            ty: e.ty,
            span: e.span,
        };
        let offset = match level {
            Level::Agent => self.n_attr() + self.n_glob(),
            Level::Top => self.n_glob(),
        };
        match &e.kind {
            ExprKind::Attribute(i) if level == Level::Agent && *i < self.n_attr() => input(*i),
            ExprKind::Attribute(_) => {
                error.get_or_insert_with(|| {
                    internal("an agent attribute outside any quantifier", e.span)
                });
                e.clone()
            }
            ExprKind::Input(g) if *g < self.n_glob() => match level {
                Level::Agent => input(self.n_attr() + g),
                Level::Top => input(*g),
            },
            ExprKind::Input(_) | ExprKind::Remote { .. } | ExprKind::At { .. } => {
                error.get_or_insert_with(|| internal("an input the population lacks", e.span));
                e.clone()
            }
            ExprKind::Quant { .. } => match self.signal_index(e) {
                Ok(j) => input(offset + j),
                Err(d) => {
                    error.get_or_insert(d);
                    e.clone()
                }
            },
            _ => map_children(e, &mut |c| self.rewrite_into(c, level, error)),
        }
    }

    /// Lowers one property: unchanged into the top table, or as a skeleton.
    fn property(&mut self, prop: &hir::Property) -> Result<PopulationProperty, Diag> {
        let verdict = if has_future_quantifier(&prop.formula) {
            let mut leaves = 0;
            PropertyVerdict::Combined(self.skeleton(&prop.name, &prop.formula, &mut leaves)?)
        } else {
            let formula = self.rewrite(&prop.formula, Level::Top)?;
            self.top.push(hir::Property {
                name: prop.name.clone(),
                formula,
                reset: prop.reset,
                span: prop.span,
            });
            PropertyVerdict::Top(OutputId::new(self.top.len() - 1))
        };
        Ok(PopulationProperty {
            name: prop.name.clone(),
            span: prop.span,
            verdict,
            reset: prop.reset,
        })
    }

    /// The Boolean skeleton of `e` (a formula with a future quantifier).
    fn skeleton(&mut self, prop: &str, e: &Expr, leaves: &mut usize) -> Result<Skeleton, Diag> {
        if !has_future_quantifier(e) {
            let formula = self.rewrite(e, Level::Top)?;
            let name = self.fresh(format!("{prop}_{leaves}"));
            *leaves += 1;
            let future = formula.is_future();
            self.top.push(hir::Property {
                name,
                span: formula.span,
                formula,
                reset: false,
            });
            let k = OutputId::new(self.top.len() - 1);
            return Ok(if future {
                Skeleton::Future(k)
            } else {
                Skeleton::Latched(k)
            });
        }
        let mut sub = |this: &mut Self, a: &Expr| this.skeleton(prop, a, leaves).map(Box::new);
        Ok(match &e.kind {
            ExprKind::Quant {
                quantifier,
                group,
                body,
            } if body.is_future() && *quantifier != Quantifier::Count => {
                self.future.push(FutureDraft {
                    quantifier: *quantifier,
                    group: *group,
                    body: (**body).clone(),
                    span: e.span,
                });
                Skeleton::Quantifier(FutureQuantifierId::new(self.future.len() - 1))
            }
            ExprKind::Not(a) => Skeleton::Not(sub(self, a)?),
            ExprKind::Bool(op, a, b) => {
                let (a, b) = (sub(self, a)?, sub(self, b)?);
                match op {
                    BoolOp::And => Skeleton::And(a, b),
                    BoolOp::Or => Skeleton::Or(a, b),
                    BoolOp::Implies => Skeleton::Or(Box::new(Skeleton::Not(a)), b),
                    BoolOp::Iff => {
                        let both = Skeleton::And(a.clone(), b.clone());
                        let neither =
                            Skeleton::And(Box::new(Skeleton::Not(a)), Box::new(Skeleton::Not(b)));
                        Skeleton::Or(Box::new(both), Box::new(neither))
                    }
                }
            }
            _ => {
                return Err(internal(
                    "a quantifier over a future-time body may only sit under Boolean connectives at the top of a property",
                    e.span,
                ))
            }
        })
    }

    /// The signals as inputs of the strata above theirs and of the top
    /// monitor: fresh names and their types, in final order.
    fn signal_inputs(&mut self) -> Vec<hir::Input> {
        (0..self.order.len())
            .map(|j| {
                let ty = match self.order.get(j).and_then(|&d| self.drafts.get(d)) {
                    Some(d) if d.quantifier == Quantifier::Count => Ty::Int,
                    _ => Ty::Bool,
                };
                hir::Input {
                    name: self.fresh(format!("q{j}")),
                    ty,
                    span: self.population.span,
                }
            })
            .collect()
    }

    /// The parts of the signals of stratum `s` (named by `signal_inputs`).
    fn signal_parts(&self, s: usize, signal_inputs: &[hir::Input]) -> Vec<Part> {
        let mut parts = Vec::new();
        for (j, &d) in self.order.iter().enumerate() {
            if let (Some(draft), Some(sig)) = (self.drafts.get(d), signal_inputs.get(j)) {
                if draft.stratum == s {
                    parts.push((
                        draft.quantifier,
                        draft.group,
                        draft.body.clone(),
                        draft.span,
                        sig.name.clone(),
                        Which::Signal(j),
                    ));
                }
            }
        }
        parts
    }

    /// The parts of the future quantifiers (named `names`).
    fn future_parts(&self, names: &[String]) -> Vec<Part> {
        self.future
            .iter()
            .zip(names)
            .enumerate()
            .map(|(k, (f, name))| {
                (
                    f.quantifier,
                    f.group,
                    f.body.clone(),
                    f.span,
                    name.clone(),
                    Which::Future(k),
                )
            })
            .collect()
    }

    /// Adds the per-agent properties of one quantifier (its group's membership,
    /// if any, then its body) to `props`; their indices.
    fn member_and_body(
        &mut self,
        group: Option<usize>,
        body: &Expr,
        name: &str,
        props: &mut Vec<hir::Property>,
        diags: &mut Vec<Diag>,
    ) -> (Option<OutputId>, OutputId) {
        let member = match self.group_member(group, body.span) {
            Ok(Some(m)) => match self.rewrite(m, Level::Agent) {
                Ok(m) => {
                    let out = self.fresh(format!("{name}_member"));
                    props.push(synthetic(out, m));
                    Some(OutputId::new(props.len() - 1))
                }
                Err(d) => {
                    diags.push(d);
                    None
                }
            },
            Ok(None) => None,
            Err(d) => {
                diags.push(d);
                None
            }
        };
        match self.rewrite(body, Level::Agent) {
            Ok(b) => {
                let out = self.fresh(format!("{name}_body"));
                props.push(synthetic(out, b));
            }
            Err(d) => diags.push(d),
        }
        (member, OutputId::new(props.len().saturating_sub(1)))
    }

    /// Builds the synthetic monitors, lowers them and assembles the result.
    fn build(
        mut self,
        spec: &hir::Spec,
        properties: Vec<PopulationProperty>,
        budget: &mut Budget,
    ) -> Result<PopulationTables, Vec<Diag>> {
        let pop = self.population;
        let mut diags = Vec::new();
        let signal_inputs = self.signal_inputs();
        let future_names: Vec<String> = (0..self.future.len())
            .map(|k| self.fresh(format!("f{k}")))
            .collect();
        // Signal strata, then (when there are future quantifiers) their own.
        let future_stratum = self.drafts.iter().map(|d| d.stratum + 1).max().unwrap_or(0);
        let n_strata = future_stratum + usize::from(!self.future.is_empty());
        let mut signals: Vec<Option<Signal>> = vec![None; self.order.len()];
        let mut future: Vec<Option<FutureQuantifier>> = vec![None; self.future.len()];
        let mut strata = Vec::with_capacity(n_strata);
        for s in 0..n_strata {
            let signals_before = self
                .order
                .iter()
                .filter(|&&d| self.drafts.get(d).is_some_and(|d| d.stratum < s))
                .count();
            let mut props = Vec::new();
            let mut parts = self.signal_parts(s, &signal_inputs);
            if s == future_stratum {
                parts.extend(self.future_parts(&future_names));
            }
            for (quantifier, group, body, span, name, which) in parts {
                let (member, body) =
                    self.member_and_body(group, &body, &name, &mut props, &mut diags);
                let of = Quantified {
                    quantifier,
                    stratum: StratumId::new(s),
                    member,
                    body,
                };
                match which {
                    Which::Signal(j) => {
                        if let (Some(slot), Some(input)) =
                            (signals.get_mut(j), signal_inputs.get(j))
                        {
                            *slot = Some(Signal {
                                of,
                                ty: input.ty,
                                span,
                            });
                        }
                    }
                    Which::Future(k) => {
                        // The checker refuses a future `count` (E0410).
                        if let (Some(slot), Aggregate::Threshold(threshold)) =
                            (future.get_mut(k), of.aggregate())
                        {
                            *slot = Some(FutureQuantifier {
                                of,
                                threshold,
                                span,
                            });
                        }
                    }
                }
            }
            // Each agent's attributes, the globals, the signals of lower strata.
            let monitor = hir::Monitor {
                name: format!("{}_stratum{s}", pop.name),
                inputs: pop
                    .attributes
                    .iter()
                    .chain(&pop.globals)
                    .chain(signal_inputs.iter().take(signals_before))
                    .cloned()
                    .collect(),
                properties: props,
                // The steps' time, among the globals after the attributes.
                reading: crate::ir::Reading {
                    time: pop.time.map(|t| pop.attributes.len() + t),
                    ..Default::default()
                },
                // Population formulas are printed by the population lowering.
                let_names: Default::default(),
                goals: Vec::new(),
                lets: Vec::new(),
                span: pop.span,
            };
            if !diags.is_empty() {
                continue;
            }
            match crate::lower::lower(spec, &monitor, budget) {
                Ok(table) => strata.push(Stratum {
                    table,
                    signals_before,
                }),
                Err(errors) => diags.extend(errors),
            }
        }
        let top_monitor = hir::Monitor {
            name: pop.name.clone(),
            inputs: pop.globals.iter().cloned().chain(signal_inputs).collect(),
            properties: std::mem::take(&mut self.top),
            reading: crate::ir::Reading {
                time: pop.time,
                ..Default::default()
            },
            let_names: Default::default(),
            goals: Vec::new(),
            lets: Vec::new(),
            span: pop.span,
        };
        let top = match crate::lower::lower(spec, &top_monitor, budget) {
            Ok(top) => Some(top),
            Err(errors) => {
                diags.extend(errors);
                None
            }
        };
        assemble(pop, strata, signals, future, top, properties, diags)
    }
}

/// The population's tables, if every part lowered (else every diagnostic).
fn assemble(
    pop: &hir::Population,
    strata: Vec<Stratum>,
    signals: Vec<Option<Signal>>,
    future: Vec<Option<FutureQuantifier>>,
    top: Option<crate::ir::table::Table>,
    properties: Vec<PopulationProperty>,
    mut diags: Vec<Diag>,
) -> Result<PopulationTables, Vec<Diag>> {
    let signals: Option<Vec<Signal>> = signals.into_iter().collect();
    let future_quantifiers: Option<Vec<FutureQuantifier>> = future.into_iter().collect();
    match (top, signals, future_quantifiers) {
        (Some(top), Some(signals), Some(future_quantifiers)) if diags.is_empty() => {
            Ok(PopulationTables {
                name: pop.name.clone(),
                span: pop.span,
                attributes: pop.attributes.iter().map(super::decl).collect(),
                globals: pop.globals.iter().map(super::decl).collect(),
                time: pop.time,
                capacity: pop.capacity,
                strata,
                signals,
                future_quantifiers,
                top,
                properties,
            })
        }
        _ => {
            if diags.is_empty() {
                diags.push(internal(
                    "a quantifier was left without a stratum",
                    pop.span,
                ));
            }
            Err(diags)
        }
    }
}

/// One quantifier of a stratum: (quantifier, group, body, span, name, which).
type Part = (Quantifier, Option<usize>, Expr, Span, String, Which);

/// Which list a stratum's quantifier belongs to.
#[derive(Clone, Copy)]
enum Which {
    Signal(usize),
    Future(usize),
}

/// A synthetic table output (never `with reset`: restarts are driven from outside).
fn synthetic(name: String, formula: Expr) -> hir::Property {
    hir::Property {
        name,
        span: formula.span,
        formula,
        reset: false,
    }
}

/// Whether `e` contains a quantifier over a future-time body.
fn has_future_quantifier(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Quant { body, .. } if body.is_future() => true,
        _ => children(e).into_iter().any(has_future_quantifier),
    }
}

/// An internal error: a population formula the checker should have refused.
fn internal(what: &str, at: Span) -> Diag {
    Diag::bug()
        .with_message(format!("internal error in population lowering: {what}"))
        .with_labels(vec![Label::primary((), at.range())])
}
