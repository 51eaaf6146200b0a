//! Reading monitor traces: JSON Lines per the language design, section 6.
//!
//! Each non-blank line is one step, in one of two forms:
//! - an object giving every input: `{"request": true, "pkg": 3, "status": "passed"}`
//!   (bool ← JSON bool, int ← JSON integer that fits i64, float ← any JSON number,
//!   enum ← a string naming a variant, bare `passed` or qualified `Status::passed`);
//!   a missing input, an unknown key and a repeated key are errors;
//! - an array of the bool inputs that are true: `["request", "alarm"]`, valid only
//!   when every input of the monitor is bool.
//!
//! Lines are decoded straight into a caller-owned `Vec<Value>` by a serde visitor:
//! no JSON tree and no allocation per line on the success path. [`TraceReader`]
//! reuses one line buffer, so memory stays constant in the length of the trace.
//!
//! This module is also the framework the other trace forms
//! ([`crate::system`], [`crate::population`]) are read with: one [`Reader`]
//! over a [`Decode`] per form, one line splitter, one placement rule for
//! errors ([`Placement`]) and one visitor for objects of typed fields. Their
//! error kinds wrap [`TraceErrorKind`] for what all forms share (reading,
//! UTF-8, JSON syntax), never the other way round.

mod decode;
mod error;
mod fast;
mod key;
mod record;
mod schema;
#[cfg(test)]
mod tests;
mod visit;

pub(crate) use decode::{char_column, json_message, line_error, placed, written_as_string};
pub use decode::{LineDecoder, ReadState};
pub use error::{LineError, Placement, TraceError, TraceErrorKind};
pub use key::{KeyFound, SessionPointer};
pub use schema::{InputSchema, InputType, TraceSchema};
pub use visit::variant_index;
pub(crate) use visit::{
    any_seed, comma_list, fail, forward_scalars, reject_containers, seconds_text, time_text,
    FieldErrors, FieldsSeed, KeyedErrors, KeyedLine, KeyedSeed, KeysGiven, LineKey, Scalar,
};

use std::io::{self, BufRead};

/// Decodes single lines of one trace form into a reused value.
pub trait Decode {
    /// What lines are decoded against.
    type Schema;
    /// What one line decodes into.
    type Out;
    /// Why a line of this form is rejected.
    type Kind: Placement + From<TraceErrorKind>;

    /// A decoder for lines of `schema`.
    fn new(schema: Self::Schema) -> Self;

    /// The schema lines are decoded against.
    fn schema(&self) -> &Self::Schema;

    /// Decodes one non-blank line (without its newline) into `out`, reusing
    /// its buffers: `Ok(true)` for a step, `Ok(false)` for a line a step
    /// filter skips (`out` is then unspecified).
    fn decode(&mut self, line: &str, out: &mut Self::Out) -> Result<bool, LineError<Self::Kind>>;

    /// Whether this decoder's lines may be OpenTelemetry exports (a monitor
    /// whose pointers lead into `resourceSpans`): if not, a first line that
    /// is one is refused with a hint ([`TraceErrorKind::OtlpExport`]).
    fn reads_exports(&self) -> bool {
        false
    }

    /// Decodes a line not checked to be UTF-8 yet, if this decoder reads it
    /// on a fast path that finds it to be (as [`decode`](Self::decode) would
    /// have decoded it); `None` to have it checked and decoded.
    fn decode_bytes(
        &mut self,
        _line: &[u8],
        _out: &mut Self::Out,
    ) -> Option<Result<bool, LineError<Self::Kind>>> {
        None
    }
}

/// Reads a monitor trace one step at a time, reusing one line buffer.
pub type TraceReader<R> = Reader<R, LineDecoder>;

/// Reads a trace of any form one line at a time, reusing one line buffer.
pub struct Reader<R, D> {
    lines: Lines<R>,
    decoder: D,
    /// Whether the first non-blank line was looked at for what it is.
    sniffed: bool,
}

