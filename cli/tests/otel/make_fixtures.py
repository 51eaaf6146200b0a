"""Writes the OpenTelemetry fixtures of the OTLP tests with the real Python SDK.

The code-review workflow of examples/code_review/review.hind runs three times
as four services (one TracerProvider each, as four processes would have),
calling each other with W3C trace context carried through a header dict:

    Orchestrator  invoke_agent review            (cand)
      TestRunner  execute_tool run_tests         (cand, status), event test.finished
      Security    execute_tool security_scan     (cand, status)
      Committer   merge                          (cand)

  trace 1: tests pass, the scan clears, the Committer merges after both replies;
  trace 2: the tests fail;
  trace 3: the Committer is called before the Security scan replies.

Each service's finished spans of a trace are encoded by the SDK's OTLP encoder
(`encode_spans`, an ExportTraceServiceRequest) and written as one JSON line in
the OTLP/JSON form the Collector's file exporter writes (ids as hex strings,
enums as integers): review.otlp.jsonl.

review.records.jsonl is the monitor view of the same spans, computed here from
the SDK's ReadableSpan objects, not from the export: a second implementation
of the mapping docs/language.md section 5c specifies, which the Rust reader
must match.

Usage: make_fixtures.py [EXPORT RECORDS]
  (default: examples/otel/review.otlp.jsonl and cli/tests/otel/review.records.jsonl)
"""

import json
import os
import random
import sys
from datetime import datetime, timezone

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import SpanKind, Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

SERVICES = ["Orchestrator", "TestRunner", "Security", "Committer"]
SCOPE = "hindsight.fixtures"
# 2026-03-02T14:05:00Z in nanoseconds.
BASE_NS = 1_772_460_300 * 10**9
MS = 10**6


class SeededIds(IdGenerator):
    """Trace and span ids from a seeded generator: reproducible fixtures."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def generate_span_id(self):
        return self.rng.getrandbits(64) or 1

    def generate_trace_id(self):
        return self.rng.getrandbits(128) or 1


def providers():
    """One TracerProvider (and in-memory exporter) per service."""
    ids = SeededIds(20260302)
    made = {}
    for service in SERVICES:
        exporter = InMemorySpanExporter()
        # The SDK's default resource, less its random service.instance.id.
        detected = Resource.create({"service.name": service}).attributes
        resource = Resource({k: v for k, v in detected.items() if k != "service.instance.id"})
        provider = TracerProvider(resource=resource, id_generator=ids)
        provider.add_span_processor(SimpleSpanProcessor(exporter))
        made[service] = (provider.get_tracer(SCOPE), exporter)
    return made


PROPAGATOR = TraceContextTextMapPropagator()


def call(tracers, service, name, start, end, carrier, attributes, kind, status=None, events=()):
    """A span of `service` for a call whose W3C headers are `carrier`; the
    headers its own calls carry."""
    tracer = tracers[service][0]
    parent = PROPAGATOR.extract(carrier) if carrier is not None else None
    span = tracer.start_span(
        name, context=parent, kind=kind, attributes=attributes, start_time=BASE_NS + start * MS
    )
    for event_name, at, event_attributes in events:
        span.add_event(event_name, attributes=event_attributes, timestamp=BASE_NS + at * MS)
    if status is not None:
        span.set_status(status)
    headers = {}
    from opentelemetry import trace

    PROPAGATOR.inject(headers, context=trace.set_span_in_context(span))
    return span, end, headers


def run_review(tracers, offset, tests, scan, merge_at):
    """One review: spans started and ended at explicit times (ms after the base)."""
    o = offset
    root, root_end, headers = call(
        tracers,
        "Orchestrator",
        "invoke_agent review",
        o,
        o + 100,
        None,
        {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "review", "cand": 7},
        SpanKind.INTERNAL,
    )
    tests_span, tests_end, _ = call(
        tracers,
        "TestRunner",
        "execute_tool run_tests",
        o + 10,
        o + 40,
        headers,
        {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "run_tests",
            "cand": 7,
            "status": tests,
            "tests.names": ["parse_date", "leap_year"],
        },
        SpanKind.SERVER,
        Status(StatusCode.OK if tests == "passed" else StatusCode.ERROR),
        [("test.finished", o + 39, {"passed": 12 if tests == "passed" else 11, "failed": 0 if tests == "passed" else 1})],
    )
    scan_span, scan_end, _ = call(
        tracers,
        "Security",
        "execute_tool security_scan",
        o + 12,
        o + 50,
        headers,
        {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "security_scan", "cand": 7, "status": scan, "score": 0.25},
        SpanKind.SERVER,
    )
    merge_span, merge_end, _ = call(
        tracers,
        "Committer",
        "merge",
        o + merge_at,
        o + merge_at + 15,
        headers,
        {"cand": 7},
        SpanKind.SERVER,
    )
    for span, end in [(tests_span, tests_end), (scan_span, scan_end), (merge_span, merge_end), (root, root_end)]:
        span.end(end_time=BASE_NS + end * MS)


def hex_ids(value):
    """The proto3 JSON of an export with its ids as OTLP/JSON writes them:
    lowercase hexadecimal, not base64."""
    import base64

    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str):
                out[k] = base64.b64decode(v).hex()
            else:
                out[k] = hex_ids(v)
        return out
    if isinstance(value, list):
        return [hex_ids(v) for v in value]
    return value


def rfc3339(ns):
    """A time in nanoseconds as RFC 3339 UTC, the fraction without trailing zeros."""
    seconds, fraction = divmod(ns, 10**9)
    text = datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    digits = f"{fraction:09d}".rstrip("0")
    return text + ("." + digits if digits else "") + "Z"


def plain(value):
    """An attribute value as JSON (SDK sequences are tuples)."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    return value


