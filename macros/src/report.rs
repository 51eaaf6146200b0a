//! Spec diagnostics as Rust compile errors, pointing as precisely as stable Rust allows.
//!
//! Each error keeps the CLI's code and message (`E0200: unknown name `foo``).
//! A spec written as tokens gets the error on the offending tokens themselves,
//! with the labels and notes as extra lines. A spec written as a string or a file
//! gets the error on the literal (stable Rust cannot point inside one), with the
//! line and column in the message and the CLI's rendered snippet below it.

use crate::token_text::TokenText;
use codespan_reporting::files::{Files, SimpleFile};
use hindsight_compiler::diag::{self, Diag, LabelStyle, Severity};
use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};

/// Where the spec text came from, for placing its errors.
pub(crate) enum Origin<'a> {
    /// Rebuilt from Rust tokens.
    Tokens(&'a TokenText),
    /// The value of a string literal or the contents of a file.
    Text {
        /// How to name the spec in messages: `the spec string` or its path.
        name: &'a str,
        /// The spec text.
        text: &'a str,
        /// The literal's span.
        span: Span,
    },
}

/// One compile error per error among `diags` (all of them if, unexpectedly,
/// none is an error), combined into one `syn::Error`.
pub(crate) fn spec_errors(diags: &[Diag], origin: &Origin<'_>) -> syn::Error {
    let errors: Vec<&Diag> = diags
        .iter()
        .filter(|d| d.severity >= Severity::Error)
        .collect();
    let chosen = if errors.is_empty() {
        diags.iter().collect()
    } else {
        errors
    };
    let mut combined: Option<syn::Error> = None;
    for d in chosen {
        let error = match origin {
            Origin::Tokens(tokens) => token_error(d, tokens),
            Origin::Text { name, text, span } => text_error(d, name, text, *span),
        };
        match &mut combined {
            Some(all) => all.combine(error),
            None => combined = Some(error),
        }
    }
    combined.unwrap_or_else(|| syn::Error::new(Span::call_site(), "the spec failed to compile"))
}

/// `E0200: unknown name `foo``, or the bare message when there is no code.
fn head(d: &Diag) -> String {
    match &d.code {
        Some(code) => format!("{code}: {}", d.message),
        None => d.message.clone(),
    }
}

/// The primary label's byte range, if the diagnostic has one.
fn primary_range(d: &Diag) -> Option<std::ops::Range<usize>> {
    d.labels
        .iter()
        .find(|l| l.style == LabelStyle::Primary)
        .map(|l| l.range.clone())
}

/// The error on the tokens the primary label covers; labels and notes follow
/// the head line (`here: ...`, `at `x`: ...`, `= help: ...`).
fn token_error(d: &Diag, tokens: &TokenText) -> syn::Error {
    let mut message = head(d);
    for label in d.labels.iter().filter(|l| !l.message.is_empty()) {
        match label.style {
            LabelStyle::Primary => message.push_str(&format!("\n  here: {}", label.message)),
            LabelStyle::Secondary => {
                let snippet = tokens.text.get(label.range.clone()).unwrap_or("").trim();
                message.push_str(&format!("\n  at `{snippet}`: {}", label.message));
            }
        }
    }
    for note in &d.notes {
        message.push_str(&format!("\n  = {note}"));
    }
    let covering = primary_range(d).and_then(|range| tokens.spans_covering(range));
    match covering {
        Some((first, last)) => syn::Error::new_spanned(span_pair(first, last), message),
        None => syn::Error::new(Span::call_site(), message),
    }
}

/// Two placeholder tokens carrying `first` and `last`: `new_spanned` over them
/// highlights `first..last` on stable Rust, where spans cannot be joined.
fn span_pair(first: Span, last: Span) -> TokenStream {
    [first, last]
        .into_iter()
        .map(|span| {
            let mut punct = Punct::new('#', Spacing::Alone);
            punct.set_span(span);
            TokenTree::Punct(punct)
        })
        .collect()
}

/// The error on the literal: the head with `at line L, column C of NAME`, then
/// the CLI's rendering (source line, carets, labels, notes) without its header.
fn text_error(d: &Diag, name: &str, text: &str, span: Span) -> syn::Error {
    let file = SimpleFile::new(name, text);
    let location = primary_range(d).and_then(|range| file.location((), range.start).ok());
    let mut message = head(d);
    if let Some(at) = location {
        message.push_str(&format!(
            ", at line {}, column {} of {name}",
            at.line_number, at.column_number
        ));
    }
    let rendered = diag::render(name, text, std::slice::from_ref(d));
    let body: Vec<&str> = rendered.lines().skip(1).collect();
    let body = body.join("\n");
    let body = body.trim_end();
    if !body.is_empty() {
        message.push('\n');
        message.push_str(body);
    }
    syn::Error::new(span, message)
}