impl<R: BufRead, D: Decode> Reader<R, D> {
    /// A reader of lines from `reader`, decoded against `schema`, with lines
    /// of at most [`DEFAULT_MAX_LINE_BYTES`].
    pub fn new(reader: R, schema: D::Schema) -> Self {
        Reader {
            lines: Lines::new(reader),
            decoder: D::new(schema),
            sniffed: false,
        }
    }

    /// The same reader with lines of at most `max` bytes (a longer line is an
    /// error, read no further than `max + 1` bytes).
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines = self.lines.with_max(max);
        self
    }

    /// The schema lines are decoded against.
    pub fn schema(&self) -> &D::Schema {
        self.decoder.schema()
    }

    /// The 1-based number of the last line read (0 before the first).
    pub fn line(&self) -> usize {
        self.lines.line()
    }

    /// Decodes the next step into `out`, skipping blank lines and lines that
    /// are no step. Returns `Ok(false)` at the end of the trace.
    pub fn read_next(&mut self, out: &mut D::Out) -> Result<bool, TraceError<D::Kind>> {
        loop {
            let Some(bytes) = self.lines.next_bytes().map_err(TraceError::lift)? else {
                return Ok(false);
            };
            if !self.sniffed {
                self.sniffed = true;
                if !self.decoder.reads_exports() && is_otlp_export(bytes) {
                    return Err(self.export_error());
                }
            }
            let decoded = match self.decoder.decode_bytes(bytes, out) {
                Some(decoded) => decoded,
                None => {
                    let text = self.lines.checked().map_err(TraceError::lift)?;
                    self.decoder.decode(text, out)
                }
            };
            if decoded.map_err(|e| e.at_line(self.lines.line()))? {
                return Ok(true);
            }
        }
    }

    /// Decodes the next non-blank line into `out`, calling `before` with
    /// the line and the decoder first (a keyed log loads the line's
    /// session): `Some(true)` for a step, `Some(false)` for a line that is
    /// none, `None` at the end of the trace.
    pub fn read_line_with(
        &mut self,
        out: &mut D::Out,
        before: impl FnOnce(&str, &mut D),
    ) -> Result<Option<bool>, TraceError<D::Kind>> {
        let Some(text) = self.lines.next_line().map_err(TraceError::lift)? else {
            return Ok(None);
        };
        if !self.sniffed {
            self.sniffed = true;
            if !self.decoder.reads_exports() && is_otlp_export(text.as_bytes()) {
                return Err(self.export_error());
            }
        }
        let text = self.lines.checked().map_err(TraceError::lift)?;
        before(text, &mut self.decoder);
        self.decoder
            .decode(text, out)
            .map(Some)
            .map_err(|e| e.at_line(self.lines.line()))
    }

    /// The error of a first line that is an OpenTelemetry export.
    fn export_error(&self) -> TraceError<D::Kind> {
        TraceError {
            line: self.lines.line(),
            column: Some(1),
            kind: D::Kind::from(TraceErrorKind::OtlpExport),
        }
    }

    /// The decoder, for what it noticed over the lines read so far.
    pub fn decoder(&self) -> &D {
        &self.decoder
    }

    /// The decoder, to swap the state one trace's lines carry (sessions).
    pub fn decoder_mut(&mut self) -> &mut D {
        &mut self.decoder
    }

    /// An error about the last line read (the monitor refused it, say),
    /// placed on its line like a decoding error.
    pub fn error_here(&self, kind: D::Kind) -> TraceError<D::Kind> {
        let line = self.lines.current();
        placed(line, kind, line.len()).at_line(self.lines.line())
    }
}

