//! The operator table: every operator's spelling, arity, direction in time,
//! whether it takes a bound `[a,b]`, and how tightly it binds.
//!
//! The lexer recognises the temporal operators by [`UnaryTemporal::from_symbol`]
//! and [`BinaryTemporal::from_symbol`], the parser's diagnostics list their
//! letters from [`operator_letters`], the checker asks [`TemporalRow::time`] and
//! [`TemporalRow::bounded`], and every printer takes its parentheses from
//! [`Level`]. Adding an operator means adding its row here, its variant in
//! [`crate::ast`], and its rule further down the pipeline (docs/architecture.md
//! lists the places).

use crate::ast::{BinOp, BinaryTemporal, Quantifier, UnaryTemporal};

/// Which way in time a temporal operator looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Time {
    /// `Y Z O H S`: the value depends on the steps so far.
    Past,
    /// `X F G U W R`: the value depends on steps still to come.
    Future,
}

/// One temporal operator's row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemporalRow {
    /// The operator as written: one uppercase letter.
    pub symbol: &'static str,
    /// Which way in time it looks.
    pub time: Time,
    /// Whether it accepts a bound `[a,b]`.
    pub bounded: bool,
    /// What it means, in one sentence (hover text in the language server).
    pub meaning: &'static str,
}

impl TemporalRow {
    const fn new(symbol: &'static str, time: Time, bounded: bool, meaning: &'static str) -> Self {
        TemporalRow {
            symbol,
            time,
            bounded,
            meaning,
        }
    }

    /// Whether the operator looks into the future.
    pub fn is_future(self) -> bool {
        self.time == Time::Future
    }
}

impl UnaryTemporal {
    /// Every unary temporal operator, past ones first.
    pub const ALL: [UnaryTemporal; 7] = [
        UnaryTemporal::Yesterday,
        UnaryTemporal::WeakYesterday,
        UnaryTemporal::Once,
        UnaryTemporal::Historically,
        UnaryTemporal::Next,
        UnaryTemporal::Eventually,
        UnaryTemporal::Globally,
    ];

    /// The operator's row of the table.
    pub const fn row(self) -> TemporalRow {
        use Time::{Future, Past};
        match self {
            UnaryTemporal::Yesterday => TemporalRow::new(
                "Y", Past, false,
                "yesterday: the operand held at the previous step (false at the first step)",
            ),
            UnaryTemporal::WeakYesterday => TemporalRow::new(
                "Z", Past, false,
                "weak yesterday: the operand held at the previous step (true at the first step)",
            ),
            UnaryTemporal::Once => TemporalRow::new(
                "O", Past, true,
                "once: the operand held at some step so far (within the bound's distance back, if bounded)",
            ),
            UnaryTemporal::Historically => TemporalRow::new(
                "H", Past, true,
                "historically: the operand held at every step so far (within the bound, if bounded)",
            ),
            UnaryTemporal::Next => TemporalRow::new(
                "X", Future, false,
                "next: the operand holds at the next step",
            ),
            UnaryTemporal::Eventually => TemporalRow::new(
                "F", Future, true,
                "eventually: the operand holds at some step from now on (within the bound, if bounded)",
            ),
            UnaryTemporal::Globally => TemporalRow::new(
                "G", Future, true,
                "always: the operand holds at every step from now on (within the bound, if bounded)",
            ),
        }
    }

    /// The operator as written: `Y`, `Z`, `O`, `H`, `X`, `F` or `G`.
    pub fn symbol(self) -> &'static str {
        self.row().symbol
    }

    /// The operator spelled `text`, if any.
    pub fn from_symbol(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.symbol() == text)
    }
}

impl BinaryTemporal {
    /// Every binary temporal operator, past ones first.
    pub const ALL: [BinaryTemporal; 4] = [
        BinaryTemporal::Since,
        BinaryTemporal::Until,
        BinaryTemporal::WeakUntil,
        BinaryTemporal::Release,
    ];

    /// The operator's row of the table.
    pub const fn row(self) -> TemporalRow {
        use Time::{Future, Past};
        match self {
            BinaryTemporal::Since => TemporalRow::new(
                "S", Past, true,
                "since: the right operand held at some step so far and the left one at every step after it",
            ),
            BinaryTemporal::Until => TemporalRow::new(
                "U", Future, true,
                "until: the right operand holds at some step from now on and the left one at every step before it",
            ),
            BinaryTemporal::WeakUntil => TemporalRow::new(
                "W", Future, false,
                "weak until: the left operand holds until the right one does, or forever",
            ),
            BinaryTemporal::Release => TemporalRow::new(
                "R", Future, false,
                "release: the right operand holds up to and including the step where the left one holds, or forever",
            ),
        }
    }

    /// The operator as written: `S`, `U`, `W` or `R`.
    pub fn symbol(self) -> &'static str {
        self.row().symbol
    }

    /// The operator spelled `text`, if any.
    pub fn from_symbol(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|op| op.symbol() == text)
    }
}

