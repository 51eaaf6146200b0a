//! The names declared in a `monitor` block.
//!
//! Inputs, `let`s, goals and properties share one namespace: a second
//! declaration of a name is an error (E0201). Properties and goals are *not*
//! in scope as names inside
//! expressions (their verdicts are outputs, not sub-formulas); a `let` is the
//! way to share a formula. An input or `let` may not take the name of an enum
//! variant either (E0201): a bare name would then mean two things, and rather
//! than pick a silent winner the checker asks for a rename.

use super::enums::EnumTable;
use super::report;
use crate::hir::Ty;
use hindsight_grammar::ast::{
    Field, GoalDecl, Ident, LetDecl, MonitorDecl, MonitorMember, PropertyDecl,
};
use hindsight_grammar::diag::{Code, Diag};
use std::collections::HashMap;

/// What a monitor-level name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// The `i`-th input.
    Input(usize),
    /// The `i`-th `let`.
    Let(usize),
    /// The `i`-th property (not usable in expressions).
    Property(usize),
    /// The `i`-th goal (not usable in expressions).
    Goal(usize),
    /// The step's time, the `i`-th input (read by duration bounds only).
    Time(usize),
}

/// A declared input with its resolved type (`None` if the type was unknown).
pub(super) struct InputDecl<'a> {
    /// The declaration.
    pub decl: &'a Field,
    /// Its type, if it resolved.
    pub ty: Option<Ty>,
}

/// One block's namespace: what each name refers to, and the identifier that
/// declared it (the first: a later declaration of a taken name is not bound).
pub(super) struct Namespace<'a, B> {
    names: HashMap<&'a str, (B, &'a Ident)>,
}

impl<B> Default for Namespace<'_, B> {
    fn default() -> Self {
        Namespace {
            names: HashMap::new(),
        }
    }
}

impl<'a, B: Copy> Namespace<'a, B> {
    /// What `name` refers to, if it was declared.
    pub(super) fn lookup(&self, name: &str) -> Option<B> {
        self.names.get(name).map(|&(binding, _)| binding)
    }

    /// The identifier that declared `name`, if it was declared.
    pub(super) fn declared(&self, name: &str) -> Option<&'a Ident> {
        self.names.get(name).map(|&(_, decl)| decl)
    }

    /// Binds `name` to `binding`, unless the name is taken: then `Err` with
    /// the identifier that took it.
    pub(super) fn bind(&mut self, name: &'a Ident, binding: B) -> Result<(), &'a Ident> {
        match self.declared(&name.name) {
            Some(earlier) => Err(earlier),
            None => {
                self.names.insert(&name.name, (binding, name));
                Ok(())
            }
        }
    }
}

/// The declarations of one monitor and the names they bind.
#[derive(Default)]
pub(super) struct Scope<'a> {
    /// The monitor's inputs in declaration order, its time among them.
    pub inputs: Vec<InputDecl<'a>>,
    /// The index in `inputs` of the step's time, if declared.
    pub time: Option<usize>,
    /// Its `let`s in declaration order.
    pub lets: Vec<&'a LetDecl>,
    /// Its goals in declaration order.
    pub goals: Vec<&'a GoalDecl>,
    /// Its properties in declaration order.
    pub properties: Vec<&'a PropertyDecl>,
    /// The names they bind.
    pub names: Namespace<'a, Binding>,
}

