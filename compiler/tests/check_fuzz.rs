//! Robustness: random specs built from the language's vocabulary (unknown
//! names, wrong types, bad bounds, future operators inside past ones, system
//! constructs in monitors...) never make the checker panic, and its answer is
//! consistent: a spec exactly when there is no error, every diagnostic coded
//! and labelled inside the source, and every returned spec well formed.

use hindsight_compiler::check::check;
use hindsight_compiler::hir::{Expr, ExprKind, Spec, Ty};
use hindsight_grammar::ast::{self, Span};
use hindsight_grammar::diag::{has_errors, render, LabelStyle};
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "req", "grant", "level", "speed", "mode", "red", "green", "blue", "lo", "tmp", "ghost",
    "Color", "Shade",
];
const TYPES: &[&str] = &["bool", "bool", "int", "float", "Color", "Shade", "Nope"];
const STEPS: &[&str] = &["0", "1", "3", "5", "70000", "5000000000"];

fn pick(options: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(options).prop_map(str::to_string)
}

fn bound() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just(String::new()),
        1 => (pick(STEPS), prop_oneof![pick(STEPS), Just("inf".to_string())])
            .prop_map(|(lo, hi)| format!("[{lo},{hi}]")),
    ]
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => pick(&["true", "false", "0", "7", "2.5", "-1"]),
        6 => pick(NAMES),
        1 => pick(&["Color::red", "Shade::blue", "Color::pink", "Nope::x"]),
        1 => pick(&["Runner.cand", "a.infected"]),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(5, 40, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                pick(&["&&", "||", "->", "<->", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                pick(&["Y", "Z", "O", "H", "X", "F", "G"]),
                bound(),
                inner.clone()
            )
                .prop_map(|(op, b, a)| format!("({op}{b} {a})")),
            (
                inner.clone(),
                pick(&["S", "U", "W", "R"]),
                bound(),
                inner.clone()
            )
                .prop_map(|(a, op, b, c)| format!("({a} {op}{b} {c})")),
            (pick(&["!", "-", "@Runner "]), inner.clone()).prop_map(|(op, a)| format!("({op}{a})")),
            (pick(&["forall", "exists", "count"]), inner)
                .prop_map(|(q, a)| format!("({q} x in Group: {a})")),
        ]
    })
}

fn member() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => (pick(NAMES), pick(TYPES)).prop_map(|(n, t)| format!("    input {n}: {t};\n")),
        1 => (pick(NAMES), expr()).prop_map(|(n, e)| format!("    let {n} = {e};\n")),
        2 => (pick(NAMES), expr(), any::<bool>()).prop_map(|(n, e, reset)| {
            let reset = if reset { " with reset" } else { "" };
            format!("    property {n} = {e}{reset};\n")
        }),
    ]
}

fn item() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("enum Color { red, green, blue }\n".to_string()),
        1 => Just("enum Shade { blue, dark, dark }\n".to_string()),
        4 => (pick(&["m", "door", "Color"]), proptest::collection::vec(member(), 0..8))
            .prop_map(|(name, members)| format!("monitor {name} {{\n{}}}\n", members.concat())),
        1 => Just("system review { lifeline Runner { cand: int } }\n".to_string()),
    ]
}

fn spec_source() -> impl Strategy<Value = String> {
    proptest::collection::vec(item(), 0..4).prop_map(|items| items.concat())
}

/// Checks one source text and asserts everything the checker promises.
fn assert_consistent(src: &str) {
    let Ok(file) = hindsight_grammar::parse(src) else {
        return;
    };
    let (spec, diags) = check(&file);
    let rendered = render("spec.hind", src, &diags);
    assert_eq!(spec.is_some(), !has_errors(&diags), "{src}\n{rendered}");
    for d in &diags {
        assert!(d.code.is_some(), "no code: {d:?}\n{src}");
        assert!(
            d.labels.iter().any(|l| l.style == LabelStyle::Primary),
            "no primary label: {d:?}\n{src}"
        );
        for l in &d.labels {
            assert!(
                l.range.start <= l.range.end && l.range.end <= src.len(),
                "label out of bounds: {d:?}\n{src}"
            );
        }
    }
    if let Some(spec) = spec {
        assert_well_formed(&spec, src);
    }
}

fn assert_well_formed(spec: &Spec, src: &str) {
    for m in &spec.monitors {
        for p in &m.properties {
            assert_eq!(p.formula.ty, Ty::Bool, "{src}");
            assert_expr_well_formed(&p.formula, spec, m.inputs.len(), src);
        }
    }
}

