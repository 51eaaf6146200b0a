//! System formulas back to surface syntax, with lifeline and variable names
//! (the monitor [`Printer`] knows neither): names the view entries.

use crate::hir::{EnumDef, Expr, ExprKind, Input, Monitor, System};
use crate::surface::{is_compound, Printer};
use crate::walk::map_children;

/// `e`, evaluated on lifeline `home` of `system`, in surface syntax.
///
/// `M.x` and `@M φ` are replaced by pseudo-inputs carrying their text, then the
/// whole is printed as a formula of a monitor whose inputs are `home`'s
/// variables followed by those pseudo-inputs.
pub(super) fn text(system: &System, enums: &[EnumDef], home: usize, e: &Expr) -> String {
    let mut inputs = system
        .lifelines
        .get(home)
        .map_or_else(Vec::new, |l| l.vars.clone());
    let named = with_named_leaves(system, enums, e, &mut inputs);
    let monitor = Monitor {
        name: String::new(),
        inputs,
        properties: Vec::new(),
        reading: crate::ir::Reading::default(),
        let_names: system.let_names.clone(),
        goals: Vec::new(),
        lets: Vec::new(),
        span: e.span,
    };
    Printer::new(&monitor, enums).text(&named)
}

/// `@M φ` with `φ` (on `M`) parenthesized when it is compound.
pub(super) fn at_text(system: &System, enums: &[EnumDef], lifeline: usize, arg: &Expr) -> String {
    let inner = text(system, enums, lifeline, arg);
    let inner = if is_compound(&inner) {
        format!("({inner})")
    } else {
        inner
    };
    format!("@{} {inner}", lifeline_name(system, lifeline))
}

/// `M.x`.
pub(super) fn remote_text(system: &System, lifeline: usize, var: usize) -> String {
    let var = system
        .lifelines
        .get(lifeline)
        .and_then(|l| l.vars.get(var))
        .map_or_else(|| format!("#{var}"), |v| v.name.clone());
    format!("{}.{var}", lifeline_name(system, lifeline))
}

/// A lifeline's name (`#k` for an unknown index, which checked systems never have).
pub(super) fn lifeline_name(system: &System, lifeline: usize) -> String {
    system
        .lifelines
        .get(lifeline)
        .map_or_else(|| format!("#{lifeline}"), |l| l.name.clone())
}

/// `e` with every `M.x` and `@M φ` replaced by an input appended to `inputs`
/// and named by its text.
fn with_named_leaves(
    system: &System,
    enums: &[EnumDef],
    e: &Expr,
    inputs: &mut Vec<Input>,
) -> Expr {
    let name = match &e.kind {
        ExprKind::Remote { lifeline, var } => remote_text(system, *lifeline, *var),
        ExprKind::At { lifeline, arg } => at_text(system, enums, *lifeline, arg),
        _ => return map_children(e, &mut |c| with_named_leaves(system, enums, c, inputs)),
    };
    inputs.push(Input {
        name,
        ty: e.ty,
        span: e.span,
    });
    Expr {
        kind: ExprKind::Input(inputs.len() - 1),
        ty: e.ty,
        span: e.span,
    }
}
