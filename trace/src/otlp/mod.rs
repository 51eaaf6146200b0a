//! OpenTelemetry traces (`--format otlp`): the OTLP/JSON lines the
//! Collector's file exporter writes, each an `ExportTraceServiceRequest`
//! (`resourceSpans[].scopeSpans[].spans[]`), read into [`Span`]s and then
//! turned into the lines a monitor ([`records()`]) or a system ([`events()`])
//! reads. docs/language.md section 5c specifies both mappings.
//!
//! Ids are hexadecimal (as OTLP/JSON writes them, unlike protobuf's own JSON
//! mapping); 64-bit integers are strings or numbers; enums are
//! integers or their names; unknown fields are ignored. A file's spans are
//! gathered before any is checked (a child may be exported before its
//! parent), at most `max_spans` of them.

mod records;
mod system;

pub use records::records;
pub use system::events;

use crate::json::Excerpt;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::sync::Arc;

/// The most spans one file may hold, by default.
pub const DEFAULT_MAX_SPANS: usize = 1_000_000;

/// The most bytes one file may hold, by default: 512 MiB.
pub const DEFAULT_MAX_EXPORT_BYTES: usize = 512 << 20;

/// One span of an export.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// The trace's id, 32 lowercase hexadecimal digits.
    pub trace_id: String,
    /// The span's id, 16 lowercase hexadecimal digits.
    pub span_id: String,
    /// The parent span's id, if any.
    pub parent_span_id: Option<String>,
    /// Its name.
    pub name: String,
    /// `unspecified`, `internal`, `server`, `client`, `producer` or `consumer`.
    pub kind: &'static str,
    /// `unset`, `ok` or `error`.
    pub status: &'static str,
    /// Start and end, nanoseconds since 1970.
    pub start: i64,
    /// See `start`.
    pub end: i64,
    /// Its attributes, as JSON.
    pub attributes: Map<String, Value>,
    /// Its resource's attributes (shared by the spans of one resource).
    pub resource: Arc<Map<String, Value>>,
    /// Its instrumentation scope (`name`, and `version` if given).
    pub scope: Arc<Map<String, Value>>,
    /// Its events.
    pub events: Vec<SpanEvent>,
    /// The export line it came from (1-based).
    pub line: usize,
}

impl Span {
    /// Its resource's `service.name`, if any.
    pub fn service(&self) -> Option<&str> {
        self.resource.get("service.name").and_then(Value::as_str)
    }

    /// Where it came from, for messages: `LINE: span ID "NAME"`.
    pub fn origin(&self) -> String {
        format!(
            "{}: span {} \"{}\"",
            self.line,
            self.span_id,
            Excerpt(&self.name)
        )
    }
}

/// One event of a span.
#[derive(Clone, Debug, PartialEq)]
pub struct SpanEvent {
    /// Its name.
    pub name: String,
    /// When, nanoseconds since 1970.
    pub time: i64,
    /// Its attributes.
    pub attributes: Map<String, Value>,
}

/// Why an export could not be read: `LINE[:COL]: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtlpError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, for a JSON syntax error.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for OtlpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.column {
            Some(c) => write!(f, "{}:{c}: {}", self.line, self.message),
            None => write!(f, "{}: {}", self.line, self.message),
        }
    }
}

/// The lines a trace's spans became, and where each came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Converted {
    /// JSON Lines text.
    pub text: String,
    /// Per line of `text`: the span it came from (`LINE: span ID "NAME"`).
    pub origins: Vec<String>,
    /// The traces, in order of first appearance: each one's id (as JSON)
    /// and its lines' byte range in `text` (systems check each apart).
    pub traces: Vec<(String, std::ops::Range<usize>)>,
    /// Warnings about spans left out.
    pub warnings: Vec<String>,
    /// The ids of the export's traces (as JSON), in order of first
    /// appearance: what a monitor's sessions are (records only).
    pub trace_ids: Vec<String>,
    /// The spans converted.
    pub spans: usize,
    /// What the spans had, for hints about what a system never met.
    pub seen: Seen,
}

