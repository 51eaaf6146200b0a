//! The generated code of one small population, read by hand: the past
//! quantifier's stratum as bit lanes (`exists` counts the set bits of `sick`),
//! then the future quantifier's stratum as per-agent monitors in one array
//! (one pass per step capturing the members and counting their verdicts), the
//! top monitor, the combined property with restarts; `step_scalar` the same
//! step with the lane stratum one agent at a time.

use hindsight_codegen::generate_source;
use hindsight_compiler::compile;

const TINY: &str = "
population tiny {
    capacity 8;
    agent { sick: bool }
    global { alarm: bool }
    group sick_now = agents where sick;
    property some = exists a in agents: a.sick;
    property recover = (forall a in sick_now: F !a.sick) || alarm with reset;
}
";

#[test]
fn tiny_population_code() {
    let code = generate_source(&compile(TINY).unwrap().program).unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn names_rust_cannot_use_are_refused() {
    let source = "
population crate {
    agent { self: bool }
    global { super: bool }
    property Self = exists a in agents: a.self;
}
";
    let compiled = compile(source).unwrap();
    let diags = generate_source(&compiled.program).unwrap_err();
    let codes: Vec<_> = diags.iter().map(|d| d.code.clone().unwrap()).collect();
    // population, attribute, global, property: E0405.
    assert_eq!(codes, ["E0405"; 4], "{codes:?}");
    let messages: Vec<_> = diags.iter().map(|d| d.message.clone()).collect();
    assert!(
        messages.iter().any(|m| m.contains("attribute name `self`")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("global name `super`")),
        "{messages:?}"
    );
}
