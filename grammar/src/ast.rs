//! The abstract syntax tree. Every node carries the byte span of its source text.

use std::fmt;

/// A half-open byte range `start..end` into the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the node.
    pub start: usize,
    /// One past the last byte of the node.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The span as a `Range`, as codespan-reporting labels want it.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// A name as written, with its span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A whole spec file: a sequence of items.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The items in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `enum Name { a, b, c }`
    Enum(EnumDecl),
    /// `monitor name { ... }`: one sequential event stream.
    Monitor(MonitorDecl),
    /// `system name { ... }`: lifelines exchanging messages (Causal Past Logic).
    System(SystemDecl),
    /// `population name { ... }`: many agents observed together.
    Population(PopulationDecl),
}

impl Item {
    /// The item's name.
    pub fn name(&self) -> &Ident {
        match self {
            Item::Enum(d) => &d.name,
            Item::Monitor(d) => &d.name,
            Item::System(d) => &d.name,
            Item::Population(d) => &d.name,
        }
    }

    /// The span of the whole item.
    pub fn span(&self) -> Span {
        match self {
            Item::Enum(d) => d.span,
            Item::Monitor(d) => d.span,
            Item::System(d) => d.span,
            Item::Population(d) => d.span,
        }
    }
}

/// `enum Status { pending, passed, failed }`
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    /// The enum's name.
    pub name: Ident,
    /// Its variants in declaration order.
    pub variants: Vec<Ident>,
    /// The whole declaration.
    pub span: Span,
}

/// A type as written: `bool`, `int`, `float` or an enum's name.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    /// `bool`
    Bool(Span),
    /// `int` (i64)
    Int(Span),
    /// `float` (f64)
    Float(Span),
    /// The name of a declared enum.
    Named(Ident),
}

impl TypeExpr {
    /// Where the type was written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Bool(s) | TypeExpr::Int(s) | TypeExpr::Float(s) => *s,
            TypeExpr::Named(i) => i.span,
        }
    }
}

/// `name: type`, as in lifeline variables, agent attributes and globals.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The field's name.
    pub name: Ident,
    /// Its declared type.
    pub ty: TypeExpr,
    /// `name: type` as a whole.
    pub span: Span,
}

/// `input name: type [from ...] [default ... | hold ...];`
#[derive(Clone, Debug, PartialEq)]
pub struct InputDecl {
    /// `name: type`; its span covers the whole declaration.
    pub field: Field,
    /// Where a trace line gives the value (`None`: the key `name`).
    pub from: Option<FromClause>,
    /// What a line without the value gives (`None`: it is an error).
    pub absent: Option<AbsentClause>,
}

/// A string literal as written, unescaped, with its span (quotes included).
#[derive(Clone, Debug, PartialEq)]
pub struct StrLit {
    /// The string, escapes decoded.
    pub value: String,
    /// Where it was written.
    pub span: Span,
}

/// `from "/json/pointer"` or `from present("/json/pointer")`.
#[derive(Clone, Debug, PartialEq)]
pub enum FromClause {
    /// The value at a JSON Pointer.
    Pointer(StrLit),
    /// Whether a JSON Pointer names a value (a `bool` input).
    Present(StrLit),
}

/// What a line without an input's value gives it.
#[derive(Clone, Debug, PartialEq)]
pub enum AbsentClause {
    /// `default value`
    Default(Literal, Span),
    /// `hold` or `hold initially value`
    Hold(Option<Literal>, Span),
}

/// A literal value in a declaration: a default, an initial value, a value a
/// step filter compares with.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `true` or `false`.
    Bool(bool, Span),
    /// An integer, sign included.
    Int(i64, Span),
    /// A float, sign included.
    Float(f64, Span),
    /// A string literal.
    Str(StrLit),
    /// An enum variant, bare or qualified (`passed`, `Status::passed`).
    Variant(Option<Ident>, Ident),
}

impl Literal {
    /// Where the literal was written.
    pub fn span(&self) -> Span {
        match self {
            Literal::Bool(_, s) | Literal::Int(_, s) | Literal::Float(_, s) => *s,
            Literal::Str(s) => s.span,
            Literal::Variant(Some(e), v) => e.span.to(v.span),
            Literal::Variant(None, v) => v.span,
        }
    }
}

/// `time name [from "pointer"];`: the step's time, read as an `int` input of
/// microseconds (`field.ty` is `int`, spanning the `time` keyword).
#[derive(Clone, Debug, PartialEq)]
pub struct TimeDecl {
    /// `name`, typed `int`; its span covers the whole declaration.
    pub field: Field,
    /// Where a trace line gives the time (`None`: the key `name`).
    pub from: Option<StrLit>,
}

