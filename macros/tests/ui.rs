//! Compile-time behaviour of `#[monitor]`: spec errors as Rust compile errors
//! (snapshots in `tests/ui/*.stderr`). Crates that use the macro successfully
//! are in `forms.rs`: without a passing case, trybuild only checks (never links)
//! the failing ones, which keeps this test quick.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/fail_*.rs");
}
