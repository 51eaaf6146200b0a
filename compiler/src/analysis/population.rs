//! The analysis of population properties ([`super::analyze_populations`]).
//!
//! - A property lowered into the population's top table
//!   ([`PropertyVerdict::Top`]) with an automaton gets exactly the findings a
//!   monitor property gets (W0101–W0104), labelled at the property; in a
//!   W0103 prefix, an atom reading a quantifier's per-step value shows that
//!   quantifier as written rather than its synthetic input name (`q0`).
//! - A quantifier over a future-time body whose body automaton is decided
//!   before any step (the same for every member) gets W0101 (unsatisfiable
//!   body) or W0102 (valid body), labelled at the body and saying what that
//!   makes of the quantifier.

use super::{diagnostic, examine, Finding, UNSATISFIABLE, VALID};
use crate::diag::{Diag, Label, Severity};
use crate::hir::{self, BoolOp, Expr, ExprKind, Quantifier};
use crate::population::{PopulationTables, PropertyVerdict, Skeleton};
use crate::surface::quantifier_text;
use crate::table::{Part, Source};
use crate::walk::{children, without_spans};
use hindsight_grammar::ast::Span;

/// The diagnostics of one population lowered into `tables`; `source` is the
/// spec's text (quantifiers are quoted as written).
pub(super) fn analyze(
    population: &hir::Population,
    tables: &PopulationTables,
    source: &str,
) -> Vec<Diag> {
    let mut diags = Vec::new();
    let signals = signal_texts(population, tables, source);
    for (property, lowered) in population.properties.iter().zip(&tables.properties) {
        match &lowered.verdict {
            PropertyVerdict::Top(i) => {
                let Some(output) = tables.top.outputs.get(*i) else {
                    continue;
                };
                let Source::Automaton(k) = output.source else {
                    continue;
                };
                if let Some(finding) = tables.top.automata.get(k).and_then(examine) {
                    let parts = named_parts(&output.parts, tables, &signals);
                    diags.push(diagnostic(property, &parts, &finding));
                }
            }
            PropertyVerdict::Combined(skeleton) => {
                let mut found = Vec::new();
                future_quantifiers(skeleton, &property.formula, &mut found);
                found.dedup_by_key(|(k, _)| *k);
                for (k, quant) in found {
                    if let Some(d) = body_diagnostic(population, tables, property, k, quant, source)
                    {
                        diags.push(d);
                    }
                }
            }
        }
    }
    diags
}

/// Per future quantifier of `tables` (the lowering of `population`), its text
/// in `source` as written (`None` if it cannot be found).
pub fn future_quantifier_texts(
    population: &hir::Population,
    tables: &PopulationTables,
    source: &str,
) -> Vec<Option<String>> {
    let mut texts = vec![None; tables.future_quantifiers.len()];
    for (property, lowered) in population.properties.iter().zip(&tables.properties) {
        if let PropertyVerdict::Combined(skeleton) = &lowered.verdict {
            let mut found = Vec::new();
            future_quantifiers(skeleton, &property.formula, &mut found);
            for (k, quant) in found {
                if let Some(slot) = texts.get_mut(k) {
                    *slot = text_at(source, quant.span).map(|t| unparenthesized(t).to_owned());
                }
            }
        }
    }
    texts
}

/// Pairs each [`Skeleton::Quantifier`] leaf of `sk` with the quantifier
/// expression of `e` it was lowered from (the skeleton mirrors the formula's
/// Boolean connectives: `a -> b` is `!a || b`, `a <-> b` is
/// `(a && b) || (!a && !b)`).
fn future_quantifiers<'e>(sk: &Skeleton, e: &'e Expr, out: &mut Vec<(usize, &'e Expr)>) {
    match (sk, &e.kind) {
        (Skeleton::Quantifier(k), ExprKind::Quant { .. }) => out.push((*k, e)),
        (Skeleton::Not(s), ExprKind::Not(a)) => future_quantifiers(s, a, out),
        (Skeleton::And(s, t), ExprKind::Bool(BoolOp::And, a, b))
        | (Skeleton::Or(s, t), ExprKind::Bool(BoolOp::Or, a, b)) => {
            future_quantifiers(s, a, out);
            future_quantifiers(t, b, out);
        }
        (Skeleton::Or(s, t), ExprKind::Bool(BoolOp::Implies, a, b)) => {
            if let Skeleton::Not(s) = &**s {
                future_quantifiers(s, a, out);
            }
            future_quantifiers(t, b, out);
        }
        (Skeleton::Or(both, _), ExprKind::Bool(BoolOp::Iff, a, b)) => {
            if let Skeleton::And(s, t) = &**both {
                future_quantifiers(s, a, out);
                future_quantifiers(t, b, out);
            }
        }
        _ => {}
    }
}

