//! Spec names as Rust identifiers: plain, or raw (`r#type`) for Rust keywords.

use proc_macro2::{Ident, Span as RustSpan};

/// Strict and reserved keywords of every Rust edition up to 2024: usable only
/// as raw identifiers.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Names that are not identifiers even in raw form.
const UNUSABLE: &[&str] = &["self", "Self", "super", "crate", "_"];

/// How a spec name becomes a Rust identifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Usable as it is.
    Plain,
    /// A Rust keyword: usable as a raw identifier.
    Keyword,
    /// Not usable at all.
    Unusable,
}

fn classify(name: &str) -> Class {
    let mut chars = name.chars();
    let well_formed = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !well_formed || UNUSABLE.contains(&name) {
        Class::Unusable
    } else if KEYWORDS.contains(&name) {
        Class::Keyword
    } else {
        Class::Plain
    }
}

/// The identifier for a spec name. [`super::reject`] has rejected unusable names before
/// any code is generated; should one get here anyway it becomes
/// `unusable_name` instead of a panic.
pub(super) fn ident(name: &str) -> Ident {
    let span = RustSpan::call_site();
    match classify(name) {
        Class::Plain => Ident::new(name, span),
        Class::Keyword => Ident::new_raw(name, span),
        Class::Unusable => Ident::new("unusable_name", span),
    }
}

/// Whether Rust can use `name` as an identifier (plain or raw).
pub(super) fn is_usable(name: &str) -> bool {
    classify(name) != Class::Unusable
}

#[cfg(test)]
mod tests {
    use super::{classify, ident, is_usable, Class};

    #[test]
    fn classes() {
        assert_eq!(classify("speed"), Class::Plain);
        assert_eq!(classify("Speed_2"), Class::Plain);
        assert_eq!(classify("type"), Class::Keyword);
        assert_eq!(classify("gen"), Class::Keyword);
        for bad in ["self", "Self", "super", "crate", "_", "", "2x", "a-b"] {
            assert_eq!(classify(bad), Class::Unusable, "{bad}");
            assert!(!is_usable(bad));
        }
    }

    #[test]
    fn idents() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("speed").to_string(), "speed");
        assert_eq!(ident("self").to_string(), "unusable_name");
    }
}
