//! Precedence and associativity of every operator level (language.md section 2),
//! checked through an s-expression rendering of the AST.

use crate::common::{assert_rejected, assert_sexprs};

#[test]
fn atoms_and_terms() {
    assert_sexprs(&[
        ("x", "x"),
        ("L.x", "L.x"),
        ("Status::passed", "Status::passed"),
        ("3", "3"),
        ("2.5", "2.5"),
        ("1e3", "1000.0"),
        ("2.5e-3", "0.0025"),
        ("true", "true"),
        ("false", "false"),
        ("agents", "agents"),
        ("_under_score9", "_under_score9"),
        ("((x))", "x"),
    ]);
}

#[test]
fn arithmetic() {
    assert_sexprs(&[
        ("a * b + c * d", "(+ (* a b) (* c d))"),
        ("a + b * c", "(+ a (* b c))"),
        ("a - b - c", "(- (- a b) c)"),
        ("a - b + c", "(+ (- a b) c)"),
        ("a * b * c", "(* (* a b) c)"),
        ("(a + b) * c", "(* (+ a b) c)"),
    ]);
}

#[test]
fn unary_minus_binds_to_terms() {
    assert_sexprs(&[
        ("-x * y", "(* (neg x) y)"),
        ("-3 + 2", "(+ (neg 3) 2)"),
        ("- - x", "(neg (neg x))"),
        ("a - -b", "(- a (neg b))"),
        ("-L.x < 2.5", "(< (neg L.x) 2.5)"),
    ]);
}

#[test]
fn comparisons_are_looser_than_arithmetic() {
    assert_sexprs(&[
        ("a + b < c * d", "(< (+ a b) (* c d))"),
        ("a == b", "(== a b)"),
        ("a != b", "(!= a b)"),
        ("a < b", "(< a b)"),
        ("a <= b", "(<= a b)"),
        ("a > b", "(> a b)"),
        ("a >= b", "(>= a b)"),
        ("L.x == Status::passed", "(== L.x Status::passed)"),
    ]);
}

#[test]
fn comparisons_do_not_chain() {
    assert_rejected(&["a < b < c", "a == b == c", "a <= b != c"]);
    assert_sexprs(&[("(a < b) == c", "(== (< a b) c)")]);
}

#[test]
fn prefix_operators_are_looser_than_comparisons() {
    assert_sexprs(&[
        ("!x == 1", "(! (== x 1))"),
        ("Y p == q", "(Y (== p q))"),
        ("!p", "(! p)"),
        ("!!p", "(! (! p))"),
        ("Y p", "(Y p)"),
        ("Z p", "(Z p)"),
        ("O p", "(O p)"),
        ("H p", "(H p)"),
        ("X p", "(X p)"),
        ("F p", "(F p)"),
        ("G p", "(G p)"),
        ("X G !load", "(X (G (! load)))"),
        ("G (load -> X G !load)", "(G (-> load (X (G (! load)))))"),
    ]);
}

#[test]
fn at_lifeline() {
    assert_sexprs(&[
        ("@L p", "(@L p)"),
        ("@L p && q", "(&& (@L p) q)"),
        ("@L O p", "(@L (O p))"),
        ("@L x == 1", "(@L (== x 1))"),
        (
            "@TestRunner (status != failed S status == passed)",
            "(@TestRunner (S (!= status failed) (== status passed)))",
        ),
    ]);
}

#[test]
fn bounds() {
    assert_sexprs(&[
        ("O[1,5] p", "(O[1,5] p)"),
        ("H[0, inf] p", "(H[0,inf] p)"),
        ("F[2,3] p", "(F[2,3] p)"),
        ("G[0,10] p", "(G[0,10] p)"),
        // Accepted syntactically on every unary temporal operator; the checker judges.
        ("Y[1,1] p", "(Y[1,1] p)"),
        ("Z[1,2] p", "(Z[1,2] p)"),
        ("X[1,2] p", "(X[1,2] p)"),
        ("p S[1,inf] q", "(S[1,inf] p q)"),
        // Durations in microseconds; a bare 0 takes the other end's unit.
        ("O[0, 30s] p", "(O[0us,30000000us] p)"),
        ("F[0s,0s] p", "(F[0us,0us] p)"),
        ("p S[250ms, 2h] q", "(S[250000us,7200000000us] p q)"),
        ("H[1d, inf] p", "(H[86400000000us,inf] p)"),
        ("G[0, 5min] p", "(G[0us,300000000us] p)"),
        ("p U[0,4] q", "(U[0,4] p q)"),
        ("p W[0,4] q", "(W[0,4] p q)"),
        ("p R[2,4] q", "(R[2,4] p q)"),
        // The checker reports reversed bounds; the parser keeps them as written.
        ("O[5,2] p", "(O[5,2] p)"),
    ]);
}