/// W0101/W0102 for future quantifier `k` (the expression `quant` of `property`)
/// when its body's automaton is decided before any step.
fn body_diagnostic(
    population: &hir::Population,
    tables: &PopulationTables,
    property: &hir::Property,
    k: usize,
    quant: &Expr,
    source: &str,
) -> Option<Diag> {
    let ExprKind::Quant {
        quantifier,
        group,
        body,
    } = &quant.kind
    else {
        return None;
    };
    let of = tables.future_quantifiers.get(k)?.of;
    let table = &tables.strata.get(of.stratum)?.table;
    let Source::Automaton(a) = table.outputs.get(of.body)?.source else {
        return None;
    };
    let finding = examine(table.automata.get(a)?)?;
    let group = group
        .and_then(|g| population.groups.get(g))
        .map_or("agents", |g| g.name.as_str());
    let body_text = text_at(source, body.span).unwrap_or("the body");
    let head = format!("`{} a in {group}`", quantifier_text(*quantifier));
    let (code, adjective, verdict) = match finding {
        Finding::Unsatisfiable => (UNSATISFIABLE, "can never be satisfied", "false"),
        Finding::Valid => (VALID, "holds on every trace", "true"),
        Finding::NotMonitorable { .. } | Finding::DecidedAtEnd => return None,
    };
    let name = &property.name;
    let consequence = consequence(*quantifier, finding == Finding::Valid, group);
    let mut labels = vec![Label::primary((), body.span.range())
        .with_message(format!("this body {adjective}, for every member"))];
    if !contains(property.span, body.span) {
        labels.push(
            Label::secondary((), property.span.range())
                .with_message(format!("in property `{name}`")),
        );
    }
    Some(
        Diag::new(Severity::Warning)
            .with_code(code)
            .with_message(format!(
                "in property `{name}`, the body of {head} {adjective}"
            ))
            .with_labels(labels)
            .with_notes(vec![format!(
                "note: the body `{body_text}` {adjective}, so every member's verdict is \
                 \"{verdict}\" from the first step: {consequence}"
            )]),
    )
}

/// What a quantifier over `group` makes of members that are all `true`
/// (`valid`) or all `false`; members are fixed at the run's first step.
fn consequence(quantifier: Quantifier, valid: bool, group: &str) -> String {
    let q = quantifier_text(quantifier);
    match (quantifier, valid) {
        (Quantifier::Forall, false) => format!(
            "`{q}` is \"false\" as soon as `{group}` has a member at the run's first step, \
             and \"true\" only when it has none"
        ),
        (Quantifier::Forall, true) | (Quantifier::AtMost(_), false) => {
            format!("`{q}` is \"true\" whatever the trace; it checks nothing")
        }
        (Quantifier::AtLeast(0), _) => {
            format!("`{q}` is \"true\" whatever the trace; it checks nothing")
        }
        (Quantifier::Exists, false) | (Quantifier::AtLeast(_), false) => {
            format!("`{q}` is \"false\" whatever the trace")
        }
        (Quantifier::Exists, true) => format!(
            "`{q}` is \"true\" as soon as `{group}` has a member at the run's first step, \
             and \"false\" only when it has none"
        ),
        (Quantifier::AtLeast(n), true) => format!(
            "`{q}` is \"true\" when `{group}` has at least {n} members at the run's first \
             step and \"false\" otherwise: it only counts the members"
        ),
        (Quantifier::AtMost(n), true) => format!(
            "`{q}` is \"true\" when `{group}` has at most {n} members at the run's first \
             step and \"false\" otherwise: it only counts the members"
        ),
        // `count` is never over a future-time body.
        (Quantifier::Count, _) => format!("`{q}` counts every member the same way"),
    }
}

