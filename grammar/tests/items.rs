//! Items and members: the examples of language.md parse to the expected shapes.

use crate::common::print;
use hindsight_grammar::ast::{
    File, Item, MonitorMember, PopulationMember, Span, SystemMember, TypeExpr,
};
use hindsight_grammar::parse;

fn parse_ok(src: &str) -> File {
    match parse(src) {
        Ok(file) => file,
        Err(diags) => panic!(
            "{}",
            hindsight_grammar::diag::render("test.hind", src, &diags)
        ),
    }
}

fn names<'a>(idents: impl IntoIterator<Item = &'a hindsight_grammar::ast::Ident>) -> Vec<&'a str> {
    idents.into_iter().map(|i| i.name.as_str()).collect()
}

fn type_name(ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Bool(_) => "bool".to_string(),
        TypeExpr::Int(_) => "int".to_string(),
        TypeExpr::Float(_) => "float".to_string(),
        TypeExpr::Named(n) => n.name.clone(),
    }
}

const DOOR: &str = "\
monitor door {
    input request: bool;
    input grant: bool;
    input reset: bool;
    input alarm: bool;
    input pkg: int;
    input temp: float;
    let pending = !grant S request;             // named sub-formula, not recursive
    property alarm_ok = alarm -> pending;        // past-time: a value per step
    property responds = G (request -> F grant); // future: LTL3 verdict
    property no_reload = G (load -> X G !load) with reset;  // restart after each verdict
}
";