fn assert_expr_well_formed(e: &Expr, spec: &Spec, inputs: usize, src: &str) {
    let in_bounds = |s: Span| s.start <= s.end && s.end <= src.len();
    assert!(in_bounds(e.span), "{src}");
    if let Ty::Enum(i) = e.ty {
        assert!(i < spec.enums.len(), "{src}");
    }
    match &e.kind {
        ExprKind::Const(_) => {}
        ExprKind::Input(i) => assert!(*i < inputs, "{src}"),
        ExprKind::Not(a) | ExprKind::Neg(a) | ExprKind::Unary(_, _, a) => {
            assert_expr_well_formed(a, spec, inputs, src)
        }
        ExprKind::Bool(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Arith(_, a, b) => {
            assert_eq!(a.ty, b.ty, "{src}");
            assert_expr_well_formed(a, spec, inputs, src);
            assert_expr_well_formed(b, spec, inputs, src);
        }
        ExprKind::Binary(_, _, a, b) => {
            assert_expr_well_formed(a, spec, inputs, src);
            assert_expr_well_formed(b, spec, inputs, src);
        }
        ExprKind::Remote { .. } | ExprKind::At { .. } | ExprKind::Count(_) => {
            panic!("a monitor formula holds a system construct: {src}")
        }
    }
    if let ExprKind::Unary(_, Some(b), _) | ExprKind::Binary(_, Some(b), _, _) = &e.kind {
        assert!(b.hi.is_none_or(|hi| b.lo <= hi), "{src}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, ..ProptestConfig::default() })]

    #[test]
    fn random_specs_check_consistently(src in spec_source()) {
        assert_consistent(&src);
    }
}

#[test]
fn the_generator_mostly_produces_parsable_specs_and_some_valid_ones() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut parsed, mut valid) = (0, 0);
    for _ in 0..300 {
        let src = spec_source().new_tree(&mut runner).unwrap().current();
        if let Ok(file) = hindsight_grammar::parse(&src) {
            parsed += 1;
            valid += usize::from(check(&file).0.is_some());
        }
    }
    assert!(parsed >= 270, "only {parsed} of 300 generated specs parse");
    assert!(valid >= 10, "only {valid} of 300 generated specs are valid");
}

/// A hand-built AST far deeper than the parser allows.
#[test]
fn very_deep_hand_built_ast_is_rejected_without_overflow() {
    let span = Span::new(0, 1);
    let ident = |name: &str| ast::Ident {
        name: name.to_string(),
        span,
    };
    let mut e = ast::Expr {
        kind: ast::ExprKind::Name(ident("p")),
        span,
    };
    for _ in 0..20_000 {
        e = ast::Expr {
            kind: ast::ExprKind::Not(Box::new(e)),
            span,
        };
    }
    let file = ast::File {
        items: vec![ast::Item::Monitor(ast::MonitorDecl {
            name: ident("m"),
            members: vec![
                ast::MonitorMember::Input(ast::Field {
                    name: ident("p"),
                    ty: ast::TypeExpr::Bool(span),
                    span,
                }),
                ast::MonitorMember::Property(ast::PropertyDecl {
                    name: ident("q"),
                    formula: e,
                    reset: None,
                    span,
                }),
            ],
            span,
        })],
    };
    let (spec, diags) = check(&file);
    assert!(spec.is_none());
    let codes: Vec<_> = diags.iter().map(|d| d.code.as_deref()).collect();
    assert_eq!(codes, [Some("E0900")]);
    // Dismantle the deep AST iteratively: dropping it recursively could overflow.
    let mut items = file.items;
    if let Some(ast::Item::Monitor(m)) = items.pop() {
        for member in m.members {
            if let ast::MonitorMember::Property(p) = member {
                let mut e = p.formula;
                while let ast::ExprKind::Not(inner) = e.kind {
                    e = *inner;
                }
            }
        }
    }
}

/// The deepest accepted AST (512 levels, twice the parser's limit) checks
/// on a default-sized test thread stack.
#[test]
fn deepest_accepted_ast_checks_without_overflow() {
    let span = Span::new(0, 1);
    let ident = |name: &str| ast::Ident {
        name: name.to_string(),
        span,
    };
    let name = || ast::Expr {
        kind: ast::ExprKind::Name(ident("p")),
        span,
    };
    let mut e = name();
    for i in 1..512 {
        let kind = if i % 2 == 0 {
            ast::ExprKind::Binary {
                op: ast::BinOp::And,
                op_span: span,
                lhs: Box::new(name()),
                rhs: Box::new(e),
            }
        } else {
            ast::ExprKind::Unary {
                op: ast::UnaryTemporal::Once,
                op_span: span,
                bound: None,
                arg: Box::new(e),
            }
        };
        e = ast::Expr { kind, span };
    }
    let file = ast::File {
        items: vec![ast::Item::Monitor(ast::MonitorDecl {
            name: ident("m"),
            members: vec![
                ast::MonitorMember::Input(ast::Field {
                    name: ident("p"),
                    ty: ast::TypeExpr::Bool(span),
                    span,
                }),
                ast::MonitorMember::Property(ast::PropertyDecl {
                    name: ident("q"),
                    formula: e,
                    reset: None,
                    span,
                }),
            ],
            span,
        })],
    };
    let (spec, diags) = check(&file);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(spec.is_some());
}

/// A long chain of `let`s, each using the next one, declared in reverse order.
#[test]
fn long_let_chains_are_checked_without_recursion() {
    let mut src = String::from("monitor chain {\n    input p: bool;\n");
    for i in 0..3000 {
        src.push_str(&format!("    let l{i} = !l{};\n", i + 1));
    }
    src.push_str("    let l3000 = p;\n    property q = l0;\n}\n");
    let file = hindsight_grammar::parse(&src).expect("parses");
    let (spec, diags) = check(&file);
    assert!(spec.is_none());
    let codes: Vec<_> = diags.iter().map(|d| d.code.as_deref()).collect();
    // Inlined, l0 nests 3001 levels: one "too deep" error, at the first let
    // whose inlined body passes 512 levels (l2488 = 513 levels).
    assert_eq!(codes, [Some("E0900")]);
    let line = diags[0].labels[0].range.start;
    assert!(
        src[line..].starts_with("!l2489"),
        "{}",
        &src[line..line + 10]
    );
}
