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
    // `F[0,20000] q` under `X` (not a deadline's shape) waits up to 20,000
    // steps: one state per step still open, beyond the limit of 10,000. The
    // note names the shapes whose windows are counters.
    let src = "monitor m {\n    input q: bool;\n    property far = X F[0,20000] q;\n}\n";
    let (codes, rendered) = errors(src);
    assert_eq!(codes, ["E0407"]);
    assert!(rendered.contains("F[0,20000] q"), "{rendered}");
    assert!(rendered.contains("costs one counter"), "{rendered}");
    insta::assert_snapshot!(rendered);
}

#[test]
fn overlapping_deadlines_stay_one_obligation() {
    // Every pending deadline of `F[0,30]` is implied by the earliest one, so the
    // automaton has b + 3 = 33 states (once 2^30 residuals before
    // minimization). Under `||` with a part of its own (`F r`) the response
    // is not a deadline's shape: it is unrolled, its part the first automaton.
    let src = "monitor m {\n    input p: bool;\n    input q: bool;\n    input r: bool;\n    property deadlines = G (p -> F[0,30] q) || F r;\n}\n";
    let compiled = compile(src).expect("compiles");
    assert_eq!(compiled.program.monitors[0].automata[0].states.len(), 33);
}

#[test]
fn a_construction_over_the_work_budget_is_refused_naming_the_window() {
    // Deadlines of up to 500 steps, unrolled under `X`: b + 4 states, but
    // deciding which pending deadline implies which costs more than a budget
    // of a million units (the default budget is larger; a smaller one keeps
    // the test quick).
    let src = "monitor m {\n    input p: bool;\n    input q: bool;\n    property deadlines = X G (p -> F[0,500] q);\n}\n";
    let file = hindsight_grammar::parse(src).expect("parses");
    let (spec, _) = hindsight_compiler::check::check(&file);
    let spec = spec.expect("checks");
    let mut budget = hindsight_compiler::ltl3::Budget::new(1_000_000);
    let diags = hindsight_compiler::lower::lower(&spec, &spec.monitors[0], &mut budget)
        .expect_err("over the budget");
    let rendered = render("spec.hind", src, &diags);
    assert_eq!(diags[0].code.as_deref(), Some("E0407"));
    assert!(rendered.contains("too much work"), "{rendered}");
    insta::assert_snapshot!(rendered);
}

#[test]
fn too_many_atoms_for_one_automaton() {
    // Thirteen distinct inputs, each under a future operator of its own
    // (`F (a0 && F (a1 && ...))`): no Boolean part over inputs to fold, and
    // the letters would be 2^13.
    let names: Vec<String> = (0..13).map(|i| format!("a{i}")).collect();
    let inputs: String = names
        .iter()
        .map(|n| format!("    input {n}: bool;\n"))
        .collect();
    let chain = names
        .iter()
        .rev()
        .fold(String::new(), |inner, n| match inner.is_empty() {
            true => format!("F {n}"),
            false => format!("F ({n} && {inner})"),
        });
    let src = format!("monitor m {{\n{inputs}    property all = {chain};\n}}\n");
    let (codes, rendered) = errors(&src);
    assert_eq!(codes, ["E0408"]);
    insta::assert_snapshot!(rendered);
}

/// The same thirteen inputs in one Boolean part under `F` fold into one
/// atom: the property compiles, to an automaton reading that atom.
#[test]
fn a_boolean_part_over_many_inputs_is_one_atom() {
    let names: Vec<String> = (0..13).map(|i| format!("a{i}")).collect();
    let inputs: String = names
        .iter()
        .map(|n| format!("    input {n}: bool;\n"))
        .collect();
    let src = format!(
        "monitor m {{\n{inputs}    property all = F ({});\n}}\n",
        names.join(" && ")
    );
    let compiled = compile(&src).expect("compiles");
    let table = &compiled.program.monitors[0];
    assert_eq!(table.automata.len(), 1);
    assert_eq!(table.automata[0].atoms.len(), 1);
    assert_eq!(table.outputs[0].parts[0].text, names.join(" && "));
}

/// A response window of any length is one deadline counting steps: no
/// automaton, the window kept as written, whatever `b`.
#[test]
fn a_response_window_of_any_length_is_a_counter() {
    for b in [10u64, 1_000, 1_000_000, 1 << 32] {
        let src = format!(
            "monitor m {{\n    input p: bool;\n    input q: bool;\n    property r = G (p -> F[0,{b}] q);\n}}\n"
        );
        let compiled =
            compile(&src).unwrap_or_else(|d| panic!("{}", render("spec.hind", &src, &d)));
        let table = &compiled.program.monitors[0];
        assert!(table.automata.is_empty(), "b = {b}");
        let pattern = table.timed[0].pattern;
        assert!(pattern.steps && pattern.every, "b = {b}");
        assert_eq!((pattern.lo, pattern.hi), (0, b));
    }
}

/// A degenerate operand keeps the automaton, which decides at once what a
/// deadline would leave open: `G (p -> F[0,3] (p || q))` holds from the start.
#[test]
fn a_degenerate_window_keeps_the_automaton() {
    let src = "monitor m {\n    input p: bool;\n    input q: bool;\n    property r = G (p -> F[0,3] (p || q));\n}\n";
    let compiled = compile(src).expect("compiles");
    assert_eq!(compiled.program.monitors[0].automata.len(), 1);
    assert!(compiled.program.monitors[0].timed.is_empty());
    let codes: Vec<_> = compiled.warnings.iter().map(|d| d.code.clone()).collect();
    assert_eq!(codes, [Some("W0102".to_string())]);
}
