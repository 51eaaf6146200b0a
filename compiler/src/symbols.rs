//! The names of a spec: every declaration, every use that refers to one, and
//! every temporal operator, with their spans — what an editor needs for go to
//! definition, find references, hover, document symbols and completion.
//!
//! Built from the syntax tree alone, so it serves a file the checker rejects
//! (and, through [`crate::ast`] recovery, one with syntax errors in other
//! items). Uses are resolved in the checker's order (docs/language.md §2, §4c,
//! §4d): a quantified variable, then the block's lets, inputs, time and
//! globals, then the current lifeline's variables (in a guard or under `@L`),
//! then an agent attribute (in a group's predicate), then a bare enum variant.
//! A name that resolves nowhere is simply not a use; the checker reports it.

use std::collections::HashMap;

use crate::ast::{
    self, Expr, ExprKind, Ident, Literal, MonitorMember, PopulationMember, ProtoExpr, ProtoKind,
    Span, SystemMember, TypeExpr,
};

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `enum E { ... }`.
    Enum,
    /// A variant of an enum.
    Variant,
    /// `monitor M { ... }`.
    Monitor,
    /// `system S { ... }`.
    System,
    /// `population P { ... }`.
    Population,
    /// `input x: T;` in a monitor.
    Input,
    /// `time t;` in a block.
    Time,
    /// `let x = ...;`.
    Let,
    /// `goal g = ...;` in a monitor.
    Goal,
    /// `property p = ...;`.
    Property,
    /// `lifeline L { ... }` in a system.
    Lifeline,
    /// A variable of a lifeline.
    Variable,
    /// `group G ...` in a system or a population.
    Group,
    /// `guard g at L = ...;` in a system.
    Guard,
    /// `protocol P = ...;` in a system.
    Protocol,
    /// An attribute of a population's agents.
    Attribute,
    /// A population's global.
    Global,
    /// The variable a quantifier binds.
    Bound,
}

impl Kind {
    /// The kind as a reader would name it.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Enum => "enum",
            Kind::Variant => "enum variant",
            Kind::Monitor => "monitor",
            Kind::System => "system",
            Kind::Population => "population",
            Kind::Input => "input",
            Kind::Time => "time input",
            Kind::Let => "let",
            Kind::Goal => "goal",
            Kind::Property => "property",
            Kind::Lifeline => "lifeline",
            Kind::Variable => "lifeline variable",
            Kind::Group => "group",
            Kind::Guard => "guard",
            Kind::Protocol => "protocol",
            Kind::Attribute => "agent attribute",
            Kind::Global => "global",
            Kind::Bound => "quantified variable",
        }
    }
}

/// The index of a [`Symbol`] in [`Symbols::symbols`].
pub type SymbolId = usize;

/// One declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    /// The name as written.
    pub name: String,
    /// What it declares.
    pub kind: Kind,
    /// Where the name is written in its declaration.
    pub name_span: Span,
    /// The whole declaration.
    pub span: Span,
    /// The declaration it sits in (a block for a member, a lifeline for its
    /// variable, an enum for its variant); `None` at the top level.
    pub parent: Option<SymbolId>,
    /// The declared type as written, for inputs, variables, attributes,
    /// globals and time inputs.
    pub ty: Option<String>,
    /// The defining expression of a let, goal, property, guard or group
    /// predicate, or a protocol's body.
    pub body: Option<Span>,
}

/// A temporal operator as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operator {
    /// Where its letter is written.
    pub span: Span,
    /// Its row of the operator table (symbol, direction, meaning).
    pub row: hindsight_grammar::ops::TemporalRow,
}

/// Every name of a file, its uses and its temporal operators.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Symbols {
    /// Declarations, parents before their members, in source order otherwise.
    pub symbols: Vec<Symbol>,
    /// Each use of a declared name: where, and which declaration.
    pub uses: Vec<(Span, SymbolId)>,
    /// Every temporal operator.
    pub operators: Vec<Operator>,
    /// The top-level declarations, then each declaration's members
    /// (`members[id + 1]`), so that walking the tree is linear.
    members: Vec<Vec<SymbolId>>,
}

impl Symbols {
    /// The declarations and uses of `file`.
    pub fn of(file: &ast::File) -> Symbols {
        let mut index = Indexer::default();
        for item in &file.items {
            if let ast::Item::Enum(decl) = item {
                index.enumeration(decl);
            }
        }
        for item in &file.items {
            match item {
                ast::Item::Enum(_) => {}
                ast::Item::Monitor(decl) => index.monitor(decl),
                ast::Item::System(decl) => index.system(decl),
                ast::Item::Population(decl) => index.population(decl),
            }
        }
        index.symbols.uses.sort_by_key(|(span, _)| span.start);
        let mut symbols = index.symbols;
        symbols.members = vec![Vec::new(); symbols.symbols.len() + 1];
        for (id, symbol) in symbols.symbols.iter().enumerate() {
            let parent = symbol.parent.map_or(0, |p| p + 1);
            symbols.members[parent].push(id);
        }
        symbols
    }

