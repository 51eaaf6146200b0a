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

use super::{diagnostic, examine, Finding};
use crate::diag::{Code, Diag, Label, Severity};
use crate::hir::{self, Expr, ExprKind, Quantifier};
use crate::ir::population::{FutureQuantifierId, PopulationTables, PropertyVerdict, Skeleton};
use crate::ir::table::{Part, Source};
use crate::walk::children;
use hindsight_grammar::ast::Span;

/// The diagnostics of one population lowered into `tables`; `source` is the
/// spec's text (quantifiers are quoted as written).
pub(super) fn analyze(
    population: &hir::Population,
    tables: &PopulationTables,
    source: &str,
) -> Vec<Diag> {
    let mut diags = Vec::new();
    let signals = signal_texts(tables, source);
    for (property, lowered) in population.properties.iter().zip(&tables.properties) {
        match &lowered.verdict {
            PropertyVerdict::Top(i) => {
                let Some(output) = i.get(&tables.top.outputs) else {
                    continue;
                };
                let Source::Future(f) = output.source else {
                    continue;
                };
                if let Some(finding) = examine(&tables.top, f, &output.parts) {
                    let parts = named_parts(&output.parts, tables, &signals);
                    diags.push(diagnostic(property, &parts, &finding));
                }
            }
            PropertyVerdict::Combined(skeleton) => {
                let mut found = Vec::new();
                future_quantifiers(skeleton, &mut found);
                for k in found {
                    let Some(quant) = k
                        .get(&tables.future_quantifiers)
                        .and_then(|q| quantifier_at(&property.formula, q.span))
                    else {
                        continue;
                    };
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

/// Per future quantifier of `tables`, its text in `source` as written
/// (`None` where its span is not in `source`).
pub fn future_quantifier_texts(tables: &PopulationTables, source: &str) -> Vec<Option<String>> {
    tables
        .future_quantifiers
        .iter()
        .map(|q| text_at(source, q.span).map(|t| unparenthesized(t).to_owned()))
        .collect()
}

/// The future quantifiers (index) of skeleton `sk`, each once, ascending.
fn future_quantifiers(sk: &Skeleton, out: &mut Vec<FutureQuantifierId>) {
    match sk {
        Skeleton::Quantifier(k) => {
            if let Err(at) = out.binary_search(k) {
                out.insert(at, *k);
            }
        }
        Skeleton::Not(a) => future_quantifiers(a, out),
        Skeleton::And(a, b) | Skeleton::Or(a, b) => {
            future_quantifiers(a, out);
            future_quantifiers(b, out);
        }
        Skeleton::Future(_) | Skeleton::Latched(_) => {}
    }
}

/// The quantifier expression of `e` written at `span` (a future quantifier's).
fn quantifier_at(e: &Expr, span: Span) -> Option<&Expr> {
    if e.span == span && matches!(e.kind, ExprKind::Quant { .. }) {
        return Some(e);
    }
    children(e).into_iter().find_map(|c| quantifier_at(c, span))
}

/// W0101/W0102 for future quantifier `k` (the expression `quant` of `property`)
/// when its body's automaton is decided before any step.
fn body_diagnostic(
    population: &hir::Population,
    tables: &PopulationTables,
    property: &hir::Property,
    k: FutureQuantifierId,
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
    let of = k.get(&tables.future_quantifiers)?.of;
    let table = &of.stratum.get(&tables.strata)?.table;
    let output = of.body.get(&table.outputs)?;
    let Source::Future(f) = output.source else {
        return None;
    };
    let finding = examine(table, f, &output.parts)?;
    let group = group
        .and_then(|g| population.groups.get(g))
        .map_or("agents", |g| g.name.as_str());
    let body_text = text_at(source, body.span).unwrap_or("the body");
    let head = format!("`{} a in {group}`", quantifier.head());
    let (code, adjective, verdict) = match finding {
        Finding::Unsatisfiable => (Code::Unsatisfiable, "can never be satisfied", "false"),
        Finding::Valid => (Code::Valid, "holds on every trace", "true"),
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
    let q = quantifier.head();
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

/// Per signal of `tables`, the text in `source` of the (first) quantifier
/// it stands for, as written (`?` where its span is not in `source`).
pub fn signal_texts(tables: &PopulationTables, source: &str) -> Vec<String> {
    tables
        .signals
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