/// The names a system's view of an export met, for hints: the services,
/// and per lifeline the attribute keys of its spans (each list at most
/// [`MAX_SEEN`] names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// `service.name`s seen.
    pub services: Vec<String>,
    /// Per lifeline of the system: attribute keys of its spans.
    pub attributes: Vec<Vec<String>>,
}

/// The most names [`Seen`] keeps per list.
pub const MAX_SEEN: usize = 64;

impl Seen {
    /// Adds `name` to `list`, once, while the list has room.
    pub(crate) fn keep(list: &mut Vec<String>, name: &str) {
        if list.len() < MAX_SEEN && !list.iter().any(|n| n == name) {
            list.push(name.to_string());
        }
    }
}

impl Converted {
    /// Appends `line` (a JSON value) from `origin`.
    pub(crate) fn push(&mut self, line: &Value, origin: String) {
        self.text.push_str(&line.to_string());
        self.text.push('\n');
        self.origins.push(origin);
    }
}

/// What an export may hold: every bound is an error at the export line
/// that goes past it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest line, in bytes (the newline excluded).
    pub line_bytes: usize,
    /// The most spans of one file.
    pub spans: usize,
    /// The most bytes of one file's lines (its spans are held in memory
    /// until they are checked, about three times their size).
    pub bytes: usize,
    /// The most traces of one file, when its traces are sessions all live
    /// until its end (`--max-sessions`; a monitor's view).
    pub traces: Option<usize>,
}

/// The spans of the export `input` holds, in file order, within `limits`.
pub fn read_spans<R: BufRead>(input: R, limits: &Limits) -> Result<Vec<Span>, OtlpError> {
    // Lines as every trace is read: bounded, UTF-8, a byte order mark only
    // at the start, blank lines skipped but counted.
    let mut lines = crate::read::Lines::new(input).with_max(limits.line_bytes);
    let mut spans = Vec::new();
    let mut shared = Shared::default();
    let mut traces: HashSet<String> = HashSet::new();
    let max_spans = limits.spans;
    let mut read: usize = 0;
    loop {
        let text = lines.next_line().map_err(|e| OtlpError {
            line: e.line,
            column: e.column,
            message: e.kind.to_string(),
        })?;
        let Some(text) = text else {
            return Ok(spans);
        };
        read = read.saturating_add(text.len());
        if read > limits.bytes {
            return Err(OtlpError {
                line: lines.line(),
                column: None,
                message: format!(
                    "the export is larger than {} bytes (its spans are held in memory until \
                     they are checked); raise the limit with --max-export-bytes",
                    limits.bytes
                ),
            });
        }
        let request = serde_json::from_str::<Value>(text).map_err(|e| {
            let column = crate::read::char_column(text, e.column().saturating_sub(1));
            (
                column,
                format!("malformed JSON: {}", crate::read::json_message(&e)),
            )
        });
        let line = lines.line();
        let error = |message: String| OtlpError {
            line,
            column: None,
            message,
        };
        let request = request.map_err(|(column, message)| OtlpError {
            line,
            column: Some(column),
            message,
        })?;
        let first = spans.len();
        request_spans(&request, line, &mut spans, &mut shared).map_err(error)?;
        if spans.len() > max_spans {
            return Err(error(format!(
                "more than {max_spans} spans in one file; raise the limit with --max-spans"
            )));
        }
        if let Some(max_traces) = limits.traces {
            for span in spans.get(first..).unwrap_or_default() {
                if !traces.contains(&span.trace_id) {
                    traces.insert(span.trace_id.clone());
                }
            }
            if traces.len() > max_traces {
                return Err(error(format!(
                    "more than {max_traces} traces in one file: each trace is a session, and \
                     an export's sessions are live until its end; raise the limit with \
                     --max-sessions (each costs its monitor's state and about 2 KB)"
                )));
            }
        }
    }
}

/// Resources and scopes met so far, each kept once however many spans
/// share it (the Collector writes a resource per batch; an SDK that writes
/// one span per line repeats it on every line).
#[derive(Default)]
struct Shared {
    maps: HashMap<String, Arc<Map<String, Value>>>,
}

/// The most distinct resources and scopes [`Shared`] keeps.
const MAX_SHARED: usize = 4096;