    /// The declaration named or used at byte `offset`, if any, with the span
    /// of the name written there.
    pub fn at(&self, offset: usize) -> Option<(SymbolId, Span)> {
        let covers = |span: &Span| span.start <= offset && offset <= span.end;
        self.uses
            .iter()
            .find(|(span, _)| covers(span))
            .map(|&(span, id)| (id, span))
            .or_else(|| {
                let id = self.symbols.iter().position(|s| covers(&s.name_span))?;
                Some((id, self.symbols[id].name_span))
            })
    }

    /// The temporal operator written at byte `offset`, if any.
    pub fn operator_at(&self, offset: usize) -> Option<&Operator> {
        self.operators
            .iter()
            .find(|op| op.span.start <= offset && offset <= op.span.end)
    }

    /// Where `id` is used, in source order (its declaration not included).
    pub fn uses_of(&self, id: SymbolId) -> impl Iterator<Item = Span> + '_ {
        self.uses
            .iter()
            .filter(move |&&(_, of)| of == id)
            .map(|&(span, _)| span)
    }

    /// The declarations `id` contains, in source order.
    pub fn children(&self, id: Option<SymbolId>) -> impl Iterator<Item = SymbolId> + '_ {
        let at = id.map_or(0, |id| id + 1);
        self.members.get(at).into_iter().flatten().copied()
    }

    /// The names a formula written at byte `offset` can use: the enclosing
    /// block's members (lifeline variables included), every enum and
    /// variant. Bound variables are left out.
    pub fn visible_at(&self, offset: usize) -> Vec<SymbolId> {
        let block = self.children(None).find(|&s| {
            let span = self.symbols[s].span;
            self.symbols[s].kind != Kind::Enum && span.start <= offset && offset <= span.end
        });
        let mut visible: Vec<SymbolId> = Vec::new();
        for top in self.children(None) {
            if self.symbols[top].kind == Kind::Enum {
                visible.push(top);
                visible.extend(self.children(Some(top)));
            }
        }
        if let Some(block) = block {
            for member in self.children(Some(block)) {
                if self.symbols[member].kind != Kind::Bound {
                    visible.push(member);
                    visible.extend(self.children(Some(member)));
                }
            }
        }
        visible
    }
}

/// The names a formula may use in the block being indexed.
#[derive(Default)]
struct Scope {
    /// Values a formula names: lets, inputs, time, globals (the first
    /// declaration of a name wins, as in the checker).
    values: HashMap<String, SymbolId>,
    /// Places and processes: lifelines, groups, protocols.
    places: HashMap<String, SymbolId>,
    /// Each lifeline's variables.
    vars: HashMap<SymbolId, HashMap<String, SymbolId>>,
    /// Each system group's member lifelines.
    groups: HashMap<SymbolId, Vec<SymbolId>>,
    /// A population's agent attributes.
    attributes: HashMap<String, SymbolId>,
    /// The lifeline a formula is evaluated on (a guard's, or `@L`'s).
    on: Option<SymbolId>,
    /// Whether bare attributes are in scope (a population group's predicate).
    in_predicate: bool,
    /// Whether the block is a population (`a.x` reads an agent's attribute).
    population: bool,
    /// Quantified variables, innermost last, with the group they range over.
    bound: Vec<(String, SymbolId, Option<SymbolId>)>,
}

#[derive(Default)]
struct Indexer {
    symbols: Symbols,
    /// Enum name → symbol.
    enums: HashMap<String, SymbolId>,
    /// Variant name → its symbols, in declaration order.
    variants: HashMap<String, Vec<SymbolId>>,
    scope: Scope,
}

impl Indexer {
    fn declare(
        &mut self,
        name: &Ident,
        kind: Kind,
        span: Span,
        parent: Option<SymbolId>,
    ) -> SymbolId {
        self.symbols.symbols.push(Symbol {
            name: name.name.clone(),
            kind,
            name_span: name.span,
            span,
            parent,
            ty: None,
            body: None,
        });
        self.symbols.symbols.len() - 1
    }

    fn use_of(&mut self, span: Span, id: SymbolId) {
        self.symbols.uses.push((span, id));
    }

