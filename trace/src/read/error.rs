//! What can be wrong with a trace line, and where.

use crate::json::Excerpt;
use std::fmt;
use std::io;

/// Why a trace line was rejected.
#[derive(Debug)]
pub enum TraceErrorKind {
    /// Reading the trace failed.
    Read(io::Error),
    /// The line is not valid UTF-8.
    InvalidUtf8,
    /// The line is longer than the limit (`--max-line-bytes`); the rest of it
    /// was not read.
    LineTooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A line after the first starts with a UTF-8 byte order mark.
    MisplacedByteOrderMark,
    /// The first line is an OpenTelemetry export (`resourceSpans`) read as
    /// JSON Lines.
    OtlpExport,
    /// The line is not valid JSON (serde_json's message, without its position).
    Json(String),
    /// The line is valid JSON but neither an object nor an array.
    NotObjectOrArray {
        /// A description of the value found.
        found: String,
    },
    /// An object line lacks an input.
    MissingInput {
        /// The input.
        input: String,
    },
    /// An object line has a key that is no input of the monitor.
    UnknownInput {
        /// The key.
        name: String,
        /// The monitor's inputs, comma-separated.
        known: String,
    },
    /// An object line gives an input twice.
    DuplicateInput {
        /// The input.
        input: String,
    },
    /// An input's value has the wrong JSON type, an int is out of range, or a
    /// string names no variant of the input's enum.
    WrongType {
        /// The input.
        input: String,
        /// What it expects, e.g. `int`.
        expected: String,
        /// A description of the value found, e.g. `string "x"` (or `"x"` for a
        /// string naming no variant).
        found: String,
    },
    /// An array line, but the monitor has an input that is not bool.
    ArrayNeedsBoolInputs {
        /// The first non-bool input.
        input: String,
        /// Its type.
        ty: String,
    },
    /// An array line has an element that is not a string.
    ArrayElementNotString {
        /// A description of the element.
        found: String,
    },
    /// An array line names something that is not a bool input.
    ArrayUnknownInput {
        /// The name.
        name: String,
        /// The monitor's bool inputs, comma-separated.
        known: String,
    },
    /// An array line names an input twice.
    ArrayDuplicate {
        /// The input.
        input: String,
    },
    /// A line of a log read through pointers is not a JSON object.
    NotRecord {
        /// A description of the value found.
        found: String,
    },
    /// A step lacks an input read through a pointer.
    MissingAt {
        /// The input.
        input: String,
        /// Where it was looked for.
        pointer: String,
    },
    /// The value at an input's pointer has the wrong JSON type, an int is out
    /// of range, or a string names no variant of the input's enum.
    WrongTypeAt {
        /// The input.
        input: String,
        /// Where the value was found.
        pointer: String,
        /// What it expects and what was found: `expects int, found string "x"`.
        mismatch: String,
    },
    /// A step's time is before the previous step's.
    TimeGoesBack {
        /// The time input.
        input: String,
        /// Where the value was found.
        pointer: String,
        /// This step's time, microseconds since 1970, and whether the log
        /// wrote it as a string.
        time: (i64, bool),
        /// The previous step's time, likewise.
        previous: (i64, bool),
    },
    /// A line gives two values at a place the monitor reads (a repeated key).
    DuplicateAt {
        /// The place.
        pointer: String,
    },
    /// A `hold` input without an initial value is absent before any step gave it.
    NoValueYet {
        /// The input.
        input: String,
        /// Where it was looked for.
        pointer: String,
    },
    /// A step of a keyed log (`--key`) has no session key.
    NoSessionKey {
        /// Where the key was looked for.
        pointer: String,
    },
    /// A session key that is neither a string nor an integer.
    BadSessionKey {
        /// Where the key was found.
        pointer: String,
        /// A description of the value found.
        found: String,
    },
    /// A step would open one live session more than `--max-sessions`.
    TooManySessions {
        /// The key of the session it would open, as JSON.
        key: String,
        /// The limit.
        limit: usize,
    },
}

/// Where in its line an error of some kind is placed: what every trace
/// form's error kind tells the one placement rule ([`placed`](super::placed)).
pub trait Placement {
    /// The key the error is about, if any: it is placed at its last
    /// occurrence before the point where decoding stopped.
    fn field(&self) -> Option<&str> {
        None
    }

