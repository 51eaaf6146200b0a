//! The names declared in a `population` block.
//!
//! - Agent attributes, globals, groups, `let`s and properties share one
//!   namespace (E0201); attributes, globals and `let`s may not take the name
//!   of an enum variant either (E0201), as in monitors.
//! - At most one `agent` block, one `global` block and one `capacity N;`
//!   (E0201 for a second); no `agent` block means agents without attributes.
//! - `capacity N;` needs `1 <= N <= MAX_CAPACITY` (E0412); without it the
//!   capacity is [`hir::DEFAULT_CAPACITY`].
//! - `agents` is the built-in group of all agents: no group may take its name
//!   (E0201).

use crate::check::enums::EnumTable;
use crate::check::report;
use crate::check::scope::{duplicate, push, variant_clash, InputDecl, Namespace};
use crate::hir;
use hindsight_grammar::ast::{
    Expr, Field, Ident, LetDecl, PopulationDecl, PopulationMember, PropertyDecl, Span, TimeDecl,
};
use hindsight_grammar::diag::{Code, Diag};

/// The largest `capacity N;` accepted.
pub(super) const MAX_CAPACITY: i64 = 1_000_000;

/// The name of the built-in group of all agents.
pub(super) const AGENTS: &str = "agents";

/// What a population-level name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Binding {
    /// The `i`-th agent attribute.
    Attribute(usize),
    /// The `i`-th global.
    Global(usize),
    /// The `i`-th group.
    Group(usize),
    /// The `i`-th `let`.
    Let(usize),
    /// The `i`-th property (not usable in expressions).
    Property(usize),
    /// The steps' time, the `i`-th global (read by duration bounds only).
    Time(usize),
}

/// A declared group.
pub(super) struct GroupDecl<'a> {
    /// Its name.
    pub name: &'a Ident,
    /// The group it filters, as written.
    pub base: &'a Ident,
    /// Its membership predicate.
    pub pred: &'a Expr,
    /// The whole declaration.
    pub span: Span,
}

/// The declarations of one population and the names they bind.
pub(super) struct PopulationScope<'a> {
    /// The population's name.
    pub name: &'a Ident,
    /// The agent attributes in declaration order.
    pub attributes: Vec<InputDecl<'a>>,
    /// The globals in declaration order, the time among them.
    pub globals: Vec<InputDecl<'a>>,
    /// The index in `globals` of the steps' time, if declared.
    pub time: Option<usize>,
    /// The groups in declaration order.
    pub groups: Vec<GroupDecl<'a>>,
    /// The `let`s in declaration order.
    pub lets: Vec<&'a LetDecl>,
    /// The properties in declaration order.
    pub properties: Vec<&'a PropertyDecl>,
    /// The capacity (`None` if `capacity N;` was out of range).
    pub capacity: Option<usize>,
    /// The names they bind.
    pub names: Namespace<'a, Binding>,
}

const NAMESPACE_NOTE: &str =
    "note: agent attributes, globals, groups, `let`s and properties share one namespace";

impl<'a> PopulationScope<'a> {
    /// Collects the population's declarations, reporting every problem with them.
    pub(super) fn build(
        decl: &'a PopulationDecl,
        enums: &EnumTable<'a>,
        diags: &mut Vec<Diag>,
    ) -> Self {
        let mut scope = PopulationScope {
            name: &decl.name,
            attributes: Vec::new(),
            globals: Vec::new(),
            time: None,
            groups: Vec::new(),
            lets: Vec::new(),
            properties: Vec::new(),
            capacity: Some(hir::DEFAULT_CAPACITY),
            names: Namespace::default(),
        };
        let mut agent_block: Option<Span> = None;
        let mut global_block: Option<Span> = None;
        let mut capacity_decl: Option<Span> = None;
        for member in &decl.members {
            match member {
                PopulationMember::Agent { fields, span } => {
                    if first_block(&mut agent_block, "agent", *span, diags) {
                        for field in fields {
                            let attribute = InputDecl::resolved(field, enums, diags);
                            let index = push(&mut scope.attributes, attribute);
                            scope.bind(&field.name, Binding::Attribute(index), enums, diags);
                        }
                    }
                }
                PopulationMember::Time(time) => scope.add_time(time, enums, diags),
                PopulationMember::Global { fields, span } => {
                    if first_block(&mut global_block, "global", *span, diags) {
                        for field in fields {
                            scope.add_global(field, enums, diags);
                        }
                    }
                }
                PopulationMember::Group {
                    name,
                    base,
                    pred,
                    span,
                } => {
                    let binding = Binding::Group(scope.groups.len());
                    scope.groups.push(GroupDecl {
                        name,
                        base,
                        pred,
                        span: *span,
                    });
                    if name.name == AGENTS {
                        diags.push(
                            report::error(
                                Code::DuplicateDefinition,
                                "`agents` is the built-in group of all agents",
                            )
                            .with_labels(vec![report::primary(
                                name.span,
                                "a group cannot take this name",
                            )])
                            .with_notes(vec!["help: give the group another name".to_string()]),
                        );
                    } else {
                        scope.bind(name, binding, enums, diags);
                    }
                }
                PopulationMember::Let(decl) => {
                    let binding = Binding::Let(scope.lets.len());
                    scope.lets.push(decl);
                    scope.bind(&decl.name, binding, enums, diags);
                }
                PopulationMember::Property(decl) => {
                    let binding = Binding::Property(scope.properties.len());
                    scope.properties.push(decl);
                    scope.bind(&decl.name, binding, enums, diags);
                }
                PopulationMember::Capacity {
                    value,
                    value_span,
                    span,
                } => {
                    if let Some(first) = capacity_decl {
                        diags.push(
                            report::error(
                                Code::DuplicateDefinition,
                                "the capacity of a population is declared more than once",
                            )
                            .with_labels(vec![
                                report::primary(*span, "second `capacity` here"),
                                report::secondary(first, "first declared here"),
                            ])
                            .with_notes(vec![
                                "note: a population has one capacity: the most agents its monitor holds".to_string(),
                            ]),
                        );
                        continue;
                    }
                    capacity_decl = Some(*span);
                    scope.capacity = capacity(*value, *value_span, diags);
                }
            }
        }
        scope
    }

