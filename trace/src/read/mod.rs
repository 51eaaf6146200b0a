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
}

/// Reads a monitor trace one step at a time, reusing one line buffer.
pub type TraceReader<R> = Reader<R, LineDecoder>;

/// Reads a trace of any form one line at a time, reusing one line buffer.
pub struct Reader<R, D> {
    lines: Lines<R>,
    decoder: D,
}

impl<R: BufRead, D: Decode> Reader<R, D> {
    /// A reader of lines from `reader`, decoded against `schema`, with lines
    /// of at most [`DEFAULT_MAX_LINE_BYTES`].
    pub fn new(reader: R, schema: D::Schema) -> Self {
        Reader {
            lines: Lines::new(reader),
            decoder: D::new(schema),
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
            let Some(text) = self.lines.next_line().map_err(TraceError::lift)? else {
                return Ok(false);
            };
            let step = self
                .decoder
                .decode(text, out)
                .map_err(|e| e.at_line(self.lines.line()))?;
            if step {
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
        before(text, &mut self.decoder);
        self.decoder
            .decode(text, out)
            .map(Some)
            .map_err(|e| e.at_line(self.lines.line()))
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

/// The non-blank lines of a JSON Lines trace, one at a time in one reused
/// buffer of at most `max + 1` bytes: newline (and `\r`) and a byte order mark
/// at the start of the trace removed, UTF-8 checked.
pub(crate) struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: usize,
    /// Where the last non-blank line lies in `buf`.
    current: (usize, usize),
    /// The longest line accepted, in bytes (the newline excluded).
    max: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each at most [`DEFAULT_MAX_LINE_BYTES`] long.
    pub(crate) fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: Vec::new(),
            line: 0,
            current: (0, 0),
            max: DEFAULT_MAX_LINE_BYTES,
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

    /// The next non-blank line, or `None` at the end of the trace.
    pub(crate) fn next_line(&mut self) -> Result<Option<&str>, TraceError> {
        self.current = (0, 0);
        let (start, end) = loop {
            self.buf.clear();
            let read = self.read_line().map_err(|e| TraceError {
                line: self.line + 1,
                column: None,
                kind: TraceErrorKind::Read(e),
            })?;
            if read == 0 {
                return Ok(None);
            }
            self.line += 1;
            if self.buf.len() > self.max && self.buf.last() != Some(&b'\n') {
                return Err(TraceError {
                    line: self.line,
                    column: None,
                    kind: TraceErrorKind::LineTooLong { limit: self.max },
                });
            }
            let mut bytes = self.buf.as_slice();
            if let Some(rest) = bytes.strip_suffix(b"\n") {
                bytes = rest.strip_suffix(b"\r").unwrap_or(rest);
            }
            let end = bytes.len();
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
        let bytes = self.buf.get(start..end).unwrap_or_default();
        let text = std::str::from_utf8(bytes)
            .map(Some)
            .map_err(|e| TraceError {
                line: self.line,
                column: Some(char_column_bytes(bytes, e.valid_up_to())),
                kind: TraceErrorKind::InvalidUtf8,
            })?;
        self.current = (start, end);
        Ok(text)
    }

    /// Appends the next line to `buf`, its newline included, reading at most
    /// `max + 1` bytes (as `take(max + 1).read_until(b'\n')` would, with a
    /// vectorised search for the newline in the reader's buffer); the bytes
    /// read.
    fn read_line(&mut self) -> io::Result<usize> {
        let limit = self.max.saturating_add(1);
        let mut read = 0;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let window = available
                .get(..available.len().min(limit - read))
                .unwrap_or(available);
            if window.is_empty() {
                return Ok(read);
            }
            let (taken, done) = match memchr::memchr(b'\n', window) {
                Some(at) => (at + 1, true),
                None => (window.len(), false),
            };
            self.buf
                .extend_from_slice(window.get(..taken).unwrap_or(window));
            self.reader.consume(taken);
            read += taken;
            if done || read >= limit {
                return Ok(read);
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

/// The UTF-8 byte order mark, ignored at the start of a trace (and an error at
/// the start of any later line: it is what `cat a.jsonl b.jsonl` leaves when
/// `b.jsonl` starts with one).
const BOM: &[u8] = "\u{feff}".as_bytes();

/// The 1-based character column of byte offset `at` in `bytes`, valid UTF-8 up to `at`.
fn char_column_bytes(bytes: &[u8], at: usize) -> usize {
    let prefix = bytes.get(..at).unwrap_or(bytes);
    prefix.iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1
}
