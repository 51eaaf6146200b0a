//! Exact byte spans of AST nodes.

use crate::common::parse_expr;
use hindsight_grammar::ast::{ExprKind, Item, MonitorMember, Span, SystemMember};
use hindsight_grammar::parse;

/// `monitor m { let e = ` is 20 bytes: expression offsets start there.
const OFFSET: usize = 20;

fn at(start: usize, end: usize) -> Span {
    Span::new(OFFSET + start, OFFSET + end)
}

#[test]
fn binary_spans_cover_operands_and_record_the_operator() {
    //            0123456789012
    let e = parse_expr("a && (b || c)");
    assert_eq!(e.span, at(0, 13));
    let ExprKind::Binary {
        op_span, lhs, rhs, ..
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!(*op_span, at(2, 4));
    assert_eq!(lhs.span, at(0, 1));
    // Parentheses belong to the inner expression's span.
    assert_eq!(rhs.span, at(5, 13));
    let ExprKind::Binary { op_span, .. } = &rhs.kind else {
        panic!("{rhs:?}")
    };
    assert_eq!(*op_span, at(8, 10));
}

#[test]
fn bounded_operators_keep_the_letter_and_the_bound_apart() {
    //            012345678901234567
    let e = parse_expr("p S[1,inf] O[2,3] q");
    assert_eq!(e.span, at(0, 19));
    let ExprKind::Temporal {
        op_span,
        bound: Some(b),
        rhs,
        ..
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!(*op_span, at(2, 3));
    assert_eq!(b.span, at(3, 10));
    assert_eq!((b.lo, b.hi), (1, None));
    assert_eq!(rhs.span, at(11, 19));
    let ExprKind::Unary {
        op_span,
        bound: Some(b),
        arg,
        ..
    } = &rhs.kind
    else {
        panic!("{rhs:?}")
    };
    assert_eq!(*op_span, at(11, 12));
    assert_eq!(b.span, at(12, 17));
    assert_eq!((b.lo, b.hi), (2, Some(3)));
    assert_eq!(arg.span, at(18, 19));
}

#[test]
fn terms_and_prefixes() {
    //            0123456789012345678901234567
    let e = parse_expr("!@L L.x == Status::passed");
    assert_eq!(e.span, at(0, 25));
    let ExprKind::Not(at_l) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(at_l.span, at(1, 25));
    let ExprKind::At { lifeline, arg } = &at_l.kind else {
        panic!("{at_l:?}")
    };
    assert_eq!(lifeline.span, at(2, 3));
    let ExprKind::Binary {
        lhs, rhs, op_span, ..
    } = &arg.kind
    else {
        panic!("{arg:?}")
    };
    assert_eq!(*op_span, at(8, 10));
    assert_eq!(lhs.span, at(4, 7));
    let ExprKind::Field { base, field } = &lhs.kind else {
        panic!("{lhs:?}")
    };
    assert_eq!((base.span, field.span), (at(4, 5), at(6, 7)));
    assert_eq!(rhs.span, at(11, 25));
    let ExprKind::Variant { enum_name, variant } = &rhs.kind else {
        panic!("{rhs:?}")
    };
    assert_eq!((enum_name.span, variant.span), (at(11, 17), at(19, 25)));
}

#[test]
fn quantifier_and_negation_spans() {
    //            0123456789012345678901234
    let e = parse_expr("atleast 2 a in g: -a.x < 1");
    assert_eq!(e.span, at(0, 26));
    let ExprKind::Quant {
        var, group, body, ..
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!((var.span, group.span), (at(10, 11), at(15, 16)));
    assert_eq!(body.span, at(18, 26));
    let ExprKind::Binary { lhs, .. } = &body.kind else {
        panic!("{body:?}")
    };
    assert_eq!(lhs.span, at(18, 22));
}

#[test]
fn item_and_member_spans() {
    let src = "system s {\n  lifeline L { x: int };\n  guard g at L = L.x > 0;\n}\n";
    let file = parse(src).unwrap();
    let [Item::System(s)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    assert_eq!(s.span, Span::new(0, src.len() - 1));
    let SystemMember::Lifeline { span, vars, .. } = &s.members[0] else {
        panic!()
    };
    // The optional `;` after the lifeline's `}` is not part of it.
    assert_eq!(&src[span.range()], "lifeline L { x: int }");
    assert_eq!(&src[vars[0].span.range()], "x: int");
    assert_eq!(&src[vars[0].ty.span().range()], "int");
    let SystemMember::Guard { span, formula, .. } = &s.members[1] else {
        panic!()
    };
    assert_eq!(&src[span.range()], "guard g at L = L.x > 0;");
    assert_eq!(&src[formula.span.range()], "L.x > 0");

    let src = "monitor m { input p: bool; property q = p with reset; }";
    let file = parse(src).unwrap();
    let [Item::Monitor(m)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    let MonitorMember::Input(f) = &m.members[0] else {
        panic!()
    };
    assert_eq!(&src[f.field.span.range()], "input p: bool;");
    let MonitorMember::Property(p) = &m.members[1] else {
        panic!()
    };
    assert_eq!(&src[p.span.range()], "property q = p with reset;");
    assert_eq!(&src[p.reset.unwrap().range()], "with reset");
}

#[test]
fn spans_count_bytes_not_chars() {
    // `é` is two bytes.
    let src = "// é\nmonitor m { let e = p; }";
    let file = parse(src).unwrap();
    let [Item::Monitor(m)] = file.items.as_slice() else {
        panic!("{file:?}")
    };
    let MonitorMember::Let(l) = &m.members[0] else {
        panic!()
    };
    assert_eq!(l.value.span, Span::new(26, 27));
    assert_eq!(&src[l.value.span.range()], "p");
}
