//! The names declared in a `system` block.
//!
//! - Lifelines, groups, `let`s and guards share one namespace (E0201); they
//!   may be used before they are declared.
//! - Each lifeline has its own variables (unique within it, E0201; typed
//!   `bool`, `int`, `float` or an enum, E0203). Lifelines may share variable
//!   names: `cand` on every lifeline is the usual case.
//! - Bare names are `let`s, variables and enum variants, so a `let` may not
//!   take the name of any lifeline's variable, and neither a `let` nor a
//!   variable the name of an enum variant (E0201), as in monitors.
//! - A group lists declared lifelines (E0200 otherwise, E0206 for another
//!   group); listing one twice is an error (E0201) rather than silently
//!   deduplicated: `count` over the group would otherwise be ambiguous.
//! - Protocols share the namespace too (their verdicts sit beside the
//!   guards' in output lines); `skip`, the empty protocol, names none.

use crate::check::enums::EnumTable;
use crate::check::report;
use crate::check::scope::{duplicate, variant_clash, InputDecl, Namespace};
use crate::check::similar;
use hindsight_grammar::ast::{
    Expr, Ident, LetDecl, ProtocolDecl, Span, SystemDecl, SystemMember, TimeDecl,
};
use hindsight_grammar::diag::{Code, Diag};

/// What a system-level name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// The `i`-th lifeline.
    Lifeline(usize),
    /// The `i`-th group.
    Group(usize),
    /// The `i`-th `let`.
    Let(usize),
    /// The `i`-th guard (not usable in expressions).
    Guard(usize),
    /// The events' time (a variable of every lifeline, read by duration
    /// bounds only).
    Time,
    /// The `i`-th protocol (not usable in expressions).
    Protocol(usize),
}

/// A declared lifeline.
pub(super) struct LifelineDecl<'a> {
    /// Its name.
    pub name: &'a Ident,
    /// Its variables, in declaration order, with their resolved types.
    pub vars: Vec<InputDecl<'a>>,
    /// The whole declaration.
    pub span: Span,
}

impl LifelineDecl<'_> {
    /// The index of its variable `name` (the first, if declared twice).
    pub(super) fn var(&self, name: &str) -> Option<usize> {
        self.vars.iter().position(|v| v.decl.name.name == name)
    }
}

/// A declared group: its members as lifeline indices (unknown ones left out).
pub(super) struct GroupDecl<'a> {
    /// Its name.
    pub name: &'a Ident,
    /// Its members, each once, in the order written.
    pub members: Vec<usize>,
}

/// A declared guard.
pub(super) struct GuardDecl<'a> {
    /// Its name.
    pub name: &'a Ident,
    /// The owner lifeline as written.
    pub at: &'a Ident,
    /// Its formula.
    pub formula: &'a Expr,
    /// The whole declaration.
    pub span: Span,
}

/// The declarations of one system and the names they bind.
pub(super) struct SystemScope<'a> {
    /// The system's name.
    pub system_name: &'a Ident,
    /// Its lifelines in declaration order.
    pub lifelines: Vec<LifelineDecl<'a>>,
    /// Its groups in declaration order.
    pub groups: Vec<GroupDecl<'a>>,
    /// Its `let`s in declaration order.
    pub lets: Vec<&'a LetDecl>,
    /// Its guards in declaration order.
    pub guards: Vec<GuardDecl<'a>>,
    /// Its events' time, a variable of every lifeline, if declared.
    pub time: Option<&'a TimeDecl>,
    /// Its protocols in declaration order.
    pub protocols: Vec<&'a ProtocolDecl>,
    /// The names they bind.
    pub names: Namespace<'a, Binding>,
}

const NAMESPACE_NOTE: &str =
    "note: lifelines, groups, `let`s, guards and protocols share one namespace";

