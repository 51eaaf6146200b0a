//! JSON Pointers (RFC 6901): where an input's value lies in a trace record,
//! e.g. `/attributes/gen_ai.tool.name`. Parsed without allocating, so the
//! compiler can check a pointer, the trace readers can follow one, and a
//! `no_std` build can carry them in its schema.

use core::fmt;

/// Why a string is not a JSON Pointer that names a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerError {
    /// The empty pointer names the whole record, not a field of it.
    Empty,
    /// A pointer starts with `/`.
    NoLeadingSlash,
    /// A `~` not followed by `0` (for `~`) or `1` (for `/`), at this byte offset.
    BadEscape {
        /// The byte offset of the `~`.
        at: usize,
    },
}

impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerError::Empty => f.write_str(
                "the empty pointer names the whole record; name a field, e.g. \"/kind\"",
            ),
            PointerError::NoLeadingSlash => {
                f.write_str("a JSON Pointer starts with `/`, e.g. \"/attributes/name\"")
            }
            PointerError::BadEscape { .. } => f.write_str(
                "`~` must be followed by `0` (for `~`) or `1` (for `/`) in a JSON Pointer",
            ),
        }
    }
}

/// A checked JSON Pointer naming a field: one or more reference tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pointer<'a> {
    text: &'a str,
}

impl<'a> Pointer<'a> {
    /// `text` as a pointer, if it is one that names a field.
    pub fn parse(text: &'a str) -> Result<Self, PointerError> {
        if text.is_empty() {
            return Err(PointerError::Empty);
        }
        if !text.starts_with('/') {
            return Err(PointerError::NoLeadingSlash);
        }
        let bytes = text.as_bytes();
        for (at, &b) in bytes.iter().enumerate() {
            if b == b'~' && !matches!(bytes.get(at + 1), Some(b'0' | b'1')) {
                return Err(PointerError::BadEscape { at });
            }
        }
        Ok(Pointer { text })
    }

    /// The pointer as written.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// Its reference tokens, in order (still escaped; compare with
    /// [`Token::matches`]).
    pub fn tokens(&self) -> impl Iterator<Item = Token<'a>> + Clone {
        self.text.get(1..).unwrap_or("").split('/').map(Token)
    }
}

/// One reference token of a pointer, as written (`~0`, `~1` escapes kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token<'a>(pub &'a str);

impl Token<'_> {
    /// Whether this token names the object key `key`.
    pub fn matches(&self, key: &str) -> bool {
        let mut escaped = self.0.as_bytes().iter();
        let mut key = key.as_bytes().iter();
        loop {
            let want = match escaped.next() {
                None => return key.next().is_none(),
                Some(b'~') => match escaped.next() {
                    Some(b'0') => b'~',
                    Some(b'1') => b'/',
                    _ => return false,
                },
                Some(&b) => b,
            };
            if key.next() != Some(&want) {
                return false;
            }
        }
    }

    /// The array index this token names, if it is one (`0`, or digits not
    /// starting with `0`).
    pub fn index(&self) -> Option<usize> {
        let digits = self.0;
        let canonical = digits == "0" || !digits.starts_with('0');
        if digits.is_empty() || !canonical || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_name_fields_by_escaped_tokens() {
        let p = Pointer::parse("/attributes/gen_ai.tool.name").expect("a pointer");
        let mut tokens = p.tokens();
        assert_eq!(tokens.next(), Some(Token("attributes")));
        assert_eq!(tokens.next(), Some(Token("gen_ai.tool.name")));
        assert_eq!(tokens.next(), None);
        // RFC 6901 section 5's examples: `~1` is `/`, `~0` is `~`, `""` a key.
        let first = |s| {
            let p = Pointer::parse(s).expect("a pointer");
            p.tokens().next().expect("a token")
        };
        assert!(first("/a~1b").matches("a/b"));
        assert!(first("/m~0n").matches("m~n"));
        assert!(first("/").matches(""));
        assert!(!first("/m~0n").matches("m~0n"));
        assert!(!first("/ab").matches("a"));
        assert!(!first("/a").matches("ab"));
        // `~01` is `~1` unescaped, not `/`.
        assert!(first("/~01").matches("~1"));
    }

    #[test]
    fn only_field_pointers_are_accepted() {
        assert_eq!(Pointer::parse(""), Err(PointerError::Empty));
        assert_eq!(Pointer::parse("a/b"), Err(PointerError::NoLeadingSlash));
        assert_eq!(
            Pointer::parse("/a~2"),
            Err(PointerError::BadEscape { at: 2 })
        );
        assert_eq!(
            Pointer::parse("/a~"),
            Err(PointerError::BadEscape { at: 2 })
        );
    }

    #[test]
    fn array_indices_are_canonical_decimals() {
        let index = |s: &'static str| Token(s).index();
        assert_eq!(index("0"), Some(0));
        assert_eq!(index("12"), Some(12));
        assert_eq!(index("01"), None);
        assert_eq!(index("-1"), None);
        assert_eq!(index(""), None);
        assert_eq!(index("1a"), None);
    }
}
