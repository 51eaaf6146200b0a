//! Python values written as JSON, for events handed to the trace decoder:
//! dicts, lists, tuples, strings, bools, ints, floats and `None` as
//! `json.dumps` writes them, except for two kinds of float, written as
//! pandas means them: NaN, pandas' mark of a missing value in any column,
//! is `null` (no value, as in a log line; pandas' `to_json` writes it so
//! too), and a float with no fraction within ±2^53 is the integer it
//! equals (see [`EXACT`]). Any other value is written as the JSON of what
//! the caller's `default` converts it to (as `json.dumps(default=...)`
//! does).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// How deep events may nest (the decoder bounds what it reads anyway).
const MAX_DEPTH: usize = 128;

/// 2^53: every integer up to it in magnitude is a float, so a float with no
/// fraction within it is an integer exactly; beyond it, a float may be an
/// integer rounded (pandas turns an int column with a missing value into
/// floats, and a long past 2^53 loses digits on the way), and stays a float
/// an int input refuses.
///
/// A float within it is written as its integer so that an int input takes
/// `101.0` as 101 (the trace decoder refuses a float for an int input, as
/// `hindsight check` does for log lines). Nothing else reads the number
/// differently: a float or time input reads an integer as the same float,
/// and filters compare numbers by value. `-0.0` stays a float (an int input
/// reads it as 0 anyway, and a float input keeps its sign).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Appends `value` as JSON to `out`, other values converted by `default`
/// (whose errors propagate); `ValueError` for an infinite float or nesting
/// past [`MAX_DEPTH`].
pub(crate) fn write(
    value: &Bound<'_, PyAny>,
    out: &mut String,
    default: &Bound<'_, PyAny>,
) -> PyResult<()> {
    write_nested(value, out, default, 0)
}

/// `value`'s `Display` appended to `out` in place (no string of its own).
fn push_display(out: &mut String, value: impl std::fmt::Display) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = write!(out, "{value}");
}

/// A string's UTF-8 as a Python bytes object, read in place: under the
/// stable ABI of 3.9 a `str` has no borrowed UTF-8, and copying it into a
/// Rust string would allocate on the Rust side at every key and value.
pub(crate) fn utf8<'py>(s: &Bound<'py, PyString>) -> PyResult<Utf8<'py>> {
    Ok(Utf8(s.encode_utf8()?))
}

/// The UTF-8 of a Python string (see [`utf8`]).
pub(crate) struct Utf8<'py>(Bound<'py, PyBytes>);

impl Utf8<'_> {
    /// The text: a `str`'s UTF-8 encoding is valid UTF-8.
    pub(crate) fn as_str(&self) -> PyResult<&str> {
        std::str::from_utf8(self.0.as_bytes()).map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// [`write()`] of a value `depth` levels down.
fn write_nested(
    value: &Bound<'_, PyAny>,
    out: &mut String,
    default: &Bound<'_, PyAny>,
    depth: usize,
) -> PyResult<()> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!(
            "an event nests more than {MAX_DEPTH} levels"
        )));
    }
    if value.is_none() {
        out.push_str("null");
    } else if let Ok(b) = value.cast::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(i) => push_display(out, i),
            // Beyond i64: its digits (the decoder says it is out of range).
            Err(_) => out.push_str(utf8(&value.str()?)?.as_str()?),
        }
    } else if let Ok(f) = value.cast::<PyFloat>() {
        let x = f.value();
        if x.is_nan() {
            out.push_str("null");
        } else if x.is_infinite() {
            return Err(PyValueError::new_err(format!(
                "{x} is not a JSON number (an event's floats are finite)"
            )));
        } else if x.fract() == 0.0 && x.abs() <= EXACT && !(x == 0.0 && x.is_sign_negative()) {
            // Within ±2^53 the cast is exact.
            push_display(out, x as i64);
        } else {
            // Rust writes the shortest digits that read back as `x`; a whole
            // float (beyond 2^53, or -0.0) keeps a fraction so that it stays
            // a float, as in Python.
            let start = out.len();
            push_display(out, x);
            if !out[start..].contains(['.', 'e', 'E']) {
                out.push_str(".0");
            }
        }
    } else if let Ok(s) = value.cast::<PyString>() {
        hindsight_trace::json::push_string(out, utf8(s)?.as_str()?);
    } else if let Ok(d) = value.cast::<PyDict>() {
        out.push('{');
        for (k, (key, item)) in d.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err("an event's keys are strings"));
            };
            hindsight_trace::json::push_string(out, utf8(key)?.as_str()?);
            out.push(':');
            write_nested(&item, out, default, depth + 1)?;
        }
        out.push('}');
    } else if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        out.push('[');
        for (k, item) in value.try_iter()?.enumerate() {
            if k > 0 {
                out.push(',');
            }
            write_nested(&item?, out, default, depth + 1)?;
        }
        out.push(']');
    } else {
        write_nested(&default.call1((value,))?, out, default, depth + 1)?;
    }
    Ok(())
}
