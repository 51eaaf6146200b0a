//! Spec text rebuilt from Rust tokens, remembering where each token came from.
//!
//! A spec written as Rust tokens reaches the macro already tokenized by rustc:
//! comments are gone, `->` is two joint puncts, `O[1,4]` is an identifier and a
//! bracketed group. Writing the tokens back out with one space between them —
//! none after a punct that rustc marked as joined to the next punct — gives text
//! the spec lexer reads as the user wrote it. Every token's byte range in that
//! text is recorded with its span, so a diagnostic's range maps back to tokens.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use std::ops::Range;

/// The rebuilt text and, in text order, the byte range and span of every token
/// (delimiters count as tokens of their own).
pub(crate) struct TokenText {
    /// The spec text the compiler reads.
    pub text: String,
    pieces: Vec<(Range<usize>, Span)>,
}

impl TokenText {
    /// Rebuilds the spec text of `tokens`. `///` doc comments, which rustc turns
    /// into `#[doc = "..."]` attributes, are dropped like ordinary comments.
    pub(crate) fn new(tokens: TokenStream) -> Self {
        let mut out = TokenText {
            text: String::new(),
            pieces: Vec::new(),
        };
        out.push_stream(tokens);
        out
    }

    /// The spans of the first and last tokens overlapping `range` (for an empty
    /// range: the token at or after it, or the last token), or `None` when there
    /// are no tokens at all.
    pub(crate) fn spans_covering(&self, range: Range<usize>) -> Option<(Span, Span)> {
        let (first, last) = self.covering(range)?;
        Some((self.pieces.get(first)?.1, self.pieces.get(last)?.1))
    }

    /// The indices of the first and last pieces `spans_covering` picks.
    fn covering(&self, range: Range<usize>) -> Option<(usize, usize)> {
        let end = range.end.max(range.start + 1);
        let overlaps = |r: &Range<usize>| r.start < end && range.start < r.end;
        let first = self.pieces.iter().position(|(r, _)| overlaps(r));
        let last = self.pieces.iter().rposition(|(r, _)| overlaps(r));
        if let (Some(first), Some(last)) = (first, last) {
            return Some((first, last));
        }
        let after = self.pieces.iter().position(|(r, _)| r.start >= range.start);
        let index = after.or(self.pieces.len().checked_sub(1))?;
        Some((index, index))
    }

    fn push_stream(&mut self, tokens: TokenStream) {
        let mut iter = tokens.into_iter().peekable();
        while let Some(tree) = iter.next() {
            match tree {
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    if iter.peek().is_some_and(is_doc_attribute) {
                        iter.next();
                    } else {
                        self.push_punct(p.as_char(), p.spacing(), p.span(), iter.peek());
                    }
                }
                TokenTree::Punct(p) => {
                    self.push_punct(p.as_char(), p.spacing(), p.span(), iter.peek())
                }
                TokenTree::Ident(i) => self.push_word(&i.to_string(), i.span()),
                TokenTree::Literal(l) => self.push_word(&l.to_string(), l.span()),
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    if !open.is_empty() {
                        self.push_word(open, g.span_open());
                    }
                    self.push_stream(g.stream());
                    if !close.is_empty() {
                        self.push_word(close, g.span_close());
                    }
                }
            }
        }
    }

    /// Appends a punct; it is glued to the next token only when rustc says it
    /// was joined to a following punct (`-` `>` → `->`).
    fn push_punct(&mut self, c: char, spacing: Spacing, span: Span, next: Option<&TokenTree>) {
        self.push_text(c.encode_utf8(&mut [0; 4]), span);
        let glued = spacing == Spacing::Joint && matches!(next, Some(TokenTree::Punct(_)));
        if !glued {
            self.text.push(' ');
        }
    }

    fn push_word(&mut self, word: &str, span: Span) {
        self.push_text(word, span);
        self.text.push(' ');
    }

    fn push_text(&mut self, s: &str, span: Span) {
        let start = self.text.len();
        self.text.push_str(s);
        self.pieces.push((start..self.text.len(), span));
    }
}

/// Whether `tree` is the `[doc = "..."]` group of a desugared doc comment.
fn is_doc_attribute(tree: &TokenTree) -> bool {
    let TokenTree::Group(g) = tree else {
        return false;
    };
    g.delimiter() == Delimiter::Bracket
        && matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc")
}

#[cfg(test)]
mod tests {
    use super::TokenText;
    use proc_macro2::TokenStream;

    fn text(src: &str) -> String {
        let tokens: TokenStream = src.parse().expect("valid Rust tokens");
        TokenText::new(tokens).text.trim_end().to_string()
    }

    #[test]
    fn multi_char_operators_are_glued_back() {
        assert_eq!(
            text("p <-> q -> !r && a == b || c != d <= e >= f :: g"),
            "p <-> q -> ! r && a == b || c != d <= e >= f :: g"
        );
    }

    #[test]
    fn groups_literals_and_doc_comments() {
        assert_eq!(
            text("/// the rule\nproperty x = O[1,4] (n < 2.5e3); // gone"),
            "property x = O [ 1 , 4 ] ( n < 2.5e3 ) ;"
        );
    }

    #[test]
    fn a_diagnostic_range_maps_to_the_tokens_it_covers() {
        let tokens: TokenStream = "a && foo".parse().expect("valid Rust tokens");
        let t = TokenText::new(tokens);
        // pieces: `a` 0..1, `&` 2..3, `&` 3..4, `foo` 5..8
        assert_eq!(t.text, "a && foo ");
        assert_eq!(t.covering(5..8), Some((3, 3)));
        assert_eq!(t.covering(2..8), Some((1, 3)));
        assert_eq!(t.covering(4..5), Some((3, 3)), "empty gap: the next token");
        assert_eq!(
            t.covering(9..9),
            Some((3, 3)),
            "end of text: the last token"
        );
        assert_eq!(TokenText::new(TokenStream::new()).covering(0..0), None);
    }
}
