//! Escaping and the few SVG and HTML pieces every picture shares.

use std::fmt::Write as _;

/// `text` with the five XML special characters escaped, for element content
/// and attribute values alike.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The colour a verdict is drawn in: green true, red false, amber unknown.
pub(crate) fn verdict_colour(verdict: &str) -> &'static str {
    match verdict {
        "true" => "#15803d",
        "false" => "#b91c1c",
        _ => "#b45309",
    }
}

/// The CSS class of a verdict: `true`, `false` or `unknown`.
pub(crate) fn verdict_class(verdict: &str) -> &'static str {
    match verdict {
        "true" => "true",
        "false" => "false",
        _ => "unknown",
    }
}

/// Text `width` in pixels, roughly, at `size` pixels per em (for layout:
/// boxes wide enough for their labels).
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

/// An HTML page around `body`: UTF-8, the given inline `style` and optional
/// inline `script`, nothing fetched.
pub(crate) fn page(title: &str, style: &str, body: &str, script: Option<&str>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{style}</style>\n</head>\n<body>\n{body}",
        escape(title)
    );
    if let Some(script) = script {
        let _ = write!(out, "<script>\n{script}</script>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
