//! Small JSON text helpers shared by the trace decoder and the verdict writer.

/// Appends `s` to `out` as a JSON string literal, quotes included.
///
/// Escapes `"`, `\` and every control character (U+0000..U+001F, U+007F), so the
/// result is valid JSON for any input.
pub fn push_string(out: &mut String, s: &str) {
    use std::fmt::Write;
    // Most strings (keys, names) need no escape: copied whole rather than
    // written a character at a time.
    if s.bytes()
        .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b != 0x7f)
    {
        out.reserve(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return;
    }
    let _ = write!(out, "{}", hindsight_runtime::record::JsonString(s));
}

/// Most characters of a value an error message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// Text from a trace as an error message quotes it: control characters escaped
/// as in JSON (so nothing reaches the terminal raw), and at most
/// [`EXCERPT_CHARS`] characters, a longer text cut with `…` and its length.
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

impl std::fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = self.0;
        let cut = text
            .char_indices()
            .nth(EXCERPT_CHARS)
            .map_or(text.len(), |(i, _)| i);
        let escaped = string(&text[..cut]);
        // Without the quotes `string` adds.
        f.write_str(&escaped[1..escaped.len() - 1])?;
        if cut < text.len() {
            write!(f, "… ({} bytes in all)", text.len())?;
        }
        Ok(())
    }
}

/// `s` as a JSON string literal, quotes included.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_string(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::string;

    #[test]
    fn plain_text_is_only_quoted() {
        assert_eq!(string("alarm_ok"), "\"alarm_ok\"");
        assert_eq!(string(""), "\"\"");
        assert_eq!(string("é∀"), "\"é∀\"");
    }

    #[test]
    fn specials_are_escaped() {
        assert_eq!(string("a\"b"), r#""a\"b""#);
        assert_eq!(string("a\\b"), r#""a\\b""#);
        assert_eq!(string("a\nb\tc\r"), r#""a\nb\tc\r""#);
        assert_eq!(string("\u{1}\u{7f}"), r#""\u0001\u007f""#);
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        use super::{Excerpt, EXCERPT_CHARS};
        assert_eq!(Excerpt("pkg").to_string(), "pkg");
        assert_eq!(Excerpt("a\u{1b}[31m").to_string(), "a\\u001b[31m");
        let long = "é".repeat(1000);
        let shown = Excerpt(&long).to_string();
        assert_eq!(
            shown,
            format!("{}… (2000 bytes in all)", "é".repeat(EXCERPT_CHARS))
        );
        assert_eq!(
            Excerpt(&"x".repeat(EXCERPT_CHARS)).to_string().len(),
            EXCERPT_CHARS
        );
    }

    proptest::proptest! {
        /// The copy-whole path writes what the escaping writer writes.
        #[test]
        fn every_string_is_written_as_the_escaping_writer_writes_it(s in ".*") {
            let slow = hindsight_runtime::record::JsonString(&s).to_string();
            proptest::prop_assert_eq!(string(&s), slow);
        }
    }

    #[test]
    fn escaped_text_parses_back() {
        let nasty = "q\"\\\n\u{0}\u{1f}é";
        let back: String = serde_json::from_str(&string(nasty)).unwrap_or_default();
        assert_eq!(back, nasty);
    }
}
