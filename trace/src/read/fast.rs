//! A fast path for the commonest monitor line: a flat object of plain keys
//! and scalar values (`{"request": true, "pkg": 3, "status": "passed"}`),
//! scanned by hand in one pass. Anything else — an escape, a fraction or
//! exponent, `null`, a nested value, an unknown or repeated key, a value of
//! the wrong type, malformed JSON — is left to the serde path, which then
//! decodes the line from scratch and words any error: the fast path only
//! ever accepts what serde would decode the same way (a property test checks
//! this on random lines).

use super::schema::InputSchema;
use super::visit::{lookup, same_bytes, value_of, Scalar};
use hindsight_runtime::Value;

/// Decodes `line` into `out` (a slot per input), marking the inputs given in
/// `seen` and updating the key-position `hints` as the serde path does;
/// `false` if the line is not of the simple form (`out`, `seen` and `hints`
/// are then unspecified).
pub(super) fn flat_object(
    line: &str,
    inputs: &[InputSchema],
    hints: &mut [usize],
    seen: &mut [bool],
    out: &mut [Value],
) -> bool {
    let bytes = line.as_bytes();
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
        let Some((found, after)) = scalar(line, at) else {
            return false;
        };
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
/// closing quote, if it has no escape and no control character.
#[inline(always)]
fn string(line: &str, at: usize) -> Option<(&str, usize)> {
    let (text, after) = quoted(line.as_bytes(), at)?;
    // The quotes are ASCII: the text between them is whole characters.
    Some((line.get(at + 1..at + 1 + text.len())?, after))
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
fn scalar(line: &str, at: usize) -> Option<(Scalar<'_>, usize)> {
    let bytes = line.as_bytes();
    // `true` or `false` without a branch on which: logs' Booleans vary from
    // line to line at random, and a branch on them mispredicted half the
    // time (a tenth of the scanner's time).
    let is_true = bytes.get(at..at + 4) == Some(b"true");
    let is_false = bytes.get(at..at + 5) == Some(b"false");
    if is_true | is_false {
        return Some((Scalar::Bool(is_true), at + 4 + usize::from(is_false)));
    }
    match bytes.get(at)? {
        b'"' => string(line, at).map(|(s, after)| (Scalar::Str(s), after)),
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
