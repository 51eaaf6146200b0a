//! Compiling spec texts for the code generator's tests, with the compiler's
//! diagnostics rendered (as `spec.hind`) where a text must get through.

use hindsight_codegen::{generate, generate_source};
use hindsight_compiler::diag::render;
use hindsight_compiler::{compile, Compiled};

/// Compiles `src`, which must compile.
pub(crate) fn compiled(src: &str) -> Compiled {
    compile(src).unwrap_or_else(|d| panic!("{}", render("spec.hind", src, &d)))
}

/// The code generator's diagnostics for `src` (which must compile but not
/// generate), rendered, after asserting their codes and that
/// [`generate_source`] refuses with the same ones.
pub(crate) fn generator_errors(name: &str, src: &str, expected_codes: &[&str]) -> String {
    let compiled = compiled(src);
    let Err(diags) = generate(&compiled.program) else {
        panic!("{name}: generated code");
    };
    let codes: Vec<&str> = diags
        .iter()
        .map(|d| d.code.as_deref().unwrap_or("-"))
        .collect();
    let rendered = render("spec.hind", src, &diags);
    assert_eq!(codes, expected_codes, "{rendered}");
    assert_eq!(generate_source(&compiled.program).err(), Some(diags));
    rendered
}

/// Asserts that the code generator refuses `src` with the diagnostic codes
/// `codes` ([`generator_errors`]) and snapshots them rendered as `name`. A
/// macro, so the snapshot belongs to the calling test module.
macro_rules! assert_rejected {
    ($name:expr, $src:expr, $codes:expr $(,)?) => {
        insta::assert_snapshot!(
            $name,
            $crate::support::generator_errors($name, $src, $codes)
        )
    };
}
pub(crate) use assert_rejected;