impl Shared {
    /// `map`, or the copy kept of an equal one.
    fn share(&mut self, map: Map<String, Value>) -> Arc<Map<String, Value>> {
        let text = Value::Object(map).to_string();
        if let Some(kept) = self.maps.get(&text) {
            return Arc::clone(kept);
        }
        let map = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => Arc::new(map),
            _ => Arc::new(Map::new()),
        };
        if self.maps.len() < MAX_SHARED {
            self.maps.insert(text, Arc::clone(&map));
        }
        map
    }
}

/// Appends the spans of one `ExportTraceServiceRequest` (export line `line`).
fn request_spans(
    request: &Value,
    line: usize,
    spans: &mut Vec<Span>,
    shared: &mut Shared,
) -> Result<(), String> {
    let Some(request) = request.as_object() else {
        return Err("an OTLP line is a JSON object (an ExportTraceServiceRequest)".into());
    };
    if !request.contains_key("resourceSpans") && !request.is_empty() {
        let mut keys: Vec<String> = request
            .keys()
            .take(8)
            .map(|k| Excerpt(k).to_string())
            .collect();
        if request.len() > keys.len() {
            keys.push("...".into());
        }
        return Err(format!(
            "this line is no OpenTelemetry export request (no `resourceSpans`; its keys: {}): \
             a JSON Lines log? read it without --format otlp",
            keys.join(", ")
        ));
    }
    for (r, resource_spans) in array(request.get("resourceSpans"), "resourceSpans")?
        .iter()
        .enumerate()
    {
        let at = format!("resourceSpans[{r}]");
        let resource = match resource_spans.get("resource") {
            Some(res) => attributes(res.get("attributes"), &format!("{at}.resource"))?,
            None => Map::new(),
        };
        let resource = shared.share(resource);
        for (s, scope_spans) in array(
            resource_spans.get("scopeSpans"),
            &format!("{at}.scopeSpans"),
        )?
        .iter()
        .enumerate()
        {
            let at = format!("{at}.scopeSpans[{s}]");
            let mut scope = Map::new();
            if let Some(sc) = scope_spans.get("scope") {
                for key in ["name", "version"] {
                    if let Some(v) = sc.get(key).filter(|v| v.as_str() != Some("")) {
                        scope.insert(key.to_string(), v.clone());
                    }
                }
            }
            let scope = shared.share(scope);
            for (k, span) in array(scope_spans.get("spans"), &format!("{at}.spans"))?
                .iter()
                .enumerate()
            {
                let at = format!("{at}.spans[{k}]");
                let mut span = read_span(span, &at)?;
                span.resource = Arc::clone(&resource);
                span.scope = Arc::clone(&scope);
                span.line = line;
                spans.push(span);
            }
        }
    }
    Ok(())
}

/// The array at a field (absent: empty).
fn array<'v>(value: Option<&'v Value>, at: &str) -> Result<&'v [Value], String> {
    match value {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(format!("{at} expects an array, found {}", describe(other))),
    }
}

/// A short description of a JSON value for messages.
fn describe(value: &Value) -> String {
    Excerpt(&value.to_string()).to_string()
}

