//! The lexer: turns source text into the token stream the parser consumes.
//!
//! Lexical rules (see also the language reference):
//! - Whitespace, `// line comments` and `/* block comments */` separate tokens.
//!   Block comments **nest**, as in Rust: `/* a /* b */ c */` is one comment, so
//!   commenting out code that already holds a comment works. A block comment
//!   without its closing `*/` is error E0002.
//! - Identifiers are `[A-Za-z_][A-Za-z0-9_]*`, minus the keywords. The single
//!   uppercase letters of the operator table (`crate::ops`: `Y Z O H X F G S U W
//!   R`) are temporal operators, read as names only where no operator can stand. `agents` is an ordinary identifier, and
//!   `reset` and `time` are keywords only right after `with` and at the start
//!   of a monitor member, as `goal` is (the parser accepts them as names
//!   everywhere else).
//! - Integers are decimal digits and must fit in an `i64` (else E0003). Floats are
//!   `2.5`, `1e3`, `2.5e-3`: digits, then a fraction, an exponent or both; a
//!   float must be finite (else E0003). Durations are digits followed by a unit
//!   (`250ms`, `30s`, `5min`, `2h`, `1d`) and must fit in an `i64` of
//!   microseconds (else E0003). Any other number immediately followed by letters
//!   (`3abc`, `0x1F`, `2.5s`) is malformed (E0003).
//! - Any other character is error E0001. Lexing continues after every error, so
//!   all lexical errors of a file are reported at once.

use logos::Logos;

use crate::ast::{BinaryTemporal, Span, UnaryTemporal, TIME_UNITS};
use crate::diag::{Code, Diag, Label};

/// A token as the parser sees it, with literal values already decoded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token<'src> {
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `::`
    PathSep,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `=`
    Assign,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `@`
    At,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `&` (a protocol's intersection)
    Amp,
    /// `|||` (a protocol's shuffle)
    Interleave,
    /// `>>` (a protocol's filter)
    Filter,
    /// `->`
    Arrow,
    /// `<->`
    DoubleArrow,
    /// `!`
    Bang,
    /// `==`
    EqEq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// A reserved word (`monitor`, `forall`, ...).
    Keyword(Keyword),
    /// A unary temporal operator (`Y`, `G`, ...): a row of the operator table.
    Unary(UnaryTemporal),
    /// A binary temporal operator (`S`, `U`, ...): a row of the operator table.
    Binary(BinaryTemporal),
    /// An identifier.
    Ident(&'src str),
    /// An integer literal (0 stands in for a malformed one, already reported).
    Int(i64),
    /// A float literal (0.0 stands in for a malformed one, already reported).
    Float(f64),
    /// A duration literal in microseconds (0 stands in for a malformed one,
    /// already reported).
    Duration(u64),
    /// A string literal, escapes decoded (empty for a malformed one, already reported).
    Str(String),
}

/// Every reserved word of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    /// `enum`
    Enum,
    /// `monitor`
    Monitor,
    /// `system`
    System,
    /// `population`
    Population,
    /// `input`
    Input,
    /// `let`
    Let,
    /// `property`
    Property,
    /// `with`
    With,
    /// `reset`
    Reset,
    /// `time` (a monitor's steps' time; a name elsewhere)
    Time,
    /// `lifeline`
    Lifeline,
    /// `group`
    Group,
    /// `guard`
    Guard,
    /// `at`
    AtKw,
    /// `agent`
    Agent,
    /// `global`
    Global,
    /// `where`
    Where,
    /// `forall`
    Forall,
    /// `exists`
    Exists,
    /// `atleast`
    AtLeast,
    /// `atmost`
    AtMost,
    /// `count`
    Count,
    /// `in`
    In,
    /// `true`
    True,
    /// `false`
    False,
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `float`
    Float,
    /// `inf`
    Inf,
    /// `from`
    From,
    /// `default`
    Default,
    /// `hold`
    Hold,
    /// `initially`
    Initially,
    /// `present`
    Present,
    /// `steps`
    Steps,
    /// `sessions` (at the start of a monitor member; elsewhere a name)
    Sessions,
    /// `protocol` (a system member; a name elsewhere)
    Protocol,
    /// `goal` (a monitor member; a name elsewhere)
    Goal,
}

