//! Generated Rust for `system` blocks (docs/generated-code.md, "Systems"):
//! the stamp's size and fingerprint worked out by hand, and the rejections.
//! The code of the system specs in `tests/codegen/specs/` (the code-review
//! system, one with every kind of view entry) is snapshotted by
//! `codegen_examples`; `tests/codegen` compiles and runs it.

use crate::support::{assert_rejected, compiled};
use hindsight_codegen::generate_source;
use hindsight_compiler::diag::render;

const REVIEW: &str = include_str!("../../tests/codegen/specs/system_review.hind");

fn source_of(src: &str) -> String {
    generate_source(&compiled(src).program)
        .unwrap_or_else(|d| panic!("{}", render("spec.hind", src, &d)))
}

#[test]
fn review_stamp_size_and_fingerprint() {
    let compiled = compiled(REVIEW);
    let layout = &compiled.program.systems[0].layout;
    let code = source_of(REVIEW);
    // Header 9, four clock components of at most 9 bytes (below 2^63), one
    // byte for the four entry bits, two int values of 8 bytes.
    assert!(
        code.contains("pub const BYTES: ::core::primitive::usize = 62;"),
        "{code}"
    );
    let fingerprint = format!(
        "pub const FINGERPRINT: ::core::primitive::u64 = {}u64;",
        layout.fingerprint()
    );
    assert!(code.contains(&fingerprint), "{code}");
    for module in [
        "pub mod review",
        "pub mod Orchestrator",
        "pub mod TestRunner",
        "pub mod Security",
        "pub mod Committer",
    ] {
        assert!(code.contains(module), "{module}");
    }
    // The one enum the variables use is imported for the lifeline modules.
    assert!(code.contains("use super::Status;"));
}

#[test]
fn unusable_names() {
    assert_rejected!(
        "system_unusable_names",
        "system super { lifeline self { _: int } lifeline B { x: int } guard crate at B = B.x == 1; }\n",
        &["E0405", "E0405", "E0405", "E0405"],
    );
}

#[test]
fn names_colliding_in_the_system_module() {
    assert_rejected!(
        "system_colliding_names",
        "enum Mode { a }\nenum Unused { b }\nsystem s { lifeline Stamp { m: Mode } lifeline Mode { } lifeline Unused { } }\n",
        &["E0405", "E0405"],
    );
}
