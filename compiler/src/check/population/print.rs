//! Source expressions back to surface syntax with the fewest parentheses the
//! precedence table allows, for the rewritings E0410 suggests.

use crate::check::ops;
use crate::surface::quantifier_text;
use hindsight_grammar::ast::{BinOp, Bound, Expr, ExprKind};

/// Binding strength, tightest first, per the language's precedence table.
const ATOM: u8 = 0;
const MUL: u8 = 1;
const ADD: u8 = 2;
const CMP: u8 = 3;
const PREFIX: u8 = 4;
const TEMPORAL: u8 = 5;
const AND: u8 = 6;
const OR: u8 = 7;
const IMPLIES: u8 = 8;
const IFF: u8 = 9;
/// The loosest level: a whole formula (a quantifier).
pub(super) const ANY: u8 = 10;

/// How to print bare names.
pub(super) struct Printer<'p> {
    /// Bare names in this list (attributes of a group's predicate) are
    /// printed as `var.name`.
    pub qualify: Option<(&'p str, &'p [&'p str])>,
}

impl Printer<'_> {
    /// `e` as an operand that binds at least as tightly as `max`.
    pub(super) fn at(&self, e: &Expr, max: u8) -> String {
        let (text, level) = self.printed(e);
        if level > max {
            format!("({text})")
        } else {
            text
        }
    }

    /// `e` and its precedence level.
    pub(super) fn printed(&self, e: &Expr) -> (String, u8) {
        match &e.kind {
            ExprKind::Bool(b) => (b.to_string(), ATOM),
            ExprKind::Int(n) => (n.to_string(), ATOM),
            ExprKind::Float(x) => (format!("{x:?}"), ATOM),
            ExprKind::Name(name) => match self.qualify {
                Some((var, attributes)) if attributes.contains(&name.name.as_str()) => {
                    (format!("{var}.{name}"), ATOM)
                }
                _ => (name.name.clone(), ATOM),
            },
            ExprKind::Variant { enum_name, variant } => (format!("{enum_name}::{variant}"), ATOM),
            ExprKind::Field { base, field } => (format!("{base}.{field}"), ATOM),
            ExprKind::Neg(arg) => (format!("-{}", self.at(arg, ATOM)), ATOM),
            ExprKind::Not(arg) => (format!("!{}", self.at(arg, PREFIX)), PREFIX),
            ExprKind::At { lifeline, arg } => {
                (format!("@{lifeline} {}", self.at(arg, PREFIX)), PREFIX)
            }
            ExprKind::Unary { op, bound, arg, .. } => (
                format!(
                    "{}{} {}",
                    op.symbol(),
                    bound_text(*bound),
                    self.at(arg, PREFIX)
                ),
                PREFIX,
            ),
            ExprKind::Temporal {
                op,
                bound,
                lhs,
                rhs,
                ..
            } => (
                format!(
                    "{} {}{} {}",
                    self.at(lhs, PREFIX),
                    op.symbol(),
                    bound_text(*bound),
                    self.at(rhs, TEMPORAL)
                ),
                TEMPORAL,
            ),
            ExprKind::Binary { op, lhs, rhs, .. } => {
                let (level, left, right) = match op {
                    BinOp::Mul => (MUL, MUL, ATOM),
                    BinOp::Add | BinOp::Sub => (ADD, ADD, MUL),
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        (CMP, ADD, ADD)
                    }
                    BinOp::And => (AND, AND, TEMPORAL),
                    BinOp::Or => (OR, OR, AND),
                    BinOp::Implies => (IMPLIES, OR, IMPLIES),
                    BinOp::Iff => (IFF, IFF, IMPLIES),
                };
                let text = format!(
                    "{} {} {}",
                    self.at(lhs, left),
                    ops::binary(*op),
                    self.at(rhs, right)
                );
                (text, level)
            }
            ExprKind::Quant {
                quantifier,
                var,
                group,
                body,
            } => (
                format!(
                    "{} {var} in {group}: {}",
                    quantifier_text(*quantifier),
                    self.at(body, ANY)
                ),
                ANY,
            ),
        }
    }
}

/// `[a,b]`, or nothing.
pub(super) fn bound_text(bound: Option<Bound>) -> String {
    match bound {
        None => String::new(),
        Some(b) => match b.hi {
            Some(hi) => format!("[{},{hi}]", b.lo),
            None => format!("[{},inf]", b.lo),
        },
    }
}

/// Levels for callers composing formulas: `p -> φ` and `p && φ` operands.
pub(super) mod levels {
    /// Left operand of `->`.
    pub(crate) const IMPLIES_LHS: u8 = super::OR;
    /// Right operand of `->`.
    pub(crate) const IMPLIES_RHS: u8 = super::IMPLIES;
    /// Left operand of `&&`.
    pub(crate) const AND_LHS: u8 = super::AND;
    /// Right operand of `&&`.
    pub(crate) const AND_RHS: u8 = super::TEMPORAL;
    /// Operand of a prefix operator.
    pub(crate) const PREFIX: u8 = super::PREFIX;
    /// Whole `p && φ`.
    pub(crate) const AND: u8 = super::AND;
}
