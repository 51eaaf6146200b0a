//! Robustness: random specs built from the language's vocabulary (unknown
//! names, wrong types, bad bounds, future operators inside past ones, system
//! constructs in monitors, systems with random lifelines, groups and guards...)
//! never make the checker panic, and its answer is consistent: a spec exactly
//! when there is no error, every diagnostic coded and labelled inside the
//! source, and every returned spec well formed (in a system: every index in
//! range for the lifeline it is read on, and no future operator in a guard).

use hindsight_compiler::check::check;
use hindsight_compiler::hir::{Expr, ExprKind, Spec, System, Ty};
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
        1 => pick(&["Runner.cand", "a.infected", "x.level", "x.req", "Boss.mode"]),
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
            (
                pick(&["!", "-", "@Runner ", "@Boss ", "@x "]),
                inner.clone()
            )
                .prop_map(|(op, a)| format!("({op}{a})")),
            (
                pick(&["forall", "exists", "count", "atleast 1", "atmost 2"]),
                pick(&["Group", "Group", "Nobody", "agents"]),
                inner
            )
                .prop_map(|(q, g, a)| format!("({q} x in {g}: {a})")),
        ]
    })
}

/// A guard-like formula over the lifelines of [`system_item`]: mostly past
/// operators and names that exist there, with a few that do not (the
/// quantifier variable `x` also outside quantifiers).
fn system_formula() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        4 => pick(&["true", "req", "Boss.req", "@Runner (level > 2)", "(count x in Group: @x req) > 1"]),
        6 => (
            pick(&["level", "Runner.level", "3", "-1"]),
            pick(&["==", "<", ">=", "+ 1 =="]),
            pick(&["level", "Boss.level", "2", "0"])
        )
            .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        1 => pick(&["(Boss.speed > 1)", "(Boss.speed < level)", "ghost", "x", "x.req", "Runner.speed", "Group"]),
    ];
    atom.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                pick(&["&&", "||", "->", "S", "S[1,4]", "&&", "||", "U"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                pick(&[
                    "!",
                    "Y ",
                    "O ",
                    "H[0,inf] ",
                    "@Runner ",
                    "@Boss ",
                    "!",
                    "F "
                ]),
                inner.clone()
            )
                .prop_map(|(op, a)| format!("({op}{a})")),
            (
                pick(&["forall", "exists", "atleast 1", "atmost 1"]),
                pick(&["Group", "Group", "Group", "Nobody", "Nobody", "agents"]),
                pick(&["@x ", "x.level > 1 || ", "x.req -> ", ""]),
                inner
            )
                .prop_map(|(q, g, x, a)| format!("({q} x in {g}: {x}{a})")),
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
        2 => system_item(),
    ]
}

/// A system: usually the lifelines `Runner { req: bool, level: int }` and
/// `Boss { req: bool, level: int, speed: float }` in a group, then random
/// members (lifelines with random variables, groups, `let`s, guards).
fn system_item() -> impl Strategy<Value = String> {
    let prelude = prop_oneof![
        8 => Just(
            "    lifeline Runner { req: bool, level: int }\n    lifeline Boss { req: bool, level: int, speed: float }\n    group Group = { Runner, Boss };\n    group Nobody = {};\n"
        ),
        1 => Just(""),
    ];
    (prelude, proptest::collection::vec(system_member(), 0..5))
        .prop_map(|(prelude, members)| format!("system s {{\n{prelude}{}}}\n", members.concat()))
}

