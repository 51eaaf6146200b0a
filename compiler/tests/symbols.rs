//! The editor's name index (`symbols.rs`) against the checker's scoping
//! rules, on specs that shadow and reuse names (hand-worked: each use below
//! says which declaration the checker reads).

use hindsight_compiler::symbols::{Kind, Symbols};

/// The kind and declaration offset of the name used at the `nth` occurrence of
/// `needle` (0-based) in `source`.
fn resolves(source: &str, needle: &str, nth: usize) -> Option<(Kind, usize)> {
    let file = hindsight_grammar::parse(source).expect("the spec parses");
    let symbols = Symbols::of(&file);
    let at = source.match_indices(needle).nth(nth).expect("the needle").0;
    let (id, _) = symbols.at(at)?;
    let symbol = &symbols.symbols[id];
    Some((symbol.kind, symbol.name_span.start))
}

fn offset(source: &str, needle: &str) -> usize {
    source.find(needle).expect("the needle")
}

#[test]
fn a_guard_reads_its_lifelines_variable_before_a_protocol_of_that_name() {
    // `tests` in the guard is Committer's variable (lets, then the lifeline's
    // variables, then variants), not the protocol declared with that name.
    let spec = "system s {\n    lifeline A { v: int }\n    lifeline Committer { tests: bool }\n    protocol tests = A -> Committer: m;\n    guard g at Committer = tests;\n}\n";
    let decl = offset(spec, "tests: bool");
    assert_eq!(resolves(spec, "tests;", 0), Some((Kind::Variable, decl)));
}

#[test]
fn a_quantifier_ranges_over_a_group_declared_below_it() {
    let spec = "system s {\n    lifeline A { v: int }\n    lifeline B { v: int }\n    guard g at A = exists r in G: r.v == 1;\n    group G = { A, B };\n}\n";
    let group = offset(spec, "G = {");
    assert_eq!(resolves(spec, "G:", 0), Some((Kind::Group, group)));
    // `r.v` reads the variable of the group's first member.
    let v_of_a = offset(spec, "v: int");
    assert_eq!(resolves(spec, "v == 1", 0), Some((Kind::Variable, v_of_a)));
}

#[test]
fn the_first_declaration_of_a_name_wins_as_in_the_checker() {
    // The checker reports the second `x` (E0201) and reads the first.
    let spec = "monitor m {\n    input x: bool;\n    let x = true;\n    property p = x;\n}\n";
    let first = offset(spec, "x: bool");
    assert_eq!(resolves(spec, "x;", 0), Some((Kind::Input, first)));
}

#[test]
fn a_bound_variable_shadows_a_global_and_a_variant_is_found_by_its_enum() {
    let spec = "enum H { ill, well }\npopulation p {\n    agent { h: H }\n    global { a: int }\n    property q = forall a in agents: a.h == H::ill;\n}\n";
    let bound = offset(spec, "a in agents");
    assert_eq!(resolves(spec, "a.h", 0), Some((Kind::Bound, bound)));
    let attribute = offset(spec, "h: H");
    assert_eq!(
        resolves(spec, "h ==", 0),
        Some((Kind::Attribute, attribute))
    );
    let ill = offset(spec, "ill");
    assert_eq!(resolves(spec, "ill;", 0), Some((Kind::Variant, ill)));
}
