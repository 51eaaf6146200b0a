"""The Spark job on a real local Spark session (small): its per-session
results equal the audit `hindsight check --summary --key` gives of the same
records, for a JSON record column and for plain columns; the example of
docs/python.md prints what it shows, and rows that could not be read or
checked nothing are among those it looks at."""

import contextlib
import io
import json
import os
import random
import sys
from pathlib import Path

import pytest

import hindsight
from hindsight import Spec, Verdict

# CI sets HINDSIGHT_REQUIRE_SPARK: there a missing pyspark fails instead of
# skipping.
if os.environ.get("HINDSIGHT_REQUIRE_SPARK"):
    import pyspark  # noqa: F401
else:
    pytest.importorskip("pyspark", reason="the Spark test needs pyspark (CI installs it)")
from pyspark.sql import SparkSession  # noqa: E402

from hindsight import spark as hspark  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def session():
    # The executors' Python is this one, where the package is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("hindsight-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )
    yield spark
    spark.stop()


def expected_rows(audit, properties, unmatched):
    """The CLI's summaries as the Spark job's rows (session order); the
    places each session missed from `unmatched(session)`."""
    rows = {}
    for run in audit.runs:
        session = run["session"].strip('"')
        row = {"session": session, "steps": run["steps"], "error": run.get("error")}
        row["vacuous"] = run["steps"] == 0
        row["unmatched"] = unmatched(session)
        row["passed"] = run["steps"] > 0 and all(
            run[p] is Verdict.TRUE and run[f"{p}.false_steps"] == 0 for p in properties
        )
        for p in properties:
            row[p] = str(run[p])
            row[f"{p}_false_steps"] = run[f"{p}.false_steps"]
            row[f"{p}_first_false"] = run[f"{p}.first_false"]
            row[f"{p}_why"] = run.get(f"{p}.why")
        rows[session] = row
    return rows


def test_log_lines_by_session_equal_the_cli_audit(session):
    path = ROOT / "cli/tests/otel/review.records.jsonl"
    spec = Spec.from_file(ROOT / "examples/otel/audit.hind")
    lines = path.read_text().splitlines()
    data = [(json.loads(l)["trace_id"], i, l) for i, l in enumerate(lines)]
    random.Random(7).shuffle(data)  # the order column, not the input order, counts
    df = session.createDataFrame(data, "session string, line bigint, record string").repartition(3)
    result = hspark.audit(spec, df, session="session", order="line", record="record")
    got = {r["session"]: r.asDict() for r in result.collect()}
    properties = spec.monitor().properties
    # The places a session missed: those its records alone miss.
    by_session = {}
    for line in lines:
        by_session.setdefault(json.loads(line)["trace_id"], []).append(json.loads(line))
    alone = lambda s: spec.audit(by_session[s]).unmatched_places
    assert got == expected_rows(spec.audit(path, key="/trace_id"), properties, alone)
    assert got["d0e414d968edc8519ae0a30dfef64997"]["merge_after_tests"] == "false"


def test_plain_columns_by_session_equal_the_cli_audit(session, tmp_path):
    spec = Spec(
        "monitor bench { input request: bool; input reset: bool; input alarm: bool;"
        " property p1 = alarm -> (!reset S request); property p3 = G (request -> F[0,2] alarm); }"
    )
    rng = random.Random(3)
    rows = [
        (f"s{rng.randint(0, 4)}", i, rng.random() < 0.3, rng.random() < 0.2, rng.random() < 0.3)
        for i in range(400)
    ]
    log = tmp_path / "log.jsonl"
    log.write_text("".join(
        json.dumps({"s": s, "request": a, "reset": b, "alarm": c}) + "\n" for s, _, a, b, c in rows
    ))
    df = session.createDataFrame(rows, "s string, i bigint, request boolean, reset boolean, alarm boolean")
    result = hspark.audit(spec, df, session="s", order="i")
    got = {r["session"]: r.asDict() for r in result.collect()}
    # The CLI reads the same records as a keyed log (a key no input names).
    cli = spec.audit(log, key="/s")
    # Inputs without `from` or `default`: no place a line may lack.
    assert got == expected_rows(cli, ["p1", "p3"], lambda s: [])
    assert len(got) == 5


