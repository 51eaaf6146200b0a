//! Rendered diagnostics for every lexical and syntax error kind (insta snapshots),
//! plus hand-checked codes and spans.

use crate::common::nested_parens;
use hindsight_grammar::diag::{render, Diag};
use hindsight_grammar::parse;

fn diags(src: &str) -> Vec<Diag> {
    match parse(src) {
        Ok(file) => panic!("expected errors, got {file:?}"),
        Err(diags) => diags,
    }
}

fn rendered(src: &str) -> String {
    render("spec.hind", src, &diags(src))
}

/// (code, primary span) of every diagnostic.
fn codes_and_spans(src: &str) -> Vec<(String, std::ops::Range<usize>)> {
    diags(src)
        .iter()
        .map(|d| {
            let code = d.code.clone().unwrap_or_default();
            let span = d.labels.first().map(|l| l.range.clone()).unwrap_or(0..0);
            (code, span)
        })
        .collect()
}

/// One test per row, `name(source, code, span)`: the source has exactly one
/// error, `code` at `span`, and renders as the test's snapshot.
macro_rules! one_error_tests {
    ($($(#[$doc:meta])* $name:ident($src:expr, $code:expr, $span:expr);)*) => {$(
        $(#[$doc])*
        #[test]
        fn $name() {
            let src = $src;
            assert_eq!(codes_and_spans(src), vec![($code.to_string(), $span)]);
            insta::assert_snapshot!(rendered(src));
        }
    )*};
}

one_error_tests! {
    unexpected_character("monitor m {\n    input p: bool # note\n}\n", "E0001", 30..31);
    unterminated_block_comment("enum E { a }\n/* outer /* inner */ still open\nmonitor m { }\n", "E0002", 13..15);
    integer_out_of_range("monitor m { let big = x < 9223372036854775808; }", "E0003", 26..45);
    float_out_of_range("monitor m { let big = x < 1e999; }", "E0003", 26..31);
    malformed_number("monitor m { let n = x < 0x1F; }", "E0003", 24..28);
    missing_semicolon("monitor m {\n    input p: bool\n    input q: bool;\n}\n", "E0100", 29..29);
    /// After a formula, the `;` is missing at the end of its last token, not
    /// at the next item (as rustc places it).
    missing_semicolon_after_formula("monitor m {\n    property p = a && b // done\n\n    property q = a;\n}\n", "E0100", 35..35);
    /// On one line, the token that cannot follow is the error.
    unexpected_token_on_the_same_line("monitor m { input p: bool input q: bool; }", "E0100", 26..31);
    unexpected_token_in_expression("monitor m { property p = a && && b; }", "E0100", 30..32);
    operator_letter_as_name("monitor m { input F: bool; }", "E0100", 18..19);
    /// A lifeline may be named `W`, but a bare `W` in a formula is the operator:
    /// the diagnostic says where such a name can stand and how to rename it.
    operator_letter_name_used_bare("system s { lifeline W { x: int } lifeline B { } guard g at B = W; }", "E0100", 64..65);
    chained_comparison("monitor m { let c = a < b < c; }", "E0100", 26..27);
}

#[test]
fn unexpected_characters_run_and_hint() {
    let src = "monitor m {\n    let a = p & q;\n    let b = p €€ q;\n}\n";
    let found = codes_and_spans(src);
    // `&` is a protocol's operator, not a formula's: a syntax error, with
    // the hint to write `&&`. `€` is three bytes: the run covers both.
    assert_eq!(
        found,
        vec![("E0100".to_string(), 26..27), ("E0001".to_string(), 45..51)]
    );
    insta::assert_snapshot!(rendered(src));
}

#[test]
fn unexpected_end_of_file() {
    let src = "monitor m {\n    property p = G (a ->";
    let found = codes_and_spans(src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "E0101");
    insta::assert_snapshot!(rendered(src));
}

#[test]
fn every_error_of_a_file_is_reported() {
    let src = "\
enum Status { pending, passed, failed }

monitor door {
    input request: bool;
    input grant bool;
    let pending = !grant S request;
    property ok = request -> -> grant;
    property fine = G (request -> F grant);
}

system review {
    lifeline A { x: int }
    guard g at A = A.x == # 1;
}

population epidemic {
    agent { infected: bool }
    property big = (count a in agents: a.infected) <= 99999999999999999999;
}
";
    let found = codes_and_spans(src);
    let codes: Vec<&str> = found.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, vec!["E0100", "E0100", "E0001", "E0003"]);
    insta::assert_snapshot!(rendered(src));
}

#[test]
fn too_deep_nesting() {
    let src = nested_parens(300);
    let found = codes_and_spans(&src);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "E0100");
    let d = diags(&src);
    assert_eq!(d[0].message, "expression nested too deeply");
}

#[test]
fn recovery_at_item_level() {
    let src =
        "monitor { }\nenum E { a b }\nmonitor m { input p: bool; }\nsystem s { guard g at L = ; }";
    // `{` at 8, `b` at 23, the last `;` at 82. Recovery skips to the next item
    // keyword, so the valid monitor in between is parsed normally.
    assert_eq!(
        codes_and_spans(src),
        vec![
            ("E0100".to_string(), 8..9),
            ("E0100".to_string(), 23..24),
            ("E0100".to_string(), 82..83)
        ]
    );
}

#[test]
fn a_parse_error_caused_by_a_bad_character_is_not_reported_twice() {
    // Without `$`, the parser sees `a b`; only the lexical error is reported.
    let src = "monitor m { let x = a $ b; let y = ; }";
    assert_eq!(
        codes_and_spans(src),
        vec![("E0001".to_string(), 22..23), ("E0100".to_string(), 35..36)]
    );
}