    fn enumeration(&mut self, decl: &ast::EnumDecl) {
        let id = self.declare(&decl.name, Kind::Enum, decl.span, None);
        self.enums.entry(decl.name.name.clone()).or_insert(id);
        for variant in &decl.variants {
            let v = self.declare(variant, Kind::Variant, variant.span, Some(id));
            self.variants
                .entry(variant.name.clone())
                .or_default()
                .push(v);
        }
    }

    /// A member with a declared type: its symbol, the type's text and use.
    fn typed(&mut self, field: &ast::Field, kind: Kind, parent: SymbolId) -> SymbolId {
        let id = self.declare(&field.name, kind, field.span, Some(parent));
        self.symbols.symbols[id].ty = Some(self.type_expr(&field.ty));
        id
    }

    fn type_expr(&mut self, ty: &TypeExpr) -> String {
        match ty {
            TypeExpr::Bool(_) => "bool".into(),
            TypeExpr::Int(_) => "int".into(),
            TypeExpr::Float(_) => "float".into(),
            TypeExpr::Named(name) => {
                if let Some(&e) = self.enums.get(&name.name) {
                    self.use_of(name.span, e);
                }
                name.name.clone()
            }
        }
    }

    /// A let, goal or property: declared now, its body read later.
    fn defined(
        &mut self,
        name: &Ident,
        kind: Kind,
        span: Span,
        body: &Expr,
        parent: SymbolId,
    ) -> SymbolId {
        let id = self.declare(name, kind, span, Some(parent));
        self.symbols.symbols[id].body = Some(body.span);
        id
    }

    fn time(&mut self, decl: &ast::TimeDecl, parent: SymbolId) {
        let id = self.typed(&decl.field, Kind::Time, parent);
        self.scope
            .values
            .entry(decl.field.name.name.clone())
            .or_insert(id);
    }

    fn monitor(&mut self, decl: &ast::MonitorDecl) {
        self.scope = Scope::default();
        let block = self.declare(&decl.name, Kind::Monitor, decl.span, None);
        let mut bodies = Vec::new();
        for member in &decl.members {
            match member {
                MonitorMember::Input(input) => {
                    let id = self.typed(&input.field, Kind::Input, block);
                    self.scope
                        .values
                        .entry(input.field.name.name.clone())
                        .or_insert(id);
                    if let Some(
                        ast::AbsentClause::Default(lit, _) | ast::AbsentClause::Hold(Some(lit), _),
                    ) = &input.absent
                    {
                        self.literal(lit);
                    }
                }
                MonitorMember::Time(time) => self.time(time, block),
                MonitorMember::Steps(steps) | MonitorMember::SessionsEnd(steps) => {
                    for item in &steps.filter {
                        if let ast::FilterItem::Compare { value, .. } = item {
                            self.literal(value);
                        }
                    }
                }
                MonitorMember::Let(d) => {
                    let id = self.defined(&d.name, Kind::Let, d.span, &d.value, block);
                    self.scope.values.entry(d.name.name.clone()).or_insert(id);
                    bodies.push(&d.value);
                }
                MonitorMember::Goal(d) => {
                    self.defined(&d.name, Kind::Goal, d.span, &d.value, block);
                    bodies.push(&d.value);
                }
                MonitorMember::Property(d) => {
                    self.defined(&d.name, Kind::Property, d.span, &d.formula, block);
                    bodies.push(&d.formula);
                }
            }
        }
        for body in bodies {
            self.expr(body);
        }
    }

