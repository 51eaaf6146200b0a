//! Messages to stderr: rustc-style spec diagnostics and one-line CLI errors.
//!
//! Writing to stderr never panics (unlike `eprintln!`): a failed write only loses
//! the message.

use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use hindsight_grammar::diag::{self, Diag};
use std::fmt::Display;
use std::io::{self, IsTerminal, Write};

/// Prints `error: MESSAGE` on stderr.
pub fn error(message: impl Display) {
    line(format_args!("error: {message}"));
}

/// Prints one line on stderr as it is.
pub fn line(text: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// Prints spec diagnostics in rustc style, coloured only when stderr is a terminal.
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
}