/// The raw token (only the shape, values are decoded afterwards) and its
/// lexer, as logos generates them from `raw_token.rs.in` (committed; see
/// `tests/lexer.rs`).
#[rustfmt::skip]
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    unreachable_pub,
    unused,
    unused_qualifications
)]
mod raw {
    use super::{block_comment, Keyword};
    include!("generated/raw_token.rs");
}
use raw::Raw;

/// Consumes the rest of a block comment after its opening `/*`, honouring
/// nesting. Returns whether the comment was closed before the end of input.
/// How many bytes of `rest` (what follows a `/*`) the block comment takes,
/// its closing `*/` included, counting nested comments; `None` if it is never
/// closed. The formatter measures comments with it too.
pub(crate) fn comment_rest(rest: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut i = 0;
    while i < rest.len() {
        match (rest.get(i), rest.get(i + 1)) {
            (Some(b'*'), Some(b'/')) => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            (Some(b'/'), Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            _ => i += 1,
        }
    }
    None
}

fn block_comment(lex: &mut logos::Lexer<'_, Raw>) -> bool {
    let rest = lex.remainder().as_bytes();
    if let Some(end) = comment_rest(rest) {
        lex.bump(end);
        return true;
    }
    // The whole remainder is consumed: its end is a char boundary.
    lex.bump(rest.len());
    false
}

/// A token with its byte span.
pub(crate) type Spanned<'src> = (usize, Token<'src>, usize);

/// The result of lexing a whole source text.
#[derive(Debug, Default)]
pub(crate) struct Lexed<'src> {
    /// The tokens, comments removed, in source order.
    pub tokens: Vec<Spanned<'src>>,
    /// One diagnostic per lexical error, in source order.
    pub diags: Vec<Diag>,
    /// For every lexical error (ascending), where the next token starts (or the source
    /// length): a parse error reported right there is a consequence of the
    /// lexical error and is not worth a second diagnostic.
    pub resume_points: Vec<usize>,
    /// Whether an unterminated block comment swallowed the end of the file.
    pub unterminated_comment: bool,
}

/// Lexes `source` completely, collecting every lexical error.
pub(crate) fn lex(source: &str) -> Lexed<'_> {
    let mut out = Lexed::default();
    // An error run: consecutive unexpected characters reported together.
    let mut bad_run: Option<Span> = None;
    let mut awaiting_resume = false;
    let mut lexer = Raw::lexer(source);
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        let span = Span::new(range.start, range.end);
        let raw = match result {
            Ok(raw) => raw,
            Err(()) => {
                bad_run = Some(match bad_run {
                    Some(run) if run.end == span.start => run.to(span),
                    Some(run) => {
                        out.diags.push(unexpected_chars(source, run));
                        span
                    }
                    None => span,
                });
                awaiting_resume = true;
                continue;
            }
        };
        if let Some(run) = bad_run.take() {
            out.diags.push(unexpected_chars(source, run));
        }
        let text = lexer.slice();
        let token = match decode(raw, text, span) {
            Decoded::Token(token) => token,
            Decoded::Skip => continue,
            Decoded::Bad(token, diag) => {
                out.diags.push(diag);
                awaiting_resume = true;
                token
            }
            Decoded::Unterminated(diag) => {
                out.diags.push(diag);
                out.unterminated_comment = true;
                awaiting_resume = true;
                continue;
            }
            Decoded::Unclosed(token, diag) => {
                out.diags.push(diag);
                if awaiting_resume {
                    out.resume_points.push(span.start);
                }
                out.tokens.push((span.start, token, span.end));
                // What the string swallowed (a `;`, say) is missed by the
                // parser at the next token: no second diagnostic there.
                awaiting_resume = true;
                continue;
            }
        };
        if awaiting_resume {
            out.resume_points.push(span.start);
            awaiting_resume = false;
        }
        out.tokens.push((span.start, token, span.end));
    }
    if let Some(run) = bad_run {
        out.diags.push(unexpected_chars(source, run));
    }
    if awaiting_resume {
        out.resume_points.push(source.len());
    }
    out
}

