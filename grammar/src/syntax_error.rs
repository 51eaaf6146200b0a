//! Turns the parser's errors into user-facing diagnostics (E0100, E0101).
//!
//! lalrpop names expected terminals as they are written in the grammar
//! (`"\"&&\""`, `"IDENT"`); this module translates them into the user's terms,
//! folds everything that can start an expression into "an expression", and
//! shortens long lists.

use std::convert::Infallible;

use lalrpop_util::ParseError;

use crate::ast::{BinaryTemporal, Span, UnaryTemporal};
use crate::diag::{Code, Diag, Label};
use crate::lexer::{Keyword, Token};
use crate::ops::operator_letters;

/// How many expected alternatives are listed before the list is cut short.
const MAX_LISTED: usize = 6;

/// Terminals that can start an expression, as lalrpop names them.
const EXPRESSION_STARTS: &[&str] = &[
    "IDENT",
    "INT",
    "FLOAT",
    "\"true\"",
    "\"false\"",
    "\"(\"",
    "\"!\"",
    "\"-\"",
    "\"@\"",
    "UNARY_OP",
    // Lifeline, agent, group or enum names before `.` or `::` (`W.x`).
    "BINARY_OP",
    "\"forall\"",
    "\"exists\"",
    "\"atleast\"",
    "\"atmost\"",
    "\"count\"",
];

/// Keywords that are also names (the grammar's `Name` rule): they start a
/// member or a clause, and are names everywhere else. Where a name is
/// expected, "a name" covers them.
const CONTEXTUAL_KEYWORDS: &[&str] = &[
    "\"reset\"",
    "\"time\"",
    "\"sessions\"",
    "\"input\"",
    "\"steps\"",
    "\"lifeline\"",
    "\"group\"",
    "\"guard\"",
    "\"at\"",
    "\"agent\"",
    "\"global\"",
    "\"where\"",
    "\"from\"",
    "\"default\"",
    "\"hold\"",
    "\"initially\"",
    "\"present\"",
    "\"protocol\"",
    "\"goal\"",
];

/// The diagnostic for one syntax error in `source`, whose tokens end at
/// `token_ends` (ascending).
pub(crate) fn diagnose(
    source: &str,
    token_ends: &[usize],
    error: ParseError<usize, Token<'_>, Infallible>,
) -> Diag {
    match error {
        ParseError::UnrecognizedToken {
            token: (start, token, end),
            expected,
        } => {
            let span = Span::new(start, end);
            missing_semicolon(source, token_ends, span, &expected)
                .unwrap_or_else(|| unexpected_token(source, span, &token, &expected))
        }
        ParseError::ExtraToken {
            token: (start, token, end),
        } => unexpected_token(source, Span::new(start, end), &token, &[]),
        ParseError::UnrecognizedEof { location, expected } => Diag::error()
            .with_code(Code::UnexpectedEof)
            .with_message("unexpected end of file")
            .with_labels(vec![
                Label::primary((), location..location).with_message(expected_text(&expected))
            ]),
        ParseError::InvalidToken { location } => Diag::error()
            .with_code(Code::UnexpectedToken)
            .with_message("invalid token")
            .with_labels(vec![Label::primary((), location..location)]),
        ParseError::User { error } => match error {},
    }
}

/// A `;` the parser expected before a token on a later line than the token
/// before it: reported where it is missing, at the end of that earlier token,
/// as rustc does, with the unexpected token as a secondary label.
fn missing_semicolon(
    source: &str,
    token_ends: &[usize],
    span: Span,
    expected: &[String],
) -> Option<Diag> {
    if !expected.iter().any(|e| e == "\";\"") {
        return None;
    }
    let before = token_ends.partition_point(|&end| end <= span.start);
    let previous_end = *token_ends.get(before.checked_sub(1)?)?;
    if !source.get(previous_end..span.start)?.contains('\n') {
        return None;
    }
    let text = source.get(span.range()).unwrap_or("?");
    Some(
        Diag::error()
            .with_code(Code::UnexpectedToken)
            .with_message(format!("expected `;`, found `{text}`"))
            .with_labels(vec![
                Label::primary((), previous_end..previous_end).with_message("add `;` here"),
                Label::secondary((), span.range()).with_message("unexpected token"),
            ]),
    )
}

fn unexpected_token(source: &str, span: Span, token: &Token<'_>, expected: &[String]) -> Diag {
    let text = source.get(span.range()).unwrap_or("?");
    let mut diag = Diag::error()
        .with_code(Code::UnexpectedToken)
        .with_message(format!("unexpected token `{text}`"))
        .with_labels(vec![
            Label::primary((), span.range()).with_message(expected_text(expected))
        ]);
    if let Some(note) = hint(token, expected) {
        diag = diag.with_notes(vec![note]);
    }
    diag
}