impl<'a> SystemScope<'a> {
    /// Collects the system's declarations, reporting every problem with them.
    pub(super) fn build(
        system: &'a SystemDecl,
        enums: &EnumTable<'a>,
        diags: &mut Vec<Diag>,
    ) -> Self {
        let mut scope = SystemScope {
            system_name: &system.name,
            lifelines: Vec::new(),
            groups: Vec::new(),
            lets: Vec::new(),
            guards: Vec::new(),
            time: None,
            protocols: Vec::new(),
            names: Namespace::default(),
        };
        let mut group_members = Vec::new();
        for member in &system.members {
            match member {
                SystemMember::Lifeline { name, vars, span } => {
                    let binding = Binding::Lifeline(scope.lifelines.len());
                    let vars = lifeline_vars(vars, enums, diags);
                    scope.lifelines.push(LifelineDecl {
                        name,
                        vars,
                        span: *span,
                    });
                    scope.bind(name, binding, diags);
                }
                SystemMember::Group { name, members, .. } => {
                    let binding = Binding::Group(scope.groups.len());
                    scope.groups.push(GroupDecl {
                        name,
                        members: Vec::new(),
                    });
                    group_members.push(members);
                    scope.bind(name, binding, diags);
                }
                SystemMember::Time(time) => scope.add_time(time, enums, diags),
                SystemMember::Let(decl) => {
                    let binding = Binding::Let(scope.lets.len());
                    scope.lets.push(decl);
                    scope.bind(&decl.name, binding, diags);
                    diags.extend(variant_clash(&decl.name, enums));
                }
                SystemMember::Guard {
                    name,
                    at,
                    formula,
                    span,
                } => {
                    let binding = Binding::Guard(scope.guards.len());
                    scope.guards.push(GuardDecl {
                        name,
                        at,
                        formula,
                        span: *span,
                    });
                    scope.bind(name, binding, diags);
                }
                SystemMember::Protocol(decl) => {
                    let binding = Binding::Protocol(scope.protocols.len());
                    scope.protocols.push(decl);
                    if decl.name.name == "skip" {
                        diags.push(
                            report::error(
                                Code::DuplicateDefinition,
                                "`skip` is the empty protocol: no protocol can take its name",
                            )
                            .with_labels(vec![report::primary(decl.name.span, "reserved here")]),
                        );
                    }
                    scope.bind(&decl.name, binding, diags);
                }
            }
        }
        for (index, written) in group_members.into_iter().enumerate() {
            let members = scope.group_members(written, diags);
            if let Some(group) = scope.groups.get_mut(index) {
                group.members = members;
            }
        }
        scope.lets_apart_from_variables(diags);
        scope.time_apart_from_variables(diags);
        scope
    }

    /// `time name;` (E0201 for a second one, E0413 for a `from`: the time is
    /// a store variable).
    fn add_time(&mut self, time: &'a TimeDecl, enums: &EnumTable, diags: &mut Vec<Diag>) {
        if let Some(from) = &time.from {
            diags.push(
                report::error(
                    Code::BadMapping,
                    "a system's events give their time as the store variable of its name",
                )
                .with_labels(vec![report::primary(from.span, "no `from` in a system")])
                .with_notes(vec![format!(
                    "help: write `time {};` and give it in each event's \"store\"",
                    time.field.name
                )]),
            );
        }
        match self.time {
            Some(first) => diags.push(
                report::error(
                    Code::DuplicateDefinition,
                    format_args!(
                        "system `{}` declares its events' time twice",
                        self.system_name
                    ),
                )
                .with_labels(vec![
                    report::primary(time.field.span, "second `time` here"),
                    report::secondary(first.field.span, "first declared here"),
                ])
                .with_notes(vec!["note: each event has one time".to_string()]),
            ),
            None => self.time = Some(time),
        }
        self.bind(&time.field.name, Binding::Time, diags);
        diags.extend(variant_clash(&time.field.name, enums));
    }

    /// E0201 for a lifeline variable named like the events' time (which is
    /// a variable of every lifeline).
    fn time_apart_from_variables(&self, diags: &mut Vec<Diag>) {
        let Some(time) = self.time else { return };
        for lifeline in &self.lifelines {
            if let Some(var) = lifeline
                .var(&time.field.name.name)
                .and_then(|v| lifeline.vars.get(v))
            {
                diags.push(duplicate(
                    &var.decl.name,
                    &time.field.name,
                    &format!("lifeline `{}`", lifeline.name),
                    "note: the events' time is a variable of every lifeline",
                ));
            }
        }
    }

