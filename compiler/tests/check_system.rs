//! The typed HIR of `system` blocks: lifelines, guard owners, where bare
//! names resolve (the owner, or `L` inside `@L`), `L.x`, `let` inlining and
//! the compile-time expansion of quantifiers over groups. Every expected shape
//! is written out by hand; the printer below resolves a bare variable on the
//! lifeline *it* tracks as the evaluating one, so a wrong variable index or a
//! wrong lifeline shows up as a wrong name.

use crate::spec_support::{checked, only, REVIEW};
use hindsight_compiler::check::check;
use hindsight_compiler::hir::{ArithOp, BoolOp, CmpOp, Expr, ExprKind, Spec, System, Ty, Value};
use hindsight_grammar::ast::BinaryTemporal;

/// Guard `name`'s formula, printed on its owner.
fn guard_shape(spec: &Spec, name: &str) -> String {
    let system = only(&spec.systems);
    let guard = system
        .guards
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no guard {name}"));
    assert_eq!(guard.formula.ty, Ty::Bool);
    shape(spec, system, guard.owner, &guard.formula)
}

/// The expression in surface-like syntax with every node parenthesised;
/// `on` is the lifeline the expression is evaluated on.
fn shape(spec: &Spec, system: &System, on: usize, e: &Expr) -> String {
    let sub = |on: usize, e: &Expr| shape(spec, system, on, e);
    let lifeline = |l: usize| system.lifelines[l].name.clone();
    let var = |l: usize, v: usize| {
        system.lifelines[l]
            .vars
            .get(v)
            .map_or_else(|| format!("?{v}"), |var| var.name.clone())
    };
    match &e.kind {
        ExprKind::Const(Value::Bool(b)) => b.to_string(),
        ExprKind::Const(Value::Int(n)) => n.to_string(),
        ExprKind::Const(Value::Float(x)) => format!("{x:?}f"),
        ExprKind::Const(Value::Enum(v)) => match e.ty {
            Ty::Enum(i) => spec.enums[i].variants[*v as usize].clone(),
            other => panic!("enum value of type {other}"),
        },
        ExprKind::Input(v) => var(on, *v),
        ExprKind::Remote {
            lifeline: l,
            var: v,
        } => format!("{}.{}", lifeline(*l), var(*l, *v)),
        ExprKind::At { lifeline: l, arg } => format!("@{} {}", lifeline(*l), sub(*l, arg)),
        ExprKind::Count(items) => {
            assert_eq!(e.ty, Ty::Int);
            let items: Vec<String> = items.iter().map(|i| sub(on, i)).collect();
            format!("count[{}]", items.join(", "))
        }
        ExprKind::Attribute(_) | ExprKind::Quant { .. } => {
            panic!("population construct in a system")
        }
        ExprKind::Not(a) => format!("!{}", sub(on, a)),
        ExprKind::Neg(a) => format!("-{}", sub(on, a)),
        ExprKind::Bool(op, a, b) => {
            let op = match op {
                BoolOp::And => "&&",
                BoolOp::Or => "||",
                BoolOp::Implies => "->",
                BoolOp::Iff => "<->",
            };
            format!("({} {op} {})", sub(on, a), sub(on, b))
        }
        ExprKind::Cmp(op, a, b) => {
            assert_eq!(a.ty, b.ty, "comparison operands of one type");
            let op = match op {
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
            };
            format!("({} {op} {})", sub(on, a), sub(on, b))
        }
        ExprKind::Arith(op, a, b) => {
            let op = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
            };
            format!("({} {op} {})", sub(on, a), sub(on, b))
        }
        ExprKind::Unary(op, bound, a) => {
            let bound = bound.map_or_else(String::new, |b| {
                let hi = b.hi.map_or_else(|| "inf".to_string(), |h| h.to_string());
                format!("[{},{hi}]", b.lo)
            });
            format!("{}{bound} {}", op.symbol(), sub(on, a))
        }
        ExprKind::Binary(op, _, a, b) => {
            format!("({} {} {})", sub(on, a), op.symbol(), sub(on, b))
        }
    }
}

