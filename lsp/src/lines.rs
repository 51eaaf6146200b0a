//! Byte offsets (the compiler's spans) to LSP positions and back.

use hindsight_compiler::ast::Span;
use lsp_types::{Position, Range};

/// How a position's character counts: the protocol's default UTF-16 code
/// units, or bytes when the client offers UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Characters are UTF-16 code units.
    Utf16,
    /// Characters are bytes.
    Utf8,
}

/// The byte offset where each line of a text starts.
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// Lines end at `\n`, `\r\n` or a lone `\r`, as the protocol counts them.
    pub(crate) fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let ends = bytes.iter().enumerate().filter_map(|(at, &b)| match b {
            b'\n' => Some(at + 1),
            b'\r' if bytes.get(at + 1) != Some(&b'\n') => Some(at + 1),
            _ => None,
        });
        Lines {
            starts: std::iter::once(0).chain(ends).collect(),
        }
    }

    /// The position of byte `offset` (clamped to the text, and back to the
    /// start of a character).
    pub(crate) fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let prefix = &text[self.starts[line]..offset];
        let character = match encoding {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.encode_utf16().count(),
        };
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of `position`; a line past the end is the end of the
    /// text, a character past the end of its line is the line's end.
    pub(crate) fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next);
        let line = &text[start..end];
        let wanted = position.character as usize;
        let mut units = 0;
        for (at, c) in line.char_indices() {
            if units >= wanted || c == '\n' || c == '\r' {
                return start + at;
            }
            units += match encoding {
                Encoding::Utf8 => c.len_utf8(),
                Encoding::Utf16 => c.len_utf16(),
            };
        }
        end
    }

    /// The range of `span`.
    pub(crate) fn range(&self, text: &str, span: Span, encoding: Encoding) -> Range {
        Range::new(
            self.position(text, span.start, encoding),
            self.position(text, span.end, encoding),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{Encoding, Lines};
    use lsp_types::Position;

    /// `\n`, `\r\n` and a lone `\r` each end a line; characters count
    /// UTF-16 units or bytes; positions past a line's end clamp to it.
    #[test]
    fn positions_and_offsets_agree_across_line_ends_and_encodings() {
        let text = "a\r\nbé✓\rc\nd";
        let lines = Lines::new(text);
        let at = |offset| lines.position(text, offset, Encoding::Utf16);
        assert_eq!(at(0), Position::new(0, 0));
        assert_eq!(at(3), Position::new(1, 0)); // b
        assert_eq!(at(10), Position::new(2, 0)); // c, after the lone \r
        assert_eq!(at(12), Position::new(3, 0)); // d
        assert_eq!(at(9), Position::new(1, 3)); // after ✓: b, é, ✓ are 3 units
        assert_eq!(lines.position(text, 9, Encoding::Utf8), Position::new(1, 6));
        assert_eq!(lines.offset(text, Position::new(1, 2), Encoding::Utf16), 6);
        assert_eq!(lines.offset(text, Position::new(1, 99), Encoding::Utf16), 9);
        assert_eq!(
            lines.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
    }
}
