//! Compile-time behaviour of `#[monitor]`: spec errors as Rust compile errors
//! (snapshots in `tests/ui/*.stderr`), and a crate that uses the macro.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/fail_*.rs");
    cases.pass("tests/ui/pass_*.rs");
}