    /// What `name` refers to in this system, if it was declared here.
    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.names.lookup(name)
    }

    /// The lifeline `name` stands for; E0200 if nothing, E0206 if something else.
    pub(super) fn resolve_lifeline(&self, name: &Ident, diags: &mut Vec<Diag>) -> Option<usize> {
        match self.lookup(&name.name) {
            Some(Binding::Lifeline(i)) => return Some(i),
            Some(other) => diags.push(self.wrong_role(name, other, "a lifeline")),
            None => {
                let lifelines = self.lifelines.iter().map(|l| l.name.name.as_str());
                diags.push(self.unknown(name, "lifeline", lifelines));
            }
        }
        None
    }

    /// The group `name` stands for; E0200 if nothing, E0206 if something else,
    /// E0403 for an undeclared `agents` (a population's built-in group).
    pub(super) fn resolve_group(&self, name: &Ident, diags: &mut Vec<Diag>) -> Option<usize> {
        match self.lookup(&name.name) {
            Some(Binding::Group(i)) => return Some(i),
            Some(other) => diags.push(self.wrong_role(name, other, "a group")),
            None if name.name == "agents" => diags.push(
                report::error(
                    Code::WrongBlock,
                    "quantifiers over `agents` are only meaningful in a `population` block",
                )
                .with_labels(vec![report::primary(name.span, "not a group of this system")])
                .with_notes(vec![
                    "help: in a system, quantify over a declared group of lifelines, e.g. `group Reviewers = { A, B };`".to_string(),
                ]),
            ),
            None => {
                let groups = self.groups.iter().map(|g| g.name.name.as_str());
                diags.push(self.unknown(name, "group", groups));
            }
        }
        None
    }

    /// E0206: `name` is declared, but not as `expected` ("a lifeline").
    pub(super) fn wrong_role(&self, name: &Ident, found: Binding, expected: &str) -> Diag {
        let (kind, help) = match found {
            Binding::Lifeline(_) => (
                "a lifeline",
                format!("help: read its variables as `{name}.x`, or evaluate a formula there with `@{name} (...)`"),
            ),
            Binding::Group(_) => (
                "a group",
                format!("help: quantify over it, e.g. `forall l in {name}: @l (...)`"),
            ),
            Binding::Let(_) => ("a `let`", "help: a `let` names a formula or value".to_string()),
            Binding::Guard(_) => (
                "a guard",
                "help: to share a formula, define it with `let` and use that name in the guard and here".to_string(),
            ),
            Binding::Time => (
                "the events' time",
                "help: only duration bounds read it".to_string(),
            ),
            Binding::Protocol(_) => (
                "a protocol",
                "help: a protocol constrains the system's messages; formulas cannot read it"
                    .to_string(),
            ),
        };
        let declared = self.names.declared(&name.name).map(|d| d.span);
        report::wrong_role(name, name.span, expected, kind, declared, help)
    }

    /// E0200 for the unknown `kind` ("lifeline", "group") `name`.
    pub(super) fn unknown<'n>(
        &self,
        name: &Ident,
        kind: &str,
        known: impl Iterator<Item = &'n str>,
    ) -> Diag {
        let system = self.system_name;
        let notes = similar::unknown_notes(
            &name.name,
            &known.collect::<Vec<_>>(),
            format!("note: system `{system}` declares no {kind}"),
            |known| format!("note: the {kind}s of system `{system}` are {known}"),
        );
        report::error(Code::UnknownName, format_args!("unknown {kind} `{name}`"))
            .with_labels(vec![report::primary(
                name.span,
                format_args!("no {kind} of system `{}` has this name", self.system_name),
            )])
            .with_notes(notes)
    }

    fn bind(&mut self, name: &'a Ident, binding: Binding, diags: &mut Vec<Diag>) {
        if let Err(earlier) = self.names.bind(name, binding) {
            let within = format!("system `{}`", self.system_name);
            diags.push(duplicate(name, earlier, &within, NAMESPACE_NOTE));
        }
    }

    /// A group's members as lifeline indices, reporting unknown and repeated ones.
    fn group_members(&self, written: &[Ident], diags: &mut Vec<Diag>) -> Vec<usize> {
        let mut members: Vec<(usize, &Ident)> = Vec::new();
        for name in written {
            let Some(index) = self.resolve_lifeline(name, diags) else {
                continue;
            };
            match members.iter().find(|(m, _)| *m == index) {
                Some((_, earlier)) => diags.push(duplicate(
                    name,
                    earlier,
                    "this group",
                    "note: a group lists each lifeline once",
                )),
                None => members.push((index, name)),
            }
        }
        members.into_iter().map(|(m, _)| m).collect()
    }

    /// E0201 for each `let` named like a lifeline's variable.
    fn lets_apart_from_variables(&self, diags: &mut Vec<Diag>) {
        for decl in &self.lets {
            let clash = self
                .lifelines
                .iter()
                .find_map(|l| Some((l, &l.vars.get(l.var(&decl.name.name)?)?.decl.name)));
            if let Some((lifeline, var)) = clash {
                diags.push(
                    report::error(
                        Code::DuplicateDefinition,
                        format_args!(
                            "the `let` `{}` has the name of a variable of lifeline `{}`",
                            decl.name, lifeline.name
                        ),
                    )
                    .with_labels(vec![
                        report::primary(decl.name.span, "this `let` clashes with the variable"),
                        report::secondary(var.span, "variable declared here"),
                    ])
                    .with_notes(vec![format!(
                        "help: rename it; a bare `{}` would otherwise mean two things",
                        decl.name
                    )]),
                );
            }
        }
    }
}

/// A lifeline's variables with their types, reporting unknown types (E0203),
/// repeated names and names of enum variants (E0201).
fn lifeline_vars<'a>(
    vars: &'a [hindsight_grammar::ast::Field],
    enums: &EnumTable<'a>,
    diags: &mut Vec<Diag>,
) -> Vec<InputDecl<'a>> {
    let mut checked: Vec<InputDecl<'a>> = Vec::new();
    for field in vars {
        let var = InputDecl::resolved(field, enums, diags);
        if let Some(earlier) = checked.iter().find(|v| v.decl.name.name == field.name.name) {
            diags.push(duplicate(
                &field.name,
                &earlier.decl.name,
                "this lifeline",
                "note: each variable of a lifeline needs its own name",
            ));
        } else {
            diags.extend(variant_clash(&field.name, enums));
        }
        checked.push(var);
    }
    checked
}
