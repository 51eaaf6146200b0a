//! Typed expressions back to surface syntax, with the fewest parentheses the
//! precedence table allows — for explanations and residual obligations.

use crate::hir::{ArithOp, BoolOp, CmpOp, EnumDef, Expr, ExprKind, Monitor, Quantifier, Ty, Value};

/// Binding strength, tightest (0) first, per the language's precedence table.
mod level {
    pub(super) const ATOM: u8 = 0;
    pub(super) const MUL: u8 = 1;
    pub(super) const ADD: u8 = 2;
    pub(super) const CMP: u8 = 3;
    pub(super) const UNARY: u8 = 4;
    pub(super) const TEMPORAL: u8 = 5;
    pub(super) const AND: u8 = 6;
    pub(super) const OR: u8 = 7;
    pub(super) const IMPLIES: u8 = 8;
    pub(super) const IFF: u8 = 9;
}

/// Whether a rendered expression needs parentheses as an operand of a prefix operator.
pub fn is_compound(text: &str) -> bool {
    text.contains(' ') && !(text.starts_with('(') && text.ends_with(')'))
}

/// Renders expressions of one monitor (whose inputs and enums name the leaves).
pub struct Printer<'a> {
    monitor: &'a Monitor,
    enums: &'a [EnumDef],
}

impl<'a> Printer<'a> {
    /// A printer for expressions of `monitor`.
    pub fn new(monitor: &'a Monitor, enums: &'a [EnumDef]) -> Self {
        Printer { monitor, enums }
    }

    /// `e` in surface syntax.
    pub fn text(&self, e: &Expr) -> String {
        self.printed(e).0
    }

    fn wrap(&self, e: &Expr, max: u8) -> String {
        let (s, lvl) = self.printed(e);
        if lvl > max {
            format!("({s})")
        } else {
            s
        }
    }

    fn printed(&self, e: &Expr) -> (String, u8) {
        use level::*;
        match &e.kind {
            ExprKind::Const(v) => (self.value(*v, e.ty), ATOM),
            ExprKind::Input(i) => (
                self.monitor
                    .inputs
                    .get(*i)
                    .map_or_else(|| format!("#{i}"), |input| input.name.clone()),
                ATOM,
            ),
            ExprKind::Neg(a) => (format!("-{}", self.wrap(a, ATOM)), ATOM),
            // Population formulas are printed with their names by the
            // population lowering; by index here.
            ExprKind::Attribute(i) => (format!("a.#{i}"), ATOM),
            ExprKind::Quant {
                quantifier,
                group,
                body,
            } => {
                let group = group.map_or_else(|| "agents".to_string(), |g| format!("G{g}"));
                let text = format!(
                    "{} a in {group}: {}",
                    quantifier_text(*quantifier),
                    self.text(body)
                );
                let lvl = if matches!(quantifier, Quantifier::Count) {
                    ATOM
                } else {
                    IFF + 1
                };
                (
                    if lvl == ATOM {
                        format!("({text})")
                    } else {
                        text
                    },
                    lvl,
                )
            }
            // Monitors have no lifelines: these print by index (system formulas
            // are printed with their names by the system lowering).
            ExprKind::Remote { lifeline, var } => (format!("L{lifeline}.x{var}"), ATOM),
            ExprKind::At { lifeline, arg } => {
                (format!("@L{lifeline} {}", self.wrap(arg, UNARY)), UNARY)
            }
            ExprKind::Count(items) => {
                let items: Vec<String> = items.iter().map(|i| self.text(i)).collect();
                (format!("count({})", items.join(", ")), ATOM)
            }
            ExprKind::Arith(op, a, b) => {
                let (sym, lvl) = match op {
                    ArithOp::Mul => ("*", MUL),
                    ArithOp::Add => ("+", ADD),
                    ArithOp::Sub => ("-", ADD),
                };
                let text = format!("{} {sym} {}", self.wrap(a, lvl), self.wrap(b, lvl - 1));
                (text, lvl)
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
                let text = format!("{} {sym} {}", self.wrap(a, ADD), self.wrap(b, ADD));
                (text, CMP)
            }
            // `!x == 1` means `!(x == 1)`, but reads ambiguously: parenthesize.
            ExprKind::Not(a) if matches!(a.kind, ExprKind::Cmp(..)) => {
                (format!("!({})", self.text(a)), UNARY)
            }
            ExprKind::Not(a) => (format!("!{}", self.wrap(a, UNARY)), UNARY),
            ExprKind::Unary(op, bound, a) => {
                let sym = op.symbol();
                let text = format!("{sym}{} {}", bound_text(*bound), self.wrap(a, UNARY));
                (text, UNARY)
            }
            ExprKind::Binary(op, bound, a, b) => {
                let sym = op.symbol();
                let text = format!(
                    "{} {sym}{} {}",
                    self.wrap(a, UNARY),
                    bound_text(*bound),
                    self.wrap(b, TEMPORAL)
                );
                (text, TEMPORAL)
            }
            ExprKind::Bool(op, a, b) => {
                let (sym, lvl, left, right) = match op {
                    BoolOp::And => ("&&", AND, AND, TEMPORAL),
                    BoolOp::Or => ("||", OR, OR, AND),
                    BoolOp::Implies => ("->", IMPLIES, OR, IMPLIES),
                    BoolOp::Iff => ("<->", IFF, IFF, IMPLIES),
                };
                let text = format!("{} {sym} {}", self.wrap(a, left), self.wrap(b, right));
                (text, lvl)
            }
        }
    }

    fn value(&self, v: Value, ty: Ty) -> String {
        match (v, ty) {
            (Value::Bool(b), _) => b.to_string(),
            (Value::Int(i), _) => i.to_string(),
            (Value::Float(x), _) => format!("{x:?}"),
            (Value::Enum(k), Ty::Enum(e)) => self
                .enums
                .get(e)
                .and_then(|d| d.variants.get(k as usize))
                .cloned()
                .unwrap_or_else(|| format!("variant {k}")),
            (Value::Enum(k), _) => format!("variant {k}"),
        }
    }
}

/// The keyword(s) of a quantifier: `forall`, `atleast 3`, ...
pub fn quantifier_text(q: Quantifier) -> String {
    match q {
        Quantifier::Forall => "forall".to_string(),
        Quantifier::Exists => "exists".to_string(),
        Quantifier::AtLeast(k) => format!("atleast {k}"),
        Quantifier::AtMost(k) => format!("atmost {k}"),
        Quantifier::Count => "count".to_string(),
    }
}

fn bound_text(bound: Option<crate::hir::Bound>) -> String {
    match bound {
        None => String::new(),
        Some(b) => match b.hi {
            Some(hi) => format!("[{},{hi}]", b.lo),
            None => format!("[{},inf]", b.lo),
        },
    }
}
