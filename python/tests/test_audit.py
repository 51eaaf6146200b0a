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
    (run,) = spec.audit(ROOT / "examples/coding_agent/session.jsonl").runs
    assert run["error"].startswith("1:2: unknown key `type` (a population trace line has: agents, globals)")
    with pytest.raises(ValueError, match="matches no file"):
        Spec.from_file(ROOT / "examples/coding_agent/rules.hind").audit(ROOT / "no/such/*.jsonl")


def readme_guard_lines(command):
    """The guard lines README.md shows for `hindsight check COMMAND`."""
    text = (ROOT / "README.md").read_text()
    block = text.split(f"<!-- output: check {command} -->\n```\n", 1)[1].split("```", 1)[0]
    return [json.loads(line) for line in block.splitlines()]


def guard_counts(lines):
    """Per guard, how many choices it was true, false and unknown at."""
    counts = {}
    for line in lines:
        for guard, verdict in line.items():
            if guard not in ("session", "event", "lifeline"):
                for v in ("true", "false", "unknown"):
                    counts.setdefault(f"{guard}.{v}", 0)
                counts[f"{guard}.{'unknown' if verdict == '?' else verdict}"] += 1
    return counts


def test_a_system_trace_audits_to_the_guard_values_the_readme_shows():
    # Figure 2: 17 events, one choice, at which may_merge is true and
    # failure_seen false (README's guard line).
    spec = Spec.from_file(ROOT / "examples/code_review/review.hind")
    figure2 = ROOT / "examples/code_review/figure2.jsonl"
    (run,) = spec.audit(figure2).runs
    shown = readme_guard_lines("examples/code_review/review.hind --trace examples/code_review/figure2.jsonl")
    events = len(figure2.read_text().splitlines())
    assert run == {"summary": True, "events": events, "choices": len(shown), **guard_counts(shown)}
    events_in_memory = [json.loads(line) for line in figure2.read_text().splitlines()]
    assert spec.audit(events_in_memory).runs == [run]
    # The traced review: one system run per OpenTelemetry trace.
    export = spec.audit(ROOT / "examples/otel/review.otlp.jsonl", format="otlp")
    shown = readme_guard_lines("examples/code_review/review.hind --format otlp --trace examples/otel/review.otlp.jsonl")
    sessions = sorted({line["session"] for line in shown})
    assert [r["session"] for r in export.runs] == sessions
    for run, session in zip(export.runs, sessions):
        expected = guard_counts([line for line in shown if line["session"] == session])
        assert {k: run[k] for k in expected} == expected, session
    assert export.total["sessions"] == 3 and export.total["errors"] == 0
    with pytest.raises(ValueError, match="system block; key splits the sessions of monitor traces only"):
        spec.audit(figure2, key="/trace_id")


def test_a_population_trace_audits_as_its_steps_say():
    spec = Spec.from_file(ROOT / "examples/epidemic/epidemic.hind")
    path = ROOT / "examples/epidemic/run.jsonl"
    steps = [json.loads(line) for line in path.read_text().splitlines()]
    (run,) = spec.audit(path).runs
    assert run["steps"] == len(steps)
    # Worked out from the steps themselves: outbreak_bounded is G (infected <= 60),
    # lockdown_justified is lockdown -> O[0,3] (infected >= 20).
    infected = [sum(a["health"] == "infected" for a in s["agents"]) for s in steps]
    assert run["outbreak_bounded"] is (Verdict.TRUE if max(infected) <= 60 else Verdict.FALSE)
    unjustified = [
        i for i, s in enumerate(steps) if s["globals"]["lockdown"] and not any(n >= 20 for n in infected[max(0, i - 3) : i + 1])
    ]
    assert run["lockdown_justified.false_steps"] == len(unjustified)
    assert run["lockdown_justified.first_false"] == (unjustified[0] if unjustified else None)
    assert "infected_now" in run["lockdown_justified.why"]
    # Stepping the same steps through a Population gives the same verdicts:
    # the end verdict is false where some step was false, else finish()'s.
    population = spec.population()
    stepped = [population.step(s["agents"], s.get("globals")) for s in steps]
    for name, end in population.finish().items():
        false_steps = [i for i, v in enumerate(stepped) if v[name] is Verdict.FALSE]
        assert run[name] is (Verdict.FALSE if false_steps else end), name
        assert run[f"{name}.false_steps"] == len(false_steps), name
    with pytest.raises(ValueError, match="population block: it reads population traces"):
        spec.audit(path, format="otlp")
