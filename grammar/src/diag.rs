//! Diagnostics shared by every stage: codespan-reporting values and a plain-text renderer.

use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor};
use std::ops::Range;

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
    let mut file = Shown {
        name: file_name,
        source,
        line_starts: files::line_starts(source).collect(),
        chars_before_block: source
            .as_bytes()
            .chunks(CHAR_BLOCK)
            .scan(0, |total, block| {
                let before = *total;
                *total += chars_in(block);
                Some(before)
            })
            .collect(),
        windows: Vec::new(),
    };
    let config = term::Config::default();
    for d in diags {
        file.show_around(d);
        // Writing to an in-memory buffer or a terminal; a failed write only loses output.
        let _ = term::emit_to_write_style(out, &config, &file, d);
    }
}

/// A line longer than this many bytes is shown only around what a
/// diagnostic points at: a spec of one 1 MiB line with many errors would
/// otherwise print the whole line once per error.
const MAX_SHOWN_LINE: usize = 240;

/// The size of the blocks characters are counted in ahead of time.
const CHAR_BLOCK: usize = 1024;

/// The characters UTF-8 `bytes` hold: every byte that is not a continuation.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// Bytes shown on each side of a place a diagnostic points at in a long line.
const CONTEXT_BYTES: usize = 60;

/// The spec file as one diagnostic is shown: long lines cut to windows
/// around the diagnostic's labels, columns still counted from the line's
/// true start.
struct Shown<'a> {
    name: &'a str,
    source: &'a str,
    /// The byte offset where each line starts.
    line_starts: Vec<usize>,
    /// The characters before each [`CHAR_BLOCK`] bytes of the source, so
    /// that a column in a long line is counted without walking the line.
    chars_before_block: Vec<usize>,
    /// The long lines the diagnostic points into, each with the part shown.
    windows: Vec<(usize, Range<usize>)>,
}

impl Shown<'_> {
    /// The whole of line `line` (its newline included), as a plain file has it.
    fn full_line(&self, line: usize) -> Option<Range<usize>> {
        let start = *self.line_starts.get(line)?;
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.source.len());
        Some(start..end)
    }

    /// Sets the windows for `diag`: on each long line a label starts or ends
    /// in, the bytes from [`CONTEXT_BYTES`] before the first such point to as
    /// many after the last, on character boundaries.
    fn show_around(&mut self, diag: &Diag) {
        let mut windows: Vec<(usize, Range<usize>)> = Vec::new();
        let points = diag
            .labels
            .iter()
            .flat_map(|l| [l.range.start, l.range.end]);
        for point in points {
            let line = self.line_of(point);
            match windows.iter_mut().find(|(l, _)| *l == line) {
                Some((_, window)) => {
                    window.start = window.start.min(point);
                    window.end = window.end.max(point);
                }
                None => windows.push((line, point..point)),
            }
        }
        let source = self.source;
        windows.retain_mut(|(line, window)| {
            let Some(full) = self.full_line(*line).filter(|f| f.len() > MAX_SHOWN_LINE) else {
                return false;
            };
            let mut start = window.start.saturating_sub(CONTEXT_BYTES).max(full.start);
            while !source.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = window.end.saturating_add(CONTEXT_BYTES).min(full.end);
            while !source.is_char_boundary(end) {
                end += 1;
            }
            *window = start..end;
            true
        });
        self.windows = windows;
    }

    /// The index of the line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        match self.line_starts.binary_search(&at) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }
}

impl<'a> Files<'a> for Shown<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.source)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, files::Error> {
        Ok(self.line_of(byte_index))
    }

    /// The column from the line's true start, though only a window is shown.
    fn column_number(
        &'a self,
        (): (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let full = self.line_range_full(line_index)?;
        let at = byte_index.clamp(full.start, full.end);
        Ok(self.chars_before(at) - self.chars_before(full.start) + 1)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, files::Error> {
        match self.windows.iter().find(|(l, _)| *l == line_index) {
            Some((_, window)) => Ok(window.clone()),
            None => self.line_range_full(line_index),
        }
    }
}

impl Shown<'_> {
    /// The characters of the source before byte `at` (a character boundary).
    fn chars_before(&self, at: usize) -> usize {
        let block = at / CHAR_BLOCK;
        let start = block * CHAR_BLOCK;
        let before = self.chars_before_block.get(block).copied().unwrap_or(0);
        before + chars_in(self.source.as_bytes().get(start..at).unwrap_or_default())
    }

    /// [`Shown::full_line`], or the error codespan expects for a line too large.
    fn line_range_full(&self, line_index: usize) -> Result<Range<usize>, files::Error> {
        self.full_line(line_index)
            .ok_or(files::Error::LineTooLarge {
                given: line_index,
                max: self.line_starts.len().saturating_sub(1),
            })
    }
}

/// The 1-based line and character column of byte offset `at` in
/// `source`, as rendered diagnostics number them (codespan's).
pub fn line_column(source: &str, at: usize) -> (usize, usize) {
    files::SimpleFile::new("", source)
        .location((), at.min(source.len()))
        .map_or((0, 0), |l| (l.line_number, l.column_number))
}

/// Whether any diagnostic is an error (warnings alone do not stop compilation).
pub fn has_errors(diags: &[Diag]) -> bool {
    diags.iter().any(|d| d.severity >= Severity::Error)
}

/// The lines that end a report of `diags` with errors, pointing to the long
/// explanations of their codes, as rustc's footer does: "For more
/// information about this error, try `hindsight explain E0200`." (and the
/// list of codes when there are several); empty without a coded error.
pub fn explain_footer(diags: &[Diag]) -> String {
    let mut codes: Vec<&str> = Vec::new();
    for diag in diags.iter().filter(|d| d.severity >= Severity::Error) {
        if let Some(code) = diag.code.as_deref() {
            if !codes.contains(&code) {
                codes.push(code);
            }
        }
    }
    match codes.as_slice() {
        [] => String::new(),
        [code] => {
            format!("For more information about this error, try `hindsight explain {code}`.\n")
        }
        [first, ..] => format!(
            "Some errors have detailed explanations: {}.\nFor more information about an error, \
             try `hindsight explain {first}`.\n",
            codes.join(", ")
        ),
    }
}