/// What one raw token becomes.
enum Decoded<'src> {
    Token(Token<'src>),
    Skip,
    /// A placeholder token for the parser plus the diagnostic explaining it.
    Bad(Token<'src>, Diag),
    Unterminated(Diag),
    /// A string the line ends inside: a placeholder token, the diagnostic,
    /// and a parse error at the next token is a consequence.
    Unclosed(Token<'src>, Diag),
}

fn decode<'src>(raw: Raw, text: &'src str, span: Span) -> Decoded<'src> {
    let token = match raw {
        Raw::LineComment | Raw::BlockComment(true) => return Decoded::Skip,
        Raw::BlockComment(false) => {
            let opening = Span::new(span.start, span.start + 2);
            return Decoded::Unterminated(
                Diag::error()
                    .with_code(Code::UnterminatedComment)
                    .with_message("unterminated block comment")
                    .with_labels(vec![Label::primary((), opening.range())
                        .with_message("this comment is never closed")])
                    .with_notes(vec![
                        "block comments nest: every `/*` needs its own `*/`".to_string()
                    ]),
            );
        }
        Raw::Semi => Token::Semi,
        Raw::Colon => Token::Colon,
        Raw::PathSep => Token::PathSep,
        Raw::Comma => Token::Comma,
        Raw::Dot => Token::Dot,
        Raw::Assign => Token::Assign,
        Raw::LParen => Token::LParen,
        Raw::RParen => Token::RParen,
        Raw::LBrace => Token::LBrace,
        Raw::RBrace => Token::RBrace,
        Raw::LBracket => Token::LBracket,
        Raw::RBracket => Token::RBracket,
        Raw::At => Token::At,
        Raw::AndAnd => Token::AndAnd,
        Raw::OrOr => Token::OrOr,
        Raw::Amp => Token::Amp,
        Raw::Interleave => Token::Interleave,
        Raw::Filter => Token::Filter,
        Raw::Arrow => Token::Arrow,
        Raw::DoubleArrow => Token::DoubleArrow,
        Raw::Bang => Token::Bang,
        Raw::EqEq => Token::EqEq,
        Raw::Ne => Token::Ne,
        Raw::Lt => Token::Lt,
        Raw::Le => Token::Le,
        Raw::Gt => Token::Gt,
        Raw::Ge => Token::Ge,
        Raw::Plus => Token::Plus,
        Raw::Minus => Token::Minus,
        Raw::Star => Token::Star,
        Raw::Keyword(k) => Token::Keyword(k),
        Raw::Ident => match (
            UnaryTemporal::from_symbol(text),
            BinaryTemporal::from_symbol(text),
        ) {
            (Some(op), _) => Token::Unary(op),
            (None, Some(op)) => Token::Binary(op),
            (None, None) => Token::Ident(text),
        },
        Raw::Int => match text.parse::<i64>() {
            Ok(n) => Token::Int(n),
            Err(_) => return bad_number(span, text, BadNumber::IntTooLarge),
        },
        Raw::Float => match text.parse::<f64>() {
            Ok(x) if x.is_finite() => Token::Float(x),
            _ => return bad_number(span, text, BadNumber::FloatOutOfRange),
        },
        Raw::Duration => match duration(text) {
            Some(micros) => Token::Duration(micros),
            None => return bad_number(span, text, BadNumber::DurationTooLarge),
        },
        Raw::MalformedNumber => return bad_number(span, text, BadNumber::Malformed),
        Raw::Str => match unescape(text.get(1..text.len() - 1).unwrap_or("")) {
            Ok(value) => Token::Str(value),
            Err((at, problem)) => {
                // `at` is a byte offset in the string's contents, after the quote.
                let start = span.start + 1 + at;
                return bad_string(
                    Span::new(start, start + problem.len_at(text, at + 1)),
                    problem,
                );
            }
        },
        Raw::UnterminatedStr => {
            let opening = Span::new(span.start, span.start + 1);
            return match bad_string(opening, BadString::Unterminated) {
                Decoded::Bad(token, diag) => Decoded::Unclosed(token, diag),
                other => other,
            };
        }
    };
    Decoded::Token(token)
}