/// One span at `at`.
fn read_span(span: &Value, at: &str) -> Result<Span, String> {
    let field = |name: &str| span.get(name);
    let trace_id = id(field("traceId"), 16, &format!("{at}: traceId"))?
        .ok_or_else(|| format!("{at}: a span needs a traceId"))?;
    let span_id = id(field("spanId"), 8, &format!("{at}: spanId"))?
        .ok_or_else(|| format!("{at}: a span needs a spanId"))?;
    let parent_span_id = id(field("parentSpanId"), 8, &format!("{at}: parentSpanId"))?;
    let name = field("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let kind = enum_name(field("kind"), KINDS, "SPAN_KIND_", &format!("{at}: kind"))?;
    let status = enum_name(
        field("status").and_then(|s| s.get("code")),
        STATUSES,
        "STATUS_CODE_",
        &format!("{at}: status.code"),
    )?;
    let start = nanos(
        field("startTimeUnixNano"),
        &format!("{at}: startTimeUnixNano"),
    )?;
    let end = nanos(field("endTimeUnixNano"), &format!("{at}: endTimeUnixNano"))?;
    let mut events = Vec::new();
    for (e, event) in array(field("events"), &format!("{at}.events"))?
        .iter()
        .enumerate()
    {
        let at = format!("{at}.events[{e}]");
        events.push(SpanEvent {
            name: event
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            time: nanos(event.get("timeUnixNano"), &format!("{at}: timeUnixNano"))?,
            attributes: attributes(event.get("attributes"), &at)?,
        });
    }
    Ok(Span {
        trace_id,
        span_id,
        parent_span_id,
        name,
        kind,
        status,
        start,
        end,
        attributes: attributes(field("attributes"), at)?,
        resource: Arc::default(),
        scope: Arc::default(),
        events,
        line: 0,
    })
}

/// Span kinds by number.
const KINDS: &[&str] = &[
    "unspecified",
    "internal",
    "server",
    "client",
    "producer",
    "consumer",
];

/// Status codes by number.
const STATUSES: &[&str] = &["unset", "ok", "error"];

/// An enum given as a number or as its protobuf name (`PREFIX` + upper-case
/// name); absent is the first.
fn enum_name(
    value: Option<&Value>,
    names: &'static [&'static str],
    prefix: &str,
    at: &str,
) -> Result<&'static str, String> {
    let found = match value {
        None | Some(Value::Null) => names.first().copied(),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|k| names.get(usize::try_from(k).ok()?).copied()),
        Some(Value::String(s)) => names
            .iter()
            .find(|n| {
                s.strip_prefix(prefix)
                    .is_some_and(|rest| rest.eq_ignore_ascii_case(n))
            })
            .copied(),
        Some(_) => None,
    };
    found.ok_or_else(|| {
        format!(
            "{at} expects one of 0..{} or {prefix}{}, found {}",
            names.len() - 1,
            names.first().map_or(String::new(), |n| n.to_uppercase()),
            value.map_or("nothing".to_string(), describe)
        )
    })
}

/// Nanoseconds since 1970, from a decimal string or a number.
fn nanos(value: Option<&Value>, at: &str) -> Result<i64, String> {
    let parsed = match value {
        None | Some(Value::Null) => Some(0),
        Some(Value::String(s)) => s.parse::<u64>().ok(),
        Some(Value::Number(n)) => n.as_u64(),
        Some(_) => None,
    };
    parsed.and_then(|n| i64::try_from(n).ok()).ok_or_else(|| {
        format!(
            "{at} expects nanoseconds since 1970 (a decimal string or an integer), found {}",
            value.map_or("nothing".to_string(), describe)
        )
    })
}

/// An id of `bytes` bytes as lowercase hexadecimal; `None` if absent or
/// empty.
fn id(value: Option<&Value>, bytes: usize, at: &str) -> Result<Option<String>, String> {
    let text = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.is_empty() => return Ok(None),
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err(format!(
                "{at} expects {} hexadecimal digits, found {}",
                2 * bytes,
                describe(other)
            ))
        }
    };
    if text.len() == 2 * bytes && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(Some(text.to_ascii_lowercase()));
    }
    // Protobuf's own JSON mapping writes bytes in base64: an id of that
    // length is read as such (hexadecimal ids are longer, never ambiguous).
    if let Some(decoded) = base64_id(text, bytes) {
        return Ok(Some(decoded));
    }
    Err(format!(
        "{at} expects {} hexadecimal digits (or protobuf's JSON mapping: {bytes} bytes in \
         base64), found \"{}\"",
        2 * bytes,
        Excerpt(text)
    ))
}

/// `text` as `bytes` bytes in base64 (standard or URL-safe alphabet,
/// padded or not), written as lowercase hexadecimal.
fn base64_id(text: &str, bytes: usize) -> Option<String> {
    let digits = text.trim_end_matches('=');
    let padded = bytes.div_ceil(3) * 4;
    let exact = (bytes * 8).div_ceil(6);
    if digits.len() != exact || (text.len() != exact && text.len() != padded) {
        return None;
    }
    let mut bits: u32 = 0;
    let mut held = 0;
    let mut out = String::with_capacity(2 * bytes);
    for c in digits.bytes() {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push_str(&format!("{:02x}", (bits >> held) & 0xff));
        }
    }
    // The bits left over are padding: zero in a canonical encoding.
    (out.len() == 2 * bytes && bits & ((1 << held) - 1) == 0).then_some(out)
}

