//! The checker on `population` blocks: the HIR of the language.md example
//! (compared with hand-written shapes), one snapshot per kind of diagnostic
//! (with the codes asserted by hand, so a wrong or missing diagnostic fails
//! even if a snapshot is accepted carelessly), and random blocks that never
//! make the checker panic.

use crate::spec_support::{only, parse, rejected, LANGUAGE_POPULATION};
use hindsight_compiler::check::check;
use hindsight_compiler::hir::{Expr, ExprKind, Population, Spec, Ty, Value, DEFAULT_CAPACITY};
use hindsight_grammar::diag::{has_errors, render, LabelStyle};
use proptest::prelude::*;

/// Checks `src`, which must check without errors.
fn checked(src: &str) -> Spec {
    let (spec, diags) = check(&parse(src));
    assert!(!has_errors(&diags), "{}", render("spec.hind", src, &diags));
    spec.expect("no errors, so a spec")
}

/// A compact S-expression of a typed expression (spans left out).
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => b.to_string(),
        ExprKind::Const(Value::Int(n)) => n.to_string(),
        ExprKind::Const(v) => format!("{v:?}"),
        ExprKind::Input(i) => format!("g{i}"),
        ExprKind::Attribute(i) => format!("attr{i}"),
        ExprKind::Quant {
            quantifier,
            group,
            body,
        } => format!(
            "({quantifier:?} {} {})",
            group.map_or("agents".to_string(), |g| format!("group{g}")),
            sx(body)
        ),
        ExprKind::Not(a) => format!("(! {})", sx(a)),
        ExprKind::Bool(op, a, b) => format!("({op:?} {} {})", sx(a), sx(b)),
        ExprKind::Cmp(op, a, b) => format!("({op:?} {} {})", sx(a), sx(b)),
        ExprKind::Arith(op, a, b) => format!("({op:?} {} {})", sx(a), sx(b)),
        ExprKind::Unary(op, bound, a) => format!("({op:?}{bound:?} {})", sx(a)),
        ExprKind::Binary(op, bound, a, b) => format!("({op:?}{bound:?} {} {})", sx(a), sx(b)),
        other => format!("{other:?}"),
    }
}

/// The population of language.md with two more properties: its `let` under
/// `with reset`, and `atmost` over the derived group.
fn extended_epidemic() -> String {
    let block = LANGUAGE_POPULATION.trim_end().strip_suffix('}');
    let more = "    property late_and_sick = sick && day > 3 with reset;
    property old = atmost 2 b in old_females: O b.infected;
}
";
    block.expect("a block ends with `}`").to_string() + more
}

#[test]
fn example_hir_shape() {
    let spec = checked(&extended_epidemic());
    let p = only(&spec.populations);
    assert_eq!(p.name, "epidemic");
    assert_eq!(p.capacity, 10000);
    let attributes: Vec<(&str, Ty)> = p
        .attributes
        .iter()
        .map(|a| (a.name.as_str(), a.ty))
        .collect();
    assert_eq!(
        attributes,
        [
            ("infected", Ty::Bool),
            ("female", Ty::Bool),
            ("age", Ty::Int)
        ]
    );
    let globals: Vec<(&str, Ty)> = p.globals.iter().map(|g| (g.name.as_str(), g.ty)).collect();
    assert_eq!(globals, [("day", Ty::Int)]);

    let groups: Vec<(&str, String)> = p
        .groups
        .iter()
        .map(|g| (g.name.as_str(), sx(&g.member)))
        .collect();
    assert_eq!(
        groups,
        [
            ("females", "attr1".to_string()),
            // The base's predicate first, conjoined.
            ("old_females", "(And attr1 (Gt attr2 60))".to_string()),
        ]
    );
    for g in &p.groups {
        assert_eq!(g.member.ty, Ty::Bool);
    }

    let properties: Vec<(&str, String, bool)> = p
        .properties
        .iter()
        .map(|q| (q.name.as_str(), sx(&q.formula), q.reset))
        .collect();
    assert_eq!(
        properties,
        [
            (
                "all_females_infected",
                "(Forall group0 (EventuallyNone attr0))".to_string(),
                false
            ),
            (
                "outbreak_small",
                "(GloballyNone (Le (Count agents attr0) 10))".to_string(),
                false
            ),
            (
                "three_stay_healthy",
                "(AtLeast(3) group0 (GloballyNone (! attr0)))".to_string(),
                false
            ),
            (
                "late_and_sick",
                "(And (Exists agents attr0) (Gt g0 3))".to_string(),
                true
            ),
            (
                "old",
                "(AtMost(2) group1 (OnceNone attr0))".to_string(),
                false
            ),
        ]
    );
    // `count` is an int, the other quantifiers bool.
    let ExprKind::Unary(_, _, cmp) = &p.properties[1].formula.kind else {
        panic!()
    };
    let ExprKind::Cmp(_, count, _) = &cmp.kind else {
        panic!()
    };
    assert_eq!(count.ty, Ty::Int);
    assert_eq!(p.properties[0].formula.ty, Ty::Bool);
}