/// What is wrong with a string literal (each is E0004, `MalformedString`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BadString {
    /// The line ends before the closing quote.
    Unterminated,
    /// A backslash not starting one of JSON's escapes.
    BadEscape,
    /// A control character (a tab, say), which JSON writes escaped.
    ControlCharacter,
    /// A `\u` escape of a lone surrogate.
    LoneSurrogate,
}

impl BadString {
    /// How many bytes of `text` from byte `at` (where the problem starts) to underline.
    fn len_at(self, text: &str, at: usize) -> usize {
        let rest = text.get(at..).unwrap_or("");
        match self {
            BadString::Unterminated => 1,
            BadString::BadEscape => rest.chars().take(2).map(char::len_utf8).sum(),
            BadString::ControlCharacter => rest.chars().next().map_or(1, char::len_utf8),
            BadString::LoneSurrogate => rest.len().min(6),
        }
    }
}

/// The string literal contents `raw` (between the quotes) with JSON's escapes
/// decoded: `\" \\ \/ \b \f \n \r \t \uXXXX` (surrogate pairs joined), so a
/// pointer reads as it would in a JSON document. On error: the byte offset of
/// the problem in `raw` and what it is.
fn unescape(raw: &str) -> Result<String, (usize, BadString)> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((at, c)) = chars.next() {
        if (c as u32) < 0x20 {
            return Err((at, BadString::ControlCharacter));
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let decoded = match chars.next().map(|(_, e)| e) {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('/') => '/',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('u') => {
                let high = hex4(&mut chars).ok_or((at, BadString::BadEscape))?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    let mut pair = chars.clone();
                    let low = match (pair.next(), pair.next()) {
                        (Some((_, '\\')), Some((_, 'u'))) => hex4(&mut pair),
                        _ => None,
                    };
                    match low {
                        Some(low) if (0xDC00..0xE000).contains(&low) => {
                            chars = pair;
                            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        }
                        _ => return Err((at, BadString::LoneSurrogate)),
                    }
                } else {
                    high
                };
                char::from_u32(code).ok_or((at, BadString::LoneSurrogate))?
            }
            _ => return Err((at, BadString::BadEscape)),
        };
        out.push(decoded);
    }
    Ok(out)
}

/// The value of the next four hex digits of `chars`.
fn hex4(chars: &mut std::str::CharIndices<'_>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        value = value * 16 + chars.next()?.1.to_digit(16)?;
    }
    Some(value)
}

/// The string literal problem at `span`: a placeholder token for the parser
/// and the diagnostic saying what is wrong.
fn bad_string<'src>(span: Span, problem: BadString) -> Decoded<'src> {
    let (message, label, note) = match problem {
        BadString::Unterminated => (
            "unterminated string literal",
            "this string is never closed",
            "a string literal ends on the line it starts: `\"/attributes/name\"`",
        ),
        BadString::BadEscape => (
            "unknown escape in string literal",
            "not an escape",
            "strings use JSON's escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
        ),
        BadString::ControlCharacter => (
            "control character in string literal",
            "write it escaped",
            "strings use JSON's escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
        ),
        BadString::LoneSurrogate => (
            "`\\u` escape of a lone surrogate",
            "not a character",
            "a character above U+FFFF is written as a surrogate pair, e.g. `\\ud83d\\ude00`",
        ),
    };
    let diag = Diag::error()
        .with_code(Code::MalformedString)
        .with_message(message)
        .with_labels(vec![Label::primary((), span.range()).with_message(label)])
        .with_notes(vec![note.to_string()]);
    Decoded::Bad(Token::Str(String::new()), diag)
}