/// The source text of `span`, if it is a valid range of `source`.
fn text_at(source: &str, span: Span) -> Option<&str> {
    source.get(span.range())
}

/// Whether `outer` contains `inner`.
fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// `parts` with every top-table input naming a signal (`q0`) replaced by the
/// quantifier it stands for, as written and parenthesized.
fn named_parts(parts: &[Part], tables: &PopulationTables, signals: &[String]) -> Vec<Part> {
    let names: Vec<(&str, &String)> = signals
        .iter()
        .enumerate()
        .filter_map(|(j, text)| Some((tables.signal_name(j)?, text)))
        .collect();
    parts
        .iter()
        .map(|p| Part {
            text: replace_names(&p.text, &names),
            slot: p.slot,
        })
        .collect()
}

/// `text` with each identifier equal to some `names[i].0` replaced by
/// `(names[i].1)` (without parentheses when that is a name too: a `let`).
fn replace_names(text: &str, names: &[(&str, &String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match names.iter().find(|(name, _)| *name == word.as_str()) {
            Some((_, with)) if with.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                out.push_str(with);
            }
            Some((_, with)) => {
                out.push('(');
                out.push_str(with);
                out.push(')');
            }
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Per signal of `tables` (the lowering of `population`), the text in
/// `source` of a quantifier it stands for, found as the lowering finds
/// signals: quantifiers over past-time bodies in post-order over the
/// properties, equal ones (ignoring spans) shared, then ordered by stratum.
/// Empty when that does not match the lowered signals (the analysis then
/// shows the synthetic names).
pub fn signal_texts(
    population: &hir::Population,
    tables: &PopulationTables,
    source: &str,
) -> Vec<String> {
    let mut found: Vec<SignalSeen> = Vec::new();
    for property in &population.properties {
        collect(&property.formula, &mut found);
    }
    found.sort_by_key(|s| s.stratum);
    let matches = found.len() == tables.signals.len()
        && found
            .iter()
            .zip(&tables.signals)
            .all(|(s, t)| s.quantifier == t.of.quantifier && s.stratum == t.of.stratum);
    if !matches {
        return Vec::new();
    }
    found
        .iter()
        .map(|s| unparenthesized(text_at(source, s.span).unwrap_or("?")).to_owned())
        .collect()
}

/// `text` without the parentheses around all of it (a parenthesized
/// quantifier's span includes them).
fn unparenthesized(text: &str) -> &str {
    let mut text = text.trim();
    while let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        // `(a) && (b)` is not one parenthesized expression.
        let mut depth = 0usize;
        let balanced = inner.chars().all(|c| {
            match c {
                '(' => depth += 1,
                ')' => match depth.checked_sub(1) {
                    Some(d) => depth = d,
                    None => return false,
                },
                _ => {}
            }
            true
        });
        if !balanced {
            break;
        }
        text = inner.trim();
    }
    text
}

/// A quantifier over a past-time body, as [`signal_texts`] finds it.
struct SignalSeen {
    quantifier: Quantifier,
    group: Option<usize>,
    key: Expr,
    stratum: usize,
    span: Span,
}

/// Adds the past-body quantifiers of `e` to `found` (inner ones first);
/// returns the highest stratum of the quantifiers in `e`.
fn collect(e: &Expr, found: &mut Vec<SignalSeen>) -> Option<usize> {
    if let ExprKind::Quant {
        quantifier,
        group,
        body,
    } = &e.kind
    {
        let stratum = collect(body, found).map_or(0, |d| d.saturating_add(1));
        if !body.is_future() {
            let key = without_spans(body);
            let seen = found
                .iter()
                .any(|s| s.quantifier == *quantifier && s.group == *group && s.key == key);
            if !seen {
                found.push(SignalSeen {
                    quantifier: *quantifier,
                    group: *group,
                    key,
                    stratum,
                    span: e.span,
                });
            }
        }
        return Some(stratum);
    }
    let mut deepest = None;
    for c in children(e) {
        deepest = deepest.max(collect(c, found));
    }
    deepest
}