/// `steps where filter;`: which trace lines are steps.
#[derive(Clone, Debug, PartialEq)]
pub struct StepsDecl {
    /// The filter in postfix order: operands before their operator, so a
    /// filter of any nesting is a flat list.
    pub filter: Vec<FilterItem>,
    /// The whole declaration.
    pub span: Span,
}

/// One item of a step filter in postfix order.
#[derive(Clone, Debug, PartialEq)]
pub enum FilterItem {
    /// `"/pointer" == literal`, or `!=` (`equal` false).
    Compare {
        /// The field compared.
        pointer: StrLit,
        /// `true` for `==`, `false` for `!=`.
        equal: bool,
        /// The value compared with.
        value: Literal,
    },
    /// `present("/pointer")`
    Present(StrLit),
    /// `!` of the item before.
    Not,
    /// `&&` of the two items before.
    And,
    /// `||` of the two items before.
    Or,
}

/// `let name = expr;` — a named, non-recursive sub-formula or term.
#[derive(Clone, Debug, PartialEq)]
pub struct LetDecl {
    /// The name being defined.
    pub name: Ident,
    /// Its definition.
    pub value: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// `goal name = expr;` — a past-time condition on a monitor's state that
/// learned models (`hindsight learn`) compute the probability of reaching.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalDecl {
    /// The goal's name.
    pub name: Ident,
    /// Its condition.
    pub value: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// `property name = expr [with reset];`
#[derive(Clone, Debug, PartialEq)]
pub struct PropertyDecl {
    /// The property's name (becomes a verdict field).
    pub name: Ident,
    /// Its formula.
    pub formula: Expr,
    /// The span of `with reset`, if present.
    pub reset: Option<Span>,
    /// The whole declaration.
    pub span: Span,
}

/// `monitor name { input ...; let ...; property ...; }`
#[derive(Clone, Debug, PartialEq)]
pub struct MonitorDecl {
    /// The monitor's name.
    pub name: Ident,
    /// Its members in source order.
    pub members: Vec<MonitorMember>,
    /// The whole item.
    pub span: Span,
}

/// A member of a `monitor` block.
#[derive(Clone, Debug, PartialEq)]
pub enum MonitorMember {
    /// `input name: type [from ...] [default ... | hold ...];`
    Input(InputDecl),
    /// `time name [from "pointer"];`
    Time(TimeDecl),
    /// `steps where filter;`
    Steps(StepsDecl),
    /// `sessions end where filter;`: the lines that end their session in
    /// a keyed log (`--key`).
    SessionsEnd(StepsDecl),
    /// `let name = expr;`
    Let(LetDecl),
    /// `goal name = expr;`
    Goal(GoalDecl),
    /// `property name = expr [with reset];`
    Property(PropertyDecl),
}

/// `system name { lifeline ...; group ...; guard ...; }`
#[derive(Clone, Debug, PartialEq)]
pub struct SystemDecl {
    /// The system's name.
    pub name: Ident,
    /// Its members in source order.
    pub members: Vec<SystemMember>,
    /// The whole item.
    pub span: Span,
}

/// A member of a `system` block.
#[derive(Clone, Debug, PartialEq)]
pub enum SystemMember {
    /// `lifeline Name { x: int, status: Status }`
    Lifeline {
        /// The lifeline's name.
        name: Ident,
        /// Its store variables.
        vars: Vec<Field>,
        /// The whole declaration.
        span: Span,
    },
    /// `group Name = { A, B };`
    Group {
        /// The group's name.
        name: Ident,
        /// Its member lifelines.
        members: Vec<Ident>,
        /// The whole declaration.
        span: Span,
    },
    /// `let name = expr;`
    Let(LetDecl),
    /// `guard name at Lifeline = expr;`
    Guard {
        /// The guard's name.
        name: Ident,
        /// The lifeline that evaluates it.
        at: Ident,
        /// Its formula.
        formula: Expr,
        /// The whole declaration.
        span: Span,
    },
    /// `time name;`: every lifeline's events carry their time as the
    /// store variable `name`.
    Time(TimeDecl),
    /// `protocol name [sync|async] = τ;`: an interaction protocol over the
    /// lifelines.
    Protocol(ProtocolDecl),
}

/// `protocol name [sync|async] = τ;` (docs/language.md, section 4e).
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolDecl {
    /// The protocol's name.
    pub name: Ident,
    /// `sync` or `async` as written (synchronous when absent); any other
    /// word is reported by the checker.
    pub model: Option<Ident>,
    /// The trace expression.
    pub body: ProtoExpr,
    /// The whole declaration.
    pub span: Span,
}

/// A trace expression of a protocol.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtoExpr {
    /// What it is.
    pub kind: ProtoKind,
    /// Where it was written.
    pub span: Span,
}

