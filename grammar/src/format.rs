//! The canonical layout of a spec (`hindsight fmt`): every token as written,
//! every comment kept, the white space between them decided here.
//!
//! Rules: one member per line, indented four spaces per block (`monitor`,
//! `system`, `population`); a line break the author put inside a member is
//! kept and its continuation indented one more level; at most one blank line
//! where the author left any; spaces around binary operators and `=`, after
//! `,` and `:`, inside one-line braces (`{ a, b }`); none after `!`, `@`,
//! `(`, a unary `-`, nor anywhere inside a bound (`F[0,5]`); a temporal
//! operator is followed by a space unless a bound follows. Trailing comments
//! stay on their line after two spaces; other comments keep their own line.
//!
//! Only a file that parses is formatted, and the result is checked to lex to
//! the same tokens (so formatting never changes what a spec means).

use crate::ast::Span;
use crate::diag::Diag;
use crate::lexer::{lex, Keyword, Token};

/// `source` laid out canonically, or its syntax errors.
pub fn format(source: &str) -> Result<String, Vec<Diag>> {
    crate::parse(source)?;
    let tokens = lex(source).tokens;
    let mut out = Layout {
        at_start: true,
        ..Layout::default()
    };
    let mut previous: Option<(usize, &Token<'_>)> = None;
    for (k, (start, token, end)) in tokens.iter().enumerate() {
        let gap_start = previous.map_or(0, |(end, _)| end);
        out.gap(&source[gap_start..*start]);
        let text = &source[*start..*end];
        out.token(token, text, tokens.get(k + 1).map(|t| &t.1));
        previous = Some((*end, token));
    }
    let tail_start = previous.map_or(0, |(end, _)| end);
    out.gap(&source[tail_start..]);
    let text = out.finish();
    let same = |a: &str, b: &str| {
        let (x, y) = (lex(a).tokens, lex(b).tokens);
        x.len() == y.len()
            && x.iter()
                .zip(&y)
                .all(|((s1, t1, e1), (s2, t2, e2))| t1 == t2 && a[*s1..*e1] == b[*s2..*e2])
    };
    if !same(source, &text) {
        return Err(vec![Diag::bug()
            .with_message(
                "internal error: formatting would change the spec's tokens; please report this",
            )
            .with_labels(vec![crate::diag::Label::primary(
                (),
                Span::default().range(),
            )])]);
    }
    Ok(text)
}

/// The layout being written: finished lines and the line under way.
#[derive(Default)]
struct Layout {
    lines: Vec<String>,
    line: String,
    /// Open `monitor`/`system`/`population` blocks.
    blocks: usize,
    /// Open braces, innermost last: whether each is a block's.
    braces: Vec<bool>,
    /// Open brackets (bounds): no spaces inside.
    brackets: usize,
    /// Whether the current line continues a member the author broke.
    continued: bool,
    /// The keyword that started the current statement, if any.
    statement: Option<Keyword>,
    /// Whether the next token starts a statement.
    at_start: bool,
    /// The tokens since the last statement start (for `monitor NAME {`, and
    /// the previous token's kind, for spacing).
    since_start: Vec<Kind>,
    /// A blank line is owed before the next line.
    blank: bool,
}

/// What spacing cares about in a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Open,
    Close,
    OpenBracket,
    CloseBracket,
    OpenBrace,
    CloseBrace,
    Comma,
    Semi,
    Colon,
    PathSep,
    Dot,
    Bang,
    At,
    Minus,
    Infix,
    TemporalInfix,
    Temporal,
    Keyword(Keyword),
    Word,
}

fn kind(token: &Token<'_>) -> Kind {
    match token {
        Token::LParen => Kind::Open,
        Token::RParen => Kind::Close,
        Token::LBracket => Kind::OpenBracket,
        Token::RBracket => Kind::CloseBracket,
        Token::LBrace => Kind::OpenBrace,
        Token::RBrace => Kind::CloseBrace,
        Token::Comma => Kind::Comma,
        Token::Semi => Kind::Semi,
        Token::Colon => Kind::Colon,
        Token::PathSep => Kind::PathSep,
        Token::Dot => Kind::Dot,
        Token::Bang => Kind::Bang,
        Token::At => Kind::At,
        Token::Minus => Kind::Minus,
        Token::Assign
        | Token::AndAnd
        | Token::OrOr
        | Token::Amp
        | Token::Interleave
        | Token::Filter
        | Token::Arrow
        | Token::DoubleArrow
        | Token::EqEq
        | Token::Ne
        | Token::Lt
        | Token::Le
        | Token::Gt
        | Token::Ge
        | Token::Plus
        | Token::Star => Kind::Infix,
        Token::Binary(_) => Kind::TemporalInfix,
        Token::Unary(_) => Kind::Temporal,
        Token::Keyword(k) => Kind::Keyword(*k),
        _ => Kind::Word,
    }
}

impl Layout {
    fn indent(&self) -> String {
        let levels = self.blocks + usize::from(self.continued);
        "    ".repeat(levels)
    }

    /// Ends the line under way (if any).
    fn newline(&mut self) {
        if !self.line.trim().is_empty() {
            if self.blank && !self.lines.is_empty() {
                self.lines.push(String::new());
            }
            self.blank = false;
            let line = std::mem::take(&mut self.line);
            self.lines.push(line.trim_end().to_string());
        }
        self.line.clear();
    }

    /// Starts writing on a fresh line if the line under way is empty.
    fn begin(&mut self) {
        if self.line.is_empty() {
            self.line = self.indent();
        }
    }

