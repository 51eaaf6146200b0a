//! The one printer: expressions back to source text with the fewest
//! parentheses the precedence table ([`crate::ops::Level`]) allows, so that
//! parsing the text gives the same expression back (spans aside).

use std::fmt;

use crate::ast::{duration_text, Bound, BoundUnit, Expr, ExprKind};
use crate::ops::{Level, TEMPORAL_OPERANDS};

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&printed(self).0)
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |n: u64| match self.unit {
            BoundUnit::Steps => n.to_string(),
            // `[0s,inf]`, `[0s,0s]`: with no other end to carry the unit, `0`
            // would read as steps.
            BoundUnit::Time if n == 0 && self.hi.unwrap_or(0) == 0 => "0s".to_string(),
            BoundUnit::Time => duration_text(n),
        };
        match self.hi {
            Some(hi) => write!(f, "[{},{}]", end(self.lo), end(hi)),
            None => write!(f, "[{},inf]", end(self.lo)),
        }
    }
}

/// `bound` as written after its operator: `[a,b]`, or nothing.
pub fn bound_text(bound: Option<Bound>) -> String {
    bound.map(|b| b.to_string()).unwrap_or_default()
}

/// `e` as an operand whose level may be at most `max`: in parentheses if it
/// binds more loosely.
pub fn operand(e: &Expr, max: Level) -> String {
    let (text, level) = printed(e);
    if level > max {
        format!("({text})")
    } else {
        text
    }
}

/// `e` as text and the level it binds at.
pub fn printed(e: &Expr) -> (String, Level) {
    match &e.kind {
        ExprKind::Bool(b) => (b.to_string(), Level::Atom),
        ExprKind::Int(n) => (n.to_string(), Level::Atom),
        ExprKind::Float(x) => (format!("{x:?}"), Level::Atom),
        ExprKind::Name(name) => (name.name.clone(), Level::Atom),
        ExprKind::Variant { enum_name, variant } => {
            (format!("{enum_name}::{variant}"), Level::Atom)
        }
        ExprKind::Field { base, field } => (format!("{base}.{field}"), Level::Atom),
        ExprKind::Neg(arg) => (format!("-{}", operand(arg, Level::Atom)), Level::Atom),
        // `!x == 1` means `!(x == 1)` but reads ambiguously: parenthesize.
        ExprKind::Not(arg) if matches!(arg.kind, ExprKind::Binary { op, .. } if op.row().level == Level::Cmp) => {
            (format!("!({arg})"), Level::Prefix)
        }
        ExprKind::Not(arg) => (format!("!{}", operand(arg, Level::Prefix)), Level::Prefix),
        ExprKind::At { lifeline, arg } => (
            format!("@{lifeline} {}", operand(arg, Level::Prefix)),
            Level::Prefix,
        ),
        ExprKind::Unary { op, bound, arg, .. } => (
            format!(
                "{}{} {}",
                op.symbol(),
                bound_text(*bound),
                operand(arg, Level::Prefix)
            ),
            Level::Prefix,
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
                operand(lhs, TEMPORAL_OPERANDS.0),
                op.symbol(),
                bound_text(*bound),
                operand(rhs, TEMPORAL_OPERANDS.1)
            ),
            Level::Temporal,
        ),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            let row = op.row();
            let text = format!(
                "{} {} {}",
                operand(lhs, row.lhs),
                row.symbol,
                operand(rhs, row.rhs)
            );
            (text, row.level)
        }
        ExprKind::Quant {
            quantifier,
            var,
            group,
            body,
        } => (
            format!("{} {var} in {group}: {body}", quantifier.head()),
            Level::Quantifier,
        ),
    }
}
