//! Small JSON text helpers shared by the trace decoder and the verdict writer.

/// Appends `s` to `out` as a JSON string literal, quotes included.
///
/// Escapes `"`, `\` and every control character (U+0000..U+001F, U+007F), so the
/// result is valid JSON for any input.
pub fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
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
    fn escaped_text_parses_back() {
        let nasty = "q\"\\\n\u{0}\u{1f}é";
        let back: String = serde_json::from_str(&string(nasty)).unwrap_or_default();
        assert_eq!(back, nasty);
    }
}
