//! A fast path for the commonest monitor line: a flat object of plain keys
//! and scalar values (`{"request": true, "pkg": 3, "status": "passed"}`),
//! scanned by hand in one pass. Anything else — an escape, a fraction or
//! exponent, `null`, a nested value, an unknown or repeated key, a value of
//! the wrong type, malformed JSON — is left to the serde path, which then
//! decodes the line from scratch and words any error: the fast path only
//! ever accepts what serde would decode the same way (a property test checks
//! this on random lines).
//!
//! Both scanners read raw bytes: every byte of a line they accept is a
//! structural character, blank, a key equal to an input's name, or a scalar
//! they read whole (a string's bytes are checked), so an accepted line is
//! UTF-8 and needs no separate check.
//!
//! Logs repeat one layout line after line: the same keys in the same order
//! with the same blanks. [`Shape`] learns the bytes between the values of
//! the last line the scanner accepted and reads the next line by comparing
//! them in place, word by word, reading only the values.

use super::schema::{InputSchema, InputType};
use super::visit::{lookup, same_bytes, value_of, Scalar};
use hindsight_runtime::Value;

/// Decodes `bytes` (a line) into `out` (a slot per input), marking the
/// inputs given in `seen`, updating the key-position `hints` as the serde
/// path does and noting where each value lies in `spans`; `false` if the
/// line is not of the simple form (`out`, `seen`, `hints` and `spans` are
/// then unspecified).
pub(super) fn flat_object(
    bytes: &[u8],
    inputs: &[InputSchema],
    hints: &mut [usize],
    seen: &mut [bool],
    out: &mut [Value],
    spans: &mut Vec<Span>,
) -> bool {
    spans.clear();
    let mut at = blank(bytes, 0);
    if bytes.get(at) != Some(&b'{') {
        return false;
    }
    seen.fill(false);
    at = blank(bytes, at + 1);
    if bytes.get(at) == Some(&b'}') {
        return blank(bytes, at + 1) == bytes.len();
    }
    let mut position = 0;
    loop {
        // Logs repeat their key order: the key the previous line had here,
        // compared in place, saves scanning the key and looking it up.
        let hint = hints.get(position).copied().unwrap_or(position);
        let (index, after) = match inputs.get(hint).and_then(|i| key_at(bytes, at, &i.name)) {
            Some(after) => (hint, after),
            None => {
                let Some((key, after)) = quoted(bytes, at) else {
                    return false;
                };
                let Some(index) = lookup(inputs, key, hint) else {
                    return false;
                };
                (index, after)
            }
        };
        at = blank(bytes, after);
        if bytes.get(at) != Some(&b':') {
            return false;
        }
        at = blank(bytes, at + 1);
        let Some((found, after)) = scalar(bytes, at) else {
            return false;
        };
        spans.push(Span {
            start: at,
            end: after,
            input: index,
        });
        if let Some(h) = hints.get_mut(position) {
            *h = index;
        }
        position += 1;
        let (Some(given), Some(slot), Some(input)) =
            (seen.get_mut(index), out.get_mut(index), inputs.get(index))
        else {
            return false;
        };
        let Some(value) = value_of(&input.ty, &found).filter(|_| !*given) else {
            return false;
        };
        *slot = value;
        *given = true;
        at = blank(bytes, after);
        match bytes.get(at) {
            Some(b',') => at = blank(bytes, at + 1),
            Some(b'}') => return blank(bytes, at + 1) == bytes.len(),
            _ => return false,
        }
    }
}