    /// The white space and comments between two tokens (or before the
    /// first, or after the last).
    fn gap(&mut self, gap: &str) {
        let mut rest = gap;
        let mut broke = false;
        let mut blank = false;
        loop {
            let trimmed = rest.trim_start();
            let newlines = rest[..rest.len() - trimmed.len()].matches('\n').count();
            broke |= newlines > 0;
            blank |= newlines >= 2;
            rest = trimmed;
            let length = if rest.starts_with("//") {
                rest.find('\n').unwrap_or(rest.len())
            } else if rest.starts_with("/*") {
                block_comment_len(rest)
            } else {
                break;
            };
            let comment = &rest[..length];
            rest = &rest[length..];
            if newlines == 0 && !self.line.trim().is_empty() {
                // A trailing comment: on its line, after two spaces.
                self.line = format!("{}  {comment}", self.line.trim_end());
                if comment.starts_with("//") {
                    self.newline();
                    broke = true;
                }
            } else {
                self.newline();
                if self.at_start {
                    self.blank |= blank;
                } else {
                    self.continued = true;
                }
                self.line = format!("{}{comment}", self.indent());
                self.newline();
                broke = true;
            }
            blank = false;
        }
        if broke {
            if self.at_start {
                self.newline();
                self.blank |= blank;
            } else {
                self.newline();
                self.continued = true;
            }
        }
    }

    fn token(&mut self, token: &Token<'_>, text: &str, next: Option<&Token<'_>>) {
        let kind = kind(token);
        if kind == Kind::CloseBrace && self.braces.last() == Some(&true) {
            self.newline();
            self.braces.pop();
            self.blocks -= 1;
            self.continued = false;
            self.begin();
            self.line.push('}');
            self.end_statement();
            return;
        }
        if self.at_start {
            self.newline();
            self.continued = false;
            self.statement = match kind {
                Kind::Keyword(k) => Some(k),
                _ => None,
            };
            self.since_start.clear();
            self.at_start = false;
        }
        // In a protocol `.` is sequencing, an infix operator.
        let kind = match (kind, self.statement) {
            (Kind::Dot, Some(Keyword::Protocol)) => Kind::Infix,
            _ => kind,
        };
        // A `}` that starts a line lines up with the member that opened it.
        if kind == Kind::CloseBrace && self.line.trim().is_empty() {
            self.line.clear();
            self.continued = false;
        }
        self.begin();
        if self.space_before(kind) {
            self.line.push(' ');
        }
        self.line.push_str(text);
        self.since_start.push(kind);
        match kind {
            Kind::OpenBrace => {
                let block = matches!(
                    self.since_start.as_slice(),
                    [
                        Kind::Keyword(Keyword::Monitor | Keyword::System | Keyword::Population),
                        _,
                        Kind::OpenBrace
                    ]
                );
                self.braces.push(block);
                if block {
                    self.blocks += 1;
                    self.newline();
                    self.end_statement();
                }
            }
            Kind::CloseBrace => {
                self.braces.pop();
                let ends = self.braces.iter().all(|&b| b)
                    && matches!(
                        self.statement,
                        Some(Keyword::Enum | Keyword::Lifeline | Keyword::Agent | Keyword::Global)
                    )
                    && !matches!(next, Some(Token::Semi | Token::Comma));
                if ends {
                    self.end_statement();
                }
            }
            Kind::OpenBracket => self.brackets += 1,
            Kind::CloseBracket => self.brackets = self.brackets.saturating_sub(1),
            Kind::Semi if self.braces.iter().all(|&b| b) => self.end_statement(),
            _ => {}
        }
    }

    fn end_statement(&mut self) {
        self.at_start = true;
        self.continued = false;
        self.statement = None;
    }

    /// Whether a space separates the previous token from one of `kind`.
    fn space_before(&self, kind: Kind) -> bool {
        let Some(&last) = self.since_start.last() else {
            return false;
        };
        if self.line.trim().is_empty() {
            return false;
        }
        let bound =
            kind == Kind::OpenBracket && matches!(last, Kind::Temporal | Kind::TemporalInfix);
        if self.brackets > 0 || bound {
            return false;
        }
        if matches!(
            kind,
            Kind::Close
                | Kind::CloseBracket
                | Kind::Comma
                | Kind::Semi
                | Kind::Colon
                | Kind::PathSep
                | Kind::Dot
        ) {
            return false;
        }
        if matches!(
            last,
            Kind::Open | Kind::OpenBracket | Kind::Bang | Kind::At | Kind::PathSep | Kind::Dot
        ) {
            return false;
        }
        if last == Kind::Minus && self.unary_minus() {
            return false;
        }
        true
    }

    /// Whether the `-` just written is a sign (not a subtraction): it
    /// follows no operand, or follows `@L` or a temporal operator's bound.
    fn unary_minus(&self) -> bool {
        let written = &self.since_start[..self.since_start.len().saturating_sub(1)];
        match written {
            [.., Kind::At, Kind::Word] => true,
            [.., Kind::CloseBracket] => {
                let open = written.iter().rposition(|&k| k == Kind::OpenBracket);
                let before = open.and_then(|k| k.checked_sub(1)).map(|k| written[k]);
                matches!(before, Some(Kind::Temporal | Kind::TemporalInfix))
            }
            [.., Kind::Word | Kind::Close | Kind::Keyword(Keyword::True | Keyword::False)] => false,
            _ => true,
        }
    }

    fn finish(mut self) -> String {
        self.newline();
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }
}

/// The length of the (nesting) block comment `text` starts with.
fn block_comment_len(text: &str) -> usize {
    crate::lexer::comment_rest(&text.as_bytes()[2..]).map_or(text.len(), |rest| rest + 2)
}