def record_of(span):
    """The monitor view's record of a ReadableSpan (docs/language.md 5c)."""
    context = span.get_span_context()
    record = {
        "otel": "span",
        "name": span.name,
        "kind": span.kind.name.lower(),
        "status": span.status.status_code.name.lower(),
        "trace_id": f"{context.trace_id:032x}",
        "span_id": f"{context.span_id:016x}",
        "service": span.resource.attributes.get("service.name"),
        "time": rfc3339(span.start_time),
        "end_time": rfc3339(span.end_time),
        "duration_ms": (span.end_time - span.start_time) / 1e6,
        "attributes": {k: plain(v) for k, v in span.attributes.items()},
        "resource": {k: plain(v) for k, v in span.resource.attributes.items()},
        "scope": {"name": span.instrumentation_scope.name},
    }
    if span.parent is not None:
        record["parent_span_id"] = f"{span.parent.span_id:016x}"
    return record


def event_record(span, event):
    context = span.get_span_context()
    return {
        "otel": "event",
        "name": event.name,
        "trace_id": f"{context.trace_id:032x}",
        "span_id": f"{context.span_id:016x}",
        "service": span.resource.attributes.get("service.name"),
        "time": rfc3339(event.timestamp),
        "attributes": {k: plain(v) for k, v in event.attributes.items()},
        "span": {"name": span.name},
    }


def monitor_view(spans):
    """Every span and span event as a record, in time order: at equal times a
    span before its children (fewer ancestors first), spans before events,
    then by span id."""
    by_id = {s.get_span_context().span_id: s for s in spans}

    def depth(span):
        d, parent = 0, span.parent
        while parent is not None and parent.span_id in by_id:
            d, parent = d + 1, by_id[parent.span_id].parent
        return d

    keyed = []
    for span in spans:
        sid = span.get_span_context().span_id
        keyed.append(((span.start_time, depth(span), 0, sid, 0), record_of(span)))
        for k, event in enumerate(span.events):
            keyed.append(((event.timestamp, depth(span), 1, sid, k), event_record(span, event)))
    keyed.sort(key=lambda pair: pair[0])
    return [record for _, record in keyed]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", "..", "..")
    export_path, records_path = (
        sys.argv[1:3]
        if len(sys.argv) > 2
        else (
            os.path.join(root, "examples", "otel", "review.otlp.jsonl"),
            os.path.join(here, "review.records.jsonl"),
        )
    )
    tracers = providers()
    for offset, (tests, scan, merge_at) in enumerate(
        [("passed", "cleared", 60), ("failed", "cleared", 60), ("passed", "cleared", 30)]
    ):
        run_review(tracers, offset * 1000, tests, scan, merge_at)
    spans = {service: tracers[service][1].get_finished_spans() for service in SERVICES}
    trace_ids = []
    for service in SERVICES:
        for span in spans[service]:
            t = span.get_span_context().trace_id
            if t not in trace_ids:
                trace_ids.append(t)
    lines = []
    everything = []
    for t in trace_ids:
        for service in SERVICES:
            batch = [s for s in spans[service] if s.get_span_context().trace_id == t]
            if not batch:
                continue
            request = encode_spans(batch)
            as_json = hex_ids(MessageToDict(request, use_integers_for_enums=True))
            lines.append(json.dumps(as_json, separators=(",", ":")))
            everything.extend(batch)
    with open(export_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    # The monitor view per trace, traces in order of first appearance.
    with open(records_path, "w") as f:
        for t in trace_ids:
            mine = [s for s in everything if s.get_span_context().trace_id == t]
            for record in monitor_view(mine):
                f.write(json.dumps(record, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