/// Whether every input name can be compared with a key's raw bytes: no
/// quote, backslash or control character, so that raw bytes equal to it
/// are a JSON string without escapes whose value is the name. The scanner
/// is for such inputs only.
pub(super) fn plain_names(inputs: &[InputSchema]) -> bool {
    inputs
        .iter()
        .all(|i| i.name.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\'))
}

/// The byte after the key `name` if the line has it, quoted, at `at`
/// (`name` has no quote, backslash or control character).
#[inline(always)]
fn key_at(bytes: &[u8], at: usize, name: &str) -> Option<usize> {
    let name = name.as_bytes();
    let end = at.checked_add(1 + name.len())?;
    let same = same_bytes(bytes.get(at + 1..end)?, name);
    (same && bytes.get(at) == Some(&b'"') && bytes.get(end) == Some(&b'"')).then_some(end + 1)
}

/// The first byte at or after `at` that is no JSON whitespace.
#[inline(always)]
fn blank(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The string starting at `at` (its opening quote) and the byte after its
/// closing quote, if it has no escape and no control character and is
/// UTF-8.
#[inline(always)]
fn string(bytes: &[u8], at: usize) -> Option<(&str, usize)> {
    let (text, after) = quoted(bytes, at)?;
    Some((std::str::from_utf8(text).ok()?, after))
}

/// The bytes of the string starting at `at` (its opening quote) and the
/// byte after its closing quote, if it has no escape and no control
/// character.
#[inline(always)]
fn quoted(bytes: &[u8], at: usize) -> Option<(&[u8], usize)> {
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    // Keys and enum values are short: a plain loop beats a vectorised search.
    let mut end = at + 1;
    loop {
        match *bytes.get(end)? {
            b'"' => break,
            b'\\' | 0..=0x1f => return None,
            _ => end += 1,
        }
    }
    Some((bytes.get(at + 1..end)?, end + 1))
}

/// The scalar starting at `at` — `true`, `false`, an integer, or a string
/// without escapes — as serde_json would hand it to a visitor, and the byte
/// after it.
// Inlined: returned through memory, the scalar stalls the load that reads it
// back (a store-forwarding stall that cost a third of the scanner's time).
#[inline(always)]
fn scalar(bytes: &[u8], at: usize) -> Option<(Scalar<'_>, usize)> {
    // `true` or `false` without a branch on which: logs' Booleans vary from
    // line to line at random, and a branch on them mispredicted half the
    // time (a tenth of the scanner's time).
    let is_true = bytes.get(at..at + 4) == Some(b"true");
    let is_false = bytes.get(at..at + 5) == Some(b"false");
    if is_true | is_false {
        return Some((Scalar::Bool(is_true), at + 4 + usize::from(is_false)));
    }
    match bytes.get(at)? {
        b'"' => string(bytes, at).map(|(s, after)| (Scalar::Str(s), after)),
        b'-' | b'0'..=b'9' => integer(bytes, at),
        _ => None,
    }
}

/// The integer starting at `at`, as serde_json reads it: `UInt` if
/// non-negative, `Int` if negative; `None` for `-0` (a float to serde_json),
/// a leading zero, a fraction or exponent, and anything out of range.
#[inline(always)]
fn integer(bytes: &[u8], at: usize) -> Option<(Scalar<'static>, usize)> {
    let negative = bytes.get(at) == Some(&b'-');
    let start = at + usize::from(negative);
    let digits = bytes
        .get(start..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let end = start + digits;
    if digits == 0
        || (digits > 1 && bytes.get(start) == Some(&b'0'))
        || matches!(bytes.get(end), Some(b'.' | b'e' | b'E'))
    {
        return None;
    }
    let mut magnitude: u64 = 0;
    for &b in bytes.get(start..end)? {
        magnitude = magnitude
            .checked_mul(10)?
            .checked_add(u64::from(b - b'0'))?;
    }
    if !negative {
        return Some((Scalar::UInt(magnitude), end));
    }
    if magnitude == 0 {
        return None;
    }
    let value = 0i64.checked_sub_unsigned(magnitude)?;
    Some((Scalar::Int(value), end))
}

/// Where one value of an accepted line lies, and the input it gives.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    start: usize,
    end: usize,
    input: usize,
}

/// The layout of the last line [`flat_object`] accepted: the bytes around
/// its values, which a line of the same layout repeats exactly.
#[derive(Clone, Debug, Default)]
pub(super) struct Shape {
    /// The bytes before the first value, between each two, and after the
    /// last, one after another.
    text: Vec<u8>,
    /// Per value, in line order: the bytes before it and what it gives.
    values: Vec<Piece>,
    /// The bytes after the last value.
    tail: Run,
    /// Which inputs a line of this shape gives (empty before learning).
    seen: Vec<bool>,
}

/// One value of a [`Shape`]: the run of bytes before it, and the input it
/// gives.
#[derive(Clone, Copy, Debug)]
struct Piece {
    lead: Run,
    input: usize,
    /// Whether the input is a Boolean (read without the general scalar).
    boolean: bool,
}

/// A run of bytes of a [`Shape`]'s text, with the words it is compared by.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    from: usize,
    len: usize,
    /// Runs of 4 to 16 bytes: the first and the last 4 (up to 7 bytes) or
    /// 8 (up to 16) bytes, as little-endian words.
    head: u64,
    tail: u64,
}

impl Run {
    /// The run `text[from..to]`.
    fn new(text: &[u8], from: usize, to: usize) -> Run {
        let len = to - from;
        let run = text.get(from..to).unwrap_or_default();
        let (head, tail) = match len {
            8..=16 => (word(run, 0), word(run, len - 8)),
            4..=7 => (half(run, 0), half(run, len - 4)),
            _ => (None, None),
        };
        Run {
            from,
            len,
            head: head.unwrap_or(0),
            tail: tail.unwrap_or(0),
        }
    }

    /// Whether `bytes` holds this run of `text` at `at`.
    #[inline(always)]
    fn found(&self, text: &[u8], bytes: &[u8], at: usize) -> bool {
        let n = self.len;
        match n {
            8..=16 => {
                (word(bytes, at) == Some(self.head)) & (word(bytes, at + n - 8) == Some(self.tail))
            }
            4..=7 => {
                (half(bytes, at) == Some(self.head)) & (half(bytes, at + n - 4) == Some(self.tail))
            }
            _ => bytes.get(at..at + n) == text.get(self.from..self.from + n),
        }
    }
}

/// The 8 bytes at `at`, as a little-endian word.
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> Option<u64> {
    let w: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// The 4 bytes at `at`, as a little-endian word.
#[inline(always)]
fn half(bytes: &[u8], at: usize) -> Option<u64> {
    let w: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u64::from(u32::from_le_bytes(w)))
}

impl Shape {
    /// Learns the layout of `bytes`, a line [`flat_object`] accepted with
    /// values at `spans`, giving the inputs in `seen`.
    pub(super) fn learn(
        &mut self,
        bytes: &[u8],
        spans: &[Span],
        seen: &[bool],
        inputs: &[InputSchema],
    ) {
        self.text.clear();
        self.values.clear();
        let mut from = 0;
        for span in spans {
            let start = self.text.len();
            self.text
                .extend_from_slice(bytes.get(from..span.start).unwrap_or_default());
            self.values.push(Piece {
                lead: Run::new(&self.text, start, self.text.len()),
                input: span.input,
                boolean: inputs
                    .get(span.input)
                    .is_some_and(|i| i.ty == InputType::Bool),
            });
            from = span.end;
        }
        let start = self.text.len();
        self.text
            .extend_from_slice(bytes.get(from..).unwrap_or_default());
        self.tail = Run::new(&self.text, start, self.text.len());
        self.seen.clear();
        self.seen.extend_from_slice(seen);
    }

    /// Which inputs the lines this shape reads give.
    pub(super) fn seen(&self) -> &[bool] {
        &self.seen
    }

    /// Decodes `bytes` into `out` if it is a line of this shape whose values
    /// the scanner reads; `false` otherwise (`out` is then unspecified). A
    /// line it reads is one [`flat_object`] accepts with the same values.
    pub(super) fn read(&self, bytes: &[u8], inputs: &[InputSchema], out: &mut [Value]) -> bool {
        if self.seen.is_empty() {
            return false;
        }
        let text = self.text.as_slice();
        let mut at = 0;
        // Every comparison is folded into `same` and looked at once, at the
        // end: the only chain from one value to the next is where it starts.
        let mut same = true;
        for piece in &self.values {
            same &= piece.lead.found(text, bytes, at);
            at += piece.lead.len;
            let Some(slot) = out.get_mut(piece.input) else {
                return false;
            };
            if piece.boolean {
                // `true`, or `f` and then `alse`: which one is decided by the
                // first byte, the rest compared as a word (without a branch
                // on which: logs' Booleans vary at random).
                let f = bytes.get(at) == Some(&b'f');
                let rest = if f { *b"alse" } else { *b"true" };
                same &=
                    half(bytes, at + usize::from(f)) == Some(u64::from(u32::from_le_bytes(rest)));
                *slot = Value::Bool(!f);
                at += 4 + usize::from(f);
                continue;
            }
            if !same {
                return false;
            }
            let Some(input) = inputs.get(piece.input) else {
                return false;
            };
            let Some((found, after)) = scalar(bytes, at) else {
                return false;
            };
            let Some(value) = value_of(&input.ty, &found) else {
                return false;
            };
            *slot = value;
            at = after;
        }
        same && at + self.tail.len == bytes.len() && self.tail.found(text, bytes, at)
    }
}