#[test]
fn the_code_review_system_of_the_language_sketch() {
    let spec = checked(REVIEW);
    assert!(spec.monitors.is_empty());
    let system = only(&spec.systems);
    assert_eq!(system.name, "review");
    let lifelines: Vec<(&str, Vec<(&str, Ty)>)> = system
        .lifelines
        .iter()
        .map(|l| {
            let vars = l.vars.iter().map(|v| (v.name.as_str(), v.ty)).collect();
            (l.name.as_str(), vars)
        })
        .collect();
    let status = Ty::Enum(0);
    assert_eq!(
        lifelines,
        [
            ("Orchestrator", vec![("cand", Ty::Int)]),
            ("TestRunner", vec![("cand", Ty::Int), ("status", status)]),
            ("Security", vec![("cand", Ty::Int), ("status", status)]),
            ("Committer", vec![("cand", Ty::Int)]),
        ]
    );
    assert_eq!(system.guards.len(), 1);
    let guard = &system.guards[0];
    assert_eq!((guard.name.as_str(), guard.owner), ("may_merge", 3));
    assert_eq!(
        guard_shape(&spec, "may_merge"),
        "((((TestRunner.cand == cand) && (Security.cand == cand)) \
         && @TestRunner ((status != failed) S (status == passed))) \
         && @Security ((status != critical) S (status == cleared)))"
    );

    // The same, index by index: And(And(And(Cmp(Eq, Remote(1,0), Input(0)),
    // Cmp(Eq, Remote(2,0), Input(0))), At(1, ...)), At(2, Since(...))).
    let ExprKind::Bool(BoolOp::And, left, security) = &guard.formula.kind else {
        panic!("{:?}", guard.formula.kind)
    };
    let ExprKind::Bool(BoolOp::And, left, _tests) = &left.kind else {
        panic!("{:?}", left.kind)
    };
    let ExprKind::Bool(BoolOp::And, same_tests, _) = &left.kind else {
        panic!("{:?}", left.kind)
    };
    let ExprKind::Cmp(CmpOp::Eq, remote, input) = &same_tests.kind else {
        panic!("{:?}", same_tests.kind)
    };
    assert_eq!(
        remote.kind,
        ExprKind::Remote {
            lifeline: 1,
            var: 0
        }
    );
    assert_eq!(input.kind, ExprKind::Input(0));
    let ExprKind::At { lifeline: 2, arg } = &security.kind else {
        panic!("{:?}", security.kind)
    };
    let ExprKind::Binary(BinaryTemporal::Since, None, lhs, rhs) = &arg.kind else {
        panic!("{:?}", arg.kind)
    };
    let critical = Expr {
        kind: ExprKind::Const(Value::Enum(4)),
        ty: status,
        span: lhs.span,
    };
    assert!(matches!(&lhs.kind, ExprKind::Cmp(CmpOp::Ne, a, b)
        if a.kind == ExprKind::Input(1) && b.kind == critical.kind && b.ty == status));
    assert!(matches!(&rhs.kind, ExprKind::Cmp(CmpOp::Eq, a, b)
        if a.kind == ExprKind::Input(1) && b.kind == ExprKind::Const(Value::Enum(3))));
}

const GROUPS: &str = "\
system groups {
    lifeline A { p: int, x: int, ok: bool }
    lifeline B { x: int, ok: bool, q: int }
    lifeline C { x: int }
    group Pair = { A, B };
    group Three = { C, A, B };
    group Empty = {};
    group One = { A };
";

fn with_guards(guards: &str) -> String {
    format!("{GROUPS}{guards}}}\n")
}