    /// Whether the error is about the value after its key (rather than the key).
    fn is_about_value(&self) -> bool {
        false
    }

    /// Whether the error is about the line as a whole (placed at its start).
    fn is_about_line(&self) -> bool {
        false
    }

    /// Whether the error is about something the line lacks (placed at the
    /// brace closing the line).
    fn is_missing(&self) -> bool {
        false
    }
}

impl Placement for TraceErrorKind {
    fn field(&self) -> Option<&str> {
        match self {
            TraceErrorKind::UnknownInput { name, .. }
            | TraceErrorKind::ArrayUnknownInput { name, .. } => Some(name),
            TraceErrorKind::DuplicateInput { input }
            | TraceErrorKind::WrongType { input, .. }
            | TraceErrorKind::ArrayDuplicate { input } => Some(input),
            // The pointer's last key (as written: a key with `~0` or `~1`
            // escapes is not found, and the error goes where decoding stopped).
            TraceErrorKind::DuplicateAt { pointer }
            | TraceErrorKind::BadSessionKey { pointer, .. } => pointer.rsplit('/').next(),
            _ => None,
        }
    }

    fn is_about_value(&self) -> bool {
        matches!(
            self,
            TraceErrorKind::WrongType { .. }
                | TraceErrorKind::WrongTypeAt { .. }
                | TraceErrorKind::TimeGoesBack { .. }
                | TraceErrorKind::BadSessionKey { .. }
        )
    }

    fn is_about_line(&self) -> bool {
        matches!(
            self,
            TraceErrorKind::NotObjectOrArray { .. }
                | TraceErrorKind::NotRecord { .. }
                | TraceErrorKind::TooManySessions { .. }
                | TraceErrorKind::OtlpExport
        )
    }

    fn is_missing(&self) -> bool {
        matches!(
            self,
            TraceErrorKind::MissingInput { .. }
                | TraceErrorKind::MissingAt { .. }
                | TraceErrorKind::NoValueYet { .. }
                | TraceErrorKind::NoSessionKey { .. }
        )
    }
}

impl fmt::Display for TraceErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceErrorKind::Read(e) => write!(f, "cannot read the trace: {e}"),
            TraceErrorKind::InvalidUtf8 => f.write_str("line is not valid UTF-8"),
            TraceErrorKind::LineTooLong { limit } => write!(
                f,
                "line is longer than {limit} bytes; raise the limit with --max-line-bytes \
                 if such lines are expected"
            ),
            TraceErrorKind::MisplacedByteOrderMark => f.write_str(
                "a byte order mark (U+FEFF) is allowed only at the start of the trace \
                 (were two files concatenated?)",
            ),
            TraceErrorKind::OtlpExport => f.write_str(
                "this is an OpenTelemetry export (OTLP/JSON: its lines hold `resourceSpans`), \
                 not JSON Lines of steps; read it with --format otlp",
            ),
            TraceErrorKind::Json(msg) => write!(f, "malformed JSON: {msg}"),
            TraceErrorKind::NotObjectOrArray { found } => write!(
                f,
                "a trace line must be a JSON object giving every input, or an array of \
                 the bool inputs that are true; found {found}"
            ),
            TraceErrorKind::MissingInput { input } => write!(f, "missing input `{input}`"),
            TraceErrorKind::UnknownInput { name, known } => write!(
                f,
                "unknown input `{}` (the monitor's inputs are: {known})",
                Excerpt(name)
            ),
            TraceErrorKind::DuplicateInput { input } => {
                write!(f, "input `{input}` is given twice")
            }
            TraceErrorKind::WrongType {
                input,
                expected,
                found,
            } => write!(f, "input `{input}` expects {expected}, found {found}"),
            TraceErrorKind::ArrayNeedsBoolInputs { input, ty } => write!(
                f,
                "the array form lists the bool inputs that are true and needs every input \
                 to be bool, but input `{input}` is {ty}; give an object with every input"
            ),
            TraceErrorKind::ArrayElementNotString { found } => write!(
                f,
                "array form: elements must be names of bool inputs (strings), found {found}"
            ),
            TraceErrorKind::ArrayUnknownInput { name, known } => write!(
                f,
                "array form: `{}` is not a bool input (the bool inputs are: {known})",
                Excerpt(name)
            ),
            TraceErrorKind::ArrayDuplicate { input } => {
                write!(f, "array form: input `{input}` is listed twice")
            }
            TraceErrorKind::NotRecord { found } => write!(
                f,
                "a log record must be a JSON object (this monitor reads its inputs through \
                 pointers); found {found}"
            ),
            TraceErrorKind::MissingAt { input, pointer } => write!(
                f,
                "missing input `{input}`: no value at \"{}\" (declare `default` or `hold` \
                 for an input that steps may lack)",
                Excerpt(pointer)
            ),
            TraceErrorKind::WrongTypeAt {
                input,
                pointer,
                mismatch,
            } => write!(
                f,
                "input `{input}` (at \"{}\") {mismatch}",
                Excerpt(pointer)
            ),
            TraceErrorKind::TimeGoesBack {
                input,
                pointer,
                time,
                previous,
            } => write!(
                f,
                "time `{input}` (at \"{}\") goes back: {} is before the previous step's {}",
                Excerpt(pointer),
                super::visit::time_text(*time, previous.1),
                super::visit::time_text(*previous, time.1),
            ),
            TraceErrorKind::DuplicateAt { pointer } => write!(
                f,
                "two values at \"{}\": the key is repeated where the monitor reads",
                Excerpt(pointer)
            ),
            TraceErrorKind::NoValueYet { input, pointer } => write!(
                f,
                "input `{input}` has no value yet: `hold` keeps the last value given, and no \
                 step has given one at \"{}\" (declare `hold initially VALUE`)",
                Excerpt(pointer)
            ),
            TraceErrorKind::NoSessionKey { pointer } => write!(
                f,
                "no session key at \"{}\" (--key); every step of a keyed log names its session",
                Excerpt(pointer)
            ),
            TraceErrorKind::BadSessionKey { pointer, found } => write!(
                f,
                "the session key at \"{}\" (--key) must be a string or an integer, found {found}",
                Excerpt(pointer)
            ),
            TraceErrorKind::TooManySessions { key, limit } => write!(
                f,
                "session {} would be live session {} (--max-sessions {limit}); raise the \
                 limit, or declare `sessions end where ...` in the monitor so that ended \
                 sessions are freed",
                key_text(key),
                limit.saturating_add(1)
            ),
        }
    }
}