/// `[{"key": K, "value": ANYVALUE}]` as a JSON object.
fn attributes(value: Option<&Value>, at: &str) -> Result<Map<String, Value>, String> {
    let mut map = Map::new();
    for (k, kv) in array(value, &format!("{at}.attributes"))?
        .iter()
        .enumerate()
    {
        let key = kv
            .get("key")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{at}.attributes[{k}] needs a string key"))?;
        let value = any_value(kv.get("value"), &format!("{at}.attributes[{k}]"))?;
        map.insert(key.to_string(), value);
    }
    Ok(map)
}

/// An `AnyValue` as JSON: strings, bools, numbers (`intValue` as written in
/// a string or a number), arrays and key-value lists; bytes stay base64.
fn any_value(value: Option<&Value>, at: &str) -> Result<Value, String> {
    let Some(Value::Object(fields)) = value else {
        return Ok(Value::Null);
    };
    let Some((kind, inner)) = fields.iter().next() else {
        return Ok(Value::Null);
    };
    Ok(match (kind.as_str(), inner) {
        ("stringValue" | "boolValue" | "bytesValue", v) => v.clone(),
        ("intValue", Value::String(s)) => s.parse::<i64>().map(Value::from).map_err(|_| {
            format!(
                "{at}: intValue expects a 64-bit integer, found \"{}\"",
                Excerpt(s)
            )
        })?,
        ("intValue" | "doubleValue", Value::Number(n)) => Value::Number(n.clone()),
        ("doubleValue", Value::String(s)) => Value::String(s.clone()),
        ("arrayValue", v) => Value::Array(
            array(v.get("values"), at)?
                .iter()
                .map(|item| any_value(Some(item), at))
                .collect::<Result<_, _>>()?,
        ),
        ("kvlistValue", v) => Value::Object(attributes(v.get("values"), at)?),
        (other, v) => {
            return Err(format!(
                "{at}: unknown value kind \"{}\" ({})",
                Excerpt(other),
                describe(v)
            ))
        }
    })
}

/// A time in nanoseconds as RFC 3339 UTC (the fraction without trailing zeros).
pub(crate) fn rfc3339(nanos: i64) -> String {
    jiff::Timestamp::from_nanosecond(i128::from(nanos))
        .map_or_else(|_| nanos.to_string(), |t| t.to_string())
}

/// Each span's parent among `spans` (in its trace), by index.
pub(crate) fn parents(spans: &[Span]) -> Vec<Option<usize>> {
    let by_id: std::collections::HashMap<(&str, &str), usize> = spans
        .iter()
        .enumerate()
        .map(|(k, s)| ((s.trace_id.as_str(), s.span_id.as_str()), k))
        .collect();
    spans
        .iter()
        .map(|s| {
            let parent = s.parent_span_id.as_deref()?;
            by_id.get(&(s.trace_id.as_str(), parent)).copied()
        })
        .collect()
}

/// Each span's depth (ancestors, by their `parents` indices): each computed
/// once (a chain of a million spans costs a million steps); a span on a
/// cycle of parents counts the ancestors before the cycle closes.
pub(crate) fn depths(parents: &[Option<usize>]) -> Vec<usize> {
    let parent = |k: usize| parents.get(k).copied().flatten();
    let mut depth: Vec<Option<usize>> = vec![None; parents.len()];
    let mut on_walk = vec![false; parents.len()];
    for start in 0..parents.len() {
        // Up to the first span whose depth is known (or the root, or a
        // span already on this walk: a cycle), then back down.
        let mut walk = Vec::new();
        let mut at = Some(start);
        let mut base = 0;
        while let Some(k) = at {
            if let Some(Some(d)) = depth.get(k) {
                base = d + 1;
                break;
            }
            if on_walk.get(k).copied().unwrap_or(true) {
                break;
            }
            if let Some(flag) = on_walk.get_mut(k) {
                *flag = true;
            }
            walk.push(k);
            at = parent(k);
        }
        for (n, &k) in walk.iter().rev().enumerate() {
            if let Some(slot) = depth.get_mut(k) {
                *slot = Some(base + n);
            }
            if let Some(flag) = on_walk.get_mut(k) {
                *flag = false;
            }
        }
    }
    depth.into_iter().map(Option::unwrap_or_default).collect()
}