/// The longest trace line read by default, in bytes (the newline excluded):
/// 16 MiB. A longer line is an error at its line number, so a trace without
/// newlines (or `/dev/zero`) cannot exhaust memory.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// The non-blank lines of a JSON Lines trace, one at a time, each a slice of
/// one reused buffer that holds at most `max + 1` bytes of a line plus one
/// read ahead: newline (and `\r`) and a byte order mark at the start of the
/// trace removed, UTF-8 checked on request. Lines are not copied: the buffer
/// is refilled with large reads straight from the reader and a line is
/// handed out where it lies.
pub(crate) struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    /// The bytes of `buf` read and not yet handed out: `buf[start..filled]`.
    start: usize,
    filled: usize,
    /// Whether the reader has reported its end.
    at_end: bool,
    line: usize,
    /// Where the last non-blank line lies in `buf`.
    current: (usize, usize),
    /// The longest line accepted, in bytes (the newline excluded).
    max: usize,
    /// Whether the rest of a line found too long is still to be skipped.
    skipping: bool,
}

/// How many bytes one read asks the reader for at least: more than a
/// buffered reader holds (64 KiB for the CLI's files, 8 KiB for standard
/// input), so that it reads straight into our buffer instead of copying
/// through its own.
const READ_BYTES: usize = 1 << 18;

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each at most [`DEFAULT_MAX_LINE_BYTES`] long.
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            start: 0,
            filled: 0,
            at_end: false,
            line: 0,
            current: (0, 0),
            max: DEFAULT_MAX_LINE_BYTES,
            skipping: false,
        }
    }

    /// The 1-based number of the last line read (0 before the first).
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// The same lines, each at most `max` bytes long.
    pub(crate) fn with_max(mut self, max: usize) -> Self {
        self.max = max;
        self
    }

    /// The next non-blank line, UTF-8 checked, or `None` at the end of the
    /// trace.
    pub(crate) fn next_line(&mut self) -> Result<Option<&str>, TraceError> {
        if self.next_bytes()?.is_none() {
            return Ok(None);
        }
        self.checked().map(Some)
    }

    /// The next non-blank line as bytes (UTF-8 not checked yet: see
    /// [`checked`](Self::checked)), or `None` at the end of the trace.
    pub(crate) fn next_bytes(&mut self) -> Result<Option<&[u8]>, TraceError> {
        self.current = (0, 0);
        let (start, end) = loop {
            let Some((start, end)) = self.raw_line()? else {
                return Ok(None);
            };
            let mut bytes = self.buf.get(start..end).unwrap_or_default();
            if self.line == 1 {
                bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
            } else if bytes.starts_with(BOM) {
                return Err(TraceError {
                    line: self.line,
                    column: Some(1),
                    kind: TraceErrorKind::MisplacedByteOrderMark,
                });
            }
            if !bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                break (end - bytes.len(), end);
            }
        };
        self.current = (start, end);
        Ok(self.buf.get(start..end))
    }

    /// The line [`next_bytes`](Self::next_bytes) returned last, as text; an
    /// error at its first byte that is not UTF-8.
    pub(crate) fn checked(&self) -> Result<&str, TraceError> {
        let (start, end) = self.current;
        let bytes = self.buf.get(start..end).unwrap_or_default();
        std::str::from_utf8(bytes).map_err(|e| TraceError {
            line: self.line,
            column: Some(char_column_bytes(bytes, e.valid_up_to())),
            kind: TraceErrorKind::InvalidUtf8,
        })
    }

    /// Where the next line (blank or not) lies in `buf`, newline and `\r`
    /// removed, counting it; `None` at the end of the trace. A line longer
    /// than `max` is an error once `max + 1` of its bytes are read; the
    /// rest of it is then skipped (never held) before the next line.
    fn raw_line(&mut self) -> Result<Option<(usize, usize)>, TraceError> {
        self.skip_long_line()?;
        let limit = self.max.saturating_add(1);
        let mut searched = 0;
        loop {
            let pending = self.buf.get(self.start..self.filled).unwrap_or_default();
            let window = pending.get(..pending.len().min(limit)).unwrap_or(pending);
            let newline = window
                .get(searched..)
                .and_then(|rest| memchr::memchr(b'\n', rest))
                .map(|at| searched + at);
            let taken = match newline {
                Some(at) => Some((at, at + 1)),
                None if window.len() >= limit => {
                    self.line += 1;
                    self.start += window.len();
                    self.skipping = true;
                    return Err(TraceError {
                        line: self.line,
                        column: None,
                        kind: TraceErrorKind::LineTooLong { limit: self.max },
                    });
                }
                None if self.at_end && window.is_empty() => return Ok(None),
                None if self.at_end => Some((window.len(), window.len())),
                None => None,
            };
            if let Some((length, consumed)) = taken {
                self.line += 1;
                let start = self.start;
                self.start += consumed;
                let end = start + length;
                // A `\r` before the newline is part of it.
                let cr = length > 0 && length < consumed && self.buf.get(end - 1) == Some(&b'\r');
                return Ok(Some((start, end - usize::from(cr))));
            }
            searched = window.len();
            self.fill().map_err(|e| TraceError {
                line: self.line + 1,
                column: None,
                kind: TraceErrorKind::Read(e),
            })?;
        }
    }

    /// Drops the rest of a line found too long, up to and including its
    /// newline, a buffer at a time.
    fn skip_long_line(&mut self) -> Result<(), TraceError> {
        while self.skipping {
            let pending = self.buf.get(self.start..self.filled).unwrap_or_default();
            match memchr::memchr(b'\n', pending) {
                Some(at) => {
                    self.start += at + 1;
                    self.skipping = false;
                }
                None if self.at_end => {
                    self.start = self.filled;
                    self.skipping = false;
                }
                None => {
                    self.start = self.filled;
                    self.fill().map_err(|e| TraceError {
                        line: self.line,
                        column: None,
                        kind: TraceErrorKind::Read(e),
                    })?;
                }
            }
        }
        Ok(())
    }

    /// Moves the pending bytes to the front of `buf` and reads more after
    /// them, into at least [`READ_BYTES`] of room; notes the reader's end.
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.start..self.filled, 0);
        self.filled -= self.start;
        self.start = 0;
        if self.buf.len() < self.filled + READ_BYTES {
            self.buf.resize(self.filled + READ_BYTES, 0);
        }
        loop {
            let room = self.buf.get_mut(self.filled..).unwrap_or_default();
            match self.reader.read(room) {
                Ok(0) => {
                    self.at_end = true;
                    return Ok(());
                }
                Ok(read) => {
                    self.filled += read;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The last line [`next_line`](Self::next_line) returned (empty before the
    /// first, at the end and after an error).
    fn current(&self) -> &str {
        let (start, end) = self.current;
        let bytes = self.buf.get(start..end).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }
}

/// Whether `line` is an OpenTelemetry export request (OTLP/JSON): an object
/// with a top-level `resourceSpans` key. Looked at for a trace's first line
/// only; the key is searched for before the line is parsed.
pub(crate) fn is_otlp_export(line: &[u8]) -> bool {
    if memchr::memmem::find(line, b"\"resourceSpans\"").is_none() {
        return false;
    }
    serde_json::from_slice::<std::collections::HashMap<String, serde::de::IgnoredAny>>(line)
        .is_ok_and(|keys| keys.contains_key("resourceSpans"))
}

/// The UTF-8 byte order mark, ignored at the start of a trace (and an error at
/// the start of any later line: it is what `cat a.jsonl b.jsonl` leaves when
/// `b.jsonl` starts with one).
const BOM: &[u8] = "\u{feff}".as_bytes();

/// The 1-based character column of byte offset `at` in `bytes`, valid UTF-8 up to `at`.
fn char_column_bytes(bytes: &[u8], at: usize) -> usize {
    let prefix = bytes.get(..at).unwrap_or(bytes);
    prefix.iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1
}