fn system_member() -> impl Strategy<Value = String> {
    let var = (pick(NAMES), pick(TYPES)).prop_map(|(n, t)| format!("{n}: {t}"));
    prop_oneof![
        1 => (pick(&["Runner", "Boss", "Extra", "Group"]), proptest::collection::vec(var, 0..4))
            .prop_map(|(n, vars)| format!("    lifeline {n} {{ {} }}\n", vars.join(", "))),
        1 => proptest::collection::vec(pick(&["Runner", "Boss", "Ghost"]), 0..3)
            .prop_map(|members| format!("    group Team = {{ {} }};\n", members.join(", "))),
        1 => (pick(NAMES), expr()).prop_map(|(n, e)| format!("    let {n} = {e};\n")),
        1 => (pick(&["both", "ready"]), system_formula())
            .prop_map(|(n, e)| format!("    let {n} = @Boss {e};\n")),
        12 => (pick(NAMES), pick(&["Runner", "Boss", "Boss", "Runner", "Boss", "Group"]), system_formula())
            .prop_map(|(n, at, e)| format!("    guard {n} at {at} = {e};\n")),
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
    for system in &spec.systems {
        for guard in &system.guards {
            assert!(guard.owner < system.lifelines.len(), "{src}");
            assert_eq!(guard.formula.ty, Ty::Bool, "{src}");
            assert!(!guard.formula.is_future(), "{src}");
            assert_guard_well_formed(&guard.formula, spec, system, guard.owner, src);
        }
    }
}

/// Checks a guard's expression evaluated on lifeline `on`: every variable
/// index in range for the lifeline it is read on, with that variable's type.
fn assert_guard_well_formed(e: &Expr, spec: &Spec, system: &System, on: usize, src: &str) {
    let recurse = |a: &Expr, on: usize| assert_guard_well_formed(a, spec, system, on, src);
    let in_bounds = |s: Span| s.start <= s.end && s.end <= src.len();
    assert!(in_bounds(e.span), "{src}");
    if let Ty::Enum(i) = e.ty {
        assert!(i < spec.enums.len(), "{src}");
    }
    let var_ty = |l: usize, v: usize| system.lifelines[l].vars.get(v).map(|v| v.ty);
    match &e.kind {
        ExprKind::Const(_) => {}
        ExprKind::Input(v) => assert_eq!(var_ty(on, *v), Some(e.ty), "{src}"),
        ExprKind::Remote { lifeline, var } => {
            assert!(*lifeline < system.lifelines.len(), "{src}");
            assert_eq!(var_ty(*lifeline, *var), Some(e.ty), "{src}");
        }
        ExprKind::At { lifeline, arg } => {
            assert!(*lifeline < system.lifelines.len(), "{src}");
            assert_eq!((e.ty, arg.ty), (Ty::Bool, Ty::Bool), "{src}");
            recurse(arg, *lifeline);
        }
        ExprKind::Count(items) => {
            assert_eq!(e.ty, Ty::Int, "{src}");
            for item in items {
                assert_eq!(item.ty, Ty::Bool, "{src}");
                recurse(item, on);
            }
        }
        ExprKind::Attribute(_) | ExprKind::Quant { .. } => panic!("population construct: {src}"),
        ExprKind::Not(a) | ExprKind::Neg(a) | ExprKind::Unary(_, _, a) => recurse(a, on),
        ExprKind::Bool(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Arith(_, a, b) => {
            assert_eq!(a.ty, b.ty, "{src}");
            recurse(a, on);
            recurse(b, on);
        }
        ExprKind::Binary(_, _, a, b) => {
            recurse(a, on);
            recurse(b, on);
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
        ExprKind::Remote { .. }
        | ExprKind::At { .. }
        | ExprKind::Count(_)
        | ExprKind::Attribute(_)
        | ExprKind::Quant { .. } => {
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

    #[test]
    fn random_systems_check_consistently(src in system_item()) {
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
    let guarded = (0..300)
        .filter(|_| {
            let src = system_item().new_tree(&mut runner).unwrap().current();
            let file = hindsight_grammar::parse(&src).expect("generated systems parse");
            check(&file)
                .0
                .is_some_and(|spec| spec.systems.iter().any(|s| !s.guards.is_empty()))
        })
        .count();
    eprintln!("{guarded} of 300 generated systems check with guards");
    assert!(
        guarded >= 30,
        "only {guarded} of 300 generated systems check with guards"
    );
}

/// The span of every node of the hand-built ASTs below.
const SPAN: Span = Span { start: 0, end: 1 };

/// A hand-built identifier `name`.
fn ident(name: &str) -> ast::Ident {
    ast::Ident {
        name: name.to_string(),
        span: SPAN,
    }
}

/// A hand-built reference to the input `p`.
fn name_p() -> ast::Expr {
    ast::Expr {
        kind: ast::ExprKind::Name(ident("p")),
        span: SPAN,
    }
}

/// A hand-built file of one monitor `m`: the bool input `p` and the property
/// `q = formula`.
fn monitor_of(formula: ast::Expr) -> ast::File {
    let span = SPAN;
    ast::File {
        items: vec![ast::Item::Monitor(ast::MonitorDecl {
            name: ident("m"),
            members: vec![
                ast::MonitorMember::Input(ast::InputDecl {
                    field: ast::Field {
                        name: ident("p"),
                        ty: ast::TypeExpr::Bool(span),
                        span,
                    },
                    from: None,
                    absent: None,
                }),
                ast::MonitorMember::Property(ast::PropertyDecl {
                    name: ident("q"),
                    formula,
                    reset: None,
                    span,
                }),
            ],
            span,
        })],
    }
}

/// A hand-built AST far deeper than the parser allows.
#[test]
fn very_deep_hand_built_ast_is_rejected_without_overflow() {
    let span = SPAN;
    let mut e = name_p();
    for _ in 0..20_000 {
        e = ast::Expr {
            kind: ast::ExprKind::Not(Box::new(e)),
            span,
        };
    }
    let file = monitor_of(e);
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
    let span = SPAN;
    let mut e = name_p();
    for i in 1..512 {
        let kind = if i % 2 == 0 {
            ast::ExprKind::Binary {
                op: ast::BinOp::And,
                op_span: span,
                lhs: Box::new(name_p()),
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
    let file = monitor_of(e);
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

/// Nested quantifiers over a large group multiply: the expansion stops at the
/// node limit with one error instead of building (or typing) millions of nodes.
#[test]
fn quantifier_expansion_stops_at_the_node_limit() {
    let mut src = String::from("system big {\n");
    for i in 0..60 {
        src.push_str(&format!("    lifeline L{i} {{ x: int }}\n"));
    }
    let all: Vec<String> = (0..60).map(|i| format!("L{i}")).collect();
    src.push_str(&format!("    group All = {{ {} }};\n", all.join(", ")));
    // 60^3 instances of a 4-node body: 864,000 nodes.
    src.push_str("    guard g at L0 = forall a in All: forall b in All: forall c in All: @a (b.x == c.x);\n}\n");
    let file = hindsight_grammar::parse(&src).expect("parses");
    let started = std::time::Instant::now();
    let (spec, diags) = check(&file);
    assert!(spec.is_none());
    let codes: Vec<_> = diags.iter().map(|d| d.code.as_deref()).collect();
    assert_eq!(codes, [Some("E0900")], "{diags:?}");
    assert!(
        diags[0].message.contains("quantifiers expanded"),
        "{}",
        diags[0].message
    );
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );
}
