//! The language's vocabulary, shared by the checked spec ([`crate::hir`]) and
//! the program IR ([`crate::ir`]): types, values, operators and enums.

use hindsight_grammar::ast::Span;
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

/// A step bound `[lo, hi]`, `hi == None` for `inf`; the checker guarantees `lo <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bound {
    /// Lower bound.
    pub lo: u64,
    /// Upper bound, `None` for `inf`.
    pub hi: Option<u64>,
}

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
