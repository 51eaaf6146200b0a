//! Checking how a monitor's steps are read from log records: each input's
//! `from` and `default`/`hold` clauses, and the `steps where` filter. Errors
//! are E0413 (a mapping readers cannot follow) and E0201 (a second filter).

use super::enums::EnumTable;
use super::report;
use super::scope::InputDecl;
use crate::hir::Ty;
use crate::ir::Reading;
use hindsight_grammar::ast::{
    AbsentClause, FilterItem, FromClause, Literal, MonitorDecl, MonitorMember, StepsDecl, StrLit,
};
use hindsight_grammar::diag::{Code, Diag};
use hindsight_runtime::pointer::Pointer;
use hindsight_runtime::record::{self, Absent, Field, FilterOp, Source};
use hindsight_runtime::Value;

/// The reading of `monitor`, whose inputs resolved to `inputs` (in
/// declaration order); `None` after reporting an error.
pub(super) fn check_reading(
    monitor: &MonitorDecl,
    inputs: &[InputDecl],
    enums: &EnumTable,
    diags: &mut Vec<Diag>,
) -> Option<Reading> {
    let errors_before = diags.len();
    let declared = monitor.members.iter().filter_map(|m| match m {
        MonitorMember::Input(decl) => Some((decl.from.clone(), decl.absent.as_ref())),
        MonitorMember::Time(decl) => Some((decl.from.clone().map(FromClause::Pointer), None)),
        _ => None,
    });
    let mut fields = Vec::new();
    for ((from, absent), input) in declared.zip(inputs) {
        let source = match &from {
            None => Source::Key,
            Some(FromClause::Pointer(p)) => Source::Pointer(pointer(p, diags)),
            Some(FromClause::Present(p)) => {
                if input.ty.is_some_and(|ty| ty != Ty::Bool) {
                    diags.push(present_not_bool(p, input, enums));
                }
                Source::Present(pointer(p, diags))
            }
        };
        let absent = match (absent, &source) {
            (None, _) => Absent::Error,
            (Some(clause), Source::Present(p)) => {
                diags.push(absent_of_presence(clause, p));
                Absent::Error
            }
            (Some(AbsentClause::Default(value, _)), _) => {
                Absent::Default(typed(value, input.ty, enums, diags))
            }
            (Some(AbsentClause::Hold(initial, _)), _) => {
                Absent::Hold(initial.as_ref().map(|v| typed(v, input.ty, enums, diags)))
            }
        };
        fields.push(Field { source, absent });
    }
    let filters = monitor.members.iter().filter_map(|m| match m {
        MonitorMember::Steps(steps) => Some(steps),
        _ => None,
    });
    let steps = only_filter(filters, "steps where", diags);
    let ends = monitor.members.iter().filter_map(|m| match m {
        MonitorMember::SessionsEnd(end) => Some(end),
        _ => None,
    });
    let session_end = only_filter(ends, "sessions end where", diags);
    let time = monitor
        .members
        .iter()
        .filter(|m| matches!(m, MonitorMember::Input(_) | MonitorMember::Time(_)))
        .position(|m| matches!(m, MonitorMember::Time(_)));
    let reading = Reading {
        fields,
        steps,
        time,
        session_end,
    };
    (diags.len() == errors_before).then(|| {
        if reading.is_plain() {
            Reading::default()
        } else {
            reading
        }
    })
}

/// The pointer `p` names (E0413 if it is no JSON Pointer naming a field).
fn pointer(p: &StrLit, diags: &mut Vec<Diag>) -> String {
    if let Err(e) = Pointer::parse(&p.value) {
        diags.push(
            report::error(
                Code::BadMapping,
                format_args!(
                    "`{}` is not a JSON Pointer to a field",
                    p.value.escape_debug()
                ),
            )
            .with_labels(vec![report::primary(p.span, e)])
            .with_notes(vec![
                "a JSON Pointer (RFC 6901) is `/` followed by keys joined by `/`, e.g. \
                 \"/attributes/gen_ai.tool.name\"; `~1` stands for `/` and `~0` for `~` in a key"
                    .to_string(),
            ]),
        );
    }
    p.value.clone()
}

/// The value `literal` gives an input of type `ty` (E0413 if it is of
/// another type; nothing to check if the type did not resolve).
fn typed(literal: &Literal, ty: Option<Ty>, enums: &EnumTable, diags: &mut Vec<Diag>) -> Value {
    let Some(ty) = ty else {
        return Value::Bool(false);
    };
    let value = match (literal, ty) {
        (Literal::Bool(b, _), Ty::Bool) => Some(Value::Bool(*b)),
        (Literal::Int(i, _), Ty::Int) => Some(Value::Int(*i)),
        (Literal::Int(i, _), Ty::Float) => Some(Value::Float(*i as f64)),
        (Literal::Float(x, _), Ty::Float) => Some(Value::Float(*x)),
        (Literal::Variant(qualifier, name), Ty::Enum(e)) => {
            let qualified_right = qualifier
                .as_ref()
                .is_none_or(|q| enums.lookup(&q.name) == Some(e));
            enums
                .variant(e, &name.name)
                .filter(|_| qualified_right)
                .map(|v| Value::Enum(v.variant_index))
        }
        _ => None,
    };
    value.unwrap_or_else(|| {
        let type_name = enums.type_name(ty);
        diags.push(
            report::error(
                Code::BadMapping,
                format_args!("the value does not have the input's type `{type_name}`"),
            )
            .with_labels(vec![report::primary(
                literal.span(),
                format_args!("not of type `{type_name}`"),
            )]),
        );
        Value::Bool(false)
    })
}