    fn system(&mut self, decl: &ast::SystemDecl) {
        self.scope = Scope::default();
        let block = self.declare(&decl.name, Kind::System, decl.span, None);
        // Declarations first: guards and protocols may name any lifeline.
        for member in &decl.members {
            match member {
                SystemMember::Lifeline { name, vars, span } => {
                    let id = self.declare(name, Kind::Lifeline, *span, Some(block));
                    self.scope.places.entry(name.name.clone()).or_insert(id);
                    let mut own = HashMap::new();
                    for var in vars {
                        own.insert(var.name.name.clone(), self.typed(var, Kind::Variable, id));
                    }
                    self.scope.vars.insert(id, own);
                }
                SystemMember::Time(time) => self.time(time, block),
                SystemMember::Let(d) => {
                    let id = self.defined(&d.name, Kind::Let, d.span, &d.value, block);
                    self.scope.values.entry(d.name.name.clone()).or_insert(id);
                }
                SystemMember::Group { name, span, .. } => {
                    let id = self.declare(name, Kind::Group, *span, Some(block));
                    self.scope.places.entry(name.name.clone()).or_insert(id);
                }
                SystemMember::Protocol(p) => {
                    let id = self.declare(&p.name, Kind::Protocol, p.span, Some(block));
                    self.symbols.symbols[id].body = Some(p.body.span);
                    self.scope.places.entry(p.name.name.clone()).or_insert(id);
                }
                SystemMember::Guard {
                    name,
                    formula,
                    span,
                    ..
                } => {
                    self.defined(name, Kind::Guard, *span, formula, block);
                }
            }
        }
        // Groups before any body: a guard may range over a group declared below it.
        for member in &decl.members {
            if let SystemMember::Group { name, members, .. } = member {
                let Some(&group) = self.scope.places.get(&name.name) else {
                    continue;
                };
                let mut lifelines = Vec::new();
                for member in members {
                    if let Some(l) = self.lifeline(member) {
                        self.use_of(member.span, l);
                        lifelines.push(l);
                    }
                }
                self.scope.groups.entry(group).or_insert(lifelines);
            }
        }
        for member in &decl.members {
            match member {
                SystemMember::Group { .. } => {}
                SystemMember::Let(d) => self.expr(&d.value),
                SystemMember::Guard { at, formula, .. } => {
                    let on = self.lifeline(at);
                    if let Some(l) = on {
                        self.use_of(at.span, l);
                    }
                    self.scope.on = on;
                    self.expr(formula);
                    self.scope.on = None;
                }
                SystemMember::Protocol(p) => self.protocol(&p.body),
                SystemMember::Lifeline { .. } | SystemMember::Time(_) => {}
            }
        }
    }

    fn population(&mut self, decl: &ast::PopulationDecl) {
        self.scope = Scope {
            population: true,
            ..Scope::default()
        };
        let block = self.declare(&decl.name, Kind::Population, decl.span, None);
        for member in &decl.members {
            match member {
                PopulationMember::Agent { fields, .. } => {
                    for field in fields {
                        let id = self.typed(field, Kind::Attribute, block);
                        self.scope.attributes.insert(field.name.name.clone(), id);
                    }
                }
                PopulationMember::Global { fields, .. } => {
                    for field in fields {
                        let id = self.typed(field, Kind::Global, block);
                        self.scope
                            .values
                            .entry(field.name.name.clone())
                            .or_insert(id);
                    }
                }
                PopulationMember::Group {
                    name, pred, span, ..
                } => {
                    let id = self.defined(name, Kind::Group, *span, pred, block);
                    self.scope.places.entry(name.name.clone()).or_insert(id);
                }
                PopulationMember::Let(d) => {
                    let id = self.defined(&d.name, Kind::Let, d.span, &d.value, block);
                    self.scope.values.entry(d.name.name.clone()).or_insert(id);
                }
                PopulationMember::Property(d) => {
                    self.defined(&d.name, Kind::Property, d.span, &d.formula, block);
                }
                PopulationMember::Time(time) => self.time(time, block),
                PopulationMember::Capacity { .. } => {}
            }
        }
        for member in &decl.members {
            match member {
                PopulationMember::Group { base, pred, .. } => {
                    if let Some(&g) = self.scope.places.get(&base.name) {
                        self.use_of(base.span, g);
                    }
                    self.scope.in_predicate = true;
                    self.expr(pred);
                    self.scope.in_predicate = false;
                }
                PopulationMember::Let(d) => self.expr(&d.value),
                PopulationMember::Property(d) => self.expr(&d.formula),
                _ => {}
            }
        }
    }

    fn protocol(&mut self, body: &ProtoExpr) {
        match &body.kind {
            ProtoKind::Event(event) => self.event_type(event),
            ProtoKind::Name(name) => {
                if let Some(&p) = self.scope.places.get(&name.name) {
                    self.use_of(name.span, p);
                }
            }
            ProtoKind::Seq(a, b)
            | ProtoKind::Choice(a, b)
            | ProtoKind::Inter(a, b)
            | ProtoKind::Shuffle(a, b) => {
                self.protocol(a);
                self.protocol(b);
            }
            ProtoKind::Filter(events, inner) => {
                for event in events {
                    self.event_type(event);
                }
                self.protocol(inner);
            }
        }
    }

    fn event_type(&mut self, event: &ast::EventTypeDecl) {
        for end in [&event.from, &event.to] {
            if let Some(l) = self.lifeline(end) {
                self.use_of(end.span, l);
            }
        }
    }

    /// The lifeline declared as `name` in the current system.
    fn lifeline(&self, name: &Ident) -> Option<SymbolId> {
        let &id = self.scope.places.get(&name.name)?;
        (self.symbols.symbols[id].kind == Kind::Lifeline).then_some(id)
    }