/// The shapes of a trace expression, tightest first: event types, names
/// (`skip` is the empty protocol), `.` (concatenation), `&`
/// (intersection), `+` (choice), `|||` (shuffle); `{...} >> τ` filters.
#[derive(Clone, Debug, PartialEq)]
pub enum ProtoKind {
    /// One event type.
    Event(EventTypeDecl),
    /// A protocol of the system by name (recursion), or `skip`.
    Name(Ident),
    /// `τ1 . τ2`: the traces of τ1 followed by those of τ2.
    Seq(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 + τ2`: the traces of either.
    Choice(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 & τ2`: the traces of both.
    Inter(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `τ1 ||| τ2`: the interleavings of a trace of each.
    Shuffle(Box<ProtoExpr>, Box<ProtoExpr>),
    /// `{ϑ1, ϑ2} >> τ`: events of the listed types follow τ, others pass.
    Filter(Vec<EventTypeDecl>, Box<ProtoExpr>),
}

/// An event type as written: `A -> B: m` (an interaction), `send A -> B:
/// m` or `receive A -> B: m`.
#[derive(Clone, Debug, PartialEq)]
pub struct EventTypeDecl {
    /// `send` or `receive` as written, if any (checked against the
    /// protocol's communication model).
    pub direction: Option<Ident>,
    /// The sender.
    pub from: Ident,
    /// The receiver.
    pub to: Ident,
    /// The message's label.
    pub label: Ident,
    /// Where it was written.
    pub span: Span,
}

/// `population name { agent {...} global {...} group ...; property ...; }`
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationDecl {
    /// The population's name.
    pub name: Ident,
    /// Its members in source order.
    pub members: Vec<PopulationMember>,
    /// The whole item.
    pub span: Span,
}

/// A member of a `population` block.
#[derive(Clone, Debug, PartialEq)]
pub enum PopulationMember {
    /// `agent { infected: bool, age: int }` (the span covers the whole declaration)
    Agent {
        /// Every agent's attributes.
        fields: Vec<Field>,
        /// The whole declaration.
        span: Span,
    },
    /// `global { day: int }`
    Global {
        /// The global inputs.
        fields: Vec<Field>,
        /// The whole declaration.
        span: Span,
    },
    /// `group name = base where pred;` with `base` the built-in `agents` or an
    /// earlier group; attributes are written bare in `pred`.
    Group {
        /// The group's name.
        name: Ident,
        /// The group it filters (`agents` or an earlier group).
        base: Ident,
        /// The membership predicate over one agent's attributes.
        pred: Expr,
        /// The whole declaration.
        span: Span,
    },
    /// `let name = expr;`
    Let(LetDecl),
    /// `property name = expr [with reset];`
    Property(PropertyDecl),
    /// `time name;`: the global `name` is each step's time.
    Time(TimeDecl),
    /// `capacity N;`: the most agents a monitor of the population holds.
    /// (`capacity` is not a keyword: the parser reads `name N;` and reports any
    /// other name.)
    Capacity {
        /// `N` as written (never negative: `-` is a separate token).
        value: i64,
        /// Where `N` is written.
        value_span: Span,
        /// The whole declaration.
        span: Span,
    },
}

/// An expression (formula or term) with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it was written (parentheses included when present).
    pub span: Span,
}

/// The direct operands of an expression kind, left first: the one match
/// behind [`Expr::operands`] and [`Expr::operands_mut`], which differ only in
/// how `kind` is borrowed.
macro_rules! operands_of {
    ($kind:expr) => {
        match $kind {
            ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Name(_)
            | ExprKind::Variant { .. }
            | ExprKind::Field { .. } => (None, None),
            ExprKind::Not(arg)
            | ExprKind::Neg(arg)
            | ExprKind::Unary { arg, .. }
            | ExprKind::At { arg, .. }
            | ExprKind::Quant { body: arg, .. } => (Some(arg), None),
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Temporal { lhs, rhs, .. } => {
                (Some(lhs), Some(rhs))
            }
        }
    };
}

impl Expr {
    /// An expression made by a tool rather than read from a file (no span).
    pub fn synthetic(kind: ExprKind) -> Self {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    /// The direct operands, left first (at most two).
    pub fn operands(&self) -> (Option<&Expr>, Option<&Expr>) {
        operands_of!(&self.kind)
    }

    /// The direct operands, left first, for rewriting in place.
    pub fn operands_mut(&mut self) -> (Option<&mut Expr>, Option<&mut Expr>) {
        operands_of!(&mut self.kind)
    }
}

/// An inclusive bound `[lo, hi]`; `hi == None` means `inf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Lower bound.
    pub lo: u64,
    /// Upper bound, `None` for `inf`.
    pub hi: Option<u64>,
    /// What the ends count.
    pub unit: BoundUnit,
    /// The span of `[lo, hi]`.
    pub span: Span,
}

/// What the ends of a [`Bound`] count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoundUnit {
    /// Steps: `O[2,5]`.
    Steps,
    /// Time between the steps' timestamps, in microseconds: `O[0,30s]`.
    Time,
}