/// E0413: `present(...)` on an input that is not `bool`.
fn present_not_bool(pointer: &StrLit, input: &InputDecl, enums: &EnumTable) -> Diag {
    let ty = input.ty.map_or_else(String::new, |t| enums.type_name(t));
    let span = pointer.span;
    report::error(
        Code::BadMapping,
        format_args!(
            "`present(...)` gives a bool, but `{}` is declared `{ty}`",
            input.decl.name
        ),
    )
    .with_labels(vec![
        report::primary(span, "a presence test"),
        report::secondary(input.decl.ty.span(), "declared here"),
    ])
    .with_notes(vec![format!(
        "help: declare `input {}: bool from present(...)`, or read the value with `from \"...\"`",
        input.decl.name
    )])
}

/// E0413: `default` or `hold` on an input that says whether a field is present.
fn absent_of_presence(clause: &AbsentClause, pointer: &str) -> Diag {
    let span = match clause {
        AbsentClause::Default(_, s) | AbsentClause::Hold(_, s) => *s,
    };
    report::error(
        Code::BadMapping,
        "a presence input is never absent: it is `false` on lines without the field",
    )
    .with_labels(vec![report::primary(span, "nothing to default or hold")])
    .with_notes(vec![format!(
        "note: `present(\"{}\")` is `true` exactly on the lines that give a value there",
        pointer.escape_debug()
    )])
}

/// The filter of the first of `filters` (`steps where` or `sessions end
/// where` clauses), E0201 for each later one.
fn only_filter<'a>(
    mut filters: impl Iterator<Item = &'a StepsDecl>,
    clause: &str,
    diags: &mut Vec<Diag>,
) -> Vec<FilterOp<String>> {
    let Some(first) = filters.next() else {
        return Vec::new();
    };
    for again in filters {
        diags.push(second_filter(first, again, clause));
        filter(again, diags);
    }
    filter(first, diags)
}

/// E0201: a monitor with a second `steps where` (or `sessions end where`).
fn second_filter(first: &StepsDecl, again: &StepsDecl, clause: &str) -> Diag {
    let message = if clause == "steps where" {
        "a monitor has at most one step filter"
    } else {
        "a monitor has at most one session end filter"
    };
    report::error(Code::DuplicateDefinition, message)
        .with_labels(vec![
            report::primary(again.span, format!("second `{clause}`")),
            report::secondary(first.span, "first declared here"),
        ])
        .with_notes(vec![
            "help: join the conditions into one filter with `&&` or `||`".to_string(),
        ])
}

/// The filter of `steps` as the readers evaluate it.
fn filter(steps: &StepsDecl, diags: &mut Vec<Diag>) -> Vec<FilterOp<String>> {
    let mut ops = Vec::with_capacity(steps.filter.len());
    for item in &steps.filter {
        match item {
            FilterItem::Compare {
                pointer: p,
                equal,
                value,
            } => {
                let p = pointer(p, diags);
                ops.push(FilterOp::Equals(p, filter_literal(value, diags)));
                if !equal {
                    ops.push(FilterOp::Not);
                }
            }
            FilterItem::Present(p) => ops.push(FilterOp::Present(pointer(p, diags))),
            FilterItem::Not => ops.push(FilterOp::Not),
            FilterItem::And => ops.push(FilterOp::And),
            FilterItem::Or => ops.push(FilterOp::Or),
        }
    }
    ops
}

/// The JSON scalar a filter compares with (E0413 for an enum variant: a
/// filter reads raw JSON, which has no enums).
fn filter_literal(literal: &Literal, diags: &mut Vec<Diag>) -> record::Literal<String> {
    match literal {
        Literal::Bool(b, _) => record::Literal::Bool(*b),
        Literal::Int(i, _) => record::Literal::Int(*i),
        Literal::Float(x, _) => record::Literal::Float(*x),
        Literal::Str(s) => record::Literal::Str(s.value.clone()),
        Literal::Variant(qualifier, name) => {
            diags.push(
                report::error(
                    Code::BadMapping,
                    "a step filter compares with JSON values, not enum variants",
                )
                .with_labels(vec![report::primary(
                    literal.span(),
                    "not a JSON string, number or bool",
                )])
                .with_notes(vec![format!(
                    "help: to compare with the string, quote it: \"{}\"",
                    qualifier
                        .as_ref()
                        .map_or_else(|| name.name.clone(), |q| format!("{q}::{name}"))
                )]),
            );
            record::Literal::Bool(false)
        }
    }
}

#[cfg(test)]
mod tests {
    /// The parser caps what a filter stacks at the depth the readers can
    /// evaluate: a filter the checker passes never fails to evaluate.
    #[test]
    fn the_parser_caps_filters_at_the_readers_depth() {
        assert_eq!(
            hindsight_grammar::MAX_FILTER_DEPTH,
            hindsight_runtime::record::MAX_FILTER_DEPTH
        );
    }
}