#[test]
fn forall_and_exists_expand_to_conjunctions_and_disjunctions() {
    let spec = checked(&with_guards(
        "    guard all at C = forall l in Pair: @l ok;
    guard some at C = exists l in Pair: l.x == x;
    guard three at C = forall l in Three: @l (x > 0);
    guard single at A = exists l in One: l.ok;
",
    ));
    assert_eq!(guard_shape(&spec, "all"), "(@A ok && @B ok)");
    // The bare `x` is C's: quantifier variables do not move evaluation.
    assert_eq!(guard_shape(&spec, "some"), "((A.x == x) || (B.x == x))");
    // Inside `@l`, the bare `x` is l's own (index 0 on C, 1 on A, 0 on B).
    assert_eq!(
        guard_shape(&spec, "three"),
        "((@C (x > 0) && @A (x > 0)) && @B (x > 0))"
    );
    assert_eq!(guard_shape(&spec, "single"), "A.ok");
}

#[test]
fn counting_quantifiers_expand_to_counts() {
    let spec = checked(&with_guards(
        "    guard two at C = atleast 2 l in Three: @l (x > 0);
    guard one at C = atmost 1 l in Pair: l.ok;
    guard any at C = (count l in Pair: @l ok) >= 1;
    guard arith at A = (count l in Pair: l.ok) + p == 2;
",
    ));
    assert_eq!(
        guard_shape(&spec, "two"),
        "(count[@C (x > 0), @A (x > 0), @B (x > 0)] >= 2)"
    );
    assert_eq!(guard_shape(&spec, "one"), "(count[A.ok, B.ok] <= 1)");
    assert_eq!(guard_shape(&spec, "any"), "(count[@A ok, @B ok] >= 1)");
    assert_eq!(
        guard_shape(&spec, "arith"),
        "((count[A.ok, B.ok] + p) == 2)"
    );
}

#[test]
fn quantifiers_over_an_empty_group() {
    let spec = checked(&with_guards(
        "    guard all at C = forall l in Empty: @l ok;
    guard some at C = exists l in Empty: l.ok;
    guard none at C = (count l in Empty: l.ok) == 0;
    guard least at C = atleast 1 l in Empty: l.ok;
    guard most at C = atmost 0 l in Empty: l.ok;
",
    ));
    assert_eq!(guard_shape(&spec, "all"), "true");
    assert_eq!(guard_shape(&spec, "some"), "false");
    assert_eq!(guard_shape(&spec, "none"), "(count[] == 0)");
    assert_eq!(guard_shape(&spec, "least"), "(count[] >= 1)");
    assert_eq!(guard_shape(&spec, "most"), "(count[] <= 0)");
}

#[test]
fn nested_quantifiers_expand_member_by_member() {
    let spec = checked(&with_guards(
        "    guard pairs at C = forall a in Pair: exists b in Pair: a.x == b.x;
    guard shadow at C = forall l in Pair: forall l in Three: @l (x == 1);
",
    ));
    assert_eq!(
        guard_shape(&spec, "pairs"),
        "(((A.x == A.x) || (A.x == B.x)) && ((B.x == A.x) || (B.x == B.x)))"
    );
    // The inner `l` hides the outer one.
    let inner = "((@C (x == 1) && @A (x == 1)) && @B (x == 1))";
    assert_eq!(
        guard_shape(&spec, "shadow"),
        format!("({inner} && {inner})")
    );
}

