//! The dependency order of a block's `let`s, and their cycles (E0204).
//!
//! A `let` may use other `let`s declared before or after it. Each `let` is checked once, after every `let` it uses (so its
//! errors are reported once, not at every use), and then inlined at each use.
//! A `let` on a cycle is reported (once per distinct cycle) and treated as
//! already failed wherever it is used, so no further errors cascade from it.

use super::report;
use hindsight_grammar::ast::{Expr, ExprKind, LetDecl, Span};
use hindsight_grammar::diag::{Code, Diag};
use std::collections::HashSet;

/// The order to check `let`s in, and which ones lie on a cycle.
pub(super) struct LetOrder {
    /// Every `let` index, each after the `let`s it uses (except along cycles).
    pub order: Vec<usize>,
    /// Per `let`, whether it is on a reported cycle.
    pub cyclic: Vec<bool>,
}

/// A use of `let` number `target` at `span`.
#[derive(Clone, Copy)]
struct Use {
    target: usize,
    span: Span,
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Unvisited,
    OnPath,
    Done,
}

/// Orders `lets`, reporting each cycle once. `let_named` says which `let` a
/// bare name refers to (outside quantifiers binding it); `usable[i]` is false
/// for a `let` whose body is too deep to walk (it then uses nothing).
pub(super) fn order_lets(
    lets: &[&LetDecl],
    let_named: &dyn Fn(&str) -> Option<usize>,
    usable: &[bool],
    diags: &mut Vec<Diag>,
) -> LetOrder {
    let uses: Vec<Vec<Use>> = lets
        .iter()
        .enumerate()
        .map(|(i, decl)| {
            let mut found = Vec::new();
            if usable.get(i).copied().unwrap_or(false) {
                collect_uses(let_named, &decl.value, &mut Vec::new(), &mut found);
            }
            found
        })
        .collect();

    let n = uses.len();
    let mut mark = vec![Mark::Unvisited; n];
    let mut cyclic = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut reported: HashSet<Vec<usize>> = HashSet::new();
    // Depth-first search without recursion; a frame is (let, next use to follow,
    // the use that led to it).
    for start in 0..n {
        if mark[start] != Mark::Unvisited {
            continue;
        }
        mark[start] = Mark::OnPath;
        let mut path: Vec<(usize, usize, Option<Use>)> = vec![(start, 0, None)];
        while let Some(frame) = path.last_mut() {
            let (node, next) = (frame.0, frame.1);
            let Some(edge) = uses.get(node).and_then(|u| u.get(next)).copied() else {
                mark[node] = Mark::Done;
                order.push(node);
                path.pop();
                continue;
            };
            frame.1 += 1;
            match mark.get(edge.target).copied() {
                Some(Mark::Unvisited) => {
                    mark[edge.target] = Mark::OnPath;
                    path.push((edge.target, 0, Some(edge)));
                }
                Some(Mark::OnPath) => {
                    let from = path.iter().position(|f| f.0 == edge.target).unwrap_or(0);
                    let cycle: Vec<(usize, Option<Use>)> =
                        path[from..].iter().map(|f| (f.0, f.2)).collect();
                    for (member, _) in &cycle {
                        cyclic[*member] = true;
                    }
                    let mut key: Vec<usize> = cycle.iter().map(|(m, _)| *m).collect();
                    key.sort_unstable();
                    if reported.insert(key) {
                        diags.push(cycle_error(lets, &cycle, edge));
                    }
                }
                Some(Mark::Done) | None => {}
            }
        }
    }
    LetOrder { order, cyclic }
}

/// Every use of a `let` in `expr`; `bound` holds the variables of the
/// enclosing quantifiers, which hide `let`s of the same name.
fn collect_uses<'e>(
    let_named: &dyn Fn(&str) -> Option<usize>,
    expr: &'e Expr,
    bound: &mut Vec<&'e str>,
    found: &mut Vec<Use>,
) {
    match &expr.kind {
        ExprKind::Name(name) => {
            if bound.contains(&name.name.as_str()) {
                return;
            }
            if let Some(target) = let_named(&name.name) {
                found.push(Use {
                    target,
                    span: name.span,
                });
            }
        }
        ExprKind::Quant { var, body, .. } => {
            bound.push(&var.name);
            collect_uses(let_named, body, bound, found);
            bound.pop();
        }
        _ => {
            let (first, second) = expr.operands();
            for child in first.into_iter().chain(second) {
                collect_uses(let_named, child, bound, found);
            }
        }
    }
}

/// E0204 for the cycle `members[0] -> members[1] -> ... -> members[0]`, where
/// each member after the first was reached by its recorded use and `closing`
/// leads back to the first.
fn cycle_error(lets: &[&LetDecl], members: &[(usize, Option<Use>)], closing: Use) -> Diag {
    let name = |i: usize| lets.get(i).map_or("?", |d| d.name.name.as_str());
    let first = members.first().map_or(closing.target, |m| m.0);
    let first_decl = lets.get(first).map_or(closing.span, |d| d.name.span);
    let mut labels = vec![report::primary(
        first_decl,
        format_args!("`{}` is defined in terms of itself", name(first)),
    )];
    let chain: Vec<&str> = members
        .iter()
        .map(|(m, _)| name(*m))
        .chain([name(first)])
        .collect();
    let message = if members.len() == 1 {
        format!("recursive `let`: `{}` uses itself", name(first))
    } else {
        format!("recursive `let`s: {}", chain.join(" -> "))
    };
    for used in members.iter().filter_map(|(_, u)| *u).chain([closing]) {
        labels.push(report::secondary(
            used.span,
            format_args!("`{}` used here", name(used.target)),
        ));
    }
    report::error(Code::RecursiveLet, message)
        .with_labels(labels)
        .with_notes(vec![
            "note: a `let` names a formula or term; it cannot refer to itself, directly or through other `let`s".to_string(),
        ])
}
