//! The one printer (`Display` for `ast::Expr`) against the parser: printing any
//! expression and parsing the text gives the same expression back, spans
//! aside (compared through the s-expression rendering of `common`, which is
//! written independently of the printer and shows every field).

use hindsight_grammar::ast::{
    BinOp, BinaryTemporal, Bound, BoundUnit, Expr, ExprKind, Ident, Quantifier, Span, UnaryTemporal,
};
use proptest::prelude::*;

use crate::common::{parse_expr, print as sexpr};

fn ident(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: Span::default(),
    }
}

/// Names that may stand alone (no keyword, no operator letter).
fn name() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["a", "b", "reset", "agents", "_x9", "Gx"]).prop_map(ident)
}

/// Declared names, which may be operator letters (`W.x`, `@S`, `forall X in G`).
fn decl_name() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["L", "W", "S", "node", "X"]).prop_map(ident)
}

fn bound() -> impl Strategy<Value = Option<Bound>> {
    prop::option::of(
        (
            0u64..5,
            prop::option::of(0u64..5),
            any::<bool>(),
            prop::sample::select(vec![1_000u64, 1_000_000, 60_000_000, 86_400_000_000, 7_000]),
        )
            .prop_map(|(lo, len, timed, unit)| {
                // A duration bound in whole units of `unit` microseconds.
                let scale = if timed { unit } else { 1 };
                Bound {
                    lo: lo * scale,
                    hi: len.map(|n| (lo + n) * scale),
                    unit: if timed {
                        BoundUnit::Time
                    } else {
                        BoundUnit::Steps
                    },
                    span: Span::default(),
                }
            }),
    )
}

fn leaf() -> impl Strategy<Value = ExprKind> {
    prop_oneof![
        any::<bool>().prop_map(ExprKind::Bool),
        (0i64..1000).prop_map(ExprKind::Int),
        prop::sample::select(vec![0.5, 2.0, 1e20, 2.5e-3, 123.25]).prop_map(ExprKind::Float),
        name().prop_map(ExprKind::Name),
        (decl_name(), name())
            .prop_map(|(enum_name, variant)| ExprKind::Variant { enum_name, variant }),
        (decl_name(), name()).prop_map(|(base, field)| ExprKind::Field { base, field }),
    ]
}

fn quantifier() -> impl Strategy<Value = Quantifier> {
    prop_oneof![
        Just(Quantifier::Forall),
        Just(Quantifier::Exists),
        (0u64..9).prop_map(Quantifier::AtLeast),
        (0u64..9).prop_map(Quantifier::AtMost),
        Just(Quantifier::Count),
    ]
}

const BIN_OPS: [BinOp; 13] = [
    BinOp::And,
    BinOp::Or,
    BinOp::Implies,
    BinOp::Iff,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
];

fn expr() -> impl Strategy<Value = Expr> {
    let synthetic = |kind| Expr {
        kind,
        span: Span::default(),
    };
    leaf()
        .prop_map(synthetic)
        .prop_recursive(6, 48, 2, move |inner| {
            let boxed = inner.clone().prop_map(Box::new);
            prop_oneof![
                boxed.clone().prop_map(ExprKind::Not),
                boxed.clone().prop_map(ExprKind::Neg),
                (
                    prop::sample::select(BIN_OPS.to_vec()),
                    boxed.clone(),
                    boxed.clone()
                )
                    .prop_map(|(op, lhs, rhs)| ExprKind::Binary {
                        op,
                        op_span: Span::default(),
                        lhs,
                        rhs
                    }),
                (
                    prop::sample::select(UnaryTemporal::ALL.to_vec()),
                    bound(),
                    boxed.clone()
                )
                    .prop_map(|(op, bound, arg)| ExprKind::Unary {
                        op,
                        op_span: Span::default(),
                        bound,
                        arg
                    }),
                (
                    prop::sample::select(BinaryTemporal::ALL.to_vec()),
                    bound(),
                    boxed.clone(),
                    boxed.clone()
                )
                    .prop_map(|(op, bound, lhs, rhs)| ExprKind::Temporal {
                        op,
                        op_span: Span::default(),
                        bound,
                        lhs,
                        rhs
                    }),
                (decl_name(), boxed.clone())
                    .prop_map(|(lifeline, arg)| ExprKind::At { lifeline, arg }),
                (quantifier(), decl_name(), decl_name(), boxed).prop_map(
                    |(quantifier, var, group, body)| ExprKind::Quant {
                        quantifier,
                        var,
                        group,
                        body
                    }
                ),
            ]
            .prop_map(synthetic)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_the_printed_text_gives_the_expression_back(e in expr()) {
        let text = e.to_string();
        prop_assert_eq!(sexpr(&parse_expr(&text)), sexpr(&e), "printed as `{}`", text);
    }
}

#[test]
fn the_printer_uses_the_fewest_parentheses() {
    for (source, printed) in [
        ("(a && b) && c", "a && b && c"),
        ("a && (b && c)", "a && (b && c)"),
        ("(a -> b) -> c", "(a -> b) -> c"),
        ("a -> (b -> c)", "a -> b -> c"),
        ("(a S b) S c", "(a S b) S c"),
        ("!(a == 1)", "!(a == 1)"),
        ("(- a) * (b + 2)", "-a * (b + 2)"),
        ("G[0,3] (p -> F[1,inf] q)", "G[0,3] (p -> F[1,inf] q)"),
        ("p && (forall x in W: x.y)", "p && (forall x in W: x.y)"),
        ("(count x in g: x.y) <= 3", "(count x in g: x.y) <= 3"),
        ("atleast 2 x in g: @W (Y x.y)", "atleast 2 x in g: @W Y x.y"),
    ] {
        assert_eq!(parse_expr(source).to_string(), printed, "{source}");
    }
}
