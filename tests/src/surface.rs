//! HIR expressions written back as surface syntax with the fewest parentheses
//! the language's precedence table allows: the operators, shared by the
//! monitor generator ([`crate::gen::print`]) and the CPL printer
//! ([`crate::cpl::print`]), which each write their own leaves (constants,
//! variables, system constructs) through [`Leaves`].
//!
//! This is the oracle's own printer, written from the precedence table of the
//! language, not from the parser: a parser that disagrees with the table reads
//! a different formula back, which the differential tests catch.

use hindsight_compiler::ast::{BinaryTemporal, UnaryTemporal};
use hindsight_compiler::hir::{ArithOp, BoolOp, Bound, BoundUnit, CmpOp, Expr, ExprKind};

use crate::hir::system_construct;

/// Binding strength per the language's precedence table: 0 binds tightest.
mod level {
    pub(super) const ATOM: u8 = 0;
    pub(super) const MUL: u8 = 1;
    pub(super) const ADD: u8 = 2;
    pub(super) const CMP: u8 = 3;
    pub(super) const UNARY: u8 = 4;
    pub(super) const SINCE: u8 = 5;
    pub(super) const AND: u8 = 6;
    pub(super) const OR: u8 = 7;
    pub(super) const IMPLIES: u8 = 8;
    pub(super) const IFF: u8 = 9;
}

/// The binding level of an atom (a constant, a variable): the tightest.
pub const ATOM: u8 = level::ATOM;
/// The binding level of the prefix operators (`!`, `@L`, the unary temporal ones).
pub const UNARY: u8 = level::UNARY;

/// What a printer writes its own way.
pub trait Leaves {
    /// The text and binding level ([`ATOM`], [`UNARY`], ...) of `e`, evaluated on lifeline `here`, when `e` is
    /// not an operator [`printed`] knows (a constant, a variable or a system
    /// construct); `None` if it has no surface syntax.
    fn leaf(&self, e: &Expr, here: usize) -> Option<(String, u8)>;
}

/// `e` (on lifeline `here`), parenthesized if it binds more loosely than `max`.
pub fn wrap(leaves: &impl Leaves, e: &Expr, here: usize, max: u8) -> Option<String> {
    let (s, lvl) = printed(leaves, e, here)?;
    Some(if lvl > max { format!("({s})") } else { s })
}

/// `e` (on lifeline `here`) with minimal parentheses, and the level it binds at.
pub fn printed(leaves: &impl Leaves, e: &Expr, here: usize) -> Option<(String, u8)> {
    use level::*;
    let wrap = |e: &Expr, max: u8| wrap(leaves, e, here, max);
    Some(match &e.kind {
        ExprKind::Neg(a) => (format!("(-{})", wrap(a, ATOM)?), ATOM),
        ExprKind::Arith(op, a, b) => {
            let (sym, lvl) = match op {
                ArithOp::Mul => ("*", MUL),
                ArithOp::Add => ("+", ADD),
                ArithOp::Sub => ("-", ADD),
            };
            (
                format!("{} {sym} {}", wrap(a, lvl)?, wrap(b, lvl - 1)?),
                lvl,
            )
        }
        ExprKind::Cmp(op, a, b) => {
            let sym = match op {
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            };
            (format!("{} {sym} {}", wrap(a, ADD)?, wrap(b, ADD)?), CMP)
        }
        ExprKind::Not(a) => (format!("!{}", wrap(a, UNARY)?), UNARY),
        ExprKind::Unary(op, bd, a) => {
            let sym = match op {
                UnaryTemporal::Yesterday => "Y",
                UnaryTemporal::WeakYesterday => "Z",
                UnaryTemporal::Once => "O",
                UnaryTemporal::Historically => "H",
                UnaryTemporal::Next => "X",
                UnaryTemporal::Eventually => "F",
                UnaryTemporal::Globally => "G",
            };
            (
                format!("{sym}{} {}", bound_text(bd), wrap(a, UNARY)?),
                UNARY,
            )
        }
        ExprKind::Binary(op, bd, a, b) => {
            let sym = match op {
                BinaryTemporal::Since => "S",
                BinaryTemporal::Until => "U",
                BinaryTemporal::WeakUntil => "W",
                BinaryTemporal::Release => "R",
            };
            // Right associative.
            let (a, b) = (wrap(a, UNARY)?, wrap(b, SINCE)?);
            (format!("{a} {sym}{} {b}", bound_text(bd)), SINCE)
        }
        ExprKind::Bool(op, a, b) => {
            let (sym, lvl, left_max, right_max) = match op {
                BoolOp::And => ("&&", AND, AND, SINCE),
                BoolOp::Or => ("||", OR, OR, AND),
                BoolOp::Implies => ("->", IMPLIES, OR, IMPLIES),
                BoolOp::Iff => ("<->", IFF, IMPLIES, IMPLIES),
            };
            let (a, b) = (wrap(a, left_max)?, wrap(b, right_max)?);
            (format!("{a} {sym} {b}"), lvl)
        }
        ExprKind::Const(_) | ExprKind::Input(_) | system_construct!() => {
            return leaves.leaf(e, here)
        }
    })
}

/// A temporal operator's bound as written after it: `[lo,hi]`, `[lo,inf]` or nothing.
fn bound_text(b: &Option<Bound>) -> String {
    match b {
        None => String::new(),
        Some(Bound {
            lo,
            hi,
            unit: BoundUnit::Time,
        }) => {
            // Every duration in whole milliseconds: exact, and always a literal.
            let ms = |us: &u64| format!("{}ms", us / 1000);
            match hi {
                Some(hi) => format!("[{},{}]", ms(lo), ms(hi)),
                None => format!("[{},inf]", ms(lo)),
            }
        }
        Some(Bound {
            lo, hi: Some(hi), ..
        }) => format!("[{lo},{hi}]"),
        Some(Bound { lo, hi: None, .. }) => format!("[{lo},inf]"),
    }
}