    /// The innermost quantified variable called `name`: its symbol and group.
    fn bound(&self, name: &str) -> Option<(SymbolId, Option<SymbolId>)> {
        self.scope
            .bound
            .iter()
            .rev()
            .find(|(bound, ..)| bound == name)
            .map(|&(_, id, group)| (id, group))
    }

    /// The lifeline `name` stands for in `name.x` or `@name`: a lifeline, or
    /// the first member of the group a quantified variable ranges over.
    fn place(&mut self, name: &Ident) -> Option<SymbolId> {
        if let Some((var, group)) = self.bound(&name.name) {
            self.use_of(name.span, var);
            return group.and_then(|g| self.scope.groups.get(&g)?.first().copied());
        }
        let l = self.lifeline(name)?;
        self.use_of(name.span, l);
        Some(l)
    }

    fn literal(&mut self, literal: &Literal) {
        if let Literal::Variant(enum_name, variant) = literal {
            self.variant(enum_name.as_ref(), variant);
        }
    }

    /// `E::v` or a bare `v`.
    fn variant(&mut self, enum_name: Option<&Ident>, variant: &Ident) {
        let found = match enum_name {
            Some(e) => {
                let Some(&id) = self.enums.get(&e.name) else {
                    return;
                };
                self.use_of(e.span, id);
                self.variants.get(&variant.name).and_then(|all| {
                    all.iter()
                        .copied()
                        .find(|&v| self.symbols.symbols[v].parent == Some(id))
                })
            }
            None => self
                .variants
                .get(&variant.name)
                .and_then(|all| all.first().copied()),
        };
        if let Some(v) = found {
            self.use_of(variant.span, v);
        }
    }

    fn name(&mut self, name: &Ident) {
        let scope = &self.scope;
        let found = self
            .bound(&name.name)
            .map(|(id, _)| id)
            .or_else(|| scope.values.get(&name.name).copied())
            .or_else(|| {
                scope
                    .on
                    .and_then(|l| scope.vars.get(&l)?.get(&name.name).copied())
            })
            .or_else(|| {
                scope
                    .in_predicate
                    .then(|| scope.attributes.get(&name.name).copied())
                    .flatten()
            });
        match found {
            Some(id) => self.use_of(name.span, id),
            None if self.variants.contains_key(&name.name) => self.variant(None, name),
            None => {
                if let Some(&id) = self.scope.places.get(&name.name) {
                    self.use_of(name.span, id);
                }
            }
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Name(name) => self.name(name),
            ExprKind::Variant { enum_name, variant } => self.variant(Some(enum_name), variant),
            ExprKind::Field { base, field } => {
                if let Some(var) = self.bound(&base.name).filter(|_| self.scope.population) {
                    // A population's agent: `a.x` reads an attribute.
                    self.use_of(base.span, var.0);
                    if let Some(&a) = self.scope.attributes.get(&field.name) {
                        self.use_of(field.span, a);
                    }
                } else if let Some(l) = self.place(base) {
                    if let Some(&v) = self
                        .scope
                        .vars
                        .get(&l)
                        .and_then(|vars| vars.get(&field.name))
                    {
                        self.use_of(field.span, v);
                    }
                }
            }
            ExprKind::At { lifeline, arg } => {
                let on = self.place(lifeline);
                let outer = std::mem::replace(&mut self.scope.on, on);
                self.expr(arg);
                self.scope.on = outer;
            }
            ExprKind::Quant {
                var, group, body, ..
            } => {
                let parent = self
                    .symbols
                    .symbols
                    .iter()
                    .rposition(|s| s.parent.is_none());
                let id = self.declare(var, Kind::Bound, expr.span, parent);
                let group_id = self.scope.places.get(&group.name).copied();
                if let Some(g) = group_id {
                    self.use_of(group.span, g);
                }
                self.scope.bound.push((var.name.clone(), id, group_id));
                self.expr(body);
                self.scope.bound.pop();
            }
            ExprKind::Unary { op, op_span, .. } => self.operator(*op_span, op.row()),
            ExprKind::Temporal { op, op_span, .. } => self.operator(*op_span, op.row()),
            _ => {}
        }
        if !matches!(expr.kind, ExprKind::Quant { .. } | ExprKind::At { .. }) {
            let (lhs, rhs) = expr.operands();
            for operand in [lhs, rhs].into_iter().flatten() {
                self.expr(operand);
            }
        }
    }

    fn operator(&mut self, span: Span, row: hindsight_grammar::ops::TemporalRow) {
        self.symbols.operators.push(Operator { span, row });
    }
}
