//! Spec diagnostics on stderr, in rustc style; one-line errors come from
//! [`hindsight_trace::report`], re-exported here.

use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use hindsight_grammar::diag::{self, Diag};
pub use hindsight_trace::report::{error, line, warning};
use std::io::{self, IsTerminal, Write};

/// Prints spec diagnostics in rustc style, coloured only when stderr is a
/// terminal, and with errors the footer pointing to `hindsight explain CODE`.
pub fn diagnostics(file_name: &str, source: &str, diags: &[Diag]) {
    if diags.is_empty() {
        return;
    }
    if io::stderr().is_terminal() {
        let mut out = StandardStream::stderr(ColorChoice::Auto);
        diag::write(&mut out, file_name, source, diags);
    } else {
        let text = diag::render(file_name, source, diags);
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
    let _ = io::stderr()
        .lock()
        .write_all(diag::explain_footer(diags).as_bytes());
}
