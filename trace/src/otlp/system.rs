//! The system view of an OpenTelemetry export (docs/language.md section 5c):
//! each service a lifeline, each call between services a message. A span
//! whose nearest ancestor on a lifeline is on another lifeline is a call:
//! at its start the caller sends and the callee receives (the span's
//! attributes set the callee's store variables of the same names), at its
//! end the callee replies and the caller receives; any other span is an
//! `act` of its lifeline with its attributes. A lifeline that owns guards
//! makes a `choice` at the start of each of its spans. Each trace is a
//! system run of its own.

use super::{depths, parents, rfc3339, Converted, Seen, Span};
use crate::read::InputType;
use crate::system::SystemSchema;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One event before sorting: (time, class: replies before starts, depth,
/// span id, sub-order), the event, its origin.
type Keyed<'s> = ((i64, u8, usize, &'s str, u8), Value, String);

/// The system events of `spans` for `schema`, trace by trace in order of
/// first appearance.
pub fn events(spans: &[Span], schema: &SystemSchema) -> Converted {
    let lifeline = |name: Option<&str>| {
        schema
            .lifelines()
            .iter()
            .position(|l| Some(l.name.as_str()) == name)
    };
    let parent = parents(spans);
    let depth = depths(&parent);
    let parent_of = |k: usize| parent.get(k).copied().flatten();
    // Per span: the lifeline of it or of its nearest ancestor on one, each
    // found once (in order of depth, so a parent's is known first).
    let mut by_depth: Vec<usize> = (0..spans.len()).collect();
    by_depth.sort_by_key(|&k| depth.get(k).copied().unwrap_or(0));
    let mut on_lifeline: Vec<Option<usize>> = vec![None; spans.len()];
    for &k in &by_depth {
        let own = spans.get(k).and_then(|s| lifeline(s.service()));
        let inherited = || {
            parent_of(k)
                .filter(|&p| depth.get(p) < depth.get(k))
                .and_then(|p| on_lifeline.get(p).copied().flatten())
        };
        let found = own.or_else(inherited);
        if let Some(slot) = on_lifeline.get_mut(k) {
            *slot = found;
        }
    }
    let mut converted = Converted {
        spans: spans.len(),
        ..Converted::default()
    };
    converted.seen.attributes = vec![Vec::new(); schema.lifelines().len()];
    for span in spans {
        let service = span.service().unwrap_or("(no service.name)");
        Seen::keep(&mut converted.seen.services, service);
        if let Some(keys) =
            lifeline(span.service()).and_then(|l| converted.seen.attributes.get_mut(l))
        {
            for key in span.attributes.keys() {
                Seen::keep(keys, key);
            }
        }
    }
    let mut left_out: Vec<String> = Vec::new();
    // Each trace's spans, traces in order of first appearance (one pass).
    let mut order: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, span) in spans.iter().enumerate() {
        let of = members.entry(span.trace_id.as_str()).or_default();
        if of.is_empty() {
            order.push(&span.trace_id);
        }
        of.push(k);
    }
    for trace in order {
        let mut keyed: Vec<Keyed<'_>> = Vec::new();
        let mine = members.get(trace).map_or(&[][..], Vec::as_slice);
        for (k, span) in mine.iter().filter_map(|&k| Some((k, spans.get(k)?))) {
            let Some(me) = lifeline(span.service()) else {
                let service = span.service().unwrap_or("(no service.name)").to_string();
                if !left_out.contains(&service) {
                    left_out.push(service);
                }
                continue;
            };
            // The lifeline of the nearest ancestor on one.
            let caller = parent_of(k).and_then(|p| on_lifeline.get(p).copied().flatten());
            let d = depth.get(k).copied().unwrap_or(0);
            let id = span.span_id.as_str();
            let origin = span.origin();
            let name = |l: usize| schema.lifelines().get(l).map_or("", |x| x.name.as_str());
            let store = |l: usize, time: i64, attributes: bool| {
                let mut store = Map::new();
                for var in schema.lifelines().get(l).map_or(&[][..], |x| &x.vars) {
                    if var.ty == InputType::Time {
                        store.insert(var.name.clone(), rfc3339(time).into());
                    } else if let Some(v) = span.attributes.get(&var.name).filter(|_| attributes) {
                        store.insert(var.name.clone(), v.clone());
                    }
                }
                store
            };
            let event =
                |l: usize, kind: &str, extra: &[(&str, Value)], store: Map<String, Value>| {
                    let mut e = Map::new();
                    e.insert("lifeline".into(), name(l).into());
                    e.insert("kind".into(), kind.into());
                    for (key, value) in extra {
                        e.insert((*key).into(), value.clone());
                    }
                    if !store.is_empty() {
                        e.insert("store".into(), Value::Object(store));
                    }
                    Value::Object(e)
                };
            let start = (span.start, 1, d, id);
            match caller.filter(|&c| c != me) {
                Some(c) => {
                    let reply = format!("{id}.reply");
                    let send = [("to", name(me).into()), ("msg", id.into())];
                    let at = |sub| (start.0, start.1, start.2, start.3, sub);
                    keyed.push((
                        at(0),
                        event(c, "send", &send, store(c, span.start, false)),
                        origin.clone(),
                    ));
                    let recv = [("msg", id.into())];
                    keyed.push((
                        at(1),
                        event(me, "recv", &recv, store(me, span.start, true)),
                        origin.clone(),
                    ));
                    let end = |sub| (span.end, 0, d, id, sub);
                    let back = [("to", name(c).into()), ("msg", reply.clone().into())];
                    keyed.push((
                        end(0),
                        event(me, "send", &back, store(me, span.end, false)),
                        origin.clone(),
                    ));
                    let got = [("msg", reply.into())];
                    keyed.push((
                        end(1),
                        event(c, "recv", &got, store(c, span.end, false)),
                        origin.clone(),
                    ));
                }
                None => {
                    let at = (start.0, start.1, start.2, start.3, 1);
                    keyed.push((
                        at,
                        event(me, "act", &[], store(me, span.start, true)),
                        origin.clone(),
                    ));
                }
            }
            if schema
                .lifelines()
                .get(me)
                .is_some_and(|l| !l.guards.is_empty())
            {
                let at = (start.0, start.1, start.2, start.3, 2);
                keyed.push((
                    at,
                    event(me, "choice", &[], store(me, span.start, false)),
                    origin,
                ));
            }
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        let from = converted.text.len();
        for (_, e, origin) in keyed {
            converted.push(&e, origin);
        }
        let to = converted.text.len();
        if to > from {
            converted
                .traces
                .push((crate::json::string(trace), from..to));
        }
    }
    for service in left_out {
        converted.warnings.push(format!(
            "service `{service}` is no lifeline of the system: its spans are left out (a child \
             span's caller is its nearest ancestor on a lifeline)"
        ));
    }
    converted
}