#[test]
fn malformed_bounds_are_rejected() {
    assert_rejected(&[
        "O[1] p",
        "O[-1,2] p",
        "O[1,2,3] p",
        "O[inf,2] p",
        "O[1.5,2] p",
        "![1,2] p",
    ]);
}

#[test]
fn binary_temporal_operators_are_right_associative() {
    assert_sexprs(&[
        ("!p S q", "(S (! p) q)"),
        ("p S q S r", "(S p (S q r))"),
        ("p U q W r R s", "(U p (W q (R r s)))"),
        ("a == 1 S b", "(S (== a 1) b)"),
        ("Y p S q", "(S (Y p) q)"),
        ("p S[1,2] q U r", "(S[1,2] p (U q r))"),
    ]);
}

#[test]
fn boolean_levels() {
    assert_sexprs(&[
        ("p S q && r", "(&& (S p q) r)"),
        ("p && q U r", "(&& p (U q r))"),
        ("p && q && r", "(&& (&& p q) r)"),
        ("p && q || r", "(|| (&& p q) r)"),
        ("p || q && r", "(|| p (&& q r))"),
        ("p || q || r", "(|| (|| p q) r)"),
        ("p || q -> r", "(-> (|| p q) r)"),
        ("p -> q || r", "(-> p (|| q r))"),
        ("p -> q -> r", "(-> p (-> q r))"),
        ("p -> q <-> r", "(<-> (-> p q) r)"),
        ("p <-> q -> r", "(<-> p (-> q r))"),
        // `<->` is left associative.
        ("p <-> q <-> r", "(<-> (<-> p q) r)"),
        ("(p || q) && r", "(&& (|| p q) r)"),
        ("alarm -> pending", "(-> alarm pending)"),
    ]);
}

#[test]
fn quantifiers() {
    assert_sexprs(&[
        (
            "forall a in females: F a.infected",
            "(forall a females (F a.infected))",
        ),
        ("exists a in grp: a.x > 3", "(exists a grp (> a.x 3))"),
        (
            "atleast 3 a in females: G !a.infected",
            "(atleast 3 a females (G (! a.infected)))",
        ),
        ("atmost 0 a in agents: a.sick", "(atmost 0 a agents a.sick)"),
        (
            "G ((count a in agents: a.infected) <= 10)",
            "(G (<= (count a agents a.infected) 10))",
        ),
    ]);
}

#[test]
fn quantifier_bodies_extend_right() {
    assert_sexprs(&[
        ("forall a in g: p && q", "(forall a g (&& p q))"),
        (
            "forall a in g: p -> q <-> r",
            "(forall a g (<-> (-> p q) r))",
        ),
        (
            "forall a in g: exists b in g: p || q",
            "(forall a g (exists b g (|| p q)))",
        ),
        // Without parentheses, `count`'s body takes the comparison.
        ("count a in g: p <= 10", "(count a g (<= p 10))"),
        ("(forall a in g: p) && q", "(&& (forall a g p) q)"),
    ]);
}

#[test]
fn quantifiers_as_right_operands() {
    assert_sexprs(&[
        (
            "p && forall a in grp: q || r",
            "(&& p (forall a grp (|| q r)))",
        ),
        ("p || exists a in g: q && r", "(|| p (exists a g (&& q r)))"),
        ("p -> forall a in g: q -> r", "(-> p (forall a g (-> q r)))"),
        ("p <-> forall a in g: q", "(<-> p (forall a g q))"),
        ("p S forall a in g: q", "(S p (forall a g q))"),
        ("p && q -> exists a in g: r", "(-> (&& p q) (exists a g r))"),
        ("G forall a in g: p || q", "(G (forall a g (|| p q)))"),
        ("! exists a in g: p", "(! (exists a g p))"),
        ("@L forall a in g: p", "(@L (forall a g p))"),
        (
            "(p && forall a in g: q) || r",
            "(|| (&& p (forall a g q)) r)",
        ),
    ]);
}

#[test]
fn quantifiers_are_not_arithmetic_or_comparison_operands() {
    assert_rejected(&[
        "x + count a in g: p",
        "x < count a in g: p",
        "forall a in g: p && forall",
        "atleast a in g: p",
        "atleast -1 a in g: p",
        "forall a g: p",
    ]);
}

#[test]
fn incomplete_expressions_are_rejected() {
    assert_rejected(&[
        "p &&", "p S", "Y", "!", "(p", "p)", "", "p q", "L.", "E::", "@ p", "@L", "3.", "F = 3",
    ]);
}