impl<'a> Scope<'a> {
    /// Collects the monitor's declarations, resolving input types and
    /// reporting duplicate names (E0201) and unknown types (E0203).
    pub(super) fn build(
        monitor: &'a MonitorDecl,
        enums: &EnumTable<'a>,
        diags: &mut Vec<Diag>,
    ) -> Self {
        let mut scope = Scope::default();
        for member in &monitor.members {
            let (name, binding) = match member {
                MonitorMember::Input(decl) => {
                    let input = InputDecl::resolved(&decl.field, enums, diags);
                    (
                        &decl.field.name,
                        Binding::Input(push(&mut scope.inputs, input)),
                    )
                }
                MonitorMember::Time(decl) => {
                    let input = InputDecl::resolved(&decl.field, enums, diags);
                    let index = push(&mut scope.inputs, input);
                    match scope.time.and_then(|t| scope.inputs.get(t)) {
                        Some(first) => diags.push(
                            report::error(
                                Code::DuplicateDefinition,
                                format_args!(
                                    "monitor `{}` declares its steps' time twice",
                                    monitor.name
                                ),
                            )
                            .with_labels(vec![
                                report::primary(decl.field.span, "second `time` here"),
                                report::secondary(first.decl.span, "first declared here"),
                            ])
                            .with_notes(vec!["note: each step has one time".to_string()]),
                        ),
                        None => scope.time = Some(index),
                    }
                    (&decl.field.name, Binding::Time(index))
                }
                MonitorMember::Steps(_) | MonitorMember::SessionsEnd(_) => continue,
                MonitorMember::Let(decl) => (&decl.name, Binding::Let(push(&mut scope.lets, decl))),
                MonitorMember::Goal(decl) => {
                    (&decl.name, Binding::Goal(push(&mut scope.goals, decl)))
                }
                MonitorMember::Property(decl) => {
                    let index = push(&mut scope.properties, decl);
                    (&decl.name, Binding::Property(index))
                }
            };
            match scope.names.bind(name, binding) {
                Err(earlier) => diags.push(duplicate(
                    name,
                    earlier,
                    "this monitor",
                    "note: inputs, `let`s, goals and properties share one namespace",
                )),
                Ok(()) if !matches!(binding, Binding::Property(_) | Binding::Goal(_)) => {
                    diags.extend(variant_clash(name, enums));
                }
                Ok(()) => {}
            }
        }
        scope
    }

    /// What `name` refers to in this monitor, if it was declared here.
    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.names.lookup(name)
    }

    /// The names usable in expressions (inputs and `let`s).
    pub(super) fn value_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        let inputs = self.inputs.iter().map(|d| d.decl.name.name.as_str());
        inputs.chain(self.lets.iter().map(|d| d.name.name.as_str()))
    }
}

impl<'a> InputDecl<'a> {
    /// The input `decl`, its type resolved (E0203 if it is unknown).
    pub(super) fn resolved(decl: &'a Field, enums: &EnumTable, diags: &mut Vec<Diag>) -> Self {
        let ty = enums.resolve_type(&decl.ty, diags);
        InputDecl { decl, ty }
    }
}

/// Appends `item` to `items`, returning its index.
pub(super) fn push<T>(items: &mut Vec<T>, item: T) -> usize {
    items.push(item);
    items.len() - 1
}

/// E0201 for `name`, declared in `within` (e.g. "this monitor") where
/// `earlier` already took it; `note` says which names share the namespace.
pub(super) fn duplicate(name: &Ident, earlier: &Ident, within: &str, note: &str) -> Diag {
    report::error(
        Code::DuplicateDefinition,
        format_args!("the name `{name}` is declared more than once in {within}"),
    )
    .with_labels(vec![
        report::primary(name.span, format_args!("`{name}` redeclared here")),
        report::secondary(earlier.span, "first declared here"),
    ])
    .with_notes(vec![note.to_string()])
}

/// E0201 if the value name `name` (an input, variable or `let`) is also an
/// enum variant: a bare `name` would mean two things.
pub(super) fn variant_clash(name: &Ident, enums: &EnumTable) -> Option<Diag> {
    let variant = enums.bare_variant(&name.name).first()?;
    let enum_name = enums
        .decl(variant.enum_index)
        .map_or_else(String::new, |d| d.name.name.clone());
    Some(
        report::error(
            Code::DuplicateDefinition,
            format_args!("the name `{name}` is already a variant of enum `{enum_name}`"),
        )
        .with_labels(vec![
            report::primary(name.span, "this declaration clashes with the variant"),
            report::secondary(variant.decl.span, "variant declared here"),
        ])
        .with_notes(vec![format!(
            "help: rename it; a bare `{name}` would otherwise mean two things"
        )]),
    )
}
