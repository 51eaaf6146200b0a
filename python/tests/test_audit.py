"""Audits from Python: the summaries the README shows for the traced code
review, errors placed as the CLI places them, and agreement with stepping
the same log through a Monitor."""

import json
import subprocess
import sys
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


def python_outputs(path):
    """Each `<!-- python-output -->` example of a doc: its code and the
    output it shows."""
    text = (ROOT / path).read_text()
    examples = []
    for after in text.split("<!-- python-output -->\n")[1:]:
        code = after.split("```python\n", 1)[1].split("```\n", 1)[0]
        shown = after.split("```python\n", 1)[1].split("```\n", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
        examples.append((code, shown))
    return examples


def test_the_audit_example_of_the_python_docs_prints_what_it_shows():
    (example,) = python_outputs("docs/python.md")
    code, shown = example
    printed = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
    assert printed.stdout == shown


CODING_AGENT = Spec.from_file(ROOT / "examples/coding_agent/rules.hind")
# rules.hind's places, as the warnings word them.
TOOL = 'input `tool` reads "/attributes/gen_ai.tool.name", which no line had a value at'
EXIT_CODE = 'input `exit_code` reads "/attributes/result/exit_code", which no line had a value at'
RETRY = 'input `retry` reads "/attributes/retry_of", which no line had a value at'


def test_a_log_that_gave_no_step_is_a_vacuous_audit_that_fails_its_check():
    # Records with a `type` but no tool call or result: the step filter
    # holds on none, so nothing is checked, and the pointers under
    # /attributes meet no line ("/type", read by `kind` and the filters, does).
    idle = [{"type": "user.message", "session": "s1"}, {"type": "heartbeat", "session": "s1"}]
    audit = CODING_AGENT.audit(idle)
    (run,) = audit.runs
    assert run["steps"] == 0
    # Past-time properties hold at every step of none: what looks like a pass.
    assert run["deploy_gated"] is Verdict.TRUE
    assert (audit.vacuous, audit.unmatched, audit.is_vacuous) == (1, 3, True)
    assert audit.unmatched_places == [TOOL, EXIT_CODE, RETRY]
    assert audit.violation is False and audit.errors == 0
    assert audit.exit_status() == 3 and audit.exit_status(allow_vacuous=True) == 0
    with pytest.raises(hindsight.AuditFailed) as failed:
        audit.check()
    assert failed.value.status == 3
    assert failed.value.reasons == ["1 trace or session gave no step", TOOL, EXIT_CODE, RETRY]
    assert str(failed.value) == "the audit failed: " + "; ".join(failed.value.reasons)
    audit.check(allow_vacuous=True)
    with pytest.raises(TypeError, match="neither true nor false"):
        bool(audit)


def test_a_place_no_session_matched_is_vacuous_one_some_matched_is_not(tmp_path):
    # service.jsonl without sess_01JNV9, the only session that retries a
    # call: both sessions give steps, but `retry`'s pointer matches no line.
    service = (ROOT / "examples/coding_agent/service.jsonl").read_text().splitlines()
    no_retry = tmp_path / "no_retry.jsonl"
    no_retry.write_text("".join(l + "\n" for l in service if json.loads(l)["session"] != "sess_01JNV9"))
    audit = CODING_AGENT.audit(no_retry, key="/session")
    assert audit.total["sessions"] == 2
    assert (audit.vacuous, audit.unmatched, audit.unmatched_places) == (0, 1, [RETRY])
    assert audit.violation  # sess_01JNV5 deploys before its tests
    assert audit.exit_status() == 1 and audit.exit_status(allow_vacuous=True) == 1
    with pytest.raises(hindsight.AuditFailed) as failed:
        audit.check()
    assert failed.value.reasons == ["`deploy_gated` was false in 1 trace or session", RETRY]
    with pytest.raises(hindsight.AuditFailed) as failed:
        audit.check(allow_vacuous=True)
    assert failed.value.reasons == ["`deploy_gated` was false in 1 trace or session"]
    # Beside session.jsonl, which retries, the place matched in one trace:
    # not vacuous (the warning says in how many traces it went unmatched).
    both = CODING_AGENT.audit([no_retry, ROOT / "examples/coding_agent/session.jsonl"], key="/session")
    assert (both.unmatched, both.unmatched_places, both.is_vacuous) == (0, [], False)
    (warning,) = both.messages
    assert warning.startswith(f"warning: {RETRY}; ") and warning.endswith(" (in 1 of 2 traces)")


def test_a_clean_audit_passes_its_check_and_an_error_fails_it_first():
    # runs/0001.jsonl: its tests pass on a retry before it deploys to staging.
    clean = CODING_AGENT.audit(ROOT / "examples/coding_agent/runs/0001.jsonl")
    assert (clean.errors, clean.violation, clean.is_vacuous, clean.exit_status()) == (0, False, False, 0)
    clean.check()
    # A protocol's violation has no `.violated` count in the total line;
    # the audit still knows of it.
    protocols = Spec.from_file(ROOT / "examples/protocols/aip1.hind")
    conforms = protocols.audit(ROOT / "examples/protocols/aip1.jsonl")
    both = protocols.audit(ROOT / "examples/protocols/aip1_both.jsonl")
    assert (conforms.violation, both.violation) == (False, True)
    assert both.exit_status() == 1
    with pytest.raises(hindsight.AuditFailed, match="a protocol was false"):
        both.check()


def test_an_error_outranks_a_violation_as_in_the_cli(tmp_path):
    session = (ROOT / "examples/coding_agent/session.jsonl").read_text()
    (tmp_path / "a.jsonl").write_text(session)
    lines = session.splitlines()
    (tmp_path / "b.jsonl").write_text("\n".join(lines[:5] + [lines[5][:40]]) + "\n")
    audit = CODING_AGENT.audit(tmp_path)
    # a.jsonl breaks all three rules (README: steps 14, 15 and 21); b.jsonl
    # stops at its line 6, before any step could break one.
    assert audit.exit_status() == 2
    with pytest.raises(hindsight.AuditFailed) as failed:
        audit.check()
    assert failed.value.status == 2
    assert failed.value.reasons == [
        "1 trace or session could not be read to the end",
        "`deploy_gated` was false in 1 trace or session",
        "`calls_answered` was false in 1 trace or session",
        "`no_third_retry` was false in 1 trace or session",
    ]
