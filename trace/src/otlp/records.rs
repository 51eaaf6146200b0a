//! The monitor view of an OpenTelemetry export: every span, then every span
//! event, as one log record, in time order (docs/language.md section 5c).
//! A monitor reads them like any log: `from "/attributes/gen_ai.tool.name"`,
//! `time ts from "/time";`, sessions keyed by `/trace_id`.

use super::{depths, parents, rfc3339, Converted, Span};
use crate::json::Excerpt;
use serde_json::{Map, Value};

/// One record before sorting: (time, depth, spans before events, span id,
/// event index), and whose it is: the span's index and, for an event, the
/// event's index plus one (0 for the span itself).
type Keyed<'s> = ((i64, usize, u8, &'s str, usize), (usize, usize));

/// The records of `spans`: at equal times a span before its children (fewer
/// ancestors first), spans before events, then by span id. Each record is
/// built and written out in turn, so that only the text is held.
pub fn records(spans: &[Span]) -> Converted {
    let depth = depths(&parents(spans));
    let mut keyed: Vec<Keyed<'_>> = Vec::new();
    for (k, span) in spans.iter().enumerate() {
        let d = depth.get(k).copied().unwrap_or(0);
        keyed.push(((span.start, d, 0, span.span_id.as_str(), 0), (k, 0)));
        for (e, event) in span.events.iter().enumerate() {
            let key = (event.time, d, 1, span.span_id.as_str(), e);
            keyed.push((key, (k, e + 1)));
        }
    }
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut converted = Converted {
        spans: spans.len(),
        ..Converted::default()
    };
    let mut seen = std::collections::HashSet::new();
    for span in spans {
        if seen.insert(span.trace_id.as_str()) {
            converted
                .trace_ids
                .push(crate::json::string(&span.trace_id));
        }
    }
    for (_, (k, event)) in keyed {
        let Some(span) = spans.get(k) else { continue };
        match event.checked_sub(1) {
            None => converted.push(&span_record(span), span.origin()),
            Some(e) => {
                let name = span.events.get(e).map_or("", |ev| ev.name.as_str());
                let origin = format!("{} event \"{}\"", span.origin(), Excerpt(name));
                converted.push(&event_record(span, e), origin);
            }
        }
    }
    converted
}

/// The fields every record of `span` has.
fn common(span: &Span, otel: &str, name: &str, time: i64) -> Map<String, Value> {
    let mut record = Map::new();
    record.insert("otel".into(), otel.into());
    record.insert("name".into(), name.into());
    record.insert("trace_id".into(), span.trace_id.clone().into());
    record.insert("span_id".into(), span.span_id.clone().into());
    record.insert(
        "service".into(),
        span.service().map_or(Value::Null, Value::from),
    );
    record.insert("time".into(), rfc3339(time).into());
    record
}

/// A span's record.
fn span_record(span: &Span) -> Value {
    let mut record = common(span, "span", &span.name, span.start);
    record.insert("kind".into(), span.kind.into());
    record.insert("status".into(), span.status.into());
    if let Some(parent) = &span.parent_span_id {
        record.insert("parent_span_id".into(), parent.clone().into());
    }
    record.insert("end_time".into(), rfc3339(span.end).into());
    // Nanoseconds to milliseconds, as a float (exact below 2^53 ns, 104 days).
    let duration = span.end.saturating_sub(span.start) as f64 / 1e6;
    record.insert("duration_ms".into(), duration.into());
    record.insert("attributes".into(), Value::Object(span.attributes.clone()));
    record.insert("resource".into(), Value::Object((*span.resource).clone()));
    record.insert("scope".into(), Value::Object((*span.scope).clone()));
    Value::Object(record)
}

/// The record of `span`'s event `k`.
fn event_record(span: &Span, k: usize) -> Value {
    let Some(event) = span.events.get(k) else {
        return Value::Null;
    };
    let mut record = common(span, "event", &event.name, event.time);
    record.insert("attributes".into(), Value::Object(event.attributes.clone()));
    let mut of = Map::new();
    of.insert("name".into(), span.name.clone().into());
    record.insert("span".into(), Value::Object(of));
    Value::Object(record)
}

#[cfg(test)]
mod tests {
    use super::super::tests::span;
    use super::super::SpanEvent;
    use serde_json::{json, Map, Value};

    /// The records of `spans`, each as (`otel`, `span_id`, `name`).
    fn order(spans: &[super::Span]) -> Vec<(String, String, String)> {
        let converted = super::records(spans);
        assert_eq!(converted.origins.len(), converted.text.lines().count());
        converted
            .text
            .lines()
            .map(|line| {
                let record: Value = serde_json::from_str(line).expect("a JSON record");
                let field = |k: &str| record[k].as_str().unwrap_or_default().to_string();
                (field("otel"), field("span_id"), field("name"))
            })
            .collect()
    }

    /// docs/language.md section 5c: records in time order; at equal times
    /// a span before its children, spans before events, then by span id. A
    /// tool call starting the very nanosecond its agent's span does comes
    /// after it, though exported first and with the smaller id; its event
    /// at that time after both spans; its sibling, a nanosecond later, last.
    #[test]
    fn at_equal_times_a_span_comes_before_its_children_and_its_events() {
        let root = "f000000000000001";
        let mut tool = span(
            ("tool", "0000000000000002", Some(root)),
            Some("agent"),
            (5, 7),
            json!({}),
        );
        tool.events.push(SpanEvent {
            name: "called".into(),
            time: 5,
            attributes: Map::new(),
        });
        let sibling = span(
            ("chat", "0000000000000001", Some(root)),
            Some("agent"),
            (6, 8),
            json!({}),
        );
        let agent = span(("agent", root, None), Some("agent"), (5, 9), json!({}));
        let record =
            |otel: &str, id: &str, name: &str| (otel.to_string(), id.to_string(), name.to_string());
        assert_eq!(
            order(&[tool, sibling, agent]),
            [
                record("span", root, "agent"),
                record("span", "0000000000000002", "tool"),
                record("event", "0000000000000002", "called"),
                record("span", "0000000000000001", "chat"),
            ]
        );
    }
}
