//! Diagnostics shared by every stage: codespan-reporting values and a plain-text renderer.

use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};

pub use crate::code::Code;
pub use codespan_reporting::diagnostic::{Diagnostic, Label, LabelStyle, Severity};

/// A diagnostic about the single spec file being compiled.
pub type Diag = Diagnostic<()>;

/// Renders diagnostics in rustc style, without colour, as the CLI and snapshots show them.
pub fn render(file_name: &str, source: &str, diags: &[Diag]) -> String {
    let mut out = termcolor::NoColor::new(Vec::new());
    write(&mut out, file_name, source, diags);
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// Renders diagnostics to a colour-capable writer (e.g. a terminal's stderr).
pub fn write(out: &mut dyn termcolor::WriteColor, file_name: &str, source: &str, diags: &[Diag]) {
    let file = SimpleFile::new(file_name, source);
    let config = term::Config::default();
    for d in diags {
        // Writing to an in-memory buffer or a terminal; a failed write only loses output.
        let _ = term::emit_to_write_style(out, &config, &file, d);
    }
}

/// Whether any diagnostic is an error (warnings alone do not stop compilation).
pub fn has_errors(diags: &[Diag]) -> bool {
    diags.iter().any(|d| d.severity >= Severity::Error)
}