#[test]
fn bare_names_resolve_on_the_lifeline_being_evaluated() {
    let spec = checked(&with_guards(
        "    guard nested at C = @A (@B (x == q) && x == p) && x == 0;
    guard own at C = C.x == x;
    guard past at B = O[1,3] (x > q) && Y ok && H[0,inf] @A !ok;
",
    ));
    // Under `@B`, `x` is B's variable 0 and `q` its variable 2; under `@A`,
    // `x` is A's variable 1 and `p` its variable 0; outside, `x` is C's.
    assert_eq!(
        guard_shape(&spec, "nested"),
        "(@A (@B (x == q) && (x == p)) && (x == 0))"
    );
    let system = only(&spec.systems);
    let ExprKind::Bool(BoolOp::And, at_a, _) = &system.guards[0].formula.kind else {
        panic!()
    };
    let ExprKind::At { lifeline: 0, arg } = &at_a.kind else {
        panic!("{:?}", at_a.kind)
    };
    let ExprKind::Bool(BoolOp::And, at_b, x_eq_p) = &arg.kind else {
        panic!()
    };
    assert!(matches!(&x_eq_p.kind, ExprKind::Cmp(CmpOp::Eq, x, p)
        if x.kind == ExprKind::Input(1) && p.kind == ExprKind::Input(0)));
    assert!(matches!(&at_b.kind, ExprKind::At { lifeline: 1, arg }
        if matches!(&arg.kind, ExprKind::Cmp(CmpOp::Eq, x, q)
            if x.kind == ExprKind::Input(0) && q.kind == ExprKind::Input(2))));
    // `C.x` on C itself is still a remote read (the current event's value).
    assert_eq!(guard_shape(&spec, "own"), "(C.x == x)");
    assert_eq!(system.guards[2].owner, 1);
    assert_eq!(
        guard_shape(&spec, "past"),
        "((O[1,3] (x > q) && Y ok) && H[0,inf] @A !ok)"
    );
}

#[test]
fn lets_are_inlined_and_may_use_lifelines_quantifiers_and_other_lets() {
    let src = "\
enum Status { pending, passed, failed, cleared, critical }
system review {
    lifeline TestRunner { cand: int, status: Status }
    lifeline Security   { cand: int, status: Status }
    lifeline Committer  { cand: int }
    group Reviewers = { TestRunner, Security };
    let same = forall r in Reviewers: r.cand == Committer.cand;
    let tests_clean = @TestRunner (status != failed S status == passed);
    let ready = same && tests_clean;
    guard may_merge at Committer = ready && cand > 0;
    guard also at TestRunner = tests_clean;
}
";
    let spec = checked(src);
    let tests = "@TestRunner ((status != failed) S (status == passed))";
    assert_eq!(
        guard_shape(&spec, "may_merge"),
        format!(
            "((((TestRunner.cand == Committer.cand) && (Security.cand == Committer.cand)) && {tests}) && (cand > 0))"
        )
    );
    assert_eq!(guard_shape(&spec, "also"), tests);
    // An inlined `let` carries the span of its use.
    let system = only(&spec.systems);
    let also = &system.guards[1].formula;
    assert_eq!(&src[also.span.start..also.span.end], "tests_clean");
}

#[test]
fn remote_terms_are_typed_by_their_variable() {
    let spec = checked(
        "enum Mode { idle, busy }
system s {
    lifeline A { speed: float, mode: Mode, n: int }
    lifeline B { n: int }
    guard g at B = A.speed > 3 && A.mode == busy && A.n * 2 < n;
}
",
    );
    assert_eq!(
        guard_shape(&spec, "g"),
        "(((A.speed > 3.0f) && (A.mode == busy)) && ((A.n * 2) < n))"
    );
}

#[test]
fn compile_lowers_each_system() {
    let src = "\
system one { lifeline A { x: int } guard g at A = x > 0; }
monitor m { input p: bool; property q = O p; }
system two { lifeline B { y: bool } }
";
    let compiled = hindsight_compiler::compile::compile(src).expect("systems compile");
    let names: Vec<&str> = compiled
        .program
        .systems
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["one", "two"]);
    assert_eq!(compiled.program.monitors.len(), 1);
    // `check` alone accepts the file and returns both systems.
    let (spec, diags) = check(&hindsight_grammar::parse(src).unwrap());
    assert!(diags.is_empty());
    let names: Vec<String> = spec.unwrap().systems.into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["one", "two"]);
}