#[cfg(test)]
mod tests {
    use super::{id, read_spans, Span};
    use serde_json::{json, Map, Value};

    /// A span of trace `t` called `name` with id `id` (and `parent`), of
    /// the service `service`, from `start` to `end`, with `attributes` (a
    /// JSON object) and no events.
    pub(super) fn span(
        (name, id, parent): (&str, &str, Option<&str>),
        service: Option<&str>,
        (start, end): (i64, i64),
        attributes: Value,
    ) -> Span {
        let mut resource = Map::new();
        if let Some(service) = service {
            resource.insert("service.name".into(), service.into());
        }
        Span {
            trace_id: "t".into(),
            span_id: id.into(),
            parent_span_id: parent.map(str::to_string),
            name: name.into(),
            kind: "internal",
            status: "unset",
            start,
            end,
            attributes: attributes.as_object().cloned().unwrap_or_default(),
            resource: resource.into(),
            scope: Default::default(),
            events: Vec::new(),
            line: 1,
        }
    }

    #[test]
    fn depths_follow_long_chains_once_and_stop_at_cycles() {
        let span = |id: usize, parent: Option<usize>| {
            let (id, parent) = (id.to_string(), parent.map(|p| p.to_string()));
            span(("", &id, parent.as_deref()), None, (0, 0), json!({}))
        };
        // A chain of 200,000 spans listed leaf first: linear, not quadratic.
        let n = 200_000;
        let chain: Vec<_> = (0..n).rev().map(|k| span(k, k.checked_sub(1))).collect();
        let depths = super::depths(&super::parents(&chain));
        assert_eq!(depths.first(), Some(&(n - 1)));
        assert_eq!(depths.last(), Some(&0));
        // A cycle of three below a root-less span: finite depths.
        let cycle = vec![
            span(1, Some(3)),
            span(2, Some(1)),
            span(3, Some(2)),
            span(4, Some(1)),
        ];
        let depths = super::depths(&super::parents(&cycle));
        assert_eq!(depths.len(), 4);
        assert!(depths.iter().all(|&d| d < 4));
    }

    #[test]
    fn ids_are_hexadecimal() {
        let hex = json!("0123456789ABCDEF");
        assert_eq!(id(Some(&hex), 8, "x"), Ok(Some("0123456789abcdef".into())));
        assert_eq!(id(Some(&json!("")), 8, "x"), Ok(None));
        // protobuf's JSON mapping writes bytes in base64 (encodings from
        // Python's base64 module), padded or not, either alphabet.
        let b64 = |text: &str, bytes| id(Some(&json!(text)), bytes, "x");
        assert_eq!(b64("ASNFZ4mrze8=", 8), Ok(Some("0123456789abcdef".into())));
        assert_eq!(b64("ASNFZ4mrze8", 8), Ok(Some("0123456789abcdef".into())));
        let trace = Ok(Some("0af7651916cd43dd8448eb211c80319c".into()));
        assert_eq!(b64("CvdlGRbNQ92ESOshHIAxnA==", 16), trace);
        let url_safe = Ok(Some("fbff651916cd43dd8448eb211c80319c".into()));
        assert_eq!(b64("-_9lGRbNQ92ESOshHIAxnA==", 16), url_safe);
        // Not base64 of the right length, or bits past the bytes set.
        assert!(b64("ASNFZ4mrze8=", 16).is_err());
        assert!(b64("ASNFZ4mrze9=", 8).is_err());
        assert!(b64("ASNFZ4mr*e8=", 8).is_err());
        assert!(
            id(Some(&json!("xyz")), 16, "spans[0]: traceId").is_err_and(|e| e.starts_with(
                "spans[0]: traceId expects 32 hexadecimal digits (or protobuf's JSON mapping: 16 \
             bytes in base64), found \"xyz\""
            ))
        );
    }