#[test]
fn defaults_and_no_agent_block() {
    let spec = checked(
        "population p {
            global { n: int }
            property big = n > 3 && forall a in agents: true;
        }",
    );
    let p = only(&spec.populations);
    assert_eq!(p.capacity, DEFAULT_CAPACITY);
    assert!(p.attributes.is_empty() && p.groups.is_empty());
    assert_eq!(
        sx(&p.properties[0].formula),
        "(And (Gt g0 3) (Forall agents true))"
    );
}

#[test]
fn nested_quantifiers_and_shadowing() {
    // A variable named like a global or `let` is fine; the innermost
    // variable is the one `a.x` reads; past quantifiers nest anywhere.
    let spec = checked(
        "enum Mode { on, off }
        population p {
            capacity 1;
            agent { x: bool, m: Mode }
            global { day: int }
            let l = true;
            property nested = forall day in agents: day.x -> O (exists l in agents: l.m == on);
            property shadow = exists a in agents: exists a in agents: a.x;
            property future_inside = forall a in agents: F (exists b in agents: b.x && Y b.x);
            property under_future = G (exists a in agents: O a.x);
            property connectives = !(forall a in agents: F a.x) || (exists b in agents: G b.x) <-> l;
        }",
    );
    let p = only(&spec.populations);
    assert_eq!(p.capacity, 1);
    let formulas: Vec<String> = p.properties.iter().map(|q| sx(&q.formula)).collect();
    assert_eq!(
        formulas,
        [
            "(Forall agents (Implies attr0 (OnceNone (Exists agents (Eq attr1 Enum(0))))))",
            "(Exists agents (Exists agents attr0))",
            "(Forall agents (EventuallyNone (Exists agents (And attr0 (YesterdayNone attr0)))))",
            "(GloballyNone (Exists agents (OnceNone attr0)))",
            "(Iff (Or (! (Forall agents (EventuallyNone attr0))) (Exists agents (GloballyNone attr0))) true)",
        ]
    );
}

#[test]
fn a_population_named_like_its_members_and_capacity_as_a_name() {
    let spec = checked(
        "population p {
            agent { capacity: int }
            property q = forall a in agents: a.capacity > 2;
        }",
    );
    assert_eq!(
        sx(&only(&spec.populations).properties[0].formula),
        "(Forall agents (Gt attr0 2))"
    );
}

/// Checks `src` (which must parse), asserts the codes and that no spec comes
/// back, and snapshots the rendered diagnostics under `name`.
fn case(name: &str, src: &str, expected_codes: &[&str]) {
    insta::assert_snapshot!(name, rejected(src, expected_codes));
}

/// The epidemic declarations followed by `rest` and the closing brace.
fn epidemic(rest: &str) -> String {
    format!(
        "population epidemic {{
    agent  {{ infected: bool, female: bool, age: int }}
    global {{ day: int }}
    group females = agents where female;
    group old_females = females where age > 60;
{rest}}}
"
    )
}