/// Every reserved word of the language, as the lexer reads them
/// (`raw_token.rs.in`; a test in `tests/lexer.rs` keeps the two equal).
pub const KEYWORDS: [&str; 38] = [
    "enum",
    "monitor",
    "system",
    "population",
    "input",
    "let",
    "property",
    "with",
    "reset",
    "time",
    "lifeline",
    "group",
    "guard",
    "at",
    "agent",
    "global",
    "where",
    "forall",
    "exists",
    "atleast",
    "atmost",
    "count",
    "in",
    "true",
    "false",
    "bool",
    "int",
    "float",
    "inf",
    "from",
    "default",
    "hold",
    "initially",
    "present",
    "steps",
    "sessions",
    "protocol",
    "goal",
];

/// Every temporal operator's row, unary first (`Y Z O H X F G S U W R`).
pub fn temporal_rows() -> impl Iterator<Item = TemporalRow> {
    let unary = UnaryTemporal::ALL.into_iter().map(UnaryTemporal::row);
    unary.chain(BinaryTemporal::ALL.into_iter().map(BinaryTemporal::row))
}

/// Every temporal operator's letter, unary first, space-separated:
/// `Y Z O H X F G S U W R`.
pub fn operator_letters() -> String {
    let unary = UnaryTemporal::ALL.map(UnaryTemporal::symbol);
    let binary = BinaryTemporal::ALL.map(BinaryTemporal::symbol);
    unary
        .iter()
        .chain(binary.iter())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Binding strength, tightest first: the language's precedence table.
///
/// An operand is printed bare when its level is at most the level its operator
/// allows in that position, and in parentheses otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Literals, names, `E::v`, `L.x`, `-t` and anything in parentheses.
    Atom,
    /// `*`
    Mul,
    /// `+ -`
    Add,
    /// `== != < <= > >=` (non-associative).
    Cmp,
    /// `! @L` and the unary temporal operators.
    Prefix,
    /// The binary temporal operators (right associative).
    Temporal,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `->` (right associative).
    Implies,
    /// `<->` (left associative).
    Iff,
    /// A quantifier: its body extends as far right as possible.
    Quantifier,
}

/// A non-temporal binary operator's row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BinaryRow {
    /// The operator as written.
    pub symbol: &'static str,
    /// How tightly it binds.
    pub level: Level,
    /// The loosest level its left operand may have without parentheses.
    pub lhs: Level,
    /// The loosest level its right operand may have without parentheses.
    pub rhs: Level,
}

impl BinOp {
    /// The operator's row of the table.
    pub const fn row(self) -> BinaryRow {
        use Level::{Add, And, Atom, Cmp, Iff, Implies, Mul, Or, Temporal};
        let (symbol, level, lhs, rhs) = match self {
            BinOp::Mul => ("*", Mul, Mul, Atom),
            BinOp::Add => ("+", Add, Add, Mul),
            BinOp::Sub => ("-", Add, Add, Mul),
            BinOp::Eq => ("==", Cmp, Add, Add),
            BinOp::Ne => ("!=", Cmp, Add, Add),
            BinOp::Lt => ("<", Cmp, Add, Add),
            BinOp::Le => ("<=", Cmp, Add, Add),
            BinOp::Gt => (">", Cmp, Add, Add),
            BinOp::Ge => (">=", Cmp, Add, Add),
            BinOp::And => ("&&", And, And, Temporal),
            BinOp::Or => ("||", Or, Or, And),
            BinOp::Implies => ("->", Implies, Or, Implies),
            BinOp::Iff => ("<->", Iff, Iff, Implies),
        };
        BinaryRow {
            symbol,
            level,
            lhs,
            rhs,
        }
    }

    /// The operator as written: `&&`, `+`, `<=`, ...
    pub fn symbol(self) -> &'static str {
        self.row().symbol
    }
}

/// The loosest levels of a binary temporal operator's operands: a prefix
/// formula on the left, another temporal formula on the right.
pub const TEMPORAL_OPERANDS: (Level, Level) = (Level::Prefix, Level::Temporal);

impl Quantifier {
    /// The quantifier's keyword: `forall`, `exists`, `atleast`, `atmost` or `count`.
    pub fn keyword(self) -> &'static str {
        match self {
            Quantifier::Forall => "forall",
            Quantifier::Exists => "exists",
            Quantifier::AtLeast(_) => "atleast",
            Quantifier::AtMost(_) => "atmost",
            Quantifier::Count => "count",
        }
    }

    /// The quantifier as written before its variable: `forall`, `atleast 3`, ...
    pub fn head(self) -> String {
        match self {
            Quantifier::AtLeast(k) | Quantifier::AtMost(k) => format!("{} {k}", self.keyword()),
            _ => self.keyword().to_string(),
        }
    }
}
