//! Lowering of a checked system into one table per lifeline and the stamp
//! layout (docs/cpl.md): [`SystemTables`].
//!
//! Each lifeline's table is built by the monitor lowering ([`crate::lower`])
//! from a monitor-shaped view of the lifeline: its inputs are the lifeline's
//! store variables, their defined flags and the view entries it reads; its
//! properties are the guards it owns followed by the sub-formulas it exports.
//! So the interpreter (and later the code generator) runs a lifeline exactly
//! as it runs a monitor.

mod display;
mod homes;

use crate::diag::Diag;
use crate::hir::{self, Expr, ExprKind, Monitor, Property, System};
use crate::ir::system::{
    EntryId, EntryKind, Guard, GuardId, InputSource, LifelineId, LifelineTable, StampLayout,
    SystemTables, ViewEntry,
};
use crate::walk::children;
use homes::{Draft, DraftId, DraftSource};

/// Lowers `system` (`spec` supplies the enums), spending `budget` on automata
/// (guards are past-time, so they spend nothing today).
pub fn lower(
    spec: &hir::Spec,
    system: &System,
    budget: &mut crate::ltl3::Budget,
) -> Result<SystemTables, Vec<Diag>> {
    if !indices_in_range(system) {
        return Err(vec![Diag::bug().with_message(format!(
            "internal error: system `{}` refers to a lifeline or variable it does not have",
            system.name
        ))]);
    }
    let homes = homes::rewrite(system, &spec.enums);
    // `order[id]`: the draft that becomes entry `id`; `layout_of` the inverse.
    let order = layout_order(&homes.drafts);
    let mut layout_of = vec![EntryId::new(0); order.len()];
    for (id, &d) in order.iter().enumerate() {
        layout_of[d.index()] = EntryId::new(id);
    }
    let layout = StampLayout {
        system: system.name.clone(),
        lifelines: system.lifelines.iter().map(|l| l.name.clone()).collect(),
        entries: order
            .iter()
            .map(|&d| view_entry(&homes.drafts[d]))
            .collect(),
        enums: spec.enums.clone(),
    };
    let mut lifelines = Vec::with_capacity(system.lifelines.len());
    let mut diags = Vec::new();
    for (home, (lifeline, inputs)) in system.lifelines.iter().zip(homes.inputs).enumerate() {
        let guards: Vec<GuardId> = GuardId::range(system.guards.len())
            .filter(|&g| system.guards[g.index()].owner == home)
            .collect();
        let exports: Vec<EntryId> = layout
            .owned_by(LifelineId::new(home))
            .filter(|&id| layout.entries[id].kind == EntryKind::Formula)
            .collect();
        let property = |name: &str, formula: &Expr| Property {
            name: name.to_owned(),
            formula: formula.clone(),
            reset: false,
            span: formula.span,
        };
        let mut properties: Vec<Property> = guards
            .iter()
            .map(|&g| property(&system.guards[g.index()].name, &homes.guards[g.index()]))
            .collect();
        for &id in &exports {
            let draft = &homes.drafts[order[id.index()]];
            if let Some((_, on_owner)) = &draft.formula {
                properties.push(property(&draft.name, on_owner));
            }
        }
        let (mut inputs, mut sources): (Vec<hir::Input>, Vec<InputSource>) = inputs
            .into_iter()
            .map(|(input, source)| (input, in_layout(source, &layout_of)))
            .unzip();
        // The events' time (the lifeline's last variable) is the table's
        // time. Every store variable is an input already; appending it
        // keeps this right should that change.
        let time = system.time.as_ref().map(|name| {
            let var = lifeline.vars.len().saturating_sub(1);
            match sources.iter().position(|s| *s == InputSource::Var(var)) {
                Some(at) => at,
                None => {
                    inputs.push(hir::Input {
                        name: name.clone(),
                        ty: hir::Ty::Int,
                        span: lifeline.span,
                    });
                    sources.push(InputSource::Var(var));
                    inputs.len() - 1
                }
            }
        });
        let monitor = Monitor {
            name: lifeline.name.clone(),
            inputs,
            properties,
            reading: crate::ir::Reading {
                time,
                ..Default::default()
            },
            let_names: system.let_names.clone(),
            goals: Vec::new(),
            lets: Vec::new(),
            span: lifeline.span,
        };
        match crate::lower::lower(spec, &monitor, budget) {
            Ok(table) => lifelines.push(LifelineTable {
                name: lifeline.name.clone(),
                span: lifeline.span,
                vars: lifeline.vars.iter().map(super::decl).collect(),
                table,
                inputs: sources,
                guards,
                exports,
            }),
            Err(errors) => diags.extend(errors),
        }
    }
    let protocols = crate::lower::protocol::lower(system, budget).unwrap_or_else(|errors| {
        diags.extend(errors);
        Vec::new()
    });
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(SystemTables {
        name: system.name.clone(),
        span: system.span,
        time: system.time.clone(),
        lifelines,
        guards: system
            .guards
            .iter()
            .map(|g| Guard {
                name: g.name.clone(),
                owner: LifelineId::new(g.owner),
                span: g.span,
            })
            .collect(),
        layout,
        protocols,
    })
}

/// The drafts in layout order: by owner, formulas before variables, then in
/// order of discovery.
fn layout_order(drafts: &[Draft]) -> Vec<DraftId> {
    let mut order: Vec<DraftId> = DraftId::range(drafts.len()).collect();
    order.sort_by_key(|&d| {
        let is_var = matches!(drafts[d].kind, EntryKind::Var { .. });
        (drafts[d].owner, is_var, d)
    });
    order
}

fn view_entry(draft: &Draft) -> ViewEntry {
    ViewEntry {
        owner: LifelineId::new(draft.owner),
        kind: draft.kind,
        name: draft.name.clone(),
    }
}

/// `source` with draft ids replaced by layout ids.
fn in_layout(source: DraftSource, layout_of: &[EntryId]) -> InputSource {
    let id = |d: DraftId| {
        let fallback = EntryId::new(d.index());
        layout_of.get(d.index()).copied().unwrap_or(fallback)
    };
    match source {
        InputSource::Var(x) => InputSource::Var(x),
        InputSource::Defined(x) => InputSource::Defined(x),
        InputSource::Entry(d) => InputSource::Entry(id(d)),
        InputSource::EntryDefined(d) => InputSource::EntryDefined(id(d)),
    }
}

/// Whether every guard owner, lifeline and variable index of `system` exists
/// (always so for a checked system; checked so lowering cannot index out of range).
fn indices_in_range(system: &System) -> bool {
    fn ok(system: &System, home: usize, e: &Expr) -> bool {
        let vars = |l: usize| system.lifelines.get(l).map_or(0, |l| l.vars.len());
        match &e.kind {
            ExprKind::Input(var) => *var < vars(home),
            ExprKind::Remote { lifeline, var } => *var < vars(*lifeline),
            ExprKind::At { lifeline, arg } => {
                *lifeline < system.lifelines.len() && ok(system, *lifeline, arg)
            }
            _ => children(e).into_iter().all(|c| ok(system, home, c)),
        }
    }
    system
        .guards
        .iter()
        .all(|g| g.owner < system.lifelines.len() && ok(system, g.owner, &g.formula))
}
