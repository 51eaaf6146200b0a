//! Spec names Rust cannot use at all are rejected with E0405 at their
//! declaration; Rust keywords become raw identifiers.

use crate::support::assert_rejected;
use hindsight_codegen::generate;
use hindsight_compiler::compile;
use hindsight_compiler::diag::render;

#[test]
fn every_kind_of_declaration() {
    assert_rejected!(
        "unusable_names",
        "enum crate { a, self }\n\nmonitor super {\n    input _: bool;\n    input mode: crate;\n    property Self = Y _;\n}\n",
        &["E0405", "E0405", "E0405", "E0405", "E0405"],
    );
}

#[test]
fn keywords_become_raw_identifiers() {
    let src =
        "enum match { fn }\nmonitor type { input loop: match; property async = loop == fn; }\n";
    let compiled = compile(src).unwrap();
    let code = generate(&compiled.program).unwrap().to_string();
    for raw in [
        "pub enum r#match",
        "r#fn",
        "pub mod r#type",
        "pub r#loop",
        "pub r#async",
    ] {
        assert!(code.contains(raw), "no `{raw}` in {code}");
    }
    // The names as the spec spells them, for schemas and trace formats.
    assert!(code.contains("monitor : \"type\""), "{code}");
}

#[test]
fn an_enum_without_variants_is_refused_by_the_checker() {
    // No value of it exists, used or not (E0207; once E0406, from codegen).
    for src in [
        "enum Never {}\nmonitor m { input ok: bool; property p = ok; }\n",
        "enum Never {}\nmonitor m { input never: Never; property p = never == never; }\n",
        "enum Never { }\nsystem s { lifeline A { v: Never } }\n",
    ] {
        let diags = compile(src).expect_err("refused");
        let codes: Vec<_> = diags.iter().filter_map(|d| d.code.as_deref()).collect();
        assert_eq!(codes, ["E0207"], "{}", render("spec.hind", src, &diags));
    }
    let src = "enum Never {}\nmonitor m { input ok: bool; property p = ok; }\n";
    insta::assert_snapshot!(
        "empty_enum",
        render("spec.hind", src, &compile(src).expect_err("refused"))
    );
}
