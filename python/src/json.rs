//! Python values written as JSON, for events handed to the trace decoder:
//! dicts, lists, tuples, strings, bools, ints, floats and `None` as
//! `json.dumps` writes them; any other value as the JSON of what the
//! caller's `default` converts it to (as `json.dumps(default=...)` does).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

/// How deep events may nest (the decoder bounds what it reads anyway).
const MAX_DEPTH: usize = 128;

/// Appends `value` as JSON to `out`, other values converted by `default`
/// (whose errors propagate); `ValueError` for a float JSON has no form for
/// or nesting past [`MAX_DEPTH`].
pub(crate) fn write(
    value: &Bound<'_, PyAny>,
    out: &mut String,
    default: &Bound<'_, PyAny>,
) -> PyResult<()> {
    write_nested(value, out, default, 0)
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
            Ok(i) => out.push_str(&i.to_string()),
            // Beyond i64: its digits (the decoder says it is out of range).
            Err(_) => out.push_str(&value.str()?.to_cow()?),
        }
    } else if let Ok(f) = value.cast::<PyFloat>() {
        let x = f.value();
        if !x.is_finite() {
            return Err(PyValueError::new_err(format!(
                "{x} is not a JSON number (an event's floats are finite)"
            )));
        }
        // Rust writes the shortest digits that read back as `x`; a whole
        // float keeps a fraction so that it stays a float, as in Python.
        let text = x.to_string();
        out.push_str(&text);
        if !text.contains(['.', 'e', 'E']) {
            out.push_str(".0");
        }
    } else if let Ok(s) = value.cast::<PyString>() {
        hindsight_trace::json::push_string(out, &s.to_cow()?);
    } else if let Ok(d) = value.cast::<PyDict>() {
        out.push('{');
        for (k, (key, item)) in d.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let Ok(key) = key.cast::<PyString>() else {
                return Err(PyTypeError::new_err("an event's keys are strings"));
            };
            hindsight_trace::json::push_string(out, &key.to_cow()?);
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