/// A session key (JSON, so escaped already) as a message quotes it: cut
/// after 64 characters.
fn key_text(key: &str) -> String {
    match key.char_indices().nth(64) {
        Some((cut, _)) => format!("{}… ({} bytes in all)", &key[..cut], key.len()),
        None => key.to_string(),
    }
}

/// A rejected trace line: where, and why. `K` is the error kind of the trace
/// form (monitor lines by default; [`SystemErrorKind`](crate::system::SystemErrorKind)
/// and [`PopulationErrorKind`](crate::population::PopulationErrorKind) wrap
/// [`TraceErrorKind`] for the problems all forms share).
#[derive(Debug)]
pub struct TraceError<K = TraceErrorKind> {
    /// 1-based line number in the trace (blank lines count).
    pub line: usize,
    /// 1-based column in characters, when the error has a place within the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: K,
}

impl<K: fmt::Display> TraceError<K> {
    /// The error as one rustc-style line: `error: FILE:LINE:COL: message`.
    pub fn render(&self, file: &str) -> String {
        format!("error: {file}:{self}")
    }
}

impl<K> TraceError<K> {
    /// The same error, its kind widened to the kind of another trace form.
    pub fn lift<J: From<K>>(self) -> TraceError<J> {
        TraceError {
            line: self.line,
            column: self.column,
            kind: J::from(self.kind),
        }
    }
}

impl<K: fmt::Display> fmt::Display for TraceError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(col) => write!(f, "{}:{col}: {}", self.line, self.kind),
            None => write!(f, "{}: {}", self.line, self.kind),
        }
    }
}

impl<K: fmt::Debug + fmt::Display> std::error::Error for TraceError<K> {}

/// A rejected line before its line number is known.
#[derive(Debug)]
pub struct LineError<K = TraceErrorKind> {
    /// 1-based column in characters, if the error has a place within the line.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: K,
}

impl<K> LineError<K> {
    /// The error, placed on 1-based line `line`.
    pub fn at_line(self, line: usize) -> TraceError<K> {
        TraceError {
            line,
            column: self.column,
            kind: self.kind,
        }
    }
}
