//! Precedence and associativity of every operator level (language.md section 2),
//! checked through an s-expression rendering of the AST.

use crate::common::{rejects, sexpr};

#[test]
fn atoms_and_terms() {
    assert_eq!(sexpr("x"), "x");
    assert_eq!(sexpr("L.x"), "L.x");
    assert_eq!(sexpr("Status::passed"), "Status::passed");
    assert_eq!(sexpr("3"), "3");
    assert_eq!(sexpr("2.5"), "2.5");
    assert_eq!(sexpr("1e3"), "1000.0");
    assert_eq!(sexpr("2.5e-3"), "0.0025");
    assert_eq!(sexpr("true"), "true");
    assert_eq!(sexpr("false"), "false");
    assert_eq!(sexpr("agents"), "agents");
    assert_eq!(sexpr("_under_score9"), "_under_score9");
    assert_eq!(sexpr("((x))"), "x");
}

#[test]
fn arithmetic() {
    assert_eq!(sexpr("a * b + c * d"), "(+ (* a b) (* c d))");
    assert_eq!(sexpr("a + b * c"), "(+ a (* b c))");
    assert_eq!(sexpr("a - b - c"), "(- (- a b) c)");
    assert_eq!(sexpr("a - b + c"), "(+ (- a b) c)");
    assert_eq!(sexpr("a * b * c"), "(* (* a b) c)");
    assert_eq!(sexpr("(a + b) * c"), "(* (+ a b) c)");
}

#[test]
fn unary_minus_binds_to_terms() {
    assert_eq!(sexpr("-x * y"), "(* (neg x) y)");
    assert_eq!(sexpr("-3 + 2"), "(+ (neg 3) 2)");
    assert_eq!(sexpr("- - x"), "(neg (neg x))");
    assert_eq!(sexpr("a - -b"), "(- a (neg b))");
    assert_eq!(sexpr("-L.x < 2.5"), "(< (neg L.x) 2.5)");
}

#[test]
fn comparisons_are_looser_than_arithmetic() {
    assert_eq!(sexpr("a + b < c * d"), "(< (+ a b) (* c d))");
    assert_eq!(sexpr("a == b"), "(== a b)");
    assert_eq!(sexpr("a != b"), "(!= a b)");
    assert_eq!(sexpr("a < b"), "(< a b)");
    assert_eq!(sexpr("a <= b"), "(<= a b)");
    assert_eq!(sexpr("a > b"), "(> a b)");
    assert_eq!(sexpr("a >= b"), "(>= a b)");
    assert_eq!(sexpr("L.x == Status::passed"), "(== L.x Status::passed)");
}

#[test]
fn comparisons_do_not_chain() {
    assert!(rejects("a < b < c"));
    assert!(rejects("a == b == c"));
    assert!(rejects("a <= b != c"));
    assert_eq!(sexpr("(a < b) == c"), "(== (< a b) c)");
}

#[test]
fn prefix_operators_are_looser_than_comparisons() {
    assert_eq!(sexpr("!x == 1"), "(! (== x 1))");
    assert_eq!(sexpr("Y p == q"), "(Y (== p q))");
    assert_eq!(sexpr("!p"), "(! p)");
    assert_eq!(sexpr("!!p"), "(! (! p))");
    assert_eq!(sexpr("Y p"), "(Y p)");
    assert_eq!(sexpr("Z p"), "(Z p)");
    assert_eq!(sexpr("O p"), "(O p)");
    assert_eq!(sexpr("H p"), "(H p)");
    assert_eq!(sexpr("X p"), "(X p)");
    assert_eq!(sexpr("F p"), "(F p)");
    assert_eq!(sexpr("G p"), "(G p)");
    assert_eq!(sexpr("X G !load"), "(X (G (! load)))");
    assert_eq!(
        sexpr("G (load -> X G !load)"),
        "(G (-> load (X (G (! load)))))"
    );
}

#[test]
fn at_lifeline() {
    assert_eq!(sexpr("@L p"), "(@L p)");
    assert_eq!(sexpr("@L p && q"), "(&& (@L p) q)");
    assert_eq!(sexpr("@L O p"), "(@L (O p))");
    assert_eq!(sexpr("@L x == 1"), "(@L (== x 1))");
    assert_eq!(
        sexpr("@TestRunner (status != failed S status == passed)"),
        "(@TestRunner (S (!= status failed) (== status passed)))"
    );
}

#[test]
fn bounds() {
    assert_eq!(sexpr("O[1,5] p"), "(O[1,5] p)");
    assert_eq!(sexpr("H[0, inf] p"), "(H[0,inf] p)");
    assert_eq!(sexpr("F[2,3] p"), "(F[2,3] p)");
    assert_eq!(sexpr("G[0,10] p"), "(G[0,10] p)");
    // Accepted syntactically on every unary temporal operator; the checker judges.
    assert_eq!(sexpr("Y[1,1] p"), "(Y[1,1] p)");
    assert_eq!(sexpr("Z[1,2] p"), "(Z[1,2] p)");
    assert_eq!(sexpr("X[1,2] p"), "(X[1,2] p)");
    assert_eq!(sexpr("p S[1,inf] q"), "(S[1,inf] p q)");
    assert_eq!(sexpr("p U[0,4] q"), "(U[0,4] p q)");
    assert_eq!(sexpr("p W[0,4] q"), "(W[0,4] p q)");
    assert_eq!(sexpr("p R[2,4] q"), "(R[2,4] p q)");
    // The checker reports reversed bounds; the parser keeps them as written.
    assert_eq!(sexpr("O[5,2] p"), "(O[5,2] p)");
}