/// The microseconds of the duration literal `text` (digits, then a unit of
/// [`TIME_UNITS`]), if they fit in an `i64`.
fn duration(text: &str) -> Option<u64> {
    let digits = text.find(|c: char| !c.is_ascii_digit())?;
    let (count, unit) = text.split_at(digits);
    let per = TIME_UNITS.iter().find(|(name, _)| *name == unit)?.1;
    let micros = count.parse::<u64>().ok()?.checked_mul(per)?;
    (micros <= i64::MAX as u64).then_some(micros)
}

/// What is wrong with a number literal (each is E0003, `MalformedNumber`).
enum BadNumber {
    /// An integer outside `i64`.
    IntTooLarge,
    /// A float that parses to an infinity.
    FloatOutOfRange,
    /// A duration beyond `i64::MAX` microseconds.
    DurationTooLarge,
    /// Digits running into letters, e.g. `3abc` or `2.5kg`.
    Malformed,
}

/// The number literal `text` at `span` cannot be read: a placeholder token of
/// its kind for the parser, and the diagnostic saying why.
fn bad_number<'src>(span: Span, text: &str, problem: BadNumber) -> Decoded<'src> {
    let (placeholder, message, label, note) = match problem {
        BadNumber::IntTooLarge => (
            Token::Int(0),
            format!("integer literal `{text}` is too large"),
            "does not fit in a 64-bit signed integer",
            format!("the largest integer is {}", i64::MAX),
        ),
        BadNumber::FloatOutOfRange => (
            Token::Float(0.0),
            format!("float literal `{text}` is out of range"),
            "does not fit in a 64-bit float",
            format!("the largest float is about {:e}", f64::MAX),
        ),
        BadNumber::DurationTooLarge => (
            Token::Duration(0),
            format!("duration literal `{text}` is too large"),
            "does not fit in 64 bits of microseconds",
            format!(
                "the longest duration is {}d",
                i64::MAX as u64 / 86_400_000_000
            ),
        ),
        BadNumber::Malformed => (
            Token::Int(0),
            format!("malformed number literal `{text}`"),
            "not a number",
            "numbers are decimal: `42`, `2.5`, `1e3`, `2.5e-3`; durations are whole \
             numbers of a unit: `250ms`, `30s`, `5min`, `2h`, `1d`; \
             separate a number from a following name with a space"
                .to_string(),
        ),
    };
    let diag = Diag::error()
        .with_code(Code::MalformedNumber)
        .with_message(message)
        .with_labels(vec![Label::primary((), span.range()).with_message(label)])
        .with_notes(vec![note]);
    Decoded::Bad(placeholder, diag)
}

fn unexpected_chars(source: &str, run: Span) -> Diag {
    let text = source.get(run.range()).unwrap_or("");
    let plural = text.chars().nth(1).is_some();
    let message = if plural {
        format!("unexpected characters `{}`", text.escape_debug())
    } else {
        format!("unexpected character `{}`", text.escape_debug())
    };
    let mut diag = Diag::error()
        .with_code(Code::UnexpectedCharacter)
        .with_message(message)
        .with_labels(vec![
            Label::primary((), run.range()).with_message("not part of the language")
        ]);
    let hint = match text {
        "&" => Some("for logical and, write `&&`"),
        "|" => Some("for logical or, write `||`"),
        "/" => Some("there is no division; `//` starts a line comment"),
        _ => None,
    };
    if let Some(hint) = hint {
        diag = diag.with_notes(vec![hint.to_string()]);
    }
    diag
}