/// "expected one of `;`, `&&`, ..." in user terms.
fn expected_text(expected: &[String]) -> String {
    let mut names: Vec<String> = Vec::new();
    let starts_expression = ["IDENT", "\"(\"", "\"!\""]
        .iter()
        .all(|needed| expected.iter().any(|e| e == needed));
    let wants_name = expected.iter().any(|e| e == "IDENT");
    for name in expected {
        if starts_expression && EXPRESSION_STARTS.contains(&name.as_str()) {
            continue;
        }
        if wants_name && CONTEXTUAL_KEYWORDS.contains(&name.as_str()) {
            continue;
        }
        names.push(user_name(name));
    }
    if starts_expression {
        names.push("an expression".to_string());
    }
    match names.as_slice() {
        [] => "unexpected here".to_string(),
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        _ if names.len() <= MAX_LISTED => {
            let (last, rest) = names
                .split_last()
                .map(|(l, r)| (l.clone(), r))
                .unwrap_or_default();
            format!("expected one of {}, or {last}", rest.join(", "))
        }
        _ => {
            let shown = names
                .iter()
                .take(MAX_LISTED - 1)
                .cloned()
                .collect::<Vec<_>>();
            format!("expected one of {}, ...", shown.join(", "))
        }
    }
}

/// A terminal's grammar name in user terms: `"\"&&\""` → `` `&&` ``.
fn user_name(terminal: &str) -> String {
    match terminal {
        "IDENT" => "a name".to_string(),
        "INT" => "an integer".to_string(),
        "FLOAT" => "a float".to_string(),
        "DURATION" => "a duration (`30s`)".to_string(),
        "STRING" => "a string".to_string(),
        "UNARY_OP" => format!(
            "a temporal operator ({})",
            UnaryTemporal::ALL.map(UnaryTemporal::symbol).join(" ")
        ),
        "BINARY_OP" => format!(
            "a temporal operator ({})",
            BinaryTemporal::ALL.map(BinaryTemporal::symbol).join(" ")
        ),
        quoted => format!("`{}`", quoted.trim_matches('"')),
    }
}

/// A likely cause for common mistakes.
fn hint(token: &Token<'_>, expected: &[String]) -> Option<String> {
    let wants_semicolon = expected.iter().any(|e| e == "\";\"");
    let wants_comparison = expected.iter().any(|e| e == "\"<\"");
    match token {
        Token::EqEq | Token::Ne | Token::Lt | Token::Le | Token::Gt | Token::Ge
            if !wants_comparison =>
        {
            Some("comparisons do not chain: write `a < b && b < c`, or parenthesize".to_string())
        }
        Token::Keyword(
            Keyword::Input
            | Keyword::Steps
            | Keyword::Sessions
            | Keyword::Time
            | Keyword::Let
            | Keyword::Goal
            | Keyword::Property
            | Keyword::Lifeline
            | Keyword::Group
            | Keyword::Guard
            | Keyword::Agent
            | Keyword::Global,
        ) if wants_semicolon => Some("the previous declaration may be missing its `;`".to_string()),
        Token::Unary(_) | Token::Binary(_) if expected.iter().any(|e| e == "IDENT") => {
            Some(format!(
                "the single letters `{}` are temporal operators; they can name a lifeline, \
                 agent, group or enum (used after `@` or before `.` or `::`), nothing else",
                operator_letters()
            ))
        }
        // A single-letter operator read as a name, where only `.` or `::` can follow.
        _ if expected.len() == 2 && expected.iter().all(|e| e == "\".\"" || e == "\"::\"") => {
            Some(format!(
                "a single-letter operator name (`{}`) stands for a lifeline, agent, group or \
                 enum only after `@` or before `.` or `::`; anywhere else it is the operator: \
                 rename the declaration (e.g. `W` to `Wr`) to use it alone",
                operator_letters()
            ))
        }
        // Protocol operators where a formula's are expected.
        Token::Amp if !expected.iter().any(|e| e == "\"&\"") => {
            Some("for logical and, write `&&` (`&` is the intersection of protocols)".to_string())
        }
        Token::Interleave => {
            Some("for logical or, write `||` (`|||` is the shuffle of protocols)".to_string())
        }
        Token::Filter => Some("`>>` filters a protocol; formulas compare with `>`".to_string()),
        Token::Keyword(_) if expected.iter().any(|e| e == "IDENT") => {
            Some("keywords cannot be used as names".to_string())
        }
        _ => None,
    }
}
