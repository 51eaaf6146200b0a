//! The checked, typed form of a spec: names resolved, `let`s inlined, enum
//! variants numbered. The checker produces it; lowering consumes it.

use hindsight_grammar::ast::{BinaryTemporal, Span, UnaryTemporal};

pub use crate::types::{ArithOp, BoolOp, Bound, BoundUnit, CmpOp, EnumDef, Quantifier, Ty, Value};

/// A checked spec file.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// Every `enum` item, in source order.
    pub enums: Vec<EnumDef>,
    /// Every `monitor` item, in source order.
    pub monitors: Vec<Monitor>,
    /// Every `system` item, in source order.
    pub systems: Vec<System>,
    /// Every `population` item, in source order.
    pub populations: Vec<Population>,
}

/// The number of agents a population monitor holds when the block declares no
/// `capacity N;`.
pub const DEFAULT_CAPACITY: usize = 1024;

/// A checked `population` block: a fixed number of agents (ids `0..n`, `n`
/// fixed for a trace and at most [`Population::capacity`]) observed together,
/// with properties quantified over groups of them.
///
/// Inside a population's formulas [`ExprKind::Input`] reads a global input
/// (indexing [`Population::globals`]) and [`ExprKind::Attribute`] an attribute
/// of the agent the innermost enclosing quantifier ranges over (in a group's
/// membership predicate: of the candidate agent).
#[derive(Clone, Debug, PartialEq)]
pub struct Population {
    /// Its name.
    pub name: String,
    /// The attributes every agent has, in declaration order.
    pub attributes: Vec<Input>,
    /// The global inputs, in declaration order.
    pub globals: Vec<Input>,
    /// The global that is the steps' time (microseconds), if declared.
    pub time: Option<usize>,
    /// Its groups in declaration order (the built-in `agents` is not listed).
    pub groups: Vec<Group>,
    /// Its properties in declaration order.
    pub properties: Vec<Property>,
    /// The most agents a monitor of it holds (`capacity N;`, else [`DEFAULT_CAPACITY`]).
    pub capacity: usize,
    /// The whole block.
    pub span: Span,
}

/// `group G = base where pred`: the agents for which `member` holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Its name.
    pub name: String,
    /// The membership predicate, `bool` and past-time, over the candidate's
    /// attributes ([`ExprKind::Attribute`]) and the globals; a group built on
    /// another group conjoins that group's predicate first.
    pub member: Expr,
    /// The declaration.
    pub span: Span,
}

/// A checked `system` block (Causal Past Logic): lifelines exchanging messages,
/// and guards each lifeline evaluates over its causal past.
#[derive(Clone, Debug, PartialEq)]
pub struct System {
    /// Its name.
    pub name: String,
    /// Its lifelines in declaration order; [`ExprKind::Remote`] and
    /// [`ExprKind::At`] index this list.
    pub lifelines: Vec<Lifeline>,
    /// Its guards in declaration order.
    pub guards: Vec<Guard>,
    /// The events' time, if declared: the last variable of every lifeline.
    pub time: Option<String>,
    /// Where a `let` was named in its guards (see [`Monitor::let_names`]).
    pub let_names: LetNames,
    /// Its protocols in declaration order; [`ProtoKind::Ref`] indexes this
    /// list.
    pub protocols: Vec<Protocol>,
    /// The whole block.
    pub span: Span,
}

/// `protocol name [sync|async] = τ;` of a system, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Protocol {
    /// Its name.
    pub name: String,
    /// How its events come from messages.
    pub model: crate::ir::protocol::Communication,
    /// The trace expression.
    pub body: ProtoExpr,
    /// The declaration.
    pub span: Span,
}

/// A checked trace expression: lifelines resolved, names resolved to
/// protocols (or `skip`), every recursion guarded.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtoExpr {
    /// What it is.
    pub kind: ProtoKind,
    /// Where it was written.
    pub span: Span,
}