#[test]
fn malformed_bounds_are_rejected() {
    assert!(rejects("O[1] p"));
    assert!(rejects("O[-1,2] p"));
    assert!(rejects("O[1,2,3] p"));
    assert!(rejects("O[inf,2] p"));
    assert!(rejects("O[1.5,2] p"));
    assert!(rejects("![1,2] p"));
}

#[test]
fn binary_temporal_operators_are_right_associative() {
    assert_eq!(sexpr("!p S q"), "(S (! p) q)");
    assert_eq!(sexpr("p S q S r"), "(S p (S q r))");
    assert_eq!(sexpr("p U q W r R s"), "(U p (W q (R r s)))");
    assert_eq!(sexpr("a == 1 S b"), "(S (== a 1) b)");
    assert_eq!(sexpr("Y p S q"), "(S (Y p) q)");
    assert_eq!(sexpr("p S[1,2] q U r"), "(S[1,2] p (U q r))");
}

#[test]
fn boolean_levels() {
    assert_eq!(sexpr("p S q && r"), "(&& (S p q) r)");
    assert_eq!(sexpr("p && q U r"), "(&& p (U q r))");
    assert_eq!(sexpr("p && q && r"), "(&& (&& p q) r)");
    assert_eq!(sexpr("p && q || r"), "(|| (&& p q) r)");
    assert_eq!(sexpr("p || q && r"), "(|| p (&& q r))");
    assert_eq!(sexpr("p || q || r"), "(|| (|| p q) r)");
    assert_eq!(sexpr("p || q -> r"), "(-> (|| p q) r)");
    assert_eq!(sexpr("p -> q || r"), "(-> p (|| q r))");
    assert_eq!(sexpr("p -> q -> r"), "(-> p (-> q r))");
    assert_eq!(sexpr("p -> q <-> r"), "(<-> (-> p q) r)");
    assert_eq!(sexpr("p <-> q -> r"), "(<-> p (-> q r))");
    // `<->` is left associative.
    assert_eq!(sexpr("p <-> q <-> r"), "(<-> (<-> p q) r)");
    assert_eq!(sexpr("(p || q) && r"), "(&& (|| p q) r)");
    assert_eq!(sexpr("alarm -> pending"), "(-> alarm pending)");
}

#[test]
fn quantifiers() {
    assert_eq!(
        sexpr("forall a in females: F a.infected"),
        "(forall a females (F a.infected))"
    );
    assert_eq!(
        sexpr("exists a in grp: a.x > 3"),
        "(exists a grp (> a.x 3))"
    );
    assert_eq!(
        sexpr("atleast 3 a in females: G !a.infected"),
        "(atleast 3 a females (G (! a.infected)))"
    );
    assert_eq!(
        sexpr("atmost 0 a in agents: a.sick"),
        "(atmost 0 a agents a.sick)"
    );
    assert_eq!(
        sexpr("G ((count a in agents: a.infected) <= 10)"),
        "(G (<= (count a agents a.infected) 10))"
    );
}

#[test]
fn quantifier_bodies_extend_right() {
    assert_eq!(sexpr("forall a in g: p && q"), "(forall a g (&& p q))");
    assert_eq!(
        sexpr("forall a in g: p -> q <-> r"),
        "(forall a g (<-> (-> p q) r))"
    );
    assert_eq!(
        sexpr("forall a in g: exists b in g: p || q"),
        "(forall a g (exists b g (|| p q)))"
    );
    // Without parentheses, `count`'s body takes the comparison.
    assert_eq!(sexpr("count a in g: p <= 10"), "(count a g (<= p 10))");
    assert_eq!(sexpr("(forall a in g: p) && q"), "(&& (forall a g p) q)");
}

#[test]
fn quantifiers_as_right_operands() {
    assert_eq!(
        sexpr("p && forall a in grp: q || r"),
        "(&& p (forall a grp (|| q r)))"
    );
    assert_eq!(
        sexpr("p || exists a in g: q && r"),
        "(|| p (exists a g (&& q r)))"
    );
    assert_eq!(
        sexpr("p -> forall a in g: q -> r"),
        "(-> p (forall a g (-> q r)))"
    );
    assert_eq!(sexpr("p <-> forall a in g: q"), "(<-> p (forall a g q))");
    assert_eq!(sexpr("p S forall a in g: q"), "(S p (forall a g q))");
    assert_eq!(
        sexpr("p && q -> exists a in g: r"),
        "(-> (&& p q) (exists a g r))"
    );
    assert_eq!(
        sexpr("G forall a in g: p || q"),
        "(G (forall a g (|| p q)))"
    );
    assert_eq!(sexpr("! exists a in g: p"), "(! (exists a g p))");
    assert_eq!(sexpr("@L forall a in g: p"), "(@L (forall a g p))");
    assert_eq!(
        sexpr("(p && forall a in g: q) || r"),
        "(|| (&& p (forall a g q)) r)"
    );
}

#[test]
fn quantifiers_are_not_arithmetic_or_comparison_operands() {
    assert!(rejects("x + count a in g: p"));
    assert!(rejects("x < count a in g: p"));
    assert!(rejects("forall a in g: p && forall"));
    assert!(rejects("atleast a in g: p"));
    assert!(rejects("atleast -1 a in g: p"));
    assert!(rejects("forall a g: p"));
}

#[test]
fn incomplete_expressions_are_rejected() {
    for src in [
        "p &&", "p S", "Y", "!", "(p", "p)", "", "p q", "L.", "E::", "@ p", "@L", "3.", "F = 3",
    ] {
        assert!(rejects(src), "`{src}` should be rejected");
    }
}
