//! Diagnostics of future-time properties whose automaton cannot be built.

use hindsight_compiler::compile;
use hindsight_grammar::diag::render;

fn errors(src: &str) -> (Vec<String>, String) {
    let diags = compile(src).expect_err("the spec must be rejected");
    let codes = diags
        .iter()
        .map(|d| d.code.clone().unwrap_or_default())
        .collect();
    (codes, render("spec.hind", src, &diags))
}

#[test]
fn an_automaton_over_the_state_limit_names_the_responsible_window() {
    // Overlapping deadlines of F[0,30]: before minimization every set of pending
    // deadlines is a state, far beyond the limit of 10,000.
    let src = "monitor m {\n    input p: bool;\n    input q: bool;\n    property deadlines = G (p -> F[0,30] q);\n}\n";
    let (codes, rendered) = errors(src);
    assert_eq!(codes, ["E0407"]);
    assert!(rendered.contains("F[0,30] q"), "{rendered}");
    insta::assert_snapshot!(rendered);
}

#[test]
fn too_many_atoms_for_one_automaton() {
    // Thirteen distinct inputs under one future operator: letters would be 2^13.
    let names: Vec<String> = (0..13).map(|i| format!("a{i}")).collect();
    let inputs: String = names
        .iter()
        .map(|n| format!("    input {n}: bool;\n"))
        .collect();
    let src = format!(
        "monitor m {{\n{inputs}    property all = F ({});\n}}\n",
        names.join(" && ")
    );
    let (codes, rendered) = errors(&src);
    assert_eq!(codes, ["E0408"]);
    insta::assert_snapshot!(rendered);
}