def test_the_docs_example_on_the_coding_agent_logs_prints_what_it_shows(session):
    text = (ROOT / "docs/python.md").read_text()
    after = text.split("<!-- spark-output -->\n", 1)[1]
    code = after.split("```python\n", 1)[1].split("```\n", 1)[0]
    shown = after.split("```python\n", 1)[1].split("```\n", 1)[1].split("```\n", 1)[1].split("```", 1)[0]
    # The code as written; its paths from the checkout, wherever pytest runs.
    code = code.replace('"examples/', f'"{ROOT}/examples/')
    printed = io.StringIO()
    scope = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/python.md", "exec"), scope)
    assert printed.getvalue() == shown
    # Every session's row is the CLI's audit of its log.
    logs = ROOT / "examples/coding_agent"
    spec, result = scope["spec"], scope["result"]
    properties = spec.monitor().properties
    got = {r["session"]: r.asDict() for r in result.collect()}
    expected = {}
    for path in [logs / "session.jsonl", logs / "service.jsonl", *sorted((logs / "runs").glob("*.jsonl"))]:
        records = [json.loads(line) for line in path.read_text().splitlines()]
        # A session misses the places none of its records has a value at.
        def missed(session, records=records):
            mine = [r for r in records if r["session"] == session]
            has = lambda *keys: any(_at(r, keys) is not None for r in mine)
            return [
                place for place, keys in [
                    (EXIT_CODE, ("attributes", "result", "exit_code")), (RETRY, ("attributes", "retry_of"))
                ] if not has(*keys)
            ]
        expected.update(expected_rows(spec.audit(path, key="/session"), properties, missed))
    assert got == expected and len(got) == 7
    # Beside them, a session that cannot be read (a tool the spec does not
    # know) and one that gave no step: the docs' filter looks at both.
    df = session.createDataFrame(
        [
            ("broken", 0, "tool_call", "rm_rf"),
            ("idle", 0, "user.message", None),
            ("fine", 0, "tool_call", "read_file"),
            ("fine", 1, "tool_result", "read_file"),
        ],
        "session string, timestamp bigint, type string, tool string",
    ).selectExpr("session", "timestamp", "type", "named_struct('gen_ai.tool.name', tool) AS attributes")
    more = hindsight.spark.audit(spec, df, session="session", order="timestamp").cache()
    rows = {r["session"]: r.asDict() for r in more.filter("NOT passed").collect()}
    assert sorted(rows) == ["broken", "idle"]
    broken, idle = rows["broken"], rows["idle"]
    assert broken["error"].startswith("1:") and "rm_rf" in broken["error"]
    assert [broken[p] for p in properties] == ["error"] * 3 and broken["vacuous"] is None
    assert (idle["steps"], idle["vacuous"], idle["error"]) == (0, True, None)
    # Read to its end by the fine session, "/attributes/gen_ai.tool.name"
    # matched; no session read to its end has an exit code or a retry.
    assert hindsight.spark.total(more) == {
        "summary": "total", "sessions": 3, "steps": 2, "errors": 1, "vacuous": 1, "unmatched": 2,
        "deploy_gated.violated": 0, "calls_answered.violated": 0, "no_third_retry.violated": 0,
    }
    with pytest.raises(hindsight.AuditFailed) as failed:
        hindsight.spark.check(more)
    assert failed.value.status == 2
    assert failed.value.reasons == [
        "1 trace or session could not be read to the end", "1 trace or session gave no step", EXIT_CODE, RETRY,
    ]


EXIT_CODE = 'input `exit_code` reads "/attributes/result/exit_code", which no line had a value at'
RETRY = 'input `retry` reads "/attributes/retry_of", which no line had a value at'


def _at(record, keys):
    """The value at `keys` in nested `record`, or None."""
    for key in keys:
        if not isinstance(record, dict):
            return None
        record = record.get(key)
    return record
