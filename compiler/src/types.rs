//! The language's vocabulary, shared by the checked spec ([`crate::hir`]) and
//! the program IR ([`crate::ir`]): types, values, operators and enums.

use hindsight_grammar::ast::{BinOp, Span};
use std::fmt;

pub use hindsight_grammar::ast::Quantifier;
pub use hindsight_runtime::Value;

/// A type of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `float`
    Float,
    /// A declared enum: its index in [`crate::hir::Spec::enums`] and [`crate::ir::Program::enums`].
    Enum(usize),
}

impl Ty {
    /// Whether `+ - *` and `< <= > >=` apply.
    pub fn is_numeric(self) -> bool {
        matches!(self, Ty::Int | Ty::Float)
    }
}

/// A declared enum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDef {
    /// Its name.
    pub name: String,
    /// Its variants; a [`Value::Enum`] is an index into this list.
    pub variants: Vec<String>,
    /// The declaration.
    pub span: Span,
}

/// A bound `[lo, hi]`, `hi == None` for `inf`; the checker guarantees `lo <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    /// Lower bound.
    pub lo: u64,
    /// Upper bound, `None` for `inf`.
    pub hi: Option<u64>,
    /// Steps, or microseconds between timestamps.
    pub unit: BoundUnit,
}

pub use hindsight_grammar::ast::BoundUnit;

/// Boolean connectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    /// `&&`
    And,
    /// `||`
    Or,
    /// `->`
    Implies,
    /// `<->`
    Iff,
}

/// Comparisons. `Eq`/`Ne` apply to every type, the orderings to int and float.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
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
}

/// Arithmetic on int (wrapping) or float.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
}

impl Bound {
    /// The step bound `[lo, hi]` (`hi == None` for `inf`).
    pub const fn steps(lo: u64, hi: Option<u64>) -> Bound {
        Bound {
            lo,
            hi,
            unit: BoundUnit::Steps,
        }
    }

    /// The bound as written (without a span), for printing.
    pub fn source(self) -> hindsight_grammar::ast::Bound {
        hindsight_grammar::ast::Bound {
            lo: self.lo,
            hi: self.hi,
            unit: self.unit,
            span: Span::default(),
        }
    }
}

impl BoolOp {
    /// The operator as written, whose row of the operator table gives its
    /// spelling and precedence.
    pub fn source(self) -> BinOp {
        match self {
            BoolOp::And => BinOp::And,
            BoolOp::Or => BinOp::Or,
            BoolOp::Implies => BinOp::Implies,
            BoolOp::Iff => BinOp::Iff,
        }
    }
}

impl CmpOp {
    /// The operator as written (see [`BoolOp::source`]).
    pub fn source(self) -> BinOp {
        match self {
            CmpOp::Eq => BinOp::Eq,
            CmpOp::Ne => BinOp::Ne,
            CmpOp::Lt => BinOp::Lt,
            CmpOp::Le => BinOp::Le,
            CmpOp::Gt => BinOp::Gt,
            CmpOp::Ge => BinOp::Ge,
        }
    }
}

impl ArithOp {
    /// The operator as written (see [`BoolOp::source`]).
    pub fn source(self) -> BinOp {
        match self {
            ArithOp::Add => BinOp::Add,
            ArithOp::Sub => BinOp::Sub,
            ArithOp::Mul => BinOp::Mul,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Float => f.write_str("float"),
            Ty::Enum(i) => write!(f, "enum#{i}"),
        }
    }
}

/// A value as the spec writes it (enums by variant name).
pub use crate::surface::value_text;