#[test]
fn future_quantifier_under_g_with_suggestion() {
    case(
        "e0410_under_g_group",
        &epidemic("    property p = G (forall a in females: F a.infected);\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_under_f_over_agents() {
    case(
        "e0410_under_f_agents",
        &epidemic("    property p = F exists who in agents: G who.infected;\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_under_x_over_a_derived_group() {
    case(
        "e0410_under_x_derived_group",
        &epidemic("    property p = X (atleast 2 a in old_females: F a.infected || day > 3);\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_without_equivalent() {
    case(
        "e0410_no_equivalent",
        &epidemic("    property p = G (day > 3 -> exists a in agents: F a.infected);\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_inside_another_quantifier() {
    case(
        "e0410_nested",
        &epidemic(
            "    property p = forall a in agents: a.infected -> exists b in females: F b.infected;\n",
        ),
        &["E0410"],
    );
}

#[test]
fn count_over_a_future_body() {
    case(
        "e0410_count",
        &epidemic("    property p = (count a in agents: F a.infected) <= 3;\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_as_comparison_operand() {
    case(
        "e0410_operand",
        &epidemic("    property p = (forall a in agents: F a.infected) == false;\n"),
        &["E0410"],
    );
}

#[test]
fn future_quantifier_through_a_let() {
    case(
        "e0410_through_let",
        &epidemic(
            "    let later = forall a in agents: F a.infected;\n    property p = G later;\n    property fine = later && day > 1;\n",
        ),
        &["E0410"],
    );
}

#[test]
fn nested_body_reads_the_outer_agent() {
    case(
        "e0411",
        &epidemic(
            "    property p = forall a in agents: exists b in females: a.infected && b.age > 3;\n",
        ),
        &["E0411"],
    );
}

#[test]
fn capacity_out_of_range() {
    case(
        "e0412",
        "population p { capacity 0; agent { x: bool } }\npopulation q { capacity 1000001; }\n",
        &["E0412", "E0412"],
    );
}

#[test]
fn capacity_twice() {
    case(
        "capacity_twice",
        "population p { capacity 10; capacity 20; }\n",
        &["E0201"],
    );
}

#[test]
fn bad_group_bases() {
    case(
        "bad_group_base",
        &epidemic(
            "    group early = later where age < 10;\n    group later = agents where age > 5;\n    group selfish = selfish where female;\n    group typo = femlaes where female;\n    group wrong = day where female;\n",
        ),
        &["E0200", "E0200", "E0200", "E0206"],
    );
}

#[test]
fn future_operator_in_group_predicate() {
    case(
        "group_future",
        &epidemic("    group doomed = agents where F infected;\n"),
        &["E0409"],
    );
}

#[test]
fn quantifier_in_group_predicate() {
    case(
        "group_quantifier",
        &epidemic(
            "    let any = exists b in agents: b.infected;\n    group g = agents where exists b in agents: b.infected;\n    group h = agents where any && female;\n",
        ),
        &["E0403", "E0403"],
    );
}

#[test]
fn bare_attribute_outside_group_predicate() {
    case(
        "bare_attribute",
        &epidemic("    property p = infected;\n    property q = exists a in agents: age > 3;\n"),
        &["E0200", "E0200"],
    );
}

#[test]
fn unknown_attribute_with_suggestion() {
    case(
        "unknown_attribute",
        &epidemic("    property p = exists a in agents: a.infectd;\n"),
        &["E0200"],
    );
}

#[test]
fn unknown_group_and_unbound_variable() {
    case(
        "unknown_group",
        &epidemic(
            "    property p = exists a in femals: a.infected;\n    property q = b.infected;\n    property r = forall a in day: true;\n",
        ),
        &["E0200", "E0200", "E0206"],
    );
}

#[test]
fn duplicate_names() {
    case(
        "duplicates",
        "enum Mode { on, off }
population p {
    agent { x: bool, on: bool }
    global { x: int }
    let g = true;
    group g = agents where x;
    property agents_ok = true;
    property g = true;
    group agents = agents where x;
}
",
        &["E0201", "E0201", "E0201", "E0201", "E0201"],
    );
}

#[test]
fn second_agent_block() {
    case(
        "second_agent_block",
        "population p {\n    agent { x: bool }\n    global { d: int }\n    agent { y: bool }\n    global { e: int }\n}\n",
        &["E0201", "E0201"],
    );
}

#[test]
fn variable_as_value_at_and_let_reading_an_outer_variable() {
    case(
        "wrong_roles",
        &epidemic(
            "    property p = forall a in agents: a;\n    property q = @L day > 1;\n    let l = a.infected;\n",
        ),
        &["E0206", "E0403", "E0200"],
    );
}

#[test]
fn temporal_rules_apply() {
    case(
        "temporal_rules",
        &epidemic(
            "    property p = O (forall a in agents: F a.infected);\n    property q = exists a in agents: F[1,inf] a.infected;\n    property r = forall a in agents: O[5,2] a.infected;\n",
        ),
        &["E0401", "E0402", "E0400"],
    );
}

#[test]
fn reset_on_a_past_time_property() {
    let src = epidemic("    property p = forall a in agents: O a.infected with reset;\n");
    let (spec, diags) = check(&parse(&src));
    let codes: Vec<&str> = diags
        .iter()
        .map(|d| d.code.as_deref().unwrap_or("-"))
        .collect();
    assert_eq!(codes, ["W0100"]);
    assert!(spec.is_some(), "a warning only");
    insta::assert_snapshot!("w0100", render("spec.hind", &src, &diags));
}

// ------------------------------------------------------------------ fuzz

fn pick(options: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(options).prop_map(str::to_string)
}

const TOKENS: &[&str] = &[
    "agent", "global", "group", "let", "property", "capacity", "where", "agents", "females", "in",
    "forall", "exists", "count", "atleast", "atmost", "a", "b", "a.x", "b.y", "x", "y", "day",
    "ghost", "F", "G", "X", "O", "Y", "H", "S", "U", "W", "R", "[1,2]", "[0,inf]", "&&", "||",
    "->", "!", "==", "<", "+", "(", ")", "{", "}", ":", ";", "=", ",", "1", "3", "0", "bool",
    "int", "Mode", "on", "@L", "with", "reset", "true",
];

fn expr() -> impl Strategy<Value = String> {
    let leaf = pick(&[
        "true",
        "x",
        "y",
        "day",
        "a",
        "a.x",
        "b.x",
        "a.y",
        "a.zz",
        "on",
        "Mode::off",
        "l",
        "3",
        "ghost",
    ]);
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (
                inner.clone(),
                pick(&["&&", "||", "->", "<->", "==", "<", "+", "S", "U", "W[1,2]", "S[0,inf]"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (
                pick(&["!", "Y ", "O ", "F ", "G ", "X ", "F[1,3] ", "@L "]),
                inner.clone()
            )
                .prop_map(|(op, a)| format!("({op}{a})")),
            (
                pick(&["forall", "exists", "count", "atleast 2", "atmost 1"]),
                pick(&["a", "b", "day"]),
                pick(&["agents", "agents", "g", "h", "day", "nope"]),
                inner
            )
                .prop_map(|(q, v, g, a)| format!("({q} {v} in {g}: {a})")),
        ]
    })
}

fn member() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => pick(&["agent { x: bool, y: int }", "agent { x: bool, m: Mode }", "global { day: int }", "capacity 5;", "capacity 0;"]),
        2 => (pick(&["g", "h", "l"]), pick(&["agents", "g", "h", "day"]), expr())
            .prop_map(|(n, b, e)| format!("group {n} = {b} where {e};")),
        2 => (pick(&["l", "m", "g"]), expr()).prop_map(|(n, e)| format!("let {n} = {e};")),
        3 => (pick(&["p", "q", "l"]), expr(), any::<bool>()).prop_map(|(n, e, r)| {
            format!("property {n} = {e}{};", if r { " with reset" } else { "" })
        }),
    ]
}

/// Every index a population formula holds is in range.
fn well_formed(e: &Expr, p: &Population, in_quant_or_group: bool) -> bool {
    match &e.kind {
        ExprKind::Attribute(i) => in_quant_or_group && *i < p.attributes.len(),
        ExprKind::Input(i) => *i < p.globals.len(),
        ExprKind::Quant { group, body, .. } => {
            group.is_none_or(|g| g < p.groups.len()) && well_formed(body, p, true)
        }
        ExprKind::Not(a) | ExprKind::Neg(a) | ExprKind::Unary(_, _, a) => {
            well_formed(a, p, in_quant_or_group)
        }
        ExprKind::Bool(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::Arith(_, a, b)
        | ExprKind::Binary(_, _, a, b) => {
            well_formed(a, p, in_quant_or_group) && well_formed(b, p, in_quant_or_group)
        }
        ExprKind::Const(_) => true,
        ExprKind::Remote { .. } | ExprKind::At { .. } | ExprKind::Count(_) => false,
    }
}

fn consistent(src: &str) {
    let Ok(file) = hindsight_grammar::parse(src) else {
        return;
    };
    let (spec, diags) = check(&file);
    assert_eq!(spec.is_some(), !has_errors(&diags), "{src}");
    for d in &diags {
        assert!(d.code.is_some(), "uncoded diagnostic for {src}: {d:?}");
        for l in &d.labels {
            assert!(l.range.end <= src.len(), "label outside the source: {src}");
        }
        assert!(
            d.labels.iter().any(|l| l.style == LabelStyle::Primary),
            "no primary label: {src}: {d:?}"
        );
    }
    if let Some(spec) = spec {
        for p in &spec.populations {
            for g in &p.groups {
                assert!(
                    well_formed(&g.member, p, true) && !g.member.is_future(),
                    "{src}"
                );
            }
            for q in &p.properties {
                assert!(well_formed(&q.formula, p, false), "{src}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(pick(TOKENS), 0..30)) {
        consistent(&format!("enum Mode {{ on, off }}\npopulation p {{ {} }}", tokens.join(" ")));
    }

    #[test]
    fn random_members_check_consistently(members in proptest::collection::vec(member(), 0..7)) {
        consistent(&format!("enum Mode {{ on, off }}\npopulation p {{\n{}\n}}", members.join("\n")));
    }
}
