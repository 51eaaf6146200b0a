//! Typed expressions back to surface syntax, with the fewest parentheses the
//! precedence table allows — for explanations and residual obligations.

use crate::hir::{EnumDef, Expr, ExprKind, Monitor, Quantifier, Ty, Value};
use hindsight_grammar::ast::BinOp;
use hindsight_grammar::ops::{Level, TEMPORAL_OPERANDS};
use hindsight_grammar::print::bound_text;

/// Whether a rendered expression needs parentheses as an operand of a prefix operator.
pub(crate) fn is_compound(text: &str) -> bool {
    text.contains(' ') && !(text.starts_with('(') && text.ends_with(')'))
}

/// Renders expressions of one monitor (whose inputs and enums name the leaves).
pub(crate) struct Printer<'a> {
    monitor: &'a Monitor,
    enums: &'a [EnumDef],
}

impl<'a> Printer<'a> {
    /// A printer for expressions of `monitor`.
    pub(crate) fn new(monitor: &'a Monitor, enums: &'a [EnumDef]) -> Self {
        Printer { monitor, enums }
    }

    /// `e` in surface syntax.
    pub(crate) fn text(&self, e: &Expr) -> String {
        self.printed(e).0
    }

    /// Whether `e` is a `let` inlined where it was named (printed as the name).
    pub(crate) fn is_named(&self, e: &Expr) -> bool {
        self.monitor.let_names.at(e.span).is_some()
    }

    fn wrap(&self, e: &Expr, max: Level) -> String {
        let (s, lvl) = self.printed(e);
        if lvl > max {
            format!("({s})")
        } else {
            s
        }
    }

    fn printed(&self, e: &Expr) -> (String, Level) {
        use Level::{Atom, Prefix};
        // A `let` where the spec names it reads as its name.
        if let Some(name) = self.monitor.let_names.at(e.span) {
            return (name.to_string(), Atom);
        }
        match &e.kind {
            ExprKind::Const(v) => (self.value(*v, e.ty), Atom),
            ExprKind::Input(i) => (
                self.monitor
                    .inputs
                    .get(*i)
                    .map_or_else(|| format!("#{i}"), |input| input.name.clone()),
                Atom,
            ),
            ExprKind::Neg(a) => (format!("-{}", self.wrap(a, Atom)), Atom),
            // Population formulas are printed with their names by the
            // population lowering; by index here.
            ExprKind::Attribute(i) => (format!("a.#{i}"), Atom),
            ExprKind::Quant {
                quantifier,
                group,
                body,
            } => {
                let group = group.map_or_else(|| "agents".to_string(), |g| format!("G{g}"));
                let text = format!("{} a in {group}: {}", quantifier.head(), self.text(body));
                let lvl = if matches!(quantifier, Quantifier::Count) {
                    Atom
                } else {
                    Level::Quantifier
                };
                (
                    if lvl == Atom {
                        format!("({text})")
                    } else {
                        text
                    },
                    lvl,
                )
            }
            // Monitors have no lifelines: these print by index (system formulas
            // are printed with their names by the system lowering).
            ExprKind::Remote { lifeline, var } => (format!("L{lifeline}.x{var}"), Atom),
            ExprKind::At { lifeline, arg } => {
                (format!("@L{lifeline} {}", self.wrap(arg, Prefix)), Prefix)
            }
            ExprKind::Count(items) => {
                let items: Vec<String> = items.iter().map(|i| self.text(i)).collect();
                (format!("count({})", items.join(", ")), Atom)
            }
            ExprKind::Arith(op, a, b) => self.binary(op.source(), a, b),
            ExprKind::Cmp(op, a, b) => self.binary(op.source(), a, b),
            // `!x == 1` means `!(x == 1)`, but reads ambiguously: parenthesize.
            ExprKind::Not(a) if matches!(a.kind, ExprKind::Cmp(..)) && !self.is_named(a) => {
                (format!("!({})", self.text(a)), Prefix)
            }
            ExprKind::Not(a) => (format!("!{}", self.wrap(a, Prefix)), Prefix),
            ExprKind::Unary(op, bound, a) => {
                let sym = op.symbol();
                let text = format!(
                    "{sym}{} {}",
                    bound_text(bound.map(crate::types::Bound::source)),
                    self.wrap(a, Prefix)
                );
                (text, Prefix)
            }
            ExprKind::Binary(op, bound, a, b) => {
                let sym = op.symbol();
                let text = format!(
                    "{} {sym}{} {}",
                    self.wrap(a, TEMPORAL_OPERANDS.0),
                    bound_text(bound.map(crate::types::Bound::source)),
                    self.wrap(b, TEMPORAL_OPERANDS.1)
                );
                (text, Level::Temporal)
            }
            ExprKind::Bool(op, a, b) => self.binary(op.source(), a, b),
        }
    }

    /// `a op b` with the operand levels of `op`'s row of the operator table.
    fn binary(&self, op: BinOp, a: &Expr, b: &Expr) -> (String, Level) {
        let row = op.row();
        let text = format!(
            "{} {} {}",
            self.wrap(a, row.lhs),
            row.symbol,
            self.wrap(b, row.rhs)
        );
        (text, row.level)
    }

    fn value(&self, v: Value, ty: Ty) -> String {
        value_text(self.enums, v, ty)
    }
}

/// A value as the spec writes it: enums by variant name, looked up in
/// `enums` (`variant K` if the enum or the variant is unknown).
pub fn value_text(enums: &[EnumDef], value: Value, ty: Ty) -> String {
    match (value, ty) {
        (Value::Bool(b), _) => b.to_string(),
        (Value::Int(i), _) => i.to_string(),
        (Value::Float(x), _) => format!("{x:?}"),
        (Value::Enum(k), Ty::Enum(e)) => enums
            .get(e)
            .and_then(|d| d.variants.get(k as usize))
            .cloned()
            .unwrap_or_else(|| format!("variant {k}")),
        (Value::Enum(k), _) => format!("variant {k}"),
    }
}
