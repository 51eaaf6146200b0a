//! Decoding one trace line into a reused inputs buffer, and placing errors
//! at a column of the line.

use super::error::{LineError, Placement, TraceErrorKind};
use super::fast::{flat_object, Shape, Span};
use super::record::Records;
use super::schema::TraceSchema;
use super::visit::LineSeed;
use super::Decode;
use crate::audit::Unmatched;
use hindsight_runtime::record::{Absent, Source};
use hindsight_runtime::Value;
use serde::de::DeserializeSeed;

/// Decodes single trace lines against a [`TraceSchema`].
#[derive(Clone, Debug)]
pub struct LineDecoder {
    schema: TraceSchema,
    /// Which inputs the current line has given so far.
    seen: Vec<bool>,
    /// The input named by each key position of the previous line: the first
    /// guess for the same position of the next line.
    hints: Vec<usize>,
    /// How lines are walked when they are log records (see
    /// [`TraceSchema::reads_records`]).
    records: Option<Records>,
    /// Per input: the value of the last step that gave it (for `hold`).
    held: Vec<Option<Value>>,
    /// Whether plain lines try the hand-written scanner first.
    fast_path: bool,
    /// The layout of the last line the scanner accepted.
    pub(super) shape: Shape,
    /// Where the values of the line being scanned lie.
    spans: Vec<Span>,
    /// Steps decoded so far.
    steps: u64,
    /// Per input: the steps it was absent from.
    absent: Vec<u64>,
}

/// What a decoder carries from one step of a trace (or session) to the
/// next: the values `hold` keeps and the last step's time.
#[derive(Clone, Debug, Default)]
pub struct ReadState {
    held: Vec<Option<Value>>,
    last_time: Option<(i64, bool)>,
}

impl ReadState {
    /// Forgets everything: the state before a trace's first step.
    pub fn clear(&mut self) {
        self.held.fill(None);
        self.last_time = None;
    }
}

impl LineDecoder {
    /// The same decoder, decoding every line with serde (the fast path's
    /// oracle).
    #[cfg(test)]
    pub(super) fn without_fast_path(mut self) -> Self {
        self.fast_path = false;
        self
    }

    /// The state of a trace before its first step.
    pub fn fresh_state(&self) -> ReadState {
        ReadState {
            held: vec![None; self.schema.inputs.len()],
            last_time: None,
        }
    }

    /// Copies the state steps carry into `into`, reusing its storage: with
    /// [`restore_state`](Self::restore_state), a line decoded and then
    /// forgotten (a peek) without allocating.
    pub fn save_state(&self, into: &mut ReadState) {
        into.held.clone_from(&self.held);
        into.last_time = self.records.as_ref().and_then(Records::last_time);
    }

    /// Puts back the state [`save_state`](Self::save_state) copied.
    pub fn restore_state(&mut self, from: &ReadState) {
        self.held.clone_from(&from.held);
        if let Some(records) = &mut self.records {
            let mut time = from.last_time;
            records.swap_last_time(&mut time);
        }
    }

    /// Swaps the state steps carry with `state`: how one decoder reads the
    /// interleaved sessions of a keyed log.
    pub fn swap_state(&mut self, state: &mut ReadState) {
        std::mem::swap(&mut self.held, &mut state.held);
        if let Some(records) = &mut self.records {
            records.swap_last_time(&mut state.last_time);
        }
    }

    /// Whether the last line decoded ends its session (`sessions end where`).
    pub fn ends_session(&self) -> bool {
        self.records.as_ref().is_some_and(Records::ends)
    }

    /// The time of the last step, if the steps have one (microseconds since
    /// 1970, and whether the log wrote it as a string).
    pub fn last_time(&self) -> Option<(i64, bool)> {
        self.records.as_ref().and_then(Records::last_time)
    }

    /// The places of the schema no line read so far matched: for log
    /// records, each pointer no line had a value at (a typo, most likely),
    /// with the closest key met instead; for plain lines, each input that
    /// may be absent and was absent from every step.
    pub fn unmatched(&self) -> Vec<Unmatched> {
        if let Some(records) = &self.records {
            return records.unmatched();
        }
        if self.steps == 0 {
            return Vec::new();
        }
        self.schema
            .inputs
            .iter()
            .zip(&self.absent)
            .filter(|&(_, &absent)| absent == self.steps)
            .map(|(input, _)| {
                Unmatched::new(format!(
                    "input `{}` was absent from every step (each took its {})",
                    input.name,
                    match input.field.absent {
                        Absent::Hold(_) => "held value",
                        _ => "default",
                    }
                ))
            })
            .collect()
    }

    /// Whether the session end filter held on some line read so far.
    pub fn ended_any(&self) -> bool {
        self.records.as_ref().is_some_and(Records::ended_any)
    }