    /// `time name;`: a global of microseconds, bound as the time (E0201 for
    /// a second one, E0413 for a `from`: a population's time is the global
    /// of its name).
    fn add_time(&mut self, time: &'a TimeDecl, enums: &EnumTable<'a>, diags: &mut Vec<Diag>) {
        if let Some(from) = &time.from {
            diags.push(
                report::error(
                    Code::BadMapping,
                    "a population's time is read from the global of its name",
                )
                .with_labels(vec![report::primary(
                    from.span,
                    "no `from` in a population",
                )])
                .with_notes(vec![format!(
                    "help: write `time {};` and give it in each line's \"globals\"",
                    time.field.name
                )]),
            );
        }
        let index = push(
            &mut self.globals,
            InputDecl::resolved(&time.field, enums, diags),
        );
        match self.time.and_then(|t| self.globals.get(t)) {
            Some(first) => diags.push(
                report::error(
                    Code::DuplicateDefinition,
                    format_args!("population `{}` declares its steps' time twice", self.name),
                )
                .with_labels(vec![
                    report::primary(time.field.span, "second `time` here"),
                    report::secondary(first.decl.span, "first declared here"),
                ])
                .with_notes(vec!["note: each step has one time".to_string()]),
            ),
            None => self.time = Some(index),
        }
        self.bind(&time.field.name, Binding::Time(index), enums, diags);
    }

    fn add_global(&mut self, field: &'a Field, enums: &EnumTable<'a>, diags: &mut Vec<Diag>) {
        let index = push(&mut self.globals, InputDecl::resolved(field, enums, diags));
        self.bind(&field.name, Binding::Global(index), enums, diags);
    }

    /// What `name` refers to in this population, if it was declared here.
    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.names.lookup(name)
    }

    /// The index of attribute `name`.
    pub(super) fn attribute(&self, name: &str) -> Option<usize> {
        match self.lookup(name) {
            Some(Binding::Attribute(i)) => Some(i),
            _ => None,
        }
    }

    /// The attribute names, in declaration order.
    pub(super) fn attribute_names(&self) -> Vec<&'a str> {
        self.attributes
            .iter()
            .map(|a| a.decl.name.name.as_str())
            .collect()
    }

    /// The group names (`agents` first), in declaration order.
    pub(super) fn group_names(&self) -> Vec<&'a str> {
        std::iter::once(AGENTS)
            .chain(self.groups.iter().map(|g| g.name.name.as_str()))
            .collect()
    }

    fn bind(
        &mut self,
        name: &'a Ident,
        binding: Binding,
        enums: &EnumTable,
        diags: &mut Vec<Diag>,
    ) {
        if let Err(earlier) = self.names.bind(name, binding) {
            let within = format!("population `{}`", self.name);
            diags.push(duplicate(name, earlier, &within, NAMESPACE_NOTE));
        } else if matches!(
            binding,
            Binding::Attribute(_) | Binding::Global(_) | Binding::Let(_)
        ) {
            diags.extend(variant_clash(name, enums));
        }
    }
}

/// Whether the `keyword` block at `span` is the first of its kind, which
/// `seen` keeps; E0201 for a later one.
fn first_block(seen: &mut Option<Span>, keyword: &str, span: Span, diags: &mut Vec<Diag>) -> bool {
    if let Some(first) = *seen {
        diags.push(second_block(keyword, span, first));
        return false;
    }
    *seen = Some(span);
    true
}

/// E0201 for a second `agent` or `global` block.
fn second_block(keyword: &str, span: Span, first: Span) -> Diag {
    report::error(
        Code::DuplicateDefinition,
        format_args!("a population has at most one `{keyword}` block"),
    )
    .with_labels(vec![
        report::primary(span, format_args!("second `{keyword}` block")),
        report::secondary(first, "first one here"),
    ])
    .with_notes(vec![format!(
        "help: declare every {} in the first `{keyword}` block",
        if keyword == "agent" {
            "attribute"
        } else {
            "global"
        }
    )])
}

/// The capacity `value` (written at `span`), or E0412 if it is out of range.
fn capacity(value: i64, span: Span, diags: &mut Vec<Diag>) -> Option<usize> {
    if (1..=MAX_CAPACITY).contains(&value) {
        return usize::try_from(value).ok();
    }
    diags.push(
        report::error(
            Code::CapacityOutOfRange,
            format_args!(
                "capacity {value} is out of range: it must be between 1 and {MAX_CAPACITY}"
            ),
        )
        .with_labels(vec![report::primary(span, "out of range")])
        .with_notes(vec![
            "note: the capacity is the most agents one monitor holds; its state is allocated for all of them up front".to_string(),
        ]),
    );
    None
}
