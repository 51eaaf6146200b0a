//! Helpers shared by the grammar tests: an s-expression printer for ASTs.

#![allow(dead_code)]

use hindsight_grammar::ast::{
    BinOp, BinaryTemporal, Bound, Expr, ExprKind, Item, MonitorMember, Quantifier, UnaryTemporal,
};

/// Parses `expr` as the value of a `let` in a monitor and prints it as an s-expression.
pub(crate) fn sexpr(expr: &str) -> String {
    print(&parse_expr(expr))
}

/// Parses `expr` as the value of a `let` in a monitor.
pub(crate) fn parse_expr(expr: &str) -> Expr {
    let src = format!("monitor m {{ let e = {expr}; }}");
    let file = match hindsight_grammar::parse(&src) {
        Ok(file) => file,
        Err(diags) => panic!(
            "`{expr}` failed to parse:\n{}",
            hindsight_grammar::diag::render("test.hind", &src, &diags)
        ),
    };
    match file.items.as_slice() {
        [Item::Monitor(m)] => match m.members.as_slice() {
            [MonitorMember::Let(l)] => l.value.clone(),
            other => panic!("unexpected members {other:?}"),
        },
        other => panic!("unexpected items {other:?}"),
    }
}

/// A monitor whose one `let` is `p` inside `depth` pairs of parentheses.
pub(crate) fn nested_parens(depth: usize) -> String {
    format!(
        "monitor m {{ let e = {}p{}; }}",
        "(".repeat(depth),
        ")".repeat(depth)
    )
}

/// Whether `expr`, as the value of a `let`, fails to parse.
pub(crate) fn rejects(expr: &str) -> bool {
    hindsight_grammar::parse(&format!("monitor m {{ let e = {expr}; }}")).is_err()
}

/// An s-expression for `e`: `(&& p (G q))`, `(O[1,inf] p)`, `(forall a G p)`.
pub(crate) fn print(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Float(x) => format!("{x:?}"),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Variant { enum_name, variant } => format!("{enum_name}::{variant}"),
        ExprKind::Field { base, field } => format!("{base}.{field}"),
        ExprKind::Not(a) => format!("(! {})", print(a)),
        ExprKind::Neg(a) => format!("(neg {})", print(a)),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", bin_op(*op), print(lhs), print(rhs))
        }
        ExprKind::Unary { op, bound, arg, .. } => {
            format!("({}{} {})", unary(*op), bound_text(bound), print(arg))
        }
        ExprKind::Temporal {
            op,
            bound,
            lhs,
            rhs,
            ..
        } => {
            format!(
                "({}{} {} {})",
                temporal(*op),
                bound_text(bound),
                print(lhs),
                print(rhs)
            )
        }
        ExprKind::At { lifeline, arg } => format!("(@{lifeline} {})", print(arg)),
        ExprKind::Quant {
            quantifier,
            var,
            group,
            body,
        } => {
            let q = match quantifier {
                Quantifier::Forall => "forall".to_string(),
                Quantifier::Exists => "exists".to_string(),
                Quantifier::AtLeast(k) => format!("atleast {k}"),
                Quantifier::AtMost(k) => format!("atmost {k}"),
                Quantifier::Count => "count".to_string(),
            };
            format!("({q} {var} {group} {})", print(body))
        }
    }
}

/// `[lo,hi]` as numbers, with a `us` suffix for a duration bound (in
/// microseconds), so that a bound read in the wrong unit shows.
fn bound_text(bound: &Option<Bound>) -> String {
    let Some(b) = bound else {
        return String::new();
    };
    let unit = match b.unit {
        hindsight_grammar::ast::BoundUnit::Steps => "",
        hindsight_grammar::ast::BoundUnit::Time => "us",
    };
    match b.hi {
        Some(hi) => format!("[{}{unit},{hi}{unit}]", b.lo),
        None => format!("[{}{unit},inf]", b.lo),
    }
}

fn bin_op(op: BinOp) -> &'static str {
    match op {
        BinOp::And => "&&",
        BinOp::Or => "||",
        BinOp::Implies => "->",
        BinOp::Iff => "<->",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
    }
}

fn unary(op: UnaryTemporal) -> &'static str {
    match op {
        UnaryTemporal::Yesterday => "Y",
        UnaryTemporal::WeakYesterday => "Z",
        UnaryTemporal::Once => "O",
        UnaryTemporal::Historically => "H",
        UnaryTemporal::Next => "X",
        UnaryTemporal::Eventually => "F",
        UnaryTemporal::Globally => "G",
    }
}

fn temporal(op: BinaryTemporal) -> &'static str {
    match op {
        BinaryTemporal::Since => "S",
        BinaryTemporal::Until => "U",
        BinaryTemporal::WeakUntil => "W",
        BinaryTemporal::Release => "R",
    }
}

/// Asserts that each `(expression, s-expression)` pair parses to that s-expression.
pub(crate) fn assert_sexprs(cases: &[(&str, &str)]) {
    for &(expr, expected) in cases {
        assert_eq!(sexpr(expr), expected, "`{expr}` parsed otherwise");
    }
}

/// Asserts that each expression fails to parse.
pub(crate) fn assert_rejected(exprs: &[&str]) {
    for expr in exprs {
        assert!(rejects(expr), "`{expr}` should be rejected");
    }
}