    /// Decodes `line` into `out` (one slot per input) with the hand-written
    /// scanner if it reads it: by the last line's layout, else by scanning
    /// it (then learning its layout); `false` to leave it to serde.
    fn scan(&mut self, line: &[u8], out: &mut [Value]) -> bool {
        if !self.fast_path || self.records.is_some() {
            return false;
        }
        let inputs = &self.schema.inputs;
        if self.shape.read(line, inputs, out) {
            self.seen.copy_from_slice(self.shape.seen());
            return true;
        }
        let scanned = flat_object(
            line,
            inputs,
            &mut self.hints,
            &mut self.seen,
            out,
            &mut self.spans,
        );
        if scanned {
            self.shape.learn(line, &self.spans, &self.seen, inputs);
        }
        scanned
    }

    /// Gives each input the line lacks what its `default` or `hold` says,
    /// remembering the values `hold` keeps; an error for an input that
    /// cannot be absent (to be placed on the line).
    fn fill_absent(&mut self, out: &mut [Value]) -> Result<(), TraceErrorKind> {
        self.steps += 1;
        for (i, input) in self.schema.inputs.iter().enumerate() {
            let (Some(&given), Some(slot), Some(held), Some(absent)) = (
                self.seen.get(i),
                out.get_mut(i),
                self.held.get_mut(i),
                self.absent.get_mut(i),
            ) else {
                continue;
            };
            let field = &input.field;
            if given {
                if let Absent::Hold(_) = field.absent {
                    *held = Some(*slot);
                }
                continue;
            }
            *absent += 1;
            *slot = match (&field.source, field.absent, *held) {
                (Source::Present(_), ..) => Value::Bool(false),
                (_, Absent::Default(value), _) => value,
                (_, Absent::Hold(_), Some(value)) | (_, Absent::Hold(Some(value)), None) => value,
                (_, Absent::Hold(None), None) => {
                    let kind = TraceErrorKind::NoValueYet {
                        input: input.name.clone(),
                        pointer: input.pointer(),
                    };
                    return Err(kind);
                }
                (_, Absent::Error, _) => {
                    let input_name = input.name.clone();
                    let kind = match self.records {
                        Some(_) => TraceErrorKind::MissingAt {
                            input: input_name,
                            pointer: input.pointer(),
                        },
                        None => TraceErrorKind::MissingInput { input: input_name },
                    };
                    return Err(kind);
                }
            };
        }
        Ok(())
    }
}

impl Decode for LineDecoder {
    type Schema = TraceSchema;
    type Out = Vec<Value>;
    type Kind = TraceErrorKind;

    /// A decoder for lines giving the inputs of `schema`.
    fn new(schema: TraceSchema) -> Self {
        let schema_inputs = schema.inputs.len();
        let seen = vec![false; schema_inputs];
        let hints = (0..schema.inputs.len()).collect();
        let records = schema.reads_records().then(|| Records::new(&schema));
        let held = vec![None; schema.inputs.len()];
        // Names a key's raw bytes cannot be compared with go to serde.
        let fast_path = super::fast::plain_names(&schema.inputs);
        LineDecoder {
            schema,
            seen,
            hints,
            records,
            held,
            fast_path,
            shape: Shape::default(),
            spans: Vec::new(),
            steps: 0,
            absent: vec![0; schema_inputs],
        }
    }

    fn schema(&self) -> &TraceSchema {
        &self.schema
    }

    /// Only a monitor that reads pointers into `resourceSpans` reads exports
    /// as lines.
    fn reads_exports(&self) -> bool {
        let into_export =
            |pointer: &str| pointer == "/resourceSpans" || pointer.starts_with("/resourceSpans/");
        self.schema.inputs.iter().any(|i| into_export(&i.pointer()))
            || self
                .schema
                .steps
                .iter()
                .chain(&self.schema.session_end)
                .filter_map(|op| op.pointer())
                .any(|p| into_export(p))
    }

    /// Decodes one non-blank line (without its newline) into `out`, which is
    /// resized to one value per input, in declaration order.
    fn decode(&mut self, line: &str, out: &mut Vec<Value>) -> Result<bool, LineError> {
        let n = self.schema.inputs.len();
        out.clear();
        out.resize(n, Value::Bool(false));
        let mut problem = None;
        if let Some(records) = &mut self.records {
            let schema = &self.schema;
            let step = records
                .walk(line, schema, out, &mut self.seen, &mut problem)
                .map_err(|err| line_error(line, &err, problem))?;
            if !step {
                return Ok(false);
            }
        } else if !self.scan(line.as_bytes(), out) {
            // Not the simple form: serde decodes it from scratch (and words
            // any error).
            out.fill(Value::Bool(false));
            let mut de = serde_json::Deserializer::from_str(line);
            let seed = LineSeed {
                schema: &self.schema,
                seen: &mut self.seen,
                hints: &mut self.hints,
                out,
                problem: &mut problem,
            };
            seed.deserialize(&mut de)
                .and_then(|()| de.end())
                .map_err(|err| line_error(line, &err, problem))?;
        }
        self.fill_absent(out)
            .map_err(|kind| placed(line, kind, line.len()))?;
        Ok(true)
    }