/// The shapes of a checked trace expression (docs/language.md, section 4e).
#[derive(Clone, Debug, PartialEq)]
pub enum ProtoKind {
    /// `skip`: the empty trace.
    Empty,
    /// One event of this type.
    Event(crate::ir::protocol::EventType),
    /// Protocol `k` of the system.
    Ref(usize),
    /// `τ1 . τ2`.
    Seq(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 + τ2`.
    Choice(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 & τ2`.
    Inter(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 ||| τ2`.
    Shuffle(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `{ϑ, ...} >> τ`: events of these types follow τ, others pass.
    Filter(Vec<crate::ir::protocol::EventType>, Box<ProtoExpr>),
}

/// Per protocol: whether it accepts the empty trace (the paper's `ε(τ)`,
/// the least fixpoint over the names protocols refer to).
pub fn nullable_protocols(protocols: &[Protocol]) -> Vec<bool> {
    let mut nullable = vec![false; protocols.len()];
    loop {
        let next: Vec<bool> = protocols
            .iter()
            .map(|p| p.body.nullable(&nullable))
            .collect();
        if next == nullable {
            return nullable;
        }
        nullable = next;
    }
}

impl ProtoExpr {
    /// Whether it accepts the empty trace, given each protocol's.
    pub fn nullable(&self, protocols: &[bool]) -> bool {
        match &self.kind {
            ProtoKind::Empty => true,
            ProtoKind::Event(_) => false,
            ProtoKind::Ref(k) => protocols.get(*k).copied().unwrap_or(false),
            ProtoKind::Seq(a, b) | ProtoKind::Inter(a, b) | ProtoKind::Shuffle(a, b) => {
                a.nullable(protocols) && b.nullable(protocols)
            }
            ProtoKind::Choice(a, b) => a.nullable(protocols) || b.nullable(protocols),
            ProtoKind::Filter(_, body) => body.nullable(protocols),
        }
    }

    /// The direct sub-expressions.
    pub fn children(&self) -> Vec<&ProtoExpr> {
        match &self.kind {
            ProtoKind::Empty | ProtoKind::Event(_) | ProtoKind::Ref(_) => Vec::new(),
            ProtoKind::Seq(a, b)
            | ProtoKind::Choice(a, b)
            | ProtoKind::Inter(a, b)
            | ProtoKind::Shuffle(a, b) => vec![a, b],
            ProtoKind::Filter(_, body) => vec![body],
        }
    }
}

/// One lifeline of a system: a participant with a store of typed variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Lifeline {
    /// Its name.
    pub name: String,
    /// Its store variables in declaration order. Inside a formula evaluated on
    /// this lifeline, [`ExprKind::Input`] indexes this list.
    pub vars: Vec<Input>,
    /// The declaration.
    pub span: Span,
}

/// `guard NAME at OWNER = φ`: a past-time formula the owner evaluates at its events.
#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    /// Its name.
    pub name: String,
    /// The index of the owner lifeline in [`System::lifelines`].
    pub owner: usize,
    /// Its formula, of type `bool`, with `let`s inlined and group quantifiers
    /// expanded over the group's members.
    pub formula: Expr,
    /// The declaration.
    pub span: Span,
}

/// A checked `monitor` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Monitor {
    /// Its name.
    pub name: String,
    /// Its inputs in declaration order; [`ExprKind::Input`] indexes this list.
    pub inputs: Vec<Input>,
    /// Its properties in declaration order.
    pub properties: Vec<Property>,
    /// Its goals in declaration order (`goal NAME = COND;`).
    pub goals: Vec<Definition>,
    /// Its past-time `let`s in declaration order (the features a learned
    /// model may split on; the properties have them inlined).
    pub lets: Vec<Definition>,
    /// How trace readers read its steps.
    pub reading: crate::ir::Reading,
    /// Where a `let` was named in its formulas, by span: the root of the
    /// inlined copy at that span prints as the name (explanations speak the
    /// user's words).
    pub let_names: LetNames,
    /// The whole block.
    pub span: Span,
}

/// The spans where `let`s were named, each with the name, sorted by span.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LetNames(Vec<(Span, String)>);

impl LetNames {
    /// The names used at `uses` (in any order).
    pub fn new(mut uses: Vec<(Span, String)>) -> Self {
        uses.sort_by_key(|(span, _)| (span.start, span.end));
        uses.dedup();
        LetNames(uses)
    }

    /// The name of the `let` whose inlined copy is rooted at `span`, if any.
    pub fn at(&self, span: Span) -> Option<&str> {
        let at = self
            .0
            .binary_search_by_key(&(span.start, span.end), |(s, _)| (s.start, s.end))
            .ok()?;
        self.0.get(at).map(|(_, name)| name.as_str())
    }
}

/// One declared input of a monitor.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// The declaration.
    pub span: Span,
}

/// A named past-time expression of a monitor: a goal or a `let`.
#[derive(Clone, Debug, PartialEq)]
pub struct Definition {
    /// Its name.
    pub name: String,
    /// Its value, with every `let` inlined (`bool` for a goal).
    pub expr: Expr,
    /// The declaration.
    pub span: Span,
}

/// One property of a monitor.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// Its formula, of type `bool`, with every `let` inlined.
    pub formula: Expr,
    /// Whether `with reset` was given.
    pub reset: bool,
    /// The declaration.
    pub span: Span,
}

/// A typed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Ty,
    /// Where it was written (for an inlined `let`, the use site of the name).
    pub span: Span,
}

/// The shapes of a typed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal or an enum variant.
    Const(Value),
    /// The current value of input `i` of the monitor; in a system, of variable `i`
    /// of the lifeline the enclosing formula is evaluated on (its owner, or `L`
    /// inside `@L`). In a system it may be undefined (never assigned): an atom
    /// reading an undefined value is false.
    Input(usize),
    /// `L.x` in a system: variable `var` of lifeline `lifeline` at the latest
    /// event of `lifeline` visible here (undefined if there is none).
    Remote {
        /// The lifeline read (index in [`System::lifelines`]).
        lifeline: usize,
        /// The variable (index in that lifeline's `vars`).
        var: usize,
    },
    /// `@L φ` in a system: φ at this event if it is on `L`, else at the latest
    /// `L`-event visible here; false if there is none.
    At {
        /// The lifeline (index in [`System::lifelines`]).
        lifeline: usize,
        /// The formula, evaluated on `lifeline`.
        arg: Box<Expr>,
    },
    /// The number of the formulas that hold (an `int`): an expanded `count x in G: φ`;
    /// `atleast k` / `atmost k` expand to comparisons of a count with `k`.
    Count(Vec<Expr>),
    /// In a population: attribute `i` of the agent the innermost enclosing
    /// quantifier ranges over (in a group predicate: of the candidate agent).
    Attribute(usize),
    /// In a population: `forall/exists/atleast k/atmost k a in G: φ` (`bool`)
    /// or `count a in G: φ` (`int`); the body reads the agent through
    /// [`ExprKind::Attribute`]. Membership is evaluated at the step where the
    /// quantifier is evaluated.
    Quant {
        /// Which quantifier.
        quantifier: Quantifier,
        /// The group (index in [`Population::groups`]); `None` for all agents.
        group: Option<usize>,
        /// The body, evaluated on each member's own trace (plus the globals).
        body: Box<Expr>,
    },
    /// `!φ`
    Not(Box<Expr>),
    /// `-t` on int (wrapping) or float.
    Neg(Box<Expr>),
    /// `φ && ψ` and the other connectives.
    Bool(BoolOp, Box<Expr>, Box<Expr>),
    /// `t1 < t2` and the other comparisons; both sides have the same type.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `t1 + t2` and the other arithmetic; both sides and the result have the same type.
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// `Y φ`, `O[a,b] φ`, `F φ`, ...
    Unary(UnaryTemporal, Option<Bound>, Box<Expr>),
    /// `φ S ψ`, `φ U[a,b] ψ`, ...
    Binary(BinaryTemporal, Option<Bound>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether the expression contains a future operator (`X F G U W R`).
    pub fn is_future(&self) -> bool {
        match &self.kind {
            ExprKind::Const(_)
            | ExprKind::Input(_)
            | ExprKind::Remote { .. }
            | ExprKind::Attribute(_) => false,
            ExprKind::Not(a)
            | ExprKind::Neg(a)
            | ExprKind::At { arg: a, .. }
            | ExprKind::Quant { body: a, .. } => a.is_future(),
            ExprKind::Count(items) => items.iter().any(Expr::is_future),
            ExprKind::Bool(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Arith(_, a, b) => {
                a.is_future() || b.is_future()
            }
            ExprKind::Unary(op, _, a) => op.row().is_future() || a.is_future(),
            ExprKind::Binary(op, _, a, b) => op.row().is_future() || a.is_future() || b.is_future(),
        }
    }
}
