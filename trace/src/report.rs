//! One-line error messages on stderr.
//!
//! Writing to stderr never panics (unlike `eprintln!`): a failed write only loses
//! the message.

use std::fmt::Display;
use std::io::{self, Write};

/// Prints `error: MESSAGE` on stderr.
pub fn error(message: impl Display) {
    line(format_args!("error: {message}"));
}

/// Prints `warning: MESSAGE` on stderr.
pub fn warning(message: impl Display) {
    line(format_args!("warning: {message}"));
}

/// Prints one line on stderr as it is.
pub fn line(text: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}