    /// Plain lines the scanner reads (which it has then found to be UTF-8).
    fn decode_bytes(
        &mut self,
        line: &[u8],
        out: &mut Vec<Value>,
    ) -> Option<Result<bool, LineError>> {
        out.resize(self.schema.inputs.len(), Value::Bool(false));
        if !self.scan(line, out) {
            return None;
        }
        // An input it lacks that cannot be absent is worded by `decode`,
        // which reads the line the same way.
        self.fill_absent(out).ok()?;
        Some(Ok(true))
    }
}

/// The error serde_json stopped at while decoding `line`: `problem` if a
/// visitor recorded one, else a JSON syntax error.
pub(crate) fn line_error<K: Placement + From<TraceErrorKind>>(
    line: &str,
    err: &serde_json::Error,
    problem: Option<K>,
) -> LineError<K> {
    // serde_json's column counts the bytes consumed on the line.
    let consumed = err.column();
    match problem {
        Some(kind) => placed(line, kind, consumed),
        None => LineError {
            column: Some(char_column(line, consumed.saturating_sub(1))),
            kind: K::from(TraceErrorKind::Json(json_message(err))),
        },
    }
}

/// `kind`, placed in `line` (see [`locate`]) given that decoding stopped
/// after `consumed` bytes; an error about something the line lacks is
/// placed at the brace closing it.
pub(crate) fn placed<K: Placement>(line: &str, kind: K, consumed: usize) -> LineError<K> {
    let column = if kind.is_missing() {
        closing_column(line)
    } else {
        char_column(line, locate(line, &kind, consumed))
    };
    LineError {
        column: Some(column),
        kind,
    }
}

/// The byte offset an error about `kind` points at, given that serde_json had
/// consumed `consumed` bytes: the key (or its value) the error is about, found
/// as the last `"key"` within the consumed bytes; else the first non-blank byte
/// for an error about the whole line; else the last byte consumed.
fn locate<K: Placement>(line: &str, kind: &K, consumed: usize) -> usize {
    if let Some(field) = kind.field() {
        let quoted = crate::json::string(field);
        let before = line.get(..consumed.min(line.len())).unwrap_or(line);
        if let Some(key_start) = before.rfind(&quoted) {
            if !kind.is_about_value() {
                return key_start;
            }
            let after_key = key_start + quoted.len();
            let rest = line.get(after_key..).unwrap_or("");
            let skipped = rest.len() - rest.trim_start_matches([' ', '\t', '\r', ':']).len();
            return after_key + skipped;
        }
    }
    if kind.is_about_line() {
        return line.len() - line.trim_start().len();
    }
    if kind.is_about_value() {
        return value_start(line, consumed);
    }
    consumed.saturating_sub(1)
}

/// Where the value that ends just before byte `consumed` of `line` starts:
/// a string's opening quote, a number's or literal's first character; an
/// object or array (refused as soon as it opened) at its bracket.
fn value_start(line: &str, consumed: usize) -> usize {
    let bytes = line.as_bytes();
    let end = consumed.min(bytes.len());
    let last = end.saturating_sub(1);
    if bytes.get(last) == Some(&b'"') {
        // Back to the quote that is not escaped (preceded by an even number
        // of backslashes).
        let mut at = last;
        while let Some(quote) = bytes
            .get(..at)
            .and_then(|b| b.iter().rposition(|&c| c == b'"'))
        {
            let slashes = bytes
                .get(..quote)
                .map_or(0, |b| b.iter().rev().take_while(|&&c| c == b'\\').count());
            if slashes % 2 == 0 {
                return quote;
            }
            at = quote;
        }
        return last;
    }
    let scalar = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'-');
    let run = bytes
        .get(..end)
        .map_or(0, |b| b.iter().rev().take_while(|c| scalar(c)).count());
    if run == 0 {
        last
    } else {
        end - run
    }
}

/// The column of `line`'s last non-blank character (the brace closing an
/// object): where an error about something the line lacks is placed.
fn closing_column(line: &str) -> usize {
    char_column(line, line.trim_end().len().saturating_sub(1))
}

/// The 1-based character column of byte offset `at` in `line`.
pub(crate) fn char_column(line: &str, at: usize) -> usize {
    let bytes = line.as_bytes();
    let prefix = bytes.get(..at).unwrap_or(bytes);
    // Count UTF-8 lead bytes: every byte that is not a continuation byte.
    prefix.iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1
}

/// serde_json's message without its trailing ` at line L column C`.
pub(crate) fn json_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    match full.rfind(" at line ") {
        Some(at) => full[..at].to_string(),
        None => full,
    }
}

/// Whether the last value of key `name` in `line` is a JSON string.
pub(crate) fn written_as_string(line: &str, name: &str) -> bool {
    let key = crate::json::string(name);
    line.rfind(&key).is_some_and(|at| {
        let rest = line.get(at + key.len()..).unwrap_or("");
        rest.trim_start_matches([' ', '\t', '\r', ':'])
            .starts_with('"')
    })
}
