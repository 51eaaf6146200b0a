"""Audits from Python: the summaries the README shows for the traced code
review, errors placed as the CLI places them, and agreement with stepping
the same log through a Monitor."""

import json
from pathlib import Path

import pytest

import hindsight
from hindsight import Spec, Verdict

ROOT = Path(__file__).resolve().parents[2]


def readme_summaries():
    """The summary lines README.md shows for the OpenTelemetry audit, each
    cut short with `...` (the keys it shows)."""
    text = (ROOT / "README.md").read_text()
    block = text.split("--format otlp --trace examples/otel/review.otlp.jsonl --summary -->\n```\n", 1)[1]
    block = block.split("```", 1)[0]
    return [json.loads(line.replace(", ...}", "}")) for line in block.splitlines()]


def test_the_records_of_the_traced_review_audit_as_the_readme_shows():
    # review.records.jsonl holds the records the OTLP export becomes; each
    # OpenTelemetry trace is a session.
    spec = Spec.from_file(ROOT / "examples/otel/audit.hind")
    audit = hindsight.audit(spec, ROOT / "cli/tests/otel/review.records.jsonl", key="/trace_id")
    *shown, total = readme_summaries()
    assert audit.total == total
    assert len(audit.runs) == len(shown) == 3
    for run, expected in zip(audit.runs, shown):
        for k, v in expected.items():
            assert str(run[k]) == v if isinstance(run[k], Verdict) else run[k] == v, k
    assert audit.runs[1]["merge_after_tests"] is Verdict.FALSE
    assert "why" not in audit.runs[0] and audit.runs[1]["merge_after_tests.why"]
    assert audit.messages == []


def test_the_opentelemetry_export_audits_as_the_readme_shows():
    # The README's command: --format otlp over the export the Python SDK wrote.
    spec = Spec.from_file(ROOT / "examples/otel/audit.hind")
    audit = spec.audit(ROOT / "examples/otel/review.otlp.jsonl", format="otlp")
    records = spec.audit(ROOT / "cli/tests/otel/review.records.jsonl", key="/trace_id")
    *shown, total = readme_summaries()
    assert audit.total == total
    for run, expected in zip(audit.runs, shown):
        for k, v in expected.items():
            assert str(run[k]) == v if isinstance(run[k], Verdict) else run[k] == v, k
    # Each span is the record its records file holds: the same verdicts.
    strip = lambda runs: [{k: v for k, v in r.items() if not k.endswith(("_line", "why"))} for r in runs]
    assert strip(audit.runs) == strip(records.runs)
    with pytest.raises(ValueError, match="format"):
        spec.audit(ROOT / "examples/otel/review.otlp.jsonl", format="otel")


def test_a_directory_of_logs_and_a_bad_one(tmp_path):
    session = (ROOT / "examples/coding_agent/session.jsonl").read_text()
    (tmp_path / "a.jsonl").write_text(session)
    lines = session.splitlines()
    lines[5] = lines[5][:40]  # cut short: not JSON
    (tmp_path / "b.jsonl").write_text("\n".join(lines) + "\n")
    spec = Spec.from_file(ROOT / "examples/coding_agent/rules.hind")
    audit = spec.audit(tmp_path)
    # Traces are named as the CLI names them: the paths found.
    assert [Path(r["trace"]).name for r in audit.runs] == ["a.jsonl", "b.jsonl"]
    good, bad = audit.runs
    assert good["steps"] == 23 and good["deploy_gated"] is Verdict.FALSE
    assert good["deploy_gated.first_false"] == 14
    assert bad["error"] == "6:40: malformed JSON: EOF while parsing a value"
    assert audit.total["errors"] == 1 and audit.total["traces"] == 2
    assert len(audit.messages) == 1 and audit.messages[0].startswith(f"error: {tmp_path / 'b.jsonl'}:6:")


def test_an_audit_agrees_with_stepping_the_log():
    spec = Spec.from_file(ROOT / "examples/coding_agent/rules.hind")
    monitor = spec.monitor()
    steps = [
        v for v in (monitor.step(json.loads(l)) for l in (ROOT / "examples/coding_agent/session.jsonl").read_text().splitlines())
        if v is not None
    ]
    (run,) = spec.audit(ROOT / "examples/coding_agent/session.jsonl").runs
    assert run["steps"] == len(steps)
    for name in monitor.properties:
        false_steps = [i for i, v in enumerate(steps) if v[name] is Verdict.FALSE]
        assert run[f"{name}.false_steps"] == len(false_steps), name
        assert run[f"{name}.first_false"] == (false_steps[0] if false_steps else None), name


def test_records_in_memory_audit_as_their_file():
    path = ROOT / "cli/tests/otel/review.records.jsonl"
    spec = Spec.from_file(ROOT / "examples/otel/audit.hind")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    from_file = spec.audit(path, key="/trace_id")
    from_records = spec.audit(records, key="/trace_id")
    assert from_records == from_file
    with pytest.raises(TypeError, match="not a mix"):
        spec.audit([path, records[0]])  # type: ignore[list-item]


def test_audit_refuses_what_it_cannot_run():
    spec = Spec("population p { agent { a: bool } property q = forall x in agents: x.a; }")
    with pytest.raises(ValueError, match="population block"):
        spec.audit(ROOT / "examples/coding_agent/session.jsonl")
    with pytest.raises(ValueError, match="matches no file"):
        Spec.from_file(ROOT / "examples/coding_agent/rules.hind").audit(ROOT / "no/such/*.jsonl")