#[test]
fn monitor_example() {
    let file = parse_ok(DOOR);
    let [Item::Monitor(m)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    assert_eq!(m.name.name, "door");
    assert_eq!(m.span, Span::new(0, DOOR.trim_end().len()));
    let mut inputs = Vec::new();
    let mut lets = Vec::new();
    let mut props = Vec::new();
    for member in &m.members {
        match member {
            MonitorMember::Input(f) => {
                inputs.push(format!("{}: {}", f.field.name, type_name(&f.field.ty)))
            }
            MonitorMember::Let(l) => lets.push(format!("{} = {}", l.name, print(&l.value))),
            MonitorMember::Property(p) => props.push(format!(
                "{} = {}{}",
                p.name,
                print(&p.formula),
                if p.reset.is_some() { " with reset" } else { "" }
            )),
            MonitorMember::Steps(s) | MonitorMember::SessionsEnd(s) => {
                panic!("no filter in this spec: {s:?}")
            }
            MonitorMember::Time(t) => panic!("no time in this spec: {t:?}"),
            MonitorMember::Goal(g) => panic!("no goal in this spec: {g:?}"),
        }
    }
    assert_eq!(
        inputs,
        [
            "request: bool",
            "grant: bool",
            "reset: bool",
            "alarm: bool",
            "pkg: int",
            "temp: float"
        ]
    );
    assert_eq!(lets, ["pending = (S (! grant) request)"]);
    assert_eq!(
        props,
        [
            "alarm_ok = (-> alarm pending)",
            "responds = (G (-> request (F grant)))",
            "no_reload = (G (-> load (X (G (! load))))) with reset",
        ]
    );
    let MonitorMember::Property(p) = &m.members[9] else {
        panic!()
    };
    let with = DOOR.find("with reset").unwrap();
    assert_eq!(p.reset, Some(Span::new(with, with + "with reset".len())));
}

const REVIEW: &str = "\
enum Status { pending, passed, failed, cleared, critical }

system review {
    lifeline Orchestrator { cand: int }
    lifeline TestRunner   { cand: int, status: Status }
    lifeline Security     { cand: int, status: Status, };
    lifeline Committer    { cand: int }
    group Reviewers = { TestRunner, Security };
    let ready = TestRunner.cand == cand;

    guard may_merge at Committer =
           TestRunner.cand == cand && Security.cand == cand
        && @TestRunner (status != failed S status == passed)
        && @Security   (status != critical S status == Status::cleared);
}
";

#[test]
fn system_example() {
    let file = parse_ok(REVIEW);
    let [Item::Enum(e), Item::System(s)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    assert_eq!(e.name.name, "Status");
    assert_eq!(
        names(&e.variants),
        ["pending", "passed", "failed", "cleared", "critical"]
    );
    assert_eq!(s.name.name, "review");
    assert_eq!(s.members.len(), 7);
    let mut lifelines = Vec::new();
    for member in &s.members {
        match member {
            SystemMember::Lifeline { name, vars, .. } => {
                let vars: Vec<String> = vars
                    .iter()
                    .map(|f| format!("{}: {}", f.name, type_name(&f.ty)))
                    .collect();
                lifelines.push(format!("{name} {{ {} }}", vars.join(", ")));
            }
            SystemMember::Group { name, members, .. } => {
                assert_eq!(name.name, "Reviewers");
                assert_eq!(names(members), ["TestRunner", "Security"]);
            }
            SystemMember::Let(l) => assert_eq!(print(&l.value), "(== TestRunner.cand cand)"),
            SystemMember::Time(t) => panic!("no time in this spec: {t:?}"),
            SystemMember::Protocol(p) => panic!("no protocol in this spec: {p:?}"),
            SystemMember::Guard {
                name, at, formula, ..
            } => {
                assert_eq!(name.name, "may_merge");
                assert_eq!(at.name, "Committer");
                assert_eq!(
                    print(formula),
                    "(&& (&& (&& (== TestRunner.cand cand) (== Security.cand cand)) \
                     (@TestRunner (S (!= status failed) (== status passed)))) \
                     (@Security (S (!= status critical) (== status Status::cleared))))"
                );
            }
        }
    }
    assert_eq!(
        lifelines,
        [
            "Orchestrator { cand: int }",
            "TestRunner { cand: int, status: Status }",
            "Security { cand: int, status: Status }",
            "Committer { cand: int }",
        ]
    );
}

const EPIDEMIC: &str = "\
population epidemic {
    agent  { infected: bool, female: bool, age: int }
    global { day: int }
    group females = agents where female;
    group old_females = females where age >= 65;
    let young = forall a in females: a.age < 30;
    property all_females_infected = forall a in females: F a.infected;
    property outbreak_small = G ((count a in agents: a.infected) <= 10);
    property three_stay_healthy = atleast 3 a in females: G !a.infected;
}
";

#[test]
fn population_example() {
    let file = parse_ok(EPIDEMIC);
    let [Item::Population(p)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    assert_eq!(p.name.name, "epidemic");
    let mut seen = Vec::new();
    for member in &p.members {
        seen.push(match member {
            PopulationMember::Time(t) => format!("time {}", t.field.name),
            PopulationMember::Agent { fields, .. } => {
                let f: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", f.name, type_name(&f.ty)))
                    .collect();
                format!("agent {}", f.join(", "))
            }
            PopulationMember::Global { fields, .. } => {
                let f: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{}: {}", f.name, type_name(&f.ty)))
                    .collect();
                format!("global {}", f.join(", "))
            }
            PopulationMember::Group {
                name, base, pred, ..
            } => {
                format!("group {name} = {base} where {}", print(pred))
            }
            PopulationMember::Let(l) => format!("let {} = {}", l.name, print(&l.value)),
            PopulationMember::Property(p) => format!("property {} = {}", p.name, print(&p.formula)),
            PopulationMember::Capacity { value, .. } => format!("capacity {value}"),
        });
    }
    assert_eq!(
        seen,
        [
            "agent infected: bool, female: bool, age: int",
            "global day: int",
            "group females = agents where female",
            "group old_females = females where (>= age 65)",
            "let young = (forall a females (< a.age 30))",
            "property all_females_infected = (forall a females (F a.infected))",
            "property outbreak_small = (G (<= (count a agents a.infected) 10))",
            "property three_stay_healthy = (atleast 3 a females (G (! a.infected)))",
        ]
    );
}

#[test]
fn population_capacity_member() {
    let src =
        "population p { capacity 10000; agent { capacity: int } let capacity2 = capacity > 3; }";
    let file = parse_ok(src);
    let [Item::Population(p)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    let PopulationMember::Capacity {
        value,
        value_span,
        span,
    } = &p.members[0]
    else {
        panic!("{:?}", p.members[0])
    };
    assert_eq!(*value, 10000);
    assert_eq!(&src[value_span.range()], "10000");
    assert_eq!(&src[span.range()], "capacity 10000;");
    // `capacity` stays an ordinary name elsewhere.
    let PopulationMember::Agent { fields, .. } = &p.members[1] else {
        panic!("{:?}", p.members[1])
    };
    assert_eq!(fields[0].name.name, "capacity");
    let PopulationMember::Let(l) = &p.members[2] else {
        panic!("{:?}", p.members[2])
    };
    assert_eq!(print(&l.value), "(> capacity 3)");
    assert!(
        parse_ok("monitor m { input capacity: int; property p = capacity > 1; }")
            .items
            .len()
            == 1
    );
}

#[test]
fn population_member_name_other_than_capacity_is_a_syntax_error() {
    let src = "population p { capacty 10; }";
    let diags = parse(src).expect_err("`capacty 10;` is not a member");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].code.as_deref(), Some("E0100"));
    assert!(
        diags[0].message.contains("`capacty`"),
        "{}",
        diags[0].message
    );
    assert_eq!(diags[0].labels[0].range, 15..22);
    for bad in [
        "population p { capacity; }",
        "population p { capacity -3; }",
        "population p { capacity 3 }",
        "population p { capacity 2.5; }",
        "monitor m { capacity 3; }",
    ] {
        assert!(parse(bad).is_err(), "`{bad}` should be rejected");
    }
}

#[test]
fn reset_is_a_keyword_only_after_with() {
    let file = parse_ok("monitor m { input reset: bool; property p = reset with reset; }");
    let [Item::Monitor(m)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    let MonitorMember::Property(p) = &m.members[1] else {
        panic!()
    };
    assert_eq!(print(&p.formula), "reset");
    assert!(p.reset.is_some());
}

#[test]
fn trucks_example_file_parses() {
    let file = parse_ok(include_str!("../../examples/trucks/trucks.hind"));
    assert_eq!(file.items.len(), 3);
    assert_eq!(file.items[2].name().name, "trucks");
}

#[test]
fn all_examples_together() {
    let src = format!("{DOOR}\n{REVIEW}\n{EPIDEMIC}");
    let file = parse_ok(&src);
    let item_names: Vec<&str> = file.items.iter().map(|i| i.name().name.as_str()).collect();
    assert_eq!(item_names, ["door", "Status", "review", "epidemic"]);
}

#[test]
fn empty_items_and_trailing_commas() {
    let file = parse_ok("enum E {} enum T { a, b, } monitor m {} system s {} population p {}");
    let [Item::Enum(e), Item::Enum(t), Item::Monitor(m), Item::System(s), Item::Population(p)] =
        file.items.as_slice()
    else {
        panic!("{file:?}")
    };
    assert!(e.variants.is_empty());
    assert_eq!(names(&t.variants), ["a", "b"]);
    assert!(m.members.is_empty() && s.members.is_empty() && p.members.is_empty());
    assert!(parse_ok("").items.is_empty());
    assert!(parse_ok("// only a comment").items.is_empty());
}

#[test]
fn member_syntax_errors() {
    for src in [
        "enum E { a b }",
        "enum E { , }",
        "monitor m { input p bool; }",
        "monitor m { input p: bool }",
        "monitor m { input p: 3; }",
        "monitor m { let p = q }",
        "monitor m { property p = q with; }",
        "monitor m { property p = q reset; }",
        "monitor m { guard g at L = p; }",
        "system s { lifeline L { x } }",
        "system s { group G2 = A, B; }",
        "system s { guard g = p; }",
        "system s { input p: bool; }",
        "population p { group g = where p; }",
        "population p { group g = agents; }",
        "population p { agent { x: int }; agent x }",
        "monitor { }",
        "monitor m",
        "item m { }",
    ] {
        assert!(parse(src).is_err(), "`{src}` should be rejected");
    }
}

#[test]
fn comments() {
    let src = "\
// line comment
enum /* inline */ E { a, /* nested /* block */ comment */ b }
/* multi
   line */ monitor m { let x = a/**/b; } // trailing, no newline";
    assert!(parse(src).is_err(), "`a b` is two names, not one");
    let src = src.replace("a/**/b", "a/**/+b");
    let file = parse_ok(&src);
    let [Item::Enum(e), Item::Monitor(m)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    assert_eq!(names(&e.variants), ["a", "b"]);
    let MonitorMember::Let(l) = &m.members[0] else {
        panic!()
    };
    assert_eq!(print(&l.value), "(+ a b)");
}

/// Single-letter operators name lifelines, groups, agents and enums where no
/// operator can stand: declarations, after `@`, before `.` and `::`, types.
#[test]
fn operator_letters_name_declarations() {
    let file = parse_ok(
        "enum F { a, b }
         system s {
             lifeline W { x: int, mode: F }
             lifeline O { }
             group G = { W, O };
             guard g at O = W.x == 1 && W.mode == F::b && @W (O[0,3] x == 1) && X W.x == 1;
         }
         population p { agent { sick: bool } group U = agents where sick;
                        property q = forall X in U: X.sick; }",
    );
    let Some(Item::Enum(e)) = file.items.first() else {
        panic!("an enum first");
    };
    assert_eq!(e.name.name, "F");
    let Some(Item::System(system)) = file.items.get(1) else {
        panic!("a system second");
    };
    let lifelines: Vec<&str> = system
        .members
        .iter()
        .filter_map(|m| match m {
            SystemMember::Lifeline { name, vars, .. } => {
                assert!(vars
                    .iter()
                    .all(|v| type_name(&v.ty) != "F" || v.name.name == "mode"));
                Some(name.name.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(lifelines, ["W", "O"]);
    let guard = system.members.iter().find_map(|m| match m {
        SystemMember::Guard { at, formula, .. } => Some((at, formula)),
        _ => None,
    });
    let Some((at, formula)) = guard else {
        panic!("a guard");
    };
    assert_eq!(at.name, "O");
    // `O[0,3]` after `@W` is the operator, `X W.x` is next-of a field of `W`.
    assert_eq!(
        print(formula),
        "(&& (&& (&& (== W.x 1) (== W.mode F::b)) (@W (O[0,3] (== x 1)))) (X (== W.x 1)))"
    );
    let Some(Item::Population(population)) = file.items.get(2) else {
        panic!("a population third");
    };
    assert!(population
        .members
        .iter()
        .any(|m| matches!(m, PopulationMember::Group { name, .. } if name.name == "U")));
}

/// The keywords that start a member or a clause of one kind of block, and
/// are names everywhere else (docs/language.md, section 1).
const CONTEXTUAL: [&str; 18] = [
    "reset",
    "time",
    "sessions",
    "input",
    "steps",
    "lifeline",
    "group",
    "guard",
    "at",
    "agent",
    "global",
    "where",
    "from",
    "default",
    "hold",
    "initially",
    "present",
    "goal",
];

#[test]
fn contextual_keywords_are_names_in_every_kind_of_block() {
    for kw in CONTEXTUAL {
        let sources = [
            format!("monitor {kw} {{ input {kw}: bool from \"/x\" default false; let l = {kw}; property p = O {kw}; }}"),
            format!("monitor m {{ input x: bool; let {kw} = x; property {kw}2 = {kw}; property q = {kw}; }}"),
            format!("system {kw} {{ lifeline {kw} {{ {kw}: bool }} group g = {{ {kw} }}; guard {kw} at {kw} = {kw}.{kw} && @{kw} ({kw}); }}"),
            format!("population {kw} {{ agent {{ {kw}: bool }} global {{ g: bool }} group {kw} = agents where {kw}; property p = forall a in {kw}: a.{kw}; }}"),
        ];
        for source in &sources {
            if let Err(diags) = hindsight_grammar::parse(source) {
                panic!("`{kw}` is not a name in {source}: {diags:?}");
            }
        }
    }
    // The words that are keywords everywhere stay keywords.
    for kw in [
        "monitor", "property", "let", "forall", "count", "in", "with",
    ] {
        let source = format!("monitor m {{ input {kw}: bool; }}");
        assert!(
            hindsight_grammar::parse(&source).is_err(),
            "`{kw}` parsed as a name"
        );
    }
}