/// Microseconds per unit of a duration literal, for each unit the language
/// accepts (`30s`, `5min`), smallest first.
pub const TIME_UNITS: [(&str, u64); 5] = [
    ("ms", 1_000),
    ("s", 1_000_000),
    ("min", 60_000_000),
    ("h", 3_600_000_000),
    ("d", 86_400_000_000),
];

/// `micros` as a duration literal in the largest unit that divides it
/// (`30000000` is `30s`); `0` is `0`.
pub fn duration_text(micros: u64) -> String {
    if micros == 0 {
        return "0".to_string();
    }
    TIME_UNITS
        .iter()
        .rev()
        .find(|(_, per)| micros.is_multiple_of(*per))
        .map_or_else(
            || format!("{}ms", micros as f64 / 1000.0),
            |(unit, per)| format!("{}{unit}", micros / per),
        )
}

/// Unary temporal operators (prefix, optionally bounded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryTemporal {
    /// `Y` previous (false at the first step).
    Yesterday,
    /// `Z` weak previous (true at the first step).
    WeakYesterday,
    /// `O` once.
    Once,
    /// `H` historically.
    Historically,
    /// `X` next.
    Next,
    /// `F` eventually.
    Eventually,
    /// `G` always.
    Globally,
}

/// Binary temporal operators (infix, right associative, optionally bounded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryTemporal {
    /// `S` since.
    Since,
    /// `U` until.
    Until,
    /// `W` weak until.
    WeakUntil,
    /// `R` release.
    Release,
}

/// Non-temporal binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `&&`
    And,
    /// `||`
    Or,
    /// `->`
    Implies,
    /// `<->`
    Iff,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
}

/// Quantifier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `forall x in G: φ`
    Forall,
    /// `exists x in G: φ`
    Exists,
    /// `atleast k x in G: φ`
    AtLeast(u64),
    /// `atmost k x in G: φ`
    AtMost(u64),
    /// `count x in G: φ` (an int term)
    Count,
}

/// The shapes an expression can take.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `true` / `false`
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A bare name: an input, variable, `let`, or enum variant.
    Name(Ident),
    /// `Enum::variant`
    Variant {
        /// The enum's name.
        enum_name: Ident,
        /// The variant's name.
        variant: Ident,
    },
    /// `L.x` (lifeline variable) or `a.x` (agent attribute).
    Field {
        /// The lifeline or agent variable.
        base: Ident,
        /// The variable or attribute.
        field: Ident,
    },
    /// `!φ`
    Not(Box<Expr>),
    /// `-t`
    Neg(Box<Expr>),
    /// `φ op ψ` for Boolean, comparison and arithmetic operators.
    Binary {
        /// The operator.
        op: BinOp,
        /// Span of the operator token.
        op_span: Span,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `Y φ`, `O[a,b] φ`, `G φ`, ...
    Unary {
        /// The operator.
        op: UnaryTemporal,
        /// Span of the operator token.
        op_span: Span,
        /// Optional bound.
        bound: Option<Bound>,
        /// The operand.
        arg: Box<Expr>,
    },
    /// `φ S ψ`, `φ U[a,b] ψ`, ...
    Temporal {
        /// The operator.
        op: BinaryTemporal,
        /// Span of the operator token.
        op_span: Span,
        /// Optional bound.
        bound: Option<Bound>,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `@L φ`
    At {
        /// The lifeline.
        lifeline: Ident,
        /// The formula evaluated at its latest visible event.
        arg: Box<Expr>,
    },
    /// `forall x in G: φ` and the other quantifiers, including `count`.
    Quant {
        /// Which quantifier.
        quantifier: Quantifier,
        /// The bound variable.
        var: Ident,
        /// The group quantified over.
        group: Ident,
        /// The body.
        body: Box<Expr>,
    },
}
