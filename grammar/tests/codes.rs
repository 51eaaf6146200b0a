//! The code registry ([`Code`]) against the table of docs/errors.md: every row
//! is a registry entry and every entry a row, in the same order, with the same
//! stage and meaning.

use hindsight_grammar::diag::Code;

const ERRORS_MD: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md"));

/// The cells of a markdown table row (`| a | b \| c |`), trimmed, with `\|` unescaped.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                cells.last_mut().unwrap().push('|');
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// The (code, stage, meaning) rows of the `| code | stage | meaning |` table.
fn documented() -> Vec<(String, String, String)> {
    let mut lines = ERRORS_MD.lines();
    lines
        .by_ref()
        .find(|l| cells(l) == ["code", "stage", "meaning"])
        .expect("docs/errors.md has a `| code | stage | meaning |` table");
    let separator = lines.next().expect("the table has a separator row");
    assert!(
        separator.starts_with("|---"),
        "not a separator: {separator}"
    );
    lines
        .take_while(|l| l.starts_with('|'))
        .map(|l| match <[String; 3]>::try_from(cells(l)) {
            Ok([code, stage, meaning]) => (code, stage, meaning),
            Err(cells) => panic!("a row of docs/errors.md has {} cells: {l}", cells.len()),
        })
        .collect()
}

#[test]
fn registry_matches_docs_row_by_row() {
    let registry: Vec<(String, String, String)> = Code::ALL
        .iter()
        .map(|c| (c.as_str().into(), c.stage().into(), c.meaning().into()))
        .collect();
    let documented = documented();
    for (i, (r, d)) in registry.iter().zip(&documented).enumerate() {
        assert_eq!(r, d, "row {i} of docs/errors.md differs from the registry");
    }
    assert_eq!(
        registry.len(),
        documented.len(),
        "docs/errors.md and Code::ALL have different numbers of codes"
    );
}

#[test]
fn codes_are_unique_and_sorted() {
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    for pair in codes.windows(2) {
        assert!(pair[0] < pair[1], "{} is not before {}", pair[0], pair[1]);
    }
    let mut variants = Code::ALL.to_vec();
    variants.sort();
    variants.dedup();
    assert_eq!(variants.len(), Code::ALL.len(), "a variant is listed twice");
}

#[test]
fn codes_are_well_formed_and_display_as_str() {
    for code in Code::ALL {
        let s = code.as_str();
        assert!(
            s.len() == 5
                && (s.starts_with('E') || s.starts_with('W'))
                && s[1..].bytes().all(|b| b.is_ascii_digit()),
            "malformed code {s}"
        );
        assert_eq!(code.to_string(), s);
    }
}
