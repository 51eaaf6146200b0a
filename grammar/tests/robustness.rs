//! `parse` never panics: random bytes, random token soups and pathological nesting
//! all end in `Ok` or in well-formed diagnostics.

use crate::common::nested_parens;
use hindsight_grammar::parse;
use proptest::prelude::*;

/// Every diagnostic has a code and a primary label inside the source.
fn check_outcome(src: &str) -> Result<(), TestCaseError> {
    if let Err(diags) = parse(src) {
        prop_assert!(!diags.is_empty());
        for d in &diags {
            prop_assert!(
                d.code.as_deref().is_some_and(|c| c.starts_with('E')),
                "{d:?}"
            );
            let primary = d
                .labels
                .iter()
                .find(|l| l.style == hindsight_grammar::diag::LabelStyle::Primary);
            let Some(primary) = primary else {
                return Err(TestCaseError::fail(format!("no primary label: {d:?}")));
            };
            prop_assert!(primary.range.start <= primary.range.end, "{d:?}");
            prop_assert!(primary.range.end <= src.len(), "{d:?}");
            prop_assert!(src.is_char_boundary(primary.range.start), "{d:?}");
            prop_assert!(src.is_char_boundary(primary.range.end), "{d:?}");
        }
        // Rendering must not panic either.
        let _ = hindsight_grammar::diag::render("fuzz.hind", src, &diags);
    }
    Ok(())
}

const VOCABULARY: &[&str] = &[
    "enum",
    "monitor",
    "system",
    "population",
    "input",
    "let",
    "property",
    "with",
    "reset",
    "lifeline",
    "group",
    "guard",
    "at",
    "agent",
    "global",
    "agents",
    "where",
    "forall",
    "exists",
    "atleast",
    "atmost",
    "count",
    "in",
    "true",
    "false",
    "bool",
    "int",
    "float",
    "inf",
    "Y",
    "Z",
    "O",
    "H",
    "X",
    "F",
    "G",
    "S",
    "U",
    "W",
    "R",
    ";",
    ":",
    "::",
    ",",
    ".",
    "=",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "@",
    "&&",
    "||",
    "->",
    "<->",
    "!",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "p",
    "q",
    "L",
    "x",
    "Status",
    "passed",
    "a",
    "0",
    "3",
    "10",
    "2.5",
    "1e3",
    "99999999999999999999",
    "1e999",
    "0x1",
    "//c\n",
    "/* c */",
    "/*",
    "#",
    "é",
];

/// Random sequences from the language's own vocabulary, spaced or not.
fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(VOCABULARY), prop::bool::ANY), 0..60).prop_map(
        |tokens| {
            tokens.into_iter().fold(String::new(), |mut s, (t, space)| {
                s.push_str(t);
                if space {
                    s.push(' ');
                }
                s
            })
        },
    )
}

/// Token soups inside a valid frame, so that parsing gets deep into expressions.
fn framed_soup() -> impl Strategy<Value = String> {
    token_soup().prop_map(|soup| format!("monitor m {{ property p = {soup}; }}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_outcome(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn random_token_soups_never_panic(src in token_soup()) {
        check_outcome(&src)?;
    }

    #[test]
    fn framed_token_soups_never_panic(src in framed_soup()) {
        check_outcome(&src)?;
    }
}

fn assert_rejected_with_code(src: &str, code: &str) {
    let diags = parse(src).expect_err("should be rejected");
    assert!(
        diags.iter().any(|d| d.code.as_deref() == Some(code)),
        "expected {code}, got {diags:?}"
    );
}

#[test]
fn a_hundred_thousand_open_parentheses() {
    let src = format!("monitor m {{ let e = {}", "(".repeat(100_000));
    assert_rejected_with_code(&src, "E0101");
}

#[test]
fn a_hundred_thousand_balanced_parentheses() {
    let src = nested_parens(100_000);
    assert_rejected_with_code(&src, "E0100");
    // Reported once, not once per level.
    assert_eq!(parse(&src).unwrap_err().len(), 1);
}

#[test]
fn long_operator_chains() {
    let n = 100_000;
    for src in [
        format!("monitor m {{ let e = {}p; }}", "!".repeat(n)),
        format!("monitor m {{ let e = {}p; }}", "- ".repeat(n)),
        format!("monitor m {{ let e = p{}; }}", " && p".repeat(n)),
        format!("monitor m {{ let e = p{}; }}", " -> p".repeat(n)),
        format!("monitor m {{ let e = p{}; }}", " S p".repeat(n)),
        format!("monitor m {{ let e = {}p; }}", "forall a in g: ".repeat(n)),
    ] {
        assert_rejected_with_code(&src, "E0100");
    }
}

#[test]
fn nesting_just_below_the_limit_is_accepted() {
    let n = 255;
    assert!(parse(&nested_parens(n)).is_ok());
    let src = format!("monitor m {{ let e = p{}; }}", " && p".repeat(n));
    assert!(parse(&src).is_ok());
}

#[test]
fn unbalanced_deep_input_in_many_items() {
    let src = "monitor m { let e = ((((((((p; }\n".repeat(1_000);
    let diags = parse(&src).unwrap_err();
    assert!(!diags.is_empty());
}

#[test]
fn large_garbage_is_handled_quickly() {
    let start = std::time::Instant::now();
    let chunk = "monitor m { let x = p & q; input 3x: ; property = G G G ( ; } # ";
    let src = chunk.repeat(5_000);
    let diags = parse(&src).unwrap_err();
    assert!(diags.len() >= 5_000);
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}