    /// Limits of lines of `line_bytes` bytes and `spans` spans.
    fn limits(line_bytes: usize, spans: usize) -> super::Limits {
        super::Limits {
            line_bytes,
            spans,
            bytes: usize::MAX,
            traces: None,
        }
    }

    #[test]
    fn an_export_line_gives_its_spans_with_their_resource_and_scope() {
        let line = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"agent"}}]},"scopeSpans":[{"scope":{"name":"s","version":""},"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"chat","kind":"SPAN_KIND_CLIENT","startTimeUnixNano":"5","endTimeUnixNano":7,"attributes":[{"key":"n","value":{"intValue":"3"}},{"key":"l","value":{"arrayValue":{"values":[{"boolValue":true},{"doubleValue":0.5}]}}},{"key":"m","value":{"kvlistValue":{"values":[{"key":"a","value":{"stringValue":"b"}}]}}}],"status":{"code":2},"events":[{"name":"e","timeUnixNano":"6"}]}]}]}]}"#;
        let spans = read_spans(format!("\n{line}\n").as_bytes(), &limits(1 << 20, 10));
        let spans = spans.expect("one span");
        assert_eq!(spans.len(), 1);
        let s = &spans[0];
        assert_eq!(
            (s.kind, s.status, s.start, s.end, s.line),
            ("client", "error", 5, 7, 2)
        );
        assert_eq!(s.service(), Some("agent"));
        assert_eq!(
            serde_json::Value::Object((*s.scope).clone()),
            json!({"name": "s"})
        );
        assert_eq!(
            serde_json::Value::Object(s.attributes.clone()),
            json!({"n": 3, "l": [true, 0.5], "m": {"a": "b"}})
        );
        assert_eq!(s.events.len(), 1);
        // Too many spans, bad JSON, a bad id: errors at the line.
        let two = format!("{line}\n{line}\n");
        assert!(
            read_spans(two.as_bytes(), &limits(1 << 20, 1)).is_err_and(|e| e.to_string()
                == "2: more than 1 spans in one file; raise the limit with --max-spans")
        );
        assert!(
            read_spans("{\"resourceSpans\": [}\n".as_bytes(), &limits(1 << 20, 1))
                .is_err_and(|e| e.line == 1 && e.column == Some(20))
        );
        let bad = line.replace("0af7651916cd43dd8448eb211c80319c", "xyz");
        assert!(
            read_spans(bad.as_bytes(), &limits(1 << 20, 1)).is_err_and(|e| {
                e.to_string().starts_with(
            "1: resourceSpans[0].scopeSpans[0].spans[0]: traceId expects 32 hexadecimal digits \
             (or protobuf's JSON mapping: 16 bytes in base64), found \"xyz\""
        )
            })
        );
        // A value is quoted in at most 80 characters.
        let long = "7".repeat(5_000_000);
        let huge = line.replace(
            "{\"intValue\":\"3\"}",
            &format!("{{\"intValue\":\"{long}\"}}"),
        );
        let error = read_spans(huge.as_bytes(), &limits(1 << 24, 1))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                format!(
                    "1: resourceSpans[0].scopeSpans[0].spans[0].attributes[0]: intValue expects \
                     a 64-bit integer, found \"{}… (5000000 bytes in all)\"",
                    "7".repeat(80)
                )
                .as_str()
            )
        );
        // A JSON Lines log read as an export: refused with a hint.
        let log = r#"{"type": "tool_call", "tool": "deploy"}"#;
        assert_eq!(
            read_spans(log.as_bytes(), &limits(1 << 20, 1))
                .err()
                .map(|e| e.to_string()),
            Some(
                "1: this line is no OpenTelemetry export request (no `resourceSpans`; its \
                 keys: tool, type): a JSON Lines log? read it without --format otlp"
                    .to_string()
            )
        );
    }
}