#[cfg(test)]
mod tests {
    use super::super::tests::span;
    use crate::read::{InputSchema, InputType};
    use crate::system::{LifelineSchema, SystemSchema};
    use serde_json::{json, Value};

    /// The code review's lifelines (examples/code_review/review.hind): the
    /// Committer owns a guard.
    fn review() -> SystemSchema {
        let status = InputType::Enum {
            name: "Status".into(),
            variants: ["pending", "passed", "failed", "cleared", "critical"]
                .map(String::from)
                .to_vec(),
        };
        let lifeline = |name: &str, vars: Vec<InputSchema>, guards: &[&str]| LifelineSchema {
            name: name.into(),
            vars,
            guards: guards.iter().map(|g| g.to_string()).collect(),
        };
        let cand = || InputSchema::new("cand", InputType::Int);
        SystemSchema::new(vec![
            lifeline("Orchestrator", vec![cand()], &[]),
            lifeline(
                "TestRunner",
                vec![cand(), InputSchema::new("status", status)],
                &[],
            ),
            lifeline("Committer", vec![cand()], &["may_merge"]),
        ])
    }

    /// docs/language.md section 5c, worked by hand: the Orchestrator's
    /// root span is an `act`; each child span on another service is a call
    /// (the caller sends, the callee receives with the span's attributes,
    /// the Committer, owning a guard, then makes its choice) and at its end
    /// a reply (the callee sends, the caller receives). At 30 ns the tests'
    /// reply and the call to the Committer share a time: replies go first,
    /// so the Committer's choice has the TestRunner's `passed` in its
    /// causal past (through the Orchestrator) and `may_merge` can hold. In
    /// the other order the choice would come before the reply reached the
    /// Orchestrator, and the Committer would have seen no test at all.
    #[test]
    fn at_equal_times_a_reply_goes_before_the_next_call() {
        let (root, tests, merge) = ("00000000000000a1", "00000000000000b2", "00000000000000c3");
        let spans = [
            span(
                ("merge", merge, Some(root)),
                Some("Committer"),
                (30, 40),
                json!({"cand": 7}),
            ),
            span(
                ("run_tests", tests, Some(root)),
                Some("TestRunner"),
                (10, 30),
                json!({"cand": 7, "status": "passed"}),
            ),
            span(
                ("review", root, None),
                Some("Orchestrator"),
                (0, 100),
                json!({"cand": 7}),
            ),
        ];
        let converted = super::events(&spans, &review());
        assert!(converted.warnings.is_empty(), "{:?}", converted.warnings);
        assert_eq!(converted.traces.len(), 1);
        let events: Vec<Value> = converted
            .text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON event"))
            .collect();
        // A reply's id is the one its send and its receipt name (checked
        // below), other than the call's.
        let msg = |k: usize| events.get(k).map_or(Value::Null, |e| e["msg"].clone());
        assert_eq!(
            events,
            [
                json!({"lifeline": "Orchestrator", "kind": "act", "store": {"cand": 7}}),
                json!({"lifeline": "Orchestrator", "kind": "send", "to": "TestRunner", "msg": tests}),
                json!({"lifeline": "TestRunner", "kind": "recv", "msg": tests,
                       "store": {"cand": 7, "status": "passed"}}),
                json!({"lifeline": "TestRunner", "kind": "send", "to": "Orchestrator", "msg": msg(3)}),
                json!({"lifeline": "Orchestrator", "kind": "recv", "msg": msg(3)}),
                json!({"lifeline": "Orchestrator", "kind": "send", "to": "Committer", "msg": merge}),
                json!({"lifeline": "Committer", "kind": "recv", "msg": merge, "store": {"cand": 7}}),
                json!({"lifeline": "Committer", "kind": "choice"}),
                json!({"lifeline": "Committer", "kind": "send", "to": "Orchestrator", "msg": msg(8)}),
                json!({"lifeline": "Orchestrator", "kind": "recv", "msg": msg(8)}),
            ]
        );
        let ids = [tests.into(), merge.into(), msg(3), msg(8)];
        assert!(ids.iter().all(Value::is_string));
        assert!((1..4).all(|k| !ids[..k].contains(&ids[k])), "{ids:?}");
    }
}
